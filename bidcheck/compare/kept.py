"""Candidate window pairs kept in the app's memo: a check with a bid more looks again only where it changed.

Whether two windows are candidates depends on nothing but them and their documents: LSH pairs two
windows that enter it (``usable``) and share a bucket (at most ``_MAX_REPEATS`` windows of a document
enter a bucket, the first ones); the k-gram index pairs two windows by the winnowed k-grams each holds
(its entries: each document's own, ``kgram_fingerprints``). Adding a bid changes the masks, so some
windows of other bids enter or leave LSH, and some of their entries change. A window is *moved* when
it entered or left LSH, shares a band value with one of its document that did, or gained or lost an
entry; every window of a new document is moved. A window pair of two documents checked before, neither
window moved, is a candidate exactly when it was. The pairs with a moved window are looked for in
indexes of the moved windows and of every window sharing a band value or a hash with them (a bucket
or a hash taken whole, so that the pairs are those the full indexes give).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import distinct, is_member
from bidcheck.compare.candidates import (
    MIN_WINDOW_JACCARD,
    WindowPairs,
    kgram_fingerprints,
    kgram_index_pairs,
    lsh_window_pairs,
    merged_window_pairs,
    winnow,
)
from bidcheck.fingerprint.minhash import WindowMinHash, lsh_bands
from bidcheck.memo import keep_in_memo, kept_in_memo, memo_running, memoised_in_memory
from bidcheck.ready import Ready

__all__ = ["Section", "keep_candidate_pairs", "kept_candidate_pairs"]

Usable = tuple[npt.NDArray[np.bool_], list[bool]]
Prints = tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]
Bools = npt.NDArray[np.bool_]
_MIX = np.uint64(0x100000001B3)
_WINDOW_MIX = np.uint64(0x9E3779B97F4A7C15)


@dataclass(frozen=True)
class Section:
    """What candidates are found from: each bid (its windows, k-grams and cache entry), and which of its
    k-grams and windows are usable."""

    bids: Sequence[Ready]
    usable: Sequence[Usable]

    @property
    def windows(self) -> list[Sequence[WindowMinHash]]:
        """Each bid's MinHash windows."""
        return [b.fingerprint.windows for b in self.bids]

    @property
    def kgrams(self) -> list[npt.NDArray[np.uint64]]:
        """Each bid's k-gram hashes."""
        return [b.fingerprint.kgrams for b in self.bids]

    @property
    def sources(self) -> list[str]:
        """Each bid's cache entry ("" when read outside the cache)."""
        return [b.source for b in self.bids]


@dataclass(frozen=True)
class _Doc:
    """What one document brought to the indexes: the windows that entered LSH, its k-gram index
    entries (one value per hash and window, sorted) and their windows."""

    keep: Bools
    prints: Prints
    entries: npt.NDArray[np.uint64]
    windows: npt.NDArray[np.int64]


@dataclass(frozen=True)
class _Kept:
    """The candidates of the documents ``sources`` (by position, as ``candidate_window_pairs``)."""

    sources: tuple[str, ...]
    docs: tuple[_Doc, ...]
    pairs: WindowPairs


@dataclass(frozen=True)
class _Winnowing:
    """Whose winnowing fingerprints are asked for."""

    bid: Ready


@memoised_in_memory
def _winnowed(inputs: _Winnowing) -> npt.NDArray[np.int64]:
    """The positions of a bid's winnowing fingerprints (``winnow``)."""
    return winnow(inputs.bid.fingerprint.kgrams)


@dataclass(frozen=True)
class _DocPart:
    """What a bid's part of the indexes is made from: the bid, the positions of its usable winnowing
    fingerprints (all its winnowed k-grams read: a stock phrase that moves elsewhere in it, as a bid
    added makes them move in most bids, leaves its entries as they were), which of its windows enter
    LSH, and the windows' stride."""

    bid: Ready
    usable: npt.NDArray[np.int64]
    windows: Bools
    stride: int


def _doc(bid: Ready, usable: Usable, stride: int) -> _Doc:
    """A bid's part of the indexes (kept in the running check's memo by what it is made from)."""
    winnowed = _winnowed(_Winnowing(bid))
    return _doc_part(_DocPart(bid, winnowed[usable[0][winnowed]], np.asarray(usable[1], dtype=bool), stride))


