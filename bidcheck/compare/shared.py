"""Passages of masked text (tender text, text most bids hold) that two bids share.

Such text is no evidence, so it is not aligned sentence by sentence: the passages are built from the
exact runs of equal k-grams inside the masked text of both sides, which is cheap enough for every pair
of a large section. They are listed, greyed, beside the evidence.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from bidcheck.compare.align import AlignInput, RawPassage, passage_from_marks, passes
from bidcheck.config import Settings
from bidcheck.evidence.flags import is_member

__all__ = ["exact_runs", "masked_passages"]

Span = tuple[int, int]
Mark = tuple[Span, Span]


def exact_runs(seeds_a: npt.NDArray[np.int64], seeds_b: npt.NDArray[np.int64], k: int) -> list[Mark]:
    """Runs of seeds on one diagonal at consecutive positions, as exact (A part, B part) marks."""
    if not len(seeds_a):
        return []
    diagonal = seeds_b - seeds_a
    order = np.lexsort((seeds_a, diagonal))
    pa, dg = seeds_a[order], diagonal[order]
    breaks = np.flatnonzero((np.diff(pa) != 1) | (np.diff(dg) != 0)) + 1
    starts, ends = np.r_[0, breaks], np.r_[breaks, len(pa)] - 1
    marks = [
        ((int(pa[s]), int(pa[e]) + k), (int(pa[s] + dg[s]), int(pa[e] + dg[s]) + k))
        for s, e in zip(starts.tolist(), ends.tolist(), strict=True)
    ]
    return sorted(marks)


def _group_marks(marks: list[Mark], gap: int) -> list[list[Mark]]:
    """Marks that continue each other on both sides (within ``gap`` characters) form one group."""
    groups: list[list[Mark]] = []
    for a, b in marks:
        last = groups[-1][-1] if groups else None
        if last is not None and a[0] <= last[0][1] + gap and abs(b[0] - last[1][1]) <= gap:
            groups[-1].append((a, b))
        else:
            groups.append([(a, b)])
    return groups


def masked_passages(a: AlignInput, b: AlignInput, settings: Settings) -> list[RawPassage]:
    """The passages of masked text that A and B share, from exact runs of equal k-grams."""
    k = settings.seed_chars
    hashes_a, pos_a = a.masked_kgrams(k)
    hashes_b, pos_b = b.masked_kgrams(k)
    in_a = np.flatnonzero(is_member(hashes_a, hashes_b))
    in_b = np.searchsorted(hashes_b, hashes_a[in_a])
    marks = exact_runs(pos_a[in_a], pos_b[in_b], k)
    found = (passage_from_marks(group) for group in _group_marks(marks, settings.max_gap_chars))
    return [p for p in found if p is not None and passes(p, settings)]
