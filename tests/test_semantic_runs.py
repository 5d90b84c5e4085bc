"""The run alignment of the semantic layer gives the runs of a straightforward chaining, at a cost that
grows with the matches (a hostile document gives a unit of another bid a hundred matches)."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bench.rewrites import REWRITES
from bidcheck.ingest.registry import read_document
from bidcheck.semantic.encoder import load_encoder
from bidcheck.semantic.neighbours import Match, neighbour_matches
from bidcheck.semantic.runs import RunRules, _follows, aligned_runs
from bidcheck.semantic.units import Units, bid_units
from bidcheck.text import build_clean_text
from tests.builders import make_docx, paragraphs

Span = tuple[int, int]


# ------------------------------------------------------------------ the reference: every run again


def _reference_chain(
    matches: list[Match], a: Sequence[Span], b: Sequence[Span], rules: RunRules
) -> list[int]:
    """The best chain of the sorted matches, worked out from scratch: each match looks back at every
    match within ``step`` units of A, latest first (which match may follow which is the layer's rule)."""
    total = [m[3] for m in matches]
    back = [-1] * len(matches)
    for n, m in enumerate(matches):
        for p in range(n - 1, -1, -1):
            if m[0] - matches[p][0] > rules.step:
                break
            if _follows(matches[p], m, a, b, rules) and total[p] + m[3] > total[n]:
                total[n], back[n] = total[p] + m[3], p
    n = max(range(len(matches)), key=lambda x: total[x])
    chain = []
    while n >= 0:
        chain.append(n)
        n = back[n]
    return chain[::-1]


def _reference_runs(
    matches: Sequence[Match], a: Sequence[Span], b: Sequence[Span], rules: RunRules
) -> list[list[Match]]:
    """Runs taken best first, the best chain worked out again over all the matches left each time."""
    left = sorted(matches)
    runs = []
    while left:
        best = [left[n] for n in _reference_chain(left, a, b, rules)]
        if len(best) < rules.min_units:
            break
        lo, hi = 0, len(best)
        while lo < hi and best[lo][3] < rules.min_mean:
            lo += 1
        while hi > lo and best[hi - 1][3] < rules.min_mean:
            hi -= 1
        chain = best[lo:hi]
        margin, cosine = (sum(m[n] for m in chain) / max(len(chain), 1) for n in (3, 2))
        if len(chain) >= rules.min_units and margin >= rules.min_mean and cosine >= rules.min_cosine:
            runs.append(chain)
        used_a, used_b = {m[0] for m in best}, {m[1] for m in best}
        left = [m for m in left if m[0] not in used_a and m[1] not in used_b]
    return runs


# ------------------------------------------------------------------ random match sets


def _spans(rng: random.Random, count: int) -> list[Span]:
    """Sentences of 12-80 characters with gaps of 0-200 (some too far apart for a run)."""
    spans, at = [], 0
    for _ in range(count):
        at += rng.choice((0, 2, 5, 30, 130, 200))
        length = rng.randint(12, 80)
        spans.append((at, at + length))
        at += length
    return spans


def _planted(rng: random.Random, units_a: int, units_b: int) -> list[Match]:
    """A run of 3-8 matches in order, some neighbours swapped, some skipped, some sentences merged or
    split (the same unit twice on one side)."""
    a, b = rng.randrange(units_a), rng.randrange(units_b)
    out = []
    for _ in range(rng.randint(3, 8)):
        out.append((a, b, _value(rng, 0.5, 0.9), _value(rng, 1.0, 1.5)))
        da, db = rng.choice(((1, 1), (1, 1), (1, 1), (2, 1), (1, 2), (1, -1), (1, 0), (0, 1)))
        a, b = a + da, b + db
        if a >= units_a or not 0 <= b < units_b:
            break
    return out


def _value(rng: random.Random, lo: float, hi: float) -> float:
    """A cosine or margin, often on a coarse grid (equal sums test which of two equal runs wins)."""
    return round(rng.uniform(lo, hi), rng.choice((1, 2, 6)))


def _random_case(rng: random.Random) -> tuple[list[Match], list[Span], list[Span], RunRules]:
    units_a, units_b = rng.randint(1, 60), rng.randint(1, 60)
    matches: list[Match] = []
    for _ in range(rng.randint(0, 6)):
        matches += _planted(rng, units_a, units_b)
    crowd = rng.choice((0, 5, 40, 200, 600))  # 600 among 60 x 60 cells: ten a unit, as a hostile file
    for _ in range(crowd):
        matches.append(
            (rng.randrange(units_a), rng.randrange(units_b), _value(rng, 0.2, 0.9), _value(rng, 0.8, 1.5))
        )
    matches += rng.sample(matches, min(len(matches), rng.choice((0, 0, 3))))  # the same match twice
    rules = RunRules(
        min_units=rng.choice((2, 3, 4)),
        min_mean=rng.choice((0.0, 1.0, 1.1, 1.2)),
        min_cosine=rng.choice((0.0, 0.55)),
        step=rng.choice((1, 2, 2, 3)),
        max_gap=rng.choice((60, 120, 400)),
    )
    rng.shuffle(matches)
    return matches, _spans(rng, units_a), _spans(rng, units_b), rules


def test_the_runs_are_those_of_a_straightforward_chaining_on_random_match_sets() -> None:
    rng = random.Random(20261201)
    found = 0
    for case in range(1500):
        matches, a, b, rules = _random_case(rng)
        expected = _reference_runs(matches, a, b, rules)
        assert aligned_runs(matches, a, b, rules) == expected, (case, rules)
        found += len(expected)
    assert found > 1500  # the cases hold runs, many of them several


def test_sentences_merged_or_split_by_the_rewriter_stay_in_one_run() -> None:
    """A's sentences 0-5 rewritten in B as 0-3: 0 and 1 made one (B 0), 2 as it was (B 1), 3 split in two
    (B 2 and 3), 4 and 5 made one again (B 4). One run of all seven matches (before, a run could not
    take a unit twice: it broke at each merge into pieces shorter than a run). A merged sentence's
    match that stands out less than a run must on average is left out (the run steps over it)."""
    a = [(n * 40, n * 40 + 35) for n in range(6)]
    b = [(0, 70), (75, 110), (115, 140), (142, 170), (175, 250)]
    cells = [(0, 0), (1, 0), (2, 1), (3, 2), (3, 3), (4, 4), (5, 4)]
    matches = [(x, y, 0.7, 1.3) for x, y in cells]
    rules = RunRules(min_units=3, min_mean=1.1, min_cosine=0.55)
    assert [[(m[0], m[1]) for m in run] for run in aligned_runs(matches, a, b, rules)] == [cells]
    weak = [(x, y, 0.7, 1.0 if (x, y) == (1, 0) else 1.3) for x, y in cells]
    assert [(m[0], m[1]) for m in aligned_runs(weak, a, b, rules)[0]] == [c for c in cells if c != (1, 0)]


def test_a_unit_matched_a_hundred_times_costs_little_more_than_one_match_each() -> None:
    """A pair where every unit of A has a hundred matches in B, as a bid against a document of 50,000
    one-line tables: the runs are the reference's, found in a fraction of its time."""
    rng = random.Random(7)
    a, b = [(n * 35, n * 35 + 30) for n in range(80)], [(n * 35, n * 35 + 30) for n in range(5000)]
    matches = [
        (x, rng.randrange(5000), _value(rng, 0.3, 0.9), _value(rng, 0.9, 1.3))
        for x in range(80)
        for _ in range(100)
    ]
    matches += [(x, 1000 + x, 0.8, 2.0) for x in range(30, 36)]  # stands out: the first run
    rules = RunRules(min_units=2, min_mean=0.0)
    started = time.process_time()
    runs = aligned_runs(matches, a, b, rules)
    ours = time.process_time() - started
    started = time.process_time()
    expected = _reference_runs(matches, a, b, rules)
    theirs = time.process_time() - started
    assert runs == expected
    assert {(x, 1000 + x) for x in range(30, 36)} <= {(m[0], m[1]) for m in runs[0]}
    assert ours < theirs / 5, (ours, theirs)


# ------------------------------------------------------------------ a real pair of bids


def _units(path: Path) -> Units:
    clean = build_clean_text(read_document(path, "d"))
    return bid_units(clean, np.zeros(len(clean.norm), dtype=bool), 12)


def test_the_runs_of_a_real_pair_of_bids_are_the_reference_runs(tmp_path: Path) -> None:
    """Two docx bids of 30 paragraphs of their own, the second holding two of the first's paragraphs
    reworded, and two more bids for the margins' company: every pair's sentence matches (all of them,
    whatever their margin) give the reference's runs, under the layer's rules and the shortlist's looser
    ones, and the rewrite is one of them."""
    drafts = REWRITES[:2]
    texts = [paragraphs(900 + n, 30) for n in range(4)]
    texts[0][12:12] = [r.original for r in drafts]
    texts[1][20:20] = [r.rewrite for r in drafts]
    units = [_units(make_docx(tmp_path / f"{n}.docx", [t[:16], t[16:]])) for n, t in enumerate(texts)]
    encoder = load_encoder("use")
    vectors = np.vstack([encoder.encode(u.texts) for u in units])
    owner = np.repeat(np.arange(len(units)), [len(u.texts) for u in units]).astype(np.int64)
    pairs = neighbour_matches(vectors, owner, 8, 0.0)
    rewrite: list[Match] = []
    for layer in (RunRules(3, 1.1, 0.55), RunRules(min_units=2, min_mean=0.0)):
        for (x, y), matches in sorted(pairs.items()):
            runs = aligned_runs(matches, units[x].spans, units[y].spans, layer)
            assert runs == _reference_runs(matches, units[x].spans, units[y].spans, layer), (x, y, layer)
            rewrite += [m for run in runs if (x, y) == (0, 1) and layer.min_units == 3 for m in run]
    drafted = {n for n, t in enumerate(units[0].texts) if t in "".join(r.original for r in drafts)}
    assert len({m[0] for m in rewrite} & drafted) >= 4, (rewrite, drafted)
