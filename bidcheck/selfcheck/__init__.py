"""The bidder's self-check: one bid in (and any reference files), what an agency's check would raise out.

``self_check(inputs, settings, progress, cancel) -> SelfCheckResult`` reads the bid, its references and
the tender through ``pipeline.check`` (worker processes, the cache, the pairwise comparison and judge),
then lists, ordered by what an agency would weigh most: other companies inside the bid (``foreign``),
properties naming someone else (``properties``), concealed text, disguises, comments and tracked
deletions (``concealed``) and what the bid shares with each reference (``shared``).
"""

from __future__ import annotations

import filecmp
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bidcheck.config import Settings
from bidcheck.findings import PARTS, BidderSource, Finding, SelfCheckResult
from bidcheck.ingest import collect_bids
from bidcheck.model import CheckResult, Document
from bidcheck.pipeline import CheckInputs, check
from bidcheck.progress import CancelFlag, ProgressFn, no_progress, slice_progress
from bidcheck.selfcheck.concealed import find_concealed
from bidcheck.selfcheck.foreign import Owner, company_names, find_foreign, foreign_names
from bidcheck.selfcheck.machine import find_machine
from bidcheck.selfcheck.properties import find_properties
from bidcheck.selfcheck.shared import find_shared
from bidcheck.signals.bidders import bidder_of_file, named_in_forms
from bidcheck.signals.identifier import cell_starts, identifiers
from bidcheck.text import CleanText, build_clean_text
from bidcheck.text.staff import staff_values
from bidcheck.words import LEVEL_RANK

__all__ = ["SelfCheckInputs", "self_check"]


@dataclass(frozen=True)
class SelfCheckInputs:
    """One bid, the files it may share text with (references), the tender, and the bidder's name
    (``bidder``; read from the bid's forms, or its file name, when empty)."""

    bid: Path
    references: Sequence[Path] = field(default_factory=tuple)
    tenders: Sequence[Path] = field(default_factory=tuple)
    bidder: str = ""


def _bidder(given: str, text: str, file_name: str) -> tuple[str, BidderSource]:
    """The bidder: as given, else as the bid's forms name it, else the company its text names most
    often (twice at least), else as its file name does."""
    if given.strip():
        return given.strip(), "as"
    named = named_in_forms(text)
    if named:
        return named, "forms"
    counts = Counter(name for name, _start, _end in company_names(text)).most_common(1)
    if counts and counts[0][1] >= 2:
        return counts[0][0], "text"
    return bidder_of_file(file_name), "file"


def _references(inputs: SelfCheckInputs) -> list[Path]:
    """The reference files (folders expanded), less the bid itself (a folder of bids holding it) and
    copies of it byte for byte (a backup kept beside it): a file is no reference against itself; and
    less the tender (a folder of the section's files holding it), which stays the tender."""
    bid = inputs.bid.resolve()
    found = collect_bids(inputs.references, inputs.tenders)
    return [p for p in found if p.resolve() != bid and not _copy_of(p, bid)]


def _copy_of(path: Path, bid: Path) -> bool:
    """Whether ``path`` holds the same bytes as ``bid`` (False when either cannot be read)."""
    try:
        return filecmp.cmp(path, bid, shallow=False)
    except OSError:
        return False


def _owner(bidder: str, tenders: Sequence[Document]) -> Owner:
    texts = [(t, build_clean_text(t)) for t in tenders if t.ok]
    found = [identifiers(clean, cell_starts(t, clean)) for t, clean in texts]
    values = frozenset(v for held in found for values in held.values() for v in values)
    return Owner(bidder, "\n".join(clean.text for _t, clean in texts), values)


def _ordered(findings: list[Finding]) -> tuple[Finding, ...]:
    """By weight: level, then part (``PARTS``' order), then place in the bid."""
    parts = list(PARTS)

    def key(f: Finding) -> tuple[int, int, int, int]:
        page, paragraph = (f.where.page, f.where.paragraph) if f.where else (0, 0)
        return LEVEL_RANK[f.level], parts.index(f.part), page, paragraph

    return tuple(sorted(findings, key=key))


def _findings(
    result: CheckResult, bid: Document, bidder: str, clean: CleanText, settings: Settings
) -> list[Finding]:
    tenders = [d for d in result.documents if d.role != "bid"]
    owner = _owner(bidder, tenders)
    references = [d for d in result.bids if d.id != bid.id]
    others = [n.name for n in foreign_names(clean, owner)]
    others += [named_in_forms(build_clean_text(d).text) or "" for d in references if d.ok]
    names = {d.id: d.name for d in result.documents}
    return [
        *find_foreign(bid, clean, owner),
        *find_properties(bid, owner, [o for o in others if o], clean.text, _people(bid, clean)),
        *find_machine(bid, tenders, settings.machine_whitelist),
        *find_concealed(bid),
        *find_shared(result.pairs, bid.id, names),
    ]


def _people(bid: Document, clean: CleanText) -> list[str]:
    """The people the bid names as its own: after their post in its text, and in its staff tables."""
    named = list(identifiers(clean, cell_starts(bid, clean)).get("person", {}))
    return named + [raw for field, raw, _row in staff_values(bid.compared_blocks()) if field == "person"]


def self_check(
    inputs: SelfCheckInputs,
    settings: Settings | None = None,
    progress: ProgressFn = no_progress,
    cancel: CancelFlag | None = None,
) -> SelfCheckResult:
    """Check one bid as an agency's check would, before it is submitted.

    The bid and its references are checked as one section (the tender's text greyed as always); the
    bid's own findings come from its text and properties. An unreadable bid gives no findings and a
    result that is not ``clean`` (its ``bid.error`` says why).
    """
    started = time.perf_counter()
    settings = settings or Settings()
    folder = inputs.bid.is_dir()  # a bidder's folder: its files are the bid
    files = () if folder else (inputs.bid,)
    section = CheckInputs(
        (*files, *_references(inputs)), tuple(inputs.tenders), (), (inputs.bid,) if folder else ()
    )
    result = check(section, settings, slice_progress(progress, 0.0, 0.97), cancel)
    bid = next(d for d in result.documents if Path(d.path) == inputs.bid) if folder else result.documents[0]
    references = tuple(d for d in result.documents if d.role == "bid" and d.id != bid.id)
    tenders = tuple(d for d in result.documents if d.role != "bid")
    progress(0.97, "自查")
    clean = build_clean_text(bid) if bid.ok else None
    bidder, source = _bidder(inputs.bidder, clean.text if clean else "", bid.name)
    findings = _ordered(_findings(result, bid, bidder, clean, settings)) if clean else ()
    progress(1.0, "完成")
    pairs = tuple(p for p in result.pairs if bid.id in (p.a, p.b))
    return SelfCheckResult(
        bid, bidder, source, findings, references, tenders, pairs, time.perf_counter() - started
    )
