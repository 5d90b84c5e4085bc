"""The check's stages that ask the library (``bidcheck.library``; none without one): the cached bids'
lookups begun while the other files are read, the bids consulted, the pairs high in earlier sections,
each bid's history, and what the result says of the library. The library is imported inside them, beside
the reading processes (``reading.LATER_STAGES``)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bidcheck import overlaps
from bidcheck.model import HistoryMatch, LibraryInfo
from bidcheck.reading import Alongside
from bidcheck.ready import Prepared, Ready
from bidcheck.stage_results import Candidates, Given, LibrarySaid, Read

if TYPE_CHECKING:
    from bidcheck.library.history import Consulted, LibraryReader, Prefetched

__all__ = ["bid_histories", "consult_library", "earlier_highs", "library_info", "prefetching"]


def prefetching(given: Given, into: list[Prefetched | None]) -> Alongside:
    """The library's lookups of the cached bids, begun while the other files are read (kept ``into``)."""

    def prefetch(cached: list[Prepared], stop: threading.Event) -> None:
        if given.library is not None:
            into.append(overlaps.prefetch_library(given.library, given.section, cached, stop))

    return prefetch


def consult_library(given: Given, read: Read) -> LibrarySaid:
    """The bids looked up in the library (when there is one): public text, history, model documents.
    A library that fails now is left out, and the check goes on without it."""
    from bidcheck.library.history import consult
    from bidcheck.library.store import LibraryError

    if given.library is None:
        return LibrarySaid()
    try:
        return LibrarySaid(consult(given.library, read.bids, given.section, given.settings, read.prefetched))
    except LibraryError as exc:
        return LibrarySaid(error=str(exc))


def earlier_highs(consulted: Consulted | None, bids: Sequence[Ready]) -> dict[tuple[str, str], list[str]]:
    """By pair of document ids, the earlier sections in which the two were 一级预警 together."""
    from bidcheck.library.history import high_before

    return high_before(consulted, bids) if consulted is not None else {}


def bid_histories(
    given: Given, read: Read, library: LibrarySaid, candidates: Candidates
) -> dict[str, tuple[HistoryMatch, ...]]:
    """By document id, the stored bids of earlier sections each bid shares text with (tender and public
    text left out)."""
    from bidcheck.library.history import histories

    if library.consulted is None:
        return {}
    masked = [candidates.masks.fixed(i) for i in range(len(read.bids))]
    return histories(library.consulted, read.bids, masked, given.settings)


def library_info(library: LibraryReader | None, consulted: LibrarySaid) -> LibraryInfo | None:
    """What the result says of the library: which, what it held, or why it could not be read."""
    if library is None:
        return None
    if consulted.consulted is None:
        return LibraryInfo(str(library.path), error=consulted.error)
    return LibraryInfo(str(library.path), consulted.consulted.sections, consulted.consulted.documents)
