"""How many bids hold the text a pair shares: separate copies only the two hold, which weigh on their
own however long the bids (``apart_passages``), and text many bids hold word for word, which outside a
ring is the section's, not the pair's (``held_by_many``, ``without_passages``). ``judge.verdict``
decides what they make of a pair."""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import distinct, is_member
from bidcheck.compare.score import Score
from bidcheck.config import Settings
from bidcheck.evidence.flags import mask_share, spans_mask, true_runs
from bidcheck.evidence.masks import MANY_HOLDERS
from bidcheck.model import PairResult, Side
from bidcheck.ready import Ready

__all__ = ["apart_passages", "held_by_many", "without_passages"]

Span = tuple[int, int]
Mask = npt.NDArray[np.bool_]
_STRETCHES = 4  # a bid's stretches tried: those that hold the most of a side's phrases
_TOGETHER = 0.8  # of a form's phrases a third bid holds 0.95-1 in order; of a stock-phrase rewording 0.21


def held_by_many(
    pairs: Sequence[PairResult], bids: Sequence[Ready], many: Sequence[Mask], settings: Settings
) -> dict[tuple[str, str], list[int]]:
    """By pair of document ids: which of its listed passages are live copied text that, on either side,
    ``MANY_HOLDERS`` bids or more hold word for word (``many``, by bid): for the most part, and with no
    run of ``least`` characters left that they do not (a paragraph of the bidders' own glued to stock
    sentences stays evidence; see ``_many_hold``); or that beyond such text match only in pieces
    shorter than ``template_min_chars``, mostly phrases many bids hold (see ``_mostly_held``): two bids
    filling in the same form, the labels every bid has with digits that happen to agree between them
    (numbers of one region, one bank, one year), not a copy. Such a form is every bid's, so a third bid
    holds most of those phrases in one place and order too (``_held_together``); a rewording of a
    trade's stock phrases that only two bids share, in an order of their own, stays evidence. Copied
    text, even read by OCR, keeps runs of a sentence's length."""
    least, piece, k = settings.short_passage_chars, settings.template_min_chars, settings.seed_chars
    index = {b.doc.id: n for n, b in enumerate(bids)}
    out: dict[tuple[str, str], list[int]] = {}
    pieces: list[tuple[tuple[str, str], int, tuple[_Matched, _Matched]]] = []
    for pair in pairs:
        i, j = index[pair.a], index[pair.b]
        for n, q in enumerate(pair.passages):
            if not q.live or q.semantic:
                continue
            if _many_hold(many[i], _comparable(bids[i], q.a), least) or _many_hold(
                many[j], _comparable(bids[j], q.b), least
            ):
                out.setdefault((pair.a, pair.b), []).append(n)
                continue
            sides = (_matched(bids[i], q.a, many[i]), _matched(bids[j], q.b, many[j]))
            if all(_longest_run(side.theirs, (0, len(side.theirs))) < piece for side in sides):
                pieces.append(((pair.a, pair.b), n, sides))
    phrases = _phrases_many_hold(bids, [side for _, _, sides in pieces for side in sides])
    for key, n, sides in pieces:
        others = [b for b in bids if b.doc.id not in key]
        if all(_mostly_held(side, phrases, k) for side in sides) and any(
            _held_together(others, side, phrases) for side in sides
        ):
            out.setdefault(key, []).append(n)
    return {key: sorted(found) for key, found in out.items()}


class _Matched(NamedTuple):
    """What a passage's side matches, by comparable character of its span: all of it (``marked``),
    what ``MANY_HOLDERS`` bids or more hold word for word (``many``), the rest (``theirs``); and the
    k-grams of its span (``grams``)."""

    marked: Mask
    many: Mask
    theirs: Mask
    grams: npt.NDArray[np.uint64]


def _matched(bid: Ready, side: Side, many: Mask) -> _Matched:
    """A passage's side as ``_Matched``: its ``marks`` in comparable text."""
    lo, hi = _comparable(bid, side)
    marked = np.zeros(hi - lo, dtype=bool)
    for start, end in side.marks:
        a, b = _comparable(bid, replace(side, start=side.start + start, end=side.start + end))
        marked[max(a - lo, 0) : max(b - lo, 0)] = True
    held = marked & many[lo:hi]
    grams = bid.fingerprint.kgrams[lo:hi]
    return _Matched(marked, held, marked & ~held, grams)


