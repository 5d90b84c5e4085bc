"""What every sheet of our workbooks shares: the header row, rows whose texts XML can hold, and the
print set-up (landscape A4, the section and the sheet in the header, 第 X 页 共 Y 页 in the footer,
one page wide at a size a panel can read: 8 pt or more).

A sheet prints at 11 pt × (the page's width / the columns' width). Each sheet's columns are sized to
fit ``PRINT_WIDTH_PX`` (the width of a landscape A4 page between 1 cm margins at 8.4/11 of full
size, in Excel's pixels); a sheet wider than that (the matrix of a section of more than some twenty bids)
prints across as many pages as keep it at 8 pt, its first column repeated on each. A text longer than
its column is wrapped, never cut off at the next cell.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from openpyxl.cell.rich_text import CellRichText
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.worksheet import Worksheet

from bidcheck.text.chars import replace_unsafe

__all__ = [
    "HEADER_FILL",
    "HEADER_FONT",
    "PRINT_WIDTH_PX",
    "WRAP",
    "append_row",
    "column_px",
    "finish_table",
    "print_set_up",
    "rows_height",
    "safe",
    "sheet_header",
    "text_height",
    "wrap_long_texts",
]

HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="305496")
WRAP = Alignment(wrap_text=True, vertical="top")
_MARGIN_IN = 0.4  # left and right, inches (1 cm)
# Aimed a little over 8 pt: LibreOffice lays columns out a few per cent wider than Excel does.
_FONT_PT, _SMALLEST_PT = 11.0, 8.4
# A4 landscape is 842 pt wide; a pixel is 0.75 pt; at 8.4/11 of full size the page holds 11/8.4 as much.
PRINT_WIDTH_PX = int((842 - 2 * 72 * _MARGIN_IN) / 0.75 * _FONT_PT / _SMALLEST_PT)
_DEFAULT_WIDTH = 8.43  # a column whose width was never set
_LINE_PT = 18.0  # a wrapped line of 11 pt text, CJK included (its fonts stand taller than Latin ones)


def column_px(width: float) -> int:
    """A column's width on screen and paper in Excel's pixels (the width counts digits of 7 pixels,
    and a column has 5 pixels of padding)."""
    return int(7 * width + 5)


def _widths(sheet: Worksheet) -> list[float]:
    out = []
    for column in range(1, sheet.max_column + 1):
        dimension = sheet.column_dimensions.get(get_column_letter(column))
        out.append(dimension.width if dimension is not None and dimension.width else _DEFAULT_WIDTH)
    return out


def print_set_up(sheet: Worksheet, head: str) -> None:
    """Print ``sheet`` on landscape A4 with ``head`` atop and the page numbers below each page, its
    header row on every page, one page wide where its columns fit at 8 pt, else across the fewest pages
    that keep 8 pt (the first column repeated)."""
    sheet.oddHeader.center.text = replace_unsafe(head).replace("&", "&&")  # & starts a code
    sheet.oddFooter.center.text = "第 &P 页 共 &N 页"
    sheet.page_margins = PageMargins(left=_MARGIN_IN, right=_MARGIN_IN, top=0.75, bottom=0.75)
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    pages = max(1, math.ceil(sum(map(column_px, _widths(sheet))) / PRINT_WIDTH_PX))
    sheet.page_setup.fitToWidth, sheet.page_setup.fitToHeight = pages, 0
    sheet.page_setup.orientation, sheet.page_setup.paperSize = "landscape", sheet.PAPERSIZE_A4
    sheet.print_title_rows = "1:1"
    if pages > 1:
        sheet.print_title_cols = "A:A"


def _shown_width(text: str) -> float:
    """How many digit widths a line of text takes (a CJK character a little over two)."""
    return sum(2.2 if ord(c) > 0x2E80 else 1.1 if c.isupper() else 1 for c in text)


def _lines(text: str, width: float) -> int:
    """How many lines ``text`` takes wrapped in a column ``width`` wide (less the cell's padding)."""
    room = max(1.0, width - 1)
    return sum(max(1, math.ceil(_shown_width(part) / room)) for part in text.split("\n"))


def text_height(text: str, width: float) -> float:
    """Row height (points) that shows ``text`` wrapped in a column ``width`` wide (at most Excel's 409)."""
    return float(min(409, _LINE_PT * _lines(text, width)))


def rows_height(texts: Sequence[tuple[object, float]]) -> float | None:
    """The height of a row whose cells hold ``texts`` (each with its column's width), wrapped; ``None``
    where each fits on one line (the row keeps the default height)."""
    lines = max((_lines(str(t), w) for t, w in texts if t), default=1)
    return float(min(409, _LINE_PT * lines)) if lines > 1 else None


def wrap_long_texts(sheet: Worksheet) -> None:
    """Wrap each text cell whose longest line is wider than its column (its other alignment kept), and
    make its row tall enough to show it all (set heights are kept where taller): printed, nothing is
    cut off where the next cell begins or the row ends."""
    widths = _widths(sheet)
    tallest: dict[int, list[tuple[object, float]]] = {}
    for cell in list(sheet._cells.values()):  # the cells made (a large sheet's value rows are styled as put)
        value = cell.value
        if cell.row < 2 or not isinstance(value, str | CellRichText) or not value:
            continue
        width = widths[cell.column - 1]
        if not cell.alignment.wrap_text and max(map(_shown_width, str(value).split("\n"))) <= width:
            continue
        if not cell.alignment.wrap_text:
            old = cell.alignment
            cell.alignment = Alignment(horizontal=old.horizontal, vertical="top", wrap_text=True)
        tallest.setdefault(cell.row, []).append((value, width))
    for row, texts in tallest.items():
        height = rows_height(texts)
        if height is not None and height > (sheet.row_dimensions[row].height or 0):
            sheet.row_dimensions[row].height = height
    for cell in list(sheet._cells.values()):  # beside a wrapped text, each cell at the top of its row
        if cell.row in tallest and cell.alignment.vertical is None:
            old = cell.alignment
            cell.alignment = Alignment(horizontal=old.horizontal, vertical="top", wrap_text=old.wrap_text)


def safe(value: object) -> object:
    """A cell value XML can hold: a text's characters that it cannot are shown as � (see ``text.chars``)."""
    return replace_unsafe(value) if isinstance(value, str) else value


def append_row(sheet: Worksheet, values: Sequence[object]) -> None:
    """Append a row, every text made safe (openpyxl refuses control characters; lxml, U+FFFE at saving)."""
    sheet.append([safe(v) for v in values])


def sheet_header(
    sheet: Worksheet, titles: Sequence[str], widths: Sequence[float], height: float = 32
) -> None:
    """The header row (white on blue, wrapped, frozen) and the columns' widths."""
    append_row(sheet, titles)
    for col, width in enumerate(widths, start=1):
        cell = sheet.cell(row=1, column=col)
        cell.font, cell.fill = HEADER_FONT, HEADER_FILL
        cell.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
        sheet.column_dimensions[get_column_letter(col)].width = width
    sheet.row_dimensions[1].height = max(height, rows_height(list(zip(titles, widths, strict=False))) or 0)
    sheet.freeze_panes = "A2"


def finish_table(sheet: Worksheet) -> None:
    """Filter buttons on the table (a sheet with rows beneath its header)."""
    if sheet.max_row > 1:
        sheet.auto_filter.ref = sheet.dimensions
