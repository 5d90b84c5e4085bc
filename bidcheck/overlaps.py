"""The check's deliberate overlaps, each in one place and each switchable (``BIDCHECK_OVERLAPS_OFF``, a
comma-separated list of their names, to measure what one saves): work begun early, beside work that
leaves a core idle, whose result a later stage takes — or does without. (The IDF table made in a forked
process as the reading processes start belongs to the reading: ``reading.share_tables``.)

- ``encoder``: the sentence encoder loaded beside the reading workers, or beside the candidates;
- ``prefetch``: the library's places of the cached bids' hashes looked up while the other files are read;
- ``signals``: the signals found in a forked copy of the checking process beside the candidates and
  verification, in sections of ``SIGNALS_AHEAD_MIN_BIDS`` bids or more;
- ``vectors``: a small section's sentences encoded in a thread beside the verification's workers
  (``semantic.EncodingAhead``).
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bidcheck.config import Settings
from bidcheck.ready import Prepared, Ready
from bidcheck.signals import SectionInfo, SignalsFound, find_signals
from bidcheck.workers import Ahead, can_fork

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from bidcheck.library.history import LibraryReader, Prefetched
    from bidcheck.progress import CancelFlag
    from bidcheck.semantic import EncodingAhead, SectionSize

__all__ = [
    "OVERLAPS",
    "SIGNALS_AHEAD_MIN_BIDS",
    "enabled",
    "encode_ahead",
    "prefetch_library",
    "preload_beside_reading",
    "preload_encoder",
    "shortlisted",
    "signals_ahead",
]

OVERLAPS = ("encoder", "prefetch", "signals", "vectors")
_OFF = "BIDCHECK_OVERLAPS_OFF"
# Sections from this size on find their signals in a forked process beside the candidates and
# verification (about a second at 100 bids, which the checking process then does not wait for).
SIGNALS_AHEAD_MIN_BIDS = 20


def enabled(name: str) -> bool:
    """Whether the overlap ``name`` (one of ``OVERLAPS``) runs: all do unless ``BIDCHECK_OVERLAPS_OFF``
    names it."""
    return name not in {part.strip() for part in os.environ.get(_OFF, "").split(",")}


def prefetch_library(
    library: LibraryReader, section: str, cached: list[Prepared], stop: threading.Event
) -> Prefetched | None:
    """The library's places of the cached bids' hashes, looked up while the other files are read (a
    bid added to a checked section: the others' lookups cost no time); ``None`` when switched off or
    when the library fails now (it is only looked up again in its stage)."""
    from bidcheck.library.history import prefetch
    from bidcheck.library.store import LibraryError

    bids = [p.ready for p in cached if p.ready is not None and p.ready.doc.role == "bid"]
    if not bids or not enabled("prefetch"):
        return None
    with contextlib.suppress(LibraryError):
        return prefetch(library, bids, section, stop)
    return None


def preload_beside_reading(settings: Settings, bids: Sequence[Path]) -> None:
    """Files are being read afresh (so no stage is remembered): begin loading the sentence encoder
    beside the reading workers when they leave a core spare; else the load only slows the reading
    (2 cores, 2 workers: the read stage took as long again as the semantic stage saved)."""
    from bidcheck.reading import workers_leave_a_core
    from bidcheck.semantic import section_size

    if workers_leave_a_core(settings.worker_count) and not shortlisted(settings, section_size(list(bids))):
        preload_encoder(settings, len(bids))


def shortlisted(settings: Settings, size: SectionSize) -> bool:
    """Whether the shortlist will pick the section's sentences (the encoder then loads beside it)."""
    from bidcheck.semantic import shortlisted as picks

    return picks(size, settings.semantic_max_sentences)


def preload_encoder(settings: Settings, bids: int) -> None:
    """Begin loading the sentence encoder (about a CPU second, else the semantic stage's first) while
    files are read or copies found, when the stage will run on a section of ``bids`` bids. In a section
    whose sentences the shortlist picks, it loads beside the shortlist instead: loaded before, it was
    held through the shortlist's peak, and the verifying workers forked with it (the 30-bid section of
    ``bench.scale``: its peak went from 486 to 752 MB)."""
    from bidcheck.semantic import SectionSize, skip_reason
    from bidcheck.semantic import preload_encoder as load

    if enabled("encoder") and not skip_reason(settings, SectionSize((0,) * bids)):
        load(settings.semantic_encoder)


def signals_ahead(bids: list[Ready], section: SectionInfo, remembered: bool) -> Ahead[SignalsFound] | None:
    """The signals begun in a forked copy of this process, which finds them while this one finds the
    candidates and verifies them (one core of two was idle then); ``None`` where processes are not
    forked, for small sections, when an earlier check ``remembered`` them, or when switched off."""
    settings = section.settings
    if not can_fork() or len(bids) < SIGNALS_AHEAD_MIN_BIDS or not settings.signals_enabled or remembered:
        return None
    if not enabled("signals"):
        return None
    return Ahead(functools.partial(find_signals, bids, section))


def encode_ahead(
    bids: Sequence[Ready],
    masked: Sequence[npt.NDArray[np.bool_]],
    settings: Settings,
    cancel: CancelFlag | None,
) -> EncodingAhead | None:
    """The section's sentences begun encoding beside the verification (``semantic.EncodingAhead``), where
    the semantic stage will encode them all: it runs, and the section is no larger than the shortlist's
    threshold as guessed from its characters (the thread counts its sentences and encodes nothing above
    it). ``None`` when that is not so, or when switched off."""
    from bidcheck.semantic import EncodingAhead, SectionSize, skip_reason

    size = SectionSize(tuple(b.doc.chars for b in bids))
    if not enabled("vectors") or skip_reason(settings, size) or shortlisted(settings, size):
        return None
    limits = (settings.semantic_max_sentences, settings.worker_count)
    return EncodingAhead(bids, masked, settings.semantic_encoder, limits, cancel)
