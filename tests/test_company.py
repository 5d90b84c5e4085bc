"""Checks without a tender: the tender's clauses, quoted by every bidder in its own selection, are public
text (held in changing company); a draft held by the same bidders throughout is still evidence."""

from __future__ import annotations

import random
from pathlib import Path

from bench.corpus import generate_section
from bidcheck.config import Settings
from bidcheck.pipeline import CheckInputs, check
from tests.builders import make_docx, paragraphs

CLAUSES = paragraphs(900, 10, sentences=2)  # the tender's requirements, about 60 characters each


def _bid(folder: Path, index: int, quoted: list[int], extra: list[str]) -> None:
    own = paragraphs(index, 12)
    response = [f"{n + 1}．{CLAUSES[n]}我方完全响应。" for n in quoted]
    make_docx(folder / f"{index:02d}.docx", [own[:6], response, own[6:] + extra])


def test_clauses_quoted_in_changing_company_raise_no_pair_but_a_shared_draft_does(tmp_path: Path) -> None:
    """Eight bids, each quoting its own five of ten tender clauses (the tender not given); two of them
    also share three paragraphs of their plans."""
    rng = random.Random(5)
    draft = paragraphs(77, 3)
    for index in range(1, 9):
        _bid(tmp_path, index, sorted(rng.sample(range(10), 5)), draft if index in (3, 6) else [])
    result = check(CheckInputs((tmp_path,)), Settings(workers=1))
    names = {d.id: d.name for d in result.documents}
    raised = {frozenset((names[p.a], names[p.b])): p.level for p in result.pairs if p.level != "none"}
    assert raised == {frozenset(("03.docx", "06.docx")): "watch"}
    quoted = [q for p in result.pairs for q in p.passages if q.common]
    assert quoted and all("我方完全响应" in q.a.text or len(q.a.text) >= 24 for q in quoted)


def test_a_section_checked_without_its_tender_gets_its_levels(tmp_path: Path) -> None:
    """A generated section of twelve bids (a heavy pair, a light pair, a ring of three, public
    boilerplate, quoted tender clauses and a filled-in bid letter) checked without its tender: every
    pair gets the level it gets with the tender."""
    section = generate_section(tmp_path, 12, 201)
    result = check(CheckInputs((tmp_path / "bids",)), Settings(workers=1))
    names = {d.id: d.name for d in result.documents}
    levels = {frozenset((names[p.a], names[p.b])): p.level for p in result.pairs}
    expected = {frozenset((p["a"], p["b"])): p["expected"] for p in section.truth["pairs"]}  # type: ignore[index]
    assert len(levels) == 66
    assert {k: v for k, v in levels.items() if k in expected} == expected
    assert {v for k, v in levels.items() if k not in expected} == {"none"}


def _levels(folder: Path) -> dict[frozenset[str], str]:
    """Each raised pair's level, by the two file names (checked without a tender)."""
    result = check(CheckInputs((folder,)), Settings(workers=1))
    names = {d.id: d.name for d in result.documents}
    return {frozenset((names[p.a], names[p.b])): p.level for p in result.pairs if p.level != "none"}


def test_a_copy_glued_to_a_quoted_clause_stays_evidence(tmp_path: Path) -> None:
    """Eight bids quoting their own five of ten tender clauses; two of them pasted the same two
    paragraphs straight after one of their quoted clauses, with nothing between: one run of shared text
    with the clause. The clause is public, the copy is the two bids' (it went with the clause)."""
    rng = random.Random(5)
    copied = "".join(paragraphs(77, 2))
    for index in range(1, 9):
        quoted = sorted(rng.sample(range(10), 5))
        own = paragraphs(index, 12)
        response = [f"{n + 1}．{CLAUSES[n]}我方完全响应。" for n in quoted]
        if index in (3, 6):
            response[2] = f"{quoted[2] + 1}．{CLAUSES[quoted[2]]}{copied}"
        make_docx(tmp_path / f"{index:02d}.docx", [own[:6], response, own[6:]])
    assert _levels(tmp_path) == {frozenset(("03.docx", "06.docx")): "watch"}


def test_a_ring_draft_among_quoted_tender_paragraphs_in_one_member_stays_the_rings(tmp_path: Path) -> None:
    """A generated section of eight bids, each of the tender's eight rules and scoring paragraphs quoted by
    its own half of the bids, checked without its tender. One member of the ring of three pasted the
    ring's draft around a quoted paragraph, the other two elsewhere: it is the ring's draft in all three
    (its two pairs with that member were none), and every pair gets the level it gets with the tender."""
    section = generate_section(tmp_path, 8, 2, halves=True)
    result = check(CheckInputs((tmp_path / "bids",)), Settings(workers=1))
    names = {d.id: d.name for d in result.documents}
    levels = {frozenset((names[p.a], names[p.b])): p.level for p in result.pairs}
    expected = {frozenset((p["a"], p["b"])): p["expected"] for p in section.truth["pairs"]}  # type: ignore[index]
    assert sorted(expected.values()) == ["high", "high", "high", "high", "watch"]
    assert {k: v for k, v in levels.items() if k in expected} == expected
    assert {v for k, v in levels.items() if k not in expected} == {"none"}
