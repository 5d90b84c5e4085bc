"""Archive scale: whole-document groups over many SimHashes, and new documents against a vault.

1. ``--records N``: N 64-bit SimHashes, half of them random and half planted near copies (chains of 1-3
   flipped bits from a random one), grouped by ``bidcheck.library.groups.simhash_labels`` (four 16-bit
   bands, candidates verified by Hamming distance ≤ 3). Prints the seconds, the milliseconds a record,
   the process's peak memory, and checks the groups: against every pair's Hamming distance when N is at
   most ``--brute`` (20,000), and in any case that every planted chain is one group. ``--library M``
   also stores M records into a library section by section (each section's bids joined to the groups
   incrementally) and compares those groups with a regrouping from scratch.
2. ``--vault``: a folder of ``--vault-docs`` notes (random words, about 1,500 characters each, .txt and
   .md) indexed (seconds, then again from its cache), and ``--new`` new documents queried against it:
   near copies (a few words changed), borderline copies (more words changed), half copies and unrelated
   notes (``bidcheck.library.vault.vault_near``: the index's candidates, then the full 8-gram sets). The
   truth is the exact Jaccard index of the full 8-gram sets of each reported pair and of each new
   document with its source, computed here on its own; recall (of pairs truly ≥ ``--min``) and precision
   (of pairs reported) are printed with the seconds the queries took (reading the new files included).

Usage: .venv/bin/python -m bench.archive [--records 1000000] [--library 20000] [--vault] [--folder DIR]
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bidcheck.config import Settings
from bidcheck.fingerprint.kgrams import kgram_hashes
from bidcheck.library import open_library
from bidcheck.library.groups import brute_force_labels, simhash_labels
from bidcheck.library.near import comparable_text
from bidcheck.library.prints import BidPrint, K
from bidcheck.library.store import StoredBid
from bidcheck.library.vault import index_vault, vault_near

U64 = np.uint64
_EMPTY = BidPrint(np.zeros(0, np.int64), np.zeros(0, np.int32), np.zeros((0, 3), np.int32), 0)


def planted(records: int, seed: int) -> tuple[npt.NDArray[np.uint64], list[list[int]]]:
    """Random hashes and planted chains of near copies (each copy 1-3 bits from the one before); the
    chains, as lists of positions."""
    rng = np.random.default_rng(seed)
    hashes = rng.integers(0, 2**64 - 1, size=records, dtype=U64)
    chains: list[list[int]] = []
    n = records // 2
    while n < records:
        size = min(int(rng.integers(2, 9)), records - n)
        chain = [int(rng.integers(0, records // 2))]
        for _ in range(size):
            value = int(hashes[chain[-1]])
            for bit in rng.choice(64, size=int(rng.integers(1, 4)), replace=False).tolist():
                value ^= 1 << bit
            hashes[n] = value
            chain.append(n)
            n += 1
        chains.append(chain)
    return hashes, chains


def partition(labels: npt.NDArray[np.int64]) -> set[frozenset[int]]:
    out: dict[int, set[int]] = {}
    for n, label in enumerate(labels.tolist()):
        out.setdefault(label, set()).add(n)
    return {frozenset(g) for g in out.values() if len(g) > 1}


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def groups_bench(records: int, brute: int, seed: int) -> None:
    hashes, chains = planted(records, seed)
    before = peak_mb()
    started = time.perf_counter()
    labels = simhash_labels(hashes)
    seconds = time.perf_counter() - started
    groups = partition(labels)
    print(
        f"groups of {records:,} SimHashes: {seconds:.2f} s, {seconds / records * 1e3:.4f} ms a record, "
        f"{len(groups):,} groups of two or more; peak memory of the process {peak_mb():.0f} MB "
        f"({before:.0f} MB before grouping)"
    )
    whole = all(len({int(labels[i]) for i in chain}) == 1 for chain in chains)
    print(f"every planted chain one group: {whole} ({len(chains):,} chains)")
    if records <= brute:
        started = time.perf_counter()
        same = partition(brute_force_labels(hashes)) == groups
        spent = time.perf_counter() - started
        print(f"the same groups as every pair's Hamming distance: {same} ({spent:.1f} s)")


def library_bench(records: int, seed: int, folder: Path) -> None:
    hashes, _chains = planted(records, seed)
    order = np.random.default_rng(seed + 1).permutation(records)  # sections arrive in no order
    path = folder / "archive.sqlite"
    path.unlink(missing_ok=True)
    library = open_library(path)
    started = time.perf_counter()
    per_section = 10
    for s in range(0, records, per_section):
        bids = [
            StoredBid(f"{n}.txt", "", f"b{n}", "bid", 1, int(hashes[n]), {}, _EMPTY)
            for n in order[s : s + per_section]
        ]
        library.store_section(f"S{s // per_section}", bids)
    seconds = time.perf_counter() - started
    incremental = {frozenset(m) for _n, m in library.groups()}
    started = time.perf_counter()
    library.regroup()
    again = time.perf_counter() - started
    fresh = {frozenset(m) for _n, m in library.groups()}
    library.close()
    print(
        f"library of {records:,} bids stored 10 a section: {seconds:.1f} s "
        f"({seconds / records * 1e3:.2f} ms a bid, groups assigned as each section is stored); "
        f"regrouping all of them {again:.1f} s; "
        f"incremental groups equal to a regrouping: {incremental == fresh} ({len(fresh):,} groups)"
    )


# -- the vault ---------------------------------------------------------------------------------------------

_RNG = random.Random(7)
_WORDS = ["".join(_RNG.choices([chr(c) for c in range(0x4E00, 0x9FA5)], k=2)) for _ in range(3000)]


def note(rng: random.Random, chars: int = 1500) -> list[str]:
    """A note as a list of words (sentences end with 。)."""
    words: list[str] = []
    while sum(len(w) for w in words) < chars:
        words += [*rng.choices(_WORDS, k=rng.randint(6, 14)), "。"]
    return words


def changed(words: list[str], count: int, rng: random.Random) -> list[str]:
    out = list(words)
    for n in rng.sample(range(len(out)), count):
        out[n] = rng.choice(_WORDS)
    return out


def exact_score(a: str, b: str) -> float:
    """The near-duplicate score of two texts' full 8-gram sets: the share of the larger both hold."""
    x, y = set(kgram_hashes(a, K).tolist()), set(kgram_hashes(b, K).tolist())
    return len(x & y) / max(len(x), len(y), 1)


