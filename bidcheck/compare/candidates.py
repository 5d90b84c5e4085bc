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

__all__ = ["WindowPairs", "candidate_window_pairs", "kgram_window_pairs", "lsh_window_pairs", "winnow"]

WindowPairs = dict[tuple[int, int], list[tuple[int, int]]]
_WINNOW = 8  # one fingerprint per 8 consecutive k-grams at least
_MAX_REPEATS = 4  # a k-gram repeated more often inside one document is a stock phrase, not evidence
_MIN_HITS = 2  # shared fingerprints needed before two windows are worth verifying


def lsh_window_pairs(
    windows: Sequence[Sequence[LeanMinHash]], threshold: float, num_perm: int
) -> WindowPairs:
    """Window pairs whose MinHashes collide in an LSH index of all windows."""
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    with lsh.insertion_session() as session:
        for doc, doc_windows in enumerate(windows):
            for index, signature in enumerate(doc_windows):
                session.insert((doc, index), signature, check_duplication=False)
    pairs: defaultdict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
    for doc, doc_windows in enumerate(windows):
        for index, signature in enumerate(doc_windows):
            for other, other_index in lsh.query(signature):
                if other > doc:
                    pairs[(doc, other)].add((index, other_index))
    return {key: sorted(value) for key, value in pairs.items()}


def winnow(kgrams: npt.NDArray[np.uint64], window: int = _WINNOW) -> npt.NDArray[np.int64]:
    """Positions of the winnowing fingerprints: the smallest hash of every ``window`` consecutive k-grams."""
    if len(kgrams) <= window:
        return np.arange(min(len(kgrams), 1), dtype=np.int64) if len(kgrams) else np.zeros(0, np.int64)
    lows = sliding_window_view(kgrams, window).argmin(axis=1) + np.arange(len(kgrams) - window + 1)
    return np.unique(lows).astype(np.int64)


def _fingerprints(kgrams: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    """(hash, position) of a document's winnowed k-grams, stock phrases left out."""
    positions = winnow(kgrams)
    hashes = kgrams[positions]
    _, inverse, counts = np.unique(hashes, return_inverse=True, return_counts=True)
    keep = counts[inverse] <= _MAX_REPEATS
    return hashes[keep], positions[keep]


def kgram_window_pairs(
    kgrams: Sequence[npt.NDArray[np.uint64]], stride: int, window_counts: Sequence[int]
) -> WindowPairs:
    """Window pairs sharing at least two winnowed k-grams, from one inverted index of all documents."""
    parts = [_fingerprints(h) for h in kgrams]
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


def candidate_window_pairs(
    windows: Sequence[Sequence[LeanMinHash]],
    kgrams: Sequence[npt.NDArray[np.uint64]],
    stride: int,
    threshold: float,
    num_perm: int,
) -> WindowPairs:
    """For each pair of documents ``(i, j)``, ``i < j``: the window pairs worth verifying, sorted."""
    merged: defaultdict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
    found = (
        lsh_window_pairs(windows, threshold, num_perm),
        kgram_window_pairs(kgrams, stride, [len(w) for w in windows]),
    )
    for source in found:
        for key, value in source.items():
            merged[key].update(value)
    return {key: sorted(value) for key, value in sorted(merged.items())}
