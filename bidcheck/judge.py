"""Turning the raw passages of every pair into judged ``PairResult``s (template, common, score, level)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from bidcheck.compare.passage import RawPassage, overlaps, split_at_masks, without_overlaps
from bidcheck.compare.runner import PairFound
from bidcheck.compare.score import Score, score_pair
from bidcheck.config import Settings
from bidcheck.evidence import Ring, find_rings, mask_share
from bidcheck.evidence.clauses import clause_mask
from bidcheck.evidence.holders import apart_passages, held_by_many, without_passages
from bidcheck.evidence.masks import SharedMasks
from bidcheck.fingerprint import simhash_similarity
from bidcheck.judged import Judged, PairInputs, PairMasks, judged_or_kept, keep_judged_pairs
from bidcheck.memo import memo_running
from bidcheck.model import Level, PairResult, Passage, Signal
from bidcheck.ready import Ready
from bidcheck.semantic import SemanticPassage
from bidcheck.text.locate import SideLocator
from bidcheck.words import LEVEL_NAMES, LEVEL_RANK, sign_phrases

__all__ = ["Judging", "judged_pairs", "keep_judged", "ranked", "verdict"]

Span = tuple[int, int]
Mask = npt.NDArray[np.bool_]
PairSignals = Mapping[tuple[str, str], Sequence[Signal]]
Rewritten = Mapping[tuple[int, int], Sequence[SemanticPassage]]


@dataclass(frozen=True)
class _Flagged:
    raw: RawPassage
    template: bool
    common: bool = False
    public: bool = False
    cosine: float | None = None  # a rewritten passage (``bidcheck.semantic``): its sentences' mean cosine
    clause: bool = False  # common text that reads as a model document's (``evidence.clauses``)

    @property
    def similarity(self) -> float:
        """The passage's similarity: aligned characters, or the cosine of a rewritten passage."""
        return self.raw.similarity if self.cosine is None else self.cosine


def _flag(q: RawPassage, i: int, j: int, masks: PairMasks, settings: Settings) -> _Flagged:
    """A passage of masked text is template text when mostly so on either side, else public text
    when mostly text the library learned is public, else common text (said to be clause-like when
    mostly so on either side: ``clauses``, each bid's clause-like text)."""
    share = max(mask_share(q.a, masks.template[i]), mask_share(q.b, masks.template[j]))
    if share >= settings.template_share:
        return _Flagged(q, True)
    if masks.learned is not None:
        learned = max(mask_share(q.a, masks.learned[i]), mask_share(q.b, masks.learned[j]))
        if learned >= settings.template_share:
            return _Flagged(q, False, public=True)
    clauses = masks.clauses
    clause = max(mask_share(q.a, clauses[i]), mask_share(q.b, clauses[j])) >= settings.template_share
    return _Flagged(q, False, True, clause=clause)


def _pair_passages(
    i: int,
    j: int,
    found: PairFound,
    masks: PairMasks,
    settings: Settings,
    rewritten: Sequence[SemanticPassage] = (),
) -> list[_Flagged]:
    """The live passages of a pair (outside the ``masks.off`` text of either bid), then its passages of masked
    text where they do not overlap them: those verification left out, and the parts of aligned
    passages that lie in text masked only now (clause-like text, common text judged after rings)."""
    live: list[RawPassage] = []
    masked: list[RawPassage] = list(found.masked)
    for p in found.live:
        parts, cut = split_at_masks(p, (masks.off[i], masks.off[j]), settings)
        live += parts
        masked += [q for q in cut if mask_share(q.a, masks.unaligned[i]) < settings.template_share]
    kept = without_overlaps(live, [], settings)
    flagged = without_overlaps(masked, kept, settings)
    out = [_Flagged(q, False) for q in kept] + [_flag(q, i, j, masks, settings) for q in flagged]
    taken = kept + flagged
    out += [
        _Flagged(r.raw, False, cosine=r.cosine)
        for r in rewritten
        if not any(overlaps(r.raw.a, q.a) or overlaps(r.raw.b, q.b) for q in taken)
    ]
    return sorted(out, key=lambda f: (f.raw.a, f.raw.b))


