"""What a check on the command line says and writes: the summary on standard output, and the reports
(Excel, JSON, the Word dossier, its PDF), each written or said to have failed on its own — a full disk
loses one report, never the others, and the JSON goes beside the workbook when there is room."""

from __future__ import annotations

import argparse
import contextlib
import errno
import functools
import importlib
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from bidcheck.model import CheckResult
    from bidcheck.report.files import WrittenAside

__all__ = ["import_reports", "outputs", "summary", "write_reports"]


_NO_SPACE = {errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}  # a disk or quota full
_ROOMY = 256 << 20  # free bytes on a report's disk that let the JSON be written beside the workbook
_PUBLIC_SHOWN = 5  # values many bids hold, named in the summary (the report's 概要 lists them all)


def summary(result: CheckResult, stream: TextIO) -> None:
    from bidcheck.report.xlsx import NO_TENDER_WARNING, no_tender_line
    from bidcheck.text.chars import decoded_name, replace_unsafe
    from bidcheck.words import LEVEL_NAMES, public_value_line

    names = {d.id: d.name for d in result.documents}
    for doc in result.documents:
        if not doc.ok:
            stream.write(f"无法读取 {doc.name}：{doc.error}\n")
    for path, why in result.skipped[:_PUBLIC_SHOWN]:
        stream.write(f"跳过 {replace_unsafe(decoded_name(Path(path).name))}：{why}\n")
    if len(result.skipped) > _PUBLIC_SHOWN:
        stream.write(f"另有 {len(result.skipped) - _PUBLIC_SHOWN} 个文件被跳过，见报告的文件清单\n")
    for pair in result.pairs:
        if pair.level != "none":
            stream.write(
                f"{LEVEL_NAMES[pair.level]}  {names[pair.a]} ↔ {names[pair.b]}  "
                f"相似度 {pair.similarity:.1%}  {pair.reason}\n"
            )
    counts = {lv: sum(1 for p in result.pairs if p.level == lv) for lv in LEVEL_NAMES}
    stream.write(
        f"{len(result.bids)} 份投标文件，{len(result.pairs)} 对：一级预警 {counts['high']}，"
        f"二级观察 {counts['watch']}，无 {counts['none']}；用时 {result.elapsed_s:.1f} 秒\n"
    )
    if not result.has_tender:
        line = no_tender_line(result)
        stream.write(line + ("（用 --tender 指定招标文件）" if line == NO_TENDER_WARNING else "") + "\n")
    for value in result.public_values[:_PUBLIC_SHOWN]:
        stream.write(f"{public_value_line(value)}\n")
    if len(result.public_values) > _PUBLIC_SHOWN:
        stream.write(f"另有 {len(result.public_values) - _PUBLIC_SHOWN} 个多家共有的值，见报告概要\n")
    if result.semantic_note:
        stream.write(f"{result.semantic_note}\n")


_EXCEL, _JSON, _WORD, _PDF = "Excel 报告", "JSON 结果", "Word 报告", "PDF 报告"  # as the summary names them


def outputs(args: argparse.Namespace) -> list[tuple[str, Path]]:
    """The reports asked for: (what, path)."""
    wanted = (
        (_EXCEL, args.xlsx),
        (_WORD, getattr(args, "docx", None)),
        (_PDF, getattr(args, "pdf", None)),
        (_JSON, args.json),
    )
    return [(label, path) for label, path in wanted if path]


def write_reports(
    result: CheckResult, args: argparse.Namespace, section: str, stderr: TextIO
) -> list[tuple[str, Path]]:
    """Write the reports asked for and return those written. One that cannot be written (the disk filled
    up since its path was checked) is reported, and the others are still written. With both asked for,
    the JSON is written in a forked process while the workbook is written here (``WrittenAside``): the
    workbook is the longer of the two (0.30 against 0.19 CPU s at 100 bids), and a forked writer pays for
    the memory it shares with this process as it touches it."""
    from bidcheck.report import write_json, write_xlsx
    from bidcheck.report.files import os_error_words
    from bidcheck.text.chars import replace_unsafe

    writers: dict[str, Callable[[Path], None]] = {
        _EXCEL: lambda path: write_xlsx(result, path, section),
        _WORD: lambda path: _write_docx(result, path, section, getattr(args, "procurement", False)),
        _PDF: lambda path: _write_docx(result, path, section, getattr(args, "procurement", False), pdf=True),
        _JSON: lambda path: write_json(result, path),
    }
    asked = outputs(args)
    failed: dict[str, OSError] = {}
    with contextlib.ExitStack() as stack:
        aside = _json_aside(result, asked, stack)
        for label, path in asked:
            if label not in aside:
                _attempt(label, functools.partial(writers[label], path), failed)
        for label, _path in asked:
            if label in aside:
                _attempt(label, aside[label].finish, failed)
    for label, path in asked:  # those the disk could not hold side by side, again one by one: JSON last
        if label in failed and failed[label].errno in _NO_SPACE:
            del failed[label]
            _attempt(label, functools.partial(writers[label], path), failed)
    for label, path in asked:
        if label in failed:
            stderr.write(f"bidcheck: 无法写入 {replace_unsafe(str(path))}：{os_error_words(failed[label])}\n")
    return [(label, path) for label, path in asked if label not in failed]


def _roomy(paths: list[Path]) -> bool:
    """Whether each report's disk has room to spare (reports written side by side compete for it; where
    it is short they are written one after the other, the JSON last)."""
    for path in paths:
        try:
            if shutil.disk_usage(path.parent if path.parent.is_dir() else Path.cwd()).free < _ROOMY:
                return False
        except OSError:
            return False
    return True


def _attempt(label: str, write: Callable[[], None], failed: dict[str, OSError]) -> None:
    """Write a report; what kept it from being written is kept in ``failed`` (memory too: a workbook of
    millions of pairs that does not fit is said, and the other reports are still written)."""
    try:
        write()
    except OSError as exc:
        failed[label] = exc
    except MemoryError:
        failed[label] = OSError(errno.ENOMEM, "内存不足，无法生成这份报告（其余报告照常写出）")


def _write_docx(result: CheckResult, path: Path, section: str, procurement: bool, pdf: bool = False) -> None:
    from bidcheck.report.dossier import write_docx, write_pdf  # python-docx: loaded when asked for

    (write_pdf if pdf else write_docx)(result, path, section, procurement)


def _json_aside(
    result: CheckResult, outputs: list[tuple[str, Path]], stack: contextlib.ExitStack
) -> dict[str, WrittenAside]:
    """The JSON begun in a forked process (where processes fork) when the workbook is written too; none
    when its temporary file cannot be made (it is then written, or its error told, with the workbook)."""
    from bidcheck.report.files import WrittenAside
    from bidcheck.report.json import save_json
    from bidcheck.workers import can_fork

    label, path = _JSON, dict(outputs).get(_JSON)
    if path is None or len(outputs) < 2 or not can_fork() or not _roomy([p for _, p in outputs]):
        return {}
    try:
        return {label: stack.enter_context(WrittenAside(path, functools.partial(save_json, result)))}
    except OSError:
        return {}


def import_reports() -> None:
    """Import the reports' writers (the workbook's openpyxl: about 0.05 CPU s), once the reading
    processes have begun: not before they are forked."""
    importlib.import_module("bidcheck.report.json")
    importlib.import_module("bidcheck.report.xlsx")
