"""The units the semantic layer compares: a bid's own sentences, those that survive masking."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.text import CleanText

__all__ = ["Units", "bid_units", "shared_wording"]

Span = tuple[int, int]
_PROSE = re.compile(r"[，。；！？、,;!?]")
_MAX_TEXT = 300  # characters of a sentence given to the encoder (a longer one is a list or a table)


@dataclass(frozen=True)
class Units:
    """One bid's sentences outside its masked text: comparable-text spans and their own wording."""

    spans: tuple[Span, ...]
    texts: tuple[str, ...]
    norms: tuple[str, ...]  # each sentence's comparable text

    def subset(self, indexes: Sequence[int]) -> Units:
        """These units at the given indexes (in order)."""
        spans = tuple(self.spans[n] for n in indexes)
        return Units(spans, tuple(self.texts[n] for n in indexes), tuple(self.norms[n] for n in indexes))


def _sentence_spans(clean: CleanText) -> list[Span]:
    starts = [int(s) for s in clean.sentence_starts]
    ends = [*starts[1:], len(clean.norm)]
    return [(s, e) for s, e in zip(starts, ends, strict=True) if e > s]


def _own_sentences(clean: CleanText, masked: npt.NDArray[np.bool_], min_chars: int) -> list[Span]:
    """The sentences of at least ``min_chars`` comparable characters, at most a quarter of them masked
    (each sentence's masked characters counted from one running sum, not a slice of the mask each)."""
    bounds = np.asarray(_sentence_spans(clean), dtype=np.int64).reshape(-1, 2)
    running = np.concatenate([[0], np.cumsum(masked, dtype=np.int64)])
    length = bounds[:, 1] - bounds[:, 0]
    share = (running[bounds[:, 1]] - running[bounds[:, 0]]) / np.maximum(length, 1)
    keep = (length >= min_chars) & ~(share > 0.25)
    return [(int(s), int(e)) for s, e in bounds[keep]]


def bid_units(clean: CleanText, masked: npt.NDArray[np.bool_], min_chars: int) -> Units:
    """The sentences of prose of at least ``min_chars`` comparable characters, at most a quarter of them
    masked (tender, template, common or public text is nobody's own wording, however it was reworded).

    A line without a punctuation mark is a heading or a row of a table (序号 设备名称 型号 数量…): every
    bid lists its excavators and cranes in the same order, which means nothing.
    """
    spans, texts = [], []
    for s, e in _own_sentences(clean, masked, min_chars):
        lo, hi = clean.clean_span(s, e)
        text = clean.text[lo : hi + 1] if _PROSE.match(clean.text, hi) else clean.text[lo:hi]  # with its 。
        if _PROSE.search(text):
            spans.append((s, e))
            texts.append(text[:_MAX_TEXT])
    return Units(tuple(spans), tuple(texts), tuple(clean.norm[s:e] for s, e in spans))


def shared_wording(a: str, b: str, k: int = 4) -> float:
    """The share of the shorter comparable text that lies in ``k``-character runs the other holds too."""
    if len(a) > len(b):
        a, b = b, a
    if len(a) < k:
        return 0.0
    theirs = {b[n : n + k] for n in range(len(b) - k + 1)}
    covered = np.zeros(len(a), dtype=bool)
    for n in range(len(a) - k + 1):
        if a[n : n + k] in theirs:
            covered[n : n + k] = True
    return float(covered.mean())
