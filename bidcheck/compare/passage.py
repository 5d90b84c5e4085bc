"""Passage rules: what a verified passage is, when it counts, and how it is cut where masked text lies.

Alignment (``align``) finds passages, the masked-text lister (``shared``) lists passages of masked text,
and judging (``bidcheck.judge``) cuts passages at the text that is no evidence: all three apply the
rules here and nowhere else.
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.config import Settings

__all__ = [
    "RawPassage",
    "agreement_passes",
    "agreement_passes_all",
    "agrees_outside",
    "mask_runs",
    "overlaps",
    "passage_from_marks",
    "passes",
    "split_at_masks",
    "without_overlaps",
]

Span = tuple[int, int]
Masks = tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]


@dataclass(frozen=True)
class RawPassage:
    """A verified passage in comparable-text coordinates, with the aligned sub-spans on both sides."""

    a: Span
    b: Span
    matched: int
    marks: tuple[tuple[Span, Span], ...]  # aligned (A part, B part) pairs, in A's order

    @property
    def similarity(self) -> float:
        """``2M / (|a| + |b|)``."""
        return 2 * self.matched / ((self.a[1] - self.a[0]) + (self.b[1] - self.b[0]))

    @property
    def marks_a(self) -> tuple[Span, ...]:
        """The aligned sub-spans of A, in order."""
        return tuple(a for a, _ in self.marks)

    @property
    def marks_b(self) -> tuple[Span, ...]:
        """The aligned sub-spans of B, in order."""
        return tuple(sorted(b for _, b in self.marks))

    def restricted(self, lo: int, hi: int) -> RawPassage | None:
        """The part of this passage whose A side lies in ``lo..hi``, or ``None`` if nothing aligns there."""
        return passage_from_marks([m for m in self.marks if lo <= m[0][0] and m[0][1] <= hi])

    def clipped(self, lo: int, hi: int) -> RawPassage | None:
        """This passage with its A side cut to ``lo..hi``: unlike ``restricted``, an aligned part that
        crosses a bound is cut there, alike on both sides (an aligned part is equal text)."""
        marks = []
        for (a0, a1), (b0, _) in self.marks:
            start, end = max(a0, lo), min(a1, hi)
            if start < end:
                marks.append(((start, end), (b0 + start - a0, b0 + end - a0)))
        return passage_from_marks(marks)


def passage_from_marks(marks: list[tuple[Span, Span]]) -> RawPassage | None:
    """The passage spanned by aligned (A part, B part) pairs, each character of B used once.

    Two sentences of A built on the same frame may both align to one sentence of B; only the first
    keeps that B text, so a passage never claims more agreement than its two sides hold.
    """
    marks = sorted(_one_to_one(marks))
    if not marks:
        return None
    span_a = (min(a[0] for a, _ in marks), max(a[1] for a, _ in marks))
    span_b = (min(b[0] for _, b in marks), max(b[1] for _, b in marks))
    return RawPassage(span_a, span_b, sum(a[1] - a[0] for a, _ in marks), tuple(marks))


def _one_to_one(marks: list[tuple[Span, Span]]) -> list[tuple[Span, Span]]:
    """The marks, in order, less any whose A or B characters an earlier mark already uses."""
    if not marks:
        return []
    if _disjoint([a for a, _ in marks]) and _disjoint([b for _, b in marks]):
        return marks
    used_a, used_b = _Usage(), _Usage()
    kept = []
    for a, b in marks:
        if used_a.free(a) and used_b.free(b):
            used_a.take(a)
            used_b.take(b)
            kept.append((a, b))
    return kept


def _disjoint(spans: list[Span]) -> bool:
    ordered = sorted(spans)
    return all(x[1] <= y[0] for x, y in itertools.pairwise(ordered))


class _Usage:
    """Which characters are taken: sorted, disjoint spans."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def free(self, span: Span) -> bool:
        at = bisect.bisect_right(self.starts, span[0])
        if at and self.ends[at - 1] > span[0]:
            return False
        return at == len(self.starts) or self.starts[at] >= span[1]

    def take(self, span: Span) -> None:
        at = bisect.bisect_right(self.starts, span[0])
        self.starts.insert(at, span[0])
        self.ends.insert(at, span[1])


def passes(p: RawPassage, settings: Settings) -> bool:
    """Long enough and close enough; a short passage must agree more closely than a long one.

    Two sentences written on the same stock frame ("本工程……问题较为突出，因此将……作为重点") agree on
    most of their characters over a sentence or two; copied text keeps agreeing paragraph after paragraph.
    """
    return agreement_passes(min(p.a[1] - p.a[0], p.b[1] - p.b[0]), p.similarity, settings)


