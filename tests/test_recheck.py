"""A re-check reads what an earlier check of the same files computed, and gives the same result byte for
byte; a changed file, or changed settings, is checked anew."""

from __future__ import annotations

import contextlib
import json
import pickle
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bidcheck import judged
from bidcheck.cli import SAMPLE
from bidcheck.compare import runner
from bidcheck.compare.inputs import AlignInput
from bidcheck.compare.memo import PairMemo, text_digest
from bidcheck.compare.passage import RawPassage
from bidcheck.compare.runner import PairFound
from bidcheck.config import Settings
from bidcheck.evidence.masks import SharedMasks
from bidcheck.judge import Judging, judged_pairs, ranked
from bidcheck.judged import PairInputs, PairMasks
from bidcheck.memo import load_blob, store_blob
from bidcheck.model import CheckResult, PairResult
from bidcheck.pipeline import CheckInputs, ReadMemo, check
from bidcheck.prepare import prepare_cached
from bidcheck.ready import Ready
from bidcheck.report.json import result_json
from bidcheck.session import check_with_library
from tests.builders import make_docx, paragraphs


def _normalised(result: CheckResult) -> str:
    """The result JSON without what differs from run to run (times) or place to place (paths)."""
    data = json.loads(result_json(result))
    data.pop("elapsed_s", None)
    data.pop("timings", None)
    for doc in data["documents"]:
        doc.pop("path", None)
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(folder))
    return folder


def _sample() -> CheckInputs:
    return CheckInputs(sorted((SAMPLE / "bids").iterdir()), [SAMPLE / "tender" / "招标文件.docx"])


def test_the_sample_checked_again_from_the_cache_gives_the_same_result(cache: Path) -> None:
    settings = Settings(workers=2)
    cold = check(_sample(), settings)
    assert sorted(p.name for p in (cache / "stages").rglob("*.bin")) != []
    assert list((cache / "pairs").rglob("*.bin")), "verified pairs are remembered"
    warm = check(_sample(), settings)
    assert _normalised(warm) == _normalised(cold)
    assert any(p.level == "high" for p in warm.pairs)


def test_a_recheck_against_a_library_gives_what_a_fresh_check_gives(cache: Path, tmp_path: Path) -> None:
    library, settings = tmp_path / "library.sqlite", Settings(workers=1)
    check_with_library(_sample(), settings, library, "样例")
    again, problem = check_with_library(_sample(), settings, library, "样例")
    assert problem is None and again.library is not None and again.library.error is None
    shutil.rmtree(cache)
    fresh, _ = check_with_library(_sample(), settings, library, "样例")
    assert _normalised(again) == _normalised(fresh)


def _section(root: Path, copied: int) -> CheckInputs:
    """Four bids; the second copied ``copied`` paragraphs of the first."""
    root.mkdir(exist_ok=True)
    own = {n: paragraphs(70 + n, 8) for n in range(4)}
    texts = {n: own[n] for n in range(4)}
    texts[1] = own[0][:copied] + own[1][copied:]
    bids = [make_docx(root / f"0{n + 1}-投标{n + 1}.docx", [texts[n][:4], texts[n][4:]]) for n in range(4)]
    return CheckInputs(bids)


def test_a_changed_bid_is_checked_anew(cache: Path, tmp_path: Path) -> None:
    inputs = _section(tmp_path / "s", copied=0)
    before = check(inputs, Settings(workers=1))
    assert all(p.level == "none" for p in before.pairs)
    _section(tmp_path / "s", copied=5)  # the same file names, the second bid now copies the first
    after = check(inputs, Settings(workers=1))
    shutil.rmtree(cache)
    fresh = check(inputs, Settings(workers=1))
    assert _normalised(after) == _normalised(fresh)
    assert [(p.a, p.b) for p in after.pairs if p.level == "high"] == [("d1", "d2")]


