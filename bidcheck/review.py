"""The panel's marks on pairs (待定 / 已核实 / 已排除, with a note): made in the app, saved with the
check, kept through a re-check (a pair is named by its two documents' paths, not by the run's ids: two
bidders' files of one name in two folders are two documents), and carried
into the workbook and the dossier, whose 已核实-only form holds the confirmed findings alone."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bidcheck.model import CheckResult, PairResult
from bidcheck.text.chars import replace_unsafe

__all__ = [
    "REVIEW_STATES",
    "Review",
    "Reviews",
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


def pair_key(a: str, b: str) -> str:
    """A pair as its two documents' paths, in either order (the same pair after a re-check)."""
    return "\0".join(sorted((a, b)))


def review_of(reviews: Reviews, result: CheckResult, pair: PairResult) -> Review | None:
    """The mark on a pair of a result, if the panel made one."""
    paths = {d.id: d.path for d in result.documents}
    return reviews.get(pair_key(paths[pair.a], paths[pair.b]))


def reviews_to_dict(reviews: Reviews) -> list[dict[str, Any]]:
    """The marks as JSON: each with its pair's two names."""
    return [
        {"pair": key.split("\0"), "state": r.state, "note": r.note}
        for key, r in sorted(reviews.items())
        if r.state != "pending" or r.note
    ]


def reviews_from_dict(data: object) -> dict[str, Review]:
    """The marks from JSON (an unknown state is read as 待定; a damaged entry is left out)."""
    out: dict[str, Review] = {}
    for item in data if isinstance(data, list) else []:
        try:
            a, b = item["pair"]
            state = item.get("state", "pending")
            note = replace_unsafe(str(item.get("note", "")))  # a damaged file's control characters
            out[pair_key(str(a), str(b))] = Review(state if state in REVIEW_STATES else "pending", note)
        except (KeyError, TypeError, ValueError):
            continue
    return out
