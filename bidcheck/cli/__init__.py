"""The ``bidcheck`` command line: ``check``, ``selfcheck``, ``demo``, ``gui``, ``library``, ``near`` and
``archive``.

Starting it imports only what parses the command line (``bidcheck --version`` and ``--help`` load no
checker); a command imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import errno
import functools
import importlib
import os
import re
import shutil
import sys
import threading
from collections.abc import Callable, Sequence
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

from bidcheck import __version__
from bidcheck.cli import archive as cli_archive
from bidcheck.cli import library as cli_library
from bidcheck.cli import near as cli_near
from bidcheck.cli import selfcheck as cli_selfcheck
from bidcheck.config import MANY_PAIRS, Settings, SettingsError, load_settings, setting_error_words
from bidcheck.progress import Cancelled, ProgressFn, no_progress

if TYPE_CHECKING:
    from bidcheck.model import CheckResult
    from bidcheck.pipeline import CheckInputs
    from bidcheck.report.files import WrittenAside

__all__ = ["ExitStatus", "main", "run", "run_gui"]

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"


class ExitStatus(IntEnum):
    """Exit codes of the ``bidcheck`` command."""

    SUCCESS = 0
    SOME_FILES_UNREADABLE = 1
    USAGE = 2
    GUI_FAILED = 3
    WRITE_FAILED = 4
    LIBRARY_FAILED = 5
    ARCHIVE_FAILED = 6
    INTERRUPTED = 130


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(usage_words(message))


_ARGPARSE_WORDS = (
    (r"the following arguments are required: (.+)", "缺少参数：{0}"),
    (r"unrecognized arguments: (.+)", "无法识别的参数：{0}"),
    (r"argument command: invalid choice: (.+?) \(choose from (.+)\)", "没有 {0} 这个命令，可选：{1}"),
    (r"argument (\S+): invalid (\w+) value: (.+)", "参数 {0} 的值无效：{2}"),
    (r"argument (\S+): invalid choice: (.+?) \(choose from (.+)\)", "参数 {0} 的值 {1} 无效，可选：{2}"),
    (r"argument (\S+): expected one argument", "参数 {0} 后面需要一个值"),
    (r"argument (\S+): (.+)", "参数 {0}：{1}"),
)
_ARGV: list[str] = []  # the command line being parsed, for what is said of a file named like an option


def usage_words(message: str) -> str:
    """argparse's complaint in Chinese; an unrecognized argument that is a file (a name beginning with
    "-", as a shell's ``*`` gives ``-rf.docx``) is said to go after ``--``."""
    for pattern, words in _ARGPARSE_WORDS:
        found = re.fullmatch(pattern, message)
        if found:
            said = words.format(*found.groups())
            break
    else:
        said = message
    files = [a for a in _ARGV if a.startswith("-") and len(a) > 1 and Path(a).exists()]
    if files:
        said += f"。以“-”开头的文件名请写在 -- 之后，例如：bidcheck check -- {' '.join(files)}"
    return said


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="bidcheck", description="围标串标检查：找出同一标段投标文件之间招标文件以外的共同文字。"
    )
    parser.add_argument("--version", action="version", version=f"bidcheck {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    chk = commands.add_parser("check", help="检查一个标段的投标文件")
    chk.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="投标文件或文件夹")
    chk.add_argument(
        "--tender",
        action="append",
        type=Path,
        default=[],
        metavar="FILE",
        help="招标文件（可多次给出：招标文件、招标控制价 XML）",
    )
    chk.add_argument("--template", action="append", type=Path, default=[], metavar="FILE", help="模板文件")
    _output_options(chk)
    chk.add_argument("--docx", type=Path, metavar="OUT.docx", help="Word 检查报告路径（可归档的书面报告）")
    chk.add_argument(
        "--pdf", type=Path, metavar="OUT.pdf", help="PDF 检查报告路径（同 Word 报告，需要 LibreOffice）"
    )
    chk.add_argument(
        "--procurement",
        action="store_true",
        help="政府采购项目：报告同时引用《政府采购货物和服务招标投标管理办法》第三十七条",
    )
    cli_library.check_options(chk)
    demo = commands.add_parser("demo", help="在自带的示例标段上运行检查")
    demo.add_argument("--out", type=Path, default=Path("bidcheck-demo"), metavar="DIR", help="报告输出目录")
    demo.add_argument("--workers", type=int, default=None, metavar="N")
    demo.add_argument("--quiet", action="store_true")
    cli_selfcheck.add_selfcheck_command(commands, _output_options)
    _gui_options(commands.add_parser("gui", help="打开桌面程序"))
    cli_library.add_library_commands(commands)
    cli_near.add_near_command(commands)
    cli_archive.add_archive_command(commands)
    return parser


