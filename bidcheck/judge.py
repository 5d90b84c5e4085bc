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
from bidcheck.evidence import find_rings, mask_runs, mask_share, raise_rings
from bidcheck.evidence.clauses import clause_mask
from bidcheck.evidence.masks import SharedMasks
from bidcheck.fingerprint import simhash_similarity
from bidcheck.model import PairResult, Passage, Side
from bidcheck.prepare import Ready
from bidcheck.text import CleanText

__all__ = ["judge_all"]

Span = tuple[int, int]
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class _Flagged:
    raw: RawPassage
    template: bool
    common: bool = False


def _split(
    p: RawPassage, masks: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]], settings: Settings
) -> tuple[list[RawPassage], list[RawPassage]]:
    """An aligned passage cut at the masked text: (its evidence, its parts of masked text).

    The evidence is the parts outside the masked text that still make a passage. A copied paragraph
    that quotes a short stretch of tender text stays one passage; one that runs on into a longer
    stretch (``min_passage_chars``) ends where that stretch begins.
    """
    live: list[RawPassage] = []
    masked: list[RawPassage] = []
    for (lo, hi), is_masked in mask_runs(p.a, masks[0], settings.min_passage_chars):
        q = p.restricted(lo, hi)
        if q is not None and is_masked:
            masked.append(q)
        elif q is not None and passes(q, settings) and _agrees_outside(q, masks, settings):
            live.append(q)
    return live, masked


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
    i: int, j: int, found: PairFound, masks: SharedMasks, off: Sequence[Mask], settings: Settings
) -> list[_Flagged]:
    """The live passages of a pair (outside the ``off`` text of either bid), then its passages of masked
    text where they do not overlap them: those verification left out, and the parts of aligned
    passages that lie in text masked only now (clause-like text, common text judged after rings)."""
    live: list[RawPassage] = []
    masked: list[RawPassage] = list(found.masked)
    for p in found.live:
        parts, cut = _split(p, (off[i], off[j]), settings)
        live += parts
        masked += [q for q in cut if mask_share(q.a, masks.unaligned(i)) < settings.template_share]
    kept = without_overlaps(live, [], settings)
    flagged = without_overlaps(masked, kept, settings)
    out = [_Flagged(q, False) for q in kept] + [_flag(q, i, j, masks, settings) for q in flagged]
    return sorted(out, key=lambda f: (f.raw.a, f.raw.b))


def _public_masks(bids: Sequence[Ready], found: dict[tuple[int, int], PairFound]) -> list[Mask]:
    """For each bid, which characters of the aligned passages it shares lie in clause-like sentences
    (see ``evidence.clauses``): the register of model documents is public text, never evidence."""
    within = [np.zeros(len(b.clean.norm), dtype=bool) for b in bids]
    for (i, j), pair in found.items():
        for p in pair.live:
            within[i][p.a[0] : p.a[1]] = True
            within[j][p.b[0] : p.b[1]] = True
    return [clause_mask(b.clean, w) for b, w in zip(bids, within, strict=True)]


class _Sides:
    """The sides of every passage to be listed, located in their documents in one batch per document
    (page, paragraph, clean-text span, wording and marks): numpy over all of a document's sides at once
    instead of a few small array steps for each of tens of thousands of passages."""

    def __init__(self, bids: Sequence[Ready]) -> None:
        self._bids = bids
        self._asked: list[dict[tuple[Span, tuple[Span, ...]], int]] = [{} for _ in bids]

    def ask(self, doc: int, span: Span, marks: tuple[Span, ...]) -> int:
        """Ask for one side; its number in ``located()[doc]``. A side asked again (a bid's copy of
        the tender's text, shared with bid after bid) is located once and its ``Side`` shared."""
        return self._asked[doc].setdefault((span, marks), len(self._asked[doc]))

    def located(self) -> list[list[Side]]:
        return [_located(b.clean, list(asked)) for b, asked in zip(self._bids, self._asked, strict=True)]


def _located(clean: CleanText, asked: list[tuple[Span, tuple[Span, ...]]]) -> list[Side]:
    if not asked:
        return []
    spans = np.asarray([span for span, _ in asked], dtype=np.int64)
    starts = clean.norm_map[spans[:, 0]].astype(np.int64)
    ends = clean.norm_map[spans[:, 1] - 1].astype(np.int64) + 1
    block = np.maximum(np.searchsorted(np.asarray(clean.block_starts), starts, "right") - 1, 0)
    pages = np.asarray(clean.block_pages)[block].tolist() if clean.block_pages else [1] * len(asked)
    paragraphs = np.asarray(clean.block_paragraphs)[block].tolist() if clean.block_pages else [0] * len(asked)
    lows, highs, bounds = _merged_marks(clean, [marks for _, marks in asked], starts)
    text, starts_l, ends_l = clean.text, starts.tolist(), ends.tolist()
    return [
        Side(
            pages[n],
            paragraphs[n],
            starts_l[n],
            ends_l[n],
            text[starts_l[n] : ends_l[n]],
            tuple(zip(lows[bounds[n] : bounds[n + 1]], highs[bounds[n] : bounds[n + 1]], strict=True)),
        )
        for n in range(len(asked))
    ]


