"""The ``bidcheck`` command line: ``check``, ``selfcheck``, ``demo``, ``gui``, ``library``, ``near`` and
``archive``.

Starting it imports only what parses the command line (``bidcheck --version`` and ``--help`` load no
checker); a command imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import importlib
import os
import re
import sys
import threading
from collections.abc import Sequence
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

from bidcheck import __version__
from bidcheck.cli import archive as cli_archive
from bidcheck.cli import library as cli_library
from bidcheck.cli import near as cli_near
from bidcheck.cli import reports
from bidcheck.cli import selfcheck as cli_selfcheck
from bidcheck.config import MANY_PAIRS, Settings, SettingsError, load_settings, setting_error_words
from bidcheck.progress import Cancelled, ProgressFn, no_progress

if TYPE_CHECKING:
    from bidcheck.pipeline import CheckInputs

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
    check_outputs(reports.outputs(args), read)  # a wrong path is said now, not after the whole check
    progress = no_progress if args.quiet else _progress_bar(stderr)
    if not args.quiet:
        from bidcheck.semantic import plan_line, section_size

        stderr.write(plan_line(settings, section_size(inputs.bid_files())) + "\n")
    _say_size(inputs, stderr)
    library = cli_library.library_wanted(args, settings)
    wanted = (named or cli_library.section_name(args)) if library is not None else ""
    checked = check_section(  # a default name (no --section): another section that only shares it is kept
        inputs, settings, library, wanted, progress, threading.Event(), distinct=not args.section,
        while_reading=reports.import_reports,
    )  # fmt: skip
    result, name, store_error = checked.result, checked.name, checked.store_error
    written = reports.write_reports(result, args, section, stderr)
    reports.summary(result, stdout)
    cli_library.library_summary(result, name, store_error is None, stdout)
    library_error = result.library.error if result.library is not None else None
    for problem in (library_error, store_error):
        if problem:
            stderr.write(f"bidcheck: {problem}\n")
    for label, path in written:
        stdout.write(f"{label}：{replace_unsafe(str(path))}\n")
    if len(written) < len(reports.outputs(args)):
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
