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
section: 4.0 s): a sentence's closest was found for all of those whose closest lies at a cosine of 0.6
or more, 90% at 0.5-0.6, 66% at 0.4-0.5; in prose of random words (``bench.semantic --long``, 30 bids),
where groups of characters mean little, 60% of the pairs at 0.45 or more.
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
_QUERIES = 1024  # sentences of a group compared at once (a row of cosines each)
_SPAN = 32  # columns of a row of cosines whose maximum is taken together
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
    compared back: the closeness is the same either way), closest first, as many as before."""
    count, keep = rows.shape
    unit = np.repeat(np.arange(count, dtype=np.int64), keep)
    other, score = rows.ravel(), scores.ravel()
    found = other >= 0
    unit, other = np.concatenate([unit[found], other[found]]), np.concatenate([other[found], unit[found]])
    score = np.concatenate([score[found], score[found]])
    pairs = np.argsort(unit * count + other, kind="stable")
    unit, other, score = unit[pairs], other[pairs], score[pairs]
    once = np.ones(len(unit), dtype=bool)  # each (row, close row) once
    once[1:] = (unit[1:] != unit[:-1]) | (other[1:] != other[:-1])
    unit, other, score = unit[once], other[once], score[once]
    ranked = np.argsort(unit * 4.0 + (1.0 - score.astype(np.float64)), kind="stable")  # by row, closest first
    unit, other, score = unit[ranked], other[ranked], score[ranked]
    place = np.arange(len(unit)) - np.searchsorted(unit, unit)  # each entry's place in its row's list
    kept = place < keep
    both = np.full((count, keep), -1, dtype=np.int64)
    near = np.zeros((count, keep), dtype=np.float32)
    both[unit[kept], place[kept]] = other[kept]
    near[unit[kept], place[kept]] = score[kept]
    return both, near


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
    that another owner holds, closest first (ties: the lower row)."""
    cosines = vectors[queries] @ vectors[others].T
    cosines[owner[queries][:, None] == owner[others][None, :]] = -np.inf
    count = min(rows.shape[1], len(others))
    top = _first_columns(cosines, count)
    found = np.take_along_axis(cosines, top, axis=1)
    ranked = np.lexsort((top, -found), axis=1)
    top, found = np.take_along_axis(top, ranked, axis=1), np.take_along_axis(found, ranked, axis=1)
    real = np.isfinite(found)
    rows[queries, :count] = np.where(real, others[top], -1)
    scores[queries, :count] = np.where(real, found, 0.0)


def _first_columns(cosines: Vectors, count: int) -> Rows:
    """Each row's ``count`` columns of the highest values (ties: the lower column), in no set order.

    The columns are taken in blocks of ``_SPAN``: a column among a row's first ``count`` lies in one of
    the ``count`` blocks of the highest maxima (ties: the lower block), as each of those blocks holds a
    value before it; so only those blocks' columns are ranked, not the row's thousands (2.5 times
    faster on the 100-bid section's rows than a partition of each row)."""
    width = cosines.shape[1]
    whole = width // _SPAN * _SPAN
    maxima = cosines[:, :whole].reshape(len(cosines), -1, _SPAN).max(axis=2)
    if whole < width:
        maxima = np.concatenate([maxima, cosines[:, whole:].max(axis=1, keepdims=True)], axis=1)
    blocks = np.sort(_highest(maxima, min(count, maxima.shape[1])), axis=1)
    columns = (blocks[:, :, None] * _SPAN + np.arange(_SPAN)).reshape(len(cosines), -1)
    values = np.take_along_axis(cosines, np.minimum(columns, width - 1), axis=1)
    values[columns >= width] = -np.inf  # past the last column: nothing
    picked: Rows = np.take_along_axis(columns, _highest(values, count), axis=1)
    return picked


def _highest(values: Vectors, count: int) -> Rows:
    """Each row's ``count`` places of the highest values, ties taken at the lower place."""
    threshold = -np.partition(-values, count - 1, axis=1)[:, count - 1 : count]
    rank = np.where(values > threshold, 0, np.where(values == threshold, 1, 2)).astype(np.int8)
    picked: Rows = np.argsort(rank, axis=1, kind="stable")[:, :count]
    return picked
