"""Verification: candidate windows become passages with exact, aligned spans on both sides.

1. *Seeds*: equal k-gram hashes of the two comparable texts, inside the candidate regions.
2. *Chains*: seeds close together in A whose B positions stay within a local neighbourhood (so
   sentences reordered inside a paragraph stay one passage; a moved paragraph becomes its own).
3. *Segments*: each chain, widened to the whole sentences it begins and ends in, is cut at A's
   sentence ends; every segment is aligned (Indel/LCS) against the part of B its seeds point at (a
   segment without seeds, against the hole its neighbours leave in B). Runs of segments that align
   form a passage, bridging one unmatched segment (a deleted or inserted sentence). A passage counts
   only if the part its seeds reach passes on its own.
4. The passage's similarity is ``2M / (|a| + |b|)`` with ``M`` the aligned characters.
"""

from __future__ import annotations

import bisect
import itertools
from typing import NamedTuple, cast

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from bidcheck.compare.inputs import AlignInput
from bidcheck.compare.passage import RawPassage, overlaps, passage_from_marks, passes, without_overlaps
from bidcheck.compare.seeds import Chain, chain_seeds, find_seeds
from bidcheck.config import Settings

__all__ = ["align_pair"]

Span = tuple[int, int]
_Opcode = tuple[str, int, int, int, int]  # tag, A's start and end, B's start and end
_SEGMENT_CHARS = 120
_SEGMENT_MIN_RATIO = 0.5  # a sentence this well aligned belongs to a passage ...
_EDGE_MIN_RATIO = 0.7  # ... and one this well aligned may begin or end it
_MIN_OPEN_SEEDS = 3  # a chain of masked text or stock phrases alone is not aligned
_JOIN_KEEPS = 0.85  # joining two neighbouring passages may cost at most 15% of the better one's similarity


