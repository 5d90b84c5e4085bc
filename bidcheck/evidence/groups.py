"""Groups (suspected rings): bidders linked by passages of live shared text."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from bidcheck.evidence.clauses import clause_like_spans
from bidcheck.model import Group, PairResult, Side

__all__ = ["Ring", "find_groups", "find_rings"]


def find_groups(pairs: Sequence[PairResult]) -> list[Group]:
    """Connected groups of bidders whose pairs reached a warning level, with their live passages."""
    linked = [p for p in pairs if p.level != "none"]
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for pair in linked:
        parent[root(pair.a)] = root(pair.b)
    members: dict[str, list[str]] = {}
    for doc in sorted(parent):
        members.setdefault(root(doc), []).append(doc)
    groups = []
    for docs in members.values():
        inside = [p for p in linked if p.a in docs and p.b in docs]
        live = [q for p in inside for q in p.passages if q.live]
        groups.append(Group(tuple(docs), len(live), sum(q.chars for q in live)))
    return sorted(groups, key=lambda g: (-len(g.members), -g.chars, g.members))


Triple = frozenset[str]


@dataclass(frozen=True)
class Ring:
    """Bidders who share one draft of their own text, each two of them linked."""

    members: frozenset[str]
    letters: int  # the most letters of one member's own text shared with two others at once


def _own_letters(sides: list[Side]) -> npt.NDArray[np.int64]:
    """Running count of a bid's letters that lie outside clause-like sentences (see ``clauses``), over
    its clean text as far as the given sides of its passages reach: only those letters make a ring."""
    own = np.zeros(max(s.end for s in sides), dtype=bool)
    clause = np.zeros_like(own)
    for side in dict.fromkeys(sides):  # a side shared with several partners is read once
        own[side.start : side.end] = [c.isalnum() for c in side.text]
        for lo, hi in clause_like_spans(side.text):
            clause[side.start + lo : side.start + hi] = True
    return np.concatenate(([0], np.cumsum(own & ~clause)))


class _Draft(NamedTuple):
    """What one bid shares with two partners at once: the partners of the largest stretch the three
    share (``holders``, the two among them), the bid's own letters in it and in stretches some of its
    holders share (``letters``: members' disguises align less of a draft), and those that all its
    holders share at once (``whole``)."""

    holders: frozenset[str]
    letters: int
    whole: int


def _shared_in(sides: list[tuple[Side, str]]) -> dict[frozenset[str], _Draft]:
    """In one bid: for each two partners, the draft the bid shares with both at once (see ``_Draft``):
    its own letters that lie in evidence passages with both (a stretch of the bid copied by, or from,
    both), of one draft: those whose partners are the partners of the two's largest such stretch, or
    some of them. A ring's draft is held by the ring throughout (some members' disguises align less of
    it); clauses of a tender nobody gave, each quoted by its own half of the bidders, are held by
    changing company, and two bidders who both quote three of them share no draft."""
    own = _own_letters([s for s, _ in sides])
    cuts = sorted({x for s, _ in sides for x in (s.start, s.end)})
    held: Counter[frozenset[str]] = Counter()  # the bid's letters by the partners holding them
    for lo, hi in itertools.pairwise(cuts):
        partners = frozenset(other for s, other in sides if s.start <= lo and hi <= s.end)
        if len(partners) >= 2:
            held[partners] += int(own[hi] - own[lo])
    shared: dict[frozenset[str], _Draft] = {}
    for two in {frozenset(x) for partners in held for x in itertools.combinations(sorted(partners), 2)}:
        company = [(partners, letters) for partners, letters in held.items() if two <= partners]
        draft = max(company, key=lambda c: (c[1], sorted(c[0])))[0]
        letters = sum(letters for partners, letters in company if partners <= draft)
        shared[two] = _Draft(draft, letters, held[draft])
    return shared


def _ring_triples(pairs: Sequence[PairResult], min_chars: int) -> dict[Triple, int]:
    """Bidders who share a draft (``_Draft``) each two of whom are linked at ``watch`` or ``high`` on
    their own evidence, one of whom has at least ``min_chars`` letters of its own text in evidence
    passages with all the others at once; with its letters (the most of the ring). The ring is every
    holder of the draft, not three of them: text three bids share that others hold too is no three's
    draft (a form every bid fills in, a passage every bid quotes from a tender nobody gave); where a
    holder is not linked with all the others, the three alone."""
    linked = {frozenset((p.a, p.b)) for p in pairs if p.level != "none"}
    sides: dict[str, list[tuple[Side, str]]] = {}
    for pair in (p for p in pairs if p.level != "none"):
        for q in (q for q in pair.passages if q.live):
            sides.setdefault(pair.a, []).append((q.a, pair.b))
            sides.setdefault(pair.b, []).append((q.b, pair.a))
    triples: dict[Triple, int] = {}
    for doc, items in sides.items():
        for two, draft in _shared_in(items).items():
            if draft.whole < min_chars:
                continue
            ring = next((r for r in (draft.holders | {doc}, two | {doc}) if _all_linked(r, linked)), None)
            if ring is not None:
                triples[ring] = max(triples.get(ring, 0), draft.letters)
    return triples


def _all_linked(members: frozenset[str], linked: set[frozenset[str]]) -> bool:
    return all(frozenset(x) in linked for x in itertools.combinations(members, 2))


def find_rings(pairs: Sequence[PairResult], min_chars: int) -> list[Ring]:
    """Rings: bidders who share one draft of their own text, at least ``min_chars`` letters of it held
    by all of them at once, each two of them linked on their own evidence. Standard-clause-like
    sentences are left out of the letters (unrelated bids quote the same model clauses), and a stretch
    shared by two partners of one bid at once is what makes three a ring: two bidders who each copied a
    different part of a third are none. Rings of three that share two members are one ring."""
    rings: list[Ring] = []
    for triple, letters in sorted(_ring_triples(pairs, min_chars).items(), key=lambda t: sorted(t[0])):
        joined = [r for r in rings if len(r.members & triple) >= 2]
        members = frozenset(triple).union(*(r.members for r in joined))
        rings = [r for r in rings if r not in joined]
        rings.append(Ring(members, max([letters, *(r.letters for r in joined)])))
    return sorted(rings, key=lambda r: sorted(r.members))
