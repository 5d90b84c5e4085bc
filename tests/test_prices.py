"""Prices: each bid's total read from its letter (capitals and figures, which must agree), and totals of
three or more bids in a pattern (equal steps, equal ratios, within a hair) as strong signals."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from docx import Document as new_docx
from openpyxl import load_workbook

from bidcheck.config import Settings
from bidcheck.model import Block, CheckResult, Document, Price, result_from_dict
from bidcheck.pipeline import CheckInputs, check
from bidcheck.report.json import result_json
from bidcheck.report.xlsx import write_xlsx
from bidcheck.signals.prices import price_patterns
from bidcheck.text.prices import capital_amount, figure_amount, read_price
from tests.builders import paragraphs


def test_capital_numerals_and_figures_are_read() -> None:
    assert capital_amount("壹仟贰佰叁拾肆万伍仟陆佰柒拾捌元玖角捌分") == 12_345_678.98
    assert capital_amount("人民币贰佰万元整") == 2_000_000.0
    assert capital_amount("壹亿零伍万元整") == 100_050_000.0
    assert capital_amount("叁拾万零伍佰元") == 300_500.0
    assert capital_amount("元整") is None
    assert figure_amount("（小写：¥12,345,678.98元）") == 12_345_678.98
    assert figure_amount("1234.5678万元") == 12_345_678.0
    assert figure_amount("4123万456元") == 41_230_456.0
    assert figure_amount("工期 180 天，3 个月") is None


def test_a_letter_gives_its_total_and_place_and_a_disagreement_is_said() -> None:
    letter = "投标总报价（大写）：壹仟贰佰万元整（小写：¥12,000,000.00元），工期：365日历天。"
    assert read_price([Block(letter, page=3, paragraph=12)]) == (Price(12_000_000.0, 3, 12), None)
    standard = "愿意以人民币（大写）壹仟贰佰万元整（¥12,000,000.00）的投标总报价，工期365日历天。"
    assert read_price([Block(standard, page=2, paragraph=4)])[0] == Price(12_000_000.0, 2, 4)
    cells = [Block("投标报价", "table", 5, 20), Block("大写：贰佰万元整 小写：2000000.00元", "table", 5, 21)]
    assert read_price(cells)[0] == Price(2_000_000.0, 5, 20)
    price, why = read_price([Block("投标总价：大写贰佰万元整，小写：¥2,100,000.00元", page=1, paragraph=1)])
    assert price is None and why == "第 1 页投标总价大写（2,000,000.00 元）与小写（2,100,000.00 元）不一致"
    price, why = read_price([Block("投标报价应包括全部费用。投标保证金：贰万元整。", page=1, paragraph=1)])
    assert price is None and why is not None and why.startswith("未找到投标总价")


def _docs(totals: list[float]) -> list[Document]:
    return [Document(f"d{n}", "", f"{n}", "docx", price=Price(t, 1, 1)) for n, t in enumerate(totals, 1)]


def test_patterns_among_three_or_more_bids_and_none_among_irregular_ones() -> None:
    totals = [9_870_000, 10_000_000, 10_250_000, 10_500_000, 10_750_000, 11_320_000]
    arithmetic = price_patterns(_docs(totals))  # four in one progression: one pattern
    assert [(p.kind, p.members) for p in arithmetic] == [("arithmetic", ("d2", "d3", "d4", "d5"))]
    rounded = price_patterns(_docs([10_000_000, 10_250_100, 10_500_000]))  # steps 0.08% apart
    assert [p.kind for p in rounded] == ["arithmetic"]
    ratio = price_patterns(_docs([8_000_000, 8_160_000, 8_323_200, 9_900_000]))  # 2% each
    assert [(p.kind, p.members) for p in ratio] == [("ratio", ("d1", "d2", "d3"))]
    close = price_patterns(_docs([10_000_000, 10_003_000, 10_004_000, 12_000_000]))
    assert [(p.kind, p.members) for p in close] == [("close", ("d1", "d2", "d3"))]
    assert price_patterns(_docs([10_000_000, 10_250_000, 10_600_000])) == ()  # steps 17% apart


def _raised(sections: Iterator[list[float]]) -> tuple[int, int]:
    """Of sections of totals, how many show a strong pattern, and how many a lead only."""
    strong = lead = 0
    for totals in sections:
        found = {p.strength for p in price_patterns(_docs(totals))}
        strong += "strong" in found
        lead += found == {"supporting"}
    return strong, lead


def test_chance_progressions_among_twenty_irregular_bids_are_rare() -> None:
    """Twenty totals drawn at random between 30 and 50 million, a thousand sections: patterns of
    neighbouring totals arise in 6 of them (seed 7; 20 before the chance of the section's size counted),
    each a lead (odds between 1 in 10,000 and 1 in 500), none proof."""
    rng = random.Random(7)
    strong, lead = _raised([rng.uniform(3e7, 5e7) for _ in range(20)] for _ in range(1000))
    assert strong == 0 and lead <= 10, (strong, lead)


@pytest.mark.parametrize(("bids", "most", "leads"), [(5, 0, 30), (12, 5, 10), (40, 6, 10), (100, 0, 5)])
def test_round_totals_seldom_make_a_pattern(bids: int, most: int, leads: int) -> None:
    """Totals in whole 万 yuan between 4 and 6 million, 1,000 sections of 5, 12, 40 and 100 bids (seed
    7): 0, 3, 4 and 0 show a pattern, 21, 6, 6 and 2 a lead only. Before the totals' rounding counted,
    32, 234, 955 and 1,000 showed a pattern: equal steps of whole 万 are what chance gives so many."""
    rng = random.Random(7)
    strong, lead = _raised([round(rng.uniform(4e6, 6e6), -4) for _ in range(bids)] for _ in range(1000))
    assert strong <= most and lead <= leads, (strong, lead)


@pytest.mark.parametrize(("bids", "most", "leads"), [(30, 3, 12), (100, 3, 12), (200, 1, 3)])
def test_chance_patterns_stay_rare_in_large_sections_of_close_prices(
    bids: int, most: int, leads: int
) -> None:
    """Totals within about 1% of one price (bidders pricing near the same estimate), 1,000 sections of
    30, 100 and 200 bids (seed 7): 1, 2 and 0 show a pattern as proof, 7, 5 and 0 a lead only. Before
    the section's size counted, 830, 1,000 and 1,000 showed one — three totals within 0.05% or in steps
    equal within 0.1% are no sign among so many."""
    rng = random.Random(7)
    strong, lead = _raised(
        [round(4e7 * (1 + rng.gauss(0, 0.01)), 2) for _ in range(bids)] for _ in range(1000)
    )
    assert strong <= most and lead <= leads, (strong, lead)


def test_equal_steps_of_round_totals_are_chance_among_many_and_a_lead_among_few() -> None:
    """Totals in whole 万 yuan step equally far more often than totals priced to the yuan: among forty
    round totals 4,770,000 / 4,800,000 / 4,830,000 are chance, no pattern, and priced to the yuan in the
    same steps a lead (about 1 in 1,800 sections of 36: worth examining, no proof); four of them in
    one step proof. In a five-bid section 10,000,000 / 10,250,000 / 10,500,000 are a lead (a supporting
    sign, the odds said); a fourth total in the same step is still a lead (about 1 in 620 sections of
    six), a fifth makes them proof."""
    rng = random.Random(4)
    others = [round(rng.uniform(4.3e6, 5.3e6), -4) for _ in range(37)]
    others = [t for t in others if not 4_760_000 <= t <= 4_870_000]
    assert len(others) >= 30
    assert price_patterns(_docs([*others, 4_770_000, 4_800_000, 4_830_000])) == ()
    exact = price_patterns(_docs([*others, 4_771_234, 4_801_234, 4_831_234]))
    assert [(p.kind, p.strength) for p in exact] == [("arithmetic", "supporting")]
    assert exact[0].detail.endswith("（36 家各自报价时偶然出现的可能约为 1/1,800）")
    four = price_patterns(_docs([*others, 4_771_234, 4_801_234, 4_831_234, 4_861_234]))
    assert [(p.kind, p.strength, len(p.members)) for p in four] == [("arithmetic", "strong", 4)]
    few = price_patterns(_docs([10_000_000, 10_250_000, 10_500_000, 9_312_000, 11_870_000]))
    assert [(p.kind, p.strength) for p in few] == [("arithmetic", "supporting")]
    assert few[0].detail.endswith("（5 家各自报价时偶然出现的可能约为 1/17）")
    round_four = [10_000_000, 10_250_000, 10_500_000, 10_750_000, 9_312_000, 11_870_000]
    four = price_patterns(_docs(round_four))
    assert [(p.kind, p.strength, len(p.members)) for p in four] == [("arithmetic", "supporting", 4)]
    assert four[0].detail.endswith("（6 家各自报价时偶然出现的可能约为 1/620）")
    five = price_patterns(_docs([*round_four, 11_000_000]))
    assert [(p.kind, p.strength, len(p.members)) for p in five] == [("arithmetic", "strong", 5)]


def test_a_progression_chance_makes_among_thirty_bids_is_no_pattern_but_an_exact_one_is() -> None:
    """Three of thirty totals with steps 0.05% apart (660,054 and 659,751 yuan) are what chance gives
    among thirty; the same three in exact steps stay a pattern, as do three within a few yuan."""
    rng = random.Random(30)
    others = [rng.uniform(3e7, 5e7) for _ in range(27)]
    others = [t for t in others if not 30_000_000 <= t <= 31_400_000]
    loose = [30_070_498.0, 30_730_552.0, 31_390_303.0]
    assert [p.kind for p in price_patterns(_docs([*others, *loose]))] == []
    exact = [30_070_498.0, 30_730_552.0, 31_390_606.0]
    assert {p.kind for p in price_patterns(_docs([*others, *exact]))} >= {"arithmetic"}
    close = [30_070_498.0, 30_070_503.0, 30_070_510.0]
    assert [p.kind for p in price_patterns(_docs([*others, *close]))] == ["close"]


DETAIL = (
    "3 家投标总价成等差数列：10,012,345.00 元、10,262,345.00 元、10,512,345.00 元"
    "（4 家各自报价时偶然出现的可能约为 1/250,000）"
)


def _bid(path: Path, name: str, seed: int, letter: str) -> Path:
    document = new_docx()
    document.add_paragraph(f"投标人：{name}有限公司（盖单位章）")
    document.add_paragraph(letter)
    for text in paragraphs(seed, 4):
        document.add_paragraph(text)
    document.save(str(path))
    return path


@pytest.fixture(scope="module")
def section(tmp_path_factory: pytest.TempPathFactory) -> CheckResult:
    """Three bids priced to the yuan in equal steps of 250,000 yuan among two irregular ones; one letter
    whose capitals and figures disagree; one without a price."""
    root = tmp_path_factory.mktemp("prices")
    letters = {
        "恒信市政": "愿意以人民币（大写）壹仟零壹万贰仟叁佰肆拾伍元整（¥10,012,345.00）的投标总报价。",
        "华东建设": "投标总报价（大写）：壹仟零贰拾陆万贰仟叁佰肆拾伍元整（小写：¥10,262,345.00元）。",
        "中联路桥": "投标总报价（大写）：壹仟零伍拾壹万贰仟叁佰肆拾伍元整（小写：¥10,512,345.00元）。",
        "宏远建工": "投标总报价（大写）：玖佰叁拾壹万贰仟元整（小写：¥9,312,000.00元）。",
        "东方路桥": "投标总报价（大写）：壹仟壹佰捌拾万元整（小写：¥11,870,000.00元）。",
        "百川园林": "我方将按招标文件要求报价。",
    }
    bids = [
        _bid(root / f"0{n}.docx", name, 400 + n, letter)
        for n, (name, letter) in enumerate(letters.items(), 1)
    ]
    return check(CheckInputs(tuple(bids)), Settings(workers=1))


def test_bids_in_equal_steps_are_a_strong_pattern_and_unread_prices_are_said(section: CheckResult) -> None:
    (pattern,) = section.price_patterns
    assert (pattern.kind, pattern.members) == ("arithmetic", ("d1", "d2", "d3"))
    assert pattern.detail == DETAIL
    pairs = {(p.a, p.b): p for p in section.pairs}
    for key in (("d1", "d2"), ("d1", "d3"), ("d2", "d3")):
        (signal,) = pairs[key].signals
        assert (signal.kind, signal.field, signal.strength, pairs[key].level) == (
            "price",
            "arithmetic",
            "strong",
            "high",
        )
    assert "投标报价呈规律性（等差报价）" in pairs[("d1", "d2")].reason
    assert not any(p.signals for key, p in pairs.items() if not set(key) <= {"d1", "d2", "d3"})
    documents = {d.id: d for d in section.documents}
    assert documents["d1"].price == Price(10_012_345.0, 1, 2)
    (signal,) = pairs[("d1", "d2")].signals  # where each total stands: the app jumps there on both sides
    assert signal.a is not None and (signal.a.page, signal.a.paragraph) == (1, 2)
    assert signal.a.text.startswith("愿意以人民币（大写）壹仟零壹万贰仟叁佰肆拾伍元整")
    assert signal.b is not None and signal.b.text.startswith("投标总报价（大写）：壹仟零贰拾陆万")
    price_b = documents["d2"].price
    assert price_b is not None and (signal.b.page, signal.b.paragraph) == (price_b.page, price_b.paragraph)
    assert documents["d5"].price is None and "不一致" in (documents["d5"].price_error or "")
    assert documents["d6"].price is None and (documents["d6"].price_error or "").startswith("未找到")


def test_prices_and_patterns_are_in_the_json_and_the_file_list(section: CheckResult, tmp_path: Path) -> None:
    data = json.loads(result_json(section))
    assert data["documents"][0]["price"] == {"total": 10_012_345.0, "page": 1, "paragraph": 2}
    assert data["price_patterns"][0]["members"] == ["d1", "d2", "d3"]
    again = result_from_dict(data)
    assert again.price_patterns == section.price_patterns and again.documents[4].price_error
    write_xlsx(section, tmp_path / "report.xlsx")
    book = load_workbook(tmp_path / "report.xlsx")
    rows = list(book["文件清单"].iter_rows(values_only=True))
    total, where = rows[0].index("投标总价（元）"), rows[0].index("总价出处或未读出的原因")
    assert (rows[1][total], rows[1][where]) == (10_012_345.0, "第 1 页第 2 段")
    assert book["文件清单"].cell(row=2, column=total + 1).number_format == "#,##0.00"
    assert rows[5][total] == "价格未能读出" and str(rows[5][where]).startswith("第 1 页投标总价大写")
    assert rows[6][total] == "价格未能读出" and str(rows[6][where]).startswith("未找到投标总价")
    assert ("报价规律数", 1) in book["概要"].iter_rows(values_only=True)


def test_the_workbook_lists_each_price_pattern_with_its_members(section: CheckResult, tmp_path: Path) -> None:
    """The 报价规律 sheet: one row a member of a pattern, with its kind, strength, sentence, the bid's
    total and where it was read."""
    write_xlsx(section, tmp_path / "report.xlsx")
    sheet = load_workbook(tmp_path / "report.xlsx")["报价规律"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == ("规律", "类型", "强度", "说明", "文件", "投标总价（元）", "总价出处")
    assert rows[1:] == [
        (1, "等差数列", "强", DETAIL, "01.docx", 10_012_345.0, "第 1 页第 2 段"),
        (1, "等差数列", "强", DETAIL, "02.docx", 10_262_345.0, "第 1 页第 2 段"),
        (1, "等差数列", "强", DETAIL, "03.docx", 10_512_345.0, "第 1 页第 2 段"),
    ]
    assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref == "A1:G4"


def test_a_section_without_a_pattern_says_so_in_its_sheet(section: CheckResult, tmp_path: Path) -> None:
    irregular = replace(section, price_patterns=())
    write_xlsx(irregular, tmp_path / "report.xlsx")
    rows = list(load_workbook(tmp_path / "report.xlsx")["报价规律"].iter_rows(values_only=True))
    assert len(rows) == 2 and rows[1][1] == "无"
    assert rows[1][3] == "读出投标总价的 4 家中没有三家以上成规律；2 家价格未能读出（见文件清单）"


def test_ratio_and_close_patterns_are_named_in_the_sheet(section: CheckResult, tmp_path: Path) -> None:
    by_ratio = price_patterns(_docs([8_000_000, 8_160_000, 8_323_200]))
    close = price_patterns(_docs([10_000_000, 10_003_000, 10_004_000]))
    documents = tuple(_docs([8_000_000, 8_160_000, 8_323_200]))
    result = replace(section, documents=documents, pairs=(), price_patterns=by_ratio)
    write_xlsx(result, tmp_path / "ratio.xlsx")
    rows = list(load_workbook(tmp_path / "ratio.xlsx")["报价规律"].iter_rows(values_only=True))
    assert [(r[1], r[4], r[5]) for r in rows[1:]] == [
        ("等比数列", "1", 8_000_000.0),
        ("等比数列", "2", 8_160_000.0),
        ("等比数列", "3", 8_323_200.0),
    ]
    result = replace(
        section, documents=tuple(_docs([10_000_000, 10_003_000, 10_004_000])), pairs=(), price_patterns=close
    )
    write_xlsx(result, tmp_path / "close.xlsx")
    rows = list(load_workbook(tmp_path / "close.xlsx")["报价规律"].iter_rows(values_only=True))
    assert {r[1] for r in rows[1:]} == {"总价几乎相同"} and len(rows) == 4


def _priced(path: Path, name: str, seed: int, prices: list[str]) -> Path:
    """A bid with a bill of quantities priced row by row (a Word table)."""
    document = new_docx()
    document.add_paragraph(f"投标人：{name}有限公司（盖单位章）")
    for text in paragraphs(seed, 3):
        document.add_paragraph(text)
    table = document.add_table(rows=1, cols=6)
    heads = ("序号", "项目名称", "单位", "工程量", "综合单价（元）", "合价（元）")
    for cell, head in zip(table.rows[0].cells, heads, strict=True):
        cell.text = head
    for n, price in enumerate(prices, 1):
        quantity = 10 * n + seed % 7  # each bid's own quantities: rows not filled alike
        values = (str(n), f"清单项目{n}", "m3", str(quantity), price, f"{float(price) * quantity:.2f}")
        for cell, value in zip(table.add_row().cells, values, strict=True):
            cell.text = value
    document.save(str(path))
    return path


def test_the_same_non_round_unit_prices_in_five_rows_are_a_strong_signal(tmp_path: Path) -> None:
    """01 and 02 priced six items alike to the fen (and a round 100.00 both), their quantities their
    own (so that no row is filled alike, which ``table_fill`` would tell); 03 priced its own."""
    shared = ["312.47", "88.15", "1045.62", "27.33", "564.08", "19.71"]
    bids = [
        _priced(tmp_path / "01.docx", "恒信市政", 501, [*shared, "100.00", "45.10"]),
        _priced(tmp_path / "02.docx", "华东建设", 502, [*shared, "100.00", "47.90"]),
        _priced(
            tmp_path / "03.docx", "中联路桥", 503, ["315.20", "86.40", "1032.55", "28.10", "570.00", "20.05"]
        ),
    ]
    result = check(CheckInputs(tuple(bids)), Settings(workers=1))
    pairs = {(p.a, p.b): p for p in result.pairs}
    units = [s for s in pairs[("d1", "d2")].signals if s.field == "unit_price"]
    assert [(s.kind, s.strength, s.value) for s in units] == [("price", "strong", "6 项")]
    assert units[0].a is not None and units[0].a.text == "1 | 清单项目1 | m3 | 14 | 312.47 | 4374.58"
    assert units[0].b is not None and units[0].b.text.startswith("1 | 清单项目1 | m3 | 15 | 312.47")
    assert "19.71、27.33、88.15、312.47、564.08、1045.62" in units[0].detail
    assert pairs[("d1", "d2")].level == "high"
    assert not any(
        s.field == "unit_price" for key, p in pairs.items() if key != ("d1", "d2") for s in p.signals
    )


def _two_row_bill(path: Path, seed: int, prices: list[str]) -> Path:
    """A bid whose bill heads its money columns with two rows (金额（元） over 综合单价 | 合价, the other
    headers merged down both), as bills of quantities are laid out."""
    document = new_docx()
    document.add_paragraph(f"投标人：投标人{seed}有限公司（盖单位章）")
    for text in paragraphs(seed, 3):
        document.add_paragraph(text)
    heads = ("序号", "项目编码", "项目名称", "项目特征", "计量单位", "工程量")
    table = document.add_table(rows=2, cols=8)
    for column, head in enumerate(heads):
        table.cell(0, column).merge(table.cell(1, column)).text = head
    table.cell(0, 6).merge(table.cell(0, 7)).text = "金额（元）"
    table.cell(1, 6).text, table.cell(1, 7).text = "综合单价", "合价"
    for n, price in enumerate(prices, 1):
        quantity = 10 * n + seed % 7
        values = (str(n), f"0401010010{n:02d}", f"清单项目{n}", "详见图纸", "m3", str(quantity), price)
        for cell, value in zip(
            table.add_row().cells, (*values, f"{float(price) * quantity:.2f}"), strict=True
        ):
            cell.text = value
    document.save(str(path))
    return path


def test_unit_prices_under_a_header_of_two_rows_are_read_by_column(tmp_path: Path) -> None:
    """9 of 10 unit prices alike in two bills whose 综合单价 heads the seventh column from a second
    header row (the row holds two cells: read by place in the row, it pointed at 序号)."""
    rng = random.Random(5)
    shared = [f"{rng.uniform(20, 2000):.2f}" for _ in range(10)]
    own = [[f"{rng.uniform(20, 2000):.2f}" for _ in range(10)] for _ in range(3)]
    bids = [
        _two_row_bill(tmp_path / "01.docx", 601, shared),
        _two_row_bill(tmp_path / "02.docx", 602, [*shared[:3], "99.99", *shared[4:]]),
        *(_two_row_bill(tmp_path / f"0{n}.docx", 600 + n, own[n - 3]) for n in (3, 4, 5)),
    ]
    result = check(CheckInputs(tuple(bids)), Settings(workers=1))
    raised = {(p.a, p.b): [(s.field, s.value) for s in p.signals] for p in result.pairs if p.signals}
    assert raised == {("d1", "d2"): [("unit_price", "9 项")]}
