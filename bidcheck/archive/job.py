"""The Spark job of ``bidcheck archive``: fingerprints on the executors, groups and pairs by joins.

1. Fingerprints: each document (a file read by bidcheck's own readers, or a row of a Parquet table of
   extracted texts) becomes its comparable text's SimHash and its winnowed k-gram hash set, on the
   executors.
2. Groups: every SimHash (but 0, which says nothing) under each of its ``hamming + 1`` band values;
   documents sharing a band value are compared by exact Hamming distance; the edges go to the driver,
   whose connected components (``library.groups``) are the groups, numbered by their first document.
3. Pairs: every (hash, document); documents sharing a hash are counted together per pair, which is the
   exact size of the two sets' intersection; the pairs whose score (shared over the larger set, as
   ``bidcheck near`` scores) reaches ``minimum`` are kept.

Writes ``OUT/documents``, ``OUT/groups`` and ``OUT/pairs`` as Parquet.
"""

from __future__ import annotations

import itertools
import operator
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from pyspark import RDD
from pyspark.sql import SparkSession
from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

from bidcheck.config import Settings
from bidcheck.fingerprint import build_simhash
from bidcheck.ingest import SUPPORTED_SUFFIXES
from bidcheck.library.groups import HAMMING, band_masks, components
from bidcheck.library.near import comparable_text, near_hashes
from bidcheck.text import normalize

__all__ = ["ArchiveFigures", "ArchiveInput", "Print", "run_archive"]

_MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class ArchiveInput:
    """What the job reads: a local folder of documents, or a Parquet table with columns ``document`` and
    ``text`` (a path or URI ending in ``.parquet``, file or folder: ``hdfs://…``, ``s3a://…`` as Spark
    reads them)."""

    location: str

    @property
    def parquet(self) -> bool:
        return self.location.rstrip("/").lower().endswith(".parquet")


@dataclass(frozen=True)
class ArchiveFigures:
    """What the job found, and how long it took."""

    documents: int
    unreadable: int
    groups: int  # groups of two documents or more
    grouped: int  # documents in them
    pairs: int
    seconds: float


@dataclass(frozen=True)
class Print:
    """One document's fingerprints (or why it has none)."""

    document: str
    simhash: int  # unsigned 64 bits; 0 when nothing in the text could be weighed
    hashes: tuple[int, ...]  # the winnowed k-gram hash set, sorted
    chars: int
    error: str | None = None


def text_print(document: str, text: str, settings: Settings) -> Print:
    """The fingerprints of an extracted text."""
    norm = normalize(text)[0]
    return _print(document, norm, settings)


def file_print(document: str, path: str, settings: Settings) -> Print:
    """The fingerprints of a file, read by bidcheck's readers (or why it could not be read)."""
    norm, error = comparable_text(Path(path), settings)
    if error is not None:
        return Print(document, 0, (), 0, error)
    return _print(document, norm, settings)


def _print(document: str, norm: str, settings: Settings) -> Print:
    if not norm:
        return Print(document, 0, (), 0, "文件中没有可比较的文字")
    simhash = build_simhash(norm, settings.seed) & _MASK64
    return Print(document, simhash, tuple(near_hashes(norm).tolist()), len(norm))


def _session(master: str | None) -> SparkSession:
    os.environ["PYSPARK_PYTHON"] = sys.executable  # the executors run this Python, with bidcheck in it
    builder = (
        SparkSession.builder.appName("bidcheck-archive")
        .config("spark.pyspark.python", sys.executable)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "8")
    )
    if master:
        builder = builder.master(master)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def _prints(spark: SparkSession, source: ArchiveInput, settings: Settings) -> RDD[Print]:
    """Every document's fingerprints, computed on the executors."""
    if source.parquet:
        table = spark.read.parquet(source.location).select("document", "text")
        return table.rdd.map(lambda row: text_print(str(row[0]), str(row[1] or ""), settings))
    folder = Path(source.location)
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES)
    named = [(str(p.relative_to(folder)), str(p)) for p in files]
    slices = max(1, min(len(named), spark.sparkContext.defaultParallelism * 4))
    return spark.sparkContext.parallelize(named, slices).map(lambda f: file_print(f[0], f[1], settings))


def _band_pairs(members: Iterable[tuple[int, int]], hamming: int) -> Iterator[tuple[int, int]]:
    """The pairs of one band value's documents (index, SimHash) at most ``hamming`` bits apart."""
    for (i, a), (j, b) in itertools.combinations(sorted(members), 2):
        if (a ^ b).bit_count() <= hamming:
            yield i, j