def test_changed_settings_are_not_answered_from_the_cache(cache: Path, tmp_path: Path) -> None:
    inputs = _section(tmp_path / "s", copied=5)
    check(inputs, Settings(workers=1))
    strict = Settings(workers=1, high_similarity=0.99)
    again = check(inputs, strict)
    shutil.rmtree(cache)
    assert _normalised(again) == _normalised(check(inputs, strict))


def _input(masked: list[bool]) -> AlignInput:
    norm = "甲乙丙丁戊己庚辛壬癸" * 200
    kgrams = np.arange(len(norm) - 4, dtype=np.uint64)
    starts = tuple(range(0, len(norm) - 300, 250))
    return AlignInput(norm, kgrams, np.zeros(1, np.int32), starts, np.asarray(masked * 200), None, 5)


def test_a_pair_is_remembered_under_what_verification_sees_of_both_sides(cache: Path) -> None:
    plain, masked = _input([False] * 10), _input([True] + [False] * 9)
    passage = RawPassage((0, 10), (0, 10), 10, (((0, 10), (0, 10)),))
    job = (0, 1, [(0, 0)])
    PairMemo([plain, plain], Settings()).store_pairs([job], {(0, 1): [passage]})
    assert PairMemo([plain, plain], Settings()).load_pairs([job]) == {(0, 1): [passage]}
    assert PairMemo([plain, masked], Settings()).load_pairs([job]) == {}
    assert PairMemo([plain, plain], Settings(seed_chars=6)).load_pairs([job]) == {}
    assert PairMemo([plain, plain], Settings()).load_pairs([(0, 1, [(0, 1)])]) == {}


def test_a_row_holding_no_passages_under_a_pairs_key_is_verified_again(cache: Path) -> None:
    """A row whose value under a pair's key is not a list of passages (damaged, or another program's) is
    no answer: the pair is aligned again."""
    plain = _input([False] * 10)
    passage = RawPassage((0, 10), (0, 10), 10, (((0, 10), (0, 10)),))
    job = (0, 1, [(0, 0)])
    PairMemo([plain, plain], Settings()).store_pairs([job], {(0, 1): [passage]})
    (row,) = (cache / "pairs").rglob("p*.bin")
    stored = pickle.loads(load_blob("pairs", row.stem) or b"")
    store_blob("pairs", row.stem, pickle.dumps({key: ["not a passage"] for key in stored}))
    assert PairMemo([plain, plain], Settings()).load_pairs([job]) == {}


