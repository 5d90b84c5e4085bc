"""Candidate window pairs, read out of two indexes built once over every window of every bid.

* MinHash LSH over the 300-character windows finds long passages, also when heavily reworded.
* An inverted index of winnowed k-gram hashes finds passages shorter than a window (a single
  paragraph), which the window Jaccard of LSH cannot see.

Neither loops over pairs of documents; both read the colliding pairs out of their buckets.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import distinct, is_member
from bidcheck.fingerprint.minhash import WindowMinHash, lsh_bands

__all__ = [
    "MIN_WINDOW_JACCARD",
    "WindowPairs",
    "candidate_window_pairs",
    "kgram_fingerprints",
    "kgram_index_pairs",
    "kgram_window_pairs",
    "lsh_window_pairs",
    "merged_window_pairs",
    "mostly_open_windows",
    "winnow",
]

WindowPairs = dict[tuple[int, int], list[tuple[int, int]]]
_WINNOW = 8  # one fingerprint per 8 consecutive k-grams at least
_MAX_REPEATS = 4  # a k-gram repeated more often inside one document is a stock phrase, not evidence
_MIN_HITS = 2  # shared fingerprints needed before two windows are worth verifying
MIN_WINDOW_JACCARD = 0.1  # LSH pairs below this estimated Jaccard are band collisions of unrelated text
_MIN_OPEN_SHARE = 0.8  # a window enters LSH when this share of its k-grams lies outside masked text


def lsh_window_pairs(
    windows: Sequence[Sequence[WindowMinHash]],
    threshold: float,
    num_perm: int,
    keep: Sequence[Sequence[bool]] | None = None,
    min_jaccard: float = 0.0,
) -> WindowPairs:
    """Window pairs of different documents that share a bucket of MinHash LSH over all windows.

    The bands are datasketch's (``lsh_bands``, its ``MinHashLSH(threshold, num_perm).hashranges``) and a
    bucket is one band's values, as in its index; the buckets are formed with one sort per band over all
    windows instead of one dictionary lookup per window and band. ``keep[d][w]`` false leaves window ``w`` of
    document ``d`` out (a window of masked text). A pair whose signatures agree in fewer than
    ``min_jaccard`` of their values (the estimated Jaccard similarity) is left out: with few rows per
    band, windows of unrelated text that share only common words collide in some band.
    """
    bands = lsh_bands(threshold, num_perm)
    ids = [(d, w) for d, doc in enumerate(windows) for w in range(len(doc)) if keep is None or keep[d][w]]
    if len(ids) < 2:
        return {}
    signatures = np.stack([windows[d][w].hashvalues for d, w in ids])  # kept 32-bit: half the bytes
    docs = np.asarray([d for d, _ in ids], dtype=np.int64)
    index = np.asarray([w for _, w in ids], dtype=np.int64)
    bucketed = [_bucket_pairs(signatures[:, s:e].astype(np.uint64), docs) for s, e in bands]
    rows = distinct(np.concatenate(bucketed))
    first, second = rows // len(ids), rows % len(ids)
    apart = docs[first] != docs[second]
    first, second = first[apart], second[apart]
    if min_jaccard > 0 and len(first):  # counted, not averaged as floats: 40 times faster, equal shares
        agree = np.count_nonzero(signatures[first] == signatures[second], axis=1) / signatures.shape[1]
        first, second = first[agree >= min_jaccard], second[agree >= min_jaccard]
    return _grouped_by_documents(docs[first], index[first], docs[second], index[second])


def _bucket_pairs(band: npt.NDArray[np.uint64], docs: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Every pair of rows with equal band values, as ``low * rows + high`` (low < high). A document
    brings at most ``_MAX_REPEATS`` rows into one bucket: text it repeats (one sentence pasted a
    thousand times) is one candidate, not a million."""
    keys = _band_keys(band)
    order = np.argsort(keys)
    ordered = keys[order]
    bucket = np.empty(len(keys), dtype=np.int64)
    bucket[order] = np.cumsum(np.r_[True, ordered[1:] != ordered[:-1]]) - 1
    order = _by_bucket_and_document(bucket, docs)
    if not len(order):
        return np.zeros(0, dtype=np.int64)
    same = np.r_[False, (bucket[order][1:] == bucket[order][:-1]) & (docs[order][1:] == docs[order][:-1])]
    runs = np.cumsum(~same) - 1
    rank = np.arange(len(order)) - np.flatnonzero(~same)[runs]
    order = order[rank < _MAX_REPEATS]  # still grouped by bucket (the pairs' order does not matter)
    grouped = bucket[order]
    starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]]) if len(order) else np.zeros(0, np.int64)
    sizes = np.diff(np.r_[starts, len(order)])
    parts = [np.zeros(0, dtype=np.int64)]
    for size in np.unique(sizes[sizes > 1]).tolist():
        members = order[starts[sizes == size][:, None] + np.arange(size)]
        low, high = np.triu_indices(size, 1)
        a, b = members[:, low].ravel(), members[:, high].ravel()
        parts.append(np.minimum(a, b).astype(np.int64) * len(keys) + np.maximum(a, b))
    return np.concatenate(parts)


