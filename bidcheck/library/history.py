"""A section's bids against the library: the text it has learned is public, and each bid's history
(its text in the bids of earlier sections), found by k-gram hash lookups and verified by positions."""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import distinct
from bidcheck.config import Settings
from bidcheck.fingerprint import fingerprint_text
from bidcheck.fingerprint.kgrams import kgram_hashes
from bidcheck.library.prints import WINDOW, BidPrint, K, bidder_name, ready_print
from bidcheck.library.store import StoredFile
from bidcheck.model import Block, Document, HistoryMatch, HistoryPassage
from bidcheck.ready import Ready
from bidcheck.signals import sign_keys
from bidcheck.text import build_clean_text

__all__ = [
    "Consulted",
    "LibraryReader",
    "Prefetched",
    "consult",
    "high_before",
    "histories",
    "prefetch",
    "template_documents",
]

Mask = npt.NDArray[np.bool_]
POSTINGS_LIMIT = 256  # stored places read per hash: enough to tell public text, and bounded
_MIN_HITS = 3
_MAX_HISTORY = 20  # earlier bids listed per bid
_PREFETCH_CHUNK = 5000  # hashes looked up ahead between two looks at whether to stop
Run = list[tuple[int, int]]  # (position here, position there) of the k-grams of one passage


class LibraryReader(Protocol):
    """What a check reads of the library (``bidcheck.library.store.Library`` is one)."""

    path: Path

    def counts(self, kind: str = "section", besides: str = "") -> tuple[int, int]: ...

    def postings(
        self, hashes: Sequence[int], limit: int, besides: str = ""
    ) -> dict[int, list[tuple[int, int]]]: ...

    def owners(self, file_ids: Sequence[int]) -> dict[int, tuple[str, str]]: ...

    def files(self, ids: Sequence[int]) -> dict[int, StoredFile]: ...

    def high_together(self, bidders: Sequence[str], besides: str) -> dict[frozenset[str], list[str]]: ...

    def template_texts(self) -> list[tuple[str, str]]: ...

    def value_holders(self, values: Sequence[int], besides: str) -> dict[int, tuple[int, int]]: ...


@dataclass(frozen=True)
class Consulted:
    """What the library said about a section's bids, before they are compared."""

    prints: list[BidPrint]
    learned: list[Mask]  # per bid: text the library has learned is public
    hits: list[dict[int, list[tuple[int, int]]]]  # per bid: stored file -> (position here, position there)
    files: dict[int, StoredFile] = field(default_factory=dict)
    high_together: dict[frozenset[str], list[str]] = field(default_factory=dict)
    templates: list[Ready] = field(default_factory=list)
    sections: int = 0
    documents: int = 0
    seen: dict[int, tuple[int, int]] = field(default_factory=dict)  # sign values: bidders, sections elsewhere


def _is_public(
    places: list[tuple[int, int]], owners: Mapping[int, tuple[str, str]], settings: Settings
) -> bool:
    held = [owners[f] for f, _ in places if f in owners]
    bidders = {bidder for _, bidder in held}
    sections = {section for section, _ in held}
    return len(bidders) >= settings.public_min_bidders and len(sections) >= settings.public_min_sections


def _learned_mask(norm: str, public: set[int]) -> Mask:
    """The characters of a text inside k-grams the library has learned are public, with gaps shorter
    than a winnowing window closed (winnowing keeps one k-gram in every window, not each)."""
    mask = np.zeros(len(norm), dtype=bool)
    if not public or len(norm) < K:
        return mask
    hashes = kgram_hashes(norm, K).view(np.int64)
    starts = np.flatnonzero(np.isin(hashes, np.fromiter(public, dtype=np.int64)))
    for s in starts.tolist():
        mask[s : s + K] = True
    if len(starts) > 1:
        for a, b in zip(starts[:-1].tolist(), starts[1:].tolist(), strict=True):
            if a + K < b <= a + K + WINDOW:
                mask[a + K : b] = True
    return mask


@dataclass(frozen=True)
class Prefetched:
    """Hashes looked up in the library ahead of ``consult`` (``prefetch``), sorted, and their places."""

    asked: npt.NDArray[np.int64]
    postings: dict[int, list[tuple[int, int]]]


