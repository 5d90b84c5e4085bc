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
    its own, rows numbered from 1 on the page (``clean_document`` numbers them through the document);
    the lines between them grouped into paragraphs."""
    if kind != "body":  # headers and footers are not compared: their lines stay as they are
        return [Block(text, kind, page, 0) for text in group_paragraphs(lines)]
    blocks: list[Block] = []
    row = 1
    run: list[Line] = []
    for line in lines:
        cuts = row_cuts(line.text)
        if cuts is None:
            run.append(line)
            continue
        blocks += [Block(text, kind, page, 0) for text in group_paragraphs(run)]
        run = []
        blocks.append(Block(line.text, "table", page, 0, row, 0, cuts))
        row += 1
    return blocks + [Block(text, kind, page, 0) for text in group_paragraphs(run)]
