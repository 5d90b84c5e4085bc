"""64-bit SimHash over TF-IDF weighted word tokens: a coarse document similarity only."""

from __future__ import annotations

from collections import Counter

import numpy as np
import xxhash

from bidcheck.fingerprint.tokens import idf_weights, tokenize

__all__ = ["build_simhash", "simhash_from_weights", "simhash_similarity"]

_BITS = np.arange(64, dtype=np.uint64)


def simhash_from_weights(weights: dict[str, float], seed: int = 0) -> int:
    """SimHash of weighted features: each bit is the sign of the weighted vote of the features' hashes."""
    if not weights:
        return 0
    hashes = np.fromiter((xxhash.xxh64_intdigest(w.encode("utf-8"), seed) for w in weights), dtype=np.uint64)
    values = np.fromiter(weights.values(), dtype=np.float64)
    bits = ((hashes[:, None] >> _BITS) & np.uint64(1)).astype(np.float64)
    votes = values @ (bits * 2.0 - 1.0)
    return int(np.sum(np.uint64(1) << _BITS[votes > 0]))


def build_simhash(text: str, seed: int = 0, words: list[str] | None = None) -> int:
    """SimHash of a comparable text, words weighted by term frequency times jieba's IDF (``words``: the
    text already cut, see ``tokens.cut``)."""
    idf, median = idf_weights()
    counts = Counter(tokenize(text, words))
    return simhash_from_weights({w: n * idf.get(w, median) for w, n in counts.items()}, seed)


def simhash_similarity(a: int, b: int) -> float:
    """1 - Hamming distance / 64."""
    return 1.0 - (a ^ b).bit_count() / 64.0
