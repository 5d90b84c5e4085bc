"""The panel's marks on pairs and groups (待定 / 已核实 / 已排除, with a note): made in the app, saved
with the check, kept through a re-check (a pair is named by its two documents' paths, not by the run's
ids: two bidders' files of one name in two folders are two documents; a group by its members' paths, so
a re-check that finds the same ring keeps its mark and one that finds another ring starts it afresh),
and carried into the workbook and the dossier, whose 已核实-only form holds the confirmed findings alone."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bidcheck.model import CheckResult, Group, PairResult
from bidcheck.text.chars import replace_unsafe

__all__ = [
    "REVIEW_STATES",
    "Review",
    "Reviews",
    "group_key",
    "group_review_of",
    "pair_key",
    "review_of",
    "reviews_from_dict",
    "reviews_to_dict",
]

State = Literal["pending", "confirmed", "excluded"]
REVIEW_STATES: dict[str, str] = {"pending": "待定", "confirmed": "已核实", "excluded": "已排除"}


@dataclass(frozen=True)
class Review:
    """A panel's mark on a pair and its note."""

    state: State = "pending"
    note: str = ""


Reviews = Mapping[str, Review]
_GROUP = "group\0"  # a group's key begins so; a pair's key is a path, which cannot hold "\0"


def pair_key(a: str, b: str) -> str:
    """A pair as its two documents' paths, in either order (the same pair after a re-check)."""
    return "\0".join(sorted((a, b)))


def group_key(paths: Iterable[str]) -> str:
    """A group as its members' paths, in any order (never equal to a pair's key)."""
    return _GROUP + "\0".join(sorted(paths))


def group_review_of(reviews: Reviews, result: CheckResult, group: Group) -> Review | None:
    """The mark on a group of a result, if the panel made one."""
    paths = {d.id: d.path for d in result.documents}
    return reviews.get(group_key(paths[m] for m in group.members))


def review_of(reviews: Reviews, result: CheckResult, pair: PairResult) -> Review | None:
    """The mark on a pair of a result, if the panel made one."""
    paths = {d.id: d.path for d in result.documents}
    return reviews.get(pair_key(paths[pair.a], paths[pair.b]))


def reviews_to_dict(reviews: Reviews) -> list[dict[str, Any]]:
    """The marks as JSON: each with its pair's two paths or its group's members' paths."""
    return [
        {"group": key.removeprefix(_GROUP).split("\0")} | {"state": r.state, "note": r.note}
        if key.startswith(_GROUP)
        else {"pair": key.split("\0"), "state": r.state, "note": r.note}
        for key, r in sorted(reviews.items())
        if r.state != "pending" or r.note
    ]


def reviews_from_dict(data: object) -> dict[str, Review]:
    """The marks from JSON (an unknown state is read as 待定; a damaged entry is left out)."""
    out: dict[str, Review] = {}
    for item in data if isinstance(data, list) else []:
        try:
            key = _key_of(item)
            state = item.get("state", "pending")
            note = replace_unsafe(str(item.get("note", "")))  # a damaged file's control characters
            out[key] = Review(state if state in REVIEW_STATES else "pending", note)
        except (AttributeError, KeyError, TypeError, ValueError):
            continue
    return out


def _key_of(item: Any) -> str:
    """The key of a saved mark: a group's (two members or more) or a pair's."""
    if "group" in item:
        if not isinstance(item["group"], list):
            raise TypeError("a group's members are a list")
        members = [str(m) for m in item["group"]]
        if len(members) < 2 or not all(members):
            raise ValueError("a group of fewer than two")
        return group_key(members)
    a, b = item["pair"]
    return pair_key(str(a), str(b))