@pytest.mark.parametrize("workers", [1, 2])
def test_the_command_lines_pairs_are_looked_up_where_they_are_aligned(
    cache: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """On the command line (no memo) a pair is looked up in the cache by the worker that would align it:
    what the cache holds under its key comes back (an entry planted there, unlike what aligning gives),
    and a pair it does not hold is aligned and stored there, by a worker process or in this one."""
    monkeypatch.setattr(runner, "_POOL_MIN_WINDOWS", 1)  # workers even for two window pairs
    plain, masked = _input([False] * 10), _input([True] + [False] * 9)
    planted = RawPassage((0, 10), (0, 10), 10, (((0, 10), (0, 10)),))
    settings, candidates = Settings(workers=workers), {(0, 1): [(0, 0)], (1, 2): [(0, 0)]}
    inputs = [plain, plain, masked]
    PairMemo(inputs, settings).store_pairs([(0, 1, [(0, 0)])], {(0, 1): [planted]})
    found = runner.compare_pairs(inputs, candidates, settings)
    assert found[(0, 1)].live == [planted]
    aligned = found[(1, 2)].live
    assert aligned and aligned != [planted]
    assert PairMemo(inputs, settings).load_pairs([(1, 2, [(0, 0)])]) == {(1, 2): aligned}


def test_a_mask_changed_away_from_a_pairs_candidates_keeps_its_verification(cache: Path) -> None:
    """Text that became common far from the pair's candidate windows (a bid was added) changes nothing
    verification reads of the pair; text that became common near them does."""
    plain = _input([False] * 10)
    far = replace(plain, masked=np.r_[np.zeros(1500, bool), np.ones(500, bool)])
    near = replace(plain, masked=np.r_[np.zeros(100, bool), np.ones(20, bool), np.zeros(1880, bool)])
    passage = RawPassage((0, 10), (0, 10), 10, (((0, 10), (0, 10)),))
    job = (0, 1, [(0, 0)])  # the first windows: k-grams 0..550 may seed
    PairMemo([plain, plain], Settings()).store_pairs([job], {(0, 1): [passage]})
    assert PairMemo([far, far], Settings()).load_pairs([job]) == {(0, 1): [passage]}
    assert PairMemo([plain, near], Settings()).load_pairs([job]) == {}
    assert PairMemo([near, plain], Settings()).load_pairs([job]) == {}


def test_a_documents_text_is_hashed_once_under_its_cache_entry(cache: Path) -> None:
    """A document read through the cache (its entry's key names its text) is hashed once a process,
    and known by its text: the same text under another entry (a file saved again) is read back, another
    text is verified again, with a cache entry or without."""
    plain, other = _input([False] * 10), replace(_input([False] * 10), norm="子丑寅卯辰巳午未申酉" * 200)
    one, two, third = replace(plain, source="d1"), replace(plain, source="d2"), replace(other, source="d3")
    assert text_digest(one) == text_digest(two) == text_digest(plain) != text_digest(other)
    assert text_digest(third) == text_digest(other)
    passage = RawPassage((0, 10), (0, 10), 10, (((0, 10), (0, 10)),))
    job = (0, 1, [(0, 0)])
    PairMemo([one, one], Settings()).store_pairs([job], {(0, 1): [passage]})
    assert PairMemo([two, plain], Settings()).load_pairs([job]) == {(0, 1): [passage]}
    assert PairMemo([one, third], Settings()).load_pairs([job]) == {}
    assert PairMemo([plain, other], Settings()).load_pairs([job]) == {}
    assert text_digest(replace(one, k=6)) != text_digest(one)


def _masked_rows(cache: Path) -> dict[Path, int]:
    return {path: path.stat().st_mtime_ns for path in (cache / "pairs").rglob("m*.bin")}


def test_a_late_bids_masked_passages_are_stored_in_its_own_row(cache: Path) -> None:
    """The passages of masked text of a late bid's pairs go into one entry, its own; the earlier bids'
    entries are not written again, and each pair is read back with its sides as they were listed (the
    late bid placed first instead is listed again)."""
    bids = [_input([True] * (n + 4) + [False] * (6 - n)) for n in range(1, 5)]  # masked k-grams differ
    passage = {
        (i, j): [RawPassage((i, i + 10), (j, j + 10), 10, (((i, i + 10), (j, j + 10)),))]
        for i in range(4)
        for j in range(4)
    }
    first = PairMemo(bids[:3], Settings())
    assert first.load_masked() == ({}, {0: [1, 2], 1: [2]})
    first.store_masked({0: [1, 2], 1: [2]}, {k: passage[k] for k in ((0, 1), (0, 2), (1, 2))})
    rows = _masked_rows(cache)
    assert len(rows) == 2
    late = PairMemo(bids, Settings())
    known, missing = late.load_masked()
    assert known == {k: passage[k] for k in ((0, 1), (0, 2), (1, 2))}
    assert missing == {0: [3], 1: [3], 2: [3]}
    late.store_masked(missing, {(0, 3): passage[(0, 3)], (2, 3): passage[(2, 3)]})
    assert {p: t for p, t in _masked_rows(cache).items() if p in rows} == rows  # not written again
    assert len(_masked_rows(cache)) == 3
    again = PairMemo(bids, Settings())
    assert again.load_masked() == ({k: passage[k] for k in ((0, 1), (0, 2), (1, 2), (0, 3), (2, 3))}, {})
    swapped = PairMemo([bids[3], *bids[:3]], Settings())  # the late bid is side A of its pairs now
    known, missing = swapped.load_masked()
    assert missing == {0: [1, 2, 3]}
    assert known == {(1, 2): passage[(0, 1)], (1, 3): passage[(0, 2)], (2, 3): passage[(1, 2)]}


def _late_bid_section(root: Path, late: bool) -> CheckInputs:
    """Bids 1, 2 and 3 share paragraph P, bids 3 and 4 paragraph Q, far from P in bid 3; the late fifth
    bid holds P too (four bids then: P becomes common text) and shares paragraph R with bid 3."""
    root.mkdir(exist_ok=True)
    p, q, r = paragraphs(90, 3), paragraphs(91, 3), paragraphs(92, 3)
    texts = [paragraphs(80 + n, 10) for n in range(5)]
    texts[0], texts[1] = texts[0] + p, p + texts[1]
    texts[2], texts[3] = q + texts[2] + r + p, q + texts[3]
    texts[4] = texts[4][:3] + p + texts[4][3:] + r
    bids = [make_docx(root / f"0{n + 1}-投标{n + 1}.docx", [text]) for n, text in enumerate(texts)]
    return CheckInputs(bids if late else bids[:4])


def _verified_pairs(cache: Path) -> set[str]:
    """The keys of the verified pairs remembered in the cache's rows."""
    rows = [pickle.loads(load_blob("pairs", path.stem) or b"") for path in (cache / "pairs").rglob("p*.bin")]
    return {key for row in rows for key in row}


def test_a_late_bid_verifies_only_the_pairs_whose_evidence_changed(cache: Path, tmp_path: Path) -> None:
    """Adding a bid to a checked section (the GUI's late file) gives what a fresh check of all the bids
    gives, though it changes the masks of earlier bids: only the new pairs with candidates are aligned,
    and an earlier pair whose masks changed away from its candidates is read back."""
    settings = Settings(workers=1, common_min_bids=4, common_alone_bids=3)  # P common from four bids on
    before = check(_late_bid_section(tmp_path / "s", late=False), settings)
    levels = {(x.a, x.b): x.level for x in before.pairs}
    assert levels[("d1", "d2")] == levels[("d2", "d3")] == levels[("d3", "d4")] == "high"
    verified = _verified_pairs(cache)
    assert len(verified) == 4  # 1-2, 1-3 and 2-3 (P), 3-4 (Q)
    after = check(_late_bid_section(tmp_path / "s", late=True), settings)
    assert len(_verified_pairs(cache) - verified) == 1  # bids 3 and 5 (R); 3-4 (Q) read back
    levels = {(x.a, x.b): x.level for x in after.pairs}
    assert levels[("d1", "d2")] == levels[("d2", "d3")] == "none"  # P is common text now
    assert levels[("d3", "d4")] == levels[("d3", "d5")] == "high"
    shutil.rmtree(cache)
    fresh = check(_late_bid_section(tmp_path / "s", late=True), settings)
    assert _normalised(after) == _normalised(fresh)


def _derived_entries(cache: Path) -> set[Path]:
    return set((cache / "derived").rglob("*.bin"))


def test_a_late_bid_of_the_sample_is_searched_alone_and_the_result_is_a_fresh_checks(cache: Path) -> None:
    """The sample's last bid added to its other five (with the tender): what the signals and the masks
    keep of each bid alone is read back for the five, worked out for the new bid only, and the result
    is what a check of all six with an empty cache gives."""
    settings, bids = Settings(workers=1), sorted((SAMPLE / "bids").iterdir())
    tender = [SAMPLE / "tender" / "招标文件.docx"]
    check(CheckInputs(bids[:-1], tender), settings)
    kept = {path: path.stat().st_mtime_ns for path in _derived_entries(cache)}
    assert kept, "each bid's identifiers and tender text are kept beside its entry"
    after = check(CheckInputs(bids, tender), settings)
    written = _derived_entries(cache) - set(kept)
    assert 2 <= len(written) <= 3  # the new bid's identifiers and tender text (and odd words' places)
    shutil.rmtree(cache)
    fresh = check(CheckInputs(bids, tender), settings)
    assert _normalised(after) == _normalised(fresh)
    assert any(p.level == "high" for p in fresh.pairs)


def _document_entries(cache: Path) -> set[Path]:
    return set((cache / "documents").rglob("*.bin"))


def test_the_windows_memo_keeps_the_files_read_and_a_late_bid_gives_a_fresh_checks_result(
    cache: Path, tmp_path: Path
) -> None:
    """The app's second check with the memo of its first (``ReadMemo``): the files checked before come
    from memory, even with their cache entries gone from disk; only the new bid is read (its entry
    written again), and the result is a fresh check's, with the library and without."""
    settings, bids = Settings(workers=1), sorted((SAMPLE / "bids").iterdir())
    tender = [SAMPLE / "tender" / "招标文件.docx"]
    for library in (None, tmp_path / "library.sqlite"):
        shutil.rmtree(cache, ignore_errors=True)
        memo = ReadMemo()
        _window_check(CheckInputs(bids[:-1], tender), settings, library, memo)
        shutil.rmtree(cache / "documents")
        after = _window_check(CheckInputs(bids, tender), settings, library, memo)
        assert len(_document_entries(cache)) == 1  # the new bid's; the others came from memory
        shutil.rmtree(cache)
        fresh = _window_check(CheckInputs(bids, tender), settings, library, ReadMemo())
        assert _normalised(after) == _normalised(fresh)
        assert any(p.level == "high" for p in fresh.pairs)


def test_the_memo_holds_only_what_the_last_check_used(cache: Path) -> None:
    settings, bids = Settings(workers=1), sorted((SAMPLE / "bids").iterdir())
    memo = ReadMemo()
    check(CheckInputs(bids), settings, memo=memo)
    check(CheckInputs(bids[:2]), settings, memo=memo)
    shutil.rmtree(cache)
    check(CheckInputs(bids), settings, memo=memo)
    assert len(_document_entries(cache)) == len(bids) - 2  # the two of the last check were in memory


def _window_check(
    inputs: CheckInputs, settings: Settings, library: Path | None, memo: ReadMemo
) -> CheckResult:
    """The window's check: with the library (then stored there) or without, with its memo."""
    if library is None:
        return check(inputs, settings, memo=memo)
    result, problem = check_with_library(inputs, settings, library, "样例", memo=memo)
    assert problem is None and result.library is not None and result.library.error is None
    return result


def test_a_memo_lets_go_of_the_documents_a_check_has_not_read() -> None:
    """Once a check has read its files, the documents of the check before that it did not read are let
    go (the app checking another section holds one section's documents); other entries stay to the end."""
    memo = ReadMemo()
    with memo.during():
        for key, value in (("documents/a", 1), ("documents/b", 2), ("derived/x", 3)):
            memo.put(key, value)
    with memo.during():
        assert memo.get("documents/a") == 1
        memo.forget_unused("documents")
        assert memo.get("documents/b") is None and memo.get("derived/x") == 3
    with memo.during():
        assert (memo.get("documents/a"), memo.get("documents/b"), memo.get("derived/x")) == (1, None, 3)


def test_the_app_judges_again_only_the_pairs_whose_evidence_changed(cache: Path) -> None:
    """The window's memo keeps each pair's judgement under what it reads: with the sample's last bid
    added, the pairs of the other bids that nothing changed for are the very results of the check
    before, and the result is a fresh check's (common text by its share alone: not judged after rings)."""
    settings, bids = (
        Settings(workers=1, common_min_bids=5, common_alone_bids=3),
        sorted((SAMPLE / "bids").iterdir()),
    )
    tender = [SAMPLE / "tender" / "招标文件.docx"]
    memo = ReadMemo()
    before = check(CheckInputs(bids[:-1], tender), settings, memo=memo)
    after = check(CheckInputs(bids, tender), settings, memo=memo)
    earlier = {(p.a, p.b): p for p in before.pairs}
    taken = [p for p in after.pairs if earlier.get((p.a, p.b)) is p]
    assert 0 < len(taken) < len(before.pairs) + 1
    assert all(p.b != f"d{len(bids)}" for p in taken)
    shutil.rmtree(cache)
    assert _normalised(after) == _normalised(check(CheckInputs(bids, tender), settings))


def test_the_apps_check_answered_from_the_cache_keeps_what_a_late_bid_reuses(cache: Path) -> None:
    """The command line checks the sample's first five bids; the app then checks them (every stage
    answered from the cache: nothing is found or judged there) and adds the sixth. The app's first check
    keeps the candidates and judgements it was given, so the pairs of the five that nothing changed for
    are the very results of that check, and the result is a fresh check's."""
    settings, bids = (
        Settings(workers=1, common_min_bids=5, common_alone_bids=3),
        sorted((SAMPLE / "bids").iterdir()),
    )
    tender = [SAMPLE / "tender" / "招标文件.docx"]
    check(CheckInputs(bids[:-1], tender), settings)
    memo = ReadMemo()
    before = check(CheckInputs(bids[:-1], tender), settings, memo=memo)
    kept = memo.get(f"candidates|{settings.window_stride}|{settings.lsh_threshold}|{settings.num_perm}")
    assert kept is not None and len(kept.sources) == len(bids) - 1  # type: ignore[attr-defined]
    after = check(CheckInputs(bids, tender), settings, memo=memo)
    earlier = {(p.a, p.b): p for p in before.pairs}
    taken = [p for p in after.pairs if earlier.get((p.a, p.b)) is p]
    assert 0 < len(taken) <= len(before.pairs)
    assert all(p.b != f"d{len(bids)}" for p in taken)
    shutil.rmtree(cache)
    assert _normalised(after) == _normalised(check(CheckInputs(bids, tender), settings))


def test_a_kept_judgement_is_not_taken_where_its_masks_or_settings_changed(
    cache: Path, tmp_path: Path
) -> None:
    """The late bid makes paragraph P common text: the earlier pairs sharing P are judged again (no
    longer ``high``), as they are under settings changed between two checks with one memo."""
    settings = Settings(workers=1, common_min_bids=4, common_alone_bids=3)
    memo = ReadMemo()
    first = check(_late_bid_section(tmp_path / "s", late=False), settings, memo=memo)
    assert {(p.a, p.b): p.level for p in first.pairs}[("d1", "d2")] == "high"
    after = check(_late_bid_section(tmp_path / "s", late=True), settings, memo=memo)
    assert {(p.a, p.b): p.level for p in after.pairs}[("d1", "d2")] == "none"
    strict = Settings(
        workers=1, common_min_bids=4, common_alone_bids=3, high_chars=10**6, high_similarity=0.99
    )
    stricter = check(_late_bid_section(tmp_path / "s", late=True), strict, memo=memo)
    assert {(p.a, p.b): p.level for p in stricter.pairs}[("d3", "d5")] != "high"
    shutil.rmtree(cache)
    assert _normalised(after) == _normalised(check(_late_bid_section(tmp_path / "s", late=True), settings))
    shutil.rmtree(cache)
    assert _normalised(stricter) == _normalised(check(_late_bid_section(tmp_path / "s", late=True), strict))


def _judged_with(
    memo: ReadMemo | None,
    bids: list[Ready],
    common: list[np.ndarray],
    found: dict,
    tender: list | None = None,
) -> list:
    """The bids judged and ranked with the given common text (and tender text), in a check with ``memo``."""
    masks = SharedMasks(
        tender or [np.zeros(len(b.clean.norm), bool) for b in bids],
        common,
        [np.zeros(len(b.fingerprint.kgrams), bool) for b in bids],
    )
    with memo.during() if memo is not None else contextlib.nullcontext():
        settings = Settings(workers=1)
        return ranked(judged_pairs(Judging(bids, masks, found, settings)), bids, settings)


def test_a_kept_judgement_is_not_taken_where_the_masks_inside_its_passages_changed(cache: Path) -> None:
    """The same passage found again, but text inside it now common: judged again (no longer live), as
    without the memo; outside every aligned passage, a changed mask leaves the judgement kept."""
    settings, paths = Settings(workers=1), sorted((SAMPLE / "bids").iterdir())[:3]
    bids = [prepare_cached(p, f"d{n}", "bid", settings).ready for n, p in enumerate(paths, start=1)]
    assert all(b is not None and b.source for b in bids)
    ready = [b for b in bids if b is not None]
    passage = RawPassage((1000, 1300), (1000, 1300), 300, (((1000, 1300), (1000, 1300)),))
    found = {(0, 1): PairFound([passage], [])}
    plain = [np.zeros(len(b.clean.norm), bool) for b in ready]
    inside, outside = [m.copy() for m in plain], [m.copy() for m in plain]
    inside[0][1050:1280] = True
    outside[0][2000:2400] = True
    memo = ReadMemo()
    first = _judged_with(memo, ready, plain, found)
    assert next(p for p in first if p.b == "d2").similarity > 0
    kept = _judged_with(memo, ready, outside, found)
    assert next(p for p in kept if p.b == "d2") is next(p for p in first if p.b == "d2")
    quoted = _judged_with(memo, ready, plain, found, tender=outside)  # read all through: the bid's own text
    assert quoted == _judged_with(None, ready, plain, found, tender=outside) != first
    assert _judged_with(memo, ready, plain, found) == first
    again = _judged_with(memo, ready, inside, found)  # the check before kept the same but inside
    assert again == _judged_with(None, ready, inside, found)
    assert next(p for p in again if p.b == "d2").similarity < next(p for p in first if p.b == "d2").similarity


def test_a_kept_judgement_is_taken_only_where_judging_again_gives_the_same(cache: Path) -> None:
    """Whatever changes between two checks of the app (text common or the tender's anywhere, inside a
    pair's passages or not; another pair's passages found or not), a judgement the memo keeps is what
    judging afresh gives: its key holds all that it reads. Twenty changes drawn at random."""
    settings, paths = Settings(workers=1), sorted((SAMPLE / "bids").iterdir())[:3]
    ready = [b for p in paths if (b := prepare_cached(p, "d0", "bid", settings).ready) is not None]
    ready = [replace(b, doc=replace(b.doc, id=f"d{n}")) for n, b in enumerate(ready, start=1)]
    size = min(len(b.clean.norm) for b in ready)
    assert len(ready) == 3 and size > 2400

    def passage(start: int, end: int) -> RawPassage:
        return RawPassage((start, end), (start, end), end - start, (((start, end), (start, end)),))

    base = {
        (0, 1): PairFound([passage(1000, 1300)], [passage(195, 355)]),
        (0, 2): PairFound([passage(2000, 2300)], []),
    }
    plain = [np.zeros(len(b.clean.norm), bool) for b in ready]
    rng = np.random.default_rng(7)
    for _ in range(20):
        common, tender = [m.copy() for m in plain], [m.copy() for m in plain]
        for masks in (common, tender) if rng.random() < 0.3 else (common,):
            for mask in masks:
                for start in rng.integers(0, size - 200, size=int(rng.integers(0, 4))):
                    mask[start : start + int(rng.integers(20, 200))] = True
        found = dict(base)
        if rng.random() < 0.5:
            found[(0, 2)] = PairFound([passage(195, 355), passage(2000, 2300)], [])
        memo = ReadMemo()
        _judged_with(memo, ready, plain, base)
        assert _judged_with(memo, ready, common, found, tender) == _judged_with(
            None, ready, common, found, tender
        )


def test_a_kept_judgement_follows_the_clause_like_text_its_greyed_passages_hold(cache: Path) -> None:
    """Two bids share a letter's commitments (greyed, masked before verification). Which of that text
    reads as a model document's is judged where aligned passages reach it: a third bid's passage over
    the same sentences makes the greyed passage 范本/合同条款语体. The memo's judgement of the first pair
    is not taken then: it read that text's register (it was kept, greyed as text many bids hold)."""
    settings, paths = Settings(workers=1), sorted((SAMPLE / "bids").iterdir())[:3]
    ready = [b for p in paths if (b := prepare_cached(p, "d0", "bid", settings).ready) is not None]
    ready = [replace(b, doc=replace(b.doc, id=f"d{n}")) for n, b in enumerate(ready, start=1)]
    assert len(ready) == 3 and all("投标有效期" in b.clean.norm[195:355] for b in ready)
    letter = RawPassage((195, 355), (195, 355), 160, (((195, 355), (195, 355)),))
    plain = [np.zeros(len(b.clean.norm), bool) for b in ready]
    alone = {(0, 1): PairFound([], [letter])}
    beside = {**alone, (0, 2): PairFound([letter], [])}

    def greyed(judged: list[PairResult]) -> list[tuple[bool, bool]]:
        return [(q.common, q.clause) for q in next(p for p in judged if (p.a, p.b) == ("d1", "d2")).passages]

    memo = ReadMemo()
    assert greyed(_judged_with(memo, ready, plain, alone)) == [(True, False)]
    assert greyed(_judged_with(memo, ready, plain, beside)) == [(True, True)]
    assert _judged_with(memo, ready, plain, beside) == _judged_with(None, ready, plain, beside)


def test_each_mask_a_judgement_reads_moves_its_key_where_it_is_read(cache: Path) -> None:
    """Every mask of ``PairMasks`` is in a kept judgement's key where the judgement reads it: all through
    (the tender's and the library's text), inside the pair's aligned passages (text out of evidence, on
    both sides; text verification left out, on the A side), inside all its passages (clause-like
    text); a change elsewhere leaves the key as it was."""
    settings, paths = Settings(workers=1), sorted((SAMPLE / "bids").iterdir())[:2]
    ready = [b for p in paths if (b := prepare_cached(p, "d0", "bid", settings).ready) is not None]
    ready = [replace(b, doc=replace(b.doc, id=f"d{n}")) for n, b in enumerate(ready, start=1)]
    assert len(ready) == 2 and min(len(b.clean.norm) for b in ready) > 2400
    live = RawPassage((1000, 1300), (1000, 1300), 300, (((1000, 1300), (1000, 1300)),))
    masked = RawPassage((195, 355), (195, 355), 160, (((195, 355), (195, 355)),))
    found = {(0, 1): PairFound([live], [masked])}
    plain = [np.zeros(len(b.clean.norm), bool) for b in ready]
    base = PairMasks(plain, plain, plain, plain, plain)

    def key(name: str, bid: int, at: int) -> str:
        marked = [m.copy() for m in plain]
        marked[bid][at] = True
        masks = replace(base, **{name: marked})
        inputs = PairInputs(ready, masks, found, settings, lambda pair: ((), ()))
        return judged._memo_keys([(0, 1)], inputs)[(0, 1)]

    before = judged._memo_keys([(0, 1)], PairInputs(ready, base, found, settings, lambda pair: ((), ())))
    places = [(bid, at) for bid in (0, 1) for at in (200, 1100, 2000)]
    moved = {
        name: {place for place in places if key(name, *place) != before[(0, 1)]}
        for name in ("template", "learned", "off", "unaligned", "clauses")
    }
    assert moved == {
        "template": {(0, 200), (0, 1100), (0, 2000), (1, 200), (1, 1100), (1, 2000)},
        "learned": {(0, 200), (0, 1100), (0, 2000), (1, 200), (1, 1100), (1, 2000)},
        "off": {(0, 1100), (1, 1100)},
        "unaligned": {(0, 1100)},
        "clauses": {(0, 200), (0, 1100), (1, 200), (1, 1100)},
    }
