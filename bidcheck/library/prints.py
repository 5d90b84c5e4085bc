"""What the library keeps of a bid to compare later sections against it: winnowed k-gram hashes with
their positions, where each paragraph starts (page and paragraph numbers), the window MinHash band keys
and the 64-bit SimHash.

Winnowing (Schleimer, Wilkerson and Aiken) keeps, of every ``WINDOW`` consecutive ``K``-character
k-grams, the one with the smallest hash: the same text keeps the same hashes in any document, and any
stretch of ``WINDOW + K - 1`` characters two texts share keeps at least one hash in both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view

from bidcheck.arrays import distinct
from bidcheck.config import Settings
from bidcheck.fingerprint.kgrams import kgram_hashes, mix64
from bidcheck.fingerprint.minhash import WindowMinHash, lsh_bands, window_minhashes, window_starts
from bidcheck.memo import memoised
from bidcheck.ready import Ready
from bidcheck.text.normalize import CleanText

__all__ = [
    "WINDOW",
    "BidPrint",
    "K",
    "band_keys",
    "bid_print",
    "bidder_name",
    "ready_print",
    "window_band_keys",
    "winnow",
]

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

    def __reduce__(self) -> tuple[object, tuple[bytes, bytes, bytes, int]]:
        """Pickled as its arrays' bytes: equal prints pickle alike however their arrays were made (one
        made now, one read back from the cache), as a check's key of what the library said needs."""
        hashes, positions = self.hashes.astype(np.int64).tobytes(), self.positions.astype(np.int32).tobytes()
        return _unpickled_print, (hashes, positions, self.places.astype(np.int32).tobytes(), self.chars)

    def place(self, offset: int) -> tuple[int, int]:
        """The (page, paragraph) holding a comparable offset."""
        if not len(self.places):
            return 1, 0
        row = max(int(np.searchsorted(self.places[:, 0], offset, "right")) - 1, 0)
        return int(self.places[row, 1]), int(self.places[row, 2])


def _unpickled_print(hashes: bytes, positions: bytes, table: bytes, chars: int) -> BidPrint:
    return BidPrint(
        np.frombuffer(hashes, np.int64).copy(),
        np.frombuffer(positions, np.int32).copy(),
        np.frombuffer(table, np.int32).reshape(-1, 3).copy(),
        chars,
    )


def winnow(hashes: npt.NDArray[np.uint64], window: int = WINDOW) -> npt.NDArray[np.int64]:
    """The positions winnowing keeps: the smallest hash of every ``window`` consecutive ones."""
    if len(hashes) <= window:
        return np.asarray([int(np.argmin(hashes))] if len(hashes) else [], dtype=np.int64)
    picks = sliding_window_view(hashes, window).argmin(axis=1) + np.arange(len(hashes) - window + 1)
    return distinct(picks).astype(np.int64)


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


@memoised
def ready_print(ready: Ready) -> BidPrint:
    """``bid_print`` of a prepared bid, remembered by its cache entry (``memoised``): the check looks a
    bid up with it and storing the section stores it, and a bid checked before is not fingerprinted
    again."""
    return bid_print(ready.clean)


def window_band_keys(norm: str, settings: Settings) -> npt.NDArray[np.uint32]:
    """The LSH band keys of a text's MinHash windows (the check's window sizes, permutations and bands),
    shape (windows, bands): one 32-bit key per band, the band's values mixed into one number."""
    starts = window_starts(len(norm), settings.window_chars, settings.window_stride)
    if not starts or len(norm) < settings.shingle_chars:
        return band_keys([], settings)
    windows = window_minhashes(
        norm, starts, settings.window_chars, settings.shingle_chars, settings.num_perm, settings.seed
    )
    return band_keys(windows, settings)


def band_keys(windows: Sequence[WindowMinHash], settings: Settings) -> npt.NDArray[np.uint32]:
    """``window_band_keys`` of window MinHashes already made (a check's fingerprints)."""
    bands = lsh_bands(settings.lsh_threshold, settings.num_perm)
    if not windows:
        return np.zeros((0, len(bands)), dtype=np.uint32)
    values = np.stack([w.hashvalues for w in windows]).astype(np.uint64)
    keys = np.zeros((len(windows), len(bands)), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for n, (start, end) in enumerate(bands):
            for column in range(start, end):
                keys[:, n] = mix64(keys[:, n] * np.uint64(0x100000001B3) + values[:, column])
    return (keys >> np.uint64(32)).astype(np.uint32)


def bidder_name(file_name: str) -> str:
    """The bidder a bid belongs to, from its file name: the name less its suffix and a leading number
    (``01-华东建设集团.docx`` is 华东建设集团's)."""
    stem = file_name.rsplit(".", 1)[0] if "." in file_name else file_name
    return _PREFIX.sub("", stem).strip() or stem
