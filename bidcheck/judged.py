"""Pairs judged before, kept in the app's memo by everything their judgement reads.

A pair's result before rings (``judge._judged``: its flagged and located passages, score and own verdict)
reads nothing but the pair's two bids (ids, their cache entries: text, places and SimHash), the masks of
``PairMasks`` (the tender's and the library's public text of each bid whole, the text left out of evidence
and the text verification left out inside the pair's aligned passages only, the clause-like text inside
all its passages: the judgement takes them from there, and its key is made from there), what
verification found of the pair, its rewritten passages and signals, and the settings. The key of a kept
result hashes exactly these, so a result is taken again only where judging anew gives the same. Adding a
bid to a checked section in the app judges the new bid's pairs and the pairs whose evidence or masks
changed; the section's rings and the reasons that name them are worked out afresh from all the pairs.
Kept in memory only
(``bidcheck.memo.keep_in_memo``): the command line judges every pair.
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace

import numpy as np
import numpy.typing as npt

from bidcheck.compare.runner import PairFound
from bidcheck.compare.score import Score
from bidcheck.config import Settings
from bidcheck.memo import keep_in_memo, kept_in_memo, memo_running, parts_digest, settings_key
from bidcheck.model import PairResult, Signal
from bidcheck.ready import Ready
from bidcheck.semantic import SemanticPassage

__all__ = ["Judged", "PairInputs", "PairMasks", "judged_or_kept", "keep_judged_pairs"]

Judged = tuple[PairResult, Score]
Pair = tuple[int, int]
Mask = npt.NDArray[np.bool_]
_KIND = "judged/"
_EMPTY = PairFound([], [])
_PROTOCOL = pickle.HIGHEST_PROTOCOL
_NOTHING = b"nothing shared"  # no pickle is these bytes: a pickle begins with its protocol's opcode


@dataclass(frozen=True)
class PairMasks:
    """The masks of each bid that judging a pair reads, and nothing else of the section's masks: the
    judgement takes them from here, and the key of a kept judgement is made from here (``_SCOPES``
    says where in a bid each is read), so a mask the judgement reads cannot be missing from its key.

    ``template``, ``learned``: the tender's and the library's public text (``None``: no library);
    ``off``: text left out of evidence (masked on either side, or clause-like); ``unaligned``: text
    verification left out; ``clauses``: clause-like text (what a greyed passage is said to be)."""

    template: Sequence[Mask]
    learned: Sequence[Mask] | None
    off: Sequence[Mask]
    unaligned: Sequence[Mask]
    clauses: Sequence[Mask]

    def with_off(self, off: Sequence[Mask]) -> PairMasks:
        """The same masks with another text left out of evidence (a ring's pairs keep common text)."""
        return replace(self, off=off)


# Where a pair's judgement reads each of ``PairMasks`` (every field: ``_scopes``):
# ``whole``: all through both bids (shares of passages, the score); ``aligned``: inside the pair's aligned
# passages, both sides (cut at it); ``aligned_a``: inside their A side only (a cut piece is greyed where
# verification left it out there); ``passages``: inside all its passages, aligned or of masked text, both
# sides (what flags them).
_SCOPES = {
    "template": "whole",
    "learned": "whole",
    "off": "aligned",
    "unaligned": "aligned_a",
    "clauses": "passages",
}


def _packed(mask: Mask | None) -> bytes:
    return b"-" if mask is None else np.packbits(mask).tobytes() + len(mask).to_bytes(8, "little")


def _bid_digest(bid: Ready, whole: Sequence[Mask]) -> bytes | None:
    """What a pair's judgement reads of one bid all through: its id, its cache entry and its masks read
    whole (``None`` for a document read outside the cache: its pairs are judged each time)."""
    if not bid.source:
        return None
    source = bid.source.encode("utf-8", "surrogatepass")
    return parts_digest(bid.doc.id.encode(), source, *map(_packed, whole))


def _pair_digest(
    context: bytes, sides: tuple[bytes, bytes], found: PairFound, near: bytes, extra: tuple[object, object]
) -> bytes:
    """The key of one pair's judgement: both bids', what verification found, the masks inside its
    aligned passages (``near``), its rewritten passages and signals (``extra``). Most pairs of a section
    share nothing: theirs is one key part, not a pickle each (4,950 pairs: 0.19 s)."""
    if found.live or found.masked or found.failed or any(extra):
        shared = pickle.dumps((found.live, found.masked, found.failed, *extra), protocol=_PROTOCOL)
    else:
        shared = _NOTHING
    return parts_digest(context, *sides, shared, near)


@functools.cache
def _scopes() -> tuple[tuple[str, str], ...]:
    """Each field of ``PairMasks`` with where it is read: a field without a scope is a ``KeyError``, never
    a mask left out of the key."""
    return tuple((f.name, _SCOPES[f.name]) for f in fields(PairMasks))


def _near(pair: Pair, found: PairFound, masks: PairMasks) -> bytes:
    """The masks read inside the pair's passages, on both sides, by where each is read (``_SCOPES``)."""
    i, j = pair
    aligned, every = found.live, (*found.live, *found.masked)
    parts = []
    for name, scope in _scopes():
        if scope == "whole":
            continue
        at_i, at_j = getattr(masks, name)[i], getattr(masks, name)[j]
        spans = every if scope == "passages" else aligned
        parts += [_packed(at_i[p.a[0] : p.a[1]]) for p in spans]
        if scope != "aligned_a":
            parts += [_packed(at_j[p.b[0] : p.b[1]]) for p in spans]
    return b"".join(parts)


def _whole(masks: PairMasks, n: int) -> list[Mask]:
    """The masks of bid ``n`` read all through (``_SCOPES``)."""
    out = []
    for name, scope in _scopes():
        each = getattr(masks, name)
        if scope == "whole" and each is not None:
            out.append(each[n])
    return out


@dataclass(frozen=True)
class PairInputs:
    """What a pair's judgement reads, by which it is kept: the bids, ``masks`` (the masks it reads), what
    verification found, the settings, and ``extra(pair)``, its rewritten passages and signals."""

    bids: Sequence[Ready]
    masks: PairMasks
    found: Mapping[Pair, PairFound]
    settings: Settings
    extra: Callable[[Pair], tuple[Sequence[SemanticPassage], Sequence[Signal]]]


def judged_or_kept(
    keys: list[Pair], inputs: PairInputs, judge: Callable[[list[Pair]], list[Judged]]
) -> list[Judged]:
    """``judge(keys)``, the pairs kept in the running check's memo taken from it. Without a memo (the
    command line) every pair is judged."""
    if not memo_running():
        return judge(keys)
    keys_kept = _memo_keys(keys, inputs)
    out: dict[Pair, Judged] = {}
    for pair, key in keys_kept.items():
        value = kept_in_memo(key)  # found: kept for the next check too
        if isinstance(value, tuple):
            out[pair] = value
    todo = [pair for pair in keys if pair not in out]
    for pair, value in zip(todo, judge(todo), strict=True):
        out[pair] = value
    _keep(keys_kept, todo, [out[pair] for pair in todo])
    return [out[pair] for pair in keys]


def keep_judged_pairs(keys: list[Pair], judged: Sequence[Judged], inputs: PairInputs) -> None:
    """Keep ``judged`` (by position, the pairs ``keys``) in the running check's memo, as
    ``judged_or_kept`` keeps the pairs it judges (the judgements an earlier check made, from the same
    inputs)."""
    if memo_running():
        _keep(_memo_keys(keys, inputs), keys, judged)


def _memo_keys(keys: list[Pair], inputs: PairInputs) -> dict[Pair, str]:
    """Each pair's key in the memo (not for a pair of a bid read outside the cache)."""
    context = settings_key(inputs.settings).encode()
    sides = [_bid_digest(b, _whole(inputs.masks, n)) for n, b in enumerate(inputs.bids)]
    keys_kept: dict[Pair, str] = {}
    for i, j in keys:
        a, b = sides[i], sides[j]
        if a is not None and b is not None:
            shared = inputs.found.get((i, j), _EMPTY)
            near = _near((i, j), shared, inputs.masks)
            digest = _pair_digest(context, (a, b), shared, near, inputs.extra((i, j)))
            keys_kept[(i, j)] = _KIND + digest.hex()
    return keys_kept


def _keep(keys_kept: Mapping[Pair, str], pairs: Sequence[Pair], judged: Sequence[Judged]) -> None:
    """Keep the judged pairs that have a key, but those that could not be compared (tried again)."""
    for pair, value in zip(pairs, judged, strict=True):
        if pair in keys_kept and not value[1].failed:
            keep_in_memo(keys_kept[pair], value)
