"""Closing a window with a check not saved asks first (Ctrl+Q, the close button): save, discard or stay;
and a result whose files changed since says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from bidcheck.gui.store import load_check
from bidcheck.gui.window import MainWindow
from bidcheck.review import Review
from tests.gui.conftest import SAMPLE, TENDER, new_window


def _checked(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    window = new_window(tmp_path / "bidcheck.ini")
    window.add_paths([SAMPLE / "bids", TENDER])
    with qtbot.waitSignal(window.result_shown, timeout=60_000):
        window.run_check()
    qtbot.waitUntil(lambda: not window.busy)
    return window


def test_closing_an_unsaved_check_asks_and_can_stay_or_save(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = _checked(qtbot, tmp_path)
    asked: list[str] = []
    try:
        assert window.unsaved()
        window.ask_to_save = lambda: asked.append("cancel") or "cancel"
        assert not window.close() and window.isVisible()  # stayed: nothing lost
        saved = tmp_path / "标段.bidcheck"
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(saved), ""))
        window.ask_to_save = lambda: asked.append("save") or "save"
        assert window.close() and not window.isVisible()
        assert asked == ["cancel", "save"] and load_check(saved).result is not None
    finally:
        window.ask_to_save = lambda: "discard"
        window.close()


def test_a_saved_check_closes_without_asking_until_a_mark_changes(qtbot: QtBot, tmp_path: Path) -> None:
    window = _checked(qtbot, tmp_path)
    try:
        with qtbot.waitSignal(window.file_written, timeout=30_000):
            window.save_check(tmp_path / "标段.bidcheck")
        assert not window.unsaved()
        window.set_review("a\0b", Review("confirmed", "heard"))
        assert window.unsaved()  # a mark made since the save
    finally:
        window.ask_to_save = lambda: "discard"
        window.close()


def test_a_result_whose_files_changed_says_so(qtbot: QtBot, tmp_path: Path) -> None:
    window = _checked(qtbot, tmp_path)
    try:
        assert not window.stale_note.isVisible()
        window.files.set_role(0, "template")  # a bid marked a template after the check
        assert window.stale_note.isVisible()
        assert window.stale_note.text() == "标段文件已改动：下面是改动前的结果，请重新检查。"
        window.files.set_role(0, "bid")  # as it was: the result is of these files again
        assert not window.stale_note.isVisible()
        window.files.set_role(0, "template")
        with qtbot.waitSignal(window.result_shown, timeout=60_000):
            window.run_check()
        assert not window.stale_note.isVisible()
    finally:
        window.ask_to_save = lambda: "discard"
        window.close()


def test_a_very_large_check_is_asked_about_first(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past 200,000 pairs the app says how many and asks before it begins; no: nothing starts."""
    from PySide6.QtWidgets import QMessageBox

    folder = tmp_path / "bids"
    folder.mkdir()
    for n in range(633):
        (folder / f"{n:04d}.txt").write_text(f"投标文件 {n}", encoding="utf-8")
    window = new_window(tmp_path / "bidcheck.ini")
    asked: list[str] = []

    def answer(_parent: object, _title: str, text: str, *_rest: object) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", answer)
    try:
        window.add_paths([folder])
        window.run_check()
        assert asked == ["本次比对 633 份投标文件、200,028 对，需要较长时间和较多内存。继续吗？"]
        assert not window.busy and window.result is None
    finally:
        window.close()
