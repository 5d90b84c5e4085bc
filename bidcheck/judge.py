"""Turning the raw passages of every pair into judged ``PairResult``s (template, common, score, level)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.compare.align import RawPassage, agreement_passes, passes, without_overlaps
from bidcheck.compare.runner import PairFound
from bidcheck.compare.score import judge_pair
from bidcheck.config import Settings
from bidcheck.evidence import mask_runs, mask_share, raise_rings
from bidcheck.evidence.masks import SharedMasks
from bidcheck.fingerprint import simhash_similarity
from bidcheck.model import PairResult, Passage, Side
from bidcheck.prepare import Ready
from bidcheck.text import CleanText

__all__ = ["judge_all"]

Span = tuple[int, int]


@dataclass(frozen=True)
class _Flagged:
    raw: RawPassage
    template: bool
    common: bool = False


def _live_parts(
    p: RawPassage, masks: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]], settings: Settings
) -> list[RawPassage]:
    """The evidence in an aligned passage: its parts outside the masked text that still make a passage.

    A copied paragraph that quotes a short stretch of tender text stays one passage; one that runs on
    into a longer stretch (``min_passage_chars``) ends where that stretch begins.
    """
    parts = [
        p.restricted(lo, hi)
        for (lo, hi), masked in mask_runs(p.a, masks[0], settings.min_passage_chars)
        if not masked
    ]
    return [q for q in parts if q is not None and passes(q, settings) and _agrees_outside(q, masks, settings)]


def _agrees_outside(
    q: RawPassage, masks: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]], settings: Settings
) -> bool:
    """Whether the passage, its masked characters left out on both sides, still makes a passage: what
    two bids share around a quoted clause or a filled-in form is evidence only if it agrees as closely."""
    open_a, open_b = ~masks[0], ~masks[1]
    length_a, length_b = int(open_a[q.a[0] : q.a[1]].sum()), int(open_b[q.b[0] : q.b[1]].sum())
    matched = sum(int((open_a[a0:a1] & open_b[b0:b1]).sum()) for (a0, a1), (b0, b1) in q.marks)
    similarity = 2 * matched / (length_a + length_b) if length_a + length_b else 0.0
    return agreement_passes(min(length_a, length_b), similarity, settings)


def _flag(q: RawPassage, i: int, j: int, masks: SharedMasks, settings: Settings) -> _Flagged:
    """A passage of masked text is template text when mostly so on either side, else common text."""
    share = max(mask_share(q.a, masks.template[i]), mask_share(q.b, masks.template[j]))
    template = share >= settings.template_share
    return _Flagged(q, template, not template)


def _pair_passages(
    i: int, j: int, found: PairFound, masks: SharedMasks, settings: Settings
) -> list[_Flagged]:
    """The live passages of a pair, then its passages of masked text where they do not overlap them."""
    either = (masks.either(i), masks.either(j))
    live = [q for p in found.live for q in _live_parts(p, either, settings)]
    kept = without_overlaps(live, [], settings)
    flagged = without_overlaps(found.masked, kept, settings)
    out = [_Flagged(q, False) for q in kept] + [_flag(q, i, j, masks, settings) for q in flagged]
    return sorted(out, key=lambda f: (f.raw.a, f.raw.b))


def _merged_marks(marks: tuple[Span, ...]) -> list[Span]:
    merged: list[Span] = []
    for s, e in marks:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return merged


def _side(clean: CleanText, span: Span, marks: tuple[Span, ...]) -> Side:
    start, end = clean.clean_span(*span)
    page, paragraph = clean.locate(start)
    merged = np.asarray(_merged_marks(marks), dtype=np.int64).reshape(-1, 2)
    lows = clean.norm_map[merged[:, 0]] - start
    highs = clean.norm_map[merged[:, 1] - 1] + 1 - start
    rel = tuple(zip(lows.tolist(), highs.tolist(), strict=True))
    return Side(page, paragraph, start, end, clean.text[start:end], rel)


def _passage(f: _Flagged, a: CleanText, b: CleanText) -> Passage:
    raw = f.raw
    return Passage(
        _side(a, raw.a, raw.marks_a),
        _side(b, raw.b, raw.marks_b),
        round(raw.similarity, 4),
        raw.a[1] - raw.a[0],
        f.template,
        f.common,
    )


def _capped(passages: list[Passage], cap: int) -> tuple[list[Passage], int]:
    if len(passages) <= cap:
        return passages, 0
    best = sorted(passages, key=lambda p: (not p.live, -p.chars, p.a.start))[:cap]
    return sorted(best, key=lambda p: (p.a.start, p.b.start)), len(passages) - cap


def _pair_result(
    i: int,
    j: int,
    bids: Sequence[Ready],
    flagged: list[_Flagged],
    masks: SharedMasks,
    settings: Settings,
) -> PairResult:
    a, b = bids[i], bids[j]
    live = [f.raw for f in flagged if not (f.template or f.common)]
    similarity, cov_a, cov_b, level, reason = judge_pair(
        [p.a for p in live],
        [p.b for p in live],
        (masks.template[i], masks.template[j]),
        len(flagged) - len(live),
        settings,
    )
    passages, omitted = _capped(
        [_passage(f, a.clean, b.clean) for f in flagged], settings.max_passages_per_pair
    )
    return PairResult(
        a.doc.id,
        b.doc.id,
        round(similarity, 4),
        round(cov_a, 4),
        round(cov_b, 4),
        round(simhash_similarity(a.fingerprint.simhash, b.fingerprint.simhash), 4),
        level,
        reason,
        tuple(passages),
        omitted,
    )


def judge_all(
    bids: Sequence[Ready],
    masks: SharedMasks,
    found: dict[tuple[int, int], PairFound],
    settings: Settings,
) -> list[PairResult]:
    """Every pair of readable bids judged (rings raised, see ``raise_rings``), ranked by level and
    similarity."""
    empty = PairFound([], [])
    pairs = [
        _pair_result(
            i, j, bids, _pair_passages(i, j, found.get((i, j), empty), masks, settings), masks, settings
        )
        for i in range(len(bids))
        for j in range(i + 1, len(bids))
    ]
    pairs = raise_rings(pairs, {b.doc.id: b.doc.name for b in bids}, settings.min_passage_chars)
    rank = {"high": 0, "watch": 1, "none": 2}
    return sorted(pairs, key=lambda p: (rank[p.level], -p.similarity, p.a, p.b))
