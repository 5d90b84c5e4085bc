"""The workbook saved with its cells written as text is byte for byte the workbook openpyxl saves."""

from __future__ import annotations

import datetime as dt
import functools
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, PatternFill

from bidcheck.config import Settings
from bidcheck.pipeline import CheckInputs, check
from bidcheck.report.sheetxml import ValueSheet, save_workbook
from bidcheck.report.xlsx import _workbook

_TEXTS = (
    "甲公司投标文件",
    " 前后有空格 ",
    "   ",
    "a & b < c > d \"e\" 'f'",
    "行一\r\n行二\t制表",
    "𠮷 and 😀 beyond the first plane",
    "#N/A",
    "",
)


def _parts(path: Path) -> dict[str, bytes]:
    """A workbook's parts, less the time it was saved (``docProps/core.xml``)."""
    with zipfile.ZipFile(path) as archive:
        return {n: archive.read(n) for n in archive.namelist() if n != "docProps/core.xml"}


def _both_ways(build: Callable[[], Workbook], tmp_path: Path) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """A book saved by openpyxl and the same book built again saved by ``save_workbook`` (saving a book
    changes it: a second save of one book differs in each sheet's format)."""
    _as_cells(build()).save(tmp_path / "openpyxl.xlsx")
    save_workbook(build(), tmp_path / "text.xlsx")
    return _parts(tmp_path / "openpyxl.xlsx"), _parts(tmp_path / "text.xlsx")


def _cells(kinds: bool = False) -> Workbook:
    """Texts, numbers, a boolean, styled empty cells, rich texts, a link and rows with heights only."""
    book = Workbook()
    sheet = book.active
    for row, text in enumerate(_TEXTS, start=1):
        sheet.append([text, row, row / 7, row % 2 == 0, None])
        sheet.cell(row=row, column=5).fill = PatternFill("solid", fgColor="FFC7CE")
    sheet.cell(row=1, column=1).font = Font(bold=True, color="FFFFFF")
    sheet.cell(row=2, column=3).number_format = "0.0%"
    sheet.cell(row=3, column=1).alignment = Alignment(wrap_text=True, vertical="top")
    red, grey = InlineFont(color="C00000", b=True), InlineFont(color="808080")
    sheet["G1"] = CellRichText(
        [TextBlock(InlineFont(), " 前 "), TextBlock(red, "标记&<>"), TextBlock(grey, "尾 ")]
    )
    sheet["G2"] = CellRichText(["普通", TextBlock(red, "  ")])
    sheet["H1"], sheet["H1"].hyperlink = "链接", "https://example.com/a?b=1&c=2"
    sheet.row_dimensions[12].height = 40
    sheet.row_dimensions[2].height = 20.5
    other = book.create_sheet("第二页")
    other.append([1.5, -2, 10**15, 1e-300, 0.1 + 0.2])
    if kinds:  # kinds written by openpyxl: a formula, a date, a comment
        other["A3"] = "=SUM(A1:E1)"
        other["B3"] = dt.datetime(2026, 12, 2, 8, 15)
        other["C3"].comment = Comment("批注", "审核")
    values = ValueSheet(book, "值")
    book._add_sheet(values)
    values.append(["表头", "列二"])
    fill = values.style_of(lambda cell: setattr(cell, "fill", PatternFill("solid", fgColor="C6EFCE")))
    for row, text in enumerate(_TEXTS, start=2):
        values.put_row(row, [(text, fill), (row / 3, None), (row, fill), (True, None), (None, fill)])
    if kinds:  # a value openpyxl takes for a formula: the sheet is written by openpyxl
        values.put_row(len(_TEXTS) + 2, [("=1+1", None)])
    values.auto_filter.ref = values.dimensions
    return book


@pytest.mark.parametrize("kinds", [False, True], ids=["cells as text", "formula, date, comment"])
def test_cells_of_every_kind_are_saved_as_openpyxl_saves_them(tmp_path: Path, kinds: bool) -> None:
    by_openpyxl, as_text = _both_ways(functools.partial(_cells, kinds), tmp_path)
    assert as_text == by_openpyxl
    read = load_workbook(tmp_path / "text.xlsx", rich_text=True)
    assert [c.value for c in read.active["A"]][:7] == list(_TEXTS[:7])
    assert read.active["G1"].value[1].text == "标记&<>" and read.active["H1"].hyperlink.target.endswith("c=2")
    assert [c.value for c in read["第二页"][1]] == [1.5, -2, 10**15, 1e-300, 0.3]  # 16 digits, as openpyxl
    assert [c.value for c in read["值"]["A"]][1:8] == list(_TEXTS[:7]) and read["值"]["B3"].value == 1.0
    assert read["值"].auto_filter.ref == ("A1:E10" if kinds else "A1:E9")


def test_a_check_results_workbook_is_saved_as_openpyxl_saves_it(
    section: dict[str, Path], tmp_path: Path
) -> None:
    """Every sheet of the report on a real section (passages with marks, the matrix's heat, widths,
    filters, frozen panes, the print setup) is written with the same bytes."""
    result = check(CheckInputs((section["bids"],), (section["tender"],)), Settings(workers=1))
    for _minute in range(2):  # the summary shows the minute the workbook was made
        by_openpyxl, as_text = _both_ways(functools.partial(_workbook, result, "测试标段"), tmp_path)
        if as_text.keys() == by_openpyxl.keys() and _made(tmp_path / "openpyxl.xlsx") == _made(
            tmp_path / "text.xlsx"
        ):
            break
    sheets = [n for n in by_openpyxl if n.startswith("xl/worksheets/sheet")]
    assert len(sheets) == 10 and as_text == by_openpyxl


def _as_cells(book: Workbook) -> Workbook:
    """The book with its value rows made cells: openpyxl's own save writes cells only."""
    for sheet in book.worksheets:
        if isinstance(sheet, ValueSheet):
            sheet.make_cells()
    return book


def _made(path: Path) -> object:
    return next(
        r[1] for r in load_workbook(path)["概要"].iter_rows(values_only=True) if r[0] == "报告生成时间"
    )


def test_a_character_xml_cannot_hold_is_refused_as_lxml_refuses_it(tmp_path: Path) -> None:
    book = Workbook()
    book.active["A1"] = "前\ufffe后"  # openpyxl takes it; writing it would make a file Excel refuses
    with pytest.raises(ValueError, match="XML cannot hold"):
        save_workbook(book, tmp_path / "bad.xlsx")
