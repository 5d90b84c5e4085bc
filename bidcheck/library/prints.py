"""What the library keeps of a bid to compare later sections against it: winnowed k-gram hashes with
their positions, where each paragraph starts (page and paragraph numbers), the 64-bit SimHash.

Winnowing (Schleimer, Wilkerson and Aiken) keeps, of every ``WINDOW`` consecutive ``K``-character
k-grams, the one with the smallest hash: the same text keeps the same hashes in any document, and any
stretch of ``WINDOW + K - 1`` characters two texts share keeps at least one hash in both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view

from bidcheck.fingerprint.kgrams import kgram_hashes
from bidcheck.text.normalize import CleanText

__all__ = ["WINDOW", "BidPrint", "K", "bid_print", "bidder_name", "winnow"]

K = 8  # characters of a library k-gram: rarer than the seeds of one section, which are shorter
WINDOW = 16  # k-grams per winnowing window: a shared stretch of 23 characters always keeps a hash
_PREFIX = re.compile(r"^[\s\d０-９]+[\s._、\-－—_)）]*")


@dataclass(frozen=True, eq=False)
class BidPrint:
    """A bid as the library keeps it: winnowed hashes and positions in its comparable text, the
    comparable offset, page and paragraph where each paragraph starts, and its SimHash."""

    hashes: npt.NDArray[np.int64]
    positions: npt.NDArray[np.int32]
    places: npt.NDArray[np.int32]  # shape (n, 3): comparable offset, page, paragraph
    chars: int  # comparable characters

    def place(self, offset: int) -> tuple[int, int]:
        """The (page, paragraph) holding a comparable offset."""
        if not len(self.places):
            return 1, 0
        row = max(int(np.searchsorted(self.places[:, 0], offset, "right")) - 1, 0)
        return int(self.places[row, 1]), int(self.places[row, 2])


def winnow(hashes: npt.NDArray[np.uint64], window: int = WINDOW) -> npt.NDArray[np.int64]:
    """The positions winnowing keeps: the smallest hash of every ``window`` consecutive ones."""
    if len(hashes) <= window:
        return np.asarray([int(np.argmin(hashes))] if len(hashes) else [], dtype=np.int64)
    picks = sliding_window_view(hashes, window).argmin(axis=1) + np.arange(len(hashes) - window + 1)
    return np.unique(picks).astype(np.int64)


def places(clean: CleanText) -> npt.NDArray[np.int32]:
    """Each compared paragraph's first comparable offset, page and paragraph number."""
    starts = np.searchsorted(clean.norm_map, np.asarray(clean.block_starts, dtype=np.int64))
    table = np.stack(
        [starts, np.asarray(clean.block_pages), np.asarray(clean.block_paragraphs)], axis=1
    ).astype(np.int32)
    return table.reshape(-1, 3)


def bid_print(clean: CleanText) -> BidPrint:
    """The library's fingerprint of a bid's comparable text."""
    all_hashes = kgram_hashes(clean.norm, K)
    kept = winnow(all_hashes)
    return BidPrint(all_hashes[kept].view(np.int64), kept.astype(np.int32), places(clean), len(clean.norm))


def bidder_name(file_name: str) -> str:
    """The bidder a bid belongs to, from its file name: the name less its suffix and a leading number
    (``01-华东建设集团.docx`` is 华东建设集团's)."""
    stem = file_name.rsplit(".", 1)[0] if "." in file_name else file_name
    return _PREFIX.sub("", stem).strip() or stem
