"""GUI tests run offscreen (no display needed) and never touch the user's own settings."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before pytest-qt creates the QApplication
# the app's library is on by default: its default place is a scratch folder here, never the user's
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="bidcheck-gui-data-")

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from bidcheck.gui import prefs
from bidcheck.gui.doc_pane import DocPane
from bidcheck.gui.i18n import set_language
from bidcheck.gui.style import CURRENT_BG
from bidcheck.gui.window import MainWindow

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"
TENDER = SAMPLE / "tender" / "招标文件.docx"


def wait_until(predicate: Callable[[], bool], timeout_s: float = 60.0) -> None:
    """Run the event loop until ``predicate()`` holds (module-scoped fixtures have no qtbot)."""
    loop = QEventLoop()
    timer = QTimer()
    timer.timeout.connect(lambda: loop.quit() if predicate() else None)
    timer.start(20)
    deadline = QTimer()
    deadline.setSingleShot(True)
    deadline.timeout.connect(loop.quit)
    deadline.start(int(timeout_s * 1000))
    if not predicate():
        loop.exec()
    timer.stop()
    assert predicate(), f"not done within {timeout_s} s"


def new_window(store: Path, library: bool = False) -> MainWindow:
    """A shown main window with its own settings file, in Chinese; without the library unless asked
    (a check then reads and writes the default library)."""
    set_language("zh")
    settings = prefs.open_store(store)
    if not library:
        prefs.set_library_enabled(settings, False)
    window = MainWindow(settings)
    window.ask_to_save = lambda: "discard"  # a test's window closes without asking (tests of it ask)
    window.resize(1600, 1000)
    window.show()
    return window


def checked_window(store: Path, paths: list[Path]) -> Iterator[MainWindow]:
    """A window that has checked ``paths`` and shows its top pair, laid out; closed when done with."""
    window = new_window(store)
    window.add_paths(paths)
    shown: list[bool] = []
    window.result_shown.connect(lambda: shown.append(True))
    window.run_check()
    wait_until(lambda: bool(shown) and not window.busy)
    settle()
    yield window
    window.close()
    window.deleteLater()


def settle() -> None:
    """Let the event loop lay the window out (labels and scroll bars change size after a selection)."""
    for _ in range(3):
        QApplication.processEvents()


@pytest.fixture(scope="module")
def checked(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MainWindow]:
    """A window that has checked the sample section (one check, shared by a module's tests)."""
    yield from checked_window(tmp_path_factory.mktemp("store") / "bidcheck.ini", [SAMPLE / "bids", TENDER])


@pytest.fixture()
def window(qtbot: object, tmp_path: Path) -> Iterator[MainWindow]:
    """A fresh, empty window."""
    win = new_window(tmp_path / "bidcheck.ini")
    yield win
    win.close()
    win.deleteLater()


def assert_at_top(pane: DocPane, start: int) -> None:
    """The passage starting at ``start`` is painted blue and its first character is near the pane's top."""
    view = pane.view
    cursor = QTextCursor(view.document())
    cursor.setPosition(start)
    where, seen = view.cursorRect(cursor), view.viewport().rect()
    assert seen.contains(where.center()), (
        f"{pane.title.text()}: the passage is at y={where.top()}, not in view"
    )
    assert where.top() < seen.height() / 3, f"{pane.title.text()}: the passage is at y={where.top()}, low"
    blue = [s for s in view.extraSelections() if s.format.background().color() == CURRENT_BG]
    assert [s.cursor.selectionStart() for s in blue][:1] == [start]
