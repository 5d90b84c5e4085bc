"""Tables the tender gives and the bidders fill in: their frame is no evidence, the filled cells are.

A priced bill of quantities, 开标一览表 or 偏离表 comes back in every bid with the tender's item names,
units and quantities and the bidder's own prices or answers. Row for row two bids then agree on most of
their text though neither copied the other. The frame cells of a bid's rows (``bidcheck.text.tables``)
are masked like tender text; without a tender, the cells that the tables of most bids hold
(``bids_for_common`` of them) are the frame.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bidcheck.ready import Ready
from bidcheck.text.tables import TableRow, cell_norms, common_frame, frame_spans, table_rows, tender_frame

__all__ = ["bids_frame", "frame_masks", "templates_frame"]

Mask = npt.NDArray[np.bool_]


def _rows(ready: Ready) -> list[TableRow]:
    return table_rows(ready.doc.compared_blocks())


def templates_frame(templates: Sequence[Ready]) -> frozenset[str]:
    """The frame of the section's tables: every cell of the tender's and the templates' tables."""
    return tender_frame(_rows(t) for t in templates)


def bids_frame(bids: Sequence[Ready], needed: int) -> frozenset[str]:
    """The frame of the section's tables without a tender: the cells the tables of ``needed`` bids hold."""
    return common_frame((_rows(b) for b in bids), needed)


def frame_masks(bids: Sequence[Ready], frame: frozenset[str]) -> list[Mask]:
    """For each bid, by comparable character: the frame cells of its table rows."""
    return [_frame_mask(bid, frame) for bid in bids]


def _frame_mask(bid: Ready, frame: frozenset[str]) -> Mask:
    clean = bid.clean
    mask = np.zeros(len(clean.norm), dtype=bool)
    if not frame:
        return mask
    bounds: list[int] = []  # clean-text start and end of each frame span
    for row in _rows(bid):
        for first, last in frame_spans(cell_norms(row), frame):
            head, tail = row.cells[first], row.cells[last - 1]
            bounds += [clean.block_starts[head.first] + head.start, clean.block_starts[tail.last] + tail.end]
    # one search for all spans, in the map's own type (a key of another type copies the whole map)
    found = np.searchsorted(clean.norm_map, np.asarray(bounds, dtype=clean.norm_map.dtype), "left")
    for lo, hi in found.reshape(-1, 2).tolist():
        mask[lo:hi] = True
    return mask
