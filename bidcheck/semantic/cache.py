"""Sentence vectors cached on disk by encoder and sentence, so a section checked again (a bid added,
another tender file, other thresholds: the sentences each bid compares change with them) encodes only
the sentences it has never encoded.

Each sentence is encoded alone: an encoder that runs several sentences through one matrix product
gives each of them vectors that differ in the last bits with the sentences beside it (the default one
did for 265 of 674 sentences grouped two ways), so a vector reused from another check would not be
the one a fresh check computes, and the result would differ from a fresh check's. One entry a bid (its
text hashed, with the encoder's name) holds every sentence of it encoded so far: each sentence's hash,
and its vector.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.cache import load_blob, store_blob
from bidcheck.semantic.encoder import Encoder, Vectors

__all__ = ["BidVectors", "bid_key", "cached_vectors", "encode_alone", "sentence_digest"]

_KIND = "sentences"
_VERSION = 2  # raise it when what an encoder gives for the same sentence changes
_DIGEST = 16  # bytes of a sentence's hash
_HEADER = 8  # the entry's sentences and the vectors' width, two uint32


def bid_key(encoder: str, text: str) -> str:
    """The cache key of one bid's sentence vectors by the named encoder (the bid's text hashed)."""
    digest = hashlib.blake2b(f"{_VERSION}|{encoder}|".encode(), digest_size=20)
    digest.update(text.encode("utf-8", "surrogatepass"))
    return "v" + digest.hexdigest()


def sentence_digest(text: str) -> bytes:
    """A sentence's hash, its name in a bid's entry."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=_DIGEST).digest()


def encode_alone(encoder: Encoder, texts: Sequence[str]) -> Vectors:
    """Each sentence encoded on its own (its vector then depends on nothing but the sentence)."""
    return np.vstack([encoder.encode([text]) for text in texts]).astype(np.float32, copy=False)


@dataclass
class BidVectors:
    """One bid's sentences and what its cache entry holds of them: ``missing`` are not encoded yet."""

    key: str
    texts: tuple[str, ...]
    digests: list[bytes]
    known: dict[bytes, npt.NDArray[np.float32]]

    @property
    def missing(self) -> list[int]:
        """The indexes of the sentences never encoded."""
        return [n for n, d in enumerate(self.digests) if d not in self.known]

    def vectors(self, encoder: Callable[[], Encoder]) -> Vectors:
        """Every sentence's vector, in order: the missing ones encoded (``encoder`` loads the encoder
        only then) and added to the bid's entry."""
        missing = self.missing
        if missing:
            fresh = encode_alone(encoder(), [self.texts[n] for n in missing])
            self.known.update((self.digests[n], row) for n, row in zip(missing, fresh, strict=True))
            _store(self.key, self.known)
        return (
            np.vstack([self.known[d] for d in self.digests]) if self.texts else np.zeros((0, 0), np.float32)
        )


def cached_vectors(encoder: str, bid_text: str, texts: Sequence[str]) -> BidVectors:
    """What the cache (``$BIDCHECK_CACHE_DIR/sentences``) holds of a bid's sentences."""
    key = bid_key(encoder, bid_text)
    return BidVectors(key, tuple(texts), [sentence_digest(t) for t in texts], _load(key))


def _load(key: str) -> dict[bytes, npt.NDArray[np.float32]]:
    """The sentences' vectors in a bid's entry by sentence hash (none when missing or damaged)."""
    data = load_blob(_KIND, key)
    if data is None or len(data) < _HEADER:
        return {}
    count, width = (int(v) for v in np.frombuffer(data[:_HEADER], dtype="<u4"))
    if len(data) != _HEADER + count * (_DIGEST + 4 * width):
        return {}
    end = _HEADER + count * _DIGEST
    names = [data[_HEADER + n * _DIGEST : _HEADER + (n + 1) * _DIGEST] for n in range(count)]
    rows = np.frombuffer(data[end:], dtype="<f4").reshape(count, width).astype(np.float32)
    return dict(zip(names, rows, strict=True))


def _store(key: str, known: dict[bytes, npt.NDArray[np.float32]]) -> None:
    """Write a bid's entry: every sentence's hash, then every vector (little-endian float32)."""
    names = list(known)
    rows = np.vstack([known[n] for n in names]).astype("<f4")
    header = np.asarray([len(names), rows.shape[1]], dtype="<u4").tobytes()
    store_blob(_KIND, key, header + b"".join(names) + rows.tobytes())
