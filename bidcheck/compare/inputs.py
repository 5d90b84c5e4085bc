"""What verification needs of each bid: its comparable text, k-grams, sentences and windows, the text it
leaves out, and what is derived from them once (which k-grams may seed a passage, the masked ones)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.ready import Ready

__all__ = ["AlignInput", "align_inputs"]


@dataclass(frozen=True, eq=False)
class AlignInput:
    """What verification needs of one document, and what it derives once from it (``k``-grams)."""

    norm: str
    kgrams: npt.NDArray[np.uint64]
    sentence_starts: npt.NDArray[np.int32]
    window_starts: tuple[int, ...]
    masked: npt.NDArray[np.bool_] | None = None  # text that is no evidence (see ``bidcheck.evidence``)
    stock: npt.NDArray[np.bool_] | None = None  # k-grams too widespread to seed a passage
    k: int = 5  # the length of the k-grams (``seed_chars``)
    source: str = ""  # the key of the document's cache entry, which names all of the above but the masks

    @functools.cached_property
    def open(self) -> npt.NDArray[np.bool_]:
        """Which k-grams lie wholly outside the masked text and are no stock phrase: only they may find
        candidates and make a chain worth aligning."""
        return _open(len(self.kgrams), self.masked, self.stock, self.k)

    @functools.cached_property
    def starts(self) -> list[int]:
        """``sentence_starts`` as a list: looked up by bisection for each chain, thousands a pair."""
        starts: list[int] = self.sentence_starts.tolist()
        return starts

    @functools.cached_property
    def unmasked(self) -> npt.NDArray[np.bool_]:
        """Which k-grams lie wholly outside the masked text (stock phrases or not)."""
        return _open(len(self.kgrams), self.masked, None, self.k)

    @functools.cached_property
    def masked_once(self) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
        """(hash, position) of the k-grams wholly inside the masked text whose hash occurs there only
        once, sorted by hash."""
        return _singletons(self.kgrams, self.masked, self.k)

    @functools.cached_property
    def masked_in_order(self) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
        """``masked_once`` in the order of their positions."""
        hashes, positions = self.masked_once
        order = np.argsort(positions)
        return hashes[order], positions[order]


def align_inputs(
    bids: Sequence[Ready],
    masked: Sequence[npt.NDArray[np.bool_]],
    stock: Sequence[npt.NDArray[np.bool_]],
    k: int,
) -> list[AlignInput]:
    """What verification needs of each bid, with the text it leaves out and its stock phrases."""
    return [
        AlignInput(
            b.clean.norm,
            b.fingerprint.kgrams,
            b.clean.sentence_starts,
            b.fingerprint.window_starts,
            m,
            s,
            k,
            b.source,
        )
        for b, m, s in zip(bids, masked, stock, strict=True)
    ]


def _open(
    n: int, masked: npt.NDArray[np.bool_] | None, stock: npt.NDArray[np.bool_] | None, k: int
) -> npt.NDArray[np.bool_]:
    usable = np.ones(n, dtype=bool) if stock is None else ~stock
    if masked is None:
        return usable
    return usable & ~masked[:n] & ~masked[k - 1 : k - 1 + n]


def _singletons(
    kgrams: npt.NDArray[np.uint64], masked: npt.NDArray[np.bool_] | None, k: int
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    n = len(kgrams)
    if masked is None or not n:
        return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int64)
    positions = np.flatnonzero(masked[:n] & masked[k - 1 : k - 1 + n]).astype(np.int64)
    values, first, counts = np.unique(kgrams[positions], return_index=True, return_counts=True)
    once = counts == 1
    return values[once], positions[first[once]]
