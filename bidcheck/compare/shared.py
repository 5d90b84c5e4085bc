"""Passages of masked text (tender text, text most bids hold) that two bids share.

Such text is no evidence, so it is not aligned sentence by sentence: the passages are built from the
exact runs of equal k-grams inside the masked text of both sides, which is cheap enough for every pair
of a large section. They are listed, greyed, beside the evidence.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import distinct
from bidcheck.compare.inputs import AlignInput
from bidcheck.compare.passage import RawPassage, agreement_passes, passes
from bidcheck.config import Settings
from bidcheck.progress import CancelFlag, check_cancel

__all__ = ["all_masked_passages", "masked_passages"]


Runs = tuple[npt.NDArray[np.int64], ...]
Mark = tuple[tuple[int, int], tuple[int, int]]


class _Positions:
    """Where each bid holds each masked k-gram: one row per bid, one column per distinct hash of the
    k-grams some bid's masked text holds once (-1: not held once). Such k-grams pair up across two bids
    one to one, so the runs two bids share are read out of two rows."""

    def __init__(self, inputs: Sequence[AlignInput], k: int) -> None:
        held = [x.masked_in_order for x in inputs]
        self.vocabulary = distinct(np.concatenate([h for h, _ in held])) if held else np.zeros(0, np.uint64)
        self.ids = [np.searchsorted(self.vocabulary, h) for h, _ in held]
        self.positions = [pos for _, pos in held]
        self.table = np.full((len(inputs), len(self.vocabulary)), -1, dtype=np.int32)
        for row, (ids, pos) in enumerate(zip(self.ids, self.positions, strict=True)):
            self.table[row, ids] = pos

    def runs_after(self, i: int, k: int, rows: npt.NDArray[np.int64] | None = None) -> Runs:
        """(other bid, a0, a1, b0, b1) of every exact run bid ``i`` shares with each later bid (those of
        ``rows``, ascending, when given), ordered by bid, then by position in ``i``: characters ``a0..a1``
        of ``i`` equal ``b0..b1`` of the other."""
        if rows is None:
            rows = np.arange(i + 1, len(self.table), dtype=np.int64)
            partner = self.table[i + 1 :, self.ids[i]]
        else:
            partner = self.table[np.ix_(rows, self.ids[i])]
        pa = self.positions[i]
        held = partner >= 0
        cont = np.zeros_like(held)
        cont[:, 1:] = held[:, 1:] & held[:, :-1] & (partner[:, 1:] == partner[:, :-1] + 1)
        cont[:, 1:] &= (pa[1:] == pa[:-1] + 1)[None, :]
        ends = held.copy()
        ends[:, :-1] &= ~cont[:, 1:]
        other, first = np.nonzero(held & ~cont)
        _, last = np.nonzero(ends)
        b0, b1 = partner[other, first].astype(np.int64), partner[other, last].astype(np.int64) + k
        return rows[other], pa[first], pa[last] + k, b0, b1


def _groups(runs: Runs, gap: int, min_chars: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Runs of one bid pair that continue each other on both sides (within ``gap`` characters), as
    ``(first, end)`` indices, where both sides span at least ``min_chars`` (no passage of those runs can
    be longer)."""
    other, a0, a1, b0, b1 = runs
    joined = (other[1:] == other[:-1]) & (a0[1:] <= a1[:-1] + gap) & (np.abs(b0[1:] - b1[:-1]) <= gap)
    first = np.r_[0, np.flatnonzero(~joined) + 1]
    end = np.r_[first[1:], len(a0)]
    span_b = np.maximum.reduceat(b1, first) - np.minimum.reduceat(b0, first)
    long = (a1[end - 1] - a0[first] >= min_chars) & (span_b >= min_chars)
    return first[long], end[long]


def _first_claims(marks: list[Mark]) -> list[Mark]:
    """The marks (in A's order) less any whose A or B characters an earlier kept one holds: the rule of
    ``passage_from_marks``, where A's check is one comparison because the marks come in A's order."""
    kept: list[Mark] = []
    reach = -1
    starts: list[int] = []  # kept B spans, sorted
    ends: list[int] = []
    for mark in marks:
        (a0, a1), (b0, b1) = mark
        if a0 < reach:
            continue
        at = bisect.bisect_right(starts, b0)
        if (at and ends[at - 1] > b0) or (at < len(starts) and starts[at] < b1):
            continue
        starts.insert(at, b0)
        ends.insert(at, b1)
        kept.append(mark)
        reach = a1
    return kept


