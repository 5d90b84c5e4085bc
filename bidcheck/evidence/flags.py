"""Template text (from the tender or template files) and common text (shared by most bids)."""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import distinct, is_member
from bidcheck.config import Settings

__all__ = [
    "bids_for_common",
    "form_pieces",
    "frequent_kgrams",
    "is_member",
    "long_gram_hashes",
    "mask_share",
    "occurrences_mask",
    "spans_mask",
    "template_mask",
    "true_runs",
]

Span = tuple[int, int]

_SIEVE_MIN_BITS, _SIEVE_MAX_BITS = 16, 24  # 64K to 16M counts: small sections to archives


def template_mask(
    kgrams: npt.NDArray[np.uint64],
    template_hashes: npt.NDArray[np.uint64],
    length: int,
    k: int,
    min_chars: int,
) -> npt.NDArray[np.bool_]:
    """Which comparable characters of a document lie in a stretch of template text.

    A stretch is at least ``min_chars`` long: stock phrases a trade shares with the tender (a dozen
    characters) are not template text, a quoted clause or a form is.
    """
    if not len(template_hashes) or not len(kgrams):
        return np.zeros(length, dtype=bool)
    return _hit_runs_mask(is_member(kgrams, distinct(template_hashes)), length, k, min_chars)


def true_runs(mask: npt.NDArray[np.bool_]) -> list[Span]:
    """The runs of true values of ``mask``, as (start, end) spans in order."""
    edges = np.flatnonzero(np.diff(np.r_[0, mask.astype(np.int8), 0])).tolist()
    return list(zip(edges[::2], edges[1::2], strict=True))


def bids_for_common(bids: int, settings: Settings) -> int:
    """How many bids must hold a stretch for their number to make it common (``common_min_bids`` and
    ``common_share`` of the section's ``bids``, both)."""
    return max(settings.common_min_bids, math.ceil(settings.common_share * bids - 1e-9))


def _hit_runs_mask(hits: npt.NDArray[np.bool_], length: int, k: int, min_chars: int) -> npt.NDArray[np.bool_]:
    """The characters covered by runs of consecutive k-gram hits that span at least ``min_chars``."""
    mask = np.zeros(length, dtype=bool)
    for start, end in true_runs(hits):
        if end - start + k - 1 >= min_chars:
            mask[start : end + k - 1] = True
    return mask


def frequent_kgrams(kgrams: Sequence[npt.NDArray[np.uint64]], needed: int) -> npt.NDArray[np.uint64]:
    """The k-gram hashes that at least ``needed`` of the documents hold, sorted.

    Each document's hashes counted once and all sorted together, a hash at ``i`` that ``needed`` of
    them hold is also at ``i + needed - 1``: one comparison of the array with itself shifted, no count
    of every hash (arrays of millions, each costing its memory)."""
    if not kgrams or needed > len(kgrams):
        return np.zeros(0, dtype=np.uint64)
    if needed <= 1:
        return distinct(all_sorted(kgrams))
    return held_by(all_sorted(maybe_held(kgrams, needed)), needed)


def maybe_held(kgrams: Sequence[npt.NDArray[np.uint64]], needed: int) -> list[npt.NDArray[np.uint64]]:
    """Each document's hashes whose low bits at least ``needed`` (2 or more) of the documents hold.

    A hash is held by no more documents than its low bits are, so no hash that ``needed`` documents
    hold is dropped, and the few kept are sorted in place of millions (0.05 s against 0.4 s for 100
    bids). ``counts[bins] += 1`` adds one for a document however often its bins repeat: each document
    counts once. The bins are about ``4 / needed`` of a bin a hash, so few hashes pass by chance."""
    total = sum(len(h) for h in kgrams)
    bits = min(_SIEVE_MAX_BITS, max(_SIEVE_MIN_BITS, math.ceil(math.log2(max(4 * total / needed, 1)))))
    low = np.uint64((1 << bits) - 1)
    counts = np.zeros(1 << bits, dtype=np.uint32)
    room = np.empty(max(len(h) for h in kgrams), dtype=np.uint64)

    def bins(h: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
        return np.bitwise_and(h, low, out=room[: len(h)]).view(np.intp)

    for h in kgrams:
        counts[bins(h)] += 1
    return [h[counts[bins(h)] >= needed] for h in kgrams]


def all_sorted(kgrams: Sequence[npt.NDArray[np.uint64]]) -> npt.NDArray[np.uint64]:
    """Each document's hashes once, all sorted together."""
    if not kgrams:
        return np.zeros(0, dtype=np.uint64)
    ordered = np.concatenate([distinct(h) for h in kgrams])
    ordered.sort()
    return ordered


def held_by(ordered: npt.NDArray[np.uint64], needed: int) -> npt.NDArray[np.uint64]:
    """The hashes of ``all_sorted`` that ``needed`` (2 or more) of the documents hold, sorted."""
    span = max(len(ordered) - needed + 1, 0)
    return distinct(ordered[:span][ordered[:span] == ordered[needed - 1 :]])


def long_gram_hashes(kgrams: npt.NDArray[np.uint64], k: int, length: int) -> npt.NDArray[np.uint64]:
    """Hashes of every ``length``-character substring, combined from the k-gram hashes that tile it."""
    count = len(kgrams) - (length - k)
    if count <= 0:
        return np.zeros(0, dtype=np.uint64)
    offsets = sorted({*range(0, length - k + 1, k), length - k})
    out = np.zeros(count, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for offset in offsets:
            out = out * np.uint64(0x100000001B3) + kgrams[offset : offset + count]
    return out


def spans_mask(starts: npt.NDArray[np.bool_], span: int, length: int) -> npt.NDArray[np.bool_]:
    """The characters covered by a ``span``-character stretch beginning wherever ``starts`` is true."""
    counts = np.zeros(length + 1, dtype=np.int32)
    at = np.flatnonzero(starts)
    np.add.at(counts, at, 1)
    np.add.at(counts, np.minimum(at + span, length), -1)
    return np.cumsum(counts[:-1]) > 0


def form_pieces(
    norm: str, blanks: Sequence[int], sentence_starts: Sequence[int], min_chars: int
) -> list[str]:
    """The pieces of a form: the comparable text on either side of each blank to fill in, up to the
    next blank or sentence boundary. Bidders fill the blanks, so the pieces are all that stays of the
    form, and each may be shorter than a template stretch."""
    bounds = sorted({0, len(norm), *blanks, *sentence_starts})
    pieces: set[str] = set()
    for blank in set(blanks):
        at = bisect.bisect_left(bounds, blank)
        before = bounds[at - 1] if at > 0 else 0
        after = bounds[at + 1] if at + 1 < len(bounds) else len(norm)
        pieces.update((norm[before:blank], norm[blank:after]))
    return sorted(p for p in pieces if len(p) >= min_chars)


def occurrences_mask(norm: str, pieces: Iterable[str]) -> npt.NDArray[np.bool_]:
    """Which characters of ``norm`` lie in an exact occurrence of one of the pieces."""
    mask = np.zeros(len(norm), dtype=bool)
    for piece in pieces:
        at = norm.find(piece)
        while at >= 0:
            mask[at : at + len(piece)] = True
            at = norm.find(piece, at + 1)
    return mask


def mask_share(span: Span, mask: npt.NDArray[np.bool_]) -> float:
    """The share of a span that the mask covers."""
    s, e = span
    return int(np.count_nonzero(mask[s:e])) / (e - s) if e > s else 0.0
