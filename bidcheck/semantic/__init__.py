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
from bidcheck.progress import CancelFlag, ProgressFn, check_cancel, no_progress, slice_progress
from bidcheck.ready import Ready
from bidcheck.semantic.ahead import EncodingAhead, encode_lists, section_units
from bidcheck.semantic.cache import cached_vectors
from bidcheck.semantic.encoder import EncoderMissing, Vectors, load_encoder, preload_encoder
from bidcheck.semantic.neighbours import Match, neighbour_matches
from bidcheck.semantic.plan import (
    SHORTLIST,
    SectionSize,
    encoding_seconds,
    estimate_seconds,
    plan_line,
    section_size,
    shortlisted,
    skip_reason,
)
from bidcheck.semantic.runs import RunRules, aligned_runs
from bidcheck.semantic.shortlist import shortlist
from bidcheck.semantic.units import Units, shared_wording

__all__ = [
    "EncodingAhead",
    "SectionSize",
    "SemanticPassage",
    "estimate_seconds",
    "find_semantic",
    "plan_line",
    "preload_encoder",
    "section_size",
    "shortlisted",
    "skip_reason",
]

Mask = npt.NDArray[np.bool_]
Pair = tuple[int, int]
_NEIGHBOURS = 8
_MAX_SHARED_WORDING = 0.5  # the hand-written rewrites of bench/rewrites.py keep at most 0.38


@dataclass(frozen=True)
class SemanticPassage:
    """A rewritten passage: its spans and matched sentences (``raw.marks``), and their mean cosine."""

    raw: RawPassage
    cosine: float


def _encode(
    name: str,
    units: Sequence[Units],
    progress: ProgressFn,
    cancel: CancelFlag | None,
    given: tuple[Mapping[str, Vectors], int],
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """Every unit's vector, bid by bid, and the bid each row belongs to: encoded ahead in this check
    (``given``: by cache key, and the threads to encode the rest in) or from the cache, those never
    encoded encoded now (the encoder is loaded only for them: see ``semantic.cache``)."""
    encoded, threads = given
    cached = [cached_vectors(name, u.texts, encoded) for u in units if u.texts]
    owner = [n for n, u in enumerate(units) for _ in u.texts]
    missing = sum(len(bid.missing) for bid in cached)
    chars = sum(len(bid.texts[n]) for bid in cached for n in bid.missing)
    seconds = max(1, round(encoding_seconds(chars) / max(1, threads)))
    message = (  # encoded: in an earlier check (the cache), or in this one beside the verification
        f"语义比对（{missing} 句，约 {seconds} 秒）" if missing else f"语义比对（{len(owner)} 句，已编码）"
    )
    progress(0.0, message)
    if missing:
        encode_lists(
            name,
            cached,
            threads,
            lambda: cancel is not None and cancel.is_set(),
            lambda sentences: progress(sentences / missing, message),
        )
    check_cancel(cancel)
    parts = [bid.vectors(lambda: load_encoder(name)) for bid in cached]
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
    encoded: Mapping[str, Vectors] | None = None,
) -> dict[Pair, list[SemanticPassage]]:
    """By pair of bid indexes, the passages rewritten from one another.

    ``masked``: each bid's text that is no evidence (tender, template, common, public); ``copied``:
    each pair's passages the copy engine found (their sentences are not compared again). A section
    of more than ``semantic_max_sentences`` sentences encodes only those ``shortlist`` picks: a rewrite
    of a paragraph on a stock topic, among bids full of stock sentences on it, may be missed there.
    ``encoded``: vectors ``EncodingAhead`` encoded in this check. Raises ``EncoderMissing`` when a
    sentence never encoded is to be, and the encoder's package is not installed.
    """
    units = section_units(bids, masked)
    picking = sum(len(u.texts) for u in units) > settings.semantic_max_sentences
    if picking:
        budget = min(SHORTLIST, settings.semantic_max_sentences)
        first = slice_progress(progress, 0.0, 0.3)
        picked = shortlist(units, copied, budget, first, cancel, threads=settings.worker_count)
        units = [u.subset(p.tolist()) for u, p in zip(units, picked, strict=True)]
    encoding = slice_progress(progress, 0.3, 1.0)
    given = (encoded or {}, settings.worker_count)
    vectors, owner = _encode(settings.semantic_encoder, units, encoding, cancel, given)
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
