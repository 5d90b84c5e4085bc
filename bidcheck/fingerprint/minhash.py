"""MinHash signatures of overlapping character windows, computed in bulk with numpy, and the LSH bands
they are bucketed by.

Values are identical to datasketch's ``MinHash(num_perm, seed)`` (its default ``affine32`` scheme)
fed the window's character shingles through ``xxh32``: the same permutations, the same MurmurHash3
pre-mix, the same wrapping arithmetic; the bands are those of its ``MinHashLSH(threshold, num_perm)``.
Only the per-value Python overhead is gone, and datasketch itself is not imported: its package imports
SciPy (for the integrals that choose the bands), which costs a second at every start and 70 MB in the
desktop bundle. The tests hold both equal to datasketch's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
import xxhash

__all__ = ["WindowMinHash", "lsh_bands", "shingle_hashes", "window_minhashes", "window_starts"]

_U32 = np.uint32


_P1, _P2, _P3, _P4, _P5 = (_U32(v) for v in (0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D, 0x27D4EB2F, 0x165667B1))
_SHORT = 16  # xxh32 takes its short path below 16 bytes: all a 3-character shingle can be


def shingle_hashes(text: str, k: int) -> npt.NDArray[np.uint32]:
    """xxh32 of every k-character shingle of ``text`` (UTF-8), in order.

    Shingles shorter than 16 bytes are hashed all at once with numpy, following xxh32's specification
    (its short path); longer ones, one at a time by ``xxhash``. The values are the same either way.
    """
    count = len(text) - k + 1
    if count <= 0:
        return np.zeros(0, dtype=_U32)
    data = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    points = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    widths = 1 + (points >= 0x80) + (points >= 0x800) + (points >= 0x10000)
    offsets = np.r_[0, np.cumsum(widths)]
    starts, lengths = offsets[:count], offsets[k : k + count] - offsets[:count]
    if lengths.max() >= _SHORT:
        return np.fromiter(
            (xxhash.xxh32_intdigest(text[i : i + k].encode("utf-8")) for i in range(count)),
            dtype=_U32,
            count=count,
        )
    return _xxh32_short(data, starts, lengths)


def _rotl(x: npt.NDArray[np.uint32], r: int) -> npt.NDArray[np.uint32]:
    return (x << _U32(r)) | (x >> _U32(32 - r))


def _xxh32_short(
    data: npt.NDArray[np.uint8], starts: npt.NDArray[np.int64], lengths: npt.NDArray[np.int64]
) -> npt.NDArray[np.uint32]:
    """xxh32 (seed 0) of ``data[s:s+n]`` for every start and length, each under 16 bytes."""
    width = int(lengths.max())
    index = np.minimum(starts[:, None] + np.arange(width), len(data) - 1)
    rows = data[index].astype(_U32)
    n = lengths.astype(_U32)
    with np.errstate(over="ignore"):
        h = _P5 + n
        for lane in range(0, width - 3, 4):
            word = rows[:, lane] | rows[:, lane + 1] << 8 | rows[:, lane + 2] << 16 | rows[:, lane + 3] << 24
            step = _rotl(h + word * _P3, 17) * _P4
            h = np.where(lengths >= lane + 4, step, h)
        tail = lengths - lengths % 4
        for at in range(width):
            step = _rotl(h + rows[:, at] * _P5, 11) * _P1
            h = np.where((at >= tail) & (at < lengths), step, h)
        h = (h ^ (h >> _U32(15))) * _P2
        h = (h ^ (h >> _U32(13))) * _P3
        return np.asarray(h ^ (h >> _U32(16)), dtype=_U32)


def _fmix32(hv: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
    """MurmurHash3's 32-bit finalizer, as datasketch applies it before the permutations."""
    hv = hv ^ (hv >> _U32(16))
    hv = hv * _U32(0x85EBCA6B)
    hv = hv ^ (hv >> _U32(13))
    hv = hv * _U32(0xC2B2AE35)
    return hv ^ (hv >> _U32(16))


class WindowMinHash(NamedTuple):
    """One window's MinHash signature: the values of datasketch's ``LeanMinHash`` (``affine32``)."""

    seed: int
    hashvalues: npt.NDArray[np.uint32]


@functools.cache
def _permutations(num_perm: int, seed: int) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32]]:
    """datasketch's ``affine32`` permutations ``h -> a * h + b`` (mod 2^32, ``a`` odd) for a seed."""
    gen = np.random.RandomState(seed)
    a = gen.randint(0, 1 << 31, num_perm, dtype=_U32) * _U32(2) + _U32(1)
    b = gen.randint(0, 1 << 32, num_perm, dtype=_U32)
    return a, b


@functools.lru_cache(maxsize=8)
def lsh_bands(threshold: float, num_perm: int) -> tuple[tuple[int, int], ...]:
    """The bands (start, end) of ``num_perm`` values that datasketch's ``MinHashLSH(threshold, num_perm)``
    chooses: b bands of r rows minimising the mean of the false-positive and false-negative areas under
    the S-curve ``1 - (1 - s^r)^b``. The areas are exact: Gauss-Legendre quadrature of enough points for
    a polynomial of degree ``r * b <= num_perm``."""
    shapes = np.array([(b, r) for b in range(1, num_perm + 1) for r in range(1, num_perm // b + 1)], float)
    b, r = shapes[:, :1], shapes[:, 1:]
    errors = _area(0.0, threshold, lambda s: 1 - (1 - s**r) ** b, num_perm)
    errors += _area(threshold, 1.0, lambda s: (1 - s**r) ** b, num_perm)
    bands, rows = (int(v) for v in shapes[int(np.argmin(errors))])
    return tuple((i * rows, (i + 1) * rows) for i in range(bands))


def _area(
    low: float, high: float, curve: Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]], degree: int
) -> npt.NDArray[np.float64]:
    """The integral of each row of ``curve`` from ``low`` to ``high``, exact for polynomials of ``degree``."""
    nodes, weights = np.polynomial.legendre.leggauss(degree // 2 + 1)
    half = (high - low) / 2
    return np.asarray(half * (curve(half * nodes + (high + low) / 2) @ weights), dtype=np.float64)


def window_starts(length: int, window: int, stride: int) -> list[int]:
    """Start offsets of the windows covering a text (the last window ends at the text's end)."""
    if length <= window:
        return [0] if length else []
    starts = list(range(0, length - window + 1, stride))
    if starts[-1] + window < length:
        starts.append(length - window)
    return starts


def window_minhashes(
    text: str, starts: list[int], window: int, k: int, num_perm: int, seed: int
) -> list[WindowMinHash]:
    """One signature per window of ``text`` starting at ``starts``."""
    a, b = _permutations(num_perm, seed)
    mixed = _fmix32(shingle_hashes(text, k))
    out = []
    with np.errstate(over="ignore"):
        for start in starts:
            rows = mixed[start : max(start + 1, start + window - k + 1)]
            values = (rows[:, None] * a + b).min(axis=0) if len(rows) else np.full(num_perm, 2**32 - 1, _U32)
            out.append(WindowMinHash(seed, values.astype(_U32)))
    return out
