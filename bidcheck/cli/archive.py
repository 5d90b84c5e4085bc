"""``bidcheck archive INPUT --out DIR [--master URL] [--hamming 3] [--min 0.9]``: whole-document groups
and near-duplicate pairs of an archive too large for one machine, as a Spark job (``bidcheck.archive``,
the optional extra ``bidcheck[archive]``)."""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path
from typing import Any, TextIO

from bidcheck.config import Settings

__all__ = ["add_archive_command", "archive_command"]

MISSING = (
    "bidcheck archive 需要 PySpark 和 Java 17：pip install 'bidcheck[archive]'，"
    "并安装 Java 17（如 apt-get install openjdk-17-jre-headless）"
)


def add_archive_command(commands: argparse._SubParsersAction[Any]) -> None:
    """The ``archive`` command's options."""
    archive = commands.add_parser("archive", help="用 Spark 处理大型档案：整份文件分组与近似重复对")
    archive.add_argument(
        "input",
        metavar="INPUT",
        help="文件夹，或含 document、text 两列的 Parquet 表（.parquet，可为 hdfs:// 等）",
    )
    archive.add_argument("--out", required=True, metavar="DIR", help="写出 Parquet 的目录（可为 hdfs:// 等）")
    archive.add_argument("--master", metavar="URL", help="Spark 主节点（如 spark://host:7077、local[4]）")
    archive.add_argument(
        "--hamming", type=int, default=3, metavar="N", help="分组的 SimHash 最大位差（默认 3）"
    )
    archive.add_argument(
        "--min",
        type=float,
        default=0.9,
        metavar="SCORE",
        help="近似重复的最低相似度：共有的 8 字片段占较大一份的比例（默认 0.9）",
    )
    archive.add_argument("--settings", type=Path, metavar="FILE", help="设置文件（JSON）")


def archive_command(args: argparse.Namespace, settings: Settings, stdout: TextIO, stderr: TextIO) -> int:
    """Run ``archive``: 0 done, 2 a bad input or option, 6 PySpark or Java missing or the job failing."""
    if "://" not in args.input and not Path(args.input).exists():
        stderr.write(f"bidcheck: 找不到 {args.input}\n")
        return 2
    if "://" not in args.out and Path(args.out).exists() and not Path(args.out).is_dir():
        stderr.write(f"bidcheck: --out 应为文件夹，{args.out} 是一个文件\n")  # said before Spark starts
        return 2
    if not 0.0 < args.min <= 1.0 or not 0 <= args.hamming <= 15:
        stderr.write("bidcheck: --min 应在 0 与 1 之间，--hamming 在 0 与 15 之间\n")
        return 2
    if importlib.util.find_spec("pyspark") is None:
        stderr.write(f"bidcheck: {MISSING}\n")
        return 6
    from bidcheck.archive import ArchiveInput, run_archive  # PySpark loads only here

    def say(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    try:
        figures = run_archive(
            ArchiveInput(args.input), args.out, args.master, args.hamming, args.min, settings, say
        )
    except Exception as exc:  # Spark's own errors (no Java, an unreachable master) come as many types
        stderr.write(f"bidcheck: Spark 作业失败（{type(exc).__name__}：{str(exc).splitlines()[0][:200]}）\n")
        return 6
    stdout.write(
        f"{figures.documents} 份文件，{figures.unreadable} 份无法读取；"
        f"{figures.groups} 组（{figures.grouped} 份）；{figures.pairs} 对近似重复；"
        f"用时 {figures.seconds:.1f} 秒；结果：{args.out}\n"
    )
    return 0


if __name__ == "__main__":  # spark-submit …/bidcheck/cli/archive.py INPUT --out DIR: the job on a cluster
    import sys

    from bidcheck.cli import main

    sys.exit(main(["archive", *sys.argv[1:]]))
