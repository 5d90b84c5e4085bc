"""Seeds chained: the fast walk gives the chains of the plain greedy rule, seed for seed."""

from __future__ import annotations

import random
from dataclasses import asdict

import numpy as np
import pytest

from bidcheck.compare.seeds import Chain, chain_seeds
from bidcheck.config import Settings


def _plain_rule(seeds: list[tuple[int, int]], k: int, gap: int, jump: int) -> list[Chain]:
    """The rule as stated: every seed looks over every chain still open (its A end within ``gap``),
    joins the one whose last B is nearest within ``jump`` (the first on a tie), or begins one."""
    chains: list[Chain] = []
    open_chains: list[Chain] = []
    for pa, pb in seeds:
        open_chains = [c for c in open_chains if pa <= c.a_hi + gap]
        near = [c for c in open_chains if abs(pb - c.last_b) <= jump]
        if near:
            chain = min(near, key=lambda c: abs(pb - c.last_b))
            chain.a_hi = max(chain.a_hi, pa + k)
            chain.b_lo, chain.b_hi = min(chain.b_lo, pb), max(chain.b_hi, pb + k)
        else:
            chain = Chain(pa, pa + k, pb, pb + k, pb)
            chains.append(chain)
            open_chains.append(chain)
        chain.last_b = pb
        chain.seeds.append((pa, pb))
    return chains


def _seeds(rng: random.Random) -> list[tuple[int, int]]:
    """Seeds as two bids give them, sorted by A: copied stretches on a diagonal (some reordered or moved),
    k-grams found up to four times in B, and scattered chance ones."""
    seeds: set[tuple[int, int]] = set()
    for _ in range(rng.randint(1, 12)):
        a, b = rng.randrange(5000), rng.randrange(5000)
        for step in range(rng.randint(1, 300)):
            if rng.random() < 0.9:
                seeds.add((a + step, b + step + rng.choice((0, 0, 0, 1, -1))))
    for _ in range(rng.randint(0, 400)):
        a = rng.randrange(5500)
        for _ in range(rng.randint(1, 4)):
            seeds.add((a, rng.randrange(5500)))
    return sorted(seeds, key=lambda s: (s[0], rng.random()))  # B's order within one A is find_seeds'


@pytest.mark.parametrize("seed", range(40))
def test_the_chains_are_those_of_the_plain_rule(seed: int) -> None:
    rng = random.Random(seed)
    settings = Settings(max_gap_chars=rng.choice((0, 5, 30, 120)), max_jump_chars=rng.choice((0, 3, 80, 400)))
    seeds = _seeds(rng)
    fast = chain_seeds(np.asarray(seeds, dtype=np.int64).reshape(-1, 2), settings)
    plain = _plain_rule(seeds, settings.seed_chars, settings.max_gap_chars, settings.max_jump_chars)
    assert [asdict(c) for c in fast] == [asdict(c) for c in plain]
    assert sum(len(c.seeds) for c in fast) == len(seeds)