@memoised_in_memory
def _doc_part(inputs: _DocPart) -> _Doc:
    """A bid's part of the indexes (``kgram_fingerprints``, the index's windows)."""
    fingerprint, stride = inputs.bid.fingerprint, inputs.stride
    prints = kgram_fingerprints(fingerprint.kgrams, None, inputs.usable)
    count = len(fingerprint.windows)
    windows = np.minimum(prints[1] // stride, max(count - 1, 0)).astype(np.int64)
    with np.errstate(over="ignore"):
        entries = prints[0] * _WINDOW_MIX + windows.astype(np.uint64)
    return _Doc(inputs.windows, prints, entries, windows)


@dataclass(frozen=True)
class _Banding:
    """Whose windows are banded, and the LSH index's shape."""

    bid: Ready
    threshold: float
    num_perm: int


@memoised_in_memory
def _band_values(inputs: _Banding) -> npt.NDArray[np.uint64]:
    """One 64-bit value per window and LSH band, equal wherever the band's MinHash values are.
    Different bands' values may collide: that only adds rows to look at."""
    windows = inputs.bid.fingerprint.windows
    bands = lsh_bands(inputs.threshold, inputs.num_perm)
    values = np.zeros((len(windows), len(bands)), dtype=np.uint64)
    if len(windows):
        signatures = np.stack([w.hashvalues for w in windows]).astype(np.uint64)
        with np.errstate(over="ignore"):
            for b, (start, end) in enumerate(bands):
                for column in range(start, end):
                    values[:, b] = values[:, b] * _MIX + signatures[:, column]
    return values


def _sharing(values: npt.NDArray[np.uint64], rows: Bools) -> Bools:
    """The rows of ``values`` that share a value with one of ``rows``."""
    wanted = distinct(values[rows].ravel())
    return np.asarray(is_member(values.ravel(), wanted).reshape(values.shape).any(axis=1), dtype=bool)


def _moved(old: _Doc | None, new: _Doc, values: npt.NDArray[np.uint64]) -> Bools:
    """The windows of one document whose candidates may have changed since ``old`` (see the module)."""
    if old is None or len(old.keep) != len(new.keep):
        return np.ones(len(new.keep), dtype=bool)
    moved = np.asarray(old.keep != new.keep, dtype=bool)
    if moved.any():
        moved |= _sharing(values, moved)
    if not np.array_equal(old.entries, new.entries):
        moved[new.windows[~is_member(new.entries, distinct(old.entries))]] = True
        moved[old.windows[~is_member(old.entries, distinct(new.entries))]] = True
    return moved


def _with_moved(pairs: WindowPairs, moved: list[Bools]) -> WindowPairs:
    """The window pairs with a moved window."""
    out: WindowPairs = {}
    for (i, j), value in pairs.items():
        kept = [(x, y) for x, y in value if moved[i][x] or moved[j][y]]
        if kept:
            out[(i, j)] = kept
    return out


def _lsh_moved(
    section: Section,
    docs: list[_Doc],
    moved: list[Bools],
    values: list[npt.NDArray[np.uint64]],
    shape: tuple[float, int],
) -> WindowPairs:
    """The LSH pairs with a moved window: the moved windows that enter LSH, and every window that
    enters it and shares a band value with one of them."""
    rows = [d.keep & m for d, m in zip(docs, moved, strict=True)]
    wanted = distinct(np.concatenate([v[r].ravel() for v, r in zip(values, rows, strict=True)]))
    keep = [
        (d.keep & is_member(v.ravel(), wanted).reshape(v.shape).any(axis=1)).tolist() if len(v) else []
        for d, v in zip(docs, values, strict=True)
    ]
    found = lsh_window_pairs(section.windows, *shape, keep, MIN_WINDOW_JACCARD)
    return _with_moved(found, moved)


def _kgrams_moved(docs: list[_Doc], moved: list[Bools], stride: int, counts: list[int]) -> WindowPairs:
    """The k-gram index's pairs with a moved window: its entries, and every entry of the same hashes."""
    wanted = distinct(np.concatenate([d.prints[0][m[d.windows]] for d, m in zip(docs, moved, strict=True)]))
    if not len(wanted):
        return {}
    parts = []
    for d in docs:
        near = is_member(d.prints[0], wanted)
        parts.append((d.prints[0][near], d.prints[1][near]))
    return _with_moved(kgram_index_pairs(parts, stride, counts), moved)


def _carried(old: _Kept, at: list[int | None], moved: list[Bools]) -> WindowPairs:
    """The kept window pairs of documents checked before (by their positions now), neither window moved."""
    now = {o: n for n, o in enumerate(at) if o is not None}
    carried: WindowPairs = {}
    for (i, j), value in old.pairs.items():
        if i in now and j in now:
            a, b = now[i], now[j]
            pairs = value if a < b else [(y, x) for x, y in value]
            kept = [(x, y) for x, y in pairs if not moved[min(a, b)][x] and not moved[max(a, b)][y]]
            if kept:
                carried[(min(a, b), max(a, b))] = kept
    return carried


def kept_candidate_pairs(
    section: Section, stride: int, threshold: float, num_perm: int
) -> WindowPairs | None:
    """``candidate_window_pairs`` of the section, looked for again only where it changed since the
    running check's memo kept them (see the module); ``None`` where there is no memo, or a document was
    read outside the cache or is given twice (the caller finds them all)."""
    if not _keepable(section):
        return None
    shape = (stride, threshold, num_perm)
    docs, values = _indexed(section, shape)
    old = kept_in_memo(_key(shape))
    if isinstance(old, _Kept):
        found = _found_again(old, section, docs, values, shape)
    else:
        usable = [u[1] for u in section.usable]
        found = merged_window_pairs(
            lsh_window_pairs(section.windows, threshold, num_perm, usable, MIN_WINDOW_JACCARD),
            kgram_index_pairs([d.prints for d in docs], stride, [len(w) for w in section.windows]),
        )
    keep_in_memo(_key(shape), _Kept(tuple(section.sources), tuple(docs), found))
    return found


def keep_candidate_pairs(
    section: Section, found: WindowPairs, stride: int, threshold: float, num_perm: int
) -> None:
    """Keep ``found``, the section's candidates as an earlier check worked them out (its stage answered
    from the cache), in the running check's memo, as ``kept_candidate_pairs`` would have: the next check
    with a bid more then looks again only where it changed. Nothing without a memo."""
    if _keepable(section):
        shape = (stride, threshold, num_perm)
        docs, _ = _indexed(section, shape)  # the band values are kept for the next check too
        keep_in_memo(_key(shape), _Kept(tuple(section.sources), tuple(docs), found))


def _keepable(section: Section) -> bool:
    """Whether the section's candidates can be kept: a memo runs, every document was read from the
    cache, none is given twice."""
    sources = list(section.sources)
    return memo_running() and all(sources) and len(set(sources)) == len(sources)


def _key(shape: tuple[int, float, int]) -> str:
    stride, threshold, num_perm = shape
    return f"candidates|{stride}|{threshold}|{num_perm}"


def _indexed(
    section: Section, shape: tuple[int, float, int]
) -> tuple[list[_Doc], list[npt.NDArray[np.uint64]]]:
    """Each document's part of the indexes and its band values (kept in the memo by its entry)."""
    stride, threshold, num_perm = shape
    docs = [_doc(b, u, stride) for b, u in zip(section.bids, section.usable, strict=True)]
    values = [_band_values(_Banding(b, threshold, num_perm)) for b in section.bids]
    return docs, values


def _found_again(
    old: _Kept,
    section: Section,
    docs: list[_Doc],
    values: list[npt.NDArray[np.uint64]],
    shape: tuple[int, float, int],
) -> WindowPairs:
    """The candidates from those ``old`` kept: its pairs of windows that did not move, and the pairs
    of moved windows looked for again."""
    stride, threshold, num_perm = shape
    before = {source: n for n, source in enumerate(old.sources)}
    at = [before.get(source) for source in section.sources]
    moved = [
        _moved(old.docs[o] if o is not None else None, d, v) for o, d, v in zip(at, docs, values, strict=True)
    ]
    return merged_window_pairs(
        _carried(old, at, moved),
        _lsh_moved(section, docs, moved, values, (threshold, num_perm)),
        _kgrams_moved(docs, moved, stride, [len(w) for w in section.windows]),
    )
