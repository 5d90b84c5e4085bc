"""The semantic layer: passages a rewriter reworded all through, found by sentence vectors.

The copy engine (``bidcheck.compare``) finds text that keeps 5-character runs; a draft run through an AI
rewriter keeps its meaning and loses nearly every run. Here each bid's own sentences (what survives
masking, and not already in a copied passage of the pair) are encoded (``encoder``), each finds its
nearest sentences in the other bids (``neighbours``), and only *runs* of consecutive sentences that
match in order (``runs``) make a passage: two plans on the same topic say similar single sentences,
a rewritten draft matches sentence after sentence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.compare.passage import RawPassage, overlaps, passage_from_marks
from bidcheck.config import Settings
from bidcheck.prepare import Ready
from bidcheck.progress import CancelFlag, ProgressFn, check_cancel, no_progress, slice_progress
from bidcheck.semantic.cache import encode_cached
from bidcheck.semantic.encoder import Encoder, EncoderMissing, load_encoder
from bidcheck.semantic.neighbours import Match, neighbour_matches
from bidcheck.semantic.runs import RunRules, aligned_runs
from bidcheck.semantic.shortlist import shortlist
from bidcheck.semantic.units import Units, bid_units, shared_wording

__all__ = [
    "SemanticPassage",
    "encoding_seconds",
    "estimate_seconds",
    "find_semantic",
    "plan_line",
    "skip_reason",
]

Mask = npt.NDArray[np.bool_]
Pair = tuple[int, int]
_MIN_UNIT_CHARS = 12  # a shorter sentence is a heading or a fragment: no meaning of its own to match
_NEIGHBOURS = 8
_MAX_SHARED_WORDING = 0.5  # the hand-written rewrites of bench/rewrites.py keep at most 0.38
_SENTENCES_PER_SECOND = 500  # the default encoder, a CPU second (16,989 sentences took 31 s of CPU)
_SHORTLIST = 1200  # sentences a shortlist picks at most (about): 2-3 CPU seconds of encoding
_LOAD_SECONDS = 2.0  # loading the default encoder, in CPU seconds (its pure-Python tokenizer most of it)
_PAIR_SECONDS = 0.025  # the shortlist's CPU seconds for a pair of real-length bids (120 s at 100 bids)


@dataclass(frozen=True)
class SemanticPassage:
    """A rewritten passage: its spans and matched sentences (``raw.marks``), and their mean cosine."""

    raw: RawPassage
    cosine: float


def skip_reason(settings: Settings, bids: int) -> str:
    """Why the layer does not run on a section of ``bids`` bids ("" when it does): switched off, or the
    section larger than ``semantic_max_bids`` (its cost grows with the pairs: minutes at 100 bids)."""
    if not settings.semantic_enabled:
        return "已在设置中关闭（semantic_enabled）"
    if bids > settings.semantic_max_bids:
        return (
            f"标段有 {bids} 份投标文件，超过上限 {settings.semantic_max_bids} 份（semantic_max_bids），"
            f"打开约需 {estimate_seconds(bids):.0f} 秒"
        )
    return ""


def plan_line(settings: Settings, bids: int) -> str:
    """What the layer will do on a section of ``bids`` bids, said before the check starts."""
    reason = skip_reason(settings, bids)
    if reason:
        return f"语义比对未运行：{reason}"
    return (
        f"语义比对约需 {estimate_seconds(bids):.0f} 秒（{bids} 份投标文件；可在设置中关闭 semantic_enabled）"
    )


def estimate_seconds(bids: int) -> float:
    """About how long the layer takes on a section of ``bids`` bids of real length (about 40,000
    characters each) on a PC that nothing else keeps busy: the model's load, the shortlist's products
    (every pair of bids) and the encoding of what it picks, from the CPU seconds ``bench/semantic.py
    --long`` measured (the stage's wall time on the shared 2-core machine at load 13–16 was 5–13 times
    as long)."""
    return _LOAD_SECONDS + _PAIR_SECONDS * bids * (bids - 1) / 2 + encoding_seconds(_SHORTLIST)


def encoding_seconds(sentences: int) -> float:
    """About how long encoding ``sentences`` sentences takes."""
    return sentences / _SENTENCES_PER_SECOND


def _encode(
    encoder: Encoder, units: Sequence[Units], progress: ProgressFn, cancel: CancelFlag | None
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """Every unit's vector, bid by bid, and the bid each row belongs to."""
    parts: list[npt.NDArray[np.float32]] = []
    owner: list[int] = []
    total = sum(len(u.texts) for u in units)
    message = f"语义比对（{total} 句，约 {encoding_seconds(total):.0f} 秒）"
    for n, u in enumerate(units):
        check_cancel(cancel)
        progress(n / len(units), message)
        parts.append(encode_cached(encoder, u.texts))
        owner += [n] * len(u.texts)
    vectors = np.vstack(parts) if parts else np.zeros((0, 1), dtype=np.float32)
    return vectors, np.asarray(owner, dtype=np.int64)


