"""Which sentences of a large section are worth encoding: a cheap pre-filter by characters.

Encoding is most of the layer's cost (about 1,300 sentences a CPU second), and a 12-bid section of
real-length bids holds about 17,000 sentences of its own. A rewriter changes the words but keeps most
of the content characters (沟槽, 管线, 垫层, the figures), so a rewritten sentence's closest sentence in
the other bid by idf-weighted characters is nearly always its draft (16 and 18 of the 20 draft sentences
in a 12-bid real-length and a 20-bid section of ``bench.semantic``), and consecutive sentences whose
closest sentences in one other bid follow in order are runs (the run alignment of ``runs``, on
characters). Chance makes many such runs of two, and bids written from one stock of sentence frames
long runs of close sentences everywhere; so runs are ranked as ``neighbours`` ranks sentence vectors,
by *margin*: each cosine over the two sentences' usual closeness to the other bids. The planted rewrites
ranked 1st, 2nd, 15th and 471st of 1,263 runs in the 12-bid section, 1st–3rd and 27th of 2,288 in the
20-bid one. The runs, best first, are encoded with the sentences either side of them (the run found by
meaning may be longer) and each run sentence's closest sentences in the other bids (the company its
margin is measured in), until a budget of sentences is reached.

Closeness is the cosine of idf-weighted character counts hashed into 256 dimensions. Up to
``EXACT_PAIRS`` pairs of sentences of two bids (about 14 real-length bids) each pair of bids is one
matrix product (numpy: 0.8 CPU seconds for the 66 pairs of 17,000 sentences); the cost grows with the
square of the sentences, and 100 real-length bids took 33.6 s. Above it each sentence's closest in the
other bids are those ``nearest`` finds by groups of sentences, in time about linear, and a sentence's
closest in a bid none of whose are among them is no match; the pairs of bids of the best runs so found
are then compared in full (that section on 2 cores: 3.7 s to find the close sentences, 1.3 s to compare
those pairs, the whole shortlist 6.3-6.9 s;
what it picks finds the rewrites that comparing every pair finds, ``bench.semantic --long``). An ANN
index did not pay: usearch (HNSW) took 15.7 CPU seconds to index 17,000 sentences and find each one's
32 nearest, and found the exact closest sentence of another bid in 89% of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import code_points
from bidcheck.compare.passage import RawPassage
from bidcheck.progress import CancelFlag, ProgressFn, check_cancel, no_progress
from bidcheck.semantic.matches import Closest, linked_matches
from bidcheck.semantic.nearest import in_threads, nearest_others
from bidcheck.semantic.neighbours import Match
from bidcheck.semantic.runs import RunRules, aligned_runs
from bidcheck.semantic.units import Units

__all__ = ["EXACT_PAIRS", "char_vectors", "column_best", "shortlist"]

Vectors = npt.NDArray[np.float32]
Pair = tuple[int, int]
Run = tuple[int, int, list[Match]]  # a pair of bids and its matched units in order
_DIMS = 256
_RULES = RunRules(min_units=2, min_mean=0.0)  # looser than the layer's runs: a filter must not miss
_CONTEXT = 2  # sentences either side of a run that are encoded too
_NEIGHBOURS = 4  # closest sentences in other bids encoded for each run sentence (its margin's company)
_CODES = 0x110000  # code points
_ROWS = 4096  # texts whose character vectors are summed at once
_BLOCK_ROWS = 256  # rows of a pair's scores looked down at once for each column's best
EXACT_PAIRS = 2e8  # pairs of units of two bids up to which every pair of bids is compared (0.5 s)
_NEAR = 16  # closest sentences in other bids each sentence keeps where they are not (``nearest``)
_COMPARED = 2  # pairs of bids a bid compared in full there (those of the best runs)


def char_vectors(texts: Sequence[str], dims: int = _DIMS) -> Vectors:
    """Each text's characters weighted by idf (over ``texts``), hashed into ``dims`` signed buckets
    (a fixed multiplicative hash of the code point, not Python's salted one), rows of unit length.
    Built ``_ROWS`` texts at a time: the sums of a whole section at once (float64) were 2.5 times the
    vectors it returns, held beside them (a 30-bid section: 200 MB more at the semantic stage's peak)."""
    lengths = np.fromiter((len(t) for t in texts), dtype=np.int64, count=len(texts))
    codes = code_points("".join(texts)).astype(np.int64)
    rows = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
    dense, df = _texts_holding(codes, rows)
    weight = np.log(len(texts) / df)[dense]
    bucket = ((codes * 0x9E3779B1) & 0xFFFFFFFF) * dims >> 32  # the hash's high bits: its low ones are poor
    signed = np.where((codes * 0x85EBCA77) & 0x80000000, weight, -weight)
    del dense, df, weight
    vectors = np.empty((len(texts), dims), dtype=np.float32)
    for top, last, lo, hi in _text_blocks(lengths, _ROWS):
        flat = np.bincount(
            (rows[lo:hi] - top) * dims + bucket[lo:hi], weights=signed[lo:hi], minlength=(last - top) * dims
        )
        block = flat.reshape(last - top, dims).astype(np.float32)
        block /= np.maximum(np.linalg.norm(block, axis=1, keepdims=True), 1e-9)
        vectors[top:last] = block
    return vectors


def _text_blocks(lengths: npt.NDArray[np.int64], step: int) -> Iterator[tuple[int, int, int, int]]:
    """The texts ``step`` at a time: the first text and the one after the last, and where their
    characters begin and end in the texts joined."""
    ends = np.cumsum(lengths)
    for top in range(0, len(lengths), step):
        last = min(top + step, len(lengths))
        yield top, last, int(ends[top - 1]) if top else 0, int(ends[last - 1]) if last else 0


def _texts_holding(
    codes: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each character's number among the distinct characters (in code point order), and for each of
    those the texts that hold it. The characters are put in order of that number, each text's in text
    order (a stable sort of numbers under 65,536 is a radix sort: 0.04 s for the 3.7 million characters
    of 100 bids), and a text is counted where it first holds the character: 0.13 s in all, where marking
    a table of texts by characters took 0.57 s and two sorts of the (text, character) pairs 0.6 s a
    30-bid section."""
    seen = np.zeros(_CODES, dtype=bool)
    seen[codes] = True
    dense = (np.cumsum(seen, dtype=np.int64) - 1)[codes]
    distinct = int(seen.sum())
    order = np.argsort(dense.astype(np.uint16) if distinct <= 1 << 16 else dense, kind="stable")
    number, text = dense[order], rows[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = (number[1:] != number[:-1]) | (text[1:] != text[:-1])
    return dense, np.bincount(number[first], minlength=distinct)


def _sizes(starts: Sequence[int]) -> npt.NDArray[np.int64]:
    """Each bid's units, from where each bid's units begin (and the end)."""
    bounds = np.asarray(starts, dtype=np.int64)
    return bounds[1:] - bounds[:-1]


def _unit_pairs(starts: Sequence[int]) -> float:
    """The pairs of units of two bids, over every pair of bids."""
    sizes = _sizes(starts)
    return (int(sizes.sum()) ** 2 - int((sizes * sizes).sum())) / 2


def _closest_exact(
    vectors: Vectors, starts: Sequence[int], progress: ProgressFn, cancel: CancelFlag | None, threads: int
) -> Closest:
    """Every pair of bids compared: each unit of x's closest unit of y, for every ordered pair."""
    closest: Closest = {}
    bids = len(starts) - 1
    pairs = [(x, y) for x in range(bids) for y in range(x + 1, bids)]
    _compare_pairs(vectors, starts, pairs, closest, (threads, progress, cancel))
    return closest


def _compare_pairs(
    vectors: Vectors,
    starts: Sequence[int],
    pairs: Sequence[Pair],
    closest: Closest,
    how: tuple[int, ProgressFn, CancelFlag | None],
) -> None:
    """Into ``closest``: the pairs of bids compared (``_compared``) in ``how``'s threads, one BLAS thread
    each (each pair's products are those BLAS's own threads give), told on its progress, and
    cancelled. The entries go in in the pairs' order, whichever thread is done first."""
    threads, progress, cancel = how

    def compare(pair: Pair) -> Closest:
        check_cancel(cancel)
        return _compared(vectors, starts, pair)

    for done, entries in enumerate(in_threads(compare, pairs, threads)):
        closest.update(entries)
        if done % 64 == 0:
            progress(done / len(pairs), "语义比对：挑选候选句")


def _compared(vectors: Vectors, starts: Sequence[int], pair: Pair) -> Closest:
    """The pair of bids compared: each unit's closest unit of the other, both ways (none where a bid
    has no units)."""
    x, y = pair
    scores = vectors[starts[x] : starts[x + 1]] @ vectors[starts[y] : starts[y + 1]].T
    if scores.size == 0:
        return {}
    across = scores.argmax(axis=1)
    return {(x, y): (across, scores[np.arange(len(across)), across]), (y, x): column_best(scores)}


def _closest_near(
    vectors: Vectors, starts: Sequence[int], progress: ProgressFn, cancel: CancelFlag | None, threads: int
) -> Closest:
    """``_closest_exact``'s table from each unit's ``_NEAR`` closest units in other bids that
    ``nearest_others`` finds (in ``threads`` threads): a unit of x none of whose are in y has y's unit 0
    at a cosine of 0, which no match keeps."""
    sizes = _sizes(starts)
    owner = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
    rows, scores = nearest_others(vectors, owner, _NEAR, progress, cancel, threads)
    return _closest_found(rows, scores, owner, starts)


def _closest_found(
    rows: npt.NDArray[np.int64], scores: Vectors, owner: npt.NDArray[np.int64], starts: Sequence[int]
) -> Closest:
    """``_closest_exact``'s table from each unit's closest units in other bids (``nearest_others``): the
    closest of them in each bid, the rest of the table unit 0 at a cosine of 0."""
    bids = len(starts) - 1
    unit = np.repeat(np.arange(len(rows), dtype=np.int64), rows.shape[1])
    other = rows.ravel()
    found = other >= 0
    unit, other, score = unit[found], other[found], scores.ravel()[found]
    # the entries come closest first for each unit: the first of each (unit, bid) is its closest there
    _, first = np.unique(unit * bids + owner[other], return_index=True)
    unit, other, score = unit[first], other[first], score[first]
    pair = owner[unit] * bids + owner[other]
    by_pair = np.argsort(pair, kind="stable")
    bounds = np.searchsorted(pair[by_pair], np.arange(bids * bids + 1))
    closest: Closest = {}
    for x in range(bids):
        for y in range(bids):
            if x == y or starts[x] == starts[x + 1] or starts[y] == starts[y + 1]:
                continue
            picks = by_pair[bounds[x * bids + y] : bounds[x * bids + y + 1]]
            best = np.zeros(starts[x + 1] - starts[x], dtype=np.int64)
            cosine = np.zeros(starts[x + 1] - starts[x], dtype=np.float32)
            best[unit[picks] - starts[x]] = other[picks] - starts[y]
            cosine[unit[picks] - starts[x]] = score[picks]
            closest[(x, y)] = (best, cosine)
    return closest


def column_best(scores: Vectors) -> tuple[npt.NDArray[np.int64], Vectors]:
    """Each column's highest score and its row (the first such row), as ``argmax(axis=0)`` gives it,
    taken ``_BLOCK_ROWS`` rows at a time: numpy's argmax down a row-major matrix copies it transposed
    first (1.4 ms of the 5.3 a pair of 1,400-sentence bids took; blocks that stay in the cache: 0.6)."""
    best = scores[0].copy()
    rows = np.zeros(scores.shape[1], dtype=np.int64)
    for top in range(0, scores.shape[0], _BLOCK_ROWS):
        block = scores[top : top + _BLOCK_ROWS]
        highest = block.max(axis=0)
        higher = highest > best  # strictly: an earlier row keeps a tie, as argmax does
        if top == 0:
            higher[:] = True
        if higher.any():
            rows[higher] = block[:, higher].argmax(axis=0) + top
            best[higher] = highest[higher]
    return rows, best


def _usual(closest: Closest, units: Sequence[Units]) -> list[Vectors]:
    """Each unit's usual closeness to the other bids: the mean cosine of its ``_NEIGHBOURS`` closest
    units among them (high for a stock sentence, which every bid has a close cousin of)."""
    usual = []
    for x, unit in enumerate(units):
        scores = [score for (a, _), (_, score) in sorted(closest.items()) if a == x]
        if not scores or not unit.spans:
            usual.append(np.zeros(len(unit.spans), dtype=np.float32))
            continue
        table = np.sort(np.stack(scores, axis=1), axis=1)[:, -_NEIGHBOURS:]
        usual.append(np.maximum(table.mean(axis=1), 1e-3).astype(np.float32))
    return usual


def shortlist(
    units: Sequence[Units],
    copied: Mapping[Pair, Sequence[RawPassage]],
    budget: int,
    progress: ProgressFn = no_progress,
    cancel: CancelFlag | None = None,
    exact_pairs: float = EXACT_PAIRS,
    threads: int = 1,
) -> list[npt.NDArray[np.int64]]:
    """For each bid, the indexes of its units worth encoding (sorted), ``budget`` in all at most (or the
    best run's alone, if they are more): those of runs of units whose closest units by characters in one
    other bid follow in order (those that stand out most first), the units either side of each run, and
    each run unit's closest units in the other bids. Above ``exact_pairs`` pairs of units of two bids,
    the closest units are those ``nearest`` finds without comparing every pair of bids, in ``threads``
    threads."""
    starts = np.cumsum([0, *(len(u.spans) for u in units)]).tolist()
    vectors = char_vectors([t for u in units for t in u.norms])
    closest, runs = _ranked_runs(vectors, starts, units, copied, (exact_pairs, threads), progress, cancel)
    chosen: set[tuple[int, int]] = set()  # (bid, unit)
    for x, y, run in runs:
        wanted = set()
        for bid, run_units in ((x, [m[0] for m in run]), (y, [m[1] for m in run])):
            wanted |= _with_context(bid, run_units, len(units[bid].spans))
            wanted |= _neighbours(closest, bid, run_units)
        if chosen and len(chosen | wanted) > budget:
            break
        chosen |= wanted
    return [np.asarray(sorted(u for b, u in chosen if b == bid), dtype=np.int64) for bid in range(len(units))]


def _pair_runs(
    closest: Closest,
    usual: list[Vectors],
    units: Sequence[Units],
    copied: Mapping[Pair, Sequence[RawPassage]],
    pairs: Iterable[Pair],
) -> list[Run]:
    """The given pairs' runs by characters, pair by pair in the order given."""
    pairs = list(pairs)
    matches = linked_matches(closest, usual, units, copied, pairs, _RULES.step)
    runs = []
    for x, y in pairs:
        found = aligned_runs(matches.get((x, y), []), units[x].spans, units[y].spans, _RULES)
        runs += [(x, y, run) for run in found]
    return runs


def _standing_out(runs: list[Run]) -> list[Run]:
    """The runs, those that stand out most first (by mean margin: bids written from one stock of
    sentence frames have long runs of close sentences everywhere)."""
    return sorted(runs, key=lambda r: -sum(m[3] for m in r[2]) / len(r[2]))


def _ranked_runs(
    vectors: Vectors,
    starts: Sequence[int],
    units: Sequence[Units],
    copied: Mapping[Pair, Sequence[RawPassage]],
    search: tuple[float, int],
    progress: ProgressFn,
    cancel: CancelFlag | None,
) -> tuple[Closest, list[Run]]:
    """The closest units' table and every pair's runs in it, those that stand out most first. Above
    ``search``'s pairs of units (and in its threads) the table is ``_closest_near``'s; the pairs of
    bids its best runs are in (``_COMPARED`` a bid) are then compared in full and their runs found
    again: a unit's closest in a bid may be missing from the units found near it, and a rewrite has its
    draft's sentences closest."""
    exact = _unit_pairs(starts) <= search[0]
    closest = (_closest_exact if exact else _closest_near)(vectors, starts, progress, cancel, search[1])
    usual = _usual(closest, units)
    runs = _standing_out(_pair_runs(closest, usual, units, copied, _pairs(closest)))
    if exact:
        return closest, runs
    compared = list(dict.fromkeys((x, y) for x, y, _ in runs))[: _COMPARED * len(units)]
    _compare_pairs(vectors, starts, compared, closest, (search[1], no_progress, cancel))
    again = _pair_runs(closest, usual, units, copied, compared)
    done = set(compared)
    return closest, _standing_out([r for r in runs if (r[0], r[1]) not in done] + again)


def _pairs(closest: Closest) -> list[Pair]:
    """The pairs of bids in the table, each once (the lower bid first), in order."""
    return sorted(p for p in closest if p[0] < p[1])


def _with_context(bid: int, run: list[int], count: int) -> set[tuple[int, int]]:
    """The run's units and ``_CONTEXT`` units either side."""
    return {(bid, u) for u in range(max(0, min(run) - _CONTEXT), min(count, max(run) + _CONTEXT + 1))}


def _neighbours(closest: Closest, bid: int, run: list[int]) -> set[tuple[int, int]]:
    """Each run unit's ``_NEIGHBOURS`` closest units in the other bids."""
    others = [(y, best, score) for (x, y), (best, score) in closest.items() if x == bid]
    return {
        (y, int(best[u]))
        for u in run
        for y, best, _ in sorted(others, key=lambda o: -float(o[2][u]))[:_NEIGHBOURS]
    }
