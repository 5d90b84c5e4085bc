"""Masked text: the tender's forms, text most bids hold word for word, and the passages of such text."""

from __future__ import annotations

import collections
import random
from pathlib import Path

import numpy as np
import pytest

from bidcheck.compare.align import AlignInput, passes
from bidcheck.compare.shared import (
    _group_passage,
    _group_passages,
    _passage,
    all_masked_passages,
    masked_passages,
)
from bidcheck.config import Settings
from bidcheck.evidence import template_mask
from bidcheck.evidence.flags import (
    form_pieces,
    frequent_kgrams,
    is_member,
    long_gram_hashes,
    occurrences_mask,
    spans_mask,
)
from bidcheck.evidence.frequent import _counted as counted_by_documents
from bidcheck.evidence.masks import shared_masks
from bidcheck.fingerprint import fingerprint_text
from bidcheck.fingerprint.kgrams import kgram_hashes
from bidcheck.pipeline import CheckInputs, check
from bidcheck.prepare import prepare_document
from bidcheck.ready import Ready
from bidcheck.text import normalize
from tests.builders import make_docx, paragraphs

SETTINGS = Settings()
FORM = (
    "我方已仔细研究了本标段招标文件的全部内容，愿意以人民币（大写）{price}的投标总报价。"
    "我方承诺在招标文件规定的投标有效期内不修改、撤销投标文件。"
    "投标人：{company}有限公司（盖单位章），法定代表人或其委托代理人：{person}（签字），日期：{date}。"
)


def test_form_pieces_are_the_text_between_blanks() -> None:
    text = FORM.format(price="________元", company="________", person="________", date="____年__月__日")
    norm, offsets, sentences = normalize(text)
    blanks = np.searchsorted(offsets, [i for i in range(len(text)) if text[i : i + 2] == "__"]).tolist()
    pieces = form_pieces(norm, blanks, sentences.tolist(), 4)
    assert "有限公司盖单位章法定代表人或其委托代理人" in pieces
    assert "签字日期" in pieces
    assert all(len(p) >= 4 for p in pieces)
    filled = normalize(FORM.format(price="叁仟万元", company="华东建设", person="张伟", date="2025年3月1日"))[
        0
    ]
    mask = occurrences_mask(filled, pieces)
    assert not mask[filled.index("华东建设") : filled.index("华东建设") + 4].any()
    assert mask[filled.index("盖单位章")]


def test_long_gram_hashes_agree_exactly_when_the_stretch_agrees() -> None:
    a = "".join(paragraphs(1, 2))
    b = "前言" + a[100:160] + "后记" + "".join(paragraphs(2, 1))
    ha = long_gram_hashes(kgram_hashes(a, 5), 5, 24)
    hb = long_gram_hashes(kgram_hashes(b, 5), 5, 24)
    assert len(ha) == len(a) - 23
    assert ha[100] == hb[2] and ha[136] == hb[38]
    assert ha[99] != hb[2] and ha[101] != hb[2]
    assert np.array_equal(
        spans_mask(np.array([False, True, False, False]), 2, 5), [False, True, True, False, False]
    )


def test_masked_passages_are_exact_runs_of_the_masked_text() -> None:
    clause = "".join(paragraphs(3, 1))
    own = ["".join(paragraphs(4 + i, 3)) for i in range(2)]
    inputs = []
    for text in (own[0] + clause, clause + own[1]):
        norm, _, sentences = normalize(text)
        fp = fingerprint_text(norm, SETTINGS)
        masked = np.zeros(len(norm), dtype=bool)
        start = norm.index(normalize(clause)[0])
        masked[start : start + len(normalize(clause)[0])] = True
        inputs.append(AlignInput(norm, fp.kgrams, sentences, fp.window_starts, masked))
    (passage,) = masked_passages(inputs[0], inputs[1], SETTINGS)
    length = len(normalize(clause)[0])
    assert passage.similarity == 1.0
    assert passage.a[1] - passage.a[0] == length and passage.b == (0, length)
    assert inputs[0].norm[slice(*passage.a)] == inputs[1].norm[slice(*passage.b)]


STAFF = (
    "{project}拟投入的主要人员和设备：招标编号：{code}；拟派项目经理：{manager}，注册建造师证书编号：{cert}，"
    "职称：{title}，近五年完成的类似工程业绩：{count}项；技术负责人：{engineer}，职称：{title}；"
    "拟投入本工程的主要施工机械：{machines}台，混凝土日供应能力：{capacity}立方米。"
)
COMPANIES = ("华东建设", "恒信市政", "中联路桥", "宏远建工", "金鼎工程", "锦程交通")


