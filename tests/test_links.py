"""Links in a section's folder: one to a file inside it is read once, one out of the folder (a system
file) is never read unless given by itself, and dangling links, links to folders and pipes are listed
with why, never dropped unsaid."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from bidcheck.config import Settings
from bidcheck.pipeline import CheckInputs, check

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="POSIX links")


def test_links_out_of_the_folder_are_listed_never_read(section: dict[str, Path], tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "系统文件.txt"
    outside.parent.mkdir()
    outside.write_text("root:x:0:0:root:/root:/bin/bash\n" * 40, encoding="utf-8")
    bids = tmp_path / "bids"
    shutil.copytree(section["bids"], bids)
    first = sorted(bids.iterdir())[0]
    (bids / "passwd.txt").symlink_to(outside)
    (bids / "dangling.docx").symlink_to(bids / "gone.docx")
    (bids / "loop").symlink_to(bids, target_is_directory=True)
    (bids / "again.docx").symlink_to(first)
    bidder = bids / "华东建设"
    bidder.mkdir()
    shutil.copy(first, bidder / "投标文件.docx")
    (bidder / "附件.txt").symlink_to(outside)  # a bidder's folder: the same rule
    os.mkfifo(bids / "pipe.pdf")
    result = check(CheckInputs((bids,), (section["tender"],)), Settings(workers=1))
    names = {Path(d.path).name for d in result.documents}
    assert "passwd.txt" not in names and "系统文件.txt" not in names
    bidder_doc = next(d for d in result.documents if d.name.startswith("华东建设"))
    assert [p.name for p in bidder_doc.parts] == ["投标文件.docx"]
    why = {Path(path).name: reason for path, reason in result.skipped}
    assert why["passwd.txt"].startswith(f"链接指向所给文件夹以外的文件（{outside}）")
    assert why["附件.txt"].startswith("链接指向所给文件夹以外的文件")
    assert why["dangling.docx"] == "链接失效或成环（指向的文件不存在）"
    assert why["loop"].startswith("链接到文件夹")
    assert why["pipe.pdf"] == "不是普通文件（设备或管道）"
    assert why["again.docx"].startswith("重复给出")  # a link inside: the same file, read once


def test_a_link_given_by_itself_is_read(section: dict[str, Path], tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.docx"
    shutil.copy(sorted(section["bids"].iterdir())[0], outside)
    link = tmp_path / "bids" / "01.docx"
    link.parent.mkdir()
    link.symlink_to(outside)
    result = check(CheckInputs((link, sorted(section["bids"].iterdir())[1])), Settings(workers=1))
    assert all(d.ok for d in result.documents) and len(result.bids) == 2
