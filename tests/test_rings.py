"""Rings: bidders who share one draft of their own text, each two of them linked, are all raised to high;
three who share a short stretch, or only model clauses, keep their own levels. In small sections, text
most bids hold is a ring's draft when they share enough of it, not public text."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from bench.corpus import generate_section
from bench.grammar import paragraph, sentence
from bench.writers import Chapter, write_docx, write_pdf
from bidcheck.compare.score import Score
from bidcheck.config import Settings
from bidcheck.evidence import find_rings
from bidcheck.evidence.clauses import CLAUSE_DENSITY, clause_density, clause_like_spans
from bidcheck.evidence.masks import common_after_rings
from bidcheck.judge import verdict
from bidcheck.model import Level, PairResult, Passage, Side
from bidcheck.pipeline import CheckInputs, check

# Clauses in the register of a model service contract and bidder's commitments (the tests' own wording).
MODEL = (
    "供应商应当按照采购文件的规定提交响应文件，响应文件未按规定密封或者逾期送达的，采购人有权拒绝接收。",
    "成交供应商不得将本项目转包给他人，未经采购人书面同意不得分包，违反本款约定的，采购人有权解除合同并要求赔偿损失。",
    "合同双方应当严格履行各自的义务，任何一方违约的，应当依法承担违约责任，并赔偿由此给对方造成的全部损失。",
    "我方承诺在本项目的投标活动中遵守法律法规，不与其他供应商串通投标，不以任何形式向采购人或评审专家行贿。",
    "采购人应当在收到发票后十五个工作日内支付合同价款，逾期支付的，按照合同约定向供应商支付违约金。",
    "因一方违反保密义务给对方造成损失的，违约方应当承担赔偿责任，本条款不因合同的解除或者终止而失效。",
    "响应文件有效期内，供应商不得撤销其响应文件，否则其保证金不予退还，并依法承担相应的法律责任。",
    "供应商对采购文件有异议的，应当在规定期限内以书面形式一次性提出，采购人的答复以书面形式通知所有供应商。",
    "评审小组成员应当遵守评审纪律，不得私下接触供应商，不得收受供应商的财物或者其他好处，并对评审意见承担责任。",
    "成交供应商无正当理由放弃成交资格或者拒绝签订合同的，采购人可以按照评审报告推荐的候选人顺序确定其他供应商。",
    "合同履行期间发生争议的，双方应当协商解决；协商不成的，依法向采购人所在地有管辖权的人民法院提起诉讼。",
    "因不可抗力不能履行合同的，受影响的一方应当在事件发生后及时以书面形式通知对方，并提供有关部门出具的证明。",
    "我方保证所提供的资格证明文件真实有效，如有弄虚作假，自愿接受取消成交资格的处理，并承担由此造成的法律责任。",
)
NAMES = {"d1": "甲", "d2": "乙", "d3": "丙", "d4": "丁", "d5": "戊"}


def _side(start: int, end: int, text: str | None = None) -> Side:
    return Side(1, 1, start, end, text if text is not None else "文" * (end - start), ((0, end - start),))


Span = tuple[int, int]


def _pair(
    a: str, b: str, level: Level, spans: list[tuple[Span, Span]], texts: str | None = None
) -> PairResult:
    passages = tuple(
        Passage(
            _side(*sa, texts[sa[0] : sa[1]] if texts else None),
            _side(*sb, texts[sb[0] : sb[1]] if texts else None),
            0.8,
            sa[1] - sa[0],
        )
        for sa, sb in spans
    )
    return PairResult(a, b, 0.1, 0.1, 0.1, 0.5, level, "二级观察：…", passages)


SCORES: dict[Level, Score] = {
    "high": Score(0.5, 0.5, 0.4, 2000, 3, 0),
    "watch": Score(0.1, 0.1, 0.08, 700, 1, 0),
    "none": Score(0.0, 0.0, 0.0, 0, 0, 0),
}


def raise_rings(pairs: list[PairResult], names: dict[str, str], min_chars: int) -> list[PairResult]:
    """Each pair with the verdict that knows the rings, as judging gives it (a pair's own level here is
    its ``level``, which ``SCORES`` gives back)."""
    rings = find_rings(pairs, min_chars)
    out = []
    for p in pairs:
        ring = next((r for r in rings if p.a in r.members and p.b in r.members), None)
        level, reason = verdict(SCORES[p.level], ring, names, Settings(ring_min_chars=min_chars))
        out.append(
            PairResult(p.a, p.b, p.similarity, p.coverage_a, p.coverage_b, 0.5, level, reason, p.passages)
        )
    return out


def test_a_ring_sharing_one_long_draft_is_high_in_every_pair() -> None:
    pairs = [
        _pair("d1", "d2", "high", [((100, 800), (50, 750))]),
        _pair("d1", "d3", "watch", [((120, 780), (900, 1560))]),
        _pair("d2", "d3", "watch", [((70, 730), (900, 1560))]),
        _pair("d1", "d4", "none", []),
    ]
    raised = {(p.a, p.b): p for p in raise_rings(pairs, NAMES, 500)}
    assert raised[("d1", "d3")].level == "high" and raised[("d2", "d3")].level == "high"
    assert "疑似串标组（甲、乙、丙）共用同一段文字（660 字）" in raised[("d1", "d3")].reason
    assert raised[("d1", "d4")].level == "none"


def test_three_who_share_only_a_short_stretch_keep_their_own_levels() -> None:
    """Each pair shares 730 characters, but the three of them only 50 at once (one clause)."""
    pairs = [
        _pair("d1", "d2", "watch", [((0, 730), (0, 730))]),
        _pair("d1", "d3", "watch", [((680, 1410), (0, 730))]),
        _pair("d2", "d3", "watch", [((680, 1410), (680, 1410))]),
    ]
    assert find_rings(pairs, 500) == []
    assert [p.level for p in raise_rings(pairs, NAMES, 500)] == ["watch"] * 3
    assert find_rings(pairs, 50) != []  # the same three at a lower setting: the length is the rule


def test_three_who_share_only_model_clauses_keep_their_own_levels() -> None:
    text = "".join(MODEL) * 2
    span = (0, len("".join(MODEL)))
    pairs = [
        _pair("d1", "d2", "watch", [(span, span)], text),
        _pair("d1", "d3", "watch", [(span, span)], text),
        _pair("d2", "d3", "watch", [(span, span)], text),
    ]
    assert span[1] >= 600
    assert find_rings(pairs, 500) == []
    assert [p.level for p in raise_rings(pairs, NAMES, 500)] == ["watch"] * 3


def test_a_ring_of_five_is_named_whole_in_every_pair() -> None:
    members = ["d1", "d2", "d3", "d4", "d5"]
    pairs = [
        _pair(a, b, "watch", [((0, 700), (0, 700))]) for i, a in enumerate(members) for b in members[i + 1 :]
    ]
    [ring] = find_rings(pairs, 500)
    assert ring.members == frozenset(members) and ring.letters == 700
    raised = raise_rings(pairs, NAMES, 500)
    assert all(p.level == "high" and "甲、乙、丙、丁、戊" in p.reason for p in raised)


def test_three_who_quote_the_same_clauses_each_in_other_company_are_no_ring() -> None:
    """d1, d2 and d3 share 600 letters at once, but 300 of them d4 holds too and the other 300 d5: two
    clauses each quoted by its own four bidders (a tender nobody gave), not one draft. Held by the same
    four throughout, 600 letters are a ring."""
    first, second = ((0, 300), (0, 300)), ((400, 700), (400, 700))
    quoted = {"d4": [first], "d5": [second]}
    pairs = [_pair(a, b, "watch", [first, second]) for a, b in (("d1", "d2"), ("d1", "d3"), ("d2", "d3"))]
    pairs += [_pair(a, other, "watch", spans) for other, spans in quoted.items() for a in ("d1", "d2", "d3")]
    assert find_rings(pairs, 500) == []
    one = [
        _pair(a, b, "watch", [first, second]) for a, b in itertools.combinations(["d1", "d2", "d3", "d4"], 2)
    ]
    assert [r.members for r in find_rings(one, 500)] == [frozenset({"d1", "d2", "d3", "d4"})]


def test_a_draft_is_its_holders_and_needs_its_length_held_by_all_of_them_at_once() -> None:
    """Five bids each two linked: 300 letters all five hold (a form every bid fills in, a passage every
    bid quotes from a tender nobody gave), and 260 more that d1, d2, d3 and d5 hold. d1, d3 and d5
    share 560 letters at once, but no 500 that only they hold, nor 500 that all five hold: no ring.
    With a draft of 600 letters that d1, d3 and d5 alone hold, the ring is theirs, not the section's."""
    everyone, four = ((0, 300), (0, 300)), ((300, 560), (300, 560))
    members = ["d1", "d2", "d3", "d4", "d5"]

    def linked(own: list[tuple[Span, Span]], holders: set[str]) -> list[PairResult]:
        return [
            _pair(a, b, "watch", [everyone, four, *(own if {a, b} <= holders else [])])
            if {a, b} <= {"d1", "d2", "d3", "d5"}
            else _pair(a, b, "watch", [everyone])
            for a, b in itertools.combinations(members, 2)
        ]

    assert find_rings(linked([], set()), 500) == []
    draft = ((600, 1200), (600, 1200))
    [ring] = find_rings(linked([draft], {"d1", "d3", "d5"}), 500)
    assert ring.members == frozenset({"d1", "d3", "d5"}) and ring.letters == 600