def _filled(rng: random.Random, n: int) -> dict[str, str]:
    """One bidder's entries in the tender's forms: the project's name and number as the tender gives
    them (alike in every bid), the rest the bidder's own."""
    return {
        "project": "江城市滨江大道道路及排水改造工程第二标段",  # begins the staff form
        "code": "JCJS-2025-017",
        "price": f"{rng.randint(3000, 5000)}万元",
        "company": COMPANIES[n % len(COMPANIES)] + "第" + "一二三四五六七八九十壹贰"[n] + "分公司",
        "person": rng.choice("张王李赵") + rng.choice("伟芳敏静"),
        "date": f"2025年{rng.randint(3, 9)}月{rng.randint(1, 28)}日",
        "manager": "张王李赵钱孙周吴郑冯陈褚"[n] + rng.choice("建国志强海涛"),
        "engineer": "卫蒋沈韩杨朱秦尤许何吕施"[n] + rng.choice("明华立新春秋"),
        "cert": f"浙{rng.randint(1000000, 9999999)}",
        "title": ("高级工程师", "正高级", "一级建造师")[n % 3],
        "count": str(rng.randint(3, 12)),
        "machines": str(rng.randint(20, 60)),
        "capacity": str(rng.randint(300, 900)),
    }


@pytest.mark.parametrize("count", [2, 12])
def test_filled_in_forms_are_template_text_not_evidence(tmp_path: Path, count: int) -> None:
    """Bidders fill in the tender's letter and staff forms: the pieces between the blanks are shorter
    than a template stretch, and still no pair may be raised on them, nor on the project's name and
    number that every bidder writes into its blanks (with the masked pieces left out, two forms agree
    far less than a passage must). Two bids alone: nothing is common text; twelve: the forms are, and
    their pieces are listed as template text."""
    rng = random.Random(5)
    blank = {key: "________" for key in _filled(rng, 0)}
    make_docx(
        tmp_path / "tender.docx",
        [["投标函格式", FORM.format(**blank), STAFF.format(**blank)], paragraphs(50, 4)],
    )
    bids = tmp_path / "bids"
    bids.mkdir()
    for n in range(count):
        fills = _filled(rng, n)
        pages = [[STAFF.format(**fills)], paragraphs(100 + n, 6), ["投标函", FORM.format(**fills)]]
        make_docx(bids / f"{n:02d}.docx", pages)
    result = check(CheckInputs((bids,), (tmp_path / "tender.docx",)), Settings(workers=1))
    assert len(result.pairs) == count * (count - 1) // 2
    assert {p.level for p in result.pairs} == {"none"}
    assert not [q for p in result.pairs for q in p.passages if q.live]
    assert count == 2 or any(q.template for p in result.pairs for q in p.passages)


def test_masked_passages_of_a_whole_section_equal_those_of_each_pair() -> None:
    """All pairs' masked passages come from one table of the section; each pair's must be what the two
    bids alone give."""
    rng = random.Random(11)
    clauses = [paragraphs(300 + n, 2)[0] for n in range(3)]
    inputs = []
    for n in range(5):
        own = paragraphs(400 + n, 3)
        held = rng.sample(clauses, rng.randint(1, 3))
        text = "".join(own[:1] + held[:1] + own[1:2] + held[1:] + own[2:])
        norm, _, sentences = normalize(text)
        fp = fingerprint_text(norm, SETTINGS)
        masked = np.zeros(len(norm), dtype=bool)
        for clause in held:
            at = norm.index(normalize(clause)[0])
            masked[at : at + len(normalize(clause)[0])] = True
        inputs.append(AlignInput(norm, fp.kgrams, sentences, fp.window_starts, masked))
    every = all_masked_passages(inputs, SETTINGS)
    assert len(every) >= 3
    for i in range(len(inputs)):
        for j in range(i + 1, len(inputs)):
            assert every.get((i, j), []) == masked_passages(inputs[i], inputs[j], SETTINGS)
    wanted = {0: [2, 4], 1: [], 3: [4]}  # some pairs only (those a re-check does not remember)
    some = all_masked_passages(inputs, SETTINGS, wanted=wanted)
    assert some == {key: found for key, found in every.items() if key in {(0, 2), (0, 4), (3, 4)}}


