"""Template text (from the tender or template files) and common text (shared by most bids)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

__all__ = ["mask_runs", "mask_share", "share_counts", "template_mask"]

Span = tuple[int, int]


def template_mask(
    kgrams: npt.NDArray[np.uint64],
    template_hashes: npt.NDArray[np.uint64],
    length: int,
    k: int,
    min_chars: int,
) -> npt.NDArray[np.bool_]:
    """Which comparable characters of a document lie in a stretch of template text.

    A stretch is at least ``min_chars`` long: stock phrases a trade shares with the tender (a dozen
    characters) are not template text, a quoted clause or a form is.
    """
    mask = np.zeros(length, dtype=bool)
    if not len(template_hashes) or not len(kgrams):
        return mask
    hits = np.isin(kgrams, template_hashes)
    edges = np.flatnonzero(np.diff(np.r_[0, hits.astype(np.int8), 0]))
    for start, end in zip(edges[::2], edges[1::2], strict=True):
        if end - start + k - 1 >= min_chars:
            mask[start : end + k - 1] = True
    return mask


def mask_share(span: Span, mask: npt.NDArray[np.bool_]) -> float:
    """The share of a span that the mask covers."""
    s, e = span
    return float(mask[s:e].mean()) if e > s else 0.0


def share_counts(length: int, spans: Iterable[Span]) -> npt.NDArray[np.int32]:
    """For one document: at each character, how many passages (each with another bid) cover it."""
    counts = np.zeros(length + 1, dtype=np.int32)
    for s, e in spans:
        counts[s] += 1
        counts[e] -= 1
    return np.cumsum(counts[:-1], dtype=np.int32)


def mask_runs(span: Span, mask: npt.NDArray[np.bool_], min_chars: int) -> list[tuple[Span, bool]]:
    """A span cut into runs inside and outside the mask; runs under ``min_chars`` join the one before."""
    s, e = span
    values = mask[s:e]
    cuts = [0, *(np.flatnonzero(values[1:] != values[:-1]) + 1).tolist(), len(values)]
    runs: list[tuple[Span, bool]] = []
    for lo, hi in itertools.pairwise(cuts):
        if runs and (hi - lo < min_chars or runs[-1][1] == bool(values[lo])):
            runs[-1] = ((runs[-1][0][0], s + hi), runs[-1][1])
        else:
            runs.append(((s + lo, s + hi), bool(values[lo])))
    if len(runs) > 1 and runs[0][0][1] - runs[0][0][0] < min_chars:
        runs[1] = ((runs[0][0][0], runs[1][0][1]), runs[1][1])
        runs.pop(0)
    return runs