def _phrases_many_hold(bids: Sequence[Ready], sides: Sequence[_Matched]) -> npt.NDArray[np.uint64]:
    """Of the k-grams of ``sides``, those ``MANY_HOLDERS`` bids or more hold (sorted): the labels of a
    form every bid fills in, phrases of the trade. Counted for these few passages alone."""
    if not sides:
        return np.zeros(0, dtype=np.uint64)
    asked = distinct(np.concatenate([side.grams for side in sides]))
    counts = np.zeros(len(asked), dtype=np.int64)
    for bid in bids:  # each bid's k-grams among those asked, each counted once
        grams = bid.fingerprint.kgrams
        counts[np.searchsorted(asked, distinct(grams[is_member(grams, asked)]))] += 1
    return asked[counts >= MANY_HOLDERS]


def _mostly_held(side: _Matched, phrases: npt.NDArray[np.uint64], k: int) -> bool:
    """Whether most of what a side matches is text or phrases (k-grams) many bids hold."""
    phrase = spans_mask(is_member(side.grams, phrases), k, len(side.marked))
    return int((side.marked & (side.many | phrase)).sum()) * 2 >= int(side.marked.sum())


def _held_together(others: Sequence[Ready], side: _Matched, phrases: npt.NDArray[np.uint64]) -> bool:
    """Whether one of the ``others`` holds ``_TOGETHER`` of the phrases (k-grams many bids hold) that
    a passage's side matches in the same order, within a stretch twice the side's length: a form every
    bid fills in has its labels in one order in every bid; stock phrases reworded in one pair's order
    stand in other bids apart and in other orders. In each bid the ``_STRETCHES`` stretches holding
    most of them are tried."""
    marked = side.marked[: len(side.grams)]  # a bid's last k - 1 characters begin no k-gram
    sequence = side.grams[marked & is_member(side.grams, phrases)]
    if not len(sequence):
        return False
    asked, width = distinct(sequence), 2 * len(side.marked)
    for bid in others:
        grams = bid.fingerprint.kgrams
        places = np.flatnonzero(is_member(grams, asked))
        if len(places) < _TOGETHER * len(asked):
            continue
        ends = np.searchsorted(places, places + width)
        for first in np.argsort(np.arange(len(places)) - ends, kind="stable")[:_STRETCHES]:
            if _in_order(sequence, grams[places[first : ends[first]]]) >= _TOGETHER * len(asked):
                return True
    return False


def _in_order(sequence: npt.NDArray[np.uint64], stretch: npt.NDArray[np.uint64]) -> int:
    """How many of ``sequence``'s k-grams a ``stretch`` holds in the same order (the longest increasing
    run of their first places in it, by patience sorting)."""
    first: dict[int, int] = {}
    for place, gram in enumerate(stretch.tolist()):
        first.setdefault(gram, place)
    tails: list[int] = []
    for gram in sequence.tolist():
        found = first.get(gram)
        if found is not None:
            at = bisect.bisect_left(tails, found)
            tails[at : at + 1] = [found]
    return len(tails)


def _comparable(bid: Ready, side: Side) -> Span:
    """A passage's side (clean-text offsets) in comparable text."""
    bounds = np.asarray((side.start, side.end), dtype=bid.clean.norm_map.dtype)
    lo, hi = (int(x) for x in np.searchsorted(bid.clean.norm_map, bounds))
    return lo, hi


def _mostly(mask: Mask | None, span: Span) -> bool:
    """Whether most of a span of comparable text lies in ``mask`` (none where there is no mask)."""
    return mask is not None and mask_share(span, mask) >= 0.5


def _many_hold(mask: Mask | None, span: Span, least: int) -> bool:
    """Whether a span of comparable text is text many bids hold: mostly in ``mask``, and no run of
    ``least`` characters of it outside. Stock sentences many bids hold around the bidders' own text mark
    only themselves, never the text they border (in long bids many a copied paragraph has some)."""
    return _mostly(mask, span) and _longest_outside(mask, span) < least


