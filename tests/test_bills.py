"""Priced bills compared item by item: bidders' folders holding their bills as XML or Excel, checked with
the tender's 招标控制价 XML; copied prices, one build-up and bills derived from another are found, bills
priced apart around the control price raise nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench.bills import (
    OWN_BUILDUP,
    STANDARD,
    bill_items,
    copied_prices,
    make_bill_xlsx,
    make_pricing_xml,
    priced_around,
    resource_list,
    resources_around,
)
from bidcheck.config import Settings
from bidcheck.ingest import read_document
from bidcheck.model import CheckResult, PairResult
from bidcheck.pipeline import CheckInputs, check
from tests.builders import make_docx, paragraphs
from tests.printing import assert_prints_readably


@pytest.fixture(scope="module")
def section(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("bills")
    items = [{**item, "buildup": STANDARD} for item in bill_items(20, 11)]
    listed = resource_list(11)  # the control bill's 人材机 at their 信息价
    make_pricing_xml(root / "招标控制价.xml", [], items, resources=listed)
    make_docx(root / "招标文件.docx", [paragraphs(1, 4)])
    bills = {n: priced_around(items, 100 + n) for n in range(1, 9)}
    prices = {n: resources_around(listed, 100 + n) for n in range(1, 9)}  # each its own market prices
    bills[2] = copied_prices(bills[1], bills[2], 18)  # 02 copied 18 of 01's 20 unit prices
    for n in (3, 4):  # one build-up, their own prices
        bills[n] = [{**item, "buildup": OWN_BUILDUP} for item in bills[n]]
    bills[6] = copied_prices(bills[5], bills[6], 17)
    prices[8] = prices[7][:13] + prices[8][13:]  # 08 took 13 of 07's 16 market prices
    for n in (7, 8):  # the same three edits of the tender's 项目特征
        bills[n] = [
            {**item, "features": item["features"] + "（含场内运输）"} if k in (2, 5, 9) else item
            for k, item in enumerate(bills[n])
        ]
    bills[1][4] = {**bills[1][4], "features": bills[1][4]["features"] + "（含场内运输）"}  # one bid alone
    for n, bill in bills.items():
        folder = root / "bids" / f"0{n}-投标人{n}"
        folder.mkdir(parents=True)
        make_docx(folder / "投标文件.docx", [paragraphs(30 * n, 6)])
        if n in (5, 6):
            make_bill_xlsx(folder / "报价清单.xlsx", bill, resources=prices[n])
        else:
            make_pricing_xml(folder / "造价.xml", [], bill, resources=prices[n])
    return root


@pytest.fixture(scope="module")
def result(section: Path) -> CheckResult:
    inputs = CheckInputs((section / "bids",), (section / "招标文件.docx", section / "招标控制价.xml"))
    return check(inputs, Settings(workers=2))


def _pair(result: CheckResult, a: int, b: int) -> PairResult:
    names = {d.id: d.name[:2] for d in result.documents}
    return next(p for p in result.pairs if {names[p.a], names[p.b]} == {f"0{a}", f"0{b}"})


def test_an_xlsx_bill_is_read_by_its_header(section: Path) -> None:
    doc = read_document(section / "bids" / "05-投标人5" / "报价清单.xlsx", "x")
    assert doc.ok and doc.format == "xlsx" and len(doc.bill) == 20  # the 人材机 sheet is no bill
    first = doc.bill[0]
    assert first.code.startswith("0") and len(first.code) == 12 and first.unit_price and first.quantity
    assert first.features.startswith("1.") and "2." in first.features  # its 项目特征描述
    assert len(doc.resources) == 16 and doc.resources[1].name == "钢筋 HPB300 Φ10以内"
    assert (
        doc.resources[1].code == "01010101" and doc.resources[1].unit == "t" and doc.resources[1].unit_price
    )


def test_an_xml_bills_features_and_price_list_are_read(section: Path) -> None:
    doc = read_document(section / "bids" / "07-投标人7" / "造价.xml", "x")
    assert [i.features.endswith("（含场内运输）") for i in doc.bill].count(True) == 3
    assert len(doc.resources) == 16 and {r.unit for r in doc.resources} >= {"工日", "t", "台班"}
    words = " ".join(b.text for b in doc.blocks)
    assert "项目特征描述" in words and "综合工日" in words  # both are the bill's text too


def test_the_same_market_prices_and_the_same_edits_of_the_features_support(result: CheckResult) -> None:
    pair = _pair(result, 7, 8)
    signs = {s.field: s for s in pair.signals if s.kind == "bill"}
    assert {f: s.strength for f, s in signs.items()} == {
        "same_resources": "supporting",
        "same_features": "supporting",
    }, pair.signals
    resources = signs["same_resources"]
    assert 9 <= len(resources.rows) <= 13 and all(r.a == r.b and r.a != r.control for r in resources.rows)
    assert all(not float(r.a or 0).is_integer() for r in resources.rows)  # a round price is anyone's
    features = signs["same_features"]
    assert len(features.rows) == 3 and "3 项的项目特征描述与招标清单不同" in features.detail
    assert all(r.text.startswith("两家：") and "（含场内运输）；招标清单：" in r.text for r in features.rows)
    assert pair.level in ("watch", "high")


def test_copied_unit_prices_are_strong_with_the_items_side_by_side(result: CheckResult) -> None:
    for a, b, copied in ((1, 2, 18), (5, 6, 17)):  # of 20; a whole-yuan price copied is not counted
        pair = _pair(result, a, b)
        bill = [s for s in pair.signals if s.kind == "bill"]
        assert [(s.field, s.strength) for s in bill] == [("same_prices", "strong")], (a, b, bill)
        rows = bill[0].rows
        assert copied - 3 <= len(rows) <= copied and f"{len(rows)} 项综合单价完全相同" in bill[0].detail
        assert all(r.a == r.b and r.control and r.a < r.control and not r.a.is_integer() for r in rows)
        assert pair.level == "high"


def test_one_build_up_with_other_prices_is_strong(result: CheckResult) -> None:
    pair = _pair(result, 3, 4)
    assert [(s.field, s.strength) for s in pair.signals if s.kind == "bill"] == [("same_buildup", "strong")]
    assert pair.level == "high"


def test_bills_priced_apart_raise_nothing(result: CheckResult) -> None:
    tied = [{1, 2}, {3, 4}, {5, 6}, {7, 8}]
    names = {d.id: int(d.name[1]) for d in result.documents if d.role == "bid"}
    for pair in result.pairs:
        if {names[pair.a], names[pair.b]} not in tied:
            assert not [s for s in pair.signals if s.kind == "bill"], (names[pair.a], names[pair.b])
            assert pair.level == "none", pair.reason


def test_the_workbook_gives_the_matrix_and_the_items_side_by_side(
    result: CheckResult, tmp_path: Path
) -> None:
    from openpyxl import load_workbook

    from bidcheck.report.xlsx import write_xlsx

    write_xlsx(result, tmp_path / "r.xlsx")
    book = load_workbook(tmp_path / "r.xlsx")
    rows = [list(row) for row in book["清单单价矩阵"].iter_rows(values_only=True)]
    names = rows[0][1:9]
    assert len([n for n in names if n]) == 8  # every bidder priced a bill
    one, two = names.index("01-投标人1"), names.index("02-投标人2")
    assert re.fullmatch(r"1[5-8]/1[6-9]（\d+%）", str(rows[1 + one][1 + two]))  # alike / comparable
    assert rows[1 + one][1 + one] in ("", None)  # a bid with itself
    rows = [list(row) for row in book["清单比对"].iter_rows(values_only=True)]
    assert rows[0][0] == "文件A" and rows[0][8:11] == ["A 综合单价", "B 综合单价", "招标控制价"]
    items = [r for r in rows if r[0] == "01-投标人1" and r[1] == "02-投标人2"]
    assert len(items) >= 15 and all(r[8] == r[9] and r[10] > r[8] for r in items)
    assert items[0][3] == "综合单价相同" and "项综合单价完全相同" in items[0][12]
    wording = [r for r in rows if r[0] == "07-投标人7" and r[3] == "项目特征描述改动相同"]
    assert len(wording) == 3 and all("（含场内运输）；招标清单：" in r[11] for r in wording)
    assert_prints_readably(tmp_path / "r.xlsx", tmp_path, "未命名标段")  # both bill sheets too


def test_a_header_of_two_rows_and_a_sheet_stated_wide_are_read(tmp_path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["分部分项工程和单价措施项目清单与计价表"])
    sheet.append(["序号", "项目编码", "项目名称", "计量单位", "工程量", "金额（元）", None])
    sheet.append([None, None, None, None, None, "综合单价", "合价"])
    for n, item in enumerate(bill_items(12, 4), 1):
        sheet.append(
            [
                n,
                item["code"],
                item["name"],
                item["unit"],
                float(item["quantity"]),
                float(item["unit_price"]),
                float(item["total"]),
            ]
        )
    sheet.cell(row=2, column=16000).value = None  # a sheet whose stated size runs far right
    book.save(tmp_path / "报价.xlsx")
    doc = read_document(tmp_path / "报价.xlsx", "x")
    assert doc.ok and len(doc.bill) == 12 and all(i.unit_price and i.total for i in doc.bill)


def test_a_copy_of_the_control_bill_in_a_bidders_folder_is_not_its_bill(
    section: Path, tmp_path: Path
) -> None:
    import shutil

    bids = tmp_path / "bids"
    shutil.copytree(section / "bids", bids)
    for folder in ("01-投标人1", "02-投标人2"):  # both kept the file they imported beside their own
        shutil.copy(section / "招标控制价.xml", bids / folder / "00-招标控制价.xml")
    inputs = CheckInputs((bids,), (section / "招标文件.docx", section / "招标控制价.xml"))
    result = check(inputs, Settings(workers=2))
    assert [s.field for s in _pair(result, 1, 2).signals if s.kind == "bill"] == ["same_prices"]
    assert not [s for s in _pair(result, 1, 7).signals if s.kind == "bill"]


def test_the_dossier_sets_a_bill_signals_items_side_by_side(result: CheckResult, tmp_path: Path) -> None:
    from docx import Document as open_docx

    from bidcheck.report.dossier import write_docx

    write_docx(result, tmp_path / "r.docx", "清单标段")
    doc = open_docx(str(tmp_path / "r.docx"))
    text = "\n".join(p.text for p in doc.paragraphs)
    assert "清单逐项并列" in text and "条例第四十条（四）" in "\n".join(
        c.text for t in doc.tables for row in t.rows for c in row.cells
    )
    bill = next(t for t in doc.tables if t.rows[0].cells[0].text == "项目编码")
    first = [c.text for c in bill.rows[1].cells]
    assert first[3] == first[4] and first[5] not in ("", "—")  # both prices alike, the control's beside


def test_a_word_bids_bill_table_is_compared_item_by_item(tmp_path: Path) -> None:
    """Bills in the tables of Word bids (no XML, no sheet): read under their header, compared by item."""
    from tests.test_tables import _docx_with_table

    items = bill_items(14, 21)
    header = ["项目编码", "项目名称", "计量单位", "工程量", "综合单价", "合价"]
    bills = {n: priced_around(items, 400 + n) for n in range(1, 5)}
    bills[2] = copied_prices(bills[1], bills[2], 13)
    for n, bill in bills.items():
        rows = [header] + [
            [i["code"], i["name"], i["unit"], i["quantity"], i["unit_price"], i["total"]] for i in bill
        ]
        _docx_with_table(tmp_path / f"0{n}-投标人{n}.docx", paragraphs(500 + n, 5), rows)
    read = read_document(tmp_path / "01-投标人1.docx", "x")
    assert read.bill == ()  # the reader reads text; the items are taken from its tables once it is cleaned
    result = check(CheckInputs(tuple(sorted(tmp_path.glob("*.docx")))), Settings(workers=1))
    bid = next(d for d in result.bids if d.name.startswith("01"))
    assert bid.ok
    pair = _pair(result, 1, 2)
    fields = [(s.field, s.strength) for s in pair.signals if s.kind in ("bill", "price")]
    assert ("same_prices", "strong") in fields and ("unit_price", "strong") not in fields  # said once
    assert not [s for s in _pair(result, 3, 4).signals if s.kind in ("bill", "price")]


def test_the_tenders_wording_two_of_three_bids_keep_is_no_sign(tmp_path: Path) -> None:
    """Two bids keep the tender's 项目特征 word for word, the third rewords every item: the two share
    wording few bids give, but it is the tender's, not theirs."""
    items = bill_items(12, 21)
    make_pricing_xml(tmp_path / "招标控制价.xml", [], items)
    make_docx(tmp_path / "招标文件.docx", [paragraphs(1, 4)])
    (tmp_path / "bids").mkdir()
    for n in (1, 2, 3):
        bill = priced_around(items, 300 + n)
        if n == 3:
            bill = [{**item, "features": item["features"].replace("：", "为")} for item in bill]
        make_pricing_xml(tmp_path / "bids" / f"0{n}.xml", [], bill)
    inputs = CheckInputs((tmp_path / "bids",), (tmp_path / "招标文件.docx", tmp_path / "招标控制价.xml"))
    result = check(inputs, Settings(workers=1))
    assert len(result.bids) == 3
    assert not [s for p in result.pairs for s in p.signals if s.field == "same_features"]


