"""Saving an openpyxl workbook with each sheet's cells written as text, not element by element.

openpyxl writes a sheet's cells one XML element at a time through lxml's incremental writer, and that is
most of the time of saving the workbook (a 100-bid section's pairs and matrix hold some 75,000 cells).
``save_workbook`` writes the same bytes: every part but the cells is still written by openpyxl, and each
cell is written here as openpyxl would write it (an inline string, a rich text, a number, with its style
id, in ASCII with character references as lxml writes it). A sheet holding a cell of a kind not written
here (a formula, a date, a comment) is written by openpyxl whole. A ``ValueSheet`` holds its large rows
as values with their styles, not a cell object each, and they are written as their cells would be.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Sequence
from copy import copy
from io import BytesIO
from pathlib import Path
from typing import Any
from zipfile import ZIP_DEFLATED, ZipFile

from lxml import etree
from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.compat import safe_string
from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.writer.excel import ExcelWriter

__all__ = ["ValueSheet", "cell_count", "save_workbook"]

_PLACE = b"<sheetData/>"  # where the cells go in the sheet openpyxl writes without them
# What lxml refuses to write: XML 1.0's forbidden characters (``text.chars`` replaces them before).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SPECIAL = re.compile("[&<>\r\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")  # escaped or refused
_NUMBERS = (int, float)


class _Unsupported(Exception):
    """A cell of a kind this module does not write: its sheet is written by openpyxl."""


def save_workbook(book: Workbook, target: Path) -> None:
    """Save ``book`` to ``target`` as ``Workbook.save`` does, each sheet's cells written as text."""
    with ZipFile(target, "w", ZIP_DEFLATED, allowZip64=True) as archive:
        book.properties.modified = dt.datetime.now(tz=dt.UTC).replace(tzinfo=None)
        _BookWriter(book, archive).save()


class _BookWriter(ExcelWriter):  # type: ignore[misc]
    def write_worksheet(self, ws: Worksheet) -> None:
        """openpyxl's ``write_worksheet``, the sheet's cells put in by ``_SheetWriter``."""
        ws._drawing = SpreadsheetDrawing()
        ws._drawing.charts, ws._drawing.images = ws._charts, ws._images
        writer = _SheetWriter(ws, BytesIO())
        try:
            writer.write()
        except _Unsupported:
            if isinstance(ws, ValueSheet):
                ws.make_cells()
            super().write_worksheet(ws)
            return
        ws._rels = writer._rels
        self._archive.writestr(ws.path[1:], writer.out.getvalue().replace(_PLACE, writer.cells, 1))
        self.manifest.append(ws)


class _SheetWriter(WorksheetWriter):  # type: ignore[misc]
    """openpyxl's sheet writer with an empty ``sheetData``; the rows, as text, are in ``cells``."""

    cells = b""

    def write_rows(self) -> None:
        self.cells = _sheet_data(self.ws).encode("ascii", "xmlcharrefreplace")
        self.xf.send(etree.Element("sheetData"))


def _sheet_data(ws: Worksheet) -> str:
    """The ``sheetData`` element of a sheet, as openpyxl's ``write_rows`` writes it."""
    rows: dict[int, list[Cell]] = {}
    for (row, _col), cell in sorted(ws._cells.items()):
        rows.setdefault(row, []).append(cell)
    values: dict[int, list[_Value]] = ws.value_rows if isinstance(ws, ValueSheet) else {}
    rich, ids = _RichText(), _StyleIds(ws.parent)
    parts = ["<sheetData>"]
    for index in sorted(rows.keys() | values.keys() | ws.row_dimensions.keys()):  # a height and no cells
        parts.append(_row_start(ws, index))
        parts.extend(_cell(ws, cell, rich) for cell in rows.get(index, ()) if _written(cell))
        for column, (value, kind, style) in enumerate(values.get(index, ()), start=1):
            parts.append(_xml(f"{get_column_letter(column)}{index}", kind, value, ids.of(style), rich))
        parts.append("</row>")
    parts.append("</sheetData>")
    return "".join(parts)


def _row_start(ws: Worksheet, index: int) -> str:
    attrs = {"r": f"{index}"}
    attrs.update(ws.row_dimensions.get(index, {}))
    return "<row" + "".join(f' {k}="{_attr(v)}"' for k, v in attrs.items()) + ">"


def _written(cell: Cell) -> bool:
    if cell._comment is not None:
        raise _Unsupported
    return cell._value is not None or bool(cell.has_style)


def _cell(ws: Worksheet, cell: Cell, rich: _RichText) -> str:
    if cell.hyperlink:
        ws._hyperlinks.append(cell.hyperlink)
    style = cell.style_id if cell.has_style else None
    return _xml(cell.coordinate, cell.data_type, cell._value, style, rich)


def _xml(coordinate: str, kind: str, value: Any, style: int | None, rich: _RichText) -> str:
    """One cell as ``cell._writer.lxml_write_cell`` writes it."""
    if kind not in ("s", "n", "b", "e"):  # a formula or a date
        raise _Unsupported
    styled = "" if style is None else f' s="{style}"'
    start = f'<c r="{coordinate}"{styled} t="{"inlineStr" if kind == "s" else kind}">'
    if value is None or value == "":
        return start + "</c>"
    if isinstance(value, CellRichText):
        return f"{start}{rich.xml(value)}</c>"
    if kind == "s":
        space = ' xml:space="preserve"' if value != value.strip() else ""
        return f"{start}<is><t{space}>{_text(value)}</t></is></c>"
    if (type(value) is float and math.isfinite(value)) or type(value) is int:
        return f"{start}<v>{value:.16g}</v></c>"  # as safe_string writes it
    return f"{start}<v>{_text(safe_string(value))}</v></c>"


