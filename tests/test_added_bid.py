"""The app's check with a bid more counts the frequent k-grams and looks for candidates only where the
bid changed something (``bidcheck.evidence.frequent``, ``bidcheck.compare.kept``): the masks and the
candidates are those a check without the memo finds, bid for bid, as bids are added one at a time
(past the count's slack, so that it is also counted afresh), taken away, reordered and changed."""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from bidcheck.compare import align_inputs, candidate_window_pairs
from bidcheck.compare.candidates import WindowPairs, mostly_open_windows
from bidcheck.compare.kept import Section, keep_candidate_pairs, kept_candidate_pairs
from bidcheck.config import Settings
from bidcheck.evidence.masks import SharedMasks, shared_masks
from bidcheck.memo import ReadMemo
from bidcheck.prepare import prepare_cached
from bidcheck.ready import Ready
from tests.builders import make_docx, paragraphs

SETTINGS = Settings()
_STOCK = paragraphs(900, 12, sentences=2)  # held by more or fewer bids: each crosses the thresholds in turn
_TENDER = paragraphs(901, 4)


@pytest.fixture(scope="module")
def bids(tmp_path_factory: pytest.TempPathFactory) -> list[Ready]:
    """34 bids, each its own text, the tender's paragraphs, and each stock paragraph with a chance that
    differs by paragraph (from a few bids to nearly all)."""
    folder = tmp_path_factory.mktemp("added")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BIDCHECK_CACHE_DIR", str(folder / "cache"))
        return [_bid(folder, n) for n in range(34)]


