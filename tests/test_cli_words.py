"""What the command line says when it is used wrongly, in Chinese: arguments it does not know, a file
named like an option, settings out of range, a file given twice, a tender that cannot be read."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from openpyxl import load_workbook

from bidcheck.cli import ExitStatus, main


def run(*argv: str) -> tuple[ExitStatus, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def test_arguments_it_does_not_know_are_said_in_chinese(tmp_path: Path) -> None:
    status, _, err = run("check", str(tmp_path), "--bogus")
    assert status == ExitStatus.USAGE and err == "bidcheck: 无法识别的参数：--bogus\n"
    assert run("check")[2] == "bidcheck: 缺少参数：PATH\n"
    assert run("check", str(tmp_path), "--workers", "x")[2] == "bidcheck: 参数 --workers 的值无效：'x'\n"
    assert run("chek")[2].startswith("bidcheck: 没有 'chek' 这个命令，可选：'check'")
    status, _, err = run("check", str(tmp_path), "--workers", "-1")
    assert (
        status == ExitStatus.USAGE and err == "bidcheck: 设置“并行进程数（0 为自动）（workers）”不能为负数\n"
    )


def test_a_file_named_like_an_option_is_said_to_go_after_two_dashes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-rf.docx").write_bytes(b"")
    (tmp_path / "a.docx").write_bytes(b"")
    status, _, err = run("check", "-rf.docx", "a.docx")  # as a shell's * gives them
    assert status == ExitStatus.USAGE
    hint = "以“-”开头的文件名请写在 -- 之后，例如：bidcheck check -- -rf.docx"
    assert err == f"bidcheck: 无法识别的参数：-rf.docx。{hint}\n"


def test_a_file_given_twice_is_read_once_and_said_so(section: dict[str, Path], tmp_path: Path) -> None:
    bids = tmp_path / "bids"
    shutil.copytree(section["bids"], bids)
    one = sorted(bids.iterdir())[0]
    status, out, _ = run("check", str(bids), str(one), "--tender", str(section["tender"]), "--quiet")
    assert status == ExitStatus.SUCCESS, out  # a mistake pointed out, not a file that could not be read
    count = len(list(bids.iterdir()))
    assert (
        f"{count} 份投标文件" in out
        and f"跳过 {one.name}：重复给出：与 {one} 是同一个文件，只读取一次" in out
    )


def test_a_tender_that_cannot_be_read_is_named(section: dict[str, Path], tmp_path: Path) -> None:
    garbage = tmp_path / "招标文件.docx"
    garbage.write_bytes(os.urandom(3000))
    status, out, _ = run("check", str(section["bids"]), "--tender", str(garbage), "--quiet")
    assert status == ExitStatus.SOME_FILES_UNREADABLE
    assert "无法读取 招标文件.docx" in out and "招标文件 招标文件.docx 未能读取：只有两三家照抄" in out
    assert "用 --tender 指定" not in out


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Callable[[int], Path]]:
    """A file system of a given size (tmpfs; skipped where this process may not mount one)."""
    mounted: list[Path] = []

    def make(size: int) -> Path:
        folder = tmp_path / f"disk{len(mounted)}"
        folder.mkdir()
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True
        )
        if done.returncode != 0:
            pytest.skip("a small file system needs mount (root)")
        mounted.append(folder)
        return folder

    yield make
    for folder in mounted:
        subprocess.run(["umount", str(folder)], capture_output=True)


def test_reports_the_disk_cannot_hold_together_are_written_one_by_one(
    section: dict[str, Path], tmp_path: Path, small_disk: Callable[[int], Path]
) -> None:
    """A disk that holds either report but not both: written one after the other (not side by side, where
    both would fail), the workbook is written and the JSON's lack of room is said."""
    argv = ["check", str(section["bids"]), "--tender", str(section["tender"]), "--quiet"]
    sizes = tmp_path / "sizes"
    sizes.mkdir()
    run(*argv, "--json", str(sizes / "r.json"), "--xlsx", str(sizes / "r.xlsx"))
    pages = [-(-(sizes / name).stat().st_size // 4096) for name in ("r.xlsx", "r.json")]
    disk = small_disk((sum(pages) - 1) * 4096)  # either report, not both
    status, out, err = run(*argv, "--json", str(disk / "r.json"), "--xlsx", str(disk / "r.xlsx"))
    assert status == ExitStatus.WRITE_FAILED
    assert load_workbook(disk / "r.xlsx").sheetnames[0] == "概要" and f"Excel 报告：{disk / 'r.xlsx'}" in out
    assert not (disk / "r.json").exists() and f"无法写入 {disk / 'r.json'}" in err


def test_a_very_large_section_is_said_before_it_begins(tmp_path: Path) -> None:
    """Past 200,000 pairs (some 630 bids) the check says up front how many files and pairs it holds."""
    from bidcheck.cli import _say_size
    from bidcheck.pipeline import CheckInputs

    folder = tmp_path / "bids"
    folder.mkdir()
    for n in range(633):
        (folder / f"{n:04d}.txt").write_text(f"投标文件 {n}", encoding="utf-8")
    said = io.StringIO()
    _say_size(CheckInputs((folder,)), said)
    assert (
        said.getvalue()
        == "bidcheck: 本次比对 633 份投标文件、200,028 对，需要较长时间和较多内存；可按 Ctrl+C 取消\n"
    )
    (folder / "0000.txt").unlink()
    said = io.StringIO()
    _say_size(CheckInputs((folder,)), said)
    assert said.getvalue() == ""  # 199,396 pairs