def _merged_marks(
    clean: CleanText, marks: list[tuple[Span, ...]], starts: npt.NDArray[np.int64]
) -> tuple[list[int], list[int], list[int]]:
    """Each side's marks (in order) merged where they overlap or touch, in clean-text offsets from the
    side's start: (lows, highs, where each side's marks begin)."""
    counts = np.asarray([len(m) for m in marks], dtype=np.int64)
    flat = np.asarray([x for m in marks for x in m], dtype=np.int64).reshape(-1, 2)
    if not len(flat):
        return [], [], [0] * (len(marks) + 1)
    side = np.repeat(np.arange(len(marks)), counts)
    apart = side * (int(flat.max()) + 1)  # no mark of one side reaches another's
    lo, hi = flat[:, 0] + apart, flat[:, 1] + apart
    reach = np.maximum.accumulate(hi)
    first = np.flatnonzero(np.r_[True, lo[1:] > reach[:-1]])
    lo_m = lo[first] - apart[first]
    hi_m = np.maximum.reduceat(hi, first) - apart[first]
    owner = side[first]
    lows = clean.norm_map[lo_m].astype(np.int64) - starts[owner]
    highs = clean.norm_map[hi_m - 1].astype(np.int64) + 1 - starts[owner]
    bounds = np.searchsorted(owner, np.arange(len(marks) + 1)).tolist()
    return lows.tolist(), highs.tolist(), bounds


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
    listed: list[Passage],
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
    passages, omitted = _capped(listed, settings.max_passages_per_pair)
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


def _listed_passages(
    keys: list[tuple[int, int]], flagged: list[list[_Flagged]], bids: Sequence[Ready]
) -> list[list[Passage]]:
    """Every pair's flagged passages as located ``Passage``s (see ``_Sides``)."""
    sides = _Sides(bids)
    asked = [
        [(sides.ask(i, f.raw.a, f.raw.marks_a), sides.ask(j, f.raw.b, f.raw.marks_b)) for f in pair]
        for (i, j), pair in zip(keys, flagged, strict=True)
    ]
    located = sides.located()
    return [
        [
            Passage(
                located[i][x],
                located[j][y],
                round(f.raw.similarity, 4),
                f.raw.a[1] - f.raw.a[0],
                f.template,
                f.common,
            )
            for f, (x, y) in zip(pair, numbers, strict=True)
        ]
        for (i, j), pair, numbers in zip(keys, flagged, asked, strict=True)
    ]


def _judged(
    keys: list[tuple[int, int]],
    flagged: list[list[_Flagged]],
    bids: Sequence[Ready],
    masks: SharedMasks,
    settings: Settings,
) -> list[PairResult]:
    listed = _listed_passages(keys, flagged, bids)
    return [
        _pair_result(i, j, bids, f, passages, masks, settings)
        for (i, j), f, passages in zip(keys, flagged, listed, strict=True)
    ]


def _ring_pairs(
    keys: list[tuple[int, int]],
    bids: Sequence[Ready],
    masks: SharedMasks,
    found: dict[tuple[int, int], PairFound],
    public: list[Mask],
    settings: Settings,
) -> set[tuple[int, int]]:
    """The pairs inside a ring when common text counts like any other (see ``common_after_rings``)."""
    empty = PairFound([], [])
    off = [masks.fixed(n) | p for n, p in enumerate(public)]
    flagged = [_pair_passages(i, j, found.get((i, j), empty), masks, off, settings) for i, j in keys]
    pairs = _judged(keys, flagged, bids, masks, settings)
    rings = find_rings(pairs, settings.ring_min_chars)
    ids = [b.doc.id for b in bids]
    return {(i, j) for i, j in keys if any(ids[i] in r.members and ids[j] in r.members for r in rings)}


def judge_all(
    bids: Sequence[Ready],
    masks: SharedMasks,
    found: dict[tuple[int, int], PairFound],
    settings: Settings,
) -> list[PairResult]:
    """Every pair of readable bids judged (rings raised, see ``raise_rings``), ranked by level and
    similarity. Where common text is judged after rings, a pair inside a ring keeps the common text
    it shares as evidence: in a small section the ring's draft is what most bids hold."""
    empty = PairFound([], [])
    keys = [(i, j) for i in range(len(bids)) for j in range(i + 1, len(bids))]
    public = _public_masks(bids, found)
    ring = _ring_pairs(keys, bids, masks, found, public, settings) if masks.after_rings else set()
    off = [masks.either(n) | p for n, p in enumerate(public)]
    ring_off = [masks.fixed(n) | p for n, p in enumerate(public)]
    flagged = [
        _pair_passages(i, j, found.get((i, j), empty), masks, ring_off if (i, j) in ring else off, settings)
        for i, j in keys
    ]
    pairs = _judged(keys, flagged, bids, masks, settings)
    pairs = raise_rings(pairs, {b.doc.id: b.doc.name for b in bids}, settings.ring_min_chars)
    rank = {"high": 0, "watch": 1, "none": 2}
    return sorted(pairs, key=lambda p: (rank[p.level], -p.similarity, p.a, p.b))
