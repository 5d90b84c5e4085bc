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


def shingle_hashes(text: str, k: int) -> npt.NDArray[np.uint32]:
    """xxh32 of every k-character shingle of ``text`` (UTF-8), in order."""
    count = len(text) - k + 1
    if count <= 0:
        return np.zeros(0, dtype=_U32)
    return np.fromiter(
        (xxhash.xxh32_intdigest(text[i : i + k].encode("utf-8")) for i in range(count)),
        dtype=_U32,
        count=count,
    )


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