def _outside(matches: list[Match], a: Units, b: Units, copied: Sequence[RawPassage]) -> list[Match]:
    """The matches whose sentences lie in no passage the copy engine found for the pair, and keep
    little of each other's wording: a rewriter changes nearly every run, while two sentences that keep
    half their wording and were not judged a copy are one stock frame filled with other words."""
    return [
        m
        for m in matches
        if shared_wording(a.norms[m[0]], b.norms[m[1]]) < _MAX_SHARED_WORDING
        and not any(overlaps(a.spans[m[0]], p.a) or overlaps(b.spans[m[1]], p.b) for p in copied)
    ]


def _passages(matches: list[Match], a: Units, b: Units, settings: Settings) -> list[SemanticPassage]:
    """The pair's runs as passages at least ``min_passage_chars`` long."""
    rules = RunRules(settings.semantic_min_units, settings.semantic_min_mean, settings.semantic_min_cosine)
    out = []
    for run in aligned_runs(matches, a.spans, b.spans, rules):
        raw = passage_from_marks([(a.spans[m[0]], b.spans[m[1]]) for m in run])
        if raw is not None and min(raw.a[1] - raw.a[0], raw.b[1] - raw.b[0]) >= settings.min_passage_chars:
            out.append(SemanticPassage(raw, sum(m[2] for m in run) / len(run)))
    return sorted(out, key=lambda p: p.raw.a)


def find_semantic(
    bids: Sequence[Ready],
    masked: Sequence[Mask],
    copied: Mapping[Pair, Sequence[RawPassage]],
    settings: Settings,
    progress: ProgressFn = no_progress,
    cancel: CancelFlag | None = None,
) -> dict[Pair, list[SemanticPassage]]:
    """By pair of bid indexes, the passages rewritten from one another.

    ``masked``: each bid's text that is no evidence (tender, template, common, public); ``copied``:
    each pair's passages the copy engine found (their sentences are not compared again). A section
    of more than ``semantic_max_sentences`` sentences encodes only those ``shortlist`` picks: a rewrite
    of a paragraph on a stock topic, among bids full of stock sentences on it, may be missed there.
    Raises ``EncoderMissing`` when the encoder's package is not installed.
    """
    units = [bid_units(b.clean, m, _MIN_UNIT_CHARS) for b, m in zip(bids, masked, strict=True)]
    if sum(len(u.texts) for u in units) > settings.semantic_max_sentences:
        budget = min(_SHORTLIST, settings.semantic_max_sentences)
        picked = shortlist(units, copied, budget, slice_progress(progress, 0.0, 0.3), cancel)
        units = [u.subset(p.tolist()) for u, p in zip(units, picked, strict=True)]
    encoder = load_encoder(settings.semantic_encoder)
    vectors, owner = _encode(encoder, units, slice_progress(progress, 0.3, 1.0), cancel)
    matches = neighbour_matches(vectors, owner, _NEIGHBOURS, settings.semantic_min_margin)
    found = {}
    for (i, j), pair in sorted(matches.items()):
        passages = _passages(
            _outside(pair, units[i], units[j], copied.get((i, j), ())), units[i], units[j], settings
        )
        if passages:
            found[(i, j)] = passages
    return found


__all__ += ["EncoderMissing"]