def agreement_passes(shortest: int, similarity: float, settings: Settings) -> bool:
    """The rule of ``passes`` for a passage whose shorter side is ``shortest`` characters long."""
    if shortest < settings.min_passage_chars:
        return False
    if shortest < settings.short_passage_chars:
        return similarity >= settings.short_passage_similarity
    return similarity >= settings.min_passage_similarity


def agreement_passes_all(
    shortest: npt.NDArray[np.int64], similarity: npt.NDArray[np.float64], settings: Settings
) -> npt.NDArray[np.bool_]:
    """``agreement_passes`` of many passages at once."""
    close = np.where(
        shortest < settings.short_passage_chars,
        similarity >= settings.short_passage_similarity,
        similarity >= settings.min_passage_similarity,
    )
    return np.asarray((shortest >= settings.min_passage_chars) & close)


def overlaps(x: Span, y: Span) -> bool:
    """Whether two spans share a character."""
    return x[0] < y[1] and y[0] < x[1]


def _without(p: RawPassage, kept: list[RawPassage]) -> RawPassage | None:
    """The passage less the aligned parts that fall inside passages already kept."""
    marks = [m for m in p.marks if not any(overlaps(m[0], q.a) or overlaps(m[1], q.b) for q in kept)]
    return p if len(marks) == len(p.marks) else passage_from_marks(marks)


def without_overlaps(
    passages: list[RawPassage], kept: list[RawPassage], settings: Settings
) -> list[RawPassage]:
    """The passages, best first (aligned length weighted by closeness, similarity to the 4th), each
    trimmed of what ``kept`` or a better one already holds, so that none overlap on either side: a
    passage that strays at one end into text another passage matches more closely gives that text up."""
    every = [*passages, *kept]
    if _disjoint([p.a for p in every]) and _disjoint([p.b for p in every]):  # nothing to trim
        return sorted((p for p in passages if passes(p, settings)), key=lambda p: (p.a, p.b))
    taken = list(kept)
    out: list[RawPassage] = []
    for p in sorted(passages, key=lambda p: (-p.matched * p.similarity**4, p.a, p.b)):
        rest = _without(p, taken)
        if rest is None or not passes(rest, settings):
            continue
        if not any(overlaps(rest.a, q.a) or overlaps(rest.b, q.b) for q in taken):
            taken.append(rest)
            out.append(rest)
    return sorted(out, key=lambda p: (p.a, p.b))


def mask_runs(span: Span, mask: npt.NDArray[np.bool_], min_chars: int) -> list[tuple[Span, bool]]:
    """A span cut into runs inside and outside the mask; runs under ``min_chars`` join the one before."""
    s, e = span
    values = mask[s:e]
    cuts = [0, *(np.flatnonzero(values[1:] != values[:-1]) + 1).tolist(), len(values)]
    runs: list[tuple[Span, bool]] = []
    for lo, hi in itertools.pairwise(cuts):
        if runs and (hi - lo < min_chars or runs[-1][1] == bool(values[lo])):
            runs[-1] = ((runs[-1][0][0], s + hi), runs[-1][1])
        else:
            runs.append(((s + lo, s + hi), bool(values[lo])))
    if len(runs) > 1 and runs[0][0][1] - runs[0][0][0] < min_chars:
        runs[1] = ((runs[0][0][0], runs[1][0][1]), runs[1][1])
        runs.pop(0)
    return runs


def split_at_masks(
    p: RawPassage, masks: Masks, settings: Settings
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
        elif q is not None and passes(q, settings) and agrees_outside(q, masks, settings):
            live.append(q)
    return live, masked


def agrees_outside(q: RawPassage, masks: Masks, settings: Settings) -> bool:
    """Whether the passage, its masked characters left out on both sides, still makes a passage: what
    two bids share around a quoted clause or a filled-in form is evidence only if it agrees as closely."""
    open_a, open_b = ~masks[0], ~masks[1]
    length_a, length_b = int(open_a[q.a[0] : q.a[1]].sum()), int(open_b[q.b[0] : q.b[1]].sum())
    matched = sum(int((open_a[a0:a1] & open_b[b0:b1]).sum()) for (a0, a1), (b0, b1) in q.marks)
    similarity = 2 * matched / (length_a + length_b) if length_a + length_b else 0.0
    return agreement_passes(min(length_a, length_b), similarity, settings)
