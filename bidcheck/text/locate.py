"""Locating spans of a document's comparable text in its own wording: page, paragraph, clean-text span,
the text itself and the aligned marks, for all the spans of a section at once."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bidcheck.model import Side
from bidcheck.text.normalize import CleanText

__all__ = ["SideLocator"]

Span = tuple[int, int]


class SideLocator:
    """The sides of every passage to be listed, located in their documents in one batch per document
    (page, paragraph, clean-text span, wording and marks): numpy over all of a document's sides at once
    instead of a few small array steps for each of tens of thousands of passages."""

    def __init__(self, texts: Sequence[CleanText]) -> None:
        self._texts = texts
        self._asked: list[dict[tuple[Span, tuple[Span, ...]], int]] = [{} for _ in texts]

    def ask(self, doc: int, span: Span, marks: tuple[Span, ...]) -> int:
        """Ask for one side; its number in ``located()[doc]``. A side asked again (a bid's copy of
        the tender's text, shared with bid after bid) is located once and its ``Side`` shared."""
        return self._asked[doc].setdefault((span, marks), len(self._asked[doc]))

    def located(self) -> list[list[Side]]:
        """Every side asked for, located: per document, in the order of their numbers."""
        return [_located(t, list(asked)) for t, asked in zip(self._texts, self._asked, strict=True)]


def _located(clean: CleanText, asked: list[tuple[Span, tuple[Span, ...]]]) -> list[Side]:
    if not asked:
        return []
    spans = np.asarray([span for span, _ in asked], dtype=np.int64)
    starts = clean.norm_map[spans[:, 0]].astype(np.int64)
    ends = clean.norm_map[spans[:, 1] - 1].astype(np.int64) + 1
    block = np.maximum(np.searchsorted(np.asarray(clean.block_starts), starts, "right") - 1, 0)
    pages = np.asarray(clean.block_pages)[block].tolist() if clean.block_pages else [1] * len(asked)
    paragraphs = np.asarray(clean.block_paragraphs)[block].tolist() if clean.block_pages else [0] * len(asked)
    lows, highs, bounds = _merged_marks(clean, [marks for _, marks in asked], starts)
    text, starts_l, ends_l = clean.text, starts.tolist(), ends.tolist()
    return [
        Side(
            pages[n],
            paragraphs[n],
            starts_l[n],
            ends_l[n],
            text[starts_l[n] : ends_l[n]],
            tuple(zip(lows[bounds[n] : bounds[n + 1]], highs[bounds[n] : bounds[n + 1]], strict=True)),
        )
        for n in range(len(asked))
    ]


def _merged_marks(
    clean: CleanText, marks: list[tuple[Span, ...]], starts: npt.NDArray[np.int64]
) -> tuple[list[int], list[int], list[int]]:
    """Each side's marks (in order) merged where they overlap or touch, in clean-text offsets from the
    side's start: (lows, highs, where each side's marks begin)."""
    counts = np.asarray([len(m) for m in marks], dtype=np.int64)
    flat = np.asarray([x for m in marks for x in m], dtype=np.int64).reshape(-1, 2)
    if not len(flat):
        return [], [], [0] * (len(marks) + 1)
    side = np.repeat(np.arange(len(marks)), counts)
    apart = side * (int(flat.max()) + 1)  # no mark of one side reaches another's
    lo, hi = flat[:, 0] + apart, flat[:, 1] + apart
    reach = np.maximum.accumulate(hi)
    first = np.flatnonzero(np.r_[True, lo[1:] > reach[:-1]])
    lo_m = lo[first] - apart[first]
    hi_m = np.maximum.reduceat(hi, first) - apart[first]
    owner = side[first]
    lows = clean.norm_map[lo_m].astype(np.int64) - starts[owner]
    highs = clean.norm_map[hi_m - 1].astype(np.int64) + 1 - starts[owner]
    bounds = np.searchsorted(owner, np.arange(len(marks) + 1)).tolist()
    return lows.tolist(), highs.tolist(), bounds
