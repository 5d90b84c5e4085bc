"""Concealed text one bid shares with another: a paragraph hidden in one bid (Word's hidden text, white or
2-pt type, a PDF's invisible or off-page text) that another bid holds, or a sentence disguised with
zero-width characters or look-alike letters that another bid holds (folded: the disguise cannot break
the match). Hiding copied text from the reader, or disguising it from a checker, is a strong sign.

The readers find the concealment of each file (``Document.concealed``, see ``bidcheck.text.concealed``);
``concealed_in`` gives them for one file, for a bidder checking its own bid before it is sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bidcheck.ingest import read_document
from bidcheck.model import Concealed, Place, Signal
from bidcheck.ready import Ready
from bidcheck.signals.base import Linked, SectionInfo, most_holders, place_of
from bidcheck.text import clean_document, normalize
from bidcheck.words import CONCEALED_KINDS

__all__ = ["concealed_in", "find"]

_SHOWN = frozenset({"inserted"})  # text the printed bid shows: compared as its text, no concealment
_MIN_CHARS = 12  # comparable characters concealed text needs before its match in another bid means much


def concealed_in(path: Path) -> tuple[Concealed, ...]:
    """The concealed text and disguises of one file (hidden, white, tiny, invisible, off-page text;
    zero-width characters and look-alike letters inside words), each with its page and paragraph;
    none for a file that cannot be read."""
    doc = read_document(path, "d1")
    return clean_document(doc).concealed if doc.ok else ()


def _probes(bid: Ready, tender_norms: list[str]) -> list[tuple[Concealed, str]]:
    """A bid's findings worth looking for elsewhere, with their comparable text: long enough, and not
    the tender's."""
    out = []
    for finding in bid.doc.concealed:
        if finding.kind in _SHOWN:
            continue
        norm = normalize(finding.text)[0]
        if len(norm) >= _MIN_CHARS and not any(norm in t for t in tender_norms):
            out.append((finding, norm))
    return out


def _signal(owner: Ready, finding: Concealed, there: Place, other_first: bool, holders: int) -> Signal:
    word = CONCEALED_KINDS.get(finding.kind, finding.kind)
    detail = (
        f"“{owner.doc.name}”第 {finding.page} 页第 {finding.paragraph} 段的{word}"
        f"“{finding.text[:40]}”在另一份文件第 {there.page} 页第 {there.paragraph} 段同样出现"
    )
    here = Place(finding.page, finding.paragraph, finding.text)
    a, b = (there, here) if other_first else (here, there)
    return Signal("concealed", "strong", finding.kind, finding.text, detail, a, b, holders)


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked]:
    """Pairs where one bid's concealed or disguised text stands in the other (and in neither the tender
    nor most bids): one strong signal a finding, located on both sides."""
    tender_norms = [t.clean.norm for t in section.tenders]
    most = most_holders(len(bids), section.settings)
    out: list[Linked] = []
    for i, bid in enumerate(bids):
        for finding, norm in _probes(bid, tender_norms):
            holders = [j for j, other in enumerate(bids) if j != i and norm in other.clean.norm]
            if not holders or len(holders) + 1 > most:
                continue
            for j in holders:
                at = bids[j].clean.norm.find(norm)
                start, end = bids[j].clean.clean_span(at, at + len(norm))
                signal = _signal(bid, finding, place_of(bids[j].clean, start, end), j < i, len(holders) + 1)
                first, second = sorted((i, j))
                out.append(Linked(bids[first].doc.id, bids[second].doc.id, signal))
    return out
