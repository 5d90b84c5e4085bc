"""What every finder of signals shares: the section it looks at, values held by few bids, and how a
value's weight falls with the number of bids holding it."""

from __future__ import annotations

import bisect
import hashlib
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from bidcheck.config import Settings
from bidcheck.model import Block, Document, Place, PublicValue, Signal
from bidcheck.ready import Ready
from bidcheck.text import CleanText
from bidcheck.text.tables import TableRow

__all__ = [
    "BILL_FORMATS",
    "CHANCE_PAIRS",
    "WORD_FORMATS",
    "Held",
    "Linked",
    "SectionInfo",
    "held_by_few",
    "longest_first",
    "most_holders",
    "place_of",
    "public_values",
    "row_place",
    "seen_elsewhere",
    "text_table_blocks",
    "value_key",
    "weighed",
]

_PLACE_CHARS = 120  # the wording of a place: its paragraph, or this much of it around the value
# A ring of 陪标 is a few bidders: three hold a value as a ring does; a fourth makes it likelier the
# section's (a contact many quote), so a value held by more bids than this is a supporting sign at most.
RING_BIDS = 3
# Chance grows with the section: pairs of it each sharing one value of a kind that coincides by chance
# (a slip of sound, a staff name) beyond which one such value is what chance gives there, no sign.
CHANCE_PAIRS = 2


class Linked(NamedTuple):
    """A signal two bids share: the bids' ids (in the section's order) and the signal."""

    a: str
    b: str
    signal: Signal


@dataclass(frozen=True)
class SectionInfo:
    """What a finder knows of the section beyond its bids: the tender and template documents (what
    every bidder was handed is no sign of anything), the settings, and ``seen``: by ``value_key``, how
    many bidders and sections of the library's other sections hold a value."""

    tenders: Sequence[Ready]
    settings: Settings
    seen: Mapping[int, tuple[int, int]] = field(default_factory=dict)

    def seen_by_many(self, field_name: str, value: str) -> int:
        """The bidders of other sections holding a value, when as many and in as many sections as make
        text public (``public_min_bidders``, ``public_min_sections``); else 0."""
        bidders, sections = self.seen.get(value_key(field_name, value), (0, 0))
        settings = self.settings
        return (
            bidders
            if bidders >= settings.public_min_bidders and sections >= settings.public_min_sections
            else 0
        )


BILL_FORMATS = frozenset({"xml", "xlsx"})  # files whose tables are a priced bill (``signals.bills``)
WORD_FORMATS = frozenset({"docx", "doc", "wps", "rtf"})  # files that carry Word's and WPS's ids


def text_table_blocks(doc: Document) -> list[Block]:
    """A document's compared blocks less those of its priced bills (an XML or Excel bill is compared
    item by item, ``signals.bills``; its rows read again as text tables would say it twice)."""
    if doc.format in BILL_FORMATS:
        return []
    bills = [(p.first_page, p.first_page + p.pages) for p in doc.parts if p.format in BILL_FORMATS]
    return [b for b in doc.compared_blocks() if not any(start <= b.page < end for start, end in bills)]


def value_key(field_name: str, value: str) -> int:
    """A sign's value as the library keeps it: 64 bits of its hash, signed (the value is never kept)."""
    text = f"{field_name}\0{value}".encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little", signed=True)


class Held(NamedTuple):
    """The values of a section's bids by how many hold them: ``few``, each value 2 to ``most_holders``
    bids hold, with those bids in order; ``many``, each value more bids hold, with their count."""

    few: dict[str, list[int]]
    many: dict[str, int]


def most_holders(bids: int, settings: Settings) -> int:
    """The most bids of a section of ``bids`` that may hold a value for it to tie them: at most
    ``signal_max_holders`` (rings are a few bidders; a value a third of the section holds is the
    section's), and fewer than ``signal_common_share`` of the bids when more than two hold it (a 3-bid
    section's two colluders are still a pair)."""
    return min(settings.signal_max_holders, max(3, math.ceil(settings.signal_common_share * bids)) - 1)


