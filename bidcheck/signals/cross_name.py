"""One bidder's name in another's bid (混装): a bid prepared from, or together with, another's.

Each bid's bidder comes from its filled-in forms or its file name (``bidders.bidder_of``); every other
bidder's full name, or its distinctive core (恒信市政), found in a bid's text is a strong signal,
located in the bid holding it and, on the other side, where that bidder's own forms name it. Names the
tender holds (the owner, the agency, a bidder the tender happens to name) and names most bids hold (a
well-known firm every bid cites) are no sign.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bidcheck.model import Signal
from bidcheck.ready import Ready
from bidcheck.signals.base import Linked, SectionInfo, longest_first, most_holders, place_of
from bidcheck.signals.bidders import bidders_of, core_name

__all__ = ["find"]


def _terms(bidders: Sequence[str], tender_text: str) -> dict[str, int]:
    """What to look for: each bidder's full name and core, to the bidder's index; a term two bidders
    share, or the tender holds, is left out."""
    terms: dict[str, int] = {}
    clash: set[str] = set()
    for index, full in enumerate(bidders):
        for term in {full, core_name(full)} - {""}:
            if len(term) < 4 or term in tender_text:
                continue
            if term in terms and terms[term] != index:
                clash.add(term)
            terms[term] = index
    return {t: i for t, i in terms.items() if t not in clash}


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked]:
    """Pairs where one bid names the other's bidder: one signal per pair and direction, at the first
    place the name stands. One regular expression of every name, run once over each bid."""
    bidders = bidders_of(bids)
    terms = _terms(bidders, "\n".join(t.clean.text for t in section.tenders))
    if not terms:
        return []
    pattern = re.compile(longest_first(terms))
    hits: dict[int, list[tuple[int, re.Match[str]]]] = {}  # named bidder -> (bid naming it, where)
    for i, bid in enumerate(bids):
        seen: set[int] = set()
        for match in pattern.finditer(bid.clean.text):
            j = terms[match.group()]
            if j == i or j in seen or bidders[j] == bidders[i] or match.group() in bidders[i]:
                continue
            seen.add(j)
            hits.setdefault(j, []).append((i, match))
    most = most_holders(len(bids), section.settings)
    return [
        Linked(
            bids[i].doc.id, bids[j].doc.id, _signal(bids[i], bids[j], bidders[j], match, len(named_by) + 1)
        )
        for j, named_by in sorted(hits.items())
        if len(named_by) + 1 <= most  # a name many other bids hold is the section's (a well-known firm)
        for i, match in named_by
    ]


def _signal(holder: Ready, named: Ready, bidder: str, match: re.Match[str], holders: int) -> Signal:
    own = named.clean.text.find(bidder)
    where = place_of(named.clean, own, own + len(bidder)) if own >= 0 else None
    here = place_of(holder.clean, match.start(), match.end())
    detail = f"{holder.doc.name} 中出现另一投标人“{bidder}”的名称（“{match.group()}”，第 {here.page} 页）"
    return Signal("cross_name", "strong", "bidder", bidder, detail, here, where, holders)
