"""Qt's own words (its file dialogs, standard buttons) follow the interface's language."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QDialogButtonBox

from bidcheck.gui import app, prefs


def _cancel() -> str:
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    return box.button(QDialogButtonBox.StandardButton.Cancel).text()


def test_qt_dialogs_speak_the_interface_language(qapp: QApplication, tmp_path: Path) -> None:
    store_path = tmp_path / "bidcheck.ini"
    window = app.open_window(store_path)
    try:
        assert _cancel() == "取消" and QApplication.translate("QFileDialog", "Look in:") == "查找范围："
        prefs.set_language(prefs.open_store(store_path), "en")
        english = app.open_window(store_path)
        try:
            assert _cancel() == "Cancel"
        finally:
            english.close()
    finally:
        window.close()
        app.qt_language("zh")
