"""Small numpy helpers that several stages share."""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import numpy.typing as npt

__all__ = ["distinct"]

_S = TypeVar("_S", bound=np.generic)


def distinct(values: npt.NDArray[_S]) -> npt.NDArray[_S]:
    """The distinct values, sorted: ``np.unique(values)`` by a sort. numpy 2.3 and later find the
    distinct values of a plain ``np.unique`` with a hash table, which on arrays of random 64-bit hashes
    took 20 to 40 times as long as sorting them (0.9 s against 0.03 s for 1.3 million)."""
    ordered = np.sort(values, axis=None)
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]