def _clause_masks(bids: Sequence[Ready], found: dict[tuple[int, int], PairFound]) -> list[Mask]:
    """For each bid, which characters of the aligned passages it shares lie in clause-like sentences
    (see ``evidence.clauses``): the register of model documents is public text, never evidence."""
    within = [np.zeros(len(b.clean.norm), dtype=bool) for b in bids]
    for (i, j), pair in found.items():
        for p in pair.live:
            within[i][p.a[0] : p.a[1]] = True
            within[j][p.b[0] : p.b[1]] = True
    return [clause_mask(b.clean, w) for b, w in zip(bids, within, strict=True)]


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
    masks: PairMasks,
    settings: Settings,
    signals: Sequence[Signal] = (),
    failed: bool = False,
) -> tuple[PairResult, Score]:
    """A pair judged on its own evidence (rings come later, see ``ranked``), and its score."""
    a, b = bids[i], bids[j]
    live = [f.raw for f in flagged if not (f.template or f.common or f.public or f.cosine is not None)]
    rewritten = [f.raw for f in flagged if f.cosine is not None]
    score = score_pair(
        ([p.a for p in live], [p.b for p in live]),
        ([p.a for p in rewritten], [p.b for p in rewritten]),
        (masks.template[i], masks.template[j]),
        len(flagged) - len(live) - len(rewritten),
        settings.semantic_weight,
        sum(len(p.marks) for p in rewritten),
    )
    score = replace(score, failed=failed) if failed else score
    level, reason = verdict(score, None, {}, settings, signals=signals)
    passages, omitted = _capped(listed, settings.max_passages_per_pair)
    pair = PairResult(
        a.doc.id,
        b.doc.id,
        round(score.similarity, 4),
        round(score.coverage_a, 4),
        round(score.coverage_b, 4),
        round(simhash_similarity(a.fingerprint.simhash, b.fingerprint.simhash), 4),
        level,
        reason,
        tuple(passages),
        omitted,
        tuple(signals),
    )
    return pair, score


def _own_level(score: Score, settings: Settings, apart: int = 0) -> Level:
    """``high`` / ``watch`` / ``none`` from the live share, the live characters, and ``apart``, the
    separate passages only these two bids hold (see ``apart_passages``): in a bid of 300 pages ten
    copied paragraphs are a small share, yet ten copies no other bidder has are no accident. So are
    ``semantic_high_units`` sentences of rewritten passages that match the other bid's in order: a plan
    rewritten from one draft keeps its points in their order, plans written apart do not."""
    if score.similarity >= settings.high_similarity or score.chars >= settings.high_chars:
        return "high"
    if apart >= settings.high_passages or _from_one_draft(score, settings):
        return "high"
    if score.similarity >= settings.watch_similarity or score.chars >= settings.watch_chars:
        return "watch"
    return "none"


def _from_one_draft(score: Score, settings: Settings) -> bool:
    """Whether the pair's rewritten passages match sentence by sentence, in order, ``semantic_high_units``
    times or more."""
    return score.rewritten_units >= settings.semantic_high_units


def _own_reason(level: Level, score: Score, apart: int = 0) -> str:
    flagged_note = (
        f"；另有 {score.flagged} 段为招标文件/模板或多家共有的文字，不计入" if score.flagged else ""
    )
    if not score.passages:
        return f"未发现招标文件以外的共同文字{flagged_note}"
    word = {"high": "一级预警", "watch": "二级观察", "none": "未达预警"}[level]
    rewritten = (
        f"，其中语义改写 {score.rewritten} 段（{score.rewritten_chars} 字，"
        f"{score.rewritten_units} 句依次对应）"
        if score.rewritten
        else ""
    )
    return (
        f"{word}：{score.passages} 段共同文字（{score.chars} 字{_apart_note(apart, score.passages)}），"
        f"占较多一方正文的 {score.similarity:.0%}{rewritten}{flagged_note}"
    )


