"""Alignment of runs: several consecutive sentences of one bid matching sentences of the other in order
(or nearly: a rewriter may swap two neighbours) is a rewritten passage; one similar sentence is not."""

from __future__ import annotations

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


def _follows(p: Match, m: Match, a: Sequence[Span], b: Sequence[Span], rules: RunRules) -> bool:
    """Whether match ``m`` may come right after ``p`` in one run."""
    if not 0 < m[0] - p[0] <= rules.step or not 0 < abs(m[1] - p[1]) <= rules.step:
        return False
    gap_a = a[m[0]][0] - a[p[0]][1]
    gap_b = abs(b[m[1]][0] - b[p[1]][1]) if m[1] > p[1] else abs(b[p[1]][0] - b[m[1]][1])
    return gap_a <= rules.max_gap and gap_b <= rules.max_gap


def _best_chain(matches: list[Match], a: Sequence[Span], b: Sequence[Span], rules: RunRules) -> list[int]:
    """The indexes of the run of matches with the largest sum of margins (matches sorted by A's unit)."""
    total = [m[3] for m in matches]
    back = [-1] * len(matches)
    for n, m in enumerate(matches):
        for p in range(n - 1, -1, -1):
            if m[0] - matches[p][0] > rules.step:
                break
            if _follows(matches[p], m, a, b, rules) and total[p] + m[3] > total[n]:
                total[n], back[n] = total[p] + m[3], p
    if not matches:
        return []
    n = max(range(len(matches)), key=lambda x: total[x])
    chain = []
    while n >= 0:
        chain.append(n)
        n = back[n]
    return chain[::-1]


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


def aligned_runs(
    matches: Sequence[Match], a: Sequence[Span], b: Sequence[Span], rules: RunRules
) -> list[list[Match]]:
    """The runs of a pair's unit matches, best first: each unit is in one run at most."""
    left = sorted(matches)
    runs = []
    while left:
        best = [left[n] for n in _best_chain(left, a, b, rules)]
        if len(best) < rules.min_units:
            break
        chain = _trimmed(best, rules)
        margin, cosine = (sum(m[n] for m in chain) / max(len(chain), 1) for n in (3, 2))
        if len(chain) >= rules.min_units and margin >= rules.min_mean and cosine >= rules.min_cosine:
            runs.append(chain)
        used_a, used_b = {m[0] for m in best}, {m[1] for m in best}
        left = [m for m in left if m[0] not in used_a and m[1] not in used_b]
    return runs
