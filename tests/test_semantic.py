"""The semantic layer: a draft run through a rewriter is found, bids on the same topics are not raised."""

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt
import openpyxl
import pytest

from bench.corpus import Prose, generate_section
from bench.grammar import lexicon_paragraph, paragraph
from bench.rewrites import REWRITES
from bench.semantic import STYLES
from bidcheck import semantic
from bidcheck.cli import main
from bidcheck.compare.passage import RawPassage
from bidcheck.compare.score import Score
from bidcheck.config import Settings, SettingsError
from bidcheck.judge import verdict
from bidcheck.memo import CACHE_ENV, load_blob, store_blob
from bidcheck.model import Block, CheckResult, Document, PairResult, load_result
from bidcheck.pipeline import CheckInputs, check
from bidcheck.report import write_json, write_xlsx
from bidcheck.report.json import result_json
from bidcheck.semantic import SectionSize, estimate_seconds, skip_reason
from bidcheck.semantic.ahead import encode_lists
from bidcheck.semantic.cache import BidVectors, cached_vectors, list_key
from bidcheck.semantic.encoder import Encoder, load_encoder
from bidcheck.semantic.neighbours import neighbour_matches
from bidcheck.semantic.runs import RunRules, aligned_runs
from bidcheck.semantic.shortlist import char_vectors, column_best, shortlist
from bidcheck.semantic.units import Units, bid_units
from bidcheck.semantic.units import _own_sentences as own_sentences
from bidcheck.text import build_clean_text
from tests.builders import make_docx

RULES = RunRules(min_units=3, min_mean=1.1)


def _spans(count: int, length: int = 30) -> list[tuple[int, int]]:
    return [(n * (length + 5), n * (length + 5) + length) for n in range(count)]


def test_three_sentences_in_order_make_a_run() -> None:
    a, b = _spans(10), _spans(10)
    matches = [(2, 5, 0.7, 1.3), (3, 6, 0.6, 1.2), (4, 7, 0.7, 1.25)]
    assert aligned_runs(matches, a, b, RULES) == [matches]


def test_a_rewriter_may_swap_two_neighbouring_sentences() -> None:
    a, b = _spans(10), _spans(10)
    matches = [(2, 5, 0.7, 1.3), (3, 7, 0.6, 1.2), (4, 6, 0.7, 1.25), (5, 8, 0.7, 1.2)]
    assert aligned_runs(matches, a, b, RULES) == [matches]


def test_one_similar_sentence_or_scattered_ones_make_no_run() -> None:
    a, b = _spans(30), _spans(30)
    assert aligned_runs([(2, 5, 0.9, 1.5)], a, b, RULES) == []
    scattered = [(2, 5, 0.9, 1.5), (9, 6, 0.9, 1.5), (20, 7, 0.9, 1.5)]  # far apart in A
    assert aligned_runs(scattered, a, b, RULES) == []


def test_a_run_of_sentences_that_are_merely_usual_is_no_passage() -> None:
    a, b = _spans(10), _spans(10)
    usual = [(2, 5, 0.8, 1.0), (3, 6, 0.8, 1.02), (4, 7, 0.8, 1.05)]  # close, but so is everything
    assert aligned_runs(usual, a, b, RULES) == []


def test_a_partner_that_stands_out_has_a_high_margin_a_stock_sentence_does_not() -> None:
    """Six bids of three sentences: each has the same stock sentence (alike everywhere), and bid 1's
    first sentence is a rewrite of bid 0's (alike there only)."""
    rng = np.random.default_rng(1)
    stock = rng.normal(size=32)
    rows = []
    for _ in range(6):
        rows += [rng.normal(size=32), stock + 0.1 * rng.normal(size=32), rng.normal(size=32)]
    rows[3] = rows[0] + 0.4 * rng.normal(size=32)
    vectors = np.stack([r / np.linalg.norm(r) for r in rows]).astype(np.float32)
    owner = np.repeat(np.arange(6), 3).astype(np.int64)
    found = {
        (x, y): (cosine, margin) for x, y, cosine, margin in neighbour_matches(vectors, owner, 3, 0.0)[(0, 1)]
    }
    assert found[(0, 0)][1] > 2.0  # the rewrite: far closer than the sentence's usual neighbours
    assert found[(1, 1)][0] > 0.95 and found[(1, 1)][1] < 1.05  # the stock sentence: close, but usual
    assert (0, 0) in {(x, y) for x, y, _, _ in neighbour_matches(vectors, owner, 3, 1.1)[(0, 1)]}
    assert (1, 1) not in {(x, y) for x, y, _, _ in neighbour_matches(vectors, owner, 3, 1.1)[(0, 1)]}


