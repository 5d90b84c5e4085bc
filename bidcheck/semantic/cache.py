"""Sentence vectors cached on disk by encoder and sentences, so a section checked again (another tender
file, a bid added, other thresholds) encodes only what it has not encoded before."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from bidcheck.cache import load_blob, store_blob
from bidcheck.semantic.encoder import Encoder, Vectors

__all__ = ["encode_cached", "vectors_key"]

_KIND = "sentences"
_VERSION = 1  # raise it when what an encoder gives for the same sentences changes


def vectors_key(encoder: Encoder, texts: Sequence[str]) -> str:
    """The cache key of one bid's sentences encoded by ``encoder``."""
    digest = hashlib.blake2b(f"{_VERSION}|{encoder.name}|".encode(), digest_size=20)
    for text in texts:
        digest.update(text.encode("utf-8", "replace") + b"\0")
    return "s" + digest.hexdigest()


def _load(key: str, rows: int) -> Vectors | None:
    data = load_blob(_KIND, key)
    if data is None or rows == 0 or len(data) % (4 * rows):
        return None
    return np.frombuffer(data, dtype=np.float32).reshape(rows, -1).copy()


def encode_cached(encoder: Encoder, texts: Sequence[str]) -> Vectors:
    """One bid's sentences encoded, through the cache (``$BIDCHECK_CACHE_DIR/sentences``)."""
    key = vectors_key(encoder, texts)
    cached = _load(key, len(texts))
    if cached is not None:
        return cached
    vectors = encoder.encode(texts)
    if len(texts):
        store_blob(_KIND, key, np.ascontiguousarray(vectors, dtype=np.float32).tobytes())
    return vectors
