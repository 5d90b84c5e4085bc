"""Each sentence's closest sentences in the other bids, found without comparing every pair of bids.

The shortlist (``shortlist``) looks for a rewritten run among each sentence's closest sentences in the
other bids. Comparing every pair of bids costs the square of the section's sentences: 100 bids of real
length hold 143,543 of them, and their products took 23 s on 2 cores, most of the layer. Here the
sentences are grouped round centres (spherical k-means on a sample of them, ``_GROUP_SIZE`` sentences
to a group); each sentence is listed under its ``_SPILL`` closest centres, and the sentences of a group
are compared only with those listed under the ``_PROBE`` groups whose centres lie closest to their own.
Each keeps its ``keep`` closest in other bids, and is kept by those it is closest to (the same cosine).

It finds close sentences, not every sentence's closest, and the shortlist compares the pairs of bids
its best runs are in again in full. Measured against every product (``nearest_others`` on that 100-bid
section: 3.7 s on 2 cores, most of it the groups' products): a sentence's closest was found for all
of those whose closest lies at a cosine of 0.6 or more, 90% at 0.5-0.6, 66% at 0.4-0.5; in prose of
random words (``bench.semantic --long``, 30 bids), where groups of characters mean little, 60% of the
pairs at 0.45 or more.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

from bidcheck.progress import CancelFlag, ProgressFn, check_cancel, no_progress

__all__ = ["in_threads", "nearest_others"]

Item = TypeVar("Item")
Result = TypeVar("Result")

Vectors = npt.NDArray[np.float32]
Rows = npt.NDArray[np.int64]
_GROUP_SIZE = 240  # sentences to a group (the section's sentences over this: the groups)
_PROBE = 8  # groups whose sentences a group's sentences are compared with (their own among them)
_SPILL = 2  # groups a sentence is listed under (its closest centres): one near two is found from both
_SAMPLE = 32  # sentences sampled a group to find the centres
_ROUNDS = 8  # rounds of k-means
_SEED = 20261207  # the sample and the first centres: the same section gives the same groups
_BLOCK = 8192  # sentences given their group at once
_QUERIES = 1024  # sentences of a group compared at once (a column of cosines each)
_PLACED = 1 << 17  # rows found the other way placed in lists at once (17 MB of lists gathered)
_SPAN = 16  # rows of a column of cosines whose maximum is taken together
_MOST_OTHERS = 4 * _GROUP_SIZE * _PROBE * _SPILL  # sentences a group is compared with at most: 4 shares


def nearest_others(
    vectors: Vectors,
    owner: Rows,
    keep: int,
    progress: ProgressFn = no_progress,
    cancel: CancelFlag | None = None,
    threads: int = 1,
) -> tuple[Rows, Vectors]:
    """For each row of ``vectors`` (unit length), ``keep`` close rows of other owners, closest first,
    and their cosines: rows -1 and cosines 0 where fewer were compared. The groups are compared in
    ``threads`` threads, each with one BLAS thread (each group's rows its own: the same result)."""
    groups = max(1, len(vectors) // _GROUP_SIZE)
    centres = _centres(vectors, groups)
    member = _closest_groups(vectors, centres, _SPILL)
    order = np.argsort(member[:, 0], kind="stable")
    bounds = np.searchsorted(member[order, 0], np.arange(groups + 1))
    posted = np.argsort(member.ravel(), kind="stable")  # each row under each of its _SPILL closest groups
    posts = np.searchsorted(member.ravel()[posted], np.arange(groups + 1))
    posted //= member.shape[1]
    affinity = centres @ centres.T
    np.fill_diagonal(affinity, np.inf)  # a group is compared with its own first (centres may coincide)
    probes = np.argsort(-affinity, axis=1, kind="stable")[:, :_PROBE]
    rows = np.full((len(vectors), keep), -1, dtype=np.int64)
    scores = np.zeros((len(vectors), keep), dtype=np.float32)

    def compare(group: int) -> None:
        listed = np.concatenate([posted[posts[p] : posts[p + 1]] for p in probes[group]])
        others = _spread(np.unique(listed))
        for top in range(bounds[group], bounds[group + 1], _QUERIES):
            check_cancel(cancel)
            queries = order[top : min(top + _QUERIES, bounds[group + 1])]
            _keep_closest(vectors, owner, queries, others, rows, scores)

    for done, _ in enumerate(in_threads(compare, range(groups), threads)):
        progress(done / groups, "语义比对：挑选候选句")
    return _both_ways(rows, scores)


def in_threads(work: Callable[[Item], Result], items: Iterable[Item], threads: int) -> Iterator[Result]:
    """``work`` done on each item in ``threads`` threads, each with one BLAS thread (a product's values
    are those BLAS's own threads give), the results in the items' order; what ``work`` raises is
    raised here."""
    with threadpool_limits(1, user_api="blas"), ThreadPoolExecutor(max(1, threads)) as pool:
        yield from pool.map(work, items)


def _spread(others: Rows) -> Rows:
    """At most ``_MOST_OTHERS`` of the rows, evenly spread: a group that drew far more sentences than
    its share (one sentence written thousands of times) is compared with a sample of its neighbours, not
    with all of them (that was quadratic)."""
    if len(others) <= _MOST_OTHERS:
        return others
    return others[np.linspace(0, len(others) - 1, _MOST_OTHERS).astype(np.int64)]


def _both_ways(rows: Rows, scores: Vectors) -> tuple[Rows, Vectors]:
    """Each row's close rows with those that found it added (a group compared with another need not be
    compared back: the closeness is the same either way), closest first (ties: the lower row), as many
    as before. Each row's own list is in that order already: a row found by one it did not find is
    merged into that one's list at its place there (``_places``), not sorted again with the list."""
    count, keep = rows.shape
    finder = np.repeat(np.arange(count, dtype=np.int64), keep)
    found = rows.ravel() >= 0
    finder, row, score = finder[found], rows.ravel()[found], scores.ravel()[found]
    last = np.where(rows[:, -1] >= 0, scores[:, -1], -np.inf)
    enters = score >= last[row]  # at least as close as the last of a full list, or the list not full
    finder, row, score = finder[enters], row[enters], score[enters]
    place, new = _places(rows, scores, row, finder, score)
    finder, row, score, place = finder[new], row[new], score[new], place[new]
    order = np.lexsort((finder, -score, row))  # the added ones of a row: closest first, ties the lower row
    finder, row, score, place = finder[order], row[order], score[order], place[order]
    before = np.zeros((count, keep + 1), dtype=np.int64)  # added ones of each row before its own at a place
    np.add.at(before, (row, place), 1)
    own = np.arange(keep) + np.cumsum(before, axis=1)[:, :keep]  # each own entry's place, those added in
    place += _places_in_runs(row)  # after those of its row added before it
    both, near = np.full((count, keep), -1, dtype=np.int64), np.zeros((count, keep), dtype=np.float32)
    line, column = np.nonzero((own < keep) & (rows >= 0))
    both[line, own[line, column]], near[line, own[line, column]] = rows[line, column], scores[line, column]
    kept = place < keep
    both[row[kept], place[kept]], near[row[kept], place[kept]] = finder[kept], score[kept]
    return both, near


def _places(
    rows: Rows, scores: Vectors, row: Rows, finder: Rows, score: Vectors
) -> tuple[Rows, npt.NDArray[np.bool_]]:
    """For each row found by ``finder`` at ``score``: how many of the row's own close rows come before
    the finder (closer, or as close and lower), and whether the finder is not among them already."""
    place = np.empty(len(row), dtype=np.int64)
    new = np.empty(len(row), dtype=bool)
    for top in range(0, len(row), _PLACED):
        part = slice(top, top + _PLACED)
        listed, closeness = rows[row[part]], scores[row[part]]
        who, how = finder[part, None], score[part, None]
        new[part] = ~(listed == who).any(axis=1)
        ahead = (listed >= 0) & ((closeness > how) | ((closeness == how) & (listed < who)))
        place[part] = ahead.sum(axis=1)
    return place, new


def _closest_groups(vectors: Vectors, centres: Vectors, count: int) -> Rows:
    """Each row's ``count`` closest centres (at most two), closest first."""
    closest = []
    for n in range(0, len(vectors), _BLOCK):
        cosines = vectors[n : n + _BLOCK] @ centres.T
        first = cosines.argmax(axis=1)
        if count == 1 or cosines.shape[1] == 1:
            closest.append(first[:, None])
            continue
        cosines[np.arange(len(first)), first] = -np.inf
        closest.append(np.stack([first, cosines.argmax(axis=1)], axis=1))
    return np.concatenate(closest)


def _centres(vectors: Vectors, groups: int) -> Vectors:
    """``groups`` unit-length centres of the vectors: spherical k-means on a sample of them (a centre
    that draws no sentence stays where it was)."""
    rng = np.random.default_rng(_SEED)
    sample = vectors[rng.choice(len(vectors), min(len(vectors), groups * _SAMPLE), replace=False)]
    centres = sample[rng.choice(len(sample), groups, replace=False)].copy()
    for _ in range(_ROUNDS):
        nearest = (sample @ centres.T).argmax(axis=1)
        order = np.argsort(nearest, kind="stable")
        drawn, starts = np.unique(nearest[order], return_index=True)
        sums = np.zeros_like(centres)
        sums[drawn] = np.add.reduceat(sample[order], starts, axis=0)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        centres = np.where(norms > 1e-9, sums / np.maximum(norms, 1e-9), centres).astype(np.float32)
    return centres


def _keep_closest(
    vectors: Vectors, owner: Rows, queries: Rows, others: Rows, rows: Rows, scores: Vectors
) -> None:
    """Into ``rows`` and ``scores``: for each query row, its closest rows among ``others`` (in order)
    that another owner holds, closest first (ties: the lower row). The cosines are a column for each
    query: the blocks of ``_first_rows`` are then runs of rows, whose maxima numpy takes eight times
    faster than those of a row's runs of columns (0.18 ms against 1.45 for 240 queries and 3,500 rows,
    blocks of 32)."""
    cosines = vectors[others] @ vectors[queries].T
    cosines[owner[others][:, None] == owner[queries][None, :]] = -np.inf
    count = min(rows.shape[1], len(others))
    top, found = _first_rows(cosines, count)
    real = np.isfinite(found)
    rows[queries, :count] = np.where(real, others[top], -1)
    scores[queries, :count] = np.where(real, found, 0.0)


def _first_rows(cosines: Vectors, count: int) -> tuple[Rows, Vectors]:
    """For each column, its ``count`` rows of the highest values, highest first (ties: the lower row),
    and their values.

    The column's maxima are taken in blocks of ``_SPAN`` rows. Each of its first ``count`` values lies in
    one of the ``count`` blocks of the highest maxima (ties: the lower block; ``_first_blocks``), as each
    of those holds a value ranked before any value of a block left out; and each is at least the lowest
    of those maxima (the floor). So only those blocks' values that reach the floor are ranked (about 17
    a column on the 100-bid section), not the column's thousands: at most ``count`` blocks' worth,
    however many tie. Where a column has fewer than ``count`` blocks, all of its values are ranked."""
    height, width = cosines.shape
    whole = height // _SPAN * _SPAN
    maxima = cosines[:whole].reshape(-1, _SPAN, width).max(axis=1)
    if whole < height:
        maxima = np.concatenate([maxima, cosines[whole:].max(axis=0, keepdims=True)])
    if len(maxima) < count:  # every block, every value
        floor = np.full(width, -np.inf, dtype=cosines.dtype)
    else:
        floor = -np.partition(-maxima, count - 1, axis=0)[count - 1]
    block, column = np.nonzero(_first_blocks(maxima, floor, count))
    row = (block[:, None] * _SPAN + np.arange(_SPAN)).ravel()
    column = np.repeat(column, _SPAN)
    row, column = row[row < height], column[row < height]
    value = cosines[row, column]
    high = value >= floor[column]
    row, column, value = row[high], column[high], value[high]
    order = np.lexsort((row, -value, column))  # by column, the highest first, ties the lower row
    row, column, value = row[order], column[order], value[order]
    place = _places_in_runs(column)  # each row's place in its column's list
    first = place < count
    top = np.empty((width, count), dtype=np.int64)
    found = np.empty((width, count), dtype=cosines.dtype)
    top[column[first], place[first]] = row[first]
    found[column[first], place[first]] = value[first]
    return top, found


def _first_blocks(maxima: Vectors, floor: Vectors, count: int) -> npt.NDArray[np.bool_]:
    """Each column's ``count`` blocks of the highest maxima, ties at the lower block: those above the
    column's floor (its ``count``-th highest maximum), then the lowest of those at it. Exactly
    ``count``, however many tie (20,000 copies of one sentence: every block); every block where there
    are fewer (the floor then -inf)."""
    above = maxima > floor
    at = maxima == floor
    wanted = count - above.sum(axis=0)
    first: npt.NDArray[np.bool_] = above | (at & (np.cumsum(at, axis=0) <= wanted))
    return first


def _places_in_runs(keys: Rows) -> Rows:
    """Each entry's place among the entries of its key, ``keys`` sorted: 0 for the first of each."""
    places: Rows = np.arange(len(keys)) - np.searchsorted(keys, keys)
    return places
