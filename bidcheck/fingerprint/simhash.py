"""64-bit SimHash over TF-IDF weighted word tokens: a coarse document similarity only."""

from __future__ import annotations

import numpy as np
import xxhash

from bidcheck.fingerprint.tokens import cut, idf_weights, token_counts

__all__ = ["build_simhash", "simhash_from_weights", "simhash_similarity"]

_BITS = np.arange(64, dtype=np.uint64)


def simhash_from_weights(weights: dict[str, float], seed: int = 0) -> int:
    """SimHash of weighted features: each bit is the sign of the weighted vote of the features' hashes."""
    if not weights:
        return 0
    hashes = np.fromiter(
        (xxhash.xxh64_intdigest(w.encode("utf-8"), seed) for w in weights), "<u8", len(weights)
    )
    values = np.fromiter(weights.values(), dtype=np.float64, count=len(weights))
    signs = np.unpackbits(hashes.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little").astype(np.float64)
    signs *= 2.0  # bit n of each hash in column n: +1.0 where it is set, -1.0 where not
    signs -= 1.0
    votes = values @ signs
    return int(np.sum(np.uint64(1) << _BITS[votes > 0]))


def build_simhash(text: str, seed: int = 0, words: list[str] | None = None) -> int:
    """SimHash of a comparable text, words weighted by term frequency times jieba's IDF (``words``: the
    text already cut, see ``tokens.cut``)."""
    idf, median = idf_weights()
    counts = token_counts(cut(text) if words is None else words)
    return simhash_from_weights({w: n * idf.get(w, median) for w, n in counts.items()}, seed)


def simhash_similarity(a: int, b: int) -> float:
    """1 - Hamming distance / 64."""
    return 1.0 - (a ^ b).bit_count() / 64.0
