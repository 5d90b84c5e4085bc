"""Prices in a pattern: the total prices of three or more bids in arithmetic progression (equal steps
within ``_STEP``), with a constant ratio between them, or within ``_CLOSE`` of each other — prices set
from one hand, not by bidders pricing apart. Each pattern is section-level (``price_patterns``) and a
signal for every two of its members: strong (proof) where chance would make it in fewer than ``_PROOF``
of sections of its size, else supporting (a lead: a coincidence of one section in a thousand is worth
examining, not a warning on its own); the detail says the odds.

Totals are read from each bid's 投标函 or 开标一览表 (``bidcheck.text.prices``); a bid without one takes
no part. A progression is of neighbouring totals (sorted, no other bid's total between its members),
so that chance seldom makes one. The more totals a section has, the likelier chance makes one, so a
pattern must also be one that chance would make in fewer than ``_CHANCE`` of sections of its size: two
neighbouring gaps between random totals are equal within a share ``d`` of the larger with a chance of
about ``d / 2``, where ``d`` is at least the totals' rounding over the step (three totals in whole
万 yuan step equally far more often than three priced to the yuan: 4,770,000 / 4,800,000 / 4,830,000
among forty round totals is chance); a run of ``k`` totals takes ``k - 2`` such coincidences, and a
section of ``n`` totals tries ``n - 2`` runs. A progression chance would make in up to ``_LEAD`` of
sections, its steps exactly equal (round totals), is a supporting sign (a lead); the detail says the
odds. Three totals fall within a span
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
from typing import NamedTuple

from bidcheck.model import Document, Place, PricePattern, Signal, Strength
from bidcheck.ready import Ready
from bidcheck.signals.base import Linked, SectionInfo, place_of

__all__ = ["find", "price_patterns"]

_STEP = 0.001  # equal steps: the two steps differ by at most this share of the step
_CLOSE = 0.0005  # close totals: the largest at most this share above the smallest
_MIN_STEP = 0.0005  # steps smaller than this share of the totals are closeness, not a progression
_CHANCE = 0.002  # a pattern chance would make in more than this share of sections of its size is no sign
_PROOF = 0.0001  # ... in more than this share a lead (supporting), in fewer proof (strong)
_LEAD = 0.1  # exact steps of round totals: a lead up to this share


def _yuan(value: float) -> str:
    return f"{value:,.2f} 元"


def _rounding(values: Sequence[float]) -> float:
    """The coarsest power of ten, in yuan (from the fen to a million), that every one of ``values`` is a
    whole multiple of: how finely the totals were priced."""
    fen = [round(v * 100) for v in values]
    unit = 1
    while unit < 10**8 and all(f % (unit * 10) == 0 for f in fen):
        unit *= 10
    return unit / 100


class _Step(NamedTuple):
    chance: float  # how likely chance makes three neighbouring totals step so equally
    exact: bool  # the steps are equal to the totals' rounding: only the rounding makes chance likely


def _step_chance(low: float, middle: float, high: float, kind: str) -> _Step | None:
    """How likely chance makes three neighbouring totals step this equally (``arithmetic``) or by this
    one ratio (``ratio``): half the steps' difference over the larger, or the totals' rounding over it
    if more; ``None`` where the steps differ by more than ``_STEP`` or are a hair (``_MIN_STEP``)."""
    rounding = _rounding((low, middle, high)) / max(middle - low, high - middle, 1.0)
    if kind == "ratio":
        low, middle, high = math.log(low), math.log(middle), math.log(high)
    first, second = middle - low, high - middle
    big = max(first, second)
    if min(first, second) <= 0 or big < _MIN_STEP * abs(high):
        return None
    unequal = abs(first - second) / big
    return None if unequal > _STEP else _Step(max(unequal, rounding) / 2, unequal <= rounding)


def _chains(values: list[float], kind: str) -> list[tuple[tuple[int, ...], float]]:
    """Runs of three or more neighbouring totals (no other bid's total between them) in equal steps,
    each with the chance that a section of as many random totals holds such a run (see the module):
    those under ``_CHANCE``, and those under ``_LEAD`` whose steps are exactly equal (round totals)."""
    chains: list[tuple[list[int], _Step]] = []
    for n in range(len(values) - 2):
        step = _step_chance(values[n], values[n + 1], values[n + 2], kind)
        if step is None:
            continue
        if chains and chains[-1][0][-2:] == [n, n + 1]:
            run, before = chains[-1]
            chains[-1] = ([*run, n + 2], _Step(before.chance * step.chance, before.exact and step.exact))
        else:
            chains.append(([n, n + 1, n + 2], step))
    tries = len(values) - 2
    return [
        (tuple(run), tries * step.chance)
        for run, step in chains
        if tries * step.chance <= (_LEAD if step.exact else _CHANCE)
    ]


def _close(totals: list[tuple[float, str]]) -> list[tuple[tuple[int, ...], float]]:
    """Runs of three or more sorted totals within ``_CLOSE`` of the run's smallest, closer than chance
    puts any such run in ``_CHANCE`` of sections, each with that chance."""
    values = [t for t, _ in totals]
    runs, start = [], 0
    for end in range(1, len(totals) + 1):
        if end == len(totals) or values[end] > values[start] * (1 + _CLOSE):
            chance = _close_chance(values, start, end) if end - start >= 3 else 1.0
            if chance <= _CHANCE:
                runs.append((tuple(range(start, end)), chance))
            start = end
    return runs


def _close_chance(values: list[float], start: int, end: int) -> float:
    """How likely chance puts a run of as many totals as close as ``values[start:end]`` (sorted) among
    the section's: by the mean gap of random totals (from the gaps outside the run), and by how often
    those gaps are as small as the run's largest."""
    gaps = [b - a for a, b in itertools.pairwise(values)]
    own = gaps[start : end - 1]
    others = gaps[:start] + gaps[end - 1 :]
    steps, tries = end - start - 1, len(values) - (end - start) + 1
    mean_gap = statistics.median(others) / math.log(2) if any(others) else 0.0
    by_spread = (values[end - 1] - values[start]) / mean_gap if mean_gap else 0.0
    by_gaps = sum(g <= max(own) for g in others) / len(gaps)
    return tries * max(by_spread**steps / math.factorial(steps), by_gaps**steps)


def _odds(chance: float, totals: int) -> str:
    """The chance of a pattern among as many totals priced apart, as the panel reads it."""
    if chance < 1e-6:
        return f"{totals} 家各自报价时偶然出现的可能不到百万分之一"
    figure = float(f"{1 / chance:.2g}")
    return f"{totals} 家各自报价时偶然出现的可能约为 1/{figure:,.0f}"


def price_patterns(bids: Sequence[Document]) -> tuple[PricePattern, ...]:
    """The section's price patterns among the bids whose total price was read."""
    totals = sorted((d.price.total, d.id) for d in bids if d.price is not None)
    out = []
    for kind, word in (("arithmetic", "等差"), ("ratio", "等比")):
        for chain, chance in _chains([t for t, _ in totals], kind):
            members = [totals[n] for n in chain]
            figures = "、".join(_yuan(t) for t, _ in members)
            detail = f"{len(members)} 家投标总价成{word}数列：{figures}（{_odds(chance, len(totals))}）"
            out.append(PricePattern(kind, tuple(d for _, d in members), detail, _strength(chance)))
    for run, chance in _close(totals):
        members = [totals[n] for n in run]
        figures = "、".join(_yuan(t) for t, _ in members)
        detail = f"{len(members)} 家投标总价相差不到 {_CLOSE:.2%}：{figures}（{_odds(chance, len(totals))}）"
        out.append(PricePattern("close", tuple(d for _, d in members), detail, _strength(chance)))
    return tuple(out)


def _strength(chance: float) -> Strength:
    """Proof where chance makes such a pattern in fewer than ``_PROOF`` of sections of its size, else a
    lead: a coincidence of one section in a thousand is worth examining, not a warning on its own."""
    return "strong" if chance <= _PROOF else "supporting"


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked]:
    """A signal for every two members of a price pattern (in the bids' order), as strong as it, placed
    where each total stands."""
    order = {b.doc.id: n for n, b in enumerate(bids)}
    by_id = {b.doc.id: b for b in bids}
    out = []
    for pattern in price_patterns([b.doc for b in bids]):
        for a, b in itertools.combinations(sorted(pattern.members, key=order.__getitem__), 2):
            prices = (by_id[a].doc.price, by_id[b].doc.price)
            value = " / ".join(_yuan(p.total) for p in prices if p is not None)
            where = _place(by_id[a]), _place(by_id[b])
            signal = Signal("price", pattern.strength, pattern.kind, value, pattern.detail, *where)
            out.append(Linked(a, b, signal))
    return out


def _place(bid: Ready) -> Place | None:
    """Where a bid's total stands (its 投标函 or 开标一览表): the paragraph's page, number and wording, as
    the app finds it in the text; the total alone where that paragraph is not in the clean text."""
    price, clean = bid.doc.price, bid.clean
    if price is None:
        return None
    for start, page, paragraph in zip(
        clean.block_starts, clean.block_pages, clean.block_paragraphs, strict=True
    ):
        if (page, paragraph) == (price.page, price.paragraph):
            return place_of(clean, start, start)
    return Place(0, 0, f"投标总价 {_yuan(price.total)}")  # no place in the text: said, not linked
