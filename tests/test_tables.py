"""Tables the tender gives and the bidders fill in: read as rows of cells, their frame never evidence."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from docx import Document as new_docx
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from bench.corpus import generate_section
from bidcheck.config import Settings
from bidcheck.model import CheckResult
from bidcheck.pipeline import CheckInputs, check
from bidcheck.prepare import prepare_document
from bidcheck.text.tables import table_rows
from tests.builders import paragraphs, pdf_font

_BILL = [
    ["序号", "项目名称", "单位", "工程量", "综合单价（元）", "合价（元）"],
    ["1", "挖一般土方", "m3", "5355", "721.05", "3861222.75"],
    ["2", "C30 混凝土垫层", "m3", "80", "512.00", "40960.00"],
    ["3", "现浇构件钢筋", "t", "12", "5320.10", "63841.20"],
]


def _docx_with_table(path: Path, own: list[str], rows: list[list[str]]) -> Path:
    """A .docx of paragraphs ``own`` and then a table of ``rows``."""
    document = new_docx()
    for text in own:
        document.add_paragraph(text)
    table = document.add_table(rows=len(rows), cols=len(rows[0]))
    for cells, row in zip(table.rows, rows, strict=True):
        for cell, text in zip(cells.cells, row, strict=True):
            cell.text = text
    document.save(str(path))
    return path


def _rows_of(path: Path) -> list[list[str]]:
    ready = prepare_document(path, "d", "bid", Settings()).ready
    assert ready is not None
    return [[c.text for c in row.cells] for row in table_rows(ready.doc.compared_blocks())]


def test_a_word_table_is_read_as_rows_of_cells_numbers_kept(tmp_path: Path) -> None:
    document = new_docx()
    document.add_paragraph("已标价工程量清单如下，单价含税。")
    table = document.add_table(rows=len(_BILL), cols=len(_BILL[0]))
    for cells, row in zip(table.rows, _BILL, strict=True):
        for cell, text in zip(cells.cells, row, strict=True):
            cell.text = text
    table.rows[2].cells[1].add_paragraph("（含模板）")  # a cell of two paragraphs is one cell
    document.save(str(tmp_path / "bill.docx"))
    rows = _rows_of(tmp_path / "bill.docx")
    assert rows[0] == _BILL[0] and rows[1] == _BILL[1]  # the 序号 and quantity cells are not page numbers
    assert rows[2] == ["2", "C30 混凝土垫层\n（含模板）", "m3", "80", "512.00", "40960.00"]
    assert len(rows) == len(_BILL)


def _bill_pdf(path: Path, ruled: bool) -> Path:
    canvas = Canvas(str(path), pagesize=A4, invariant=1)
    canvas.setFont(pdf_font(), 10.5)
    canvas.drawString(72, 780, "已标价工程量清单如下，单价含税，合价为工程量乘综合单价。")
    xs = [72, 110, 230, 280, 340, 430]
    y = 750.0
    for row in _BILL:
        for x, cell in zip(xs, row, strict=True):
            canvas.drawString(x, y, cell)
        if ruled:
            canvas.line(70, y - 4, 520, y - 4)
        y -= 18
    canvas.drawString(72, y - 20, "本工程采用 GPS 定位系统进行测量放线，确保精度满足规范要求。")
    canvas.drawString(260, 40, "第 1 页 共 1 页")
    canvas.save()
    return path


@pytest.mark.parametrize("ruled", [True, False])
def test_a_pdf_table_is_read_as_rows_of_cells(tmp_path: Path, ruled: bool) -> None:
    rows = _rows_of(_bill_pdf(tmp_path / "bill.pdf", ruled))
    # a cell with a space inside comes back as two cells of the page row; the frame matching joins them
    assert rows == [
        _BILL[0],
        _BILL[1],
        ["2", "C30", "混凝土垫层", "m3", "80", "512.00", "40960.00"],
        _BILL[3],
    ]
    ready = prepare_document(tmp_path / "bill.pdf", "d", "bid", Settings()).ready
    assert ready is not None
    texts = [b.text for b in ready.doc.compared_blocks()]
    assert "本工程采用 GPS 定位系统进行测量放线，确保精度满足规范要求。" in texts  # prose is no row
    assert not any("第 1 页" in t for t in texts)  # the page number still leaves the compared text


def _write_bid(path: Path, own: list[str], bill: list[list[str]]) -> None:
    """A bid of its own prose and the tender's bill filled with its prices, as docx or PDF."""
    if path.suffix == ".docx":
        _docx_with_table(path, own, bill)
        return
    canvas = Canvas(str(path), pagesize=A4, invariant=1)
    canvas.setFont(pdf_font(), 10.5)
    y = 790.0
    for text in own:
        for start in range(0, len(text), 38):
            canvas.drawString(72, y, text[start : start + 38])
            y -= 15
        if y < 120:
            canvas.showPage()
            canvas.setFont(pdf_font(), 10.5)
            y = 790.0
    canvas.showPage()
    canvas.setFont(pdf_font(), 10.5)
    y = 790.0
    for row in bill:
        for x, cell in zip([72, 100, 230, 270, 330, 420], row, strict=True):
            canvas.drawString(x, y, cell)
        y -= 16
    canvas.save()


