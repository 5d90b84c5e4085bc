"""The shapes two priced bills take against each other and against the control prices: one derived
from the other, a discount on the whole control price, prices hugging their control prices, rising
and falling together; and which such links are a pair's rather than the section's (``few_links``).
``bills`` turns them into signals."""

from __future__ import annotations

import math
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from bidcheck.signals.base import SectionInfo, most_holders

__all__ = ["HUG", "correlation", "derived_from", "few_links", "hugs", "one_ratio_of_control"]

_RATIO_TOLERANCE = 0.001
HUG = (0.98, 1.0)  # a price hugging its control price
_SPREAD = 0.02  # prices over control prices spread at least this much for a correlation to mean anything
Pair = tuple[int, int]
Matrix = npt.NDArray[np.float64]
_T = TypeVar("_T")


def derived_from(a: Matrix, b: Matrix) -> tuple[str, float] | None:
    """How bill ``a`` is derived from ``b`` over their common items, if it is: ``("derived_ratio", r)``
    when every price of ``a`` is ``b``'s times ``r`` to the fen, ``("derived_offset", d)`` when ``b``'s
    plus ``d``."""
    ratio = float(np.median(a / b))
    if abs(ratio - 1) > _RATIO_TOLERANCE and np.all(np.abs(a - np.round(b * ratio, 2)) <= 0.011):
        return "derived_ratio", ratio
    offset = float(np.median(a - b))
    if abs(offset) >= 0.01 and np.all(np.abs(a - b - offset) <= 0.011):
        return "derived_offset", offset
    return None


def one_ratio_of_control(prices: Matrix, control: Matrix, minimum: int) -> list[bool]:
    """Whether each bid priced every item at one ratio of its control price (a discount on the whole
    control price, a way of pricing anyone may choose: two such bills are ratios of each other)."""
    out = []
    for row in prices:
        both = ~np.isnan(row) & ~np.isnan(control)
        out.append(int(both.sum()) >= minimum and derived_from(row[both], control[both]) is not None)
    return out


def few_links(linked: dict[Pair, _T], bids: int, section: SectionInfo) -> dict[Pair, _T]:
    """The links of bids linked to few others: a bid tied so to more than a ring's other members
    shows a way of pricing the section shares (market prices, one software's defaults), not a pair's."""
    partners = [0] * bids
    for i, j in linked:
        partners[i] += 1
        partners[j] += 1
    most = most_holders(bids, section.settings) - 1
    return {(i, j): how for (i, j), how in linked.items() if partners[i] <= most and partners[j] <= most}


def hugs(over: Matrix, minimum: int, share: float) -> bool:
    """Whether ``share`` of at least ``minimum`` prices over their control prices lie within ``HUG``."""
    given = over[~np.isnan(over)]
    return len(given) >= minimum and float(np.mean((given >= HUG[0]) & (given <= HUG[1]))) >= share


def correlation(a: Matrix, b: Matrix, minimum: int) -> float | None:
    """The correlation of two bills' prices over the control prices on their common items, where both
    spread enough to mean anything; ``None`` otherwise."""
    both = ~np.isnan(a) & ~np.isnan(b)
    if int(both.sum()) < max(minimum, 3):
        return None
    x, y = a[both], b[both]
    if float(np.std(x)) < _SPREAD or float(np.std(y)) < _SPREAD:
        return None
    r = float(np.corrcoef(x, y)[0, 1])
    return None if math.isnan(r) else r
