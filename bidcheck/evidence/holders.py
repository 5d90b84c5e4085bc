"""How many bids hold the text a pair shares: separate copies only the two hold, which weigh on their
own however long the bids (``apart_passages``), and text many bids hold word for word, which outside a
ring is the section's, not the pair's (``held_by_many``, ``without_passages``). ``judge.verdict``
decides what they make of a pair."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from bidcheck.compare.score import Score
from bidcheck.evidence.flags import mask_share
from bidcheck.model import PairResult, Side
from bidcheck.prepare import Ready

__all__ = ["apart_passages", "held_by_many", "without_passages"]

Span = tuple[int, int]
Mask = npt.NDArray[np.bool_]


def held_by_many(
    pairs: Sequence[PairResult], bids: Sequence[Ready], many: Sequence[Mask]
) -> dict[tuple[str, str], list[int]]:
    """By pair of document ids: which of its listed passages are live copied text that, on either side
    and for the most part, ``MANY_HOLDERS`` bids or more hold word for word (``many``, by bid)."""
    index = {b.doc.id: n for n, b in enumerate(bids)}
    out: dict[tuple[str, str], list[int]] = {}
    for pair in pairs:
        i, j = index[pair.a], index[pair.b]
        found = [
            n
            for n, q in enumerate(pair.passages)
            if q.live
            and not q.semantic
            and (_mostly_in(many[i], bids[i], q.a) or _mostly_in(many[j], bids[j], q.b))
        ]
        if found:
            out[(pair.a, pair.b)] = found
    return out


def _mostly_in(mask: Mask, bid: Ready, side: Side) -> bool:
    """Whether most of a passage's side (clean-text offsets) lies in ``mask`` (comparable text)."""
    bounds = np.asarray((side.start, side.end), dtype=bid.clean.norm_map.dtype)
    lo, hi = (int(x) for x in np.searchsorted(bid.clean.norm_map, bounds))
    return _mostly(mask, (lo, hi))


def _mostly(mask: Mask | None, span: Span) -> bool:
    """Whether most of a span of comparable text lies in ``mask`` (none where there is no mask)."""
    return mask is not None and mask_share(span, mask) >= 0.5


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
    out: dict[tuple[str, str], int] = {}
    for pair, score in judged:
        count = sum(
            _mostly(alone[pair.a], a) and _mostly(alone[pair.b], b)
            for a, b in score.copied
            if a[1] - a[0] >= least and not (_mostly(many.get(pair.a), a) or _mostly(many.get(pair.b), b))
        )
        if count:
            out[(pair.a, pair.b)] = count
    return out


def _partner_counts(spans: list[Span]) -> npt.NDArray[np.int32]:
    """For each character of a bid, how many of its live passages (one a partner) cover it."""
    counts = np.zeros(max(end for _, end in spans) + 1, dtype=np.int32)
    starts, ends = zip(*spans, strict=True)
    np.add.at(counts, np.array(starts), 1)
    np.add.at(counts, np.array(ends), -1)
    return np.cumsum(counts, dtype=np.int32)
