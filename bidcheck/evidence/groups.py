"""Groups (suspected rings): bidders linked by passages of live shared text."""

from __future__ import annotations

from collections.abc import Sequence

from bidcheck.model import Group, PairResult

__all__ = ["find_groups"]


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
