"""A section's sentences encoded ahead, in a thread beside the verification's worker processes.

Where every sentence of a section is encoded (no more than ``semantic_max_sentences``: a small
section), which sentences they are follows from the masks alone, not from the copies the verification
finds (those are left out pair by pair, after encoding). So the encoding, the semantic stage's cost,
can run while the workers align the pairs: on 2 cores the 10-bid section of ``bench.corpus`` spent 1.1 s
verifying and 1.7 s encoding one after the other. The vectors are the very ones the stage would encode
(each bid's whole list of sentences together, as ``semantic.cache`` keys them); the stage takes them
and encodes only what is missing. Where the shortlist picks the sentences it needs the copies, and
nothing is encoded ahead.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Mapping, Sequence

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

from bidcheck.progress import CancelFlag, ProgressFn, check_cancel
from bidcheck.ready import Ready
from bidcheck.semantic.cache import cached_vectors
from bidcheck.semantic.encoder import Vectors, load_encoder
from bidcheck.semantic.units import Units, bid_units

__all__ = ["MIN_UNIT_CHARS", "EncodingAhead", "section_units"]

MIN_UNIT_CHARS = 12  # a shorter sentence is a heading or a fragment: no meaning of its own to match
Mask = npt.NDArray[np.bool_]
_POLL_SECONDS = 0.2


def section_units(bids: Sequence[Ready], masked: Sequence[Mask]) -> list[Units]:
    """Each bid's sentences the semantic layer compares (its own prose outside ``masked``)."""
    return [bid_units(b.clean, m, MIN_UNIT_CHARS) for b, m in zip(bids, masked, strict=True)]


class EncodingAhead:
    """Each bid's sentences encoded in daemon threads (``threads`` of them, each with one BLAS thread,
    taking one bid's whole list at a time), begun at once; ``taken`` waits for them and gives the
    vectors by cache key. They stop between bids when ``stop`` is called or the check is cancelled, and
    encode nothing in a section of more than ``max_sentences`` sentences (the shortlist's)."""

    def __init__(
        self,
        bids: Sequence[Ready],
        masked: Sequence[Mask],
        encoder: str,
        limits: tuple[int, int],
        cancel: CancelFlag | None = None,
    ) -> None:
        """``limits``: the most sentences to encode ahead, and the threads to encode them in."""
        self._vectors: dict[str, Vectors] = {}
        self._sentences = (0, 0)  # encoded so far, of all to encode
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._cancel = cancel
        args = (list(bids), list(masked), encoder, limits)
        self._thread = threading.Thread(target=self._encode, args=args, name="encode-ahead", daemon=True)
        self._thread.start()

    def _halted(self) -> bool:
        return self._stopped.is_set() or (self._cancel is not None and self._cancel.is_set())

    def _encode(self, bids: list[Ready], masked: list[Mask], encoder: str, limits: tuple[int, int]) -> None:
        units = section_units(bids, masked)
        total = sum(len(u.texts) for u in units)
        if total > limits[0]:
            return
        self._sentences = (0, total)
        lists = iter(sorted((u.texts for u in units if u.texts), key=len, reverse=True))  # largest first
        # one BLAS thread for the process while the threads encode (restored after): each encoder call
        # limits BLAS to one thread and restores what it found, which another thread may just have set
        with contextlib.suppress(Exception), threadpool_limits(1, user_api="blas"):
            load_encoder(encoder)  # a missing encoder is said where the stage loads it
            helpers = [
                threading.Thread(target=self._encode_lists, args=(lists, encoder), daemon=True)
                for _ in range(limits[1] - 1)
            ]
            for helper in helpers:
                helper.start()
            self._encode_lists(lists, encoder)
            for helper in helpers:
                helper.join()

    def _encode_lists(self, lists: Iterator[tuple[str, ...]], encoder: str) -> None:
        """Encode the bids' lists of sentences as this thread takes them, until none is left."""
        while not self._halted():
            with self._lock:
                texts = next(lists, None)
            if texts is None:
                return
            cached = cached_vectors(encoder, texts)
            rows = cached.vectors(lambda: load_encoder(encoder))
            with self._lock:
                self._vectors[cached.key] = rows
                self._sentences = (self._sentences[0] + len(texts), self._sentences[1])

    def stop(self) -> None:
        """Encode no further bid (the check ended or was cancelled before its semantic stage)."""
        self._stopped.set()

    def taken(self, progress: ProgressFn, cancel: CancelFlag | None = None) -> Mapping[str, Vectors]:
        """The vectors encoded, by ``semantic.cache.list_key``, once the thread is done (its sentences
        counted on ``progress`` meanwhile; ``Cancelled`` raised when ``cancel`` is set)."""
        while self._thread.is_alive():
            check_cancel(cancel)
            done, total = self._sentences
            if total:
                progress(done / total, f"语义比对（{done}/{total} 句）")
            self._thread.join(_POLL_SECONDS)
        return self._vectors
