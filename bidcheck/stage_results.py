"""What a check's stages make, one typed result a stage (``bidcheck.pipeline``): each stage is a
function of what the check was given and of the results of the stages it reads, and returns its own;
``Run`` holds them as the table runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from bidcheck.config import Settings
from bidcheck.model import BillShare, Group, HistoryMatch, PairResult, PricePattern
from bidcheck.progress import CancelFlag
from bidcheck.reading import Job
from bidcheck.ready import Prepared, Ready

if TYPE_CHECKING:
    from bidcheck.compare import AlignInput
    from bidcheck.compare.candidates import WindowPairs
    from bidcheck.compare.runner import PairFound
    from bidcheck.evidence.masks import SharedMasks
    from bidcheck.library.history import Consulted, LibraryReader, Prefetched
    from bidcheck.semantic import EncodingAhead, SemanticPassage
    from bidcheck.signals import SignalsFound
    from bidcheck.workers import Ahead

__all__ = ["Candidates", "Given", "LibrarySaid", "Read", "Rewritten", "Run", "Signs", "Verdicts", "Verified"]


class Stoppable(Protocol):
    def stop(self) -> None: ...


@dataclass(frozen=True)
class Given:
    """What the check is given (no stage changes it), and ``begun``: what a stage began ahead of the
    stage that takes it (a process, a thread), stopped at the check's end if that stage did not run."""

    settings: Settings
    cancel: CancelFlag | None
    jobs: list[Job]
    duplicates: list[tuple[str, str]]  # files given again: each with why it is not read twice
    library: LibraryReader | None
    section: str
    while_reading: Callable[[], None]  # see ``check``
    begun: list[Stoppable] = field(default_factory=list)


@dataclass(frozen=True)
class Read:
    """The read stage's: every document as read, the bids and the tender and template documents that
    could be read, and the library's places of the cached bids' hashes, looked up meanwhile."""

    prepared: list[Prepared]
    bids: list[Ready]
    templates: list[Ready]
    prefetched: Prefetched | None = None


@dataclass(frozen=True)
class LibrarySaid:
    """The library stage's: what the library said of the bids, or why it could not be read."""

    consulted: Consulted | None = None
    error: str | None = None


@dataclass(frozen=True)
class Candidates:
    """The candidate stage's: the one key of what the later stages start from ("": not remembered; see
    ``memo.stages``), the masks of text that is no evidence, the candidate window pairs, what
    verification reads of each bid, and the signals begun in a forked copy (``overlaps.signals_ahead``)."""

    key: str
    masks: SharedMasks
    candidates: WindowPairs
    aligned: list[AlignInput]
    signals_ahead: Ahead[SignalsFound] | None


@dataclass(frozen=True)
class Verified:
    """The verification's: what each pair with candidates shares, and the sentences begun encoding
    beside it (``overlaps.encode_ahead``)."""

    found: dict[tuple[int, int], PairFound]
    encoding_ahead: EncodingAhead | None


@dataclass(frozen=True)
class Rewritten:
    """The semantic stage's: each pair's rewritten passages, or why the stage did not run."""

    rewritten: dict[tuple[int, int], list[SemanticPassage]] = field(default_factory=dict)
    note: str = ""  # "" when it ran


@dataclass(frozen=True)
class Signs:
    """The signals stage's: the signs beyond shared wording, and the patterns of the section's prices."""

    signals: SignalsFound
    price_patterns: tuple[PricePattern, ...] = ()
    bill_shares: tuple[BillShare, ...] = ()


@dataclass(frozen=True)
class Verdicts:
    """The judging stage's: every pair with its level, ranked, and the groups."""

    pairs: list[PairResult]
    groups: list[Group]


@dataclass
class Run:
    """One check: what it was given, and what each stage made (``None`` until the stage ran)."""

    given: Given
    read: Read | None = None
    library: LibrarySaid = field(default_factory=LibrarySaid)
    candidates: Candidates | None = None
    verified: Verified | None = None
    rewritten: Rewritten = field(default_factory=Rewritten)
    signs: Signs | None = None
    verdicts: Verdicts | None = None
    history: dict[str, tuple[HistoryMatch, ...]] = field(default_factory=dict)