def test_two_bidders_copying_different_parts_of_a_third_are_no_ring() -> None:
    pairs = [
        _pair("d1", "d2", "watch", [((100, 800), (50, 750))]),
        _pair("d1", "d3", "watch", [((2000, 2700), (900, 1600))]),
        _pair("d2", "d3", "watch", [((3000, 3200), (3000, 3200))]),
    ]
    assert [p.level for p in raise_rings(pairs, NAMES, 500)] == ["watch", "watch", "watch"]


def test_one_draft_shared_by_three_without_the_third_link_is_no_ring() -> None:
    pairs = [
        _pair("d1", "d2", "watch", [((100, 800), (50, 750))]),
        _pair("d1", "d3", "watch", [((100, 800), (900, 1600))]),
        _pair("d2", "d3", "none", []),
    ]
    assert [p.level for p in raise_rings(pairs, NAMES, 500)] == ["watch", "watch", "none"]


def test_model_clauses_read_as_clauses_and_a_construction_plan_does_not() -> None:
    assert all(clause_density(c) >= CLAUSE_DENSITY for c in MODEL)
    rng = random.Random(7)
    plan = [sentence(rng) for _ in range(400)]
    assert sum(clause_density(s) >= CLAUSE_DENSITY for s in plan) <= 8  # at most 2%
    text = plan[0] + MODEL[2] + "\n" + plan[1]
    start = len(plan[0])
    assert clause_like_spans(text) == [(start, start + len(MODEL[2]))]