def _random_runs(rng: random.Random, count: int) -> list[list[int]]:
    """Runs in A's order (both ends rising, a run may begin inside the one before, as k-gram runs do)
    whose B sides mostly follow A's and sometimes jump back onto B text an earlier run holds."""
    a0, a1, b0, b1 = [], [], [], []
    at, bt = 0, 1000
    for _ in range(count):
        start = at + rng.randint(-4, 12)
        length = rng.randint(5, 40)
        start = max(start, a0[-1] + 1 if a0 else 0)
        b_start = bt + rng.randint(-4, 12) if rng.random() > 0.1 else bt - rng.randint(20, 120)
        a0.append(start), a1.append(start + length), b0.append(b_start), b1.append(b_start + length)
        at, bt = start + length, max(bt, b_start + length)
    return [[1] * count, a0, a1, b0, b1]


def test_runs_of_masked_text_claim_each_character_once_as_any_passage_does() -> None:
    """The passage of a group of runs, found along A's side alone when its B side claims nothing twice,
    is the one the claim-once rule gives run by run, and is left out exactly when that one fails."""
    rng = random.Random(3)
    settings = SETTINGS.with_changes(min_passage_chars=20)
    seen = set()
    for _ in range(400):
        runs = _random_runs(rng, rng.randint(1, 12))
        marks = [((a0, a1), (b0, b1)) for _, a0, a1, b0, b1 in zip(*runs, strict=True)]
        expected = _passage(marks)
        got = _group_passage(runs, 0, len(marks), settings)
        assert got == (expected if passes(expected, settings) else None)
        b_dropped = any(
            b0 < kept_b1 and kept_b0 < b1
            for (a, (b0, b1)) in marks
            if (a, (b0, b1)) not in expected.marks
            for _, (kept_b0, kept_b1) in expected.marks
        )
        seen.add((got is not None, b_dropped))
    assert seen == {(True, True), (True, False), (False, True), (False, False)}


def test_the_groups_of_a_bids_runs_are_measured_together_as_each_alone() -> None:
    """All groups of one bid's runs at once (with several other bids, and groups of one pair side by
    side) give each group the passage the claim-once rule gives it alone."""
    rng = random.Random(5)
    settings = SETTINGS.with_changes(min_passage_chars=20)
    for _ in range(60):
        columns: list[list[int]] = [[], [], [], [], []]
        bounds: list[tuple[int, int]] = []
        other = 1
        for _ in range(rng.randint(1, 9)):
            other += rng.choice((0, 1, 3))  # 0: one more group of the same pair, further on in A
            runs = _random_runs(rng, rng.randint(1, 12))
            shift = columns[2][-1] + 500 if columns[0] and columns[0][-1] == other else 0
            bounds.append((len(columns[0]), len(columns[0]) + len(runs[0])))
            columns[0] += [other] * len(runs[0])
            for n in (1, 2):
                columns[n] += [x + shift for x in runs[n]]
            columns[3] += runs[3]
            columns[4] += runs[4]
        arrays = tuple(np.asarray(c, dtype=np.int64) for c in columns)
        first, end = (np.asarray(x, dtype=np.int64) for x in zip(*bounds, strict=True))
        together = _group_passages(arrays, first, end, settings)
        for (f, e), got in zip(bounds, together, strict=True):
            marks = [((a0, a1), (b0, b1)) for _, a0, a1, b0, b1 in list(zip(*columns, strict=True))[f:e]]
            expected = _passage(marks)
            assert got == (expected if passes(expected, settings) else None)


def test_a_stretch_of_tender_text_is_masked_exactly_and_only_from_its_length_on() -> None:
    """The template mask covers every character of a stretch the tender holds, to its last one, and a
    stretch counts from ``template_min_chars`` (24) on: 23 characters are a stock phrase."""
    own = [normalize(p)[0] for p in paragraphs(60, 3)]
    tender = normalize("".join(paragraphs(61, 2)))[0]
    k = SETTINGS.seed_chars
    for length, masked in ((40, True), (24, True), (23, False)):
        quote = tender[100 : 100 + length]
        text = own[0][:60] + quote + own[1][:60]
        mask = template_mask(kgram_hashes(text, k), kgram_hashes(tender, k), len(text), k, 24)
        expected = np.zeros(len(text), dtype=bool)
        expected[60 : 60 + length] = masked
        assert np.array_equal(mask, expected), length