def test_a_word_bids_price_list_is_read_apart_from_its_bill(tmp_path: Path) -> None:
    """A 人材机 table (规格型号, 市场价) in Word bids is their price list, never their bill: two bids
    whose lists share 10 of 16 market prices support each other; a third of its own prices does not."""
    from tests.test_tables import _docx_with_table

    listed = resource_list(31)
    header = ["序号", "编码", "名称", "规格型号", "单位", "市场价（元）"]
    prices = {n: resources_around(listed, 500 + n) for n in (1, 2, 3)}
    prices[2] = prices[1][:10] + prices[2][10:]
    for n, rows in prices.items():
        table = [header] + [
            [str(k), r["code"], r["name"], r["spec"], r["unit"], r["price"]] for k, r in enumerate(rows, 1)
        ]
        _docx_with_table(tmp_path / f"0{n}-投标人{n}.docx", paragraphs(600 + n, 5), table)
    result = check(CheckInputs(tuple(sorted(tmp_path.glob("*.docx")))), Settings(workers=1))
    bid = next(d for d in result.bids if d.name.startswith("01"))
    assert bid.bill == () and len(bid.resources) == 16
    signs = [(s.field, s.strength) for s in _pair(result, 1, 2).signals if s.kind == "bill"]
    assert signs == [("same_resources", "supporting")]
    assert not [s for s in _pair(result, 1, 3).signals if s.kind == "bill"]