def _by_bucket_and_document(
    bucket: npt.NDArray[np.int64], docs: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The rows that share their bucket with another row, ordered by bucket, document and row (as
    ``np.lexsort((rows, docs, bucket))``): most rows are alone in their bucket, so the sort is of the
    few others, by one number for bucket and document."""
    shared = np.flatnonzero(np.bincount(bucket)[bucket] > 1)
    combined = bucket[shared] * (int(docs.max(initial=0)) + 1) + docs[shared]
    return shared[np.argsort(combined, kind="stable")]


def _band_keys(band: npt.NDArray[np.uint64]) -> npt.NDArray[np.generic]:
    """One value per row of a band, equal exactly for equal rows: two 32-bit MinHash values (the bands
    of the default settings) packed into one 64-bit number, which sorts many times faster than the
    rows' bytes; other bands as their rows' bytes."""
    if band.shape[1] <= 2 and (not band.size or int(band.max()) < 1 << 32):
        packed = band[:, 0] << np.uint64(32) if band.shape[1] == 2 else np.zeros(len(band), np.uint64)
        return np.asarray(packed | band[:, -1])
    return np.ascontiguousarray(band).view(np.dtype((np.void, band.shape[1] * band.itemsize))).ravel()


def _grouped_by_documents(
    doc_a: npt.NDArray[np.int64],
    win_a: npt.NDArray[np.int64],
    doc_b: npt.NDArray[np.int64],
    win_b: npt.NDArray[np.int64],
) -> WindowPairs:
    """Window pairs keyed by their documents' ids, the lower document first, each list sorted."""
    swap = doc_a > doc_b
    da, db = np.where(swap, doc_b, doc_a), np.where(swap, doc_a, doc_b)
    wa, wb = np.where(swap, win_b, win_a), np.where(swap, win_a, win_b)
    order = np.lexsort((wb, wa, db, da))
    da, db, wa, wb = da[order].tolist(), db[order].tolist(), wa[order].tolist(), wb[order].tolist()
    pairs: defaultdict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for key_a, key_b, x, y in zip(da, db, wa, wb, strict=True):
        pairs[(key_a, key_b)].append((x, y))
    return dict(pairs)


def winnow(kgrams: npt.NDArray[np.uint64], window: int = _WINNOW) -> npt.NDArray[np.int64]:
    """Positions of the winnowing fingerprints: the smallest hash of every ``window`` consecutive k-grams
    (the first of equal ones). Found by doubling: the smallest of 2, 4, 8 … k-grams from each position is
    the smaller of two halves', so a window of 8 takes three vectorised steps."""
    if len(kgrams) <= window:
        return np.arange(min(len(kgrams), 1), dtype=np.int64) if len(kgrams) else np.zeros(0, np.int64)
    lows, width = np.arange(len(kgrams), dtype=np.int64), 1
    while width * 2 <= window:
        lows, width = _smaller_first(kgrams, lows, width), width * 2
    if width < window:  # two overlapping runs of ``width`` cover the window
        lows = _smaller_first(kgrams, lows, window - width)
    lows = lows[: len(kgrams) - window + 1]  # each window's first smallest, never before the last one's
    return lows[np.r_[True, lows[1:] != lows[:-1]]]


def _smaller_first(
    kgrams: npt.NDArray[np.uint64], lows: npt.NDArray[np.int64], offset: int
) -> npt.NDArray[np.int64]:
    """For each position, the smaller hash of ``lows`` there and ``offset`` later (the earlier if equal)."""
    left, right = lows[:-offset], lows[offset:]
    return np.where(kgrams[right] < kgrams[left], right, left)


def kgram_fingerprints(
    kgrams: npt.NDArray[np.uint64],
    usable: npt.NDArray[np.bool_] | None,
    winnowed: npt.NDArray[np.int64] | None = None,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    """(hash, position) of a document's winnowed k-grams (``winnowed``: ``winnow(kgrams)`` found
    before), stock phrases and unusable k-grams left out."""
    positions = winnow(kgrams) if winnowed is None else winnowed
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
    The index is one sort: every two entries of a hash in different documents are a hit of their window
    pair, and the hits are counted with one more sort (no loop over buckets or pairs).
    """
    parts = [kgram_fingerprints(h, usable[d] if usable is not None else None) for d, h in enumerate(kgrams)]
    return kgram_index_pairs(parts, stride, window_counts)


def kgram_index_pairs(
    parts: Sequence[tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]],
    stride: int,
    window_counts: Sequence[int],
) -> WindowPairs:
    """``kgram_window_pairs`` from each document's winnowed k-grams (``kgram_fingerprints``)."""
    if not parts:
        return {}
    hashes = np.concatenate([p[0] for p in parts])
    shared = _held_twice(hashes)  # the others make no pair: the index is of these (at 200 bids, 1%)
    docs = np.concatenate([np.full(len(p[0]), d, dtype=np.int64) for d, p in enumerate(parts)])[shared]
    windows = np.concatenate(
        [np.minimum(p[1] // stride, max(window_counts[d] - 1, 0)) for d, p in enumerate(parts)]
    ).astype(np.int64)[shared]
    hashes = hashes[shared]
    if not len(hashes):
        return {}
    order = np.argsort(hashes, kind="stable")  # entries come by document, then window: ties stay so
    hashes, docs, windows = hashes[order], docs[order], windows[order]
    first_of_each = np.r_[True, (np.diff(hashes) != 0) | (np.diff(docs) != 0) | (np.diff(windows) != 0)]
    hashes, docs, windows = hashes[first_of_each], docs[first_of_each], windows[first_of_each]
    first, second = _equal_runs_pairs(hashes)
    apart = docs[first] != docs[second]  # entries come in document order: docs[first] < docs[second]
    first, second = first[apart], second[apart]
    size = max([*window_counts, 1])
    keys = ((docs[first] * len(parts) + docs[second]) * size + windows[first]) * size + windows[second]
    values, counts = np.unique(keys, return_counts=True)
    values = values[counts >= _MIN_HITS]
    pair, wa, wb = values // (size * size), values // size % size, values % size
    return _grouped_by_documents(pair // len(parts), wa, pair % len(parts), wb)


def _held_twice(values: npt.NDArray[np.uint64]) -> npt.NDArray[np.bool_]:
    """Which values another entry holds too: found by one plain sort, where the index's stable sort of
    every entry with its document and window cost several times more (almost every winnowed k-gram of
    a section is one bid's alone). The few repeated values sieve the rest (``is_member``): a binary
    search of every entry cost several times the sort."""
    ordered = np.sort(values)
    return is_member(values, distinct(ordered[1:][ordered[1:] == ordered[:-1]]))


def _equal_runs_pairs(values: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every pair of indexes ``x < y`` of equal values, in a sorted array."""
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]]) if len(values) else np.zeros(0, np.int64)
    sizes = np.diff(np.r_[starts, len(values)])
    firsts, seconds = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    for size in np.unique(sizes[sizes > 1]).tolist():
        members = starts[sizes == size][:, None] + np.arange(size)
        low, high = np.triu_indices(size, 1)
        firsts.append(members[:, low].ravel())
        seconds.append(members[:, high].ravel())
    return np.concatenate(firsts), np.concatenate(seconds)


def mostly_open_windows(
    usable: npt.NDArray[np.bool_], starts: Sequence[int], window_chars: int
) -> list[bool]:
    """Which windows have most of their k-grams usable (outside masked text): only they enter LSH. A
    window half in the tender's text shares that half with every bid and would find them all."""
    if not len(usable):
        return [False] * len(starts)
    totals = np.r_[0, np.cumsum(usable, dtype=np.int64)]
    lows = np.minimum(np.asarray(starts, dtype=np.int64), len(usable))
    highs = np.minimum(lows + window_chars, len(usable))
    sizes = np.maximum(highs - lows, 1)
    open_share = (totals[highs] - totals[lows]) / sizes
    return [bool(x) for x in open_share >= _MIN_OPEN_SHARE]


def candidate_window_pairs(
    windows: Sequence[Sequence[WindowMinHash]],
    kgrams: Sequence[npt.NDArray[np.uint64]],
    stride: int,
    threshold: float,
    num_perm: int,
    usable: Sequence[tuple[npt.NDArray[np.bool_], list[bool]]] | None = None,
) -> WindowPairs:
    """For each pair of documents ``(i, j)``, ``i < j``: the window pairs worth verifying, sorted.

    ``usable[d]`` is (usable k-grams, windows kept) of document ``d``; masked text finds no candidates.
    """
    return merged_window_pairs(
        lsh_window_pairs(
            windows, threshold, num_perm, [u[1] for u in usable] if usable else None, MIN_WINDOW_JACCARD
        ),
        kgram_window_pairs(
            kgrams, stride, [len(w) for w in windows], [u[0] for u in usable] if usable else None
        ),
    )


def merged_window_pairs(*found: WindowPairs) -> WindowPairs:
    """The window pairs of several sources in one, keys and each list sorted."""
    merged: defaultdict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
    for source in found:
        for key, value in source.items():
            merged[key].update(value)
    return {key: sorted(value) for key, value in sorted(merged.items())}