def test_the_encoder_puts_a_rewritten_sentence_nearer_than_any_on_the_same_topic() -> None:
    """Sentence by sentence (a whole paragraph on the same topic is close to any other on it)."""
    encoder = load_encoder("use")
    wins = []
    for entry in REWRITES[:6]:
        drafts, rewrites, topic = (
            encoder.encode([s + "。" for s in text.split("。") if s])
            for text in (entry.original, entry.rewrite, entry.same_topic)
        )
        for draft, rewrite in zip(drafts, rewrites, strict=True):
            wins.append(float(draft @ rewrite) > float(np.max(topic @ draft)))
    assert sum(wins) >= 0.9 * len(wins)


def test_semantic_settings_are_validated() -> None:
    with pytest.raises(SettingsError, match="semantic_min_units"):
        Settings(semantic_min_units=1)
    with pytest.raises(SettingsError, match="semantic_encoder"):
        Settings(semantic_encoder="bert")
    with pytest.raises(SettingsError, match="semantic_weight"):
        Settings(semantic_weight=0.0)


# ---------------------------------------------------------------- a real section


def _own(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [paragraph(rng) for _ in range(count)]


@pytest.fixture(scope="module")
def section(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], Path]:
    """Six bids of their own wording (docx); 02 holds three of 01's paragraphs reworded all through, 04
    three paragraphs on the topics of three of 03's, in the same order, written independently."""
    drafts, topics = REWRITES[:3], REWRITES[3:6]
    planted = {
        1: [r.original for r in drafts],
        2: [r.rewrite for r in drafts],
        3: [r.original for r in topics],
        4: [r.same_topic for r in topics],
    }
    return _six_bids(tmp_path_factory.mktemp("semantic"), planted, 700, 14)


def _six_bids(root: Path, planted: dict[int, list[str]], seed: int, own: int) -> tuple[list[Path], Path]:
    """Six docx bids of ``own`` paragraphs of their own wording (from ``seed``), bid n holding
    ``planted[n]`` after its sixth paragraph, and a tender."""
    paths = []
    for n in range(1, 7):
        text = _own(seed + n, own)
        text[6:6] = planted.get(n, [])
        paths.append(make_docx(root / f"0{n}-投标人{n}.docx", [text[:8], text[8:]]))
    return paths, make_docx(root / "招标文件.docx", [_own(seed + 99, 6)])


def _pair(result: CheckResult, a: int, b: int) -> PairResult:
    names = {d.id: d.name for d in result.documents}
    return next(p for p in result.pairs if {names[p.a][:2], names[p.b][:2]} == {f"0{a}", f"0{b}"})


@pytest.fixture(scope="module")
def checked(section: tuple[list[Path], Path]) -> CheckResult:
    paths, tender = section
    return check(CheckInputs(tuple(paths), (tender,)), Settings(workers=2))


def test_a_reworded_draft_is_a_semantic_passage_and_raises_its_pair(checked: CheckResult) -> None:
    pair = _pair(checked, 1, 2)
    rewritten = [p for p in pair.passages if p.semantic]
    assert rewritten, pair.reason
    assert pair.level == "watch"
    assert "语义改写" in pair.reason
    texts = [side.text for p in rewritten for side in (p.a, p.b)]
    for draft in REWRITES[:3]:
        sentences = [s for s in draft.original.split("。") if s]
        inside = [s for s in sentences if any(s in text for text in texts)]
        assert len(inside) >= len(sentences) / 2, (draft.topic, texts)
    assert all(0.4 < p.similarity < 1.0 and p.live for p in rewritten)
    assert "semantic" in checked.timings


def test_paragraphs_on_the_same_topics_and_clean_pairs_get_no_semantic_passage(checked: CheckResult) -> None:
    rewritten = _pair(checked, 1, 2)
    for pair in checked.pairs:
        if pair is not rewritten:
            assert not any(p.semantic for p in pair.passages), pair.reason
            assert pair.level == "none", pair.reason


