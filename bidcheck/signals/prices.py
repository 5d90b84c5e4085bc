"""Prices in a pattern: the total prices of three or more bids in arithmetic progression (equal steps
within ``_STEP``), with a constant ratio between them, or within ``_CLOSE`` of each other — prices set
from one hand, not by bidders pricing apart. Each pattern is section-level (``price_patterns``) and a
strong signal for every two of its members.

Totals are read from each bid's 投标函 or 开标一览表 (``bidcheck.text.prices``); a bid without one takes
no part. A progression is of neighbouring totals (sorted, no other bid's total between its members),
so that chance seldom makes one. The more totals a section has, the likelier chance makes one, so a
pattern must also be one that chance would make in fewer than ``_CHANCE`` of sections of its size: two
neighbouring gaps between random totals are equal within a share ``d`` of the larger with a chance of
about ``d / 2`` (a section of ``n`` totals tries ``n - 2`` of them), and three totals fall within a span
``s`` with a chance of about ``(s / m)² / 2``, ``m`` the mean gap (the median of the other gaps / ln 2,
as for random totals), or as often as the section's other gaps are that small, if more often. Among
twenty totals drawn at random 0.6% of sections show a pattern; among 30 to 200 totals within about 1% of
one price, under 1% (``tests/test_prices.py``; 83–100% before the section's size counted). A
progression with another bid's total inside it is not found.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Sequence

from bidcheck.model import Document, PricePattern, Signal
from bidcheck.prepare import Ready
from bidcheck.signals.base import Linked, SectionInfo

__all__ = ["find", "price_patterns"]

_STEP = 0.001  # equal steps: the two steps differ by at most this share of the step
_CLOSE = 0.0005  # close totals: the largest at most this share above the smallest
_MIN_STEP = 0.0005  # steps smaller than this share of the totals are closeness, not a progression
_CHANCE = 0.002  # a pattern chance would make in more than this share of sections of its size is none


def _yuan(value: float) -> str:
    return f"{value:,.2f} 元"


def _steps_equal(low: float, middle: float, high: float, kind: str, tries: int) -> bool:
    """Whether three totals step equally (``arithmetic``) or by one ratio (``ratio``), the two steps
    within ``_STEP`` of each other, and by more than a hair (``_MIN_STEP``), more equally than chance
    makes any of ``tries`` neighbouring triples in ``_CHANCE`` of sections."""
    if kind == "ratio":
        low, middle, high = math.log(low), math.log(middle), math.log(high)
    first, second = middle - low, high - middle
    big = max(first, second)
    if min(first, second) <= 0 or big < _MIN_STEP * abs(high):
        return False
    unequal = abs(first - second) / big
    return unequal <= _STEP and tries * unequal / 2 <= _CHANCE


def _chains(values: list[float], kind: str) -> list[tuple[int, ...]]:
    """Runs of three or more neighbouring totals (no other bid's total between them) in equal steps."""
    chains: list[list[int]] = []
    for n in range(len(values) - 2):
        if not _steps_equal(values[n], values[n + 1], values[n + 2], kind, len(values) - 2):
            continue
        if chains and chains[-1][-2:] == [n, n + 1]:
            chains[-1].append(n + 2)
        else:
            chains.append([n, n + 1, n + 2])
    return [tuple(c) for c in chains]


def _close(totals: list[tuple[float, str]]) -> list[tuple[int, ...]]:
    """Runs of three or more sorted totals within ``_CLOSE`` of the run's smallest, closer than chance
    puts any such run in ``_CHANCE`` of sections."""
    values = [t for t, _ in totals]
    runs, start = [], 0
    for end in range(1, len(totals) + 1):
        if end == len(totals) or values[end] > values[start] * (1 + _CLOSE):
            if end - start >= 3 and _closer_than_chance(values, start, end):
                runs.append(tuple(range(start, end)))
            start = end
    return runs


def _closer_than_chance(values: list[float], start: int, end: int) -> bool:
    """Whether the run ``values[start:end]`` (sorted totals) is closer than chance would put a run of
    as many among the section's totals in ``_CHANCE`` of sections: by the mean gap of random totals (from
    the gaps outside the run), and by how often those gaps are as small as the run's largest."""
    gaps = [b - a for a, b in itertools.pairwise(values)]
    own = gaps[start : end - 1]
    others = gaps[:start] + gaps[end - 1 :]
    steps, tries = end - start - 1, len(values) - (end - start) + 1
    mean_gap = statistics.median(others) / math.log(2) if any(others) else 0.0
    by_spread = (values[end - 1] - values[start]) / mean_gap if mean_gap else 0.0
    by_gaps = sum(g <= max(own) for g in others) / len(gaps)
    chance = max(by_spread**steps / math.factorial(steps), by_gaps**steps)
    return tries * chance <= _CHANCE


def price_patterns(bids: Sequence[Document]) -> tuple[PricePattern, ...]:
    """The section's price patterns among the bids whose total price was read."""
    totals = sorted((d.price.total, d.id) for d in bids if d.price is not None)
    out = []
    for kind, word in (("arithmetic", "等差"), ("ratio", "等比")):
        for chain in _chains([t for t, _ in totals], kind):
            members = [totals[n] for n in chain]
            figures = "、".join(_yuan(t) for t, _ in members)
            detail = f"{len(members)} 家投标总价成{word}数列：{figures}"
            out.append(PricePattern(kind, tuple(d for _, d in members), detail))
    for run in _close(totals):
        members = [totals[n] for n in run]
        detail = f"{len(members)} 家投标总价相差不到 {_CLOSE:.2%}：" + "、".join(_yuan(t) for t, _ in members)
        out.append(PricePattern("close", tuple(d for _, d in members), detail))
    return tuple(out)


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked]:
    """A strong signal for every two members of a price pattern (in the bids' order)."""
    order = {b.doc.id: n for n, b in enumerate(bids)}
    by_id = {b.doc.id: b.doc for b in bids}
    out = []
    for pattern in price_patterns([b.doc for b in bids]):
        for a, b in itertools.combinations(sorted(pattern.members, key=order.__getitem__), 2):
            prices = (by_id[a].price, by_id[b].price)
            value = " / ".join(_yuan(p.total) for p in prices if p is not None)
            out.append(Linked(a, b, Signal("price", "strong", pattern.kind, value, pattern.detail)))
    return out