def test_only_the_clause_of_a_run_without_sentence_ends_reads_as_one() -> None:
    """A contract sentence run on into a numbered list of plan items (no sentence end between them: a
    list, table cells, OCR text) was masked whole, the list with it; now the clause alone is, and so
    is a long run's clause between commas, not the plan clauses after it."""
    rng = random.Random(8)
    items = [sentence(rng).rstrip("。") for _ in range(2)]
    listed = (
        MODEL[2].rstrip("。") + "：" + "；".join(f"{n}．{item}" for n, item in enumerate(items, 1)) + "。"
    )
    assert clause_density(listed) >= CLAUSE_DENSITY  # read as one sentence, the whole run is clause-like
    assert clause_like_spans(listed) == [(0, len(MODEL[2]))]
    run = MODEL[2].rstrip("。") + "，" + "，".join(items) + "。"
    (span,) = clause_like_spans(run)
    assert span[0] == 0 and span[1] <= len(MODEL[2]) + 2 and len(run) - span[1] > 40


def _bid(folder: Path, index: int, extra: list[Chapter]) -> None:
    rng = random.Random(100 + index)
    plan = Chapter("第三章 施工组织设计", tuple(paragraph(rng) for _ in range(26)))
    writer = write_docx if index % 2 else write_pdf
    suffix = "docx" if index % 2 else "pdf"
    writer(
        folder / f"{index:02d}.{suffix}",
        title="投标文件",
        header="某道路工程投标文件",
        chapters=[plan, *extra],
    )


def test_unrelated_bids_quoting_one_model_document_are_never_high(tmp_path: Path) -> None:
    """Ten bids, three of them quoting the same thirteen model clauses (no tender given): the three
    pairs share 650 characters, listed greyed as public text; no ring, no level."""
    clauses = Chapter("第四章 商务条款及承诺", tuple(f"3.{n} {c}" for n, c in enumerate(MODEL, 1)))
    for index in range(1, 11):
        _bid(tmp_path, index, [clauses] if index in (2, 5, 9) else [])
    result = check(CheckInputs((tmp_path,)), Settings(workers=1))
    quoting = {d.id for d in result.documents if d.name in ("02.pdf", "05.docx", "09.docx")}
    assert len(quoting) == 3 and len(result.pairs) == 45
    assert {p.level for p in result.pairs} == {"none"}
    for pair in (p for p in result.pairs if {p.a, p.b} <= quoting):
        greyed = [q for q in pair.passages if q.common]
        assert sum(q.chars for q in greyed) >= 500 and not any(q.live for q in pair.passages)
    assert not any("疑似串标组" in p.reason for p in result.pairs)


