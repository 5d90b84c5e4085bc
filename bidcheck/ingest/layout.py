"""Page layout shared by the PDF and OCR readers: text lines with positions, grouped into paragraphs."""

from __future__ import annotations

import itertools
import re
import statistics
from dataclasses import dataclass

from bidcheck.model import Block, BlockKind
from bidcheck.text.clean import is_page_number

__all__ = ["Line", "group_paragraphs", "page_blocks", "row_cuts"]

_CELL_GAP = re.compile(r"\s+")
# sentence punctuation: a line of prose, not a row of cells (a comma between thousands is a number's)
_PROSE = re.compile(r"[。；！？;]|(?<!\d)[，,]|[，,](?!\d{3}(?!\d))")
_NUMBER = re.compile(r"[-+]?[¥￥$]?\d[\d,，]*(?:\.\d+)?%?")
_CELL_MAX_CHARS = 20  # a longer stretch without a gap is running text


@dataclass(frozen=True)
class Line:
    """One text line of a page; coordinates in PDF points, ``top`` measured from the page bottom."""

    text: str
    left: float
    right: float
    top: float
    height: float
    starts: tuple[float, ...] = ()  # the left edge of each piece between spaces, where the reader knows it


def group_paragraphs(lines: list[Line]) -> list[str]:
    """Join lines into paragraphs: a new one starts after a wide gap, an indent or a short line."""
    if not lines:
        return []
    heights = [ln.height for ln in lines if ln.height > 0] or [10.0]
    char = statistics.median(heights) or 10.0
    spacing = _typical_spacing(lines, char)
    left = min(ln.left for ln in lines)
    right = max(ln.right for ln in lines)
    paragraphs: list[list[str]] = [[lines[0].text]]
    for prev, line in itertools.pairwise(lines):
        gap = prev.top - line.top
        starts_new = (
            gap > spacing * 1.45
            or gap < 0
            or line.left > left + char * 1.2
            or prev.right < right - char * 2.5
        )
        if starts_new:
            paragraphs.append([line.text])
        else:
            paragraphs[-1].append(line.text)
    return [_join_lines(p) for p in paragraphs]


def _typical_spacing(lines: list[Line], char: float) -> float:
    gaps = [a.top - b.top for a, b in itertools.pairwise(lines) if a.top - b.top > 0]
    return min(statistics.median(gaps), char * 2.2) if gaps else char * 1.5


def _join_lines(parts: list[str]) -> str:
    out = parts[0]
    for part in parts[1:]:
        latin = out[-1:].isascii() and out[-1:].isalnum() and part[:1].isascii() and part[:1].isalnum()
        out += (" " if latin else "") + part
    return out


def row_cuts(text: str) -> tuple[int, ...] | None:
    """Where the cells of a table row start in a text line, when the line is one: its pieces are set
    apart by wide gaps (readers write them as spaces), none is long or punctuated like prose, and there
    are at least three, or two of which one is a number (``投标总价（元）  3861222.75``). ``None`` for any
    other line, and for a page number (``第 1 页 共 9 页``). The first cell's start (0) is left out."""
    if _PROSE.search(text) or is_page_number(text):
        return None
    pieces = [m.span() for m in re.finditer(r"\S+", text)]
    if len(pieces) < 2 or any(end - start > _CELL_MAX_CHARS for start, end in pieces):
        return None
    if len(pieces) == 2 and not any(_NUMBER.fullmatch(text[s:e]) for s, e in pieces):
        return None
    return tuple(start for start, _ in pieces[1:])


def page_blocks(lines: list[Line], page: int, kind: BlockKind = "body") -> list[Block]:
    """A page's blocks from its lines: each line that is a table row (``row_cuts``) a ``table`` block of
    its own with the lines of its wrapped cells (``_wrapped_row``), rows numbered from 1 on the page
    (``clean_document`` numbers them through the document); the lines between them grouped into
    paragraphs."""
    if kind != "body":  # headers and footers are not compared: their lines stay as they are
        return [Block(text, kind, page, 0) for text in group_paragraphs(lines)]
    blocks: list[Block] = []
    row = 1
    run: list[Line] = []
    at = 0
    while at < len(lines):
        line = lines[at]
        if row_cuts(line.text) is None:
            run.append(line)
            at += 1
            continue
        blocks += [Block(text, kind, page, 0) for text in group_paragraphs(run)]
        run = []
        text, cuts, at = _wrapped_row(lines, at)
        blocks.append(Block(text, "table", page, 0, row, 0, cuts))
        row += 1
    return blocks + [Block(text, kind, page, 0) for text in group_paragraphs(run)]


def _wrapped_row(lines: list[Line], at: int) -> tuple[str, tuple[int, ...], int]:
    """The table row starting at ``lines[at]`` with the lines of its cells that a narrow column wrapped
    (a writer puts them after the row's first line, cell by cell: the next cells' first lines level with
    it, the further lines of each below, under the cell they continue): its text, where its cells start,
    and the index of the first line after it. A row whose pieces' places are not known stays one line."""
    row = lines[at]
    pieces = [m.group() for m in re.finditer(r"\S+", row.text)]
    if len(row.starts) != len(pieces):
        return row.text, row_cuts(row.text) or (), at + 1
    cells = list(zip(row.starts, pieces, strict=True))  # (where the cell starts, its text)
    lowest = row.top
    at += 1
    while at < len(lines) and _continues(row, lines[at], lowest):
        line = lines[at]
        if abs(line.top - row.top) < row.height / 2:  # a further cell's first line, level with the row
            starts = line.starts if len(line.starts) == len(line.text.split()) else (line.left,)
            texts = line.text.split() if len(starts) > 1 else [line.text]
            cells += zip(starts, texts, strict=True)
        else:  # a cell's next line, under the cell whose start is nearest on its left
            under = [n for n, (x, _text) in enumerate(cells) if x <= line.left + row.height / 2]
            n = max(under, key=lambda k: cells[k][0])
            cells[n] = (cells[n][0], cells[n][1] + line.text)
        lowest = min(lowest, line.top)
        at += 1
    cells.sort(key=lambda cell: cell[0])
    text = " ".join(text for _x, text in cells)
    return text, row_cuts(text) or (), at


def _continues(row: Line, line: Line, lowest: float) -> bool:
    """Whether ``line`` is part of ``row``'s cells: short and no prose, no row of its own, within the
    row's width, level with the row or within a line's spacing of the lowest line taken so far."""
    if row_cuts(line.text) is not None or _PROSE.search(line.text) or len(line.text) > _CELL_MAX_CHARS:
        return False
    if line.left < row.left + row.height or line.top > row.top + row.height / 2:
        return False
    return lowest - line.top <= row.height * 1.6
