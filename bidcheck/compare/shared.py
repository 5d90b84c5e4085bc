"""Passages of masked text (tender text, text most bids hold) that two bids share.

Such text is no evidence, so it is not aligned sentence by sentence: the passages are built from the
exact runs of equal k-grams inside the masked text of both sides, which is cheap enough for every pair
of a large section. They are listed, greyed, beside the evidence.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import distinct
from bidcheck.compare.inputs import AlignInput
from bidcheck.compare.passage import RawPassage, agreement_passes_all, passes
from bidcheck.config import Settings
from bidcheck.progress import CancelFlag, check_cancel

__all__ = ["all_masked_passages", "masked_passages"]


Runs = tuple[npt.NDArray[np.int64], ...]
Indexes = npt.NDArray[np.int64]
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


def _kept_runs(runs: Runs, first: Indexes, end: Indexes) -> tuple[Indexes, Indexes]:
    """The runs the claim-once rule keeps on A's side alone in every group ``first[g]..end[g]`` at once,
    as (group, run) by group, then run: a group's next kept run is the first of it to begin where the
    last kept one ends. A bid pair's runs come by the other bid, then rising in A, so one search over
    all runs (keyed by both) finds the next kept run of every group."""
    other, a0, a1 = runs[0], runs[1], runs[2]
    reach = int(a1.max()) + 1
    key = other * reach + a0
    group, run = np.arange(len(first), dtype=np.int64), first
    groups, found = [group], [run]
    while len(run):
        after = np.searchsorted(key, other[run] * reach + a1[run])
        inside = after < end[group]
        group, run = group[inside], after[inside]
        groups.append(group)
        found.append(run)
    group, run = np.concatenate(groups), np.concatenate(found)
    order = np.argsort(group, kind="stable")  # each round's runs lie after the round before's
    return group[order], run[order]


def _group_passages(runs: Runs, first: Indexes, end: Indexes, settings: Settings) -> list[RawPassage | None]:
    """The passage of each group of runs ``first[g]..end[g]`` when it passes (see ``_passage``). When the
    runs A's side keeps follow each other apart on B's side too, B's side drops none of them (the first
    it would drop is one of them), so the rule needs no B bookkeeping, and such groups are measured all
    at once; the others are built run by run. (A run of equal k-grams is at least k characters long on
    both sides; an empty one could claim nothing.)"""
    _, a0, a1, b0, b1 = runs
    group, run = _kept_runs(runs, first, end)
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])  # every group keeps its first run
    lasts = np.r_[starts[1:], len(run)] - 1
    crossing = (group[1:] == group[:-1]) & (b1[run[:-1]] > b0[run[1:]])
    tangled = np.zeros(len(first), dtype=bool)
    tangled[group[1:][crossing]] = True
    span_a = (a0[run[starts]], a1[run[lasts]])
    span_b = (b0[run[starts]], b1[run[lasts]])
    matched = np.add.reduceat(a1[run] - a0[run], starts)
    size_a, size_b = span_a[1] - span_a[0], span_b[1] - span_b[0]
    passing = agreement_passes_all(np.minimum(size_a, size_b), 2 * matched / (size_a + size_b), settings)
    marks = _marks(runs, run)
    bounds = np.r_[starts, len(run)].tolist()
    figures = zip(*(x.tolist() for x in (*span_a, *span_b, matched)), strict=True)
    out: list[RawPassage | None] = []
    for g, (a_0, a_1, b_0, b_1, chars) in enumerate(figures):
        if tangled[g]:
            out.append(_tangled_passage(runs, int(first[g]), int(end[g]), settings))
        elif passing[g]:
            out.append(RawPassage((a_0, a_1), (b_0, b_1), chars, tuple(marks[bounds[g] : bounds[g + 1]])))
        else:
            out.append(None)
    return out


def _marks(runs: Runs, picked: Indexes) -> list[Mark]:
    """The runs ``picked`` as marks ((a0, a1), (b0, b1)), made in bulk."""
    a0, a1, b0, b1 = (r[picked].tolist() for r in runs[1:])
    return list(zip(zip(a0, a1, strict=True), zip(b0, b1, strict=True), strict=True))


def _tangled_passage(runs: Runs, first: int, end: int, settings: Settings) -> RawPassage | None:
    """The passage of runs ``first..end`` built run by run (``_passage``), when it passes."""
    found = _passage(_marks(runs, np.arange(first, end)))
    return found if passes(found, settings) else None


def _group_passage(runs: list[list[int]], first: int, end: int, settings: Settings) -> RawPassage | None:
    """The passage of runs ``first..end`` when it passes (``_group_passages`` of one group)."""
    arrays = tuple(np.asarray(r, dtype=np.int64) for r in runs)
    return _group_passages(arrays, np.asarray([first]), np.asarray([end]), settings)[0]


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
    out: dict[int, list[RawPassage]] = {}
    others = runs[0][first].tolist()
    for other, found in zip(others, _group_passages(runs, first, end, settings), strict=True):
        if found is not None:
            out.setdefault(other, []).append(found)
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
