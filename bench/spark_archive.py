"""The archive job on Spark (``bidcheck archive``) against the single machine, on generated texts.

``--docs N`` documents of construction prose (the benchmark grammar, three paragraphs each), every tenth
copied with an edit (some twice, some half rewritten), are written as a Parquet table and run through
``bidcheck.archive.run_archive`` on ``--master`` (``local[2]``); the groups and the pairs at ``--min``
are compared with those the library's own code finds on one machine (``simhash_labels`` and
``NearIndex``). Prints the job's seconds (Spark's start included), the documents a second, and whether
the two agree.

Usage: .venv/bin/python -m bench.spark_archive [--docs 2000] [--master local[2]]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.grammar import paragraph
from bidcheck.config import Settings
from bidcheck.library.groups import simhash_labels
from bidcheck.library.near import NearIndex

__all__ = ["archive_texts", "single_machine"]


def archive_texts(count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` (document, text) rows: originals, and every tenth copied with an edit, some of the
    copies copied again half rewritten (below a Jaccard index of 0.9, still near in SimHash)."""
    rng = random.Random(seed)
    rows: list[tuple[str, str]] = []
    while len(rows) < count:
        text = "".join(paragraph(rng) for _ in range(3))
        rows.append((f"doc{len(rows):05d}", text))
        if len(rows) % 10 == 0 and len(rows) < count:
            cut = rng.randint(40, len(text) - 40)
            edited = text[:cut] + "并报监理工程师确认" + text[cut + 6 :]
            rows.append((f"doc{len(rows):05d}", edited))
            if rng.random() < 0.3 and len(rows) < count:
                rows.append((f"doc{len(rows):05d}", edited[: len(edited) // 2] + paragraph(rng)))
    return rows


def single_machine(
    rows: list[tuple[str, str]], minimum: float = 0.9
) -> tuple[set[frozenset[str]], set[tuple[str, str]]]:
    """The groups (of two or more) and the pairs at ``minimum`` the library's own code finds."""
    from bidcheck.archive.job import text_print  # the same fingerprints as the job

    prints = [text_print(name, text, Settings()) for name, text in rows]
    weighed = [p for p in prints if p.simhash]
    labels = simhash_labels(np.asarray([p.simhash for p in weighed], dtype=np.uint64))
    members: dict[int, set[str]] = {}
    for p, label in zip(weighed, labels.tolist(), strict=True):
        members.setdefault(label, set()).add(p.document)
    groups = {frozenset(m) for m in members.values() if len(m) > 1}
    index = NearIndex(
        [("", p.document) for p in prints], [np.asarray(p.hashes, dtype=np.int64) for p in prints]
    )
    pairs: set[tuple[str, str]] = set()
    for p in prints:
        for match in index.query(np.asarray(p.hashes, dtype=np.int64), minimum):
            if match.document != p.document:
                a, b = sorted((p.document, match.document))
                pairs.add((a, b))
    return groups, pairs


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--docs", type=int, default=2000)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--min", type=float, default=0.9)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    from pyspark.sql import SparkSession

    from bidcheck.archive import ArchiveInput, run_archive

    print("command: " + " ".join([Path(sys.executable).name, "-m", "bench.spark_archive", *sys.argv[1:]]))
    rows = archive_texts(args.docs, args.seed)
    folder = Path(tempfile.mkdtemp(prefix="bidcheck-spark-"))
    spark = SparkSession.builder.master(args.master).config("spark.ui.enabled", "false").getOrCreate()
    spark.createDataFrame(rows, "document string, text string").write.parquet(str(folder / "texts.parquet"))
    spark.stop()
    figures = run_archive(
        ArchiveInput(str(folder / "texts.parquet")), str(folder / "out"), args.master, minimum=args.min
    )
    print(
        f"{figures.documents} documents on {args.master}: {figures.seconds:.1f} s "
        f"({figures.documents / figures.seconds:.0f} a second, Spark's start included); "
        f"{figures.groups} groups of {figures.grouped} documents, {figures.pairs} pairs at ≥ {args.min}"
    )
    started = time.monotonic()
    groups, pairs = single_machine(rows, args.min)
    spark = SparkSession.builder.master(args.master).config("spark.ui.enabled", "false").getOrCreate()
    found_groups: dict[int, set[str]] = {}
    for row in spark.read.parquet(str(folder / "out" / "groups")).collect():
        found_groups.setdefault(row["group"], set()).add(row["document"])
    found_pairs = {(r["a"], r["b"]) for r in spark.read.parquet(str(folder / "out" / "pairs")).collect()}
    spark.stop()
    print(
        f"single machine: {time.monotonic() - started:.1f} s; same groups: "
        f"{ {frozenset(m) for m in found_groups.values()} == groups }; same pairs: {found_pairs == pairs}"
    )


if __name__ == "__main__":
    main()
