"""Alignment of runs: several consecutive sentences of one bid matching sentences of the other in order
(or nearly: a rewriter may swap two neighbours) is a rewritten passage; one similar sentence is not.

Runs are taken best first, each unit in one run at most: the best run, then the best among the matches
its units leave, and so on. The best run ending at each match is kept as matches are taken away (only
those after a removed one, and after them only those whose own best run changed, are worked out again),
and each match looks back only at the few cells (unit of A, unit of B) a run may come from: the cost
grows with the matches, not with the matches times the runs or the matches a unit has (a document of
50,000 one-line tables gave a unit of another bid some 100 matches and 14 runs a pair).
"""

from __future__ import annotations

import functools
import heapq
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from bidcheck.semantic.neighbours import Match

__all__ = ["RunRules", "aligned_runs"]

Span = tuple[int, int]


@dataclass(frozen=True)
class RunRules:
    """What makes a run: ``min_units`` matches, each next one at most ``step`` units on in A and within
    ``step`` units of the last in B, no more than ``max_gap`` characters after it on either side, a mean
    margin (see ``neighbours``) of at least ``min_mean`` and a mean cosine of at least ``min_cosine``
    (a section's hand-written paragraphs on one topic stand out among stock prose, but are not as
    close as a rewrite)."""

    min_units: int
    min_mean: float
    min_cosine: float = 0.0
    step: int = 2
    max_gap: int = 120


@functools.cache
def _steps(step: int) -> frozenset[tuple[int, int]]:
    """The moves from one match of a run to the next, in units of A and of B: on in A by up to ``step``
    and on or back in B by up to ``step`` (a rewriter may swap neighbours); or the same unit again on
    one side and the next on the other: two sentences made one (merged), or one split in two (both
    matches then clear ones, see ``_follows``)."""
    return frozenset(
        [(0, 1), (1, 0)] + [(da, db) for da in range(1, step + 1) for db in range(-step, step + 1) if db]
    )


def _follows(p: Match, m: Match, a: Sequence[Span], b: Sequence[Span], rules: RunRules) -> bool:
    """Whether match ``m`` may come right after ``p`` in one run."""
    move = (m[0] - p[0], m[1] - p[1])
    if move not in _steps(rules.step) or (0 in move and min(p[3], m[3]) < rules.min_mean):
        return False  # a sentence merged or split stands out as a run does on average, both parts
    gap_a = max(a[m[0]][0] - a[p[0]][1], 0)
    gap_b = 0 if m[1] == p[1] else _gap(b[p[1]], b[m[1]])
    return gap_a <= rules.max_gap and gap_b <= rules.max_gap


def _gap(p: Span, m: Span) -> int:
    """The characters between two units of one side, whichever comes first."""
    return abs(m[0] - p[1]) if m[0] >= p[0] else abs(p[0] - m[1])


