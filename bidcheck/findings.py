"""A bidder's self-check of its own bid (``bidcheck selfcheck``): what an agency's check would raise
against it, as findings to fix, and their JSON form (``bidcheck.selfcheck/1``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from bidcheck.model import (
    Document,
    Level,
    PairResult,
    Place,
    document_to_dict,
    pair_figures_to_dict,
    side_to_dict,
)

__all__ = [
    "PARTS",
    "SCHEMA",
    "BidderSource",
    "Finding",
    "Part",
    "SelfCheckResult",
    "finding_to_dict",
    "self_check_to_dict",
]

SCHEMA = "bidcheck.selfcheck/1"
Part = Literal["properties", "foreign", "concealed", "shared"]
BidderSource = Literal["as", "forms", "text", "file"]
# The parts of a self-check, in the order findings of one level are listed, with their titles.
PARTS: dict[str, str] = {
    "foreign": "文件中的其他单位",
    "properties": "文件属性与编辑痕迹",
    "concealed": "隐藏文字与残留内容",
    "shared": "与参考文件相同",
}


@dataclass(frozen=True)
class Finding:
    """One thing an agency's check would raise against the bid, and how to clear it.

    ``level`` is what it would make of a pair with another bid holding the same: ``high`` (一级预警 on
    its own) or ``watch`` (二级观察). ``where`` is its place in the bid (``None`` for a file property);
    for text shared with a reference, ``other`` is its place in the reference named by ``reference``.
    """

    part: Part
    level: Level
    field: str
    value: str
    detail: str
    fix: str
    where: Place | None = None
    other: Place | None = None
    reference: str | None = None


@dataclass(frozen=True)
class SelfCheckResult:
    """Everything one self-check found about one bid."""

    bid: Document
    bidder: str
    bidder_source: BidderSource
    findings: tuple[Finding, ...]
    references: tuple[Document, ...] = ()
    tenders: tuple[Document, ...] = ()
    pairs: tuple[PairResult, ...] = ()  # the bid with each readable reference, as a check judges them
    elapsed_s: float = 0.0

    @property
    def clean(self) -> bool:
        """Whether nothing was found (the bid was read and raises nothing)."""
        return self.bid.ok and not self.findings

    def counts(self) -> dict[str, int]:
        """How many findings of each level."""
        return {level: sum(1 for f in self.findings if f.level == level) for level in ("high", "watch")}


def _place(place: Place | None) -> dict[str, Any] | None:
    return None if place is None else {"page": place.page, "paragraph": place.paragraph, "text": place.text}


def finding_to_dict(finding: Finding) -> dict[str, Any]:
    """A finding as JSON."""
    return {
        "part": finding.part,
        "level": finding.level,
        "field": finding.field,
        "value": finding.value,
        "detail": finding.detail,
        "fix": finding.fix,
        "where": _place(finding.where),
        "other": _place(finding.other),
        "reference": finding.reference,
    }


def _pair_to_dict(pair: PairResult) -> dict[str, Any]:
    """A pair of the bid with a reference: its figures and its evidence passages (greyed text left out)."""
    passages = [
        {"a": side_to_dict(p.a), "b": side_to_dict(p.b), "similarity": p.similarity, "chars": p.chars}
        for p in pair.passages
        if p.live
    ]
    return {**pair_figures_to_dict(pair), "passages": passages}


def self_check_to_dict(result: SelfCheckResult) -> dict[str, Any]:
    """The self-check as the ``bidcheck.selfcheck/1`` JSON object: findings ordered by weight."""
    return {
        "schema": SCHEMA,
        "elapsed_s": round(result.elapsed_s, 3),
        "bid": document_to_dict(result.bid),
        "bidder": {"name": result.bidder, "source": result.bidder_source},
        "clean": result.clean,
        "counts": result.counts(),
        "findings": [finding_to_dict(f) for f in result.findings],
        "references": [document_to_dict(d) for d in result.references],
        "tenders": [document_to_dict(d) for d in result.tenders],
        "pairs": [_pair_to_dict(p) for p in result.pairs],
    }