def test_sentences_matched_in_order_make_a_pair_high_as_a_setting_of_the_verdict() -> None:
    score = Score(0.03, 0.03, 0.03, 900, 3, 0, rewritten=3, rewritten_chars=900, rewritten_units=12)
    level, reason = verdict(score, None, {}, Settings())
    assert level == "high" and "其中语义改写 3 段（900 字，12 句依次对应）" in reason, reason
    assert verdict(replace(score, rewritten_units=11), None, {}, Settings())[0] == "watch"
    assert verdict(score, None, {}, Settings(semantic_high_units=13))[0] == "watch"


@pytest.fixture(scope="module")
def plan_checked(tmp_path_factory: pytest.TempPathFactory) -> CheckResult:
    """Six bids of their own wording: 02's plan is 01's six drafts rewritten one after another, in the
    bench's four styles in turn (as written, reordered, merged, split); 04 writes on 03's six topics in
    the same order, apart."""
    drafts, topics = REWRITES[6:12], REWRITES[12:18]
    styles = list(STYLES.values())
    planted = {
        1: [r.original for r in drafts],
        2: [styles[n % len(styles)](r.rewrite) for n, r in enumerate(drafts)],
        3: [r.original for r in topics],
        4: [r.same_topic for r in topics],
    }
    paths, tender = _six_bids(tmp_path_factory.mktemp("plan"), planted, 750, 40)
    return check(CheckInputs(tuple(paths), (tender,)), Settings(workers=2))


def test_a_plan_rewritten_from_one_draft_is_high_and_one_written_apart_is_not(
    plan_checked: CheckResult,
) -> None:
    """Before, a plan rewritten from one draft was 二级观察 unless its rewrites were a fifth of the bid."""
    pair = _pair(plan_checked, 1, 2)
    assert pair.level == "high" and "句依次对应" in pair.reason, pair.reason
    assert pair.similarity < Settings().high_similarity  # the share rule alone keeps it at watch
    for other in plan_checked.pairs:
        if other is not pair:
            assert other.level == "none" and not any(p.semantic for p in other.passages), other.reason


