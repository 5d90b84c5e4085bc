"""Sentence vectors cached on disk, so a section checked again (another tender file, other thresholds, the
same bids) encodes nothing it encoded before.

A bid's sentences are encoded together (several sentences to a matrix product: 2.4 times faster than one
by one) and cached as one entry, under the bid's whole list of sentences. A vector encoded beside others
differs in the last bits with the sentences beside it (the default encoder: 265 of 674 sentences grouped
two ways), so a vector is reused only with the very list it was encoded in: a check gives, byte for byte,
the result of a check with an empty cache. Where the shortlist picks the sentences, a bid added to the
section changes the other bids' picks (a fifth of the 1,182 picks of ``bench.scale``'s 10-bid section),
and their lists are encoded again: encoding each sentence on its own would let a late bid reuse the rest,
but every first check would pay 2.4 times for its encoding (measured: 10 bids' cold check +36% CPU, the
late bid then 22% less), and a section is checked from cold far more often than a bid comes late.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from bidcheck.memo import load_blob, store_blob
from bidcheck.semantic.encoder import Encoder, Vectors

__all__ = ["BidVectors", "cached_vectors", "list_key"]

_KIND = "sentences"
_LIST_VERSION = 2  # raise it when what an encoder gives for the same sentences changes


def list_key(encoder: str, texts: Sequence[str]) -> str:
    """The cache key of one bid's whole list of sentences encoded together by the named encoder."""
    digest = hashlib.blake2b(f"{_LIST_VERSION}|{encoder}|".encode(), digest_size=20)
    for text in texts:
        digest.update(text.encode("utf-8", "replace") + b"\0")
    return "s" + digest.hexdigest()


@dataclass
class BidVectors:
    """One bid's sentences and their vectors from the cache (``rows``, ``None`` until encoded)."""

    key: str
    texts: tuple[str, ...]
    rows: Vectors | None = None

    @property
    def missing(self) -> list[int]:
        """The indexes of the sentences to encode: all, or none."""
        return [] if self.rows is not None else list(range(len(self.texts)))

    def vectors(self, encoder: Callable[[], Encoder]) -> Vectors:
        """Every sentence's vector, in order: encoded now when not cached (``encoder`` loads the
        encoder only then), and stored."""
        if self.rows is None:
            self.rows = encoder().encode(self.texts)
            store_blob(_KIND, self.key, np.ascontiguousarray(self.rows, dtype="<f4").tobytes())
        return self.rows


def cached_vectors(
    encoder: str, texts: Sequence[str], encoded: Mapping[str, Vectors] | None = None
) -> BidVectors:
    """What ``encoded`` (vectors encoded in this check, by key) or the cache
    (``$BIDCHECK_CACHE_DIR/sentences``) holds of a bid's sentences (not empty)."""
    key = list_key(encoder, texts)
    rows = encoded.get(key) if encoded is not None else None
    return BidVectors(key, tuple(texts), rows=rows if rows is not None else _load_list(key, len(texts)))


def _load_list(key: str, rows: int) -> Vectors | None:
    data = load_blob(_KIND, key)
    if data is None or rows == 0 or len(data) % (4 * rows):
        return None
    return np.frombuffer(data, dtype="<f4").reshape(rows, -1).astype(np.float32)
