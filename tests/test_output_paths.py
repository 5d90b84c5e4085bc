"""Output paths: a place that cannot take the report is refused before the check; reports are written
beside their target, whole, with the mode a new file gets."""

from __future__ import annotations

import errno
import io
import multiprocessing
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bidcheck.cli import ExitStatus, main
from bidcheck.progress import Cancelled
from bidcheck.report.files import UnwritablePath, WrittenAside, check_output_path, write_atomically
from bidcheck.workers import can_fork
from tests.conftest import ReadOnly

ROOT = Path(__file__).resolve().parents[1]


def run(*argv: str) -> tuple[ExitStatus, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture()
def umask() -> Iterator[None]:
    """Restores the process's umask after a test that sets its own."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _refused(section: dict[str, Path], option: str, path: Path) -> str:
    """Check the section (with its progress bar) writing to ``path``; it must stop at once with exit 2."""
    status, stdout, stderr = run("check", str(section["bids"]), option, str(path))
    assert status == ExitStatus.USAGE
    assert "%" not in stderr and stdout == ""  # refused before the check: no progress, no summary
    assert stderr.startswith(f"bidcheck: 无法写入 {path}：")
    return stderr


def test_a_folder_is_refused_and_nothing_is_left_beside_it(section: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "reports"
    folder.mkdir()
    assert "这是一个文件夹" in _refused(section, "--json", folder)
    assert "这是一个文件夹" in _refused(section, "--xlsx", folder)
    assert [p.name for p in tmp_path.iterdir()] == ["reports"] and not any(folder.iterdir())


def test_a_missing_folder_is_refused_not_made(section: dict[str, Path], tmp_path: Path) -> None:
    path = tmp_path / "missing" / "r.xlsx"
    assert f"文件夹 {path.parent} 不存在" in _refused(section, "--xlsx", path)
    assert not path.parent.exists()
    assert "不是文件夹" in _refused(section, "--json", section["tender"] / "r.json")


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="needs Linux sysfs")
def test_a_place_no_one_may_write_is_refused(section: dict[str, Path]) -> None:
    assert "无法写入" in _refused(section, "--json", Path("/sys/kernel/bidcheck-test.json"))


def test_a_folder_without_write_permission_is_refused(
    section: dict[str, Path], read_only: Callable[[dict[str, bytes]], ReadOnly]
) -> None:
    locked = read_only({})
    why = "磁盘是只读的" if locked.mounted else f"没有在文件夹 {locked.folder} 中写文件的权限"
    assert why in _refused(section, "--xlsx", locked.folder / "r.xlsx")
    assert not any(locked.folder.iterdir())


def test_a_read_only_file_is_refused(
    section: dict[str, Path], read_only: Callable[[dict[str, bytes]], ReadOnly]
) -> None:
    locked = read_only({"r.json": b"{}"})
    path = locked.folder / "r.json"
    assert "文件是只读的" in _refused(section, "--json", path)
    assert path.read_text(encoding="utf-8") == "{}"


def test_reports_get_the_mode_of_a_new_file(section: dict[str, Path], tmp_path: Path, umask: None) -> None:
    os.umask(0o027)
    status, _, _ = run(
        "check", str(section["bids"]), "--json", str(tmp_path / "r.json"), "--xlsx", str(tmp_path / "r.xlsx")
    )
    assert status == ExitStatus.SUCCESS
    for name in ("r.json", "r.xlsx"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o640, name


def test_the_temporary_file_is_beside_the_target_with_a_new_files_mode(tmp_path: Path, umask: None) -> None:
    target = tmp_path / "out" / "r.json"
    target.parent.mkdir()
    seen: list[Path] = []

    def write(temp: Path) -> None:
        seen.append(temp)
        assert stat.S_IMODE(temp.stat().st_mode) == 0o644
        temp.write_text("{}", encoding="utf-8")

    write_atomically(target, write)
    assert seen[0].parent == target.parent and seen[0] != target
    assert [p.name for p in target.parent.iterdir()] == ["r.json"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_a_failed_write_leaves_nothing(tmp_path: Path) -> None:
    def fail(temp: Path) -> None:
        temp.write_text("half", encoding="utf-8")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_atomically(tmp_path / "r.json", fail)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not can_fork(), reason="written aside where processes fork")
def test_a_report_written_aside_comes_from_another_process_and_is_moved_into_place(tmp_path: Path) -> None:
    with WrittenAside(tmp_path / "r.txt", lambda temp: temp.write_text(str(os.getpid()))) as aside:
        aside.finish()
    assert [p.name for p in tmp_path.iterdir()] == ["r.txt"]
    assert (tmp_path / "r.txt").read_text() not in ("", str(os.getpid()))


def test_an_error_of_a_writer_aside_reaches_the_caller_and_leaves_nothing(tmp_path: Path) -> None:
    def fail(temp: Path) -> None:
        temp.write_text("half", encoding="utf-8")
        raise OSError(errno.ENOSPC, "No space left on device")

    with WrittenAside(tmp_path / "r.json", fail) as aside, pytest.raises(OSError) as raised:
        aside.finish()
    assert raised.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not can_fork(), reason="written aside where processes fork")
def test_a_writer_aside_that_is_killed_costs_only_time(tmp_path: Path) -> None:
    here = os.getpid()

    def write(temp: Path) -> None:
        if os.getpid() != here:
            os.kill(os.getpid(), signal.SIGKILL)
        temp.write_text("written here", encoding="utf-8")

    with WrittenAside(tmp_path / "r.txt", write) as aside:
        aside.finish()
    assert [p.name for p in tmp_path.iterdir()] == ["r.txt"]
    assert (tmp_path / "r.txt").read_text(encoding="utf-8") == "written here"


def _slow_writer(started: Path) -> Callable[[Path], None]:
    def write(temp: Path) -> None:
        temp.write_text("half", encoding="utf-8")
        started.touch()
        time.sleep(60)

    return write


@pytest.mark.skipif(not can_fork(), reason="written aside where processes fork")
def test_a_writer_aside_left_midway_is_ended_and_leaves_no_file(tmp_path: Path) -> None:
    out, started = tmp_path / "out", tmp_path / "started"
    out.mkdir()
    before = set(multiprocessing.active_children())
    with pytest.raises(KeyboardInterrupt), WrittenAside(out / "r.xlsx", _slow_writer(started)):
        deadline = time.monotonic() + 30
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert started.exists() and len(list(out.iterdir())) == 1  # the half-written temporary file
        raise KeyboardInterrupt
    assert list(out.iterdir()) == []
    assert set(multiprocessing.active_children()) <= before


def test_cancelling_a_writer_aside_ends_it_and_leaves_no_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    cancel = threading.Event()
    cancel.set()
    before = set(multiprocessing.active_children())
    writer = _slow_writer(tmp_path / "started") if can_fork() else (lambda temp: None)
    with WrittenAside(out / "r.xlsx", writer) as aside, pytest.raises(Cancelled):
        aside.finish(cancel)
    assert list(out.iterdir()) == []
    assert set(multiprocessing.active_children()) <= before


def test_check_output_path_accepts_a_new_or_existing_file(tmp_path: Path) -> None:
    check_output_path(tmp_path / "new.json")
    (tmp_path / "old.json").write_text("{}", encoding="utf-8")
    check_output_path(tmp_path / "old.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json"]
    with pytest.raises(UnwritablePath, match="这是一个文件夹"):
        check_output_path(tmp_path)


def test_demo_makes_its_folder_and_refuses_a_file(tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.write_text("", encoding="utf-8")
    status, _, stderr = run("demo", "--out", str(taken), "--quiet")
    assert status == ExitStatus.USAGE and "无法创建文件夹" in stderr


_LIMITED = """
import resource, signal, sys
from bidcheck.cli import main
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="file size limits are POSIX")
@pytest.mark.parametrize("names", [("r.json",), ("r.xlsx",), ("r.json", "r.xlsx")])
def test_reports_that_cannot_be_written_after_the_check_exit_4_and_leave_nothing(
    section: dict[str, Path], tmp_path: Path, names: tuple[str, ...]
) -> None:
    """Reports larger than the process may write (as a disk that fills up during the check): each
    alone (written here), or both (the workbook then written in a forked process beside the JSON).
    Each failure is told, exit 4, the summary is shown, no report is claimed and no file is left."""
    command = [
        sys.executable,
        "-c",
        _LIMITED,
        "check",
        str(section["bids"]),
        "--tender",
        str(section["tender"]),
    ]
    for name in names:
        command += [f"--{name[2:]}", str(tmp_path / name)]
    done = subprocess.run(
        [*command, "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == ExitStatus.WRITE_FAILED, done.stderr[-2000:]
    for name in names:
        assert f"bidcheck: 无法写入 {tmp_path / name}：文件超过了系统允许的大小" in done.stderr
    assert "一级预警" in done.stdout and "JSON 结果" not in done.stdout and "Excel 报告" not in done.stdout
    assert list(tmp_path.iterdir()) == []


def test_a_report_over_a_bid_or_over_the_other_report_is_refused(
    section: dict[str, Path], tmp_path: Path
) -> None:
    before = {name: section[name].read_bytes() for name in ("a", "b")}
    for option, target in (("--xlsx", section["a"]), ("--json", section["b"])):
        assert "这是要检查的文件之一" in _refused(section, option, target)
    status, _, stderr = run(
        "check", str(section["bids"]), "--tender", str(section["tender"]), "--json", str(section["tender"])
    )
    assert status == ExitStatus.USAGE and "这是要检查的文件之一" in stderr
    both = tmp_path / "r.out"
    status, _, stderr = run("check", str(section["bids"]), "--xlsx", str(both), "--json", str(both))
    assert status == ExitStatus.USAGE and "Excel 报告和JSON 结果不能写到同一个文件" in stderr
    assert {name: section[name].read_bytes() for name in ("a", "b")} == before and not both.exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_report_to_a_pipe_is_written_into_it_and_the_pipe_stays(
    section: dict[str, Path], tmp_path: Path
) -> None:
    """A device or pipe (``/dev/null``, a FIFO) is written into, never replaced by a regular file."""
    pipe = tmp_path / "report.pipe"
    os.mkfifo(pipe)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()), daemon=True)
    reader.start()
    status, _, stderr = run("check", str(section["bids"]), "--quiet", "--json", str(pipe))
    reader.join(timeout=30)
    assert status == ExitStatus.SUCCESS, stderr
    assert stat.S_ISFIFO(pipe.stat().st_mode) and b'"schema": "bidcheck.result/1"' in got[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.pipe"]


@pytest.mark.skipif(sys.platform == "win32", reason="file size limits are POSIX")
def test_a_selfcheck_report_that_cannot_be_written_exits_4_and_leaves_nothing(
    section: dict[str, Path], tmp_path: Path
) -> None:
    """The self-check as the check: its workbook larger than the process may write is told, exit 4."""
    command = [sys.executable, "-c", _LIMITED, "selfcheck", str(section["a"]), "--against", str(section["b"])]
    done = subprocess.run(
        [*command, "--xlsx", str(tmp_path / "自查.xlsx"), "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == ExitStatus.WRITE_FAILED, done.stderr[-2000:]
    assert f"无法写入 {tmp_path / '自查.xlsx'}" in done.stderr and list(tmp_path.iterdir()) == []
