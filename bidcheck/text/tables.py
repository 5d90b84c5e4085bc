"""The tables of a document as rows of cells, from its blocks (see ``bidcheck.model.Block``).

A Word table gives a block per paragraph of a cell; a row read from a page (PDF, OFD, a scan) is one
block whose cells start at its ``cuts``. Both become the same ``TableRow``: its cells in order, each
located in the document's compared blocks, so that a cell can be found in the clean text.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from bidcheck.model import Block

__all__ = ["Cell", "TableRow", "table_rows"]


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
