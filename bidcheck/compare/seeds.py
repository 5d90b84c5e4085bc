"""Seeds and chains: equal k-grams of two bids inside their candidate windows, chained where they stay
close on both sides (sentences reordered inside a paragraph stay one chain)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from bidcheck.compare.inputs import AlignInput
from bidcheck.config import Settings

__all__ = ["Chain", "candidate_region", "chain_seeds", "find_seeds"]

Span = tuple[int, int]
_MAX_OCCURRENCES = 4


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
    """Group seeds into chains: near in A, and within a local neighbourhood in B."""
    k, gap, jump = settings.seed_chars, settings.max_gap_chars, settings.max_jump_chars
    chains: list[Chain] = []
    open_chains: list[Chain] = []
    for pa, pb in seeds.tolist():
        open_chains = [c for c in open_chains if pa <= c.a_hi + gap]
        near = [c for c in open_chains if abs(pb - c.last_b) <= jump]
        if near:
            chain = min(near, key=lambda c: abs(pb - c.last_b))
            chain.a_hi = max(chain.a_hi, pa + k)
            chain.b_lo, chain.b_hi = min(chain.b_lo, pb), max(chain.b_hi, pb + k)
        else:
            chain = Chain(pa, pa + k, pb, pb + k, pb)
            chains.append(chain)
            open_chains.append(chain)
        chain.last_b = pb
        chain.seeds.append((pa, pb))
    return chains
