"""64-bit SimHash over TF-IDF weighted word tokens: a coarse document similarity only."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import xxhash

from bidcheck.fingerprint.tokens import cut, idf_weights, token_counts

__all__ = ["build_simhash", "load_idf_table", "simhash_from_weights", "simhash_similarity"]

_BITS = np.arange(64, dtype=np.uint64)


def _hashes(words: list[str], seed: int) -> npt.NDArray[np.uint64]:
    """Each word's 64-bit xxHash (of its UTF-8 bytes)."""
    return np.fromiter((xxhash.xxh64_intdigest(w.encode("utf-8"), seed) for w in words), "<u8", len(words))


def _simhash(hashes: npt.NDArray[np.uint64], values: npt.NDArray[np.float64]) -> int:
    """Each bit the sign of the weighted vote of the features' hashes."""
    if not len(hashes):
        return 0
    signs = np.unpackbits(hashes.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little").astype(np.float64)
    signs *= 2.0  # bit n of each hash in column n: +1.0 where it is set, -1.0 where not
    signs -= 1.0
    votes = values @ signs
    return int(np.sum(np.uint64(1) << _BITS[votes > 0]))


def simhash_from_weights(weights: dict[str, float], seed: int = 0) -> int:
    """SimHash of weighted features: each bit is the sign of the weighted vote of the features' hashes."""
    values = np.fromiter(weights.values(), dtype=np.float64, count=len(weights))
    return _simhash(_hashes(list(weights), seed), values)


@dataclass(frozen=True)
class _IdfTable:
    """jieba's IDF table by the words' hashes: sorted hashes, their IDF, the median (unknown words)."""

    hashes: npt.NDArray[np.uint64]
    values: npt.NDArray[np.float64]
    median: float

    def of(self, hashes: npt.NDArray[np.uint64]) -> npt.NDArray[np.float64]:
        """The IDF of the words of ``hashes``: one binary search each in C, where a dictionary lookup
        of each word (a cache miss or two in a table of 270,000 words) cost a bid 10-16 ms."""
        at = np.minimum(np.searchsorted(self.hashes, hashes), len(self.hashes) - 1)
        return np.where(self.hashes[at] == hashes, self.values[at], self.median)


@functools.cache
def load_idf_table(seed: int = 0) -> _IdfTable:
    """The IDF table by hashes of ``seed`` (loaded once a process; a reading process forked after it is
    loaded shares it). Two words of one 64-bit hash would be one entry: then the words are looked up."""
    idf, median = idf_weights()
    hashes = _hashes(list(idf), seed)
    order = np.argsort(hashes, kind="stable")
    table = _IdfTable(hashes[order], np.fromiter(idf.values(), np.float64, len(idf))[order], median)
    if len(table.hashes) > 1 and bool(np.any(table.hashes[1:] == table.hashes[:-1])):
        raise _Collision
    return table


class _Collision(Exception):
    """Two words of the IDF table have one hash (never seen: the table is looked up word by word)."""


def build_simhash(text: str, seed: int = 0, words: list[str] | None = None) -> int:
    """SimHash of a comparable text, words weighted by term frequency times jieba's IDF (``words``: the
    text already cut, see ``tokens.cut``). A word outside the table whose hash is a table word's would
    take that word's IDF: at 64 bits, about once in 10^9 bids, and the SimHash is a coarse signal."""
    counts = token_counts(cut(text) if words is None else words)
    try:
        table = load_idf_table(seed)
    except _Collision:
        idf, median = idf_weights()
        return simhash_from_weights({w: n * idf.get(w, median) for w, n in counts.items()}, seed)
    hashes = _hashes(list(counts), seed)
    values = np.fromiter(counts.values(), np.float64, len(counts)) * table.of(hashes)
    return _simhash(hashes, values)


def simhash_similarity(a: int, b: int) -> float:
    """1 - Hamming distance / 64."""
    return 1.0 - (a ^ b).bit_count() / 64.0
