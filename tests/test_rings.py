"""Rings: bidders who share one stretch of evidence, each two of them linked, are all raised to high."""

from __future__ import annotations

from bidcheck.evidence import raise_rings
from bidcheck.model import Level, PairResult, Passage, Side


def _side(start: int, end: int) -> Side:
    return Side(1, 1, start, end, "文" * (end - start), ((0, end - start),))


def _pair(a: str, b: str, level: Level, spans: list[tuple[tuple[int, int], tuple[int, int]]]) -> PairResult:
    passages = tuple(Passage(_side(*sa), _side(*sb), 0.8, sa[1] - sa[0]) for sa, sb in spans)
    return PairResult(a, b, 0.1, 0.1, 0.1, 0.5, level, "二级观察：…", passages)


NAMES = {"d1": "甲", "d2": "乙", "d3": "丙", "d4": "丁"}


def test_a_ring_sharing_one_draft_is_high_in_every_pair() -> None:
    pairs = [
        _pair("d1", "d2", "high", [((100, 400), (50, 350))]),
        _pair("d1", "d3", "watch", [((120, 380), (900, 1160))]),
        _pair("d2", "d3", "watch", [((70, 330), (900, 1160))]),
        _pair("d1", "d4", "none", []),
    ]
    raised = {(p.a, p.b): p for p in raise_rings(pairs, NAMES, 50)}
    assert raised[("d1", "d3")].level == "high" and raised[("d2", "d3")].level == "high"
    assert "甲、乙、丙" in raised[("d1", "d3")].reason
    assert raised[("d1", "d4")].level == "none"


def test_two_bidders_copying_different_parts_of_a_third_are_no_ring() -> None:
    pairs = [
        _pair("d1", "d2", "watch", [((100, 400), (50, 350))]),
        _pair("d1", "d3", "watch", [((2000, 2300), (900, 1200))]),
        _pair("d2", "d3", "none", []),
    ]
    assert [p.level for p in raise_rings(pairs, NAMES, 50)] == ["watch", "watch", "none"]


def test_one_stretch_shared_by_three_without_the_third_link_is_no_ring() -> None:
    pairs = [
        _pair("d1", "d2", "watch", [((100, 400), (50, 350))]),
        _pair("d1", "d3", "watch", [((100, 400), (900, 1200))]),
        _pair("d2", "d3", "none", []),
    ]
    assert {p.level for p in raise_rings(pairs, NAMES, 50)} == {"watch", "none"}