def _gui_options(gui: argparse.ArgumentParser) -> None:
    gui.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="投标文件或文件夹")
    gui.add_argument("--tender", action="append", type=Path, default=[], metavar="FILE", help="招标文件")
    gui.add_argument("--template", action="append", type=Path, default=[], metavar="FILE", help="模板文件")
    gui.add_argument("--screenshot", type=Path, metavar="PNG", help="检查后把窗口存为图片并退出")
    gui.add_argument("--language", choices=("zh", "en"), help="界面语言（会被记住）")


def _output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--xlsx", type=Path, metavar="OUT.xlsx", help="Excel 报告路径")
    parser.add_argument("--json", type=Path, metavar="OUT.json", help="JSON 结果路径")
    parser.add_argument("--workers", type=int, default=None, metavar="N", help="并行进程数")
    parser.add_argument("--settings", type=Path, metavar="FILE", help="设置文件（JSON）")
    parser.add_argument("--quiet", action="store_true", help="不显示进度")


def _settings(args: argparse.Namespace) -> Settings:
    settings = load_settings(args.settings) if getattr(args, "settings", None) else Settings()
    if args.workers is not None:
        settings = settings.with_changes(workers=args.workers)
    return settings


def _library_settings(args: argparse.Namespace) -> Settings:
    return load_settings(args.settings) if getattr(args, "settings", None) else Settings()


def _progress_bar(stream: TextIO) -> ProgressFn:
    def show(fraction: float, message: str) -> None:
        filled = int(fraction * 30)
        stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {fraction:4.0%} {message[:40]:<40}")
        if fraction >= 1.0:
            stream.write("\n")
        stream.flush()

    return show


_NO_SPACE = {errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}  # a disk or quota full
_ROOMY = 256 << 20  # free bytes on a report's disk that let the JSON be written beside the workbook
_PUBLIC_SHOWN = 5  # values many bids hold, named in the summary (the report's 概要 lists them all)


def _summary(result: CheckResult, stream: TextIO) -> None:
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


def _outputs(args: argparse.Namespace) -> list[tuple[str, Path]]:
    """The reports asked for: (what, path)."""
    wanted = (
        (_EXCEL, args.xlsx),
        (_WORD, getattr(args, "docx", None)),
        (_PDF, getattr(args, "pdf", None)),
        (_JSON, args.json),
    )
    return [(label, path) for label, path in wanted if path]