def test_the_json_marks_a_rewritten_passage_and_reads_it_back(checked: CheckResult, tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    write_json(checked, out)
    data = json.loads(out.read_text(encoding="utf-8"))
    passages = [p for pair in data["pairs"] for p in pair["passages"]]
    assert any(p["semantic"] is True and 0.4 < p["similarity"] < 1.0 for p in passages)
    assert all(isinstance(p["semantic"], bool) for p in passages)
    again = load_result(out)
    assert [p.semantic for q in again.pairs for p in q.passages] == [
        p.semantic for q in checked.pairs for p in q.passages
    ]


def test_the_workbook_has_a_semantic_column_in_its_own_colour(checked: CheckResult, tmp_path: Path) -> None:
    out = tmp_path / "report.xlsx"
    write_xlsx(checked, out)
    sheet = openpyxl.load_workbook(out)["共同段落"]
    header = [c.value for c in sheet[1]]
    column = header.index("语义改写") + 1
    rows = [r for r in range(2, sheet.max_row + 1) if sheet.cell(r, column).value == "是"]
    assert rows
    for r in rows:
        assert sheet.cell(r, header.index("类别") + 1).value == "语义改写"
        assert sheet.cell(r, column).fill.fgColor.rgb.endswith("EFE3FF")


def test_the_layer_switched_off_finds_no_rewrite_and_says_so(section: tuple[list[Path], Path]) -> None:
    paths, tender = section
    result = check(CheckInputs(tuple(paths), (tender,)), Settings(workers=2, semantic_enabled=False))
    assert not any(p.semantic for q in result.pairs for p in q.passages)
    assert _pair(result, 1, 2).level == "none"
    assert result.semantic_note == "语义比对未运行：已在设置中关闭（semantic_enabled）"


def test_sentences_encoded_beside_the_verification_are_the_ones_the_stage_would_encode(
    section: tuple[list[Path], Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``overlaps.encode_ahead``: a small section's sentences are encoded in threads while the pairs
    are verified, and the semantic stage encodes none itself; the result is the one of a check with
    that overlap off (``BIDCHECK_OVERLAPS_OFF=vectors``), where the stage encodes them all."""
    stage_encoded: list[int] = []

    def counted(name: str, lists: list[BidVectors], threads: int, *rest: Callable[..., object]) -> None:
        stage_encoded.append(sum(len(b.texts) for b in lists if b.rows is None))
        encode_lists(name, lists, threads, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(semantic, "encode_lists", counted)
    paths, tender = section
    results = []
    for off in ("", "vectors"):
        monkeypatch.setenv("BIDCHECK_OVERLAPS_OFF", off)
        monkeypatch.setenv(CACHE_ENV, str(tmp_path / (off or "ahead")))  # nothing encoded before
        results.append(check(CheckInputs(tuple(paths), (tender,)), Settings(workers=2)))
        results[-1] = replace(results[-1], elapsed_s=0.0, timings={})
        if not off:
            assert stage_encoded == []
    assert len(stage_encoded) == 1 and stage_encoded[0] > 100  # every sentence of the six bids
    assert result_json(results[0]) == result_json(results[1])
    assert any(p.semantic for q in results[0].pairs for p in q.passages)


def test_a_check_the_layer_ran_in_has_no_note(checked: CheckResult) -> None:
    assert checked.semantic_note == ""


def test_a_section_larger_than_its_limit_is_checked_without_the_layer(
    section: tuple[list[Path], Path],
) -> None:
    paths, tender = section
    result = check(CheckInputs(tuple(paths), (tender,)), Settings(workers=2, semantic_max_bids=5))
    assert not any(p.semantic for q in result.pairs for p in q.passages)
    assert result.semantic_note.startswith(
        "语义比对未运行：标段有 6 份投标文件，超过上限 5 份（semantic_max_bids），打开约需"
    )


def test_ten_generated_bids_on_one_topic_get_no_semantic_passage(tmp_path: Path) -> None:
    """A bench.quality section: ten bids of one trade written from the same sentence frames, copies
    planted in some pairs. The copies are the copy engine's; the layer adds nothing anywhere."""
    section = generate_section(tmp_path, bids=10, seed=203)
    result = check(CheckInputs(tuple(section.bids), (section.tender,)), Settings(workers=2))
    assert not any(p.semantic for q in result.pairs for p in q.passages)
    expected = {frozenset((p["a"], p["b"])): p["accepted"] for p in section.truth["pairs"]}  # type: ignore[index]
    names = {d.id: d.name for d in result.documents}
    for pair in result.pairs:
        assert pair.level in expected.get(frozenset((names[pair.a], names[pair.b])), ["none"])


def _sentences(text: str) -> list[str]:
    return [s + "。" for s in text.split("。") if s]


def test_a_bids_whole_list_of_sentences_is_cached_together() -> None:
    """A bid's sentences are encoded in batches and cached as one list: the same list comes back from
    the cache without the encoder, a list with one sentence more is encoded again whole, and a damaged
    entry is encoded again."""
    encoder = load_encoder("use")
    texts = _sentences(REWRITES[15].original)
    first = cached_vectors("use", texts).vectors(lambda: encoder)
    assert np.array_equal(first, encoder.encode(texts))
    assert cached_vectors("use", texts).missing == []
    assert np.array_equal(cached_vectors("use", texts).vectors(_no_encoder), first)
    longer = [*texts, _sentences(REWRITES[16].original)[0]]
    assert cached_vectors("use", longer).missing == list(range(len(longer)))
    (entry,) = (Path(os.environ["BIDCHECK_CACHE_DIR"]) / "sentences").rglob(f"{list_key('use', texts)}.bin")
    entry.write_bytes(b"\0" * 10)  # a torn write
    assert np.array_equal(cached_vectors("use", texts).vectors(lambda: encoder), first)


def _no_encoder() -> Encoder:
    raise AssertionError("every sentence was cached: the encoder is not wanted")


def test_units_are_sentences_of_prose_outside_masked_text() -> None:
    doc = Document(
        "d1",
        "x.docx",
        "x.docx",
        "docx",
        blocks=(
            Block("第三章 施工组织设计与质量保证措施说明"),  # a heading
            Block("1 履带式挖掘机 SY215C 6台 开工前进场使用", kind="table"),  # a row of a table
            Block("沟槽开挖以挖掘机为主、人工清底为辅，开挖前先复核管线走向。槽底验收合格后立即施工垫层。"),
        ),
    )
    clean = build_clean_text(doc)
    units = bid_units(clean, np.zeros(len(clean.norm), dtype=bool), 12)
    assert units.texts == (
        "沟槽开挖以挖掘机为主、人工清底为辅，开挖前先复核管线走向。",
        "槽底验收合格后立即施工垫层。",
    )
    masked = np.zeros(len(clean.norm), dtype=bool)
    masked[units.spans[0][0] : units.spans[0][1]] = True
    assert bid_units(clean, masked, 12).texts == ("槽底验收合格后立即施工垫层。",)


def test_a_section_with_more_sentences_than_its_limit_encodes_a_shortlist_of_them(
    section: tuple[list[Path], Path],
) -> None:
    paths, tender = section
    said: list[str] = []
    settings = Settings(workers=2, semantic_max_sentences=60)
    result = check(CheckInputs(tuple(paths), (tender,)), settings, lambda _f, message: said.append(message))
    assert result.semantic_note == ""
    assert "语义比对：挑选候选句" in said
    encoded = {int(m) for m in re.findall(r"语义比对（(\d+) 句", "".join(said))}
    assert encoded and max(encoded) <= 60
    everything = check(CheckInputs(tuple(paths), (tender,)), Settings(workers=2))
    assert sum(len(p.passages) for p in result.pairs) <= sum(len(p.passages) for p in everything.pairs)


def test_the_note_is_in_the_json_the_workbook_and_the_summary(
    section: tuple[list[Path], Path], tmp_path: Path
) -> None:
    paths, tender = section
    out, xlsx, settings = tmp_path / "r.json", tmp_path / "r.xlsx", tmp_path / "s.json"
    settings.write_text(json.dumps({"semantic_max_bids": 5}), encoding="utf-8")
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = ["check", *map(str, paths), "--tender", str(tender), "--json", str(out), "--xlsx", str(xlsx)]
    assert main([*argv, "--settings", str(settings)], stdout, stderr) == 0
    before = stderr.getvalue().splitlines()[0]
    assert before.startswith("语义比对未运行：标段有 6 份投标文件，超过上限 5 份") and "打开约需" in before
    note = json.loads(out.read_text(encoding="utf-8"))["semantic_note"]
    assert note.startswith("语义比对未运行：标段有 6 份投标文件") and note in stdout.getvalue()
    assert load_result(out).semantic_note == note
    summary = openpyxl.load_workbook(xlsx)["概要"]
    assert ("语义比对", note) in [(r[0].value, r[1].value) for r in summary.iter_rows(max_col=2)]


def test_before_a_check_the_cli_says_what_the_layer_will_cost(section: tuple[list[Path], Path]) -> None:
    paths, tender = section
    stderr = io.StringIO()
    assert main(["check", *map(str, paths), "--tender", str(tender)], io.StringIO(), stderr) == 0
    first = stderr.getvalue().splitlines()[0]
    assert re.fullmatch(
        r"语义比对约需 \d+ 秒（6 份投标文件，约 [\d.]+ 万字；可在设置中关闭 semantic_enabled）", first
    )
    assert "semantic_note" not in first
    hundred = SectionSize((42_000,) * 100)
    assert estimate_seconds(hundred) > 2 * estimate_seconds(SectionSize((42_000,) * 12))
    assert skip_reason(Settings(), hundred).startswith("标段有 100 份投标文件，超过上限 60 份")
    assert skip_reason(Settings(semantic_max_bids=100), hundred) == ""


def _long_bid(rng: random.Random, planted: list[str], at: int, prose: Prose = lexicon_paragraph) -> Units:
    """A bid of 60 paragraphs (about 330 sentences) with ``planted`` paragraphs at ``at``."""
    paragraphs = [prose(rng) for _ in range(60)]
    paragraphs[at:at] = planted
    doc = Document("d", "x.docx", "x.docx", "docx", blocks=tuple(Block(p) for p in paragraphs))
    clean = build_clean_text(doc)
    return bid_units(clean, np.zeros(len(clean.norm), dtype=bool), 12)


def test_the_shortlist_picks_a_rewritten_draft_among_thousands_of_sentences() -> None:
    """Six bids of 330 sentences each; bid 1 holds two drafts, bid 4 their rewrites. The shortlist
    keeps the drafts' and rewrites' sentences, and a small part of the rest."""
    rng = random.Random(5)
    drafts = REWRITES[:2]
    units = [_long_bid(rng, [], 10) for _ in range(6)]
    units[1] = _long_bid(rng, [r.original for r in drafts], 20)
    units[4] = _long_bid(rng, [r.rewrite for r in drafts], 33)
    picked = shortlist(units, {}, budget=300)
    for bid, text in ((1, "".join(r.original for r in drafts)), (4, "".join(r.rewrite for r in drafts))):
        planted = [n for n, t in enumerate(units[bid].texts) if t in text]
        kept = set(picked[bid].tolist())
        assert sum(n in kept for n in planted) >= 0.8 * len(planted), (bid, planted, sorted(kept))
    assert sum(len(p) for p in picked) <= 300


def test_the_shortlist_leaves_out_what_the_pair_copied() -> None:
    rng = random.Random(6)
    units = [_long_bid(rng, [], 10) for _ in range(3)]
    units[0] = _long_bid(rng, [REWRITES[3].original], 5)
    units[2] = _long_bid(rng, [REWRITES[3].rewrite], 40)
    assert any(len(p) for p in shortlist(units, {}, budget=300))
    spans = [s for n, s in enumerate(units[0].spans) if units[0].texts[n] in REWRITES[3].original]
    partner = [s for n, s in enumerate(units[2].spans) if units[2].texts[n] in REWRITES[3].rewrite]
    copied = RawPassage((spans[0][0], spans[-1][1]), (partner[0][0], partner[-1][1]), 1, ())
    picked = shortlist(units, {(0, 2): [copied]}, budget=300)
    assert not any(units[0].texts[n] in REWRITES[3].original for n in picked[0].tolist())


def _json(result: CheckResult) -> str:
    """The result JSON less the times (what a check from a warm cache must give byte for byte)."""
    return re.sub(r'"(elapsed_s|timings)": [^\n]*\n', "", result_json(result))


def _check_with_cache(
    paths: list[Path], tender: Path, cache: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> tuple[CheckResult, list[int]]:
    """The section checked with the given cache folder, and the sentences the layer said it encodes."""
    said: list[str] = []
    monkeypatch.setenv(CACHE_ENV, str(cache))
    result = check(CheckInputs(tuple(paths), (tender,)), settings, lambda _f, m: said.append(m))
    return result, [int(n) for n in re.findall(r"语义比对（(\d+) 句，约", "".join(said))]


@pytest.mark.parametrize("max_sentences", [150, 6000])
def test_a_late_bid_with_a_warm_cache_gives_a_fresh_checks_result(
    section: tuple[list[Path], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, max_sentences: int
) -> None:
    """02 (the rewrite of 01's drafts) comes late: the five others were checked before, their lists of
    sentences' vectors cached. The check of all six gives a fresh check's result JSON byte for byte,
    where every sentence is encoded and where the shortlist picks 150 of them; a cache whose vectors were
    damaged would not (so the late check did read the cache)."""
    paths, tender = section
    settings = Settings(workers=2, semantic_max_sentences=max_sentences)
    others = [p for n, p in enumerate(paths) if n != 1]
    _check_with_cache(others, tender, tmp_path / "warm", settings, monkeypatch)
    late, _ = _check_with_cache(paths, tender, tmp_path / "warm", settings, monkeypatch)
    fresh, _ = _check_with_cache(paths, tender, tmp_path / "cold", settings, monkeypatch)
    assert any(p.semantic for p in _pair(fresh, 1, 2).passages)
    assert _json(late) == _json(fresh)
    shutil.rmtree(tmp_path / "warm" / "stages")  # the stages' results: the layer runs again
    again, encoded = _check_with_cache(paths, tender, tmp_path / "warm", settings, monkeypatch)
    assert _json(again) == _json(fresh) and not encoded  # every list from the cache, none encoded
    _scramble_vectors(tmp_path / "warm")
    shutil.rmtree(tmp_path / "warm" / "stages")
    stale, _ = _check_with_cache(paths, tender, tmp_path / "warm", settings, monkeypatch)
    assert _json(stale) != _json(fresh)


def _scramble_vectors(cache: Path) -> None:
    """Every cached list of vectors replaced by random numbers of the same shape, stored as the cache
    stores (a changed byte alone is found and the list computed again)."""
    rng = np.random.default_rng(3)
    entries = list((cache / "sentences").rglob("s*.bin"))
    assert entries, "no list of vectors is cached"
    for entry in entries:
        count = len(load_blob("sentences", entry.stem) or b"") // 4
        store_blob("sentences", entry.stem, rng.standard_normal(count).astype("<f4").tobytes())


def _char_vectors_at_once(texts: list[str], dims: int = 256) -> npt.NDArray[np.float32]:
    """The shortlist's character vectors summed for every text at once (as before they were summed a
    block of texts at a time)."""
    lengths = np.fromiter((len(t) for t in texts), dtype=np.int64, count=len(texts))
    codes = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    rows = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
    chars, df = np.unique(np.unique(rows * 0x110000 + codes) % 0x110000, return_counts=True)
    weight = np.log(len(texts) / df)[np.searchsorted(chars, codes)]
    bucket = ((codes * 0x9E3779B1) & 0xFFFFFFFF) * dims >> 32
    signed = np.where((codes * 0x85EBCA77) & 0x80000000, weight, -weight)
    flat = np.bincount(rows * dims + bucket, weights=signed, minlength=len(texts) * dims)
    vectors = flat.reshape(len(texts), dims).astype(np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    return vectors


def test_character_vectors_summed_block_by_block_are_those_summed_at_once() -> None:
    rng = random.Random(8)
    texts = [s for _ in range(1500) for s in lexicon_paragraph(rng).split("。")]  # empty ones too
    assert len(texts) > 2 * 4096
    assert np.array_equal(char_vectors(texts), _char_vectors_at_once(texts))
    assert np.array_equal(char_vectors(texts[:10]), _char_vectors_at_once(texts[:10]))


def test_character_vectors_of_texts_holding_more_distinct_characters_than_a_short_counts() -> None:
    """Over 65,536 distinct characters (a hostile file) the characters are put in order another way:
    numbered in a short, the character numbered n and the one numbered n + 65,536 would be one."""
    chars = [chr(c) for c in (*range(0x3400, 0x9FFF), *range(0x20000, 0x2A6DF))]  # numbered in this order
    over = len(chars) - (1 << 16)
    assert over > 1000
    texts = ["".join(chars[n : n + 50]) for n in range(0, len(chars), 50)]  # every character
    texts += [chars[n] + chars[n + (1 << 16)] + chars[n] for n in range(over)]  # one held twice
    assert np.array_equal(char_vectors(texts), _char_vectors_at_once(texts))


@pytest.mark.parametrize("shape", [(1, 6), (6, 1), (255, 40), (256, 40), (257, 40), (1400, 1300)])
def test_each_columns_best_looked_down_block_by_block_is_argmaxs(shape: tuple[int, int]) -> None:
    """The shortlist's closest unit of each column taken in blocks of rows: argmax's row (the first
    on a tie, planted here in whole rows of the highest score) and its score, for every shape."""
    rng = np.random.default_rng(shape[0])
    scores = rng.standard_normal(shape).astype(np.float32)
    scores[rng.integers(0, shape[0], size=3)] = scores.max()
    rows, best = column_best(scores)
    assert np.array_equal(rows, scores.argmax(axis=0))
    assert np.array_equal(best, scores[scores.argmax(axis=0), np.arange(shape[1])])


def test_units_are_the_sentences_a_slice_of_the_mask_each_would_keep() -> None:
    """The masked share of each sentence from one running sum keeps the sentences that averaging each
    sentence's slice of the mask keeps, at every share of masked text."""
    rng = random.Random(9)
    blocks = tuple(Block(lexicon_paragraph(rng)) for _ in range(40))
    clean = build_clean_text(Document("d", "x.docx", "x.docx", "docx", blocks=blocks))
    starts = [int(s) for s in clean.sentence_starts]
    sentences = [(s, e) for s, e in zip(starts, [*starts[1:], len(clean.norm)], strict=True) if e > s]
    draws = np.random.default_rng(9)
    for share in (0.0, 0.1, 0.25, 0.5, 1.0):
        masked = draws.random(len(clean.norm)) < share
        masked[: len(masked) // 4] = True
        for min_chars in (1, 12, 40):
            kept = [(s, e) for s, e in sentences if e - s >= min_chars and masked[s:e].mean() <= 0.25]
            assert own_sentences(clean, masked, min_chars) == kept
            assert kept or share >= 0.5
