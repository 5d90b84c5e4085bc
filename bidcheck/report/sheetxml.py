"""Saving an openpyxl workbook with each sheet's cells written as text, not element by element.

openpyxl writes a sheet's cells one XML element at a time through lxml's incremental writer, and that is
most of the time of saving the workbook (a 100-bid section's pairs and matrix hold some 75,000 cells).
``save_workbook`` writes the same bytes: every part but the cells is still written by openpyxl, and each
cell is written here as openpyxl would write it (an inline string, a rich text, a number, with its style
id, in ASCII with character references as lxml writes it). A sheet holding a cell of a kind not written
here (a formula, a date, a comment) is written by openpyxl whole.
"""

from __future__ import annotations

import datetime as dt
import re
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
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.writer.excel import ExcelWriter

__all__ = ["save_workbook"]

_PLACE = b"<sheetData/>"  # where the cells go in the sheet openpyxl writes without them
# What lxml refuses to write: XML 1.0's forbidden characters (``text.chars`` replaces them before).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


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
    for row in ws.row_dimensions.keys() - rows.keys():  # a row with a height and no cells
        rows[row] = []
    rich = _RichText()
    parts = ["<sheetData>"]
    for index in sorted(rows):
        parts.append(_row_start(ws, index))
        parts.extend(_cell(ws, cell, rich) for cell in rows[index] if _written(cell))
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
    """One cell as ``cell._writer.lxml_write_cell`` writes it."""
    kind, value = cell.data_type, cell._value
    if kind not in ("s", "n", "b", "e"):  # a formula or a date
        raise _Unsupported
    style = f' s="{cell.style_id}"' if cell.has_style else ""
    start = f'<c r="{cell.coordinate}"{style} t="{"inlineStr" if kind == "s" else kind}">'
    if cell.hyperlink:
        ws._hyperlinks.append(cell.hyperlink)
    if value is None or value == "":
        return start + "</c>"
    if isinstance(value, CellRichText):
        return f"{start}{rich.xml(value)}</c>"
    if kind == "s":
        space = ' xml:space="preserve"' if value != value.strip() else ""
        return f"{start}<is><t{space}>{_text(value)}</t></is></c>"
    return f"{start}<v>{_text(safe_string(value))}</v></c>"


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
    bad = _NOT_XML.search(text)
    if bad:  # as lxml refuses it
        raise ValueError(f"a character XML cannot hold: {bad.group()!r}")
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


def _attr(value: object) -> str:
    return _text(str(value)).replace('"', "&quot;")