def _apart_note(apart: int, passages: int) -> str:
    """How many of a pair's passages no other bid holds, where more than one."""
    if apart < 2:
        return ""
    return "，其他投标文件均没有" if apart >= passages else f"，其中 {apart} 段其他投标文件没有"


def _signal_verdict(level: Level, reason: str, signals: Sequence[Signal]) -> tuple[Level, str]:
    """The level the pair's signals give (a strong one ``high``, a supporting one ``watch``) where it is
    above the wording's, the reason then led by the signs; else the signs added to the reason."""
    if not signals:
        return level, reason
    strong = [s for s in signals if s.strength == "strong"]
    own: Level = "high" if strong else "watch"
    if LEVEL_RANK[own] < LEVEL_RANK[level]:
        signs = "；".join(sign_phrases(strong or list(signals)))
        return own, f"{LEVEL_NAMES[own]}：{signs}；{reason}"
    return level, f"{reason}；另有迹象：{'；'.join(sign_phrases(list(signals)))}"


def verdict(
    score: Score,
    ring: Ring | None,
    names: Mapping[str, str],
    settings: Settings,
    earlier: Sequence[str] = (),
    signals: Sequence[Signal] = (),
    apart: int = 0,
) -> tuple[Level, str]:
    """A pair's level and the reason a panel reads, decided here and nowhere else.

    The level comes from the pair's own evidence (``high_*`` / ``watch_*`` settings); a pair at
    ``watch`` inside a ring is ``high``: panels judge rings, and every member of a ring is as suspect as
    its closest pair. ``names`` gives the bidders' names, in the order the ring's members are named.
    ``earlier`` names the library's sections where the two bidders were already ``high`` together: the
    reason says so, and a pair at ``watch`` is ``high`` (two bidders raised together before who share
    text or signs again are no first coincidence).
    ``signals`` (see ``bidcheck.signals``): a strong one makes the pair ``high`` on its own, a supporting
    one ``watch``; the reason names the signs in the panel's words. ``apart``: the pair's separate
    passages that no other bid shares (``apart_passages``); ``high_passages`` of them make it ``high``.
    """
    level = _own_level(score, settings, apart)
    reason = _own_reason(level, score, apart)
    if score.failed:  # nothing found is no evidence of nothing shared
        level = "high" if level == "high" else "watch"
        reason = f"{LEVEL_NAMES[level]}：比对进程异常退出，这一对未能比对完，请人工核对；{reason}"
    if level == "watch" and ring is not None:
        members = "、".join(name for doc, name in names.items() if doc in ring.members)
        level = "high"
        reason = f"一级预警：疑似串标组（{members}）共用同一段文字（{ring.letters} 字）；{reason}"
    level, reason = _signal_verdict(level, reason, signals)
    if earlier and level == "watch":  # a repeat is stronger than a first time
        return (
            "high",
            f"一级预警：两家曾在标段 {'、'.join(earlier)} 同为一级预警，本标段再次出现关联；{reason}",
        )
    if earlier:
        reason += f"；两家曾在标段 {'、'.join(earlier)} 同为一级预警"
    return level, reason