class _StyleIds:
    """The workbook's number of each style a value row has (the style record of a cell), as a cell's
    ``style_id`` gives it; a style shared by many values is looked up once."""

    def __init__(self, book: Workbook) -> None:
        self._book = book
        self._ids: dict[int, int | None] = {}

    def of(self, style: StyleArray | None) -> int | None:
        if style is None:
            return None
        number = self._ids.get(id(style), -1)
        if number == -1:
            number = self._ids[id(style)] = self._book._cell_styles.add(style) if any(style) else None
        return number


_Value = tuple[Any, str, StyleArray | None]  # a value as a cell holds it, its data type, its style


class ValueSheet(Worksheet):  # type: ignore[misc]
    """A sheet whose rows can be put as values with their styles (``put_row``), each row a list, not a
    cell object a value (making those is most of building a large sheet); ``save_workbook`` writes them
    as their cells would be written. A row is put whole, once, and its cells are not asked for after."""

    def __init__(self, parent: Workbook, title: str) -> None:
        super().__init__(parent, title)
        self.value_rows: dict[int, list[_Value]] = {}
        self._binder = Cell(self)  # gives a value the data type and checks a cell would

    def put_row(self, row: int, values: Sequence[tuple[object, StyleArray | None]]) -> None:
        """Put ``row`` (from column A): each value with the style its cell would have, or ``None``; a text
        that begins with "=" is put as text, never as a formula."""
        bound = []
        for value, style in values:
            if type(value) in _NUMBERS:  # most values: a number is taken as it is
                bound.append((value, "n", style))
            else:
                self._binder._bind_value(value)
                kind = self._binder.data_type
                bound.append((self._binder._value, "s" if kind == "f" else kind, style))
        self.value_rows[row] = bound

    def make_cells(self) -> None:
        """Make the value rows cells, each with its value, data type and style, as ``append`` and styling
        each cell would have made them (for openpyxl's save, which writes cells only)."""
        for row, values in self.value_rows.items():
            for column, (value, kind, style) in enumerate(values, start=1):
                cell = self.cell(row=row, column=column)
                cell._value, cell.data_type = value, kind
                if style is not None:
                    cell._style = copy(style)
        self.value_rows.clear()

    def style_of(self, style: Callable[[Cell], None]) -> StyleArray:
        """The style a cell gets from ``style``, made now (fonts, fills and formats are numbered as made)."""
        cell = Cell(self)
        style(cell)
        return cell._style

    @property
    def max_row(self) -> int:
        return max(int(super().max_row), max(self.value_rows, default=1))

    @property
    def max_column(self) -> int:
        return max(int(super().max_column), max(map(len, self.value_rows.values()), default=1))

    def calculate_dimension(self) -> str:
        if not self.value_rows:
            return str(super().calculate_dimension())
        top = min(self.min_row, *self.value_rows) if self._cells else min(self.value_rows)
        return f"A{top}:{get_column_letter(self.max_column)}{self.max_row}"  # value rows begin at A


def cell_count(sheet: Worksheet) -> int:
    """How many cells a sheet holds (its value rows' too)."""
    rows = sheet.value_rows.values() if isinstance(sheet, ValueSheet) else ()
    return len(sheet._cells) + sum(map(len, rows))


class _RichText:
    """A rich text's ``is`` element, as ``CellRichText.to_tree`` makes it; each font's ``rPr`` made once."""

    def __init__(self) -> None:
        self._fonts: dict[int, str] = {}  # by id: a font's hash is slow, and the workbook uses a few

    def xml(self, value: CellRichText) -> str:
        return "<is>" + "".join(self._run(part) for part in value) + "</is>"

    def _run(self, part: Any) -> str:
        if isinstance(part, TextBlock):
            return f"<r>{self._font(part.font)}{_run_text(part.text)}</r>"
        return f"<r>{_run_text(part)}</r>"

    def _font(self, font: InlineFont) -> str:
        xml = self._fonts.get(id(font))
        if xml is None:
            xml = self._fonts[id(font)] = etree.tostring(font.to_tree(tagname="rPr"), encoding="unicode")
        return xml


def _run_text(text: str) -> str:
    """A run's ``t``, its spaces marked kept only beside other text (``xml.functions.whitespace``)."""
    stripped = text.strip()
    space = ' xml:space="preserve"' if stripped and text != stripped else ""
    return f"<t{space}>{_text(text)}</t>"


def _text(text: str) -> str:
    """Text escaped as lxml escapes an element's text (a carriage return as a reference)."""
    if not _SPECIAL.search(text):  # most texts: nothing to escape
        return text
    bad = _NOT_XML.search(text)
    if bad:  # as lxml refuses it
        raise ValueError(f"a character XML cannot hold: {bad.group()!r}")
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


def _attr(value: object) -> str:
    return _text(str(value)).replace('"', "&quot;")
