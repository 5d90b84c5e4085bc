"""Seeds and chains: equal k-grams of two bids inside their candidate windows, chained where they stay
close on both sides (sentences reordered inside a paragraph stay one chain)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from bidcheck.compare.inputs import AlignInput
from bidcheck.config import Settings

__all__ = ["Chain", "candidate_region", "chain_seeds", "find_seeds"]

Span = tuple[int, int]
_MAX_OCCURRENCES = 4
_NEVER = 1 << 62  # an A position no seed reaches


@dataclass
class Chain:
    """Seeds close together in A whose B positions stay within a neighbourhood, and their bounds."""

    a_lo: int
    a_hi: int
    b_lo: int
    b_hi: int
    last_b: int
    seeds: list[tuple[int, int]] = field(default_factory=list)


def candidate_region(
    length: int, starts: tuple[int, ...], windows: set[int], settings: Settings
) -> npt.NDArray[np.bool_]:
    """Which k-grams of a document lie near its candidate ``windows``: the only ones seeds come from."""
    mask = np.zeros(max(length, 0), dtype=bool)
    reach = settings.window_stride
    for w in windows:
        lo = max(starts[w] - reach, 0)
        mask[lo : starts[w] + settings.window_chars + reach] = True
    return mask


def find_seeds(
    a: AlignInput, b: AlignInput, window_pairs: list[tuple[int, int]], settings: Settings
) -> npt.NDArray[np.int64]:
    """Seed pairs ``(pos_a, pos_b)`` of equal k-grams inside the candidate regions, sorted by A."""
    mask_a = candidate_region(len(a.kgrams), a.window_starts, {w for w, _ in window_pairs}, settings)
    mask_b = candidate_region(len(b.kgrams), b.window_starts, {w for _, w in window_pairs}, settings)
    idx_a = np.flatnonzero(mask_a)
    idx_b = np.flatnonzero(mask_b)
    hb = b.kgrams[idx_b]
    order = np.argsort(hb, kind="stable")
    sorted_hb = hb[order]
    ha = a.kgrams[idx_a]
    left = np.searchsorted(sorted_hb, ha, "left")
    counts = np.searchsorted(sorted_hb, ha, "right") - left
    keep = (counts > 0) & (counts <= _MAX_OCCURRENCES)
    idx_a, left, counts = idx_a[keep], left[keep], counts[keep]
    if not len(idx_a):
        return np.zeros((0, 2), dtype=np.int64)
    offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    pos_b = idx_b[order[np.repeat(left, counts) + offsets]]
    return np.stack([np.repeat(idx_a, counts), pos_b], axis=1).astype(np.int64)


def chain_seeds(seeds: npt.NDArray[np.int64], settings: Settings) -> list[Chain]:
    """Group seeds (sorted by A) into chains: near in A, and within a local neighbourhood in B.

    Each seed joins the open chain whose last B position is nearest, within ``max_jump_chars`` (the
    first such chain on a tie), or begins a chain; a chain closes once the seeds have gone
    ``max_gap_chars`` past its A end. The open chains are looked over only when the lowest bound any
    of them may close at is passed (an A end only grows), and kept as lists while seeds are added:
    this runs once a seed, hundreds of thousands of times a section."""
    k, gap, jump = settings.seed_chars, settings.max_gap_chars, settings.max_jump_chars
    chains: list[list[Any]] = []  # [a_lo, a_hi, b_lo, b_hi, last_b, seeds]
    open_chains: list[list[Any]] = []
    closes = _NEVER  # no open chain closes before A passes this
    for pa, pb in seeds.tolist():
        if pa > closes:
            open_chains = [c for c in open_chains if pa <= c[1] + gap]
            closes = min((c[1] for c in open_chains), default=_NEVER - gap) + gap
        chain, nearest = None, jump + 1
        for c in open_chains:
            d = pb - c[4] if pb >= c[4] else c[4] - pb
            if d < nearest:
                chain, nearest = c, d
        if chain is None:
            chain = [pa, pa + k, pb, pb + k, pb, []]
            chains.append(chain)
            open_chains.append(chain)
            closes = min(closes, pa + k + gap)
        else:  # no min() or max() calls: this is the loop's hottest line
            if pa + k > chain[1]:
                chain[1] = pa + k
            if pb < chain[2]:
                chain[2] = pb
            elif pb + k > chain[3]:  # b_hi is b_lo + k at least: a seed below b_lo ends below it
                chain[3] = pb + k
            chain[4] = pb
        chain[5].append((pa, pb))
    return [Chain(*c) for c in chains]
