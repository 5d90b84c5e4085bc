"""A total price laid out vertically in a 开标一览表: the label in the header row, the amount in the row
below, read from real Word and PDF bids (and never guessed when the cell holds no amount)."""

from __future__ import annotations

from pathlib import Path

import pytest
from docx import Document as new_docx
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from bidcheck.config import Settings
from bidcheck.model import Price
from bidcheck.prepare import prepare_document
from tests.builders import paragraphs, pdf_font

_CAPITAL = "壹佰贰拾叁万肆仟伍佰陆拾柒元捌角玖分"


def _summary_docx(path: Path, rows: list[list[str]]) -> Path:
    """A Word bid: its letter's prose, then a 开标一览表 of ``rows`` (header first)."""
    document = new_docx()
    document.add_paragraph("投标人：恒信市政有限公司（盖单位章）")
    for text in paragraphs(60, 2):
        document.add_paragraph(text)
    document.add_paragraph("开标一览表")
    table = document.add_table(rows=len(rows), cols=len(rows[0]))
    for cells, row in zip(table.rows, rows, strict=True):
        for cell, text in zip(cells.cells, row, strict=True):
            cell.text = text
    document.add_paragraph("投标人（盖单位章）：恒信市政有限公司")
    document.save(str(path))
    return path


def _summary_pdf(path: Path, rows: list[list[str]]) -> Path:
    """A text PDF bid with the same 开标一览表 drawn as columns."""
    canvas = Canvas(str(path), pagesize=A4, invariant=1)
    canvas.setFont(pdf_font(), 10.5)
    canvas.drawString(60, 790, "投标人：恒信市政有限公司（盖单位章）")
    canvas.drawString(60, 760, "开标一览表")
    y = 730.0
    for row in rows:
        for n, cell in enumerate(row):
            canvas.drawString(60 + n * 150, y, cell)
        y -= 20
    canvas.save()
    return path


def _read(path: Path) -> tuple[Price | None, str | None]:
    ready = prepare_document(path, "d", "bid", Settings()).ready
    assert ready is not None
    return ready.doc.price, ready.doc.price_error


@pytest.mark.parametrize("maker", [_summary_docx, _summary_pdf])
def test_a_total_below_its_header_is_read_at_its_row(tmp_path: Path, maker: object) -> None:
    assert callable(maker)
    suffix = "docx" if maker is _summary_docx else "pdf"
    rows = [["项目名称", "投标总价（元）", "工期"], ["道路工程", "1,234,567.89", "90日历天"]]
    price, why = _read(maker(tmp_path / f"bid.{suffix}", rows))
    assert why is None and price is not None and price.total == 1_234_567.89
    header = _read(maker(tmp_path / f"head.{suffix}", rows[:1]))  # the header alone: no price
    assert header[0] is None and header[1] is not None and header[1].startswith("未找到投标总价")
    wan = [["项目名称", "投标报价（万元）", "工期"], ["道路工程", "123.456789", "90日历天"]]
    price, _ = _read(maker(tmp_path / f"wan.{suffix}", wan))
    assert price is not None and price.total == 1_234_567.89


def test_the_row_is_where_the_price_is_located(tmp_path: Path) -> None:
    rows = [["项目名称", "投标总价（元）", "工期"], ["道路工程", "1,234,567.89", "90日历天"]]
    price, _ = _read(_summary_docx(tmp_path / "bid.docx", rows))
    ready = prepare_document(tmp_path / "bid.docx", "d", "bid", Settings()).ready
    assert ready is not None and price is not None
    located = next(b for b in ready.doc.blocks if b.text == "1,234,567.89")
    first = next(b for b in ready.doc.blocks if b.text == "道路工程")  # the row's first cell
    assert (price.page, price.paragraph) == (first.page, first.paragraph) and located.row == first.row


def test_capitals_and_figures_in_two_columns_must_agree(tmp_path: Path) -> None:
    head = ["项目名称", "投标总价（大写）", "投标总价（小写）"]
    agree = _read(_summary_docx(tmp_path / "a.docx", [head, ["道路工程", _CAPITAL, "¥1,234,567.89"]]))
    assert agree[1] is None and agree[0] is not None and agree[0].total == 1_234_567.89
    price, why = _read(_summary_docx(tmp_path / "b.docx", [head, ["道路工程", _CAPITAL, "¥1,234,568.89"]]))
    assert price is None and why is not None and "不一致" in why
    assert "1,234,567.89" in why and "1,234,568.89" in why


def test_a_garbled_or_unitless_value_stays_unread_with_its_reason(tmp_path: Path) -> None:
    garbled = [["项目名称", "投标总价（元）", "工期"], ["道路工程", "1,234,5б7.89", "90日历天"]]
    price, why = _read(_summary_docx(tmp_path / "g.docx", garbled))
    assert price is None and why is not None and "1,234,5б7.89" in why and "无法读出" in why
    unitless = [["项目名称", "投标报价", "工期"], ["道路工程", "1234567.89", "90日历天"]]
    price, why = _read(_summary_docx(tmp_path / "u.docx", unitless))
    assert price is None and why is not None and "无法读出" in why


def test_a_bills_total_column_is_no_total_price(tmp_path: Path) -> None:
    bill = [
        ["序号", "项目名称", "单位", "工程量", "综合单价（元）", "总价（元）"],
        ["1", "挖土方", "m3", "100", "21.50", "2150.00"],
    ]
    price, why = _read(_summary_docx(tmp_path / "bill.docx", bill))
    assert price is None and why is not None and why.startswith("未找到投标总价")


def _two_level_docx(path: Path, small_head: str, values: list[str]) -> Path:
    """A Word 开标一览表 whose 投标总价 spans two columns over a second header row 大写 | ``small_head``
    (merged cells, as Word writes them), the amounts in the row after, and an empty 备注 cell."""
    document = new_docx()
    document.add_paragraph("投标人：恒信市政有限公司（盖单位章）")
    document.add_paragraph("开标一览表")
    table = document.add_table(rows=3, cols=4)
    table.cell(0, 0).merge(table.cell(1, 0)).text = "项目名称"
    table.cell(0, 1).merge(table.cell(0, 2)).text = "投标总价"
    table.cell(0, 3).merge(table.cell(1, 3)).text = "备注"
    table.cell(1, 1).text, table.cell(1, 2).text = "大写", small_head
    for cell, text in zip(table.rows[2].cells, [*values, ""], strict=True):
        cell.text = text
    document.save(str(path))
    return path


def test_a_total_under_a_two_level_header_is_read_and_must_agree(tmp_path: Path) -> None:
    price, why = _read(
        _two_level_docx(tmp_path / "a.docx", "小写（元）", ["道路工程", _CAPITAL, "1,234,567.89"])
    )
    assert why is None and price is not None and price.total == 1_234_567.89
    # a bare figure under a header naming no unit is read beside capitals, which it must match
    price, why = _read(_two_level_docx(tmp_path / "b.docx", "小写", ["道路工程", _CAPITAL, "1234567.89"]))
    assert why is None and price is not None and price.total == 1_234_567.89
    price, why = _read(_two_level_docx(tmp_path / "c.docx", "小写", ["道路工程", _CAPITAL, "1234576.89"]))
    assert price is None and why is not None and "不一致" in why
    price, why = _read(_two_level_docx(tmp_path / "d.docx", "小写", ["道路工程", "", "1234567.89"]))
    assert price is None and why is not None and "无法读出" in why  # no unit, no capitals: no guess
