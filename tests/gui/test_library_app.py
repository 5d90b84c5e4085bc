"""The app with a library (the setting ``library_path``): each check is compared with the library's
earlier sections and then stored there."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from bidcheck.gui.window import MainWindow
from bidcheck.library import open_library
from tests.gui.conftest import SAMPLE


def test_a_check_in_the_app_is_stored_in_the_library(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    library = tmp_path / "library.sqlite"
    window.settings = window.settings.with_changes(library_path=str(library))
    window.add_paths([SAMPLE / "bids"])
    for _ in range(2):
        with qtbot.waitSignal(window.result_shown, timeout=60_000):
            window.run_check()
        qtbot.waitUntil(lambda: not window.busy)
    result = window.result
    assert result is not None and result.library is not None
    assert result.library.sections == 0  # the same section checked again is compared with the others only
    assert not result.library.error
    opened = open_library(library)
    try:
        assert [row.name for row in opened.sections()] == ["bids"]
    finally:
        opened.close()
