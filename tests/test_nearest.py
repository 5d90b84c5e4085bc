"""Each sentence's closest sentences in other bids, found without comparing every pair of bids, and the
shortlist that reads them in a large section."""

from __future__ import annotations

import random
import tracemalloc

import numpy as np
import numpy.typing as npt
import pytest

from bench.rewrites import REWRITES, Rewrite
from bidcheck.compare.passage import RawPassage
from bidcheck.semantic.matches import Closest, linked_matches
from bidcheck.semantic.nearest import _both_ways, _first_rows, nearest_others
from bidcheck.semantic.shortlist import char_vectors, shortlist
from bidcheck.semantic.units import Units
from tests.test_semantic import _long_bid

Vectors = npt.NDArray[np.float32]


def _unit_rows(rng: np.random.Generator, count: int, dims: int = 64) -> Vectors:
    rows = rng.standard_normal((count, dims)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _planted(rng: np.random.Generator, owners: int, per_owner: int, pairs: int) -> tuple[Vectors, np.ndarray]:
    """Random unit rows, ``per_owner`` to each owner; the first ``pairs`` rows of owner 0 have a close
    copy (cosine about 0.9) among owner 1's rows, at rows ``per_owner + 2 n``."""
    vectors = _unit_rows(rng, owners * per_owner)
    for n in range(pairs):
        near = vectors[n] + 0.3 * _unit_rows(rng, 1)[0]
        vectors[per_owner + 2 * n] = near / np.linalg.norm(near)
    return vectors, np.repeat(np.arange(owners), per_owner)


def test_a_sentence_a_few_characters_apart_in_another_bid_is_found_first_among_thousands() -> None:
    """Twenty bids of about 330 generated sentences (27 groups: a group's sentences are compared with
    those of 8); bid 7 holds 30 of bid 0's sentences with two characters changed, each 20 sentences on."""
    rng = random.Random(3)
    texts = [list(_long_bid(rng, [], 10).norms) for _ in range(20)]
    for n in range(30):
        source = texts[0][n]
        texts[7][20 + n] = source[:3] + "甲乙" + source[5:]
    vectors = char_vectors([t for bid in texts for t in bid])
    owner = np.repeat(np.arange(20), [len(bid) for bid in texts])
    rows, scores = nearest_others(vectors, owner, keep=6)
    copy = int(np.flatnonzero(owner == 7)[0]) + 20
    assert rows.shape == scores.shape == (len(vectors), 6)
    assert [int(rows[n, 0]) for n in range(30)] == [copy + n for n in range(30)]
    assert [int(rows[copy + n, 0]) for n in range(30)] == list(range(30))


def test_the_rows_kept_are_of_other_owners_closest_first_with_their_cosines() -> None:
    rng = np.random.default_rng(4)
    vectors, owner = _planted(rng, owners=12, per_owner=100, pairs=0)
    rows, scores = nearest_others(vectors, owner, keep=5)
    assert (rows >= 0).all()
    assert (owner[rows] != owner[:, None]).all()
    assert np.allclose(scores, np.einsum("nd,nkd->nk", vectors, vectors[rows]), atol=1e-5)
    assert (np.diff(scores, axis=1) <= 0).all()
    exact = vectors @ vectors.T
    exact[owner[:, None] == owner[None, :]] = -np.inf
    assert (scores[:, 0] <= exact.max(axis=1) + 1e-5).all()  # never closer than the closest


def test_the_groups_compared_in_threads_give_what_they_give_one_after_another() -> None:
    rng = np.random.default_rng(7)
    centres = _unit_rows(rng, 40)
    vectors = centres[rng.integers(0, 40, 6000)] + 0.4 * _unit_rows(rng, 6000)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    owner = np.sort(rng.integers(0, 30, 6000))
    rows, scores = nearest_others(vectors, owner, keep=8)
    assert len(vectors) // 240 == 25  # groups
    for threads in (2, 3):
        again, near = nearest_others(vectors, owner, keep=8, threads=threads)
        assert np.array_equal(again, rows) and np.array_equal(near, scores)


@pytest.mark.parametrize("threads", [1, 2])
def test_one_sentence_written_twenty_thousand_times_is_compared_with_a_sample_not_with_every_copy(
    threads: int,
) -> None:
    """A hostile section: 20,000 copies of one sentence among 4 owners draw one group; each copy is
    compared with at most ``_MOST_OTHERS`` of its neighbours, in blocks of rows (every copy with every
    other: a table of 20,000 × 20,000 cosines, 1.6 GB)."""
    rng = np.random.default_rng(6)
    vectors = np.vstack([np.repeat(_unit_rows(rng, 1), 20_000, axis=0), _unit_rows(rng, 2_000)])
    owner = np.concatenate([np.arange(20_000) % 4, np.arange(2_000) % 4])
    tracemalloc.start()
    try:
        rows, scores = nearest_others(vectors, owner, keep=4, threads=threads)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 400 << 20, peak
    copies = slice(0, 20_000)
    assert (rows[copies] >= 0).all() and (owner[rows[copies]] != owner[copies, None]).all()
    assert np.allclose(scores[copies], 1.0, atol=1e-5)


def test_fewer_rows_of_other_owners_than_asked_leave_the_rest_empty() -> None:
    vectors = _unit_rows(np.random.default_rng(5), 4)
    rows, scores = nearest_others(vectors, np.array([0, 0, 0, 1]), keep=3)
    assert rows[3].tolist() == sorted(rows[3].tolist(), key=lambda r: -float(vectors[3] @ vectors[r]))
    assert set(rows[3].tolist()) == {0, 1, 2}
    assert rows[0].tolist() == [3, -1, -1] and scores[0, 1:].tolist() == [0.0, 0.0]


def _section(seed: int, first: int) -> tuple[list[Units], list[Rewrite]]:
    """24 bids of about 330 sentences (8,000 in all); bid 1 holds four drafts, bid 4 their rewrites."""
    rng = random.Random(seed)
    drafts = list(REWRITES[first : first + 4])
    units = [_long_bid(rng, [], 10) for _ in range(24)]
    units[1] = _long_bid(rng, [r.original for r in drafts], 20)
    units[4] = _long_bid(rng, [r.rewrite for r in drafts], 33)
    return units, drafts


def _planted_kept(
    units: list[Units], drafts: list[Rewrite], picked: list[npt.NDArray[np.int64]]
) -> list[int]:
    """How many of the drafts' and of the rewrites' sentences the shortlist picked."""
    kept = []
    for bid, text in ((1, "".join(r.original for r in drafts)), (4, "".join(r.rewrite for r in drafts))):
        chosen = set(picked[bid].tolist())
        kept.append(sum(n in chosen for n, t in enumerate(units[bid].texts) if t in text))
    return kept


@pytest.mark.parametrize("seed", [3, 7])
def test_the_shortlist_without_every_pair_compared_picks_the_rewrites_that_comparing_every_pair_picks(
    seed: int,
) -> None:
    """The shortlist of a section of more than ``EXACT_PAIRS`` pairs of sentences (forced here), where
    the closest sentences are those found by groups: the pairs of bids of its best runs are compared in
    full again, so it keeps the drafts' and rewrites' sentences that comparing every pair keeps (in
    these sections the groups alone found 9 and 11 of 16 draft sentences' runs)."""
    units, drafts = _section(seed, 4)
    exact = shortlist(units, {}, budget=300)
    near = shortlist(units, {}, budget=300, exact_pairs=0)
    planted = sum(t in "".join(r.original for r in drafts) for t in units[1].texts)
    assert _planted_kept(units, drafts, near) == _planted_kept(units, drafts, exact)
    assert min(_planted_kept(units, drafts, near)) >= 0.9 * planted
    assert sum(len(p) for p in near) <= 300


@pytest.mark.parametrize("exact_pairs", [0, 1e12])
def test_the_shortlist_in_threads_picks_what_it_picks_in_one(exact_pairs: float) -> None:
    """Every pair of bids compared, or the close sentences found by groups and the best runs' pairs
    compared: in two threads the same picks (each pair's table written in the pairs' order)."""
    units, _ = _section(5, 8)
    one = shortlist(units, {}, budget=300, exact_pairs=exact_pairs)
    two = shortlist(units, {}, budget=300, exact_pairs=exact_pairs, threads=2)
    assert [p.tolist() for p in two] == [p.tolist() for p in one]
    assert sum(len(p) for p in one) > 200


def _random_tables(
    rng: np.random.Generator, sizes: list[int]
) -> dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]:
    """For each ordered pair of bids, each unit's closest unit in the other (a few at cosine 0: none),
    random, then from a random unit on nearly in order."""
    closest = {}
    for x, nx in enumerate(sizes):
        for y, ny in enumerate(sizes):
            if x != y:
                best = rng.integers(0, ny, nx)
                run = int(rng.integers(0, nx))  # a run from there: units in order, a few swapped or apart
                best[run:] = np.minimum(np.arange(nx - run) + rng.integers(-1, 2, nx - run) + nx // 3, ny - 1)
                score = np.where(rng.random(nx) < 0.2, 0.0, rng.random(nx)).astype(np.float32)
                closest[(x, y)] = (best.astype(np.int64), score)
    return closest


def _linked_one_by_one(
    closest: Closest, usual: list[np.ndarray], units: list[Units], copied: list[RawPassage], x: int, y: int
) -> list[tuple[int, int, float, float]]:
    """The pair's matches that count, linked to another within two units on both sides, match by match."""
    found = [(a, int(closest[(x, y)][0][a]), closest[(x, y)][1][a]) for a in range(len(units[x].spans))]
    found += [(int(closest[(y, x)][0][b]), b, closest[(y, x)][1][b]) for b in range(len(units[y].spans))]

    def copied_at(side: int, unit: int) -> bool:
        lo, hi = (units[x] if side == 0 else units[y]).spans[unit]
        return any(p.a[0] < hi and lo < p.a[1] if side == 0 else p.b[0] < hi and lo < p.b[1] for p in copied)

    counted = [(a, b, s) for a, b, s in found if s > 0 and not copied_at(0, a) and not copied_at(1, b)]
    points = {(a, b) for a, b, _ in counted}
    moves = [(da, db) for da in (-2, -1, 1, 2) for db in (-2, -1, 1, 2)]
    return sorted(
        {
            (a, b, float(s), float(s / ((usual[x][a] + usual[y][b]) / 2)))
            for a, b, s in counted
            if any((a + da, b + db) in points for da, db in moves)
        }
    )


def test_a_match_counts_where_another_counted_match_lies_within_two_units_on_both_sides() -> None:
    """Random tables of bids of 1 to 60 units, some pairs with copied passages: the matches kept for
    every pair at once are those looked up match by match (in order in A, either way in B)."""
    rng, linked = np.random.default_rng(11), 0
    for sizes in ([1, 5, 40], [60, 2, 33, 17], [3, 3]):
        closest = _random_tables(rng, sizes)
        units = [
            Units(tuple((10 * n, 10 * n + 8) for n in range(size)), ("",) * size, ("",) * size)
            for size in sizes
        ]
        usual = [(0.2 + rng.random(size)).astype(np.float32) for size in sizes]
        pairs = [(x, y) for x in range(len(sizes)) for y in range(x + 1, len(sizes))]
        copied = {pairs[0]: [RawPassage((0, 45), (100, 140), 40, ())]}
        found = linked_matches(closest, usual, units, copied, pairs[::-1], 2)
        for x, y in pairs:
            expected = _linked_one_by_one(closest, usual, units, copied.get((x, y), []), x, y)
            assert found.get((x, y), []) == expected, (sizes, x, y)
        linked += sum(map(len, found.values()))
    assert linked > 20  # the planted runs' matches


@pytest.mark.parametrize("height", [5, 15, 16, 31, 100, 1000, 3001])
def test_each_columns_highest_rows_are_found_by_blocks_closest_first_ties_at_the_lower(height: int) -> None:
    """Values of few levels (many ties, as copies of one sentence give), columns of other owners' only
    (-inf), and heights that are and are not whole blocks: the rows ``_first_rows`` picks are each
    column's first by value, then by row, in that order, with their values."""
    rng = np.random.default_rng(height)
    cosines = np.round(rng.random((height, 64)), 1).astype(np.float32)
    cosines[rng.random((height, 64)) < 0.3] = -np.inf
    cosines[:, 5] = -np.inf
    cosines[:, 6] = 0.5
    for count in sorted({1, min(4, height), min(16, height)}):
        top, found = _first_rows(cosines, count)
        expected = np.lexsort((np.arange(height)[:, None].repeat(64, 1), -cosines), axis=0)[:count].T
        assert np.array_equal(top, expected), count
        assert np.array_equal(found, np.take_along_axis(cosines, expected.T, axis=0).T), count


def _both_ways_one_by_one(rows: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's list with the rows that found it and it did not find added, closest first (ties: the
    lower row), cut to its length: row by row."""
    count, keep = rows.shape
    lists: list[dict[int, float]] = [{} for _ in range(count)]
    for n in range(count):
        lists[n].update((int(o), float(s)) for o, s in zip(rows[n], scores[n], strict=True) if o >= 0)
    for n in range(count):
        for o, s in zip(rows[n], scores[n], strict=True):
            if o >= 0:
                lists[int(o)].setdefault(n, float(s))
    both, near = np.full((count, keep), -1), np.zeros((count, keep), dtype=np.float32)
    for n, found in enumerate(lists):
        for place, (o, s) in enumerate(sorted(found.items(), key=lambda e: (-e[1], e[0]))[:keep]):
            both[n, place], near[n, place] = o, s
    return both, near


def test_the_rows_that_found_a_row_join_its_list_at_their_place_ties_at_the_lower_row() -> None:
    """Tables of few score levels (many ties), full lists and short ones: the lists merged both ways
    are those built row by row."""
    rng = np.random.default_rng(17)
    for _ in range(60):
        count, keep = int(rng.integers(2, 120)), int(rng.integers(1, 6))
        rows, scores = np.full((count, keep), -1), np.zeros((count, keep), dtype=np.float32)
        for n in range(count):
            found = rng.choice(np.delete(np.arange(count), n), int(rng.integers(0, min(keep, count - 1) + 1)))
            found = np.unique(found)
            level = rng.integers(0, 4, len(found)).astype(np.float32) / 4
            order = np.lexsort((found, -level))
            rows[n, : len(found)], scores[n, : len(found)] = found[order], level[order]
        both, near = _both_ways(rows, scores)
        expected = _both_ways_one_by_one(rows, scores)
        assert np.array_equal(both, expected[0]) and np.array_equal(near, expected[1])
