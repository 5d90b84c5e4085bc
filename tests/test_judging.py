"""Judging on built sections of plain-text bids: levels by characters alone, ranking, groups over
``watch`` links, the per-pair passage cap, passages cut where tender text lies, and rings."""

from __future__ import annotations

from pathlib import Path

import pytest

from bidcheck.config import Settings
from bidcheck.model import CheckResult, PairResult
from bidcheck.pipeline import CheckInputs, check
from tests.builders import paragraphs

TENDER = paragraphs(900, 6)
QUOTE, LEAD = TENDER[3][:30], TENDER[5][:30]  # a tender sentence or so, quoted in a copied paragraph
OWN = {name: paragraphs(seed, size) for name, seed, size in (("A", 1, 200), ("B", 2, 200), ("C", 3, 200))}
OWN |= {name: paragraphs(seed, 30) for name, seed in (("D", 4), ("E", 5))}
QUOTING = OWN["D"][2][:60] + QUOTE + OWN["D"][2][60:]  # a paragraph of D with the tender's words inside
LEADING = LEAD + OWN["D"][8]  # one that begins with them
RUNNING_ON = OWN["D"][25] + TENDER[4]  # one that runs on into a whole tender paragraph


def _bids() -> dict[str, list[str]]:
    """A and B share 35 paragraphs (some 3,300 characters, under a fifth of either); A and C two
    (under 5%); D and E twelve paragraphs and three more that quote the tender (half of either).
    Every bid holds two paragraphs of the tender."""
    a, b, c, d, e = (list(OWN[x]) for x in "ABCDE")
    d[2], d[8], d[25] = QUOTING, LEADING, RUNNING_ON
    b[50:50] = a[10:45]
    c[120:120] = a[100:102]
    e[3:3] = d[12:24]
    e[-1:-1] = [QUOTING, e[20], LEADING, e[21], RUNNING_ON]
    return {name: TENDER[:2] + text for name, text in zip("ABCDE", (a, b, c, d, e), strict=True)}


def _write(folder: Path, texts: dict[str, list[str]]) -> Path:
    folder.mkdir()
    for name, text in texts.items():
        (folder / f"{name}.txt").write_text("\n".join(text), encoding="utf-8")
    (folder.parent / "tender.txt").write_text("\n".join(TENDER), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> CheckResult:
    folder = _write(tmp_path_factory.mktemp("judging") / "bids", _bids())
    return check(CheckInputs((folder,), (folder.parent / "tender.txt",)), Settings(workers=1))


def _pair(result: CheckResult, a: str, b: str) -> PairResult:
    names = {d.id: d.name[0] for d in result.documents}
    return next(p for p in result.pairs if {names[p.a], names[p.b]} == {a, b})


def _live_chars(pair: PairResult) -> int:
    return sum(q.chars for q in pair.passages if q.live)


def test_shared_characters_alone_make_a_pair_high_or_watch(judged: CheckResult) -> None:
    """3,000 shared characters are a copied chapter however long the bids are; 150 a copied paragraph."""
    settings = Settings()
    a_b, a_c = _pair(judged, "A", "B"), _pair(judged, "A", "C")
    assert a_b.level == "high" and a_b.similarity < settings.high_similarity
    assert _live_chars(a_b) >= settings.high_chars
    assert a_c.level == "watch" and a_c.similarity < settings.watch_similarity
    assert _live_chars(a_c) >= settings.watch_chars


def test_pairs_are_ranked_by_level_then_similarity(judged: CheckResult) -> None:
    ranked = [(p.level, p.similarity) for p in judged.pairs]
    top = [_pair(judged, *names) for names in (("D", "E"), ("A", "B"), ("A", "C"))]
    assert ranked[:3] == [(p.level, p.similarity) for p in top]
    assert [level for level, _ in ranked[:3]] == ["high", "high", "watch"] and ranked[0][1] > ranked[1][1]
    assert {level for level, _ in ranked[3:]} == {"none"}


def test_groups_join_bidders_linked_at_watch_as_well_as_high(judged: CheckResult) -> None:
    names = {d.id: d.name[0] for d in judged.documents}
    assert [sorted(names[m] for m in g.members) for g in judged.groups] == [["A", "B", "C"], ["D", "E"]]


def test_a_short_tender_quote_stays_inside_a_copied_passage_a_long_stretch_ends_one(
    judged: CheckResult,
) -> None:
    """Tender text shorter than ``min_passage_chars`` inside a copied paragraph, or at its start, is part
    of its passage; a whole tender paragraph the copy runs on into is a template passage of its own."""
    passages = _pair(judged, "D", "E").passages
    assert [q.a.text for q in passages if q.live and QUOTE in q.a.text] == [QUOTING[:-1]]
    assert [q.a.text for q in passages if q.live and q.a.text in LEADING] == [LEADING[:-1]]
    assert [q.a.text for q in passages if q.live and q.a.text in RUNNING_ON] == [OWN["D"][25][:-1]]
    assert [q.a.text for q in passages if q.template and q.a.text in RUNNING_ON] == [TENDER[4][:-1]]


def test_a_pair_lists_its_longest_evidence_first_up_to_the_cap(
    judged: CheckResult, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Beyond ``max_passages_per_pair``, the longest evidence passages are kept (in the order of the
    text) and the rest counted; the score still counts every passage."""
    folder = Path(judged.documents[0].path).parent
    capped = check(
        CheckInputs((folder,), (folder.parent / "tender.txt",)), Settings(workers=1, max_passages_per_pair=2)
    )
    full, cut = _pair(judged, "D", "E"), _pair(capped, "D", "E")
    longest = sorted((q for q in full.passages if q.live), key=lambda q: (-q.chars, q.a.start))[:2]
    assert list(cut.passages) == sorted(longest, key=lambda q: q.a.start) != longest
    assert cut.passages_omitted == len(full.passages) - 2 and full.passages_omitted == 0
    assert (cut.level, cut.similarity, cut.reason) == (full.level, full.similarity, full.reason)


@pytest.fixture(scope="module")
def ring(tmp_path_factory: pytest.TempPathFactory) -> CheckResult:
    """F, G and H each paste one eight-paragraph draft into a plan of their own (watch on its own); I
    copied two other paragraphs of F."""
    own = {name: paragraphs(seed, 200) for name, seed in (("F", 6), ("G", 7), ("H", 8), ("I", 9))}
    draft = paragraphs(10, 8)
    own["F"][40:40], own["G"][120:120], own["H"][10:10] = draft, draft, draft
    own["I"][60:60] = own["F"][150:152]
    folder = _write(tmp_path_factory.mktemp("ring") / "bids", {n: TENDER[:2] + t for n, t in own.items()})
    return check(CheckInputs((folder,), (folder.parent / "tender.txt",)), Settings(workers=1))


def test_a_ring_raises_the_pairs_inside_it_only(ring: CheckResult) -> None:
    inside = [_pair(ring, *p) for p in (("F", "G"), ("F", "H"), ("G", "H"))]
    assert all(p.level == "high" and "疑似串标组" in p.reason for p in inside)
    outside = _pair(ring, "F", "I")
    assert outside.level == "watch" and "疑似串标组" not in outside.reason