def _ready(text: str, doc_id: str, folder: Path) -> Ready:
    path = folder / f"{doc_id}.txt"
    path.write_text(text, encoding="utf-8")
    ready = prepare_document(path, doc_id, "bid", SETTINGS).ready
    assert ready is not None
    return ready


def test_phrases_of_the_trade_are_stock_only_in_sections_of_twenty_bids_or_more(tmp_path: Path) -> None:
    """A 5-character run is a stock phrase (it never starts a passage) when at least 20 bids and at least
    half of the section's bids hold it; smaller sections cannot tell a phrase of the trade from a draft."""
    everyone, most = "每道工序自检合格后报验", "隐蔽工程验收签认齐全"
    texts = [
        "".join(paragraphs(200 + n, 2))
        + everyone
        + (most if n < 19 else "")
        + "".join(paragraphs(300 + n, 1))
        for n in range(20)
    ]
    bids = [_ready(text, f"d{n + 1}", tmp_path) for n, text in enumerate(texts)]

    def stock_of_first(section: list[Ready]) -> set[str]:
        stock = shared_masks(section, [], SETTINGS).stock[0]
        norm = section[0].clean.norm
        return {norm[i : i + SETTINGS.seed_chars] for i in np.flatnonzero(stock)}

    assert stock_of_first(bids) == {everyone[i : i + 5] for i in range(len(everyone) - 4)}
    assert stock_of_first(bids[:19]) == set()


@pytest.mark.parametrize("needed", [0, 1, 2, 3, 7, 12, 13])
def test_frequent_kgrams_are_those_as_many_documents_hold(needed: int) -> None:
    rng = np.random.default_rng(needed)
    documents = [rng.integers(0, 40, size=rng.integers(0, 30), dtype=np.uint64) for _ in range(12)]
    held = collections.Counter(int(h) for d in documents for h in set(d.tolist()))
    expected = sorted(h for h, count in held.items() if count >= needed)
    found = frequent_kgrams(documents, needed)
    assert found.dtype == np.uint64 and found.tolist() == expected


@pytest.mark.parametrize("needed", [2, 5, 30, 59])
def test_frequent_kgrams_sieved_by_low_bits_are_exactly_those_held(needed: int) -> None:
    """Hashes that share their low bits (each document holding a different one, and some twice) pass
    the sieve together; only those ``needed`` documents hold come out."""
    rng = np.random.default_rng(needed)
    pool = rng.integers(0, 2**64 - 1, size=3_000, dtype=np.uint64)
    alike = (pool[:40] & np.uint64(0xFFFFFF)) | (np.arange(1, 41, dtype=np.uint64) << np.uint64(40))
    documents = [
        np.concatenate([rng.choice(pool, size=rng.integers(0, 2_000)), alike[rng.integers(0, 40, size=3)]])
        for _ in range(60)
    ]
    documents = [np.concatenate([d, pool[: n % 50 + 1]]) for n, d in enumerate(documents)]  # 60 to 1 hold
    held = collections.Counter(int(h) for d in documents for h in set(d.tolist()))
    expected = sorted(h for h, count in held.items() if count >= needed)
    assert expected and len(expected) < len(held)
    assert frequent_kgrams(documents, needed).tolist() == expected
    hashes, counts = counted_by_documents(documents, needed)  # the app's kept count, sieved alike
    assert hashes.tolist() == expected and counts.tolist() == [held[h] for h in expected]


@pytest.mark.parametrize("size", [0, 1, 300, 20_000])
def test_membership_in_a_sorted_set_is_that_of_np_isin(size: int) -> None:
    rng = np.random.default_rng(size)
    values = rng.integers(0, 2**64 - 1, size=30_000, dtype=np.uint64)
    chosen = rng.choice(values, size=min(size, 200)) if size else values[:0]
    members = np.unique(np.concatenate([chosen, rng.integers(0, 2**64 - 1, size=size, dtype=np.uint64)]))
    low_alike = (values[:500] & np.uint64(0xFFFF)) | np.uint64(1 << 40)  # pass the sieve, no members
    values = np.concatenate([values, low_alike])
    found = is_member(values, members)
    assert np.array_equal(found, np.isin(values, members))
    assert found.any() == bool(size)