def test_a_ring_sharing_a_draft_of_its_own_is_raised_in_a_real_section(tmp_path: Path) -> None:
    """The same ten bids, where three paste one five-paragraph draft into their plans instead: each pair
    alone is watch, and the ring makes all three high."""
    rng = random.Random(99)
    draft = Chapter("第四章 重点难点分析", tuple(paragraph(rng) for _ in range(5)))
    for index in range(1, 11):
        _bid(tmp_path, index, [draft] if index in (2, 5, 9) else [])
    result = check(CheckInputs((tmp_path,)), Settings(workers=1))
    ring = {p for p in result.pairs if "疑似串标组（02.pdf、05.docx、09.docx）" in p.reason}
    assert len(ring) == 3 and {p.level for p in ring} == {"high"}
    assert {p.level for p in result.pairs if p not in ring} == {"none"}


def _section(
    tmp_path: Path, bids: int, seed: int, case: str, tender: bool = True
) -> tuple[dict[frozenset[str], str], set[str]]:
    """A generated section checked with its tender (or without): each pair's level by file names, and
    the members of its planted pairs (from the section's truth)."""
    section = generate_section(tmp_path, bids, seed, case=case)
    tenders = (section.tender,) if tender else ()
    result = check(CheckInputs((tmp_path / "bids",), tenders=tenders), Settings(workers=1))
    names = {d.id: d.name for d in result.documents}
    levels = {frozenset((names[p.a], names[p.b])): p.level for p in result.pairs}
    ring = {n for p in section.truth["pairs"] for n in (p["a"], p["b"])}  # type: ignore[index]
    return levels, ring


def test_three_bids_written_from_one_draft_are_a_ring_not_common_text(tmp_path: Path) -> None:
    """陪标: all three bids of a three-bid section share an eight-paragraph draft, each disguised its own
    way. Held by every bid, the draft is what the common rule once greyed out; it is a ring."""
    for case in ("full-ring", "full-ring-verbatim"):
        levels, ring = _section(tmp_path / case, 3, 3, case)
        assert len(ring) == 3 and set(levels.values()) == {"high"}, case


def test_a_ring_of_three_beside_an_independent_bid(tmp_path: Path) -> None:
    levels, ring = _section(tmp_path, 4, 3, "ring-and-one")
    assert len(ring) == 3 and len(levels) == 6
    assert {pair: level for pair, level in levels.items() if pair <= ring} == {
        frozenset(p): "high" for p in itertools.combinations(ring, 2)
    }
    assert {level for pair, level in levels.items() if not pair <= ring} == {"none"}


def test_small_sections_sharing_tender_text_and_public_commitments_raise_nothing(tmp_path: Path) -> None:
    for bids in (3, 5):
        levels, ring = _section(tmp_path / str(bids), bids, 3, "commitments")
        assert not ring and set(levels.values()) == {"none"}


def test_a_form_and_passages_every_bid_quotes_make_no_ring_without_the_tender(tmp_path: Path) -> None:
    """Five bids, no tender given: each fills in the tender's letter form and quotes two public passages
    and some of the tender's clauses; two of them copied a plan from each other, two more a paragraph.
    Three who share the letter, the passages and one clause quoted by four share nothing of their own:
    the planted pairs keep their levels and no other pair is raised (it was a ring of three)."""
    levels, planted = _section(tmp_path, 5, 203, "planted", tender=False)
    assert len(planted) == 4 and len(levels) == 10
    assert sorted(levels.values()) == ["high", *["none"] * 8, "watch"]
    assert {level for pair, level in levels.items() if not pair <= planted} == {"none"}


def test_a_plan_written_on_from_model_clauses_stays_the_pairs_evidence(tmp_path: Path) -> None:
    """Eight bids, five quoting model clauses; two of them wrote the same three plan paragraphs straight
    on from three of their items, no sentence end between (one run of text with the clause). The
    clauses are greyed, the plan is the two's: the pair is watch, every other pair none."""
    levels, planted = _section(tmp_path, 8, 1, "glued", tender=False)
    assert len(planted) == 2 and len(levels) == 28
    assert {level for pair, level in levels.items() if pair == planted} == {"watch"}
    assert {level for pair, level in levels.items() if pair != planted} == {"none"}


def test_common_text_is_judged_after_rings_only_where_its_holders_could_be_a_ring() -> None:
    settings = Settings()
    assert [common_after_rings(n, settings) for n in (3, 5, 8, 9, 100)] == [True, True, True, False, False]
    assert not common_after_rings(5, settings.with_changes(common_alone_bids=3))