def _wanted(prints: Sequence[BidPrint]) -> npt.NDArray[np.int64]:
    """The distinct winnowed k-gram hashes of the bids, sorted."""
    return distinct(np.concatenate([np.zeros(0, np.int64), *(p.hashes for p in prints)]))


def prefetch(
    library: LibraryReader, bids: Sequence[Ready], section: str, stop: threading.Event
) -> Prefetched:
    """The library's places of the bids' hashes (as ``consult`` looks them up), looked up ahead: the
    bids already read while the others are read in worker processes. Looks no further once ``stop``
    is set; ``consult`` then looks up the rest."""
    wanted = _wanted([ready_print(b) for b in bids])
    asked: list[npt.NDArray[np.int64]] = [np.zeros(0, np.int64)]
    postings: dict[int, list[tuple[int, int]]] = {}
    for start in range(0, len(wanted), _PREFETCH_CHUNK):
        if stop.is_set():
            break
        chunk = wanted[start : start + _PREFETCH_CHUNK]
        postings.update(library.postings(chunk.tolist(), POSTINGS_LIMIT, section))
        asked.append(chunk)
    return Prefetched(np.concatenate(asked), postings)


def _postings(
    library: LibraryReader, wanted: npt.NDArray[np.int64], section: str, known: Prefetched | None
) -> dict[int, list[tuple[int, int]]]:
    """The places of the hashes ``wanted``: those ``known`` already, the others looked up now."""
    if known is None:
        return library.postings(wanted.tolist(), POSTINGS_LIMIT, section)
    rest = np.setdiff1d(wanted, known.asked, assume_unique=True)
    return {**known.postings, **library.postings(rest.tolist(), POSTINGS_LIMIT, section)}


def consult(
    library: LibraryReader,
    bids: Sequence[Ready],
    section: str,
    settings: Settings,
    known: Prefetched | None = None,
) -> Consulted:
    """Look every bid's winnowed k-grams up in the library: which are public, and where the others
    were found in earlier sections' bids (``section`` itself, when re-checked, is left out); and how
    many bidders of other sections hold the values of the bids' signs. ``known``: hashes some of the
    bids hold, looked up ahead (``prefetch``)."""
    prints = [ready_print(b) for b in bids]
    postings = _postings(library, _wanted(prints), section, known)
    stored = library.owners(sorted({f for places in postings.values() for f, _ in places}))
    owners = {f: owner for f, owner in stored.items() if not section or owner[0] != section}
    public = {h for h, places in postings.items() if _is_public(places, owners, settings)}
    elsewhere = _elsewhere(postings, owners, public)
    hits = [_hits(p, elsewhere) for p in prints]
    bidders = [bidder_name(b.doc.name) for b in bids]
    sections, documents = library.counts(besides=section)
    values = sorted({v for b in bids for v in sign_keys(b)}) if settings.signals_enabled else []
    return Consulted(
        prints,
        [_learned_mask(b.clean.norm, public) for b in bids],
        hits,
        library.files(sorted({f for h in hits for f in h})),
        library.high_together(bidders, section),
        template_documents(library, settings),
        sections,
        documents,
        library.value_holders(values, section),
    )


def _elsewhere(
    postings: Mapping[int, list[tuple[int, int]]], owners: Mapping[int, object], public: set[int]
) -> dict[int, list[tuple[int, int]]]:
    """The places of each hash in the files of other sections (``owners``), public hashes left out."""
    out = {h: [(f, o) for f, o in places if f in owners] for h, places in postings.items() if h not in public}
    return {h: places for h, places in out.items() if places}


def _hits(p: BidPrint, elsewhere: Mapping[int, list[tuple[int, int]]]) -> dict[int, list[tuple[int, int]]]:
    """By file of another section: (position in the bid, position there) of each hash both hold, in the
    bid's order. Only the bid's hashes found elsewhere are walked (a section checked again, or with a
    bid more, finds its own bids' places in the library, and those are left out)."""
    known = np.fromiter(elsewhere, dtype=np.int64, count=len(elsewhere))
    at = np.flatnonzero(np.isin(p.hashes, known, kind="sort")) if len(known) else np.zeros(0, np.intp)
    found: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for h, pos in zip(p.hashes[at].tolist(), p.positions[at].tolist(), strict=True):
        for file_id, other in elsewhere[h]:
            found[file_id].append((pos, other))
    return dict(found)