def write_vault(folder: Path, docs: int, new: int) -> dict[str, str]:
    """The vault and the new documents (in ``folder / "new"``): the vault name each new one came from."""
    rng = random.Random(11)
    vault = folder / "vault"
    notes = []
    for n in range(docs):
        words = note(rng)
        notes.append(words)
        path = vault / f"{n // 500:02d}" / f"note{n:05d}{'.md' if n % 2 else '.txt'}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(words), encoding="utf-8")
    sources = {}
    (folder / "new").mkdir(exist_ok=True)
    for n in range(new):
        source = rng.randrange(docs)
        kind = n % 4
        if kind == 0:  # a near copy: a few words changed
            words = changed(notes[source], rng.randint(0, 4), rng)
        elif kind == 1:  # a borderline copy: more words changed
            words = changed(notes[source], rng.randint(6, 14), rng)
        elif kind == 2:  # half of a note, the rest new
            words = notes[source][: len(notes[source]) // 2] + note(rng, 700)
        else:
            words = note(rng)
        name = f"new{n:03d}.txt"
        (folder / "new" / name).write_text("".join(words), encoding="utf-8")
        sources[name] = f"{source // 500:02d}/note{source:05d}{'.md' if source % 2 else '.txt'}"
    return sources


def vault_bench(folder: Path, docs: int, new: int, minimum: float) -> None:
    sources = write_vault(folder, docs, new)
    settings = Settings()
    started = time.perf_counter()
    index, figures = index_vault(folder / "vault", settings)
    built = time.perf_counter() - started
    started = time.perf_counter()
    index, again = index_vault(folder / "vault", settings)
    cached = time.perf_counter() - started
    print(
        f"vault of {figures.files:,} notes indexed in {built:.1f} s ({figures.read:,} read); "
        f"again from its cache in {cached:.2f} s ({again.read} read)"
    )
    started = time.perf_counter()
    answers = {}
    for path in sorted((folder / "new").iterdir()):
        norm, _error = comparable_text(path, settings)
        answers[path.name] = vault_near(index, folder / "vault", norm, minimum=minimum, settings=settings)
    seconds = time.perf_counter() - started
    vault, new_dir = folder / "vault", folder / "new"

    def truth(name: str, stored: str) -> float:
        return exact_score(
            comparable_text(new_dir / name, settings)[0], comparable_text(vault / stored, settings)[0]
        )

    wanted = {(name, src) for name, src in sources.items() if truth(name, src) >= minimum}
    reported = {(name, m.document) for name, found in answers.items() for m in found}
    right = {pair for pair in reported if truth(*pair) >= minimum}
    recall = len(wanted & reported) / max(len(wanted), 1)
    precision = len(right) / max(len(reported), 1)
    print(
        f"{new} new documents against the vault: {seconds:.2f} s (reading them included); at ≥ {minimum}: "
        f"{len(wanted)} true near copies, {len(reported)} reported, "
        f"recall {recall:.3f}, precision {precision:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--brute", type=int, default=20_000, help="check against every pair up to this many")
    parser.add_argument(
        "--library", type=int, default=0, metavar="M", help="also store M records in a library"
    )
    parser.add_argument("--vault", action="store_true", help="also the new-against-vault queries")
    parser.add_argument("--vault-docs", type=int, default=5000)
    parser.add_argument("--new", type=int, default=50)
    parser.add_argument("--min", type=float, default=0.9)
    parser.add_argument("--folder", type=Path, default=None)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("command: " + " ".join([Path(sys.executable).name, "-m", "bench.archive", *sys.argv[1:]]))
    if args.records:
        groups_bench(args.records, args.brute, args.seed)
        if args.records > args.brute:
            groups_bench(args.brute, args.brute, args.seed)
    folder = args.folder or Path(tempfile.mkdtemp(prefix="bidcheck-archive-"))
    folder.mkdir(parents=True, exist_ok=True)
    if args.library:
        library_bench(args.library, args.seed, folder)
    if args.vault:
        vault_bench(folder, args.vault_docs, args.new, args.min)


if __name__ == "__main__":
    main()