def _bid(folder: Path, n: int) -> Ready:
    rng = random.Random(n)
    stock = [p for x, p in enumerate(_STOCK) if rng.random() < 0.3 + x * 0.06]
    text = paragraphs(1000 + n, 6) + stock + _TENDER[: 2 + n % 3]
    rng.shuffle(text)
    path = make_docx(folder / f"bid{n:02}.docx", [text[: len(text) // 2], text[len(text) // 2 :]])
    ready = prepare_cached(path, f"d{n + 1}", "bid", SETTINGS).ready
    assert ready is not None and ready.source
    return ready


@pytest.fixture(scope="module")
def tender(tmp_path_factory: pytest.TempPathFactory) -> Ready:
    path = make_docx(tmp_path_factory.mktemp("tender") / "tender.docx", [_TENDER])
    ready = prepare_cached(path, "t1", "tender", SETTINGS).ready
    assert ready is not None
    return ready


def _masks_and_candidates(bids: Sequence[Ready], tender: Ready) -> tuple[SharedMasks, WindowPairs]:
    """The masks and candidates as the pipeline finds them (``_find_candidates``), with the running
    check's memo if there is one."""
    masks, section = _section(bids, tender)
    kept = kept_candidate_pairs(section, *_SHAPE)
    if kept is None:
        kept = candidate_window_pairs(section.windows, section.kgrams, *_SHAPE, list(section.usable))
    return masks, kept


_SHAPE = (SETTINGS.window_stride, SETTINGS.lsh_threshold, SETTINGS.num_perm)


def _section(bids: Sequence[Ready], tender: Ready) -> tuple[SharedMasks, Section]:
    """The masks, and what the candidates are found from (as the pipeline's ``_candidate_section``)."""
    masks = shared_masks(bids, [tender], SETTINGS)
    aligned = align_inputs(
        bids, [masks.unaligned(n) for n in range(len(bids))], masks.stock, SETTINGS.seed_chars
    )
    usable = [
        (x.open, mostly_open_windows(x.unmasked, b.fingerprint.window_starts, SETTINGS.window_chars))
        for x, b in zip(aligned, bids, strict=True)
    ]
    return masks, Section(bids, usable)


def _same_masks(a: SharedMasks, b: SharedMasks) -> bool:
    pairs = [
        (x, y)
        for name in ("template", "common", "stock")
        for x, y in zip(getattr(a, name), getattr(b, name), strict=True)
    ]
    return all(np.array_equal(x, y) for x, y in pairs)


def _steps(bids: list[Ready]) -> list[list[Ready]]:
    """Sections in the order a user might make them: 20 bids, then one more at a time to 32 (the count's
    slack runs out on the way), one taken away, the bids reordered, one bid's file changed, one more."""
    steps = [bids[:n] for n in range(20, 33)]
    steps.append(bids[:10] + bids[11:32])
    steps.append(bids[16:32] + bids[:16])
    steps.append([*bids[:31], bids[33]])
    steps.append([*bids[:31], bids[33], bids[32]])
    return steps


def test_the_memos_masks_and_candidates_are_a_fresh_checks_at_every_step(
    bids: list[Ready], tender: Ready
) -> None:
    memo = ReadMemo()
    moved_masks = moved_pairs = 0
    before: tuple[SharedMasks, WindowPairs] | None = None
    for step in _steps(bids):
        with memo.during():
            masks, candidates = _masks_and_candidates(step, tender)
        fresh_masks, fresh = _masks_and_candidates(step, tender)  # no memo: all counted, all indexed
        assert _same_masks(masks, fresh_masks)
        assert candidates == fresh and list(candidates) == list(fresh)
        if before is not None and len(step) == len(before[0].stock) + 1:  # a bid added at the end
            earlier = len(before[0].stock)
            moved_masks += sum(
                not np.array_equal(x, y)
                for x, y in zip(
                    before[0].stock + before[0].common,
                    masks.stock[:earlier] + masks.common[:earlier],
                    strict=True,
                )
            )
            moved_pairs += sum(
                before[1].get(key) != candidates.get(key)
                for key in set(before[1]) | {k for k in candidates if k[1] < earlier}
            )
        before = (masks, candidates)
    assert moved_masks > 0, "bids added changed earlier bids' masks: what the memo must not reuse blindly"
    assert moved_pairs > 0, "and earlier pairs' candidates"


def test_candidates_given_by_an_earlier_check_are_kept_as_if_found_here(
    bids: list[Ready], tender: Ready
) -> None:
    """The app's check answered from the stage cache (the command line checked the section first) keeps
    the candidates it was given (``keep_candidate_pairs``) as a check that found them keeps them, and the
    next check, a bid more, finds from them what a fresh check finds."""
    key = f"candidates|{SETTINGS.window_stride}|{SETTINGS.lsh_threshold}|{SETTINGS.num_perm}"
    found_here, given = ReadMemo(), ReadMemo()
    with found_here.during():
        _masks_and_candidates(bids[:20], tender)
    _, found = _masks_and_candidates(bids[:20], tender)  # the command line's, no memo
    with given.during():
        keep_candidate_pairs(_section(bids[:20], tender)[1], found, *_SHAPE)
    a, b = found_here.get(key), given.get(key)
    assert a is not None and b is not None
    assert a.sources == b.sources and a.pairs == b.pairs == found  # type: ignore[attr-defined]
    for x, y in zip(a.docs, b.docs, strict=True):  # type: ignore[attr-defined]
        assert np.array_equal(x.keep, y.keep) and np.array_equal(x.entries, y.entries)
        assert all(np.array_equal(p, q) for p, q in zip(x.prints, y.prints, strict=True))
    with given.during():
        _, candidates = _masks_and_candidates(bids[:21], tender)
    assert candidates == _masks_and_candidates(bids[:21], tender)[1]


def test_a_bid_read_outside_the_cache_leaves_the_candidates_to_the_full_indexes(
    bids: list[Ready], tender: Ready
) -> None:
    """A document without a cache entry cannot be known again: no memo is kept or used for it."""
    section = [*bids[:20], Ready(bids[20].doc, bids[20].clean, bids[20].fingerprint, "")]
    with ReadMemo().during():
        masks, candidates = _masks_and_candidates(section, tender)
    fresh_masks, fresh = _masks_and_candidates(section, tender)
    assert _same_masks(masks, fresh_masks) and candidates == fresh


def test_masks_remembered_on_disk_come_back_the_same_in_an_eighth_of_the_bytes(
    bids: list[Ready], tender: Ready
) -> None:
    """The candidates stage is remembered for a re-check with the masks' bits packed."""
    masks = shared_masks(bids[:24], [tender], SETTINGS)
    masks.unaligned(0)  # the unions worked out of the masks are not stored
    back = pickle.loads(pickle.dumps(masks, protocol=pickle.HIGHEST_PROTOCOL))
    assert _same_masks(back, masks) and back.after_rings == masks.after_rings
    assert all(np.array_equal(back.either(n), masks.either(n)) for n in range(24))
    assert all(m.dtype == bool for m in back.template + back.common + back.stock)
    chars = sum(len(m) for m in masks.template + masks.common + masks.stock)
    assert len(pickle.dumps(masks, protocol=pickle.HIGHEST_PROTOCOL)) < chars / 4