def _with_rings(
    judged: list[tuple[PairResult, Score]],
    bids: Sequence[Ready],
    settings: Settings,
    earlier: Mapping[tuple[str, str], Sequence[str]],
    held: Sequence[Mask] | None,
) -> list[PairResult]:
    """The pairs with the verdict that knows the section's rings (see ``find_rings``) and the library's
    earlier sections; outside a ring, text ``held`` (by bid: what ``MANY_HOLDERS`` bids or more hold)
    is no pair's evidence, but the section's."""
    names = {b.doc.id: b.doc.name for b in bids}
    rings = find_rings([p for p, _ in judged], settings.ring_min_chars)
    by_id = {b.doc.id: mask for b, mask in zip(bids, held, strict=True)} if held is not None else {}
    apart = apart_passages(judged, settings.short_passage_chars, by_id)
    many = held_by_many([p for p, _ in judged], bids, held, settings) if held is not None else {}
    out = []
    for pair, score in judged:
        ring = next((r for r in rings if pair.a in r.members and pair.b in r.members), None)
        if ring is None and (pair.a, pair.b) in many:
            pair, score = without_passages(pair, score, many[(pair.a, pair.b)])
        told = earlier.get((pair.a, pair.b), ())
        level, reason = verdict(
            score, ring, names, settings, told, pair.signals, apart.get((pair.a, pair.b), 0)
        )
        out.append(
            pair
            if (level, reason) == (pair.level, pair.reason)
            else replace(pair, level=level, reason=reason)
        )
    return out


def _listed_passages(
    keys: list[tuple[int, int]], flagged: list[list[_Flagged]], bids: Sequence[Ready]
) -> list[list[Passage]]:
    """Every pair's flagged passages as located ``Passage``s (see ``SideLocator``)."""
    sides = SideLocator([b.clean for b in bids])
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
                round(f.similarity, 4),
                f.raw.a[1] - f.raw.a[0],
                f.template,
                f.common,
                f.public,
                f.cosine is not None,
                f.clause,
            )
            for f, (x, y) in zip(pair, numbers, strict=True)
        ]
        for (i, j), pair, numbers in zip(keys, flagged, asked, strict=True)
    ]


def _judged(
    keys: list[tuple[int, int]],
    flagged: list[list[_Flagged]],
    bids: Sequence[Ready],
    masks: PairMasks,
    settings: Settings,
    signals: PairSignals | None = None,
    failed: frozenset[tuple[int, int]] = frozenset(),
) -> list[Judged]:
    listed = _listed_passages(keys, flagged, bids)
    signals = signals or {}
    return [
        _pair_result(
            i,
            j,
            bids,
            f,
            passages,
            masks,
            settings,
            signals.get((bids[i].doc.id, bids[j].doc.id), ()),
            (i, j) in failed,
        )
        for (i, j), f, passages in zip(keys, flagged, listed, strict=True)
    ]


def _ring_pairs(
    keys: list[tuple[int, int]],
    bids: Sequence[Ready],
    masks: PairMasks,
    found: dict[tuple[int, int], PairFound],
    settings: Settings,
) -> set[tuple[int, int]]:
    """The pairs inside a ring when common text counts like any other (see ``common_after_rings``):
    ``masks`` with the ring's ``off`` text."""
    empty = PairFound([], [])
    flagged = [_pair_passages(i, j, found.get((i, j), empty), masks, settings) for i, j in keys]
    pairs = [pair for pair, _ in _judged(keys, flagged, bids, masks, settings)]
    rings = find_rings(pairs, settings.ring_min_chars)
    ids = [b.doc.id for b in bids]
    return {(i, j) for i, j in keys if any(ids[i] in r.members and ids[j] in r.members for r in rings)}


@dataclass(frozen=True)
class Judging:
    """What judging a section's pairs reads: the readable bids, the masks of text that is no evidence,
    what verification found by pair of bid indexes; ``signals``, by pair of document ids (in the bids'
    order), the signs the two share; ``rewritten``, by pair of bid indexes, the passages the semantic
    layer found (they count with ``semantic_weight``)."""

    bids: Sequence[Ready]
    masks: SharedMasks
    found: dict[tuple[int, int], PairFound]
    settings: Settings
    signals: PairSignals | None = None
    rewritten: Rewritten | None = None

    @functools.cached_property
    def pair_masks(self) -> PairMasks:
        """The masks each pair's judgement reads (``judged.PairMasks``): its clause-like text is found
        where any pair's aligned passage reaches it (once a check: judging and keeping the judged pairs
        both read them)."""
        masks, count = self.masks, len(self.bids)
        clauses = _clause_masks(self.bids, self.found)
        return PairMasks(
            masks.template,
            masks.learned,
            [masks.either(n) | p for n, p in enumerate(clauses)],
            [masks.unaligned(n) for n in range(count)],
            clauses,
        )

    def pair_inputs(self, masks: PairMasks) -> PairInputs:
        """What each pair's judgement reads, by which a kept judgement is found."""
        return PairInputs(self.bids, masks, self.found, self.settings, self.extra)

    def extra(self, pair: tuple[int, int]) -> tuple[Sequence[SemanticPassage], Sequence[Signal]]:
        """A pair of bid indexes' rewritten passages and signals."""
        i, j = pair
        rewritten = (self.rewritten or {}).get(pair, ())
        return rewritten, (self.signals or {}).get((self.bids[i].doc.id, self.bids[j].doc.id), ())


