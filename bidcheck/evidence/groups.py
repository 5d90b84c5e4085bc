"""Groups (suspected rings): bidders linked by passages of live shared text."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

from bidcheck.model import Group, PairResult

__all__ = ["find_groups", "raise_rings"]


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


def _shared_drafts(pairs: Sequence[PairResult], min_chars: int) -> list[frozenset[str]]:
    """Sets of three or more bidders who share one stretch of evidence text: in some bid, a stretch of
    at least ``min_chars`` lies in evidence passages with two or more other bids at once."""
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for pair in pairs:
        for q in pair.passages:
            if q.live:
                spans.setdefault(pair.a, []).append((q.a.start, q.a.end, pair.b))
                spans.setdefault(pair.b, []).append((q.b.start, q.b.end, pair.a))
    drafts: set[frozenset[str]] = set()
    for doc, items in spans.items():
        drafts.update(_drafts_in(doc, items, min_chars))
    return sorted(drafts, key=sorted)


def _drafts_in(doc: str, items: list[tuple[int, int, str]], min_chars: int) -> set[frozenset[str]]:
    """In one bid: the sets of partners that together cover a stretch of at least ``min_chars``."""
    cuts = sorted({x for s, e, _ in items for x in (s, e)})
    found: set[frozenset[str]] = set()
    current: frozenset[str] = frozenset()
    length = 0
    for lo, hi in itertools.pairwise(cuts):
        partners = frozenset(other for s, e, other in items if s <= lo and hi <= e)
        length = length + hi - lo if partners == current else hi - lo
        current = partners
        if len(partners) >= 2 and length >= min_chars:
            found.add(partners | {doc})
    return found


def raise_rings(pairs: Sequence[PairResult], names: dict[str, str], min_chars: int) -> list[PairResult]:
    """Pairs at ``watch`` whose two bidders belong to a ring are raised to ``high``: panels judge rings, and
    every member of a ring is as suspect as its closest pair. A ring is a shared draft (see
    ``_shared_drafts``) each two of whose members are linked at ``watch`` or ``high``; two bidders who
    each copied a different part of a third are no ring. The pairs keep their order."""
    linked = {frozenset((p.a, p.b)) for p in pairs if p.level != "none"}
    drafts = [
        d
        for d in _shared_drafts(pairs, min_chars)
        if all(frozenset(x) in linked for x in itertools.combinations(d, 2))
    ]
    out = []
    for pair in pairs:
        ring = next((d for d in drafts if pair.a in d and pair.b in d), None)
        if pair.level == "watch" and ring is not None:
            members = "、".join(names[m] for m in names if m in ring)
            reason = f"一级预警：疑似串标组（{members}）共用同一段文字；{pair.reason}"
            pair = replace(pair, level="high", reason=reason)
        out.append(pair)
    return out
