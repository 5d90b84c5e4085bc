"""Tables the tender gives and the bidders fill in: their frame is no evidence, the filled cells are.

A priced bill of quantities, 开标一览表 or 偏离表 comes back in every bid with the tender's item names,
units and quantities and the bidder's own prices or answers. Row for row two bids then agree on most of
their text though neither copied the other. A cell of a bid's table row whose text is a cell of a
tender table (or, where several cells of a page row were one Word cell, two or three consecutive
cells together) is the tender's frame: masked like tender text. Without a tender, the cells that the
tables of most bids hold are the frame (``bids_for_common`` of them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt

from bidcheck.prepare import Ready
from bidcheck.text import normalize
from bidcheck.text.tables import TableRow, table_rows

__all__ = ["common_frame", "frame_masks", "tender_frame"]

Mask = npt.NDArray[np.bool_]
_JOINED = 3  # a tender cell may come back as this many cells of a page row (a gap inside it)
_ALONE_CHARS = 2  # a shorter frame cell (序号 1, unit m) counts only in a row with another frame cell


def _cell_norms(row: TableRow) -> list[str]:
    return [normalize(cell.text)[0] for cell in row.cells]


def _rows(ready: Ready) -> list[TableRow]:
    return table_rows(ready.doc.compared_blocks())


def tender_frame(templates: Sequence[Ready]) -> frozenset[str]:
    """The comparable text of every cell of the tender's and the templates' tables."""
    return frozenset(n for t in templates for row in _rows(t) for n in _cell_norms(row) if n)


def common_frame(bids: Sequence[Ready], needed: int) -> frozenset[str]:
    """The cell texts that the tables of at least ``needed`` bids hold."""
    counts: Counter[str] = Counter()
    for bid in bids:
        counts.update({n for row in _rows(bid) for n in _cell_norms(row) if n})
    return frozenset(text for text, count in counts.items() if count >= needed)


def _frame_spans(norms: list[str], frame: frozenset[str]) -> Iterator[tuple[int, int]]:
    """Runs of the row's cells (index from, to) whose text together is a frame cell, longest first."""
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
    alone = len(spans) == 1
    for start, end in spans:
        if not alone or len("".join(norms[start:end])) >= _ALONE_CHARS:
            yield start, end


def frame_masks(bids: Sequence[Ready], frame: frozenset[str]) -> list[Mask]:
    """For each bid, by comparable character: the frame cells of its table rows."""
    return [_frame_mask(bid, frame) for bid in bids]


def _frame_mask(bid: Ready, frame: frozenset[str]) -> Mask:
    clean = bid.clean
    mask = np.zeros(len(clean.norm), dtype=bool)
    if not frame:
        return mask
    for row in _rows(bid):
        for first, last in _frame_spans(_cell_norms(row), frame):
            head, tail = row.cells[first], row.cells[last - 1]
            start = clean.block_starts[head.first] + head.start
            end = clean.block_starts[tail.last] + tail.end
            lo, hi = np.searchsorted(clean.norm_map, [start, end], "left")
            mask[lo:hi] = True
    return mask
