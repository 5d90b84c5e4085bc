"""Candidate window pairs: the LSH buckets are datasketch's, and masked text finds no candidates."""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np
import pytest
from datasketch import LeanMinHash, MinHashLSH
from datasketch.lsh import _optimal_param

from bidcheck.compare.candidates import (
    _by_bucket_and_document,
    _held_twice,
    kgram_fingerprints,
    kgram_window_pairs,
    lsh_window_pairs,
)
from bidcheck.config import Settings
from bidcheck.fingerprint import fingerprint_text
from bidcheck.fingerprint.minhash import WindowMinHash, lsh_bands
from bidcheck.text import normalize
from tests.builders import paragraphs

SETTINGS = Settings()


def _section(seed: int) -> list[str]:
    """Four texts: two share a copied stretch, all four share a clause."""
    clause = "".join(paragraphs(seed * 10, 1))
    copied = "".join(paragraphs(seed * 10 + 1, 3))
    own = ["".join(paragraphs(seed * 10 + 2 + i, 4)) for i in range(4)]
    texts = [own[0] + copied + clause, own[1] + clause + copied, own[2] + clause, clause + own[3]]
    return [normalize(t)[0] for t in texts]


def _lean(window: WindowMinHash) -> LeanMinHash:
    """The window's signature as datasketch's own object."""
    return LeanMinHash(seed=window.seed, hashvalues=window.hashvalues, scheme="affine32")


def _datasketch_pairs(windows: list[list[WindowMinHash]]) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """The reference: datasketch's index, queried with every window."""
    lsh = MinHashLSH(threshold=SETTINGS.lsh_threshold, num_perm=SETTINGS.num_perm)
    leans = [
        [LeanMinHash(seed=w.seed, hashvalues=w.hashvalues, scheme="affine32") for w in doc] for doc in windows
    ]
    for d, doc in enumerate(leans):
        for w, signature in enumerate(doc):
            lsh.insert((d, w), signature)
    found: defaultdict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
    for d, doc in enumerate(leans):
        for w, signature in enumerate(doc):
            for other, index in lsh.query(signature):
                if other > d:
                    found[(d, other)].add((w, index))
    return {key: sorted(value) for key, value in found.items()}


def test_lsh_window_pairs_are_the_pairs_datasketch_finds() -> None:
    prints = [fingerprint_text(t, SETTINGS) for t in _section(5)]
    windows = [list(p.windows) for p in prints]
    ours = lsh_window_pairs(windows, SETTINGS.lsh_threshold, SETTINGS.num_perm)
    assert ours == _datasketch_pairs(windows)
    assert (0, 1) in ours


@pytest.mark.parametrize("num_perm", [2, 3, 16, 64, 100, 128, 256])
def test_lsh_bands_are_the_bands_datasketch_chooses(num_perm: int) -> None:
    for threshold in [*(t / 50 for t in range(1, 51)), SETTINGS.lsh_threshold]:
        b, r = _optimal_param(threshold, num_perm, 0.5, 0.5)  # MinHashLSH's choice; it refuses b = 1
        assert list(lsh_bands(threshold, num_perm)) == [(i * r, (i + 1) * r) for i in range(b)], threshold
    assert list(lsh_bands(0.15, 128)) == MinHashLSH(threshold=0.15, num_perm=128).hashranges


def test_windows_left_out_find_no_lsh_candidates() -> None:
    prints = [fingerprint_text(t, SETTINGS) for t in _section(6)]
    windows = [list(p.windows) for p in prints]
    keep = [[True] * len(w) for w in windows]
    keep[1] = [False] * len(windows[1])
    ours = lsh_window_pairs(windows, SETTINGS.lsh_threshold, SETTINGS.num_perm, keep)
    assert all(1 not in key for key in ours)


def test_masked_kgrams_find_no_kgram_candidates() -> None:
    prints = [fingerprint_text(t, SETTINGS) for t in _section(7)]
    counts = [len(p.windows) for p in prints]
    kgrams = [p.kgrams for p in prints]
    found = kgram_window_pairs(kgrams, SETTINGS.window_stride, counts)
    assert (0, 1) in found
    assert (2, 3) in found  # the clause all four hold
    usable = [np.ones(len(h), dtype=bool) for h in kgrams]
    usable[0][:] = False
    masked = kgram_window_pairs(kgrams, SETTINGS.window_stride, counts, usable)
    assert all(0 not in key for key in masked)
    assert (1, 2) in masked


def test_lsh_pairs_below_the_jaccard_floor_are_left_out() -> None:
    prints = [fingerprint_text(t, SETTINGS) for t in _section(5)]
    windows = [list(p.windows) for p in prints]
    every = lsh_window_pairs(windows, SETTINGS.lsh_threshold, SETTINGS.num_perm)
    kept = lsh_window_pairs(windows, SETTINGS.lsh_threshold, SETTINGS.num_perm, min_jaccard=0.3)
    estimates = {
        (key, pair): _lean(windows[key[0]][pair[0]]).jaccard(_lean(windows[key[1]][pair[1]]))
        for key, pairs in every.items()
        for pair in pairs
    }
    assert any(e < 0.3 for e in estimates.values()) and any(e >= 0.3 for e in estimates.values())
    found = {(key, pair) for key, pairs in kept.items() for pair in pairs}
    assert found == {k for k, e in estimates.items() if e >= 0.3}


