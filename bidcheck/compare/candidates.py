"""Candidate window pairs, read out of two indexes built once over every window of every bid.

* MinHash LSH over the 300-character windows finds long passages, also when heavily reworded.
* An inverted index of winnowed k-gram hashes finds passages shorter than a window (a single
  paragraph), which the window Jaccard of LSH cannot see.

Neither loops over pairs of documents; both read the colliding pairs out of their buckets.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from datasketch import LeanMinHash, MinHashLSH
from numpy.lib.stride_tricks import sliding_window_view

__all__ = [
    "WindowPairs",
    "candidate_window_pairs",
    "kgram_window_pairs",
    "lsh_window_pairs",
    "mostly_open_windows",
    "winnow",
]

WindowPairs = dict[tuple[int, int], list[tuple[int, int]]]
_WINNOW = 8  # one fingerprint per 8 consecutive k-grams at least
_MAX_REPEATS = 4  # a k-gram repeated more often inside one document is a stock phrase, not evidence
_MIN_HITS = 2  # shared fingerprints needed before two windows are worth verifying


def lsh_window_pairs(
    windows: Sequence[Sequence[LeanMinHash]],
    threshold: float,
    num_perm: int,
    keep: Sequence[Sequence[bool]] | None = None,
) -> WindowPairs:
    """Window pairs of different documents that share a bucket of MinHash LSH over all windows.

    The bands are datasketch's (``MinHashLSH(threshold, num_perm).hashranges``) and a bucket is one
    band's values, as in its index; the buckets are formed with one sort per band over all windows
    instead of one dictionary lookup per window and band. ``keep[d][w]`` false leaves window ``w`` of
    document ``d`` out (a window of masked text).
    """
    bands = MinHashLSH(threshold=threshold, num_perm=num_perm).hashranges
    ids = [(d, w) for d, doc in enumerate(windows) for w in range(len(doc)) if keep is None or keep[d][w]]
    if len(ids) < 2:
        return {}
    signatures = np.stack([windows[d][w].hashvalues for d, w in ids]).astype(np.uint64)
    docs = np.asarray([d for d, _ in ids])
    index = np.asarray([w for _, w in ids])
    pairs: defaultdict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
    for start, end in bands:
        for members in _buckets(signatures[:, start:end]):
            _add_bucket(pairs, docs[members].tolist(), index[members].tolist())
    return {key: sorted(value) for key, value in pairs.items()}


def _buckets(band: npt.NDArray[np.uint64]) -> list[npt.NDArray[np.intp]]:
    """Rows with equal band values, for every value held by rows of at least two."""
    keys = np.ascontiguousarray(band).view(np.dtype((np.void, band.shape[1] * band.itemsize))).ravel()
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    ends = np.r_[starts[1:], len(ordered)]
    return [order[s:e] for s, e in zip(starts.tolist(), ends.tolist(), strict=True) if e - s > 1]


def _add_bucket(
    pairs: defaultdict[tuple[int, int], set[tuple[int, int]]], docs: list[int], index: list[int]
) -> None:
    members = sorted(zip(docs, index, strict=True))
    for x, (da, wa) in enumerate(members):
        for db, wb in members[x + 1 :]:
            if db != da:
                pairs[(da, db)].add((wa, wb))


def winnow(kgrams: npt.NDArray[np.uint64], window: int = _WINNOW) -> npt.NDArray[np.int64]:
    """Positions of the winnowing fingerprints: the smallest hash of every ``window`` consecutive k-grams."""
    if len(kgrams) <= window:
        return np.arange(min(len(kgrams), 1), dtype=np.int64) if len(kgrams) else np.zeros(0, np.int64)
    lows = sliding_window_view(kgrams, window).argmin(axis=1) + np.arange(len(kgrams) - window + 1)
    return np.unique(lows).astype(np.int64)


def _fingerprints(
    kgrams: npt.NDArray[np.uint64], usable: npt.NDArray[np.bool_] | None
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    """(hash, position) of a document's winnowed k-grams, stock phrases and unusable k-grams left out."""
    positions = winnow(kgrams)
    if usable is not None:
        positions = positions[usable[positions]]
    hashes = kgrams[positions]
    _, inverse, counts = np.unique(hashes, return_inverse=True, return_counts=True)
    keep = counts[inverse] <= _MAX_REPEATS
    return hashes[keep], positions[keep]


def kgram_window_pairs(
    kgrams: Sequence[npt.NDArray[np.uint64]],
    stride: int,
    window_counts: Sequence[int],
    usable: Sequence[npt.NDArray[np.bool_]] | None = None,
) -> WindowPairs:
    """Window pairs sharing at least two winnowed k-grams, from one inverted index of all documents.

    ``usable[d]`` says which k-grams of document ``d`` may enter the index (those outside masked text).
    """
    parts = [_fingerprints(h, usable[d] if usable is not None else None) for d, h in enumerate(kgrams)]
    hashes = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, np.uint64)
    docs = np.concatenate([np.full(len(p[0]), d) for d, p in enumerate(parts)]) if parts else np.zeros(0)
    windows = (
        np.concatenate(
            [np.minimum(p[1] // stride, max(window_counts[d] - 1, 0)) for d, p in enumerate(parts)]
        )
        if parts
        else np.zeros(0)
    )
    order = np.argsort(hashes, kind="stable")
    hashes, docs, windows = hashes[order], docs[order], windows[order]
    bounds = np.flatnonzero(np.diff(hashes)) + 1
    hits: Counter[tuple[int, int, int, int]] = Counter()
    for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, len(hashes)], strict=True):
        if hi - lo < 2 or len(set(docs[lo:hi].tolist())) == 1:
            continue
        entries = sorted(set(zip(docs[lo:hi].tolist(), windows[lo:hi].tolist(), strict=True)))
        for x, (da, wa) in enumerate(entries):
            for db, wb in entries[x + 1 :]:
                if db != da:
                    hits[(da, db, wa, wb)] += 1
    pairs: defaultdict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for (da, db, wa, wb), count in hits.items():
        if count >= _MIN_HITS:
            pairs[(da, db)].append((wa, wb))
    return dict(pairs)


def mostly_open_windows(
    usable: npt.NDArray[np.bool_], starts: Sequence[int], window_chars: int
) -> list[bool]:
    """Which windows have at least half their k-grams usable (outside masked text)."""
    return [bool(usable[s : s + window_chars].mean() >= 0.5) if len(usable) else False for s in starts]


def candidate_window_pairs(
    windows: Sequence[Sequence[LeanMinHash]],
    kgrams: Sequence[npt.NDArray[np.uint64]],
    stride: int,
    threshold: float,
    num_perm: int,
    usable: Sequence[tuple[npt.NDArray[np.bool_], list[bool]]] | None = None,
) -> WindowPairs:
    """For each pair of documents ``(i, j)``, ``i < j``: the window pairs worth verifying, sorted.

    ``usable[d]`` is (usable k-grams, windows kept) of document ``d``; masked text finds no candidates.
    """
    merged: defaultdict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
    found = (
        lsh_window_pairs(windows, threshold, num_perm, [u[1] for u in usable] if usable else None),
        kgram_window_pairs(
            kgrams, stride, [len(w) for w in windows], [u[0] for u in usable] if usable else None
        ),
    )
    for source in found:
        for key, value in source.items():
            merged[key].update(value)
    return {key: sorted(value) for key, value in sorted(merged.items())}
