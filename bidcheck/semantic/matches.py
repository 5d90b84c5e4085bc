"""The shortlist's matches by characters: for each pair of bids, each unit's closest unit in the other bid
(both ways), kept where another such match follows or precedes it as in a run.

Of the 100-bid section's 4,950 pairs and their 2.3 million matches, 4,064 are so kept: the work is
nearly all in telling the rest apart, so it is done for all the pairs of one bid at once (their tables
end to end), not pair by pair (0.7 s of numpy calls on small arrays, a table of the pair's units
marked for each).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from bidcheck.compare.passage import RawPassage
from bidcheck.semantic.neighbours import Match
from bidcheck.semantic.units import Units

__all__ = ["Closest", "linked_matches"]

Vectors = npt.NDArray[np.float32]
Rows = npt.NDArray[np.int64]
Pair = tuple[int, int]
Closest = dict[Pair, tuple[Rows, Vectors]]  # (x, y): for each unit of x, y's closest (cosine 0: none)
_FAR = -(1 << 40)  # a unit no unit lies within reach of


def linked_matches(
    closest: Closest,
    usual: Sequence[Vectors],
    units: Sequence[Units],
    copied: Mapping[Pair, Sequence[RawPassage]],
    pairs: Iterable[Pair],
    step: int,
) -> dict[Pair, list[Match]]:
    """For each of the pairs (x, y), x < y: each unit's closest unit in the other bid, both ways, at a
    cosine above 0, with its cosine and its margin (the cosine over the two units' usual closeness, as
    ``neighbours`` scores sentence vectors), outside the pair's copied passages, and only those that
    another such match follows or precedes within ``step`` units on both sides (on in A, either way in B:
    a rewriter may swap neighbours); sorted, each once. Pairs with none are left out."""
    later: dict[int, list[int]] = defaultdict(list)
    for x, y in pairs:
        later[x].append(y)
    found: dict[Pair, list[Match]] = {}
    for x, ys in later.items():
        found.update(_first_bid_matches(closest, (usual, units, copied), x, ys, step))
    return found


def _first_bid_matches(
    closest: Closest,
    section: tuple[Sequence[Vectors], Sequence[Units], Mapping[Pair, Sequence[RawPassage]]],
    x: int,
    ys: list[int],
    step: int,
) -> dict[Pair, list[Match]]:
    """``linked_matches`` for the pairs (x, y) of the ``ys``: x's tables for them end to end, and theirs
    for x, each padded with ``step`` empty units either side (``_Side``)."""
    usual, units, copied = section
    forward = _Side([closest[(x, y)] for y in ys], step)
    backward = _Side([closest[(y, x)] for y in ys], step)
    own_usual = usual[x]
    their_usual = _padded([usual[y] for y in ys], step, 0.0)
    # forward: unit a of x, its closest b in y; backward: unit b of y, its closest a in x
    pair = np.concatenate([forward.pair, backward.pair])
    a = np.concatenate([forward.unit, backward.best])
    b = np.concatenate([forward.best, backward.unit])
    score = np.concatenate([forward.score, backward.score])
    margin = score / ((own_usual[a] + their_usual[backward.start[pair] + b]) / 2)
    keep = np.ones(len(pair), dtype=bool)
    for n, y in enumerate(ys):
        if copied.get((x, y)):
            inside = np.flatnonzero(pair == n)
            keep[inside] = _outside_copies(units[x], units[y], a[inside], b[inside], copied[(x, y)])
    forward.count(keep[: len(forward.pair)])
    backward.count(keep[len(forward.pair) :])
    keep &= forward.linked(pair, a, b, step) | backward.linked(pair, b, a, step)
    found: dict[Pair, list[Match]] = {}
    kept = (pair[keep], a[keep], b[keep], score[keep], margin[keep])
    for n, *match in zip(*(column.tolist() for column in kept), strict=True):
        found.setdefault((x, ys[n]), []).append((match[0], match[1], match[2], match[3]))
    return {p: sorted(set(m)) for p, m in found.items()}


class _Side:
    """One side's tables of a bid's pairs laid end to end, each padded with ``step`` empty units either
    side: each unit's closest unit on the other side (``_FAR`` in the padding) and its cosine, and
    which of them are matches that count (set by ``count``)."""

    def __init__(self, tables: list[tuple[Rows, Vectors]], step: int) -> None:
        sizes = np.asarray([len(best) for best, _ in tables], dtype=np.int64)
        self.start = np.cumsum(np.concatenate([[0], sizes[:-1] + 2 * step])) + step
        self.best_at = _padded([best for best, _ in tables], step, _FAR)
        score_at = _padded([score for _, score in tables], step, 0.0)
        at = np.flatnonzero(score_at > 0)
        self.pair = np.searchsorted(self.start, at, side="right") - 1
        self.unit = at - self.start[self.pair]
        self.best, self.score = self.best_at[at], score_at[at]
        self.at = at
        self.counted = np.zeros(len(score_at), dtype=bool)

    def count(self, kept: npt.NDArray[np.bool_]) -> None:
        """Which of the side's matches count (outside the pair's copied passages)."""
        self.counted[self.at[kept]] = True

    def linked(self, pair: Rows, unit: Rows, other: Rows, step: int) -> npt.NDArray[np.bool_]:
        """For each match (``unit`` on this side, ``other`` on the other), whether a match of this side
        that counts lies 1 to ``step`` units from ``unit`` and its closest unit 1 to ``step`` units from
        ``other``."""
        near = np.zeros(len(pair), dtype=bool)
        place = self.start[pair] + unit
        for move in (m for m in range(-step, step + 1) if m):
            apart = np.abs(self.best_at[place + move] - other)
            near |= self.counted[place + move] & (apart >= 1) & (apart <= step)
        return near


def _padded(arrays: list[npt.NDArray[Any]], step: int, fill: float) -> npt.NDArray[Any]:
    """The arrays end to end, ``step`` cells of ``fill`` either side of each (one ``concatenate``:
    ``np.pad`` of each took 20 µs, half the time of the section's 4,950 pairs)."""
    gap = np.full(step, fill, dtype=arrays[0].dtype)
    return np.concatenate([part for array in arrays for part in (gap, array, gap)])


def _outside_copies(
    a_units: Units, b_units: Units, a: Rows, b: Rows, copied: Sequence[RawPassage]
) -> npt.NDArray[np.bool_]:
    """Which matches (a, b) lie in none of the pair's copied passages (compared already) on either side."""
    return ~_in_spans(a_units, a, [p.a for p in copied]) & ~_in_spans(b_units, b, [p.b for p in copied])


def _in_spans(units: Units, indexes: Rows, spans: Sequence[tuple[int, int]]) -> npt.NDArray[np.bool_]:
    """Which of the units at ``indexes`` lie (partly) in the given spans."""
    inside = np.zeros(len(indexes), dtype=bool)
    if not spans or not len(indexes):
        return inside
    bounds = np.asarray(units.spans, dtype=np.int64)[indexes]
    passages = np.asarray(spans, dtype=np.int64)
    for lo, hi in passages:  # a pair's passages are few; its matched units many
        inside |= (bounds[:, 0] < hi) & (lo < bounds[:, 1])
    return inside