def template_documents(library: LibraryReader, settings: Settings) -> list[Ready]:
    """The model documents kept in the library, ready to act as templates."""
    out = []
    for n, (name, blocks_json) in enumerate(library.template_texts(), start=1):
        rows = json.loads(blocks_json)
        blocks = tuple(Block(text, kind, page, paragraph) for text, kind, page, paragraph in rows)
        doc = Document(f"L{n}", name, name, "library", blocks=blocks, role="template")
        clean = build_clean_text(doc)
        if len(clean.norm) >= settings.seed_chars:
            out.append(Ready(doc, clean, fingerprint_text(clean.norm, settings)))
    return out


def _chains(
    places: list[tuple[int, int]], paragraphs: npt.NDArray[np.int32], settings: Settings
) -> list[Run]:
    """Hits of one stored bid grouped into runs that move forward together on both sides (gaps no
    longer than a window and ``max_gap_chars``, jumps no longer than ``max_jump_chars``), one
    paragraph of this bid at a time (``paragraphs``: where its paragraphs start)."""
    runs: list[Run] = []
    gap = settings.max_gap_chars + WINDOW + K
    last_paragraph = -1
    for new, old in sorted(places):
        paragraph = int(np.searchsorted(paragraphs, new, "right"))
        run = runs[-1] if runs and paragraph == last_paragraph else None
        last_paragraph = paragraph
        if run is not None and new == run[-1][0]:
            continue
        step = new - run[-1][0] if run is not None else gap + 1
        if run is not None and step <= gap and abs(old - run[-1][1] - step) <= settings.max_jump_chars:
            run.append((new, old))
        else:
            runs.append([(new, old)])
    return [r for r in runs if len(r) >= _MIN_HITS]


def _length(run: Run) -> int:
    """Comparable characters of this bid the run spans."""
    return run[-1][0] + K - run[0][0]


def _history_passage(run: Run, bid: Ready, other: StoredFile) -> HistoryPassage:
    clean = bid.clean
    start, end = run[0][0], run[-1][0] + K
    low, high = clean.clean_span(start, min(end, len(clean.norm)))
    page, paragraph = clean.locate(low)
    old_start = min(o for _, o in run)
    old_end = max(o for _, o in run) + K
    other_page, other_paragraph = other.print.place(old_start)
    other_text = other.text[old_start:old_end] if other.text else None
    return HistoryPassage(page, paragraph, clean.text[low:high], other_page, other_paragraph, other_text)


def histories(
    consulted: Consulted, bids: Sequence[Ready], masked: Sequence[Mask], settings: Settings
) -> dict[str, tuple[HistoryMatch, ...]]:
    """Each bid's history: the earlier bids holding its text (tender, template and public text left
    out, ``masked``), passage by passage with page and paragraph on both sides."""
    out: dict[str, tuple[HistoryMatch, ...]] = {}
    shortest = settings.min_passage_chars
    for n, bid in enumerate(bids):
        bidder = bidder_name(bid.doc.name)
        starts = consulted.prints[n].places[:, 0]
        matches = []
        for file_id, places in consulted.hits[n].items():
            other = consulted.files.get(file_id)
            kept = [(p, o) for p, o in places if masked[n][p : p + K].mean() < settings.template_share]
            runs = [r for r in _chains(kept, starts, settings) if _length(r) >= shortest]
            if other is None or not runs:
                continue
            chars = sum(_length(r) for r in runs)
            matches.append(
                HistoryMatch(
                    other.section,
                    other.name,
                    other.bidder,
                    chars,
                    round(chars / max(len(bid.clean.norm), 1), 4),
                    other.bidder == bidder,
                    tuple(_history_passage(r, bid, other) for r in runs),
                )
            )
        matches.sort(key=lambda m: (-m.chars, m.section, m.document))
        out[bid.doc.id] = tuple(matches[:_MAX_HISTORY])
    return out


def high_before(consulted: Consulted, bids: Sequence[Ready]) -> dict[tuple[str, str], list[str]]:
    """By pair of bid ids (in id order): the library's sections where the two bidders were ``high``
    together (``Consulted.high_together``)."""
    ids = [(b.doc.id, bidder_name(b.doc.name)) for b in bids]
    return {
        (a, b): sections
        for n, (a, x) in enumerate(ids)
        for b, y in ids[n + 1 :]
        if (sections := consulted.high_together.get(frozenset((x, y)), [])) and x != y
    }