def held_by_few(values: Sequence[Iterable[str]], excluded: set[str], settings: Settings) -> Held:
    """The values two or more bids hold (``values[i]``: bid ``i``'s), split by ``most_holders`` into
    those few bids hold and those many hold; left out are the ``excluded`` values (the tender's,
    generic ones). One pass over the values through a dict: never a loop over pairs."""
    holders: dict[str, list[int]] = {}
    for index, held in enumerate(values):
        for value in set(held):
            if value not in excluded:
                holders.setdefault(value, []).append(index)
    most = most_holders(len(values), settings)
    ordered = sorted(holders.items())
    return Held(
        {v: docs for v, docs in ordered if 2 <= len(docs) <= most},
        {v: len(docs) for v, docs in ordered if len(docs) > most},
    )


def public_values(kind: str, field_name: str, many: dict[str, int]) -> list[PublicValue]:
    """The values many bids hold (``Held.many``) as the section's public values of a finder's field."""
    return [PublicValue(kind, field_name, value, count) for value, count in many.items()]


def seen_elsewhere(
    kind: str, field_name: str, few: dict[str, list[int]], section: SectionInfo
) -> tuple[dict[str, list[int]], list[PublicValue]]:
    """``Held.few`` split by the library: the values that still tie the bids holding them, and those
    that bidders of other sections hold (``SectionInfo.seen_by_many``), as the world's public values."""
    kept: dict[str, list[int]] = {}
    public: list[PublicValue] = []
    for value, docs in few.items():
        if elsewhere := section.seen_by_many(field_name, value):
            public.append(PublicValue(kind, field_name, value, len(docs), elsewhere))
        else:
            kept[value] = docs
    return kept, public


def weighed(signal: Signal) -> Signal:
    """A signal as strong as the number of bids holding its value allows: a value more than
    ``RING_BIDS`` hold is a supporting sign at most, its detail saying how many hold it."""
    if signal.holders <= RING_BIDS:
        return signal
    detail = f"{signal.detail}；此值 {signal.holders} 份投标文件共有，仅作辅助迹象"
    return replace(signal, strength="supporting", detail=detail)


def place_of(clean: CleanText, start: int, end: int) -> Place:
    """The page, paragraph and wording (around the value, at most ``_PLACE_CHARS``) of a span of a
    document's clean text."""
    page, paragraph = clean.locate(start)
    index = max(bisect.bisect_right(clean.block_starts, start) - 1, 0)
    block_start = clean.block_starts[index] if clean.block_starts else 0
    block_end = clean.block_starts[index + 1] if index + 1 < len(clean.block_starts) else len(clean.text)
    lo = max(block_start, min(start - _PLACE_CHARS // 3, block_end - _PLACE_CHARS))
    text = clean.text[lo : min(block_end, lo + _PLACE_CHARS)].strip()
    return Place(page, paragraph, text)


def row_place(row: TableRow, joiner: str) -> Place:
    """Where a table row stands (the page and paragraph of its first cell), its cells as its wording
    (joined by ``joiner``, at most ``_PLACE_CHARS``)."""
    return Place(row.page, row.paragraph, joiner.join(c.text for c in row.cells)[:_PLACE_CHARS])


Trie = dict[str, "Trie"]


def longest_first(terms: Iterable[str]) -> str:
    """A regular expression of the terms that matches, where several start, the longest (as their
    alternation longest first does), written as a tree of their shared beginnings: each place of a
    text tries a character or two, not every term. ``terms``: one at least (none matches everywhere)."""
    trie: Trie = {}
    for term in terms:
        node = trie
        for char in term:
            node = node.setdefault(char, {})
        node[""] = {}  # a term ends here
    return _branches(trie)


def _branches(node: Trie) -> str:
    """The expression of a tree's node: its longer continuations first, then its end if a term ends."""
    kids = [re.escape(char) + _branches(below) for char, below in sorted(node.items()) if char]
    if not kids:
        return ""
    body = kids[0] if len(kids) == 1 else "(?:" + "|".join(kids) + ")"
    return f"(?:{body})?" if "" in node else body
