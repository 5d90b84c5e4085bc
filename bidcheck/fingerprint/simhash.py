"""64-bit SimHash over TF-IDF weighted word tokens: a coarse document similarity only."""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path

import numpy as np
import numpy.typing as npt
import xxhash

from bidcheck.fingerprint.idf_file import sorted_idf
from bidcheck.fingerprint.tokens import cut, idf_path, idf_weights, stopwords
from bidcheck.memo import source_key, stored_table

__all__ = ["build_simhash", "load_idf_table", "simhash_from_weights", "simhash_similarity"]

_BITS = np.arange(64, dtype=np.uint64)
# by byte value: the signs of its 8 bits, lowest first (+1.0 where the bit is set, -1.0 where not)
_BYTE_SIGNS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little") * 2.0 - 1.0


def _hashes(words: list[str], seed: int) -> npt.NDArray[np.uint64]:
    """Each word's 64-bit xxHash (of its UTF-8 bytes), with no Python step of its own a word."""
    hashes = map(xxhash.xxh64_intdigest, map(str.encode, words), repeat(seed))
    return np.fromiter(hashes, "<u8", len(words))


def _simhash(hashes: npt.NDArray[np.uint64], values: npt.NDArray[np.float64]) -> int:
    """Each bit the sign of the weighted vote of the features' hashes."""
    if not len(hashes):
        return 0
    # bit n of each hash in column n (its bytes little-endian): the 8 signs of each byte looked up at once
    signs = np.take(_BYTE_SIGNS, hashes.view(np.uint8), axis=0).reshape(len(hashes), 64)
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
        of each word (a cache miss or two in a table of 270,000 words) cost a bid 10-16 ms; the hashes
        searched in order cost a bid of 10,000 distinct words 0.8 ms against 2.0 in the order given."""
        order = np.argsort(hashes)  # searched in order, each search starts where the last one ended
        ordered = hashes[order]
        at = np.minimum(np.searchsorted(self.hashes, ordered), len(self.hashes) - 1)
        values = np.empty(len(hashes), dtype=np.float64)
        values[order] = np.where(self.hashes[at] == ordered, self.values[at], self.median)
        return values


@functools.cache
def load_idf_table(seed: int = 0) -> _IdfTable:
    """The IDF table by hashes of ``seed`` (loaded once a process; a reading process forked after it is
    loaded shares it). Two words of one 64-bit hash would be one entry: then the words are looked up.
    The table is kept in the on-disk cache: parsing jieba's 270,000 lines and hashing every word cost
    each cold check 0.3-0.4 s before its reading processes could start; the stored table takes a few ms."""
    key = _table_key(seed)
    return stored_table(_TABLES, key, _table_from_bytes, functools.partial(_built_table, seed), _table_bytes)


def _built_table(seed: int) -> _IdfTable:
    """The IDF table by hashes, made from jieba's table (read in bulk where its shape allows)."""
    bulk = sorted_idf(idf_path().read_bytes(), seed)
    if bulk is not None:
        return _IdfTable(*bulk)
    idf, median = idf_weights()  # a word twice (its last value counts) or two words of one hash
    hashes = _hashes(list(idf), seed)
    order = np.argsort(hashes, kind="stable")
    table = _IdfTable(hashes[order], np.fromiter(idf.values(), np.float64, len(idf))[order], median)
    if len(table.hashes) > 1 and bool(np.any(table.hashes[1:] == table.hashes[:-1])):
        raise _Collision
    return table


_TABLES = "tables"  # the cache's kind of entry for the table


def _table_key(seed: int) -> str | None:
    """The stored table's key: jieba's table file, the seed and this code; ``None`` when the file
    cannot be read (the table is then made and not stored)."""
    code = [Path(__file__), *(Path(__file__).with_name(n) for n in ("tokens.py", "idf_file.py"))]
    return source_key("t", idf_path, ("idf", str(seed)), code)


def _table_bytes(table: _IdfTable) -> bytes:
    """A table as bytes: its hashes, its values, then the median (little-endian)."""
    median = np.array([table.median], "<f8")
    return table.hashes.astype("<u8").tobytes() + table.values.astype("<f8").tobytes() + median.tobytes()


def _table_from_bytes(data: bytes) -> _IdfTable | None:
    """The table of ``_table_bytes``; ``None`` for bytes of another shape or hashes out of order."""
    count, rest = divmod(len(data) - 8, 16)
    if count < 1 or rest:
        return None
    hashes = np.frombuffer(data, "<u8", count).astype(np.uint64, copy=False)
    if bool(np.any(hashes[1:] <= hashes[:-1])):
        return None
    values = np.frombuffer(data, "<f8", count, offset=8 * count).astype(np.float64, copy=False)
    return _IdfTable(hashes, values, float(np.frombuffer(data, "<f8", 1, offset=16 * count)[0]))


class _Collision(Exception):
    """Two words of the IDF table have one hash (never seen: the table is looked up word by word)."""


def build_simhash(text: str, seed: int = 0, words: list[str] | None = None) -> int:
    """SimHash of a comparable text, words weighted by term frequency times jieba's IDF (``words``: the
    text already cut, see ``tokens.cut``). A word outside the table whose hash is a table word's would
    take that word's IDF: at 64 bits, about once in 10^9 bids, and the SimHash is a coarse signal."""
    tokens, counts = _tokens(cut(text) if words is None else words)
    try:
        table = load_idf_table(seed)
    except _Collision:
        idf, median = idf_weights()
        weights = {w: n * idf.get(w, median) for w, n in zip(tokens, counts.tolist(), strict=True)}
        return simhash_from_weights(weights, seed)
    hashes = _hashes(tokens, seed)
    return _simhash(hashes, counts * table.of(hashes))


def _tokens(words: list[str]) -> tuple[list[str], npt.NDArray[np.float64]]:
    """``tokens.token_counts`` of a cut text as its tokens and their counts, in the same order (first
    occurrence): the few stopwords present taken out of the words' counts first, so that each distinct
    word is asked only its length and whether it is digits (2.6 to 2.2 ms a bid of 10,000 such words)."""
    counted = Counter(words)
    for stop in [w for w in stopwords() if w in counted]:
        del counted[stop]
    tokens = [w for w in counted if len(w) > 1 and not w.isdigit()]
    return tokens, np.fromiter(map(counted.__getitem__, tokens), np.float64, len(tokens))


def simhash_similarity(a: int, b: int) -> float:
    """1 - Hamming distance / 64."""
    return 1.0 - (a ^ b).bit_count() / 64.0