_ITEMS = [
    "挖一般土方",
    "挖沟槽土方",
    "回填方",
    "余方弃置",
    "C15 混凝土垫层",
    "C30 混凝土基础",
    "现浇构件钢筋",
]
_ITEMS += ["水泥稳定碎石基层", "级配碎石底基层", "沥青混凝土面层", "花岗岩路缘石", "人行道块料铺设"]
_ITEMS += [
    "钢筋混凝土检查井",
    "雨水口",
    "路灯基础",
    "种植土回填",
    "模板",
    "脚手架",
    "HDPE 双壁波纹管",
    "防水卷材",
]


def _bills(seed: int) -> tuple[list[list[str]], list[list[list[str]]]]:
    """The tender's bill (prices blank) and four bids' bills, each with its own unit prices."""
    rng = random.Random(seed)
    units = [rng.choice(["m3", "m2", "m", "t", "座"]) for _ in _ITEMS]
    quantities = [str(rng.randint(20, 9000)) for _ in _ITEMS]
    header = ["序号", "项目名称", "单位", "工程量", "综合单价（元）", "合价（元）"]
    frame = [
        [str(n), item, unit, qty]
        for n, (item, unit, qty) in enumerate(zip(_ITEMS, units, quantities, strict=True), 1)
    ]
    tender = [header] + [[*row, "", ""] for row in frame]
    bids = []
    for _ in range(4):
        prices = [rng.uniform(20, 900) for _ in _ITEMS]
        bids.append(
            [header] + [[*r, f"{p:.2f}", f"{p * int(r[3]):.2f}"] for r, p in zip(frame, prices, strict=True)]
        )
    return tender, bids


def _levels(result: CheckResult) -> set[str]:
    return {p.level for p in result.pairs}


