"""Help > About: the version and the licences of the parts bidcheck runs on."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from bidcheck import __version__
from bidcheck.gui.window import MainWindow


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