def _longest_outside(mask: Mask | None, span: Span) -> int:
    """The longest run of a span's characters outside ``mask``."""
    if mask is None:
        return span[1] - span[0]
    return _longest_run(~mask[span[0] : span[1]], (0, span[1] - span[0]))


def _longest_run(flags: Mask, span: Span) -> int:
    """The longest run of set ``flags`` within a span (past their end, none are set)."""
    return max((end - start for start, end in true_runs(flags[span[0] : span[1]])), default=0)


def without_passages(pair: PairResult, score: Score, flagged: list[int]) -> tuple[PairResult, Score]:
    """A pair with its ``flagged`` passages (indexes) listed as common text and not counted: its score
    less their share of its live characters."""
    passages = list(pair.passages)
    live = sum(q.chars for q in passages if q.live)
    left = 1 - sum(passages[n].chars for n in flagged) / live if live else 0.0
    for n in flagged:
        passages[n] = replace(passages[n], common=True)
    fewer = replace(
        score,
        similarity=score.similarity * left,
        coverage_a=score.coverage_a * left,
        coverage_b=score.coverage_b * left,
        chars=round(score.chars * left),
        passages=score.passages - len(flagged),
        flagged=score.flagged + len(flagged),
    )
    figures = {f: round(getattr(fewer, f), 4) for f in ("similarity", "coverage_a", "coverage_b")}
    return replace(pair, passages=tuple(passages), **figures), fewer


def apart_passages(
    judged: Sequence[tuple[PairResult, Score]], least: int, many: Mapping[str, Mask]
) -> dict[tuple[str, str], int]:
    """By pair of document ids: its live copied passages of ``least`` characters or more whose text,
    on both sides and for the most part, no third bid shares as a live passage with either, nor do
    many bids hold word for word (``many``, by document id): copies only these two hold. A ring's
    draft is held by three or more and is judged as a ring."""
    spans: dict[str, list[Span]] = {}
    for pair, score in judged:
        for a, b in score.copied:
            spans.setdefault(pair.a, []).append(a)
            spans.setdefault(pair.b, []).append(b)
    alone = {doc: _partner_counts(held) == 1 for doc, held in spans.items()}  # one partner's passage
    sides = {doc: _Side(one, many.get(doc), _outside(one, many.get(doc))) for doc, one in alone.items()}
    out: dict[tuple[str, str], int] = {}
    for pair, score in judged:
        count = sum(
            _only_theirs((sides[pair.a], sides[pair.b]), (a, b), least)
            for a, b in score.copied
            if a[1] - a[0] >= least
        )
        if count:
            out[(pair.a, pair.b)] = count
    return out


class _Side(NamedTuple):
    """A bid's text for ``apart_passages``: in one partner's passages only (``alone``), held by many
    (``many``), and both at once: alone and not held by many (``own``)."""

    alone: Mask
    many: Mask | None
    own: Mask


def _only_theirs(sides: tuple[_Side, _Side], spans: tuple[Span, Span], least: int) -> bool:
    """Whether a copied passage is one only the two bids hold: on both sides mostly text no third bid
    shares and many do not hold, or with a run of ``least`` characters that is (a copied paragraph
    glued to stock sentences many bids hold)."""
    mostly = all(
        _mostly(side.alone, span) and not _many_hold(side.many, span, least)
        for side, span in zip(sides, spans, strict=True)
    )
    return mostly or all(_longest_run(s.own, span) >= least for s, span in zip(sides, spans, strict=True))


def _outside(flags: Mask, mask: Mask | None) -> Mask:
    """``flags`` where ``mask`` is not set (the shorter of the two's length)."""
    if mask is None:
        return flags
    n = min(len(flags), len(mask))
    return flags[:n] & ~mask[:n]


def _partner_counts(spans: list[Span]) -> npt.NDArray[np.int32]:
    """For each character of a bid, how many of its live passages (one a partner) cover it."""
    counts = np.zeros(max(end for _, end in spans) + 1, dtype=np.int32)
    starts, ends = zip(*spans, strict=True)
    np.add.at(counts, np.array(starts), 1)
    np.add.at(counts, np.array(ends), -1)
    return np.cumsum(counts, dtype=np.int32)
