"""Verification alone: every candidate pair of a section aligned again in one process, timed.

The section is `bench.corpus`'s (its bids written from one grammar of site-management phrases, as bids of
one trade are, with planted copies): verification is its largest stage, most of its chains a stock phrase
matched at one of its places in the other bid. The check runs once, with an empty cache, to capture what
verification is given (``compare_pairs`` is only wrapped to keep its arguments); then ``align_pair`` runs
on every pair ``--repeat`` times, on one core. Prints the seconds (least and median), how many chains
were aligned sentence by sentence and how many gave a passage, and a digest of every pair's passages:
two versions of the code that give the same digest found the same passages, span for span.

Usage: .venv/bin/python -m bench.verify [--bids 10] [--seed 7] [--repeat 5] [--folder DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import bidcheck.compare as compare_package
from bench.corpus import generate_section
from bidcheck.compare import AlignInput, RawPassage
from bidcheck.compare import align as align_module
from bidcheck.compare.runner import PairFound
from bidcheck.compare.seeds import Chain
from bidcheck.config import Settings
from bidcheck.memo import CACHE_ENV
from bidcheck.pipeline import CheckInputs, check
from bidcheck.progress import CancelFlag, ProgressFn, no_progress

Pairs = dict[tuple[int, int], list[tuple[int, int]]]
Given = tuple[Sequence[AlignInput], Pairs, Settings]


def _section(folder: Path, bids: int, seed: int) -> Path:
    """The corpus section of ``bids`` bids and ``seed`` under ``folder`` (written when missing)."""
    section = folder / f"corpus-{bids}-{seed}"
    if not (section / "bids").is_dir():
        generate_section(section, bids, seed)
    return section


def verification_inputs(section: Path) -> Given:
    """What a cold check of the section gives verification: the bids' inputs, the candidate window
    pairs, the settings (one worker)."""
    given: list[Given] = []
    compare_pairs = compare_package.compare_pairs  # the check imports it from the package when it verifies

    def kept(
        inputs: Sequence[AlignInput],
        candidates: Pairs,
        settings: Settings,
        progress: ProgressFn = no_progress,
        cancel: CancelFlag | None = None,
        beside: Callable[[], None] = lambda: None,
    ) -> dict[tuple[int, int], PairFound]:
        given.append((inputs, candidates, settings))
        return compare_pairs(inputs, candidates, settings, progress, cancel, beside)

    tenders = sorted((section / "tender").iterdir())
    settings = Settings.from_dict({**Settings().to_dict(), "workers": 1})
    before = os.environ.get(CACHE_ENV)
    with tempfile.TemporaryDirectory() as cache:
        os.environ[CACHE_ENV] = cache  # an empty cache: every pair is aligned, none read back
        compare_package.compare_pairs = kept
        try:
            check(CheckInputs(sorted((section / "bids").iterdir()), tenders), settings)
        finally:
            compare_package.compare_pairs = compare_pairs
            os.environ.pop(CACHE_ENV)
            if before is not None:
                os.environ[CACHE_ENV] = before
    if not given:
        raise RuntimeError("the check verified nothing: no pair had candidates")
    return given[0]


def aligned_all(given: Given) -> list[list[RawPassage]]:
    """Every pair's passages, in the pairs' order."""
    inputs, candidates, settings = given
    pairs = sorted(candidates.items())
    return [align_module.align_pair(inputs[i], inputs[j], windows, settings) for (i, j), windows in pairs]


def chains_aligned(given: Given) -> tuple[int, int]:
    """How many chains were aligned sentence by sentence, and how many gave a passage (counted in a
    pass of their own, not timed)."""
    counts = [0, 0]
    chain_passages = align_module._chain_passages

    def counted(
        chain: Chain, a: AlignInput, b: AlignInput, settings: Settings
    ) -> list[tuple[RawPassage, RawPassage | None]]:
        found = chain_passages(chain, a, b, settings)
        counts[0] += 1
        counts[1] += bool(found)
        return found

    align_module._chain_passages = counted
    try:
        aligned_all(given)
    finally:
        align_module._chain_passages = chain_passages
    return counts[0], counts[1]


def digest(found: list[list[RawPassage]]) -> str:
    """A digest of every pair's passages: their spans on both sides and their aligned marks."""
    hashed = hashlib.blake2b(digest_size=8)
    for passages in found:
        for p in passages:
            hashed.update(repr((p.a, p.b, p.matched, p.marks)).encode())
        hashed.update(b"|")
    return hashed.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bids", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "bidcheck-verify")
    args = parser.parse_args()
    given = verification_inputs(_section(args.folder, args.bids, args.seed))
    seconds, found = [], []
    for _ in range(args.repeat):
        started = time.perf_counter()
        found = aligned_all(given)
        seconds.append(time.perf_counter() - started)
    chains, with_passage = chains_aligned(given)
    print(f"$ python -m bench.verify {' '.join(sys.argv[1:])}".rstrip())
    pairs = len(given[1])
    print(f"section: bench.corpus --bids {args.bids} --seed {args.seed}, {pairs} pairs with candidates")
    print(f"aligned in one process: least {min(seconds):.3f} s, median {statistics.median(seconds):.3f} s")
    print(f"chains aligned sentence by sentence: {chains:,}, of which gave a passage: {with_passage:,}")
    print(f"passages: {sum(len(f) for f in found)}, digest {digest(found)}")


if __name__ == "__main__":
    main()