def judged_pairs(inputs: Judging) -> list[Judged]:
    """Every pair of readable bids (in index order) judged on its own evidence, and its score. Where
    common text is judged after rings, a pair inside a ring keeps the common text it shares as
    evidence: in a small section the ring's draft is what most bids hold. Pairs judged before in the
    running check's memo are taken from it (``bidcheck.judged``)."""
    bids, found, settings = inputs.bids, inputs.found, inputs.settings
    empty = PairFound([], [])
    keys = _all_pairs(bids)
    masks = inputs.pair_masks
    after_rings = inputs.masks.after_rings
    ring_masks, ring = masks, set[tuple[int, int]]()
    if after_rings:  # a ring's pairs keep the common text they share
        ring_masks = masks.with_off([inputs.masks.fixed(n) | p for n, p in enumerate(masks.clauses)])
        ring = _ring_pairs(keys, bids, ring_masks, found, settings)
    rewritten = inputs.rewritten or {}
    failed = frozenset(key for key, f in found.items() if f.failed)

    def judge(todo: list[tuple[int, int]]) -> list[Judged]:
        flagged = [
            _pair_passages(
                i,
                j,
                found.get((i, j), empty),
                ring_masks if (i, j) in ring else masks,
                settings,
                rewritten.get((i, j), ()),
            )
            for i, j in todo
        ]
        return _judged(todo, flagged, bids, masks, settings, inputs.signals, failed)

    if after_rings:  # a ring's pairs are judged with its common text: the rings are worked out anew
        return judge(keys)
    return judged_or_kept(keys, inputs.pair_inputs(masks), judge)


def keep_judged(judged: Sequence[Judged], inputs: Judging) -> None:
    """Keep ``judged``, what ``judged_pairs`` gave an earlier check from the same ``inputs`` (its stage
    answered from the cache), in the running check's memo as ``judged_pairs`` would have: the next
    check, a bid added, judges only the pairs whose evidence changed. Nothing without a memo."""
    if not memo_running() or inputs.masks.after_rings:
        return
    keep_judged_pairs(_all_pairs(inputs.bids), judged, inputs.pair_inputs(inputs.pair_masks))


def ranked(
    judged: Sequence[Judged],
    bids: Sequence[Ready],
    settings: Settings,
    earlier: Mapping[tuple[str, str], Sequence[str]] | None = None,
    held: Sequence[Mask] | None = None,
) -> list[PairResult]:
    """The pairs with the verdict that knows the section's rings (see ``verdict``) and ``earlier``, by
    pair of document ids the library's sections where the two bidders were already ``high``, and
    ``held`` (``SharedMasks.many``): text many bids hold counts only inside a ring; ranked by level and
    similarity."""
    pairs = _with_rings(list(judged), bids, settings, earlier or {}, held)
    return sorted(pairs, key=lambda p: (LEVEL_RANK[p.level], -p.similarity, p.a, p.b))


def _all_pairs(bids: Sequence[Ready]) -> list[tuple[int, int]]:
    return [(i, j) for i in range(len(bids)) for j in range(i + 1, len(bids))]
