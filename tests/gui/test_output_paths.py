"""Export and save to a place that cannot take the file: a dialog says why, before anything is written."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from bidcheck.gui import prefs
from bidcheck.gui.window import MainWindow


def _refused(window: MainWindow, qtbot: QtBot, write: Callable[[Path], None], path: Path) -> str:
    """Ask the window to write ``path``; it must fail at once with a dialog, and write nothing."""
    with qtbot.waitSignal(window.task_failed, timeout=5_000) as failed:
        write(path)
    boxes = [b for b in window.findChildren(QMessageBox) if b.isVisible()]
    assert [b.text() for b in boxes] == [failed.args[0]]
    for box in boxes:
        box.close()
    assert not window.busy
    return str(failed.args[0])


def test_export_to_a_folder_or_a_missing_folder_is_refused(
    checked: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    message = _refused(checked, qtbot, checked.export_json, tmp_path)
    assert message.startswith(f"没有完成：无法写入 {tmp_path}：这是一个文件夹")
    message = _refused(checked, qtbot, checked.export_xlsx, tmp_path / "missing" / "r.xlsx")
    assert "不存在" in message
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="needs Linux sysfs")
def test_export_to_a_place_no_one_may_write_is_refused(checked: MainWindow, qtbot: QtBot) -> None:
    assert "无法写入" in _refused(checked, qtbot, checked.export_xlsx, Path("/sys/kernel/bidcheck-test.xlsx"))


def test_saving_to_a_missing_folder_keeps_the_check_as_it_was(
    checked: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    before, recent = checked.check_path, prefs.recent(checked.store)
    path = tmp_path / "missing" / "s.bidcheck"
    assert "不存在" in _refused(checked, qtbot, checked.save_check, path)
    assert checked.check_path == before and prefs.recent(checked.store) == recent


@pytest.fixture()
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def test_exported_and_saved_files_get_the_mode_of_a_new_file(
    checked: MainWindow, qtbot: QtBot, tmp_path: Path, umask_022: None
) -> None:
    for write, name in ((checked.export_xlsx, "r.xlsx"), (checked.export_json, "r.json")):
        with qtbot.waitSignal(checked.file_written, timeout=30_000):
            write(tmp_path / name)
    with qtbot.waitSignal(checked.file_written, timeout=30_000):
        checked.save_check(tmp_path / "s.bidcheck")
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()}
    assert modes == {"r.xlsx": 0o644, "r.json": 0o644, "s.bidcheck": 0o644}