def _passage(marks: list[Mark]) -> RawPassage:
    """The passage of runs in A's order, each character claimed once (see ``passage_from_marks``)."""
    kept = _first_claims(marks)
    span_b = (min(b[0] for _, b in kept), max(b[1] for _, b in kept))
    return RawPassage((kept[0][0][0], kept[-1][0][1]), span_b, sum(a[1] - a[0] for a, _ in kept), tuple(kept))


def _kept_by_a(a0: list[int], a1: list[int], first: int, end: int) -> list[int]:
    """The runs ``first..end`` (in A's order: starts rising) the claim-once rule keeps on A's side
    alone: each the first to begin where the last kept one ends."""
    kept = [first]
    while (at := bisect.bisect_left(a0, a1[kept[-1]], kept[-1] + 1, end)) < end:
        kept.append(at)
    return kept


def _group_passage(runs: list[list[int]], first: int, end: int, settings: Settings) -> RawPassage | None:
    """The passage of runs ``first..end`` when it passes (see ``_passage``). When the runs A's side
    keeps follow each other apart on B's side too, B's side drops none of them (the first it would drop
    is one of them), so the rule needs no B bookkeeping and a failing passage is never built. (A run of
    equal k-grams is at least k characters long on both sides; an empty one could claim nothing.)"""
    _, a0, a1, b0, b1 = runs
    kept = _kept_by_a(a0, a1, first, end)
    pick = _picker(kept)
    a0k, a1k, b0k, b1k = pick(a0), pick(a1), pick(b0), pick(b1)
    if any(end_b > start_b for end_b, start_b in zip(b1k, b0k[1:], strict=False)):
        found = _passage([((a0[x], a1[x]), (b0[x], b1[x])) for x in range(first, end)])
        return found if passes(found, settings) else None
    span_a, span_b = (a0k[0], a1k[-1]), (b0k[0], b1k[-1])
    matched = sum(a1k) - sum(a0k)
    size_a, size_b = span_a[1] - span_a[0], span_b[1] - span_b[0]
    if not agreement_passes(min(size_a, size_b), 2 * matched / (size_a + size_b), settings):
        return None
    marks = tuple(zip(zip(a0k, a1k, strict=True), zip(b0k, b1k, strict=True), strict=True))
    return RawPassage(span_a, span_b, matched, marks)


def _picker(indices: list[int]) -> Callable[[list[int]], tuple[int, ...]]:
    """The values at ``indices`` of a list, as a tuple (``itemgetter``, which returns a single value
    bare)."""
    get = operator.itemgetter(*indices)
    return get if len(indices) > 1 else lambda values: (get(values),)


def _passages_after(
    positions: _Positions, i: int, settings: Settings, rows: npt.NDArray[np.int64] | None = None
) -> dict[int, list[RawPassage]]:
    k = settings.seed_chars
    runs = positions.runs_after(i, k, rows)
    if not len(runs[0]):
        return {}
    first, end = _groups(runs, settings.max_gap_chars, settings.min_passage_chars)
    if not len(first):
        return {}
    listed = [r.tolist() for r in runs]
    out: dict[int, list[RawPassage]] = {}
    for f, e in zip(first.tolist(), end.tolist(), strict=True):
        found = _group_passage(listed, f, e, settings)
        if found is not None:
            out.setdefault(listed[0][f], []).append(found)
    return out


def all_masked_passages(
    inputs: Sequence[AlignInput],
    settings: Settings,
    cancel: CancelFlag | None = None,
    wanted: Mapping[int, Sequence[int]] | None = None,
) -> dict[tuple[int, int], list[RawPassage]]:
    """The passages of masked text every pair of bids ``(i, j)``, ``i < j``, shares (pairs sharing none
    are left out), from exact runs of equal k-grams; with ``wanted``, only the pairs of each ``i`` with
    the later bids ``wanted[i]`` (a pair's passages depend on nothing but its two bids)."""
    positions = _Positions(inputs, settings.seed_chars)
    out: dict[tuple[int, int], list[RawPassage]] = {}
    for i in range(len(inputs)) if wanted is None else sorted(wanted):
        check_cancel(cancel)
        rows = None if wanted is None else np.asarray(sorted(wanted[i]), dtype=np.int64)
        if rows is not None and not len(rows):
            continue
        out.update(((i, j), found) for j, found in _passages_after(positions, i, settings, rows).items())
    return out


def masked_passages(a: AlignInput, b: AlignInput, settings: Settings) -> list[RawPassage]:
    """The passages of masked text that A and B share (see ``all_masked_passages``)."""
    return all_masked_passages([a, b], settings).get((0, 1), [])
