"""Prices in a pattern: the total prices of three or more bids in arithmetic progression (equal steps
within ``_STEP``), with a constant ratio between them, or within ``_CLOSE`` of each other — prices set
from one hand, not by bidders pricing apart. Each pattern is section-level (``price_patterns``) and a
strong signal for every two of its members.

Totals are read from each bid's 投标函 or 开标一览表 (``bidcheck.text.prices``); a bid without one takes
no part. A progression is of neighbouring totals (sorted, no other bid's total between its members),
so that chance seldom makes one: among twenty totals drawn at random, 2% of sections show a pattern
(``tests/test_prices.py``). A progression with another bid's total inside it is not found.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from bidcheck.model import Document, PricePattern, Signal
from bidcheck.prepare import Ready
from bidcheck.signals.base import Linked, SectionInfo

__all__ = ["find", "price_patterns"]

_STEP = 0.001  # equal steps: the two steps differ by at most this share of the step
_CLOSE = 0.0005  # close totals: the largest at most this share above the smallest
_MIN_STEP = 0.0005  # steps smaller than this share of the totals are closeness, not a progression


def _yuan(value: float) -> str:
    return f"{value:,.2f} 元"


def _steps_equal(low: float, middle: float, high: float, kind: str) -> bool:
    """Whether three totals step equally (``arithmetic``) or by one ratio (``ratio``), the two steps
    within ``_STEP`` of each other, and by more than a hair (``_MIN_STEP``)."""
    if kind == "ratio":
        low, middle, high = math.log(low), math.log(middle), math.log(high)
    first, second = middle - low, high - middle
    big = max(first, second)
    return min(first, second) > 0 and abs(first - second) <= _STEP * big and big >= _MIN_STEP * abs(high)


def _chains(values: list[float], kind: str) -> list[tuple[int, ...]]:
    """Runs of three or more neighbouring totals (no other bid's total between them) in equal steps."""
    chains: list[list[int]] = []
    for n in range(len(values) - 2):
        if not _steps_equal(values[n], values[n + 1], values[n + 2], kind):
            continue
        if chains and chains[-1][-2:] == [n, n + 1]:
            chains[-1].append(n + 2)
        else:
            chains.append([n, n + 1, n + 2])
    return [tuple(c) for c in chains]


def _close(totals: list[tuple[float, str]]) -> list[tuple[int, ...]]:
    """Runs of three or more sorted totals within ``_CLOSE`` of the run's smallest."""
    runs, start = [], 0
    for end in range(1, len(totals) + 1):
        if end == len(totals) or totals[end][0] > totals[start][0] * (1 + _CLOSE):
            if end - start >= 3:
                runs.append(tuple(range(start, end)))
            start = end
    return runs


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
