"""Turning the raw passages of every pair into judged ``PairResult``s (template, common, score, level)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.compare.align import RawPassage, passes
from bidcheck.compare.score import judge_pair
from bidcheck.config import Settings
from bidcheck.evidence import mask_runs, mask_share, share_counts, template_mask
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


def _template_masks(
    bids: Sequence[Ready], templates: Sequence[Ready], settings: Settings
) -> list[npt.NDArray[np.bool_]]:
    hashes = [t.fingerprint.kgrams for t in templates]
    union = np.unique(np.concatenate(hashes)) if hashes else np.zeros(0, dtype=np.uint64)
    return [
        template_mask(
            b.fingerprint.kgrams, union, len(b.clean.norm), settings.seed_chars, settings.template_min_chars
        )
        for b in bids
    ]


def _split_by_mask(p: RawPassage, mask: npt.NDArray[np.bool_], settings: Settings) -> list[RawPassage]:
    """A passage that runs from masked text (tender, or text most bids hold) into other text becomes
    one passage of each; a part that no longer makes a passage on its own is dropped."""
    runs = mask_runs(p.a, mask, settings.min_passage_chars)
    if len(runs) == 1:
        return [p]
    parts = [p.restricted(*span) for span, _ in runs]
    return [q for q in parts if q is not None and passes(q, settings)]


def _flagged_parts(
    passages: list[RawPassage], masks: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]], settings: Settings
) -> list[tuple[RawPassage, bool]]:
    """Passages split at the mask's edges, each with whether it is mostly masked text (on either side)."""
    threshold = settings.template_share
    parts = [q for p in passages for q in _split_by_mask(p, masks[0], settings)]
    return [(q, max(mask_share(q.a, masks[0]), mask_share(q.b, masks[1])) >= threshold) for q in parts]


def _flag_template(
    found: dict[tuple[int, int], list[RawPassage]], masks: list[npt.NDArray[np.bool_]], settings: Settings
) -> dict[tuple[int, int], list[_Flagged]]:
    return {
        (i, j): [_Flagged(q, flag) for q, flag in _flagged_parts(passages, (masks[i], masks[j]), settings)]
        for (i, j), passages in found.items()
    }


def _common_masks(
    flagged: dict[tuple[int, int], list[_Flagged]], lengths: list[int], settings: Settings
) -> list[npt.NDArray[np.bool_]]:
    """For each bid: which characters at least ``common_min_bids`` and ``common_share`` of all bids hold."""
    spans: list[list[Span]] = [[] for _ in lengths]
    for (i, j), passages in flagged.items():
        for p in passages:
            if not p.template:
                spans[i].append(p.raw.a)
                spans[j].append(p.raw.b)
    needed = max(settings.common_min_bids, math.ceil(settings.common_share * len(lengths) - 1e-9))
    return [share_counts(n, s) + 1 >= needed for n, s in zip(lengths, spans, strict=True)]


def _flag_common(
    flagged: dict[tuple[int, int], list[_Flagged]], lengths: list[int], settings: Settings
) -> dict[tuple[int, int], list[_Flagged]]:
    """Passages of text held by at least ``common_min_bids`` bids and ``common_share`` of all bids."""
    masks = _common_masks(flagged, lengths, settings)
    out = {}
    for (i, j), passages in flagged.items():
        template = [f for f in passages if f.template]
        live = [f.raw for f in passages if not f.template]
        parts = _flagged_parts(live, (masks[i], masks[j]), settings)
        out[(i, j)] = sorted(
            template + [_Flagged(q, False, flag) for q, flag in parts], key=lambda f: f.raw.a
        )
    return out


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
    rel = tuple(
        (clean.clean_span(s, e)[0] - start, clean.clean_span(s, e)[1] - start)
        for s, e in _merged_marks(marks)
    )
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
    masks: list[npt.NDArray[np.bool_]],
    settings: Settings,
) -> PairResult:
    a, b = bids[i], bids[j]
    live = [f.raw for f in flagged if not (f.template or f.common)]
    similarity, cov_a, cov_b, level, reason = judge_pair(
        [p.a for p in live], [p.b for p in live], (masks[i], masks[j]), len(flagged) - len(live), settings
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
    templates: Sequence[Ready],
    found: dict[tuple[int, int], list[RawPassage]],
    settings: Settings,
) -> list[PairResult]:
    """Every pair of readable bids judged, ranked by level and similarity."""
    masks = _template_masks(bids, templates, settings)
    flagged = _flag_common(
        _flag_template(found, masks, settings), [len(b.clean.norm) for b in bids], settings
    )
    pairs = [
        _pair_result(i, j, bids, flagged.get((i, j), []), masks, settings)
        for i in range(len(bids))
        for j in range(i + 1, len(bids))
    ]
    rank = {"high": 0, "watch": 1, "none": 2}
    return sorted(pairs, key=lambda p: (rank[p.level], -p.similarity, p.a, p.b))
