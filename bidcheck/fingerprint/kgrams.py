"""64-bit hashes of every k-character substring of a comparable text: the seeds of verification."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import code_points

__all__ = ["kgram_hashes", "mix64"]

_U64 = np.uint64
_BASE = _U64(0x100000001B3)


def mix64(h: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """Murmur3's 64-bit finaliser: every input bit moves every output bit."""
    h = h ^ (h >> _U64(33))
    h = h * _U64(0xFF51AFD7ED558CCD)
    h = h ^ (h >> _U64(33))
    h = h * _U64(0xC4CEB9FE1A85EC53)
    return h ^ (h >> _U64(33))


def kgram_hashes(text: str, k: int) -> npt.NDArray[np.uint64]:
    """``out[i]`` is the hash of ``text[i:i+k]``; ``len(text) - k + 1`` values (none if shorter)."""
    points = code_points(text).astype(_U64)
    count = len(points) - k + 1
    if count <= 0:
        return np.zeros(0, dtype=_U64)
    h = np.zeros(count, dtype=_U64)
    with np.errstate(over="ignore"):
        for j in range(k):
            h = h * _BASE + points[j : j + count]
        return mix64(h)