def _segments(lo: int, hi: int, starts: list[int]) -> list[Span]:
    """A's span cut at sentence starts, long sentences cut further, tiny pieces merged forward."""
    cuts = [lo, *starts[bisect.bisect_right(starts, lo) : bisect.bisect_left(starts, hi)], hi]
    spans: list[Span] = []
    for s, e in itertools.pairwise(cuts):
        pieces = max(1, round((e - s) / _SEGMENT_CHARS))
        bounds = [s + (e - s) * i // pieces for i in range(pieces + 1)]
        spans.extend(itertools.pairwise(bounds))
    merged: list[Span] = []
    for span in spans:
        if merged and merged[-1][1] - merged[-1][0] < 6:
            merged[-1] = (merged[-1][0], span[1])
        else:
            merged.append(span)
    return merged


class _SegmentMatch(NamedTuple):  # tens of thousands a pair: a tuple is made fastest
    a: Span
    matched: int
    marks: tuple[tuple[Span, Span], ...]

    @property
    def good(self) -> bool:
        return self.ratio >= _SEGMENT_MIN_RATIO

    @property
    def edge(self) -> bool:
        """Aligned well enough to begin or end a passage."""
        return self.ratio >= _EDGE_MIN_RATIO

    @property
    def ratio(self) -> float:
        return self.matched / max(self.a[1] - self.a[0], 1)


def _align_segment(seg: Span, a: AlignInput, b: AlignInput, targets: list[int], k: int) -> _SegmentMatch:
    """Align one A segment against the part of B that its seeds point at."""
    if not targets:
        return _SegmentMatch(seg, 0, ())
    size = seg[1] - seg[0]
    return _align_in(seg, a, b, (max(min(targets) - size, 0), min(max(targets) + k + size, len(b.norm))))


def _align_in(seg: Span, a: AlignInput, b: AlignInput, window: Span) -> _SegmentMatch:
    """Align one A segment against the best-matching stretch of B inside ``window``."""
    lo, hi = window
    text_a = a.norm[seg[0] : seg[1]]
    found = fuzz.partial_ratio_alignment(text_a, b.norm[lo:hi])
    if found is None:
        return _SegmentMatch(seg, 0, ())
    at, to = seg[0], lo + found.dest_start
    ops = cast(list[_Opcode], Indel.opcodes(text_a, b.norm[to : lo + found.dest_end]).as_list())
    equal = [op for op in ops if op[0] == "equal"]
    marks = tuple(((at + a0, at + a1), (to + b0, to + b1)) for _, a0, a1, b0, b1 in equal)
    return _SegmentMatch(seg, sum(op[2] - op[1] for op in equal), marks)


def _segment_runs(matches: list[_SegmentMatch], max_gap: int) -> list[list[_SegmentMatch]]:
    """Runs of well-aligned segments; one poorly aligned segment up to ``max_gap`` chars is bridged."""
    runs: list[list[_SegmentMatch]] = []
    current: list[_SegmentMatch] = []
    pending: _SegmentMatch | None = None
    for match in matches:
        if match.good:
            if pending is not None and current:
                current.append(pending)
            pending = None
            current.append(match)
        elif pending is None and current and match.a[1] - match.a[0] <= max_gap:
            pending = match
        else:
            if current:
                runs.append(current)
            current, pending = [], None
    if current:
        runs.append(current)
    return runs


def _chain_passages(
    chain: Chain, a: AlignInput, b: AlignInput, settings: Settings
) -> list[tuple[RawPassage, RawPassage | None]]:
    """The chain's passages, each with its seeded core: the part inside the span its seeds reach."""
    matches = _sentence_matches(chain, a, b, settings)
    if not any(m.edge for m in matches):
        return []  # no passage can begin or end here (``_trim_edges``): most chains, of stock phrases
    groups = [
        _trim_edges(group)
        for run in _segment_runs(matches, settings.max_gap_chars)
        for group in _split_at_b_holes(run, settings.max_gap_chars)
    ]
    passages = [
        passage_from_marks([m for seg in sorted(group, key=lambda g: -g.ratio) for m in seg.marks])
        for group in groups
    ]
    return [(p, p.clipped(chain.a_lo, chain.a_hi)) for p in passages if p is not None]


def _sentence_matches(chain: Chain, a: AlignInput, b: AlignInput, settings: Settings) -> list[_SegmentMatch]:
    """Every segment of the chain's whole sentences aligned against B.

    An edge sentence that aligns too weakly as a whole to end a passage is aligned again as far as
    the seeds reach into it, when they reach at least half of it: its tail (or head) was edited, its
    seeded part may still end the passage. A sentence the seeds barely enter is left as it aligned:
    mostly that is two sentences built on one stock frame, and the edge is then trimmed (a copied
    tail of under half a sentence after an edited head is lost with it; measured, the better trade).
    """
    seeds_a = [s[0] for s in chain.seeds]  # in A's order, as the chain took them
    seeds_b = [s[1] for s in chain.seeds]

    def aligned(seg: Span) -> _SegmentMatch:
        lo, hi = bisect.bisect_left(seeds_a, seg[0]), bisect.bisect_left(seeds_a, seg[1])
        return _align_segment(seg, a, b, seeds_b[lo:hi], settings.seed_chars)

    segments = _segments(*_whole_sentences(chain.a_lo, chain.a_hi, a), a.starts)
    matches = [aligned(seg) for seg in segments]
    reached = [i for i, seg in enumerate(segments) if seg[0] < chain.a_hi and chain.a_lo < seg[1]]
    for edge in {reached[0], reached[-1]} if reached else set():
        whole = segments[edge]
        seeded = (max(whole[0], chain.a_lo), min(whole[1], chain.a_hi))
        if seeded != whole and not matches[edge].edge and 2 * (seeded[1] - seeded[0]) >= whole[1] - whole[0]:
            matches[edge] = aligned(seeded)
    return _unseeded_between(matches, a, b, settings.seed_chars)


def _unseeded_between(
    matches: list[_SegmentMatch], a: AlignInput, b: AlignInput, k: int
) -> list[_SegmentMatch]:
    """A segment that aligned nowhere, between two that aligned well, aligned in the hole they leave in B.

    Reworded all through, a sentence shares no 5-character run with its counterpart (or only runs
    found too often elsewhere to seed); when its neighbours align in B in order and leave a hole of
    half to twice its length between them, it is aligned inside that hole as far as it agrees.
    """
    out = list(matches)
    for i in range(1, len(matches) - 1):
        before, here, after = matches[i - 1], matches[i], matches[i + 1]
        if here.marks or not before.good or not after.good:
            continue
        hole = (max(m[1][1] for m in before.marks), min(m[1][0] for m in after.marks))
        size = here.a[1] - here.a[0]
        if size <= 2 * (hole[1] - hole[0]) <= 4 * size:
            out[i] = _align_in(here.a, a, b, hole)
    return out


def _whole_sentences(lo: int, hi: int, a: AlignInput) -> Span:
    """``lo..hi`` widened to the start and end of the sentences it begins and ends in, each way only
    when that is at most one segment's length (120 characters) away.

    Seeds stop where a sentence ends in a stock phrase or an edited word; the sentence still belongs
    to the passage as far as it aligns.
    """
    starts = a.starts
    first = starts[max(bisect.bisect_right(starts, lo) - 1, 0)] if starts else lo
    after = bisect.bisect_left(starts, hi)
    last = starts[after] if after < len(starts) else len(a.norm)
    return (first if lo - first <= _SEGMENT_CHARS else lo, last if last - hi <= _SEGMENT_CHARS else hi)


def _trim_edges(group: list[_SegmentMatch]) -> list[_SegmentMatch]:
    """Drop weakly aligned sentences from both ends: a passage begins and ends on solid agreement.

    The best-aligned sentences claim their text of B first (see ``passage_from_marks``).
    """
    start, end = 0, len(group)
    while start < end and not group[start].edge:
        start += 1
    while end > start and not group[end - 1].edge:
        end -= 1
    return group[start:end]


def _split_at_b_holes(run: list[_SegmentMatch], max_gap: int) -> list[list[_SegmentMatch]]:
    """Split a run where its B side has a hole: B text matched by nothing in the run lies between.

    Sentences reordered inside a paragraph leave no hole; two paragraphs that are neighbours in A but
    far apart in B do, and become two passages.
    """
    aligned = sorted((seg for seg in run if seg.marks), key=lambda seg: seg.marks[0][1][0])
    groups: list[list[_SegmentMatch]] = []
    reach = -1
    for seg in aligned:
        lo = min(b[0] for _, b in seg.marks)
        if not groups or lo > reach + max_gap:
            groups.append([])
        groups[-1].append(seg)
        reach = max(reach, max(b[1] for _, b in seg.marks))
    return _join_interleaved([sorted(group, key=lambda seg: seg.a) for group in groups])


def _join_interleaved(groups: list[list[_SegmentMatch]]) -> list[list[_SegmentMatch]]:
    """Groups whose sentences interleave in A are one region of A reordered in B: join them again."""
    joined: list[list[_SegmentMatch]] = []
    for group in sorted(groups, key=lambda g: g[0].a):
        if joined and group[0].a[0] < joined[-1][-1].a[1]:
            joined[-1] = sorted(joined[-1] + group, key=lambda seg: seg.a)
        else:
            joined.append(group)
    return joined


def align_pair(
    a: AlignInput, b: AlignInput, window_pairs: list[tuple[int, int]], settings: Settings
) -> list[RawPassage]:
    """All passages shared by A and B, found from their candidate window pairs.

    Chains are first built from the seeds that are evidence (outside masked text, no stock phrase);
    only around those is every seed chained and aligned, so text made only of what every bid says
    costs nothing. A passage is kept when it passes and so does the part its seeds reach: widening
    to whole sentences sets where a passage begins and ends, it does not make one.
    """
    seeds = find_seeds(a, b, window_pairs, settings)
    usable = a.open[seeds[:, 0]] & b.open[seeds[:, 1]]
    found: list[tuple[RawPassage, RawPassage | None]] = []
    in_a = seeds[:, 0].tolist()  # seeds are in A's order
    for lo, hi in _evidence_regions(seeds[usable], settings):
        near = seeds[bisect.bisect_left(in_a, lo[0]) : bisect.bisect_left(in_a, hi[0])]
        for chain in chain_seeds(near[(near[:, 1] >= lo[1]) & (near[:, 1] < hi[1])], settings):
            if chain.a_hi - chain.a_lo >= settings.min_passage_chars // 2:
                found.extend(_chain_passages(chain, a, b, settings))
    joined = _join_neighbours([p for p, _ in found], settings.max_gap_chars)
    cores = _join_neighbours([c for _, c in found if c is not None], settings.max_gap_chars)
    held = [c for c in cores if passes(c, settings)]
    kept = [
        p
        for p in joined
        if passes(p, settings) and any(overlaps(c.a, p.a) and overlaps(c.b, p.b) for c in held)
    ]
    return without_overlaps(kept, [], settings)


def _evidence_regions(seeds: npt.NDArray[np.int64], settings: Settings) -> list[tuple[Span, Span]]:
    """(A, B) low and high corners of the neighbourhoods of the chains of evidence seeds, merged."""
    gap, jump = settings.max_gap_chars, settings.max_jump_chars
    boxes = sorted(
        ((max(c.a_lo - gap, 0), max(c.b_lo - jump, 0)), (c.a_hi + gap, c.b_hi + jump))
        for c in chain_seeds(seeds, settings)
        if c.a_hi - c.a_lo >= settings.min_passage_chars // 2 and len(c.seeds) >= _MIN_OPEN_SEEDS
    )
    merged: list[tuple[Span, Span]] = []
    for lo, hi in boxes:
        if merged and lo[0] <= merged[-1][1][0] and lo[1] <= merged[-1][1][1] and hi[1] >= merged[-1][0][1]:
            last = merged[-1]
            merged[-1] = (
                (last[0][0], min(last[0][1], lo[1])),
                (max(last[1][0], hi[0]), max(last[1][1], hi[1])),
            )
        else:
            merged.append((lo, hi))
    return merged


def _near(x: Span, y: Span, gap: int) -> bool:
    return x[0] <= y[1] + gap and y[0] <= x[1] + gap


def _join_neighbours(passages: list[RawPassage], gap: int) -> list[RawPassage]:
    """Join passages found by different chains that continue each other on both sides.

    A seed repeated elsewhere can cut one copied paragraph into two chains; their passages touch in A
    and overlap or touch in B, and are one passage.
    """
    joined: list[RawPassage] = []
    for p in sorted(passages, key=lambda p: p.a):
        near = [q for q in joined if _near(p.a, q.a, gap) and _near(p.b, q.b, gap)]
        partner = max(near, key=lambda q: q.matched, default=None)
        merged = passage_from_marks([*partner.marks, *p.marks]) if partner is not None else None
        if (
            partner is not None
            and merged is not None
            and merged.similarity >= _JOIN_KEEPS * max(p.similarity, partner.similarity)
        ):
            joined[joined.index(partner)] = merged
        else:
            joined.append(p)
    return joined
