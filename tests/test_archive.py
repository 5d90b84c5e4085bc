"""``bidcheck archive``: the Spark job (``local[2]``) gives the groups and near-duplicate pairs that the
single-machine library code gives on the same documents."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from bench.spark_archive import archive_texts, single_machine
from bidcheck.cli import main
from tests.builders import make_docx, paragraphs

pyspark = pytest.importorskip("pyspark", reason="bidcheck[archive] (PySpark) is not installed")
if shutil.which("java") is None:
    pytest.skip("Spark needs Java 17, which is not installed", allow_module_level=True)

from pyspark.sql import SparkSession  # noqa: E402

from bidcheck.archive import ArchiveInput, run_archive  # noqa: E402


def _spark() -> SparkSession:
    return SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()


def test_the_spark_job_gives_the_library_groups_and_pairs(tmp_path: Path) -> None:
    rows = archive_texts(2000, 5)
    spark = _spark()
    try:
        table = tmp_path / "texts.parquet"
        spark.createDataFrame(rows, "document string, text string").write.parquet(str(table))
    finally:
        spark.stop()
    figures = run_archive(ArchiveInput(str(table)), str(tmp_path / "out"), "local[2]")
    spark = _spark()
    try:
        grouped = spark.read.parquet(str(tmp_path / "out" / "groups")).collect()
        paired = spark.read.parquet(str(tmp_path / "out" / "pairs")).collect()
        documents = spark.read.parquet(str(tmp_path / "out" / "documents")).count()
    finally:
        spark.stop()
    members: dict[int, set[str]] = {}
    for row in grouped:
        members.setdefault(row["group"], set()).add(row["document"])
    groups, pairs = single_machine(rows)
    assert {frozenset(m) for m in members.values()} == groups
    assert {(row["a"], row["b"]) for row in paired} == pairs
    assert len(pairs) >= 150 and len(groups) >= 50  # the planted copies are there to be found
    assert all(row["score"] >= 0.9 for row in paired)
    assert (figures.documents, documents, figures.pairs, figures.groups) == (
        2000,
        2000,
        len(pairs),
        len(groups),
    )


def test_a_folder_of_documents_through_the_command(tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    folder.mkdir()
    text = "".join(paragraphs(11, 4))
    (folder / "a.txt").write_text(text, encoding="utf-8")
    (folder / "b.txt").write_text(text.replace("。", "；", 1), encoding="utf-8")
    make_docx(folder / "c.docx", [paragraphs(12, 4)])
    (folder / "d.pdf").write_bytes(b"%PDF-1.4 not really")
    out, err = io.StringIO(), io.StringIO()
    status = main(["archive", str(folder), "--out", str(tmp_path / "out"), "--master", "local[2]"], out, err)
    assert status == 0, err.getvalue()
    assert "4 份文件，1 份无法读取" in out.getvalue() and "1 对近似重复" in out.getvalue()
    spark = _spark()
    try:
        (pair,) = spark.read.parquet(str(tmp_path / "out" / "pairs")).collect()
        bad = spark.read.parquet(str(tmp_path / "out" / "documents")).where("error is not null").collect()
    finally:
        spark.stop()
    assert (pair["a"], pair["b"]) == ("a.txt", "b.txt") and pair["score"] >= 0.9
    assert [row["document"] for row in bad] == ["d.pdf"]


def test_the_command_names_a_missing_input(tmp_path: Path) -> None:
    err = io.StringIO()
    status = main(["archive", str(tmp_path / "none"), "--out", str(tmp_path / "o")], io.StringIO(), err)
    assert status == 2 and "找不到" in err.getvalue()


def test_an_out_that_is_a_file_is_refused_before_spark_starts(tmp_path: Path) -> None:
    make_docx(tmp_path / "a.docx", [paragraphs(5, 3)])
    taken = tmp_path / "结果 文件.txt"
    taken.write_text("已有的文件", encoding="utf-8")
    err = io.StringIO()
    status = main(["archive", str(tmp_path), "--out", str(taken)], io.StringIO(), err)
    assert status == 2 and err.getvalue() == f"bidcheck: --out 应为文件夹，{taken} 是一个文件\n"
    assert taken.read_text(encoding="utf-8") == "已有的文件"
