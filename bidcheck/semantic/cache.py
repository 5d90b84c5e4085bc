"""Sentence vectors cached on disk, so a section checked again encodes only what it never encoded.

Two ways, by what a check encodes. Where every sentence of the section is encoded, a bid's sentences
are encoded together (one batch a bid, several sentences to a matrix product: 2.4 times faster than one
by one) and cached as one entry, under the bid's whole list of sentences. Where the shortlist picks
the sentences, the picks of the other bids change when a bid is added (a fifth of the 1,182 picks of
``bench.scale``'s 10-bid section were new after its 10th bid), so each sentence is encoded on its own
and cached by sentence, one entry a bid (its text hashed) holding every sentence of it encoded so far:
a vector encoded beside others differs in the last bits with the sentences beside it (the default
encoder: 265 of 674 sentences grouped two ways, 23 of 1,202 even in batches of six or more), and reused
in another check it would not be the vector a fresh check computes. Either way a check gives, byte for
byte, the result of a check with an empty cache.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from bidcheck.cache import load_blob, store_blob
from bidcheck.semantic.encoder import Encoder, Vectors

__all__ = ["BidVectors", "bid_key", "cached_vectors", "encode_alone", "list_key", "sentence_digest"]

_KIND = "sentences"
_VERSION = 2  # raise it when what an encoder gives for the same sentence changes
_LIST_VERSION = 1  # the same for a bid's whole list of sentences
_DIGEST = 16  # bytes of a sentence's hash
_HEADER = 8  # the entry's sentences and the vectors' width, two uint32
Rows = dict[bytes, npt.NDArray[np.float32]]


def bid_key(encoder: str, text: str) -> str:
    """The cache key of one bid's sentences encoded one by one by the named encoder (its text hashed)."""
    digest = hashlib.blake2b(f"{_VERSION}|{encoder}|".encode(), digest_size=20)
    digest.update(text.encode("utf-8", "surrogatepass"))
    return "v" + digest.hexdigest()


def list_key(encoder: str, texts: Sequence[str]) -> str:
    """The cache key of one bid's whole list of sentences encoded together by the named encoder."""
    digest = hashlib.blake2b(f"{_LIST_VERSION}|{encoder}|".encode(), digest_size=20)
    for text in texts:
        digest.update(text.encode("utf-8", "replace") + b"\0")
    return "s" + digest.hexdigest()


def sentence_digest(text: str) -> bytes:
    """A sentence's hash, its name in a bid's entry."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=_DIGEST).digest()


def encode_alone(encoder: Encoder, texts: Sequence[str]) -> Vectors:
    """Each sentence encoded on its own (its vector then depends on nothing but the sentence)."""
    return np.vstack([encoder.encode([text]) for text in texts]).astype(np.float32, copy=False)


@dataclass
class BidVectors:
    """One bid's sentences and what the cache holds of them: by sentence (``alone``: each encoded on
    its own), or for the whole list (``rows``, ``None`` until encoded)."""

    key: str
    texts: tuple[str, ...]
    alone: bool
    known: Rows = field(default_factory=dict)
    rows: Vectors | None = None

    @property
    def missing(self) -> list[int]:
        """The indexes of the sentences to encode."""
        if not self.alone:
            return [] if self.rows is not None else list(range(len(self.texts)))
        return [n for n, t in enumerate(self.texts) if sentence_digest(t) not in self.known]

    def vectors(self, encoder: Callable[[], Encoder]) -> Vectors:
        """Every sentence's vector, in order: those missing encoded (``encoder`` loads the encoder only
        then) and stored in the bid's entry."""
        if not self.alone:
            if self.rows is None:
                self.rows = encoder().encode(self.texts)
                store_blob(_KIND, self.key, np.ascontiguousarray(self.rows, dtype="<f4").tobytes())
            return self.rows
        missing = self.missing
        if missing:
            fresh = encode_alone(encoder(), [self.texts[n] for n in missing])
            self.known.update(
                (sentence_digest(self.texts[n]), row) for n, row in zip(missing, fresh, strict=True)
            )
            _store(self.key, self.known)
        return np.vstack([self.known[sentence_digest(t)] for t in self.texts])


def cached_vectors(encoder: str, bid_text: str, texts: Sequence[str], alone: bool) -> BidVectors:
    """What the cache (``$BIDCHECK_CACHE_DIR/sentences``) holds of a bid's sentences (not empty)."""
    if alone:
        key = bid_key(encoder, bid_text)
        return BidVectors(key, tuple(texts), True, known=_load(key))
    key = list_key(encoder, texts)
    return BidVectors(key, tuple(texts), False, rows=_load_list(key, len(texts)))


def _load_list(key: str, rows: int) -> Vectors | None:
    data = load_blob(_KIND, key)
    if data is None or rows == 0 or len(data) % (4 * rows):
        return None
    return np.frombuffer(data, dtype="<f4").reshape(rows, -1).astype(np.float32)


def _load(key: str) -> Rows:
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


def _store(key: str, known: Rows) -> None:
    """Write a bid's entry: every sentence's hash, then every vector (little-endian float32)."""
    names = list(known)
    rows = np.vstack([known[n] for n in names]).astype("<f4")
    header = np.asarray([len(names), rows.shape[1]], dtype="<u4").tobytes()
    store_blob(_KIND, key, header + b"".join(names) + rows.tobytes())
