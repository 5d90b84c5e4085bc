"""Help > About: the version and the licences of the parts bidcheck runs on; a saved check opened by name."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from bidcheck import __version__
from bidcheck.gui.app import open_paths
from bidcheck.gui.window import MainWindow
from tests.gui.conftest import new_window


def test_about_names_the_version_and_the_licences(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    window.menu_actions["about"].trigger()
    box = window.findChild(QMessageBox)
    assert box is not None
    qtbot.waitUntil(box.isVisible)
    text = box.text()
    assert f"bidcheck {__version__}" in text
    for line in ("PySide6_Essentials 6.", "onnxruntime 1.", "rapidocr 3."):
        assert line in text
    assert "Qt 6." in text and "LGPL-3.0-only" in text
    assert "PP-OCR models (PaddleOCR, inside rapidocr) v6 — Apache-2.0" in text
    assert box.grab().save(str(tmp_path / "about.png"))
    box.close()


def test_a_saved_check_given_by_name_is_opened(checked: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    path = tmp_path / "第三标段.bidcheck"
    with qtbot.waitSignal(checked.file_written, timeout=30_000):
        checked.save_check(path)
    reopened = new_window(tmp_path / "other.ini")
    try:
        with qtbot.waitSignal(reopened.result_shown, timeout=30_000):
            open_paths(reopened, [path])
        assert reopened.check_path == path
        assert reopened.result is not None and checked.result is not None
        assert reopened.result.pairs == checked.result.pairs
        assert [f.path for f in reopened.files.files()] == [f.path for f in checked.files.files()]
    finally:
        reopened.close()
        QApplication.processEvents()
