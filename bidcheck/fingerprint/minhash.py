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

from bidcheck.arrays import code_points, distinct

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
    points = code_points(text)
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
    """xxh32 (seed 0) of ``data[s:s+n]`` for every start and length, each under 16 bytes: the shingles
    of one length at a time, so that each takes the steps of its length and no other."""
    padded = np.zeros(len(data) + _SHORT, dtype=_U32)
    padded[: len(data)] = data
    words = padded[:-3] | padded[1:-2] << _U32(8) | padded[2:-1] << _U32(16) | padded[3:] << _U32(24)
    out = np.empty(len(starts), dtype=_U32)
    with np.errstate(over="ignore"):
        for length in np.flatnonzero(np.bincount(lengths)).tolist():  # np.unique hashed each: 0.4 ms a bid
            chosen = np.flatnonzero(lengths == length)
            out[chosen] = _xxh32_of_length(padded, words, starts[chosen], length)
        return out


def _xxh32_of_length(
    points: npt.NDArray[np.uint32], words: npt.NDArray[np.uint32], starts: npt.NDArray[np.int64], length: int
) -> npt.NDArray[np.uint32]:
    """xxh32 (seed 0, short path) of the ``length`` bytes at each of ``starts`` (``points``: the bytes,
    ``words``: the little-endian 4 bytes from each byte)."""
    h = np.full(len(starts), _P5 + _U32(length), dtype=_U32)
    for at in range(0, length - 3, 4):
        h = _rotl(h + words[starts + at] * _P3, 17) * _P4
    for at in range(length - length % 4, length):
        h = _rotl(h + points[starts + at] * _P5, 11) * _P1
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
    """One signature per window of ``text`` starting at ``starts``.

    Windows overlap (300 characters every 250): the minima are taken once over each segment between
    two window bounds, and a window's signature is the minimum of its segments' (each shingle's
    products are computed once, not once for each window holding it: a sixth fewer)."""
    a, b = _permutations(num_perm, seed)
    mixed = _fmix32(shingle_hashes(text, k))
    lows = np.asarray(starts, dtype=np.int64)
    highs = np.minimum(np.maximum(lows + 1, lows + window - k + 1), len(mixed))
    bounds = distinct(np.concatenate([lows, highs]).clip(0, len(mixed)))
    minima = _segment_minima(mixed, bounds, a, b)
    first, last = np.searchsorted(bounds, lows), np.searchsorted(bounds, highs) - 1
    values = np.full((len(lows), num_perm), 2**32 - 1, dtype=_U32)
    filled = first <= last  # a window with no shingle (a text shorter than one) keeps the largest value
    for step in range(int((last - first).max(initial=0)) + 1):
        at = np.minimum(first + step, last)[filled]
        values[filled] = np.minimum(values[filled], minima[at])
    return [WindowMinHash(seed, row) for row in values]


_CHUNK_ROWS = 1024  # shingles whose products are held at once (512 KB for 128 permutations)


def _segment_minima(
    mixed: npt.NDArray[np.uint32],
    bounds: npt.NDArray[np.int64],
    a: npt.NDArray[np.uint32],
    b: npt.NDArray[np.uint32],
) -> npt.NDArray[np.uint32]:
    """``minima[j]`` is the minimum of ``mixed[i] * a + b`` (mod 2^32) over ``bounds[j] <= i < bounds[j+1]``,
    about a thousand shingles' products at a time (whole segments each), a permutation to a row (numpy
    takes the minima along a row ten times as fast as down a column)."""
    segments = max(len(bounds) - 1, 0)
    minima = np.empty((len(a), segments), dtype=_U32)
    ends = int(bounds[-1]) if segments else 0
    cuts = np.append(distinct(np.searchsorted(bounds, np.arange(0, ends, _CHUNK_ROWS))), segments)
    with np.errstate(over="ignore"):
        for lo, hi in zip(cuts[:-1].tolist(), cuts[1:].tolist(), strict=True):
            products = a[:, None] * mixed[None, bounds[lo] : bounds[hi]]
            products += b[:, None]
            minima[:, lo:hi] = np.minimum.reduceat(products, bounds[lo:hi] - bounds[lo], axis=1)
    return np.ascontiguousarray(minima.T)
