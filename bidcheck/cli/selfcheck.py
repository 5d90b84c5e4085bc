"""The bidder's self-check on the command line:
``bidcheck selfcheck BID [--as 公司名称] [--against FILE_OR_DIR]... [--tender FILE]... [--xlsx] [--json]``.

Exit status 0 when nothing was found, 1 when something was (or the bid could not be read).
"""

from __future__ import annotations

import argparse
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bidcheck.config import Settings
from bidcheck.findings import PARTS, SelfCheckResult
from bidcheck.progress import ProgressFn
from bidcheck.words import LEVEL_NAMES

if TYPE_CHECKING:  # the checker and the writers are imported when the command runs, not at every start
    from bidcheck.selfcheck import SelfCheckInputs

__all__ = ["add_selfcheck_command", "selfcheck_command", "selfcheck_inputs"]

FOUND = 1  # the exit status when something was found
WRITE_FAILED = 4


def add_selfcheck_command(
    commands: argparse._SubParsersAction[Any],
    output_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    """``selfcheck``'s arguments (the output options are ``check``'s)."""
    parser = commands.add_parser("selfcheck", help="投标人自查：一份投标文件在机构的检查中会被指出什么")
    parser.add_argument("bid", type=Path, metavar="BID", help="本单位的投标文件")
    parser.add_argument(
        "--as", dest="bidder", default="", metavar="公司名称", help="本单位名称（默认取自投标文件）"
    )
    parser.add_argument(
        "--against", action="append", type=Path, default=[], metavar="FILE_OR_DIR",
        help="参考文件：顾问的模板、合作方或去年的投标文件",
    )  # fmt: skip
    parser.add_argument("--tender", action="append", type=Path, default=[], metavar="FILE", help="招标文件")
    output_options(parser)


def selfcheck_inputs(args: argparse.Namespace) -> SelfCheckInputs:
    """The self-check's inputs (the bid a file, or a bidder's folder of files); a missing bid, reference
    or tender is a usage error (``ValueError`` with the message)."""
    from bidcheck.ingest import SUPPORTED_SUFFIXES
    from bidcheck.ingest.folder import bidder_files
    from bidcheck.selfcheck import SelfCheckInputs

    if not args.bid.exists():
        raise ValueError(f"投标文件应为已存在的文件或本单位的文件夹：{args.bid}")
    if args.bid.is_dir() and not bidder_files(args.bid, SUPPORTED_SUFFIXES):
        raise ValueError(f"文件夹中没有可读取的投标文件：{args.bid}")
    for path in [*args.against, *args.tender]:
        if not path.exists():
            raise ValueError(f"找不到文件：{path}")
    return SelfCheckInputs(args.bid, tuple(args.against), tuple(args.tender), args.bidder)


def _listing(result: SelfCheckResult, stream: TextIO) -> None:
    from bidcheck.report.selfcheck import self_check_verdict

    for doc in (result.bid, *result.references, *result.tenders):
        if not doc.ok:
            stream.write(f"无法读取 {doc.name}：{doc.error}\n")
    for number, finding in enumerate(result.findings, start=1):
        stream.write(f"{number}. {LEVEL_NAMES[finding.level]}  [{PARTS[finding.part]}] {finding.detail}\n")
        stream.write(f"   处理：{finding.fix}\n")
    stream.write(f"{result.bid.name}（{result.bidder}）：{self_check_verdict(result)}\n")


def _write(result: SelfCheckResult, args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> bool:
    """Write the reports asked for; False when one could not be written (said on stderr)."""
    from bidcheck.report.files import os_error_words
    from bidcheck.report.selfcheck import write_self_check_json, write_self_check_xlsx
    from bidcheck.text.chars import replace_unsafe

    writers = (
        ("Excel 报告", args.xlsx, write_self_check_xlsx),
        ("JSON 结果", args.json, write_self_check_json),
    )
    whole = True
    for label, path, write in writers:
        if not path:
            continue
        try:
            write(result, path)
        except OSError as exc:
            stderr.write(f"bidcheck: 无法写入 {replace_unsafe(str(path))}：{os_error_words(exc)}\n")
            whole = False
        else:
            stdout.write(f"{label}：{replace_unsafe(str(path))}\n")
    return whole


def selfcheck_command(
    args: argparse.Namespace, settings: Settings, progress: ProgressFn, stdout: TextIO, stderr: TextIO
) -> int:
    """Run ``bidcheck selfcheck``: 0 when nothing was found, 1 when something was, 4 when a report could
    not be written. Raises ``ValueError`` (usage) and ``UnwritablePath`` before any work."""
    from bidcheck.ingest import collect_paths
    from bidcheck.report.files import check_outputs
    from bidcheck.selfcheck import self_check

    inputs = selfcheck_inputs(args)
    outputs = [(what, path) for what, path in (("Excel 报告", args.xlsx), ("JSON 结果", args.json)) if path]
    check_outputs(outputs, collect_paths([inputs.bid, *inputs.references, *inputs.tenders]))
    result = self_check(inputs, settings, progress, threading.Event())
    _listing(result, stdout)
    if not _write(result, args, stdout, stderr):
        return WRITE_FAILED
    return 0 if result.clean else FOUND