def _write_reports(
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
    outputs = _outputs(args)
    failed: dict[str, OSError] = {}
    with contextlib.ExitStack() as stack:
        aside = _json_aside(result, outputs, stack)
        for label, path in outputs:
            if label not in aside:
                _attempt(label, functools.partial(writers[label], path), failed)
        for label, _path in outputs:
            if label in aside:
                _attempt(label, aside[label].finish, failed)
    for label, path in outputs:  # those the disk could not hold side by side, again one by one: JSON last
        if label in failed and failed[label].errno in _NO_SPACE:
            del failed[label]
            _attempt(label, functools.partial(writers[label], path), failed)
    for label, path in outputs:
        if label in failed:
            stderr.write(f"bidcheck: 无法写入 {replace_unsafe(str(path))}：{os_error_words(failed[label])}\n")
    return [(label, path) for label, path in outputs if label not in failed]


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


def _import_reports() -> None:
    """Import the reports' writers (the workbook's openpyxl: about 0.05 CPU s), once the reading
    processes have begun: not before they are forked."""
    importlib.import_module("bidcheck.report.json")
    importlib.import_module("bidcheck.report.xlsx")


def _run_check(
    inputs: CheckInputs,
    settings: Settings,
    args: argparse.Namespace,
    section: str,
    stdout: TextIO,
    stderr: TextIO,
    named: str = "",
) -> ExitStatus:
    from bidcheck.report.files import check_outputs
    from bidcheck.session import check_section
    from bidcheck.text.chars import replace_unsafe

    if getattr(args, "pdf", None):
        from bidcheck.ingest.office import find_soffice
        from bidcheck.report.dossier import PDF_NEEDS_LIBREOFFICE

        if find_soffice() is None:
            raise _UsageError(PDF_NEEDS_LIBREOFFICE)  # said now, not after the whole check
    read = [*inputs.bid_files(), *inputs.tenders, *inputs.templates]
    check_outputs(_outputs(args), read)  # a wrong path is said now, not after the whole check
    progress = no_progress if args.quiet else _progress_bar(stderr)
    if not args.quiet:
        from bidcheck.semantic import plan_line, section_size

        stderr.write(plan_line(settings, section_size(inputs.bid_files())) + "\n")
    _say_size(inputs, stderr)
    library = cli_library.library_wanted(args, settings)
    wanted = (named or cli_library.section_name(args)) if library is not None else ""
    checked = check_section(  # a default name (no --section): another section that only shares it is kept
        inputs, settings, library, wanted, progress, threading.Event(), distinct=not args.section,
        while_reading=_import_reports,
    )  # fmt: skip
    result, name, store_error = checked.result, checked.name, checked.store_error
    written = _write_reports(result, args, section, stderr)
    _summary(result, stdout)
    cli_library.library_summary(result, name, store_error is None, stdout)
    library_error = result.library.error if result.library is not None else None
    for problem in (library_error, store_error):
        if problem:
            stderr.write(f"bidcheck: {problem}\n")
    for label, path in written:
        stdout.write(f"{label}：{replace_unsafe(str(path))}\n")
    if len(written) < len(_outputs(args)):
        return ExitStatus.WRITE_FAILED
    if library_error or store_error:  # the check was done, but the library neither taught it nor learnt
        return ExitStatus.LIBRARY_FAILED
    unreadable = any(not d.ok for d in result.documents)
    return ExitStatus.SOME_FILES_UNREADABLE if unreadable else ExitStatus.SUCCESS


def _say_size(inputs: CheckInputs, stderr: TextIO) -> None:
    """Say before a very large check begins how many files and pairs it holds (said even with --quiet)."""
    bids = inputs.bid_count()
    pairs = bids * (bids - 1) // 2
    if pairs > MANY_PAIRS:
        stderr.write(
            f"bidcheck: 本次比对 {bids:,} 份投标文件、{pairs:,} 对，需要较长时间和较多内存；"
            "可按 Ctrl+C 取消\n"
        )


def _check_command(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> ExitStatus:
    from bidcheck.pipeline import CheckInputs
    from bidcheck.session import tender_name

    for path in [*args.tender, *args.template]:
        if not path.is_file():
            raise _UsageError(f"找不到文件：{path}")
    tenders = [*args.tender, *_tenders_by_name(args, stderr)]
    inputs = CheckInputs(tuple(args.paths), tuple(tenders), tuple(args.template))  # folders: see _jobs
    folder = args.paths[0].name if len(args.paths) == 1 and args.paths[0].is_dir() else ""
    named = args.section
    if not named and _says_nothing(folder):  # bids, 新建文件夹: the tender's project name says more
        named = tender_name(tenders)
    section = named or folder  # as the user names it, its folder names it, else its tender
    return _run_check(inputs, _settings(args), args, section, stdout, stderr, named)


def _says_nothing(folder: str) -> bool:
    """Whether a section's folder name says nothing of it (none, ``bids``, ``新建文件夹``)."""
    from bidcheck.text.project_name import generic_folder_name

    return not folder or generic_folder_name(folder)


def _tenders_by_name(args: argparse.Namespace, stderr: TextIO) -> list[Path]:
    """The files of the section's folders named as the tender (招标文件, 招标控制价), as the app takes them,
    when no tender is given; each is said."""
    from bidcheck.ingest import collect_sources
    from bidcheck.ingest.folder import named_as_tender
    from bidcheck.text.chars import replace_unsafe

    if args.tender:
        return []
    folders = [p for p in args.paths if p.is_dir()]
    found = [p for p in collect_sources(folders) if p.is_file() and named_as_tender(p)]
    for path in found:
        stderr.write(f"按文件名把 {replace_unsafe(path.name)} 作为招标文件（用 --tender 可另行指定）\n")
    return found


def _demo_command(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> ExitStatus:
    from bidcheck.pipeline import CheckInputs

    bids, tender = SAMPLE / "bids", SAMPLE / "tender"
    if not bids.is_dir():
        raise _UsageError(f"找不到示例标段：{bids}")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _UsageError(f"无法创建文件夹 {args.out}：{exc.strerror or exc}") from exc
    args.xlsx, args.json = args.out / "bidcheck-demo.xlsx", args.out / "bidcheck-demo.json"
    args.docx, args.pdf, args.procurement = args.out / "bidcheck-demo.docx", None, False  # the dossier too
    args.library = args.section = None
    inputs = CheckInputs((bids,), tuple(sorted(tender.glob("*.docx"))))
    return _run_check(inputs, _settings(args), args, "示例标段", stdout, stderr)


def _selfcheck_command(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> ExitStatus:
    progress = no_progress if args.quiet else _progress_bar(stderr)
    try:
        return ExitStatus(cli_selfcheck.selfcheck_command(args, _settings(args), progress, stdout, stderr))
    except ValueError as exc:
        raise _UsageError(str(exc)) from exc


def _gui_command(args: argparse.Namespace, stderr: TextIO) -> ExitStatus:
    for path in [*args.paths, *args.tender, *args.template]:
        if not path.exists():
            raise _UsageError(f"找不到文件：{path}")
    try:  # Qt is imported only here: the rest of the command line works without it
        app = importlib.import_module("bidcheck.gui.app")
    except ImportError as exc:
        stderr.write(f"bidcheck: 桌面程序需要 PySide6（pip install PySide6-Essentials）：{exc}\n")
        return ExitStatus.GUI_FAILED
    code = app.launch(args.paths, args.tender, args.template, args.screenshot, args.language)
    return ExitStatus.SUCCESS if code == 0 else ExitStatus.GUI_FAILED


def main(
    argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> ExitStatus:
    """Run the command line; returns the exit status instead of exiting."""
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    _ARGV[:] = list(sys.argv[1:] if argv is None else argv)
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help and --version
        return ExitStatus.SUCCESS if not exc.code else ExitStatus.USAGE
    except _UsageError as exc:
        stderr.write(f"bidcheck: {exc}\n")
        return ExitStatus.USAGE
    return _command(args, stdout, stderr)


def _command(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> ExitStatus:
    """Run the command parsed; the checker is imported now, not when the command line starts."""
    from bidcheck.library import LibraryError
    from bidcheck.report.files import UnwritablePath

    try:
        if args.command == "check":
            return _check_command(args, stdout, stderr)
        if args.command == "selfcheck":
            return _selfcheck_command(args, stdout, stderr)
        if args.command == "gui":
            return _gui_command(args, stderr)
        if args.command == "library":
            return ExitStatus(cli_library.library_command(args, _library_settings(args), stdout))
        if args.command == "near":
            return ExitStatus(cli_near.near_command(args, _library_settings(args), stdout, stderr))
        if args.command == "archive":
            return ExitStatus(cli_archive.archive_command(args, _library_settings(args), stdout, stderr))
        return _demo_command(args, stdout, stderr)
    except LibraryError as exc:
        stderr.write(f"bidcheck: {exc}\n")
        return ExitStatus.LIBRARY_FAILED
    except SettingsError as exc:
        stderr.write(f"bidcheck: {setting_error_words(exc)}\n")
        return ExitStatus.USAGE
    except (_UsageError, UnwritablePath) as exc:
        stderr.write(f"bidcheck: {exc}\n")
        return ExitStatus.USAGE
    except (KeyboardInterrupt, Cancelled):
        stderr.write("\nbidcheck: 已中断\n")
        return ExitStatus.INTERRUPTED


_BROKEN_PIPE = 141


def run() -> NoReturn:
    """Console-script entry point. A check (``check``, ``demo``) ends without the interpreter's
    teardown (``_exit_now``); the other commands, which may hold the library open, end as usual."""
    argv = sys.argv[1:]
    code: int
    try:
        code = main(argv)
        sys.stdout.flush()
    except BrokenPipeError:  # a reader that stopped early (``library list | head -1``): no traceback,
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # and the status other tools give
        code = _BROKEN_PIPE  # (128 + SIGPIPE): never a false all-clear
    if argv[:1] in (["check"], ["demo"]):
        _exit_now(code)
    sys.exit(code)


def run_gui() -> None:
    """Console-script entry point of the window (``bidcheck-gui``): the same options as ``bidcheck gui``."""
    import multiprocessing

    multiprocessing.freeze_support()  # a frozen Windows bundle starts its worker processes through here
    sys.exit(main(["gui", *sys.argv[1:]]))


def _exit_now(code: int) -> NoReturn:
    """End the process with ``code`` without the interpreter's teardown: after a check it frees the
    section's objects one by one and collects them once more (0.1–0.3 s after a 100-bid check, on one
    core), memory the system takes back at once anyway. What the teardown does that matters is done
    first: other threads are waited for, the exit handlers run (``atexit``: multiprocessing ends the
    processes it started) and the standard streams are flushed."""
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe or stream: nothing more to say
            stream.flush()
    os._exit(code)
