"""Nearest neighbours of every unit among the other bids' units, scored by margin, in blocks of rows.

Bids of one trade say the same things: a sentence on 质量保证 has many close sentences in every other
bid, and its cosine with any one of them says little. What marks a rewrite is that its partner stands
out among the sentence's neighbours. The *margin* of a match (as in mining translated sentence pairs
from two corpora) is its cosine over the mean cosine of both sentences' ``k`` nearest neighbours in the
other bids: about 1 for a stock sentence, well above 1 for a sentence and its rewrite.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import numpy.typing as npt

__all__ = ["Match", "neighbour_matches"]

Match = tuple[int, int, float, float]  # unit of the first bid, unit of the second, cosine, margin
Vectors = npt.NDArray[np.float32]
Owners = npt.NDArray[np.int64]
_BLOCK = 512
_MARGIN_K = 4  # neighbours whose mean cosine is a sentence's usual closeness to other bids


def _nearest(vectors: Vectors, owner: Owners, k: int) -> tuple[npt.NDArray[np.int64], Vectors]:
    """For every row, its ``k`` nearest rows of other bids and their cosines (best first)."""
    k = max(1, min(k, len(owner) - 1))
    columns = np.zeros((len(owner), k), dtype=np.int64)
    cosines = np.full((len(owner), k), -1.0, dtype=np.float32)
    for start in range(0, len(owner), _BLOCK):
        rows = slice(start, start + _BLOCK)
        scores = vectors[rows] @ vectors.T
        scores[owner[rows, None] == owner[None, :]] = -1.0
        top = np.argpartition(-scores, k - 1, axis=1)[:, :k] if k < scores.shape[1] else np.argsort(-scores)
        values = np.take_along_axis(scores, top, axis=1)
        order = np.argsort(-values, axis=1)
        columns[rows] = np.take_along_axis(top, order, axis=1)
        cosines[rows] = np.take_along_axis(values, order, axis=1)
    return columns, cosines


def _local(owner: Owners) -> Owners:
    """Each row's number within its bid."""
    local = np.zeros(len(owner), dtype=np.int64)
    for bid in np.unique(owner):
        where = np.flatnonzero(owner == bid)
        local[where] = np.arange(len(where))
    return local


def neighbour_matches(
    vectors: Vectors, owner: Owners, k: int, min_margin: float
) -> dict[tuple[int, int], list[Match]]:
    """By pair of bids (in order), the unit pairs among each other's ``k`` nearest (either way) whose
    margin is at least ``min_margin``; units are numbered within their bid."""
    if len(owner) < 2:
        return {}
    columns, cosines = _nearest(vectors, owner, max(k, _MARGIN_K))
    usual = cosines[:, :_MARGIN_K].mean(axis=1)
    local = _local(owner)
    found: dict[tuple[int, int], dict[tuple[int, int], tuple[float, float]]] = defaultdict(dict)
    for r, c in zip(*np.nonzero(cosines[:, :k] > 0), strict=True):
        column = int(columns[r, c])
        cosine = float(cosines[r, c])
        margin = cosine / max(float(usual[r] + usual[column]) / 2, 1e-6)
        if margin < min_margin or owner[r] == owner[column]:
            continue
        x, y = (int(r), column) if owner[r] < owner[column] else (column, int(r))
        found[(int(owner[x]), int(owner[y]))][(int(local[x]), int(local[y]))] = (cosine, margin)
    return {
        pair: sorted((x, y, cosine, margin) for (x, y), (cosine, margin) in units.items())
        for pair, units in found.items()
    }
