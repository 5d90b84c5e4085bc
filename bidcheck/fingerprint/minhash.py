"""MinHash signatures of overlapping character windows, computed in bulk with numpy.

Values are identical to datasketch's ``MinHash(num_perm, seed)`` (its default ``affine32`` scheme)
fed the window's character shingles through ``xxh32``: the same permutations, the same MurmurHash3
pre-mix, the same wrapping arithmetic. Only the per-value Python overhead is gone.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt
import xxhash
from datasketch import LeanMinHash, MinHash

__all__ = ["shingle_hashes", "window_minhashes", "window_starts"]

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


@functools.cache
def _permutations(num_perm: int, seed: int) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32]]:
    a, b = MinHash(num_perm=num_perm, seed=seed).permutations
    return a.astype(_U32), b.astype(_U32)


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
) -> list[LeanMinHash]:
    """One ``LeanMinHash`` per window of ``text`` starting at ``starts``."""
    a, b = _permutations(num_perm, seed)
    mixed = _fmix32(shingle_hashes(text, k))
    out = []
    with np.errstate(over="ignore"):
        for start in starts:
            rows = mixed[start : max(start + 1, start + window - k + 1)]
            values = (rows[:, None] * a + b).min(axis=0) if len(rows) else np.full(num_perm, 2**32 - 1, _U32)
            out.append(LeanMinHash(seed=seed, hashvalues=values.astype(_U32), scheme="affine32"))
    return out