def _group_edges(indexed: RDD[tuple[int, int]], hamming: int) -> list[tuple[int, int]]:
    """Edges between documents (their indexes) whose SimHashes are at most ``hamming`` bits apart."""
    masks = band_masks(hamming)

    def bands(item: tuple[int, int]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        index, simhash = item
        return [((n, (simhash >> shift) & mask), (index, simhash)) for n, (shift, mask) in enumerate(masks)]

    found = indexed.flatMap(bands).groupByKey().flatMap(lambda kv: _band_pairs(kv[1], hamming))
    return sorted(set(found.collect()))


def _labels(count: int, edges: list[tuple[int, int]]) -> np.ndarray:
    a = np.asarray([e[0] for e in edges], dtype=np.int64)
    b = np.asarray([e[1] for e in edges], dtype=np.int64)
    return components(count, a, b)


def _hash_pairs(members: Iterable[int]) -> Iterator[tuple[tuple[int, int], int]]:
    for pair in itertools.combinations(sorted(members), 2):
        yield pair, 1


def _near_pairs(
    indexed: RDD[tuple[int, Print]], sizes: dict[int, int], minimum: float
) -> RDD[tuple[int, int, float, float, float]]:
    """(i, j, score, share of i's set j holds, share of j's set i holds) of the pairs at ``minimum``; the
    score is the share of the larger set both hold, as ``bidcheck near`` scores."""
    shared = (
        indexed.flatMap(lambda item: [(h, item[0]) for h in item[1].hashes])
        .groupByKey()
        .flatMap(lambda kv: _hash_pairs(kv[1]))
        .reduceByKey(operator.add)
    )

    def scored(item: tuple[tuple[int, int], int]) -> tuple[int, int, float, float, float]:
        (i, j), n = item
        return i, j, n / max(sizes[i], sizes[j], 1), n / max(sizes[i], 1), n / max(sizes[j], 1)

    return shared.map(scored).filter(lambda p: p[2] >= minimum)


def run_archive(
    source: ArchiveInput,
    out: str,
    master: str | None = None,
    hamming: int = HAMMING,
    minimum: float = 0.9,
    settings: Settings | None = None,
    say: Callable[[str], None] = lambda _: None,
) -> ArchiveFigures:
    """Fingerprint every document of ``source``, group them and find their near-duplicate pairs on Spark
    (``master``: a cluster's URL, or ``local[N]``; by default the one ``spark-submit`` gives, else
    Spark's own), and write the three Parquet tables under ``out`` (a folder or a URI)."""
    settings = settings or Settings()
    started = time.monotonic()
    spark = _session(master)
    try:
        say("读取文件并计算指纹…")
        prints = sorted(_prints(spark, source, settings).collect(), key=lambda p: p.document)
        good = [(n, p) for n, p in enumerate(prints) if p.error is None]
        say(f"{len(prints)} 份文件（{len(prints) - len(good)} 份无法读取）；分组…")
        indexed = spark.sparkContext.parallelize([(n, p.simhash) for n, p in good if p.simhash])
        labels = _labels(len(prints), _group_edges(indexed, hamming))
        groups = _numbered_groups(labels, [n for n, p in good if p.simhash])
        say(f"{len(set(groups.values()))} 组；查找近似重复…")
        sizes = {n: len(p.hashes) for n, p in good}
        pairs = _near_pairs(spark.sparkContext.parallelize(good), sizes, minimum).collect()
        say(f"{len(pairs)} 对近似重复；写出 Parquet…")
        _write(spark, out, prints, groups, pairs)
    finally:
        spark.stop()
    grouped = len(groups)
    return ArchiveFigures(
        len(prints), len(prints) - len(good), len(set(groups.values())), grouped, len(pairs),
        time.monotonic() - started,
    )  # fmt: skip


def _numbered_groups(labels: np.ndarray, members: list[int]) -> dict[int, int]:
    """Document index -> group number (1, 2, … in the order of each group's first document), for the
    documents of groups of two or more."""
    by_label: dict[int, list[int]] = {}
    for n in members:
        by_label.setdefault(int(labels[n]), []).append(n)
    groups = sorted((sorted(m) for m in by_label.values() if len(m) > 1), key=lambda m: m[0])
    return {n: number for number, m in enumerate(groups, 1) for n in m}


def _write(
    spark: SparkSession,
    out: str,
    prints: list[Print],
    groups: dict[int, int],
    pairs: list[tuple[int, int, float, float, float]],
) -> None:
    documents = StructType(
        [
            StructField("document", StringType(), False),
            StructField("chars", LongType(), False),
            StructField("simhash", StringType(), False),
            StructField("group", LongType(), True),
            StructField("error", StringType(), True),
        ]
    )
    rows = [(p.document, p.chars, f"{p.simhash:016x}", groups.get(n), p.error) for n, p in enumerate(prints)]
    spark.createDataFrame(rows, documents).write.mode("overwrite").parquet(f"{out.rstrip('/')}/documents")
    grouped = StructType(
        [StructField("group", LongType(), False), StructField("document", StringType(), False)]
    )
    members = sorted((g, prints[n].document) for n, g in groups.items())
    spark.createDataFrame(members, grouped).write.mode("overwrite").parquet(f"{out.rstrip('/')}/groups")
    paired = StructType(
        [
            StructField("a", StringType(), False),
            StructField("b", StringType(), False),
            StructField("score", DoubleType(), False),
            StructField("containment_a", DoubleType(), False),
            StructField("containment_b", DoubleType(), False),
        ]
    )
    named = sorted((prints[i].document, prints[j].document, s, ca, cb) for i, j, s, ca, cb in pairs)
    spark.createDataFrame(named, paired).write.mode("overwrite").parquet(f"{out.rstrip('/')}/pairs")