def test_kgram_candidates_need_two_shared_fingerprints_counted_once_per_window() -> None:
    """Two bids whose windows share two winnowed k-grams are a candidate; a k-gram a window holds
    twice still counts once, so one shared k-gram held twice finds nothing."""

    def doc(base: int, shared: dict[int, int]) -> np.ndarray:
        hashes = np.arange(base, base + 64, dtype=np.uint64)
        for position, value in shared.items():
            hashes[position] = value
        return hashes

    kgrams = [doc(10_000, {3: 1, 20: 2}), doc(20_000, {5: 1, 30: 2}), doc(30_000, {5: 1, 30: 1})]
    found = kgram_window_pairs(kgrams, 100, [1, 1, 1])
    assert found == {(0, 1): [(0, 0)]}


def _kgram_pairs_pair_by_pair(
    kgrams: list[np.ndarray], stride: int, counts: list[int]
) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """The reference: every two documents' winnowed k-grams compared, window by window, in Python."""
    entries = []
    for d, hashes in enumerate(kgrams):
        kept, positions = kgram_fingerprints(hashes, None)
        by_hash: defaultdict[int, set[int]] = defaultdict(set)
        for value, at in zip(kept.tolist(), positions.tolist(), strict=True):
            by_hash[value].add(min(at // stride, max(counts[d] - 1, 0)))
        entries.append(by_hash)
    found = {}
    for a in range(len(kgrams)):
        for b in range(a + 1, len(kgrams)):
            hits: Counter[tuple[int, int]] = Counter()
            for value, windows in entries[a].items():
                hits.update((x, y) for x in windows for y in entries[b].get(value, ()))
            pairs = sorted(pair for pair, count in hits.items() if count >= 2)
            if pairs:
                found[(a, b)] = pairs
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kgram_candidates_are_those_of_comparing_every_two_documents(seed: int) -> None:
    """Twelve documents of k-grams their own, some stretches copied into several others (some of them
    twice into one, some held by most): the index finds what comparing each two documents finds."""
    rng = np.random.default_rng(seed)
    kgrams = [rng.integers(0, 2**63, 3000, dtype=np.uint64) for _ in range(12)]
    for _ in range(30):
        source, start, length = int(rng.integers(12)), int(rng.integers(2900)), int(rng.integers(20, 100))
        for target in rng.choice(12, int(rng.integers(1, 9)), replace=False).tolist():
            at = int(rng.integers(3000 - length))
            kgrams[target][at : at + length] = kgrams[source][start : start + length]
    counts = [3000 // 250 + 1] * 12
    found = kgram_window_pairs(kgrams, 250, counts)
    assert len(found) > 20
    assert found == _kgram_pairs_pair_by_pair(kgrams, 250, counts)


def test_documents_that_share_no_kgram_are_no_candidates() -> None:
    rng = np.random.default_rng(7)
    kgrams = [rng.integers(0, 2**63, 3000, dtype=np.uint64) for _ in range(3)]
    assert kgram_window_pairs(kgrams, 250, [13] * 3) == {}
    assert kgram_window_pairs([np.zeros(0, dtype=np.uint64)] * 2, 250, [0, 0]) == {}


def test_text_a_bid_repeats_a_thousand_times_is_a_few_candidates() -> None:
    """One sentence pasted over and over (a hostile or broken file) makes every window of the bid
    alike: each document brings at most four windows into a bucket, so two such bids give some dozens
    of window pairs instead of millions (a 2-million-character bid used to take 11 GB here)."""
    sentence = normalize("本项目的施工质量验收按照设计文件和施工合同的约定执行，并形成书面记录。")[0]
    prints = [
        fingerprint_text(sentence * 2000, SETTINGS),
        fingerprint_text("前言" + sentence * 1500, SETTINGS),
    ]
    windows = [p.windows for p in prints]
    assert min(len(w) for w in windows) > 150
    pairs = lsh_window_pairs(windows, SETTINGS.lsh_threshold, SETTINGS.num_perm)
    assert 0 < len(pairs[(0, 1)]) <= 100  # 52,272 when every window of a bucket was paired


@pytest.mark.parametrize("distinct_values", [50, 40_000])
def test_entries_held_twice_are_those_whose_hash_another_entry_holds(distinct_values: int) -> None:
    """Few repeated hashes (sieved by their low bits) and more than the sieve takes (searched)."""
    rng = np.random.default_rng(distinct_values)
    pool = rng.integers(0, 1 << 63, distinct_values, dtype=np.uint64)
    alone = rng.integers(0, 1 << 63, 20_000, dtype=np.uint64)
    values = rng.permutation(np.concatenate([pool[rng.integers(0, distinct_values, 60_000)], alone]))
    counts = Counter(values.tolist())
    expected = np.asarray([counts[v] > 1 for v in values.tolist()])
    assert np.array_equal(_held_twice(values), expected)
    assert 0 < expected.sum() < len(values)


def test_rows_sharing_a_bucket_come_by_bucket_document_and_row() -> None:
    """The rows alone in their bucket are left out; the others in the order of the three-key sort."""
    rng = np.random.default_rng(7)
    bucket = rng.integers(0, 3_000, 5_000).astype(np.int64)
    docs = rng.integers(0, 40, 5_000).astype(np.int64)
    order = np.lexsort((np.arange(len(bucket)), docs, bucket))
    shared = Counter(bucket.tolist())
    expected = [row for row in order.tolist() if shared[int(bucket[row])] > 1]
    assert _by_bucket_and_document(bucket, docs).tolist() == expected
    assert len(expected) < len(bucket)