class _Chains:
    """For each match left (sorted), the run ending there with the largest sum of margins: its sum and
    the match before it (-1 for none). A match looks back at the live ones it may follow, latest first,
    and keeps the first that gives the largest sum (so ties go to the nearest one)."""

    def __init__(self, matches: list[Match], a: Sequence[Span], b: Sequence[Span], rules: RunRules) -> None:
        self.matches, self.a, self.b, self.rules = matches, a, b, rules
        self.live = [True] * len(matches)
        self.moves = _steps(rules.step)
        self.total = [m[3] for m in matches]
        self.back = [-1] * len(matches)
        self.cells: dict[tuple[int, int], list[int]] = defaultdict(list)
        for n, m in enumerate(matches):
            self.cells[(m[0], m[1])].append(n)
        for n in range(len(matches)):
            self.total[n], self.back[n] = self._best_end(n)
        self.heap = [(-t, n) for n, t in enumerate(self.total)]  # the best end: largest sum, first match
        heapq.heapify(self.heap)

    def _near(self, n: int, after: bool) -> list[int]:
        """The matches that may come right before match ``n`` (or right after it), by cell."""
        m, sign = self.matches[n], 1 if after else -1
        return [
            p
            for da, db in self.moves
            for p in self.cells.get((m[0] + sign * da, m[1] + sign * db if not da else m[1] + db), ())
        ]

    def _best_end(self, n: int) -> tuple[float, int]:
        """The largest sum of margins of a run that ends at match ``n``, and the match before it there."""
        m = self.matches[n]
        total, back = m[3], -1
        for p in sorted(self._near(n, after=False), reverse=True):
            if (
                self.live[p]
                and self.total[p] + m[3] > total
                and _follows(self.matches[p], m, self.a, self.b, self.rules)
            ):
                total, back = self.total[p] + m[3], p
        return total, back

    def best(self) -> list[int]:
        """The indexes of the run of live matches with the largest sum of margins ([] when none is left)."""
        while self.heap and (
            not self.live[self.heap[0][1]] or -self.heap[0][0] != self.total[self.heap[0][1]]
        ):
            heapq.heappop(self.heap)
        if not self.heap:
            return []
        n, chain = self.heap[0][1], []
        while n >= 0:
            chain.append(n)
            n = self.back[n]
        return chain[::-1]

    def remove(self, gone: set[int]) -> None:
        """Take matches away, and work out again the best run ending at each match it may change."""
        for n in gone:
            self.live[n] = False
        todo = sorted({s for n in gone for s in self._near(n, after=True) if self.live[s]})
        queued = set(todo)
        while todo:
            n = heapq.heappop(todo)
            total, self.back[n] = self._best_end(n)
            if total == self.total[n]:  # what comes after a match depends on its sum alone
                continue
            self.total[n] = total
            heapq.heappush(self.heap, (-total, n))
            for s in self._near(n, after=True):
                if self.live[s] and s not in queued:
                    queued.add(s)
                    heapq.heappush(todo, s)


def _trimmed(chain: list[Match], rules: RunRules) -> list[Match]:
    """The run less the matches at either end that stand out less than a run must on average: a
    passage begins and ends on sentences that are clearly rewritten (a stock sentence next to the
    rewrite is as close to the other bid's stock sentences as to any)."""
    lo, hi = 0, len(chain)
    while lo < hi and chain[lo][3] < rules.min_mean:
        lo += 1
    while hi > lo and chain[hi - 1][3] < rules.min_mean:
        hi -= 1
    return chain[lo:hi]


def _kept(chain: list[Match], rules: RunRules) -> bool:
    """Whether a (trimmed) run is long enough and stands out enough to be a passage."""
    margin, cosine = (sum(m[n] for m in chain) / max(len(chain), 1) for n in (3, 2))
    return len(chain) >= rules.min_units and margin >= rules.min_mean and cosine >= rules.min_cosine


def aligned_runs(
    matches: Sequence[Match], a: Sequence[Span], b: Sequence[Span], rules: RunRules
) -> list[list[Match]]:
    """The runs of a pair's unit matches, best first: each unit is in one run at most. The best run of
    the matches left is taken until it is shorter than ``min_units``; a run is kept when, trimmed, it
    still is a passage (``_kept``), and its units are taken out either way."""
    ordered = sorted(matches)
    chains = _Chains(ordered, a, b, rules)
    by_unit: dict[tuple[int, int], list[int]] = defaultdict(list)  # (side, unit): its matches
    for n, m in enumerate(ordered):
        by_unit[(0, m[0])].append(n)
        by_unit[(1, m[1])].append(n)
    runs = []
    while len(best := chains.best()) >= max(rules.min_units, 1):
        chain = _trimmed([ordered[n] for n in best], rules)
        if _kept(chain, rules):
            runs.append(chain)
        used = {(0, ordered[n][0]) for n in best} | {(1, ordered[n][1]) for n in best}
        chains.remove({p for unit in used for p in by_unit[unit] if chains.live[p]})
    return runs