@pytest.fixture(scope="module")
def billed_section(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tender with a bill of quantities and four bids (two docx, two PDF) that price it and share
    nothing else: their own prose differs."""
    folder = tmp_path_factory.mktemp("billed")
    tender_rows, bills = _bills(7)
    (folder / "bids").mkdir()
    rule = "投标人应按下表填报已标价工程量清单，综合单价包括人工费、材料费、机械费、管理费和利润。"
    _docx_with_table(folder / "tender.docx", [rule], tender_rows)
    for index, (bill, suffix) in enumerate(zip(bills, [".docx", ".pdf", ".docx", ".pdf"], strict=True)):
        _write_bid(folder / "bids" / f"bid{index}{suffix}", paragraphs(100 + index, 6), bill)
    return folder


def test_bids_that_share_only_the_priced_bill_are_none(billed_section: Path) -> None:
    bids = billed_section / "bids"
    tender = billed_section / "tender.docx"
    with_tender = check(CheckInputs((bids,), tenders=(tender,)), Settings(workers=1))
    assert len(with_tender.pairs) == 6 and _levels(with_tender) == {"none"}
    assert not any(p.live for pair in with_tender.pairs for p in pair.passages)
    without = check(CheckInputs((bids,)), Settings(workers=1))
    assert _levels(without) == {"none"}  # the frame all four bids hold is the tender's even unseen


def test_the_prices_a_bidder_fills_in_are_not_the_frame(tmp_path: Path) -> None:
    """Two bids whose bills carry the same prices in every row share the bidders' own values: the
    shared bill stays in their pair's passages (the price sign judges it), no other pair has one."""
    tender_rows, bills = _bills(8)
    same = [row[:] for row in bills[0]]
    for index, path in enumerate(["a.docx", "b.pdf", "c.docx"]):
        bill = same if index < 2 else bills[2]
        _write_bid(tmp_path / path, paragraphs(200 + index, 6), bill)
    (tmp_path / "t").mkdir()
    tender = _docx_with_table(tmp_path / "t" / "tender.docx", [], tender_rows)
    result = check(
        CheckInputs((tmp_path / "a.docx", tmp_path / "b.pdf", tmp_path / "c.docx"), tenders=(tender,))
    )
    names = {d.id: d.name for d in result.documents}
    levels = {frozenset((names[p.a], names[p.b])): p for p in result.pairs}
    shared = levels[frozenset(("a.docx", "b.pdf"))]
    assert any(p.chars >= 300 and not p.template for p in shared.passages)
    others = [p for k, p in levels.items() if k != frozenset(("a.docx", "b.pdf"))]
    assert all(p.level == "none" and not p.passages for p in others)


@pytest.mark.parametrize(("bids", "tender"), [(5, True), (5, False), (10, True)])
def test_a_generated_section_with_tables_keeps_its_levels(tmp_path: Path, bids: int, tender: bool) -> None:
    """Bids (docx and PDF, ruled and not) filling a bill, 开标一览表 and 偏离表 with their own prices,
    brands and staff, and public text in changing selections: no sign and no level but for the pair
    that priced the bill alike."""
    section = generate_section(tmp_path, bids, 17, case="commitments", tables=True)
    inputs = CheckInputs((tmp_path / "bids",), tenders=(section.tender,) if tender else ())
    result = check(inputs, Settings(workers=1))
    names = {d.id: d.name for d in result.documents}
    (prices,) = section.truth["pairs"]  # type: ignore[misc]
    for pair in result.pairs:
        if {names[pair.a], names[pair.b]} != {prices["a"], prices["b"]}:
            assert pair.level == "none" and not pair.signals, (names[pair.a], names[pair.b], pair.reason)
        else:  # the bill priced alike row for row: its rows filled alike, its items priced alike
            assert pair.level == "high" and [s.kind for s in pair.signals] == ["bill", "table_fill"]
    assert len(list(itertools.combinations(section.bids, 2))) == len(result.pairs)


def test_a_deviation_table_answered_alike_is_a_sign(tmp_path: Path) -> None:
    """The tender gives the requirements; two bids answer them in the same words of their own (brands,
    models, what they will do), each answer shorter than a passage: the table filled alike is a
    strong sign (``table_fill``), located on both sides; the third bid, answering its own way, none."""
    requirements = [f"第{n}项技术要求：{text}" for n, text in enumerate(paragraphs(300, 8, sentences=1), 1)]
    header = ["序号", "招标要求", "投标响应", "偏离情况"]
    tender_rows = [header] + [[str(n), req, "", ""] for n, req in enumerate(requirements, 1)]
    answers = [
        f"采用{brand}产品，{text}"
        for brand, text in zip("沙马鞍首宝永中日", paragraphs(301, 8, 1), strict=True)
    ]
    others = paragraphs(302, 8, sentences=1)
    (tmp_path / "t").mkdir()
    tender = _docx_with_table(tmp_path / "t" / "tender.docx", [], tender_rows)
    for name, texts, seed in [("a.docx", answers, 310), ("b.docx", answers, 311), ("c.docx", others, 312)]:
        rows = [header] + [
            [str(n), req, ans, "无偏离"]
            for n, (req, ans) in enumerate(zip(requirements, texts, strict=True), 1)
        ]
        _docx_with_table(tmp_path / name, paragraphs(seed, 5), rows)
    bids = tuple(tmp_path / n for n in ("a.docx", "b.docx", "c.docx"))
    result = check(CheckInputs(bids, tenders=(tender,)), Settings(workers=1))
    names = {d.id: d.name for d in result.documents}
    by_pair = {frozenset((names[p.a], names[p.b])): p for p in result.pairs}
    shared = by_pair[frozenset(("a.docx", "b.docx"))]
    (sign,) = shared.signals
    assert (sign.kind, sign.strength, sign.value) == ("table_fill", "strong", "8/8 行")
    assert sign.a is not None and sign.b is not None and "第1项技术要求" in sign.a.text
    assert shared.level == "high" and "表格的填写大量相同" in shared.reason
    assert by_pair[frozenset(("a.docx", "c.docx"))].level == "none"
    assert by_pair[frozenset(("b.docx", "c.docx"))].level == "none"


@pytest.mark.parametrize(("alike", "strength"), [(8, "supporting"), (10, "strong")])
def test_rows_filled_alike_weigh_by_their_share_of_the_rows_both_filled(
    tmp_path: Path, alike: int, strength: str
) -> None:
    """Of 16 rows both bids filled, 8 alike (half) is a supporting sign though 8 rows make a strong one
    when they are all (``_SHARE``); 10 of 16 is strong."""
    requirements = [f"第{n}项技术要求：{text}" for n, text in enumerate(paragraphs(320, 16, sentences=1), 1)]
    header = ["序号", "招标要求", "投标响应", "偏离情况"]
    tender_rows = [header] + [[str(n), req, "", ""] for n, req in enumerate(requirements, 1)]
    shared = [
        f"采用{brand}牌产品，{text}"
        for brand, text in zip("沙马鞍首宝永中日华安", paragraphs(321, 10, 1), strict=True)
    ]
    own = {name: paragraphs(seed, 16, sentences=1) for name, seed in (("a", 322), ("b", 323), ("c", 324))}
    (tmp_path / "t").mkdir()
    tender = _docx_with_table(tmp_path / "t" / "tender.docx", [], tender_rows)
    for name in ("a", "b", "c"):
        answers = [shared[n] if name != "c" and n < alike else own[name][n] for n in range(16)]
        rows = [header] + [
            [str(n), req, ans, "无偏离"]
            for n, (req, ans) in enumerate(zip(requirements, answers, strict=True), 1)
        ]
        _docx_with_table(tmp_path / f"{name}.docx", paragraphs(330 + ord(name), 5), rows)
    bids = tuple(tmp_path / f"{n}.docx" for n in ("a", "b", "c"))
    result = check(CheckInputs(bids, tenders=(tender,)), Settings(workers=1))
    names = {d.id: d.name for d in result.documents}
    pair = next(p for p in result.pairs if {names[p.a], names[p.b]} == {"a.docx", "b.docx"})
    fills = [(s.strength, s.value) for s in pair.signals if s.kind == "table_fill"]
    assert fills == [(strength, f"{alike}/16 行")]
