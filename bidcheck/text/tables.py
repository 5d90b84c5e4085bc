"""The tables of a document as rows of cells, from its blocks (see ``bidcheck.model.Block``), and
their frame: what a tender's tables give and the bidders return unchanged.

A Word table gives a block per paragraph of a cell; a row read from a page (PDF, OFD, a scan) is one
block whose cells start at its ``cuts``. Both become the same ``TableRow``: its cells in order, each
located in the document's compared blocks, so that a cell can be found in the clean text.

A cell of a bid's row whose text is a cell of a tender table (item name, unit, quantity, header,
requirement) is the frame; so are two or three consecutive cells together, where a page row split a
tender cell at a gap inside it. The other cells of a row with a frame cell are what the bidder
filled in: prices, brands, answers, names.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bidcheck.model import Block
from bidcheck.text.normalize import normalize

__all__ = [
    "Cell",
    "TableRow",
    "cell_norms",
    "cells_by_column",
    "common_frame",
    "frame_spans",
    "table_rows",
    "tender_frame",
]

_JOINED = 3  # a tender cell may come back as this many cells of a page row (a gap inside it)
_ALONE_CHARS = 2  # a shorter frame cell (序号 1, unit m) counts only in a row with another frame cell


@dataclass(frozen=True)
class Cell:
    """One cell: its text, and where it lies: blocks ``first..last`` of the compared blocks (a Word cell
    of several paragraphs spans several), from ``start`` in the first to ``end`` in the last."""

    text: str
    first: int
    start: int
    last: int
    end: int


@dataclass(frozen=True)
class TableRow:
    """One row of a table, located by the page and paragraph of its first cell."""

    row: int
    page: int
    paragraph: int
    cells: tuple[Cell, ...]


def table_rows(blocks: Sequence[Block]) -> list[TableRow]:
    """The table rows among ``blocks`` (a document's compared blocks, after ``clean_document``), in
    reading order."""
    rows: list[TableRow] = []
    cells: list[Cell] = []
    current: Block | None = None
    for index, block in enumerate(blocks):
        if current is not None and block.row != current.row:
            rows.append(TableRow(current.row, current.page, current.paragraph, tuple(cells)))
            cells, current = [], None
        if not block.row:
            continue
        if current is None:
            current = block
        cells += _block_cells(block, index, cells, blocks)
    if current is not None:
        rows.append(TableRow(current.row, current.page, current.paragraph, tuple(cells)))
    return rows


def _block_cells(block: Block, index: int, cells: list[Cell], blocks: Sequence[Block]) -> list[Cell]:
    """The cells ``block`` adds to its row: those between its cuts, or one Word cell (a further
    paragraph of the previous block's cell extends that cell instead)."""
    if block.cuts:
        bounds = [0, *block.cuts, len(block.text)]
        return [
            Cell(block.text[s:e].strip(), index, s, index, len(block.text[:e].rstrip()))
            for s, e in itertools.pairwise(bounds)
        ]
    if cells and index and blocks[index - 1].row == block.row and blocks[index - 1].cell == block.cell:
        last = cells.pop()
        return [Cell(f"{last.text}\n{block.text}", last.first, last.start, index, len(block.text))]
    return [Cell(block.text, index, 0, index, len(block.text))]


def cells_by_column(row: TableRow, blocks: Sequence[Block]) -> dict[int, str]:
    """A row's cell texts by column (``blocks``: the compared blocks the row was read from): a Word
    cell by its place among its row's cells (an empty cell gives no block; a cell spanning columns
    counts once); a page row's cells in order (a page knows no columns: an empty cell leaves no gap,
    so two page rows line up only cell for cell)."""
    if blocks[row.cells[0].first].cuts:
        return {index: cell.text for index, cell in enumerate(row.cells)}
    return {blocks[cell.first].cell: cell.text for cell in row.cells}


def cell_norms(row: TableRow) -> list[str]:
    """The comparable text of each cell of a row."""
    return [normalize(cell.text)[0] for cell in row.cells]


def tender_frame(tables: Iterable[list[TableRow]]) -> frozenset[str]:
    """The comparable text of every cell of the tender's (and the templates') tables."""
    return frozenset(n for rows in tables for row in rows for n in cell_norms(row) if n)


def common_frame(tables: Iterable[list[TableRow]], needed: int) -> frozenset[str]:
    """The cell texts that the tables of at least ``needed`` bids hold (``tables``: each bid's rows)."""
    counts: Counter[str] = Counter()
    for rows in tables:
        counts.update({n for row in rows for n in cell_norms(row) if n})
    return frozenset(text for text, count in counts.items() if count >= needed)


def frame_spans(norms: list[str], frame: frozenset[str]) -> list[tuple[int, int]]:
    """The runs of a row's cells (index from, to) whose text together is a frame cell, longest first;
    a lone short frame cell (a 序号 in a bidder's own table) is left out."""
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(norms):
        for size in range(min(_JOINED, len(norms) - index), 0, -1):
            if all(norms[index : index + size]) and "".join(norms[index : index + size]) in frame:
                spans.append((index, index + size))
                index += size
                break
        else:
            index += 1
    if len(spans) == 1 and len("".join(norms[spans[0][0] : spans[0][1]])) < _ALONE_CHARS:
        return []
    return spans
