"""Starting the desktop app: ``bidcheck gui [PATH...] [--tender F]... [--template F]... [--screenshot PNG]``.

With ``--screenshot`` the app loads the paths, runs the check, selects the top pair with its evidence,
saves the window as a PNG and exits (0 when the picture was written).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QLibraryInfo, QTimer, QTranslator
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from . import prefs
from .i18n import set_language
from .store import CHECK_SUFFIX, SavedCheck
from .window import MainWindow

__all__ = ["launch", "open_paths", "open_window", "windows"]

SCREENSHOT_SIZE = (1600, 1000)
ICON = Path(__file__).resolve().parents[2] / "resources" / "icons" / "bidcheck.svg"  # also in the bundle
_windows: list[MainWindow] = []  # the open windows (a language switch replaces one)


def application() -> QApplication:
    """The one QApplication (created on first use)."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    app = QApplication([sys.argv[0] if sys.argv else "bidcheck"])
    app.setOrganizationName("bidcheck")
    app.setApplicationName("bidcheck")
    app.setApplicationDisplayName("bidcheck")
    app.setDesktopFileName("bidcheck")  # the launcher entry (installer/linux) the desktop shows it under
    app.setWindowIcon(QIcon(str(ICON)))
    return app


_QT_WORDS: list[QTranslator] = []  # Qt's own words (file dialogs, standard buttons) in the language


def qt_language(code: str) -> bool:
    """Qt's own dialogs and buttons (the file dialogs, OK and Cancel) in the interface's language:
    Qt's translation of its base module for Chinese, none for English; whether one was loaded."""
    app = application()
    for old in _QT_WORDS:
        app.removeTranslator(old)
    _QT_WORDS.clear()
    if code != "zh":
        return False
    words = QTranslator(app)
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if not words.load("qtbase_zh_CN", folder):
        return False
    app.installTranslator(words)
    _QT_WORDS.append(words)
    return True


def windows() -> list[MainWindow]:
    """The open main windows, oldest first."""
    return list(_windows)


def open_window(store_path: Path | None = None, saved: SavedCheck | None = None) -> MainWindow:
    """A main window using the settings store at ``store_path`` (the user's own when None)."""
    store = prefs.open_store(store_path)
    set_language(prefs.language(store))
    qt_language(prefs.language(store))
    window = MainWindow(store, saved)
    window.language_changed.connect(lambda _code, w=window: _rebuild(w, store_path))
    _windows.append(window)
    return window


def _rebuild(old: MainWindow, store_path: Path | None) -> MainWindow:
    """The same check in a new window, in the newly chosen language."""
    new = open_window(store_path, old.snapshot())
    new.check_path = old.check_path
    new.setGeometry(old.geometry())
    new.show()
    old.ask_to_save = lambda: "discard"  # the check goes on in the new window
    old.close()
    _windows.remove(old)
    old.deleteLater()
    return new


def launch(
    paths: Sequence[Path] = (),
    tenders: Sequence[Path] = (),
    templates: Sequence[Path] = (),
    screenshot: Path | None = None,
    language: str | None = None,
    store_path: Path | None = None,
) -> int:
    """Open the app with a section's files; returns the exit code."""
    app = application()
    if language:
        prefs.set_language(prefs.open_store(store_path), language)
    window = open_window(store_path)
    open_paths(window, paths, tenders, templates)
    if screenshot is not None:
        return take_screenshot(app, window, screenshot)
    window.show()
    return app.exec()


def open_paths(
    window: MainWindow, paths: Sequence[Path], tenders: Sequence[Path] = (), templates: Sequence[Path] = ()
) -> None:
    """Open a saved check (a ``.bidcheck`` file, as a double-click on one passes it), else add the files."""
    if len(paths) == 1 and paths[0].suffix.lower() == CHECK_SUFFIX and not tenders and not templates:
        window.open_check(paths[0])
        return
    window.add_paths(list(paths))
    window.add_paths(list(tenders), "tender")
    window.add_paths(list(templates), "template")


def take_screenshot(app: QApplication, window: MainWindow, path: Path) -> int:
    """Run the check, show the top pair's evidence, save the window to ``path``; 0 when saved."""
    if not window.inputs().bids:
        sys.stderr.write("bidcheck: 没有可检查的投标文件\n")
        return 1
    outcome = {"code": 1}

    def shoot() -> None:
        app.processEvents()
        path.parent.mkdir(parents=True, exist_ok=True)
        outcome["code"] = 0 if window.grab().save(str(path)) else 1
        app.quit()

    window.ask_to_save = lambda: "discard"  # a screenshot's check is never the user's to save
    window.library_switch.blockSignals(True)  # a screenshot stores nothing in the user's library, and
    window.library_switch.setChecked(False)  # leaves the remembered switch as it was
    window.library_switch.blockSignals(False)
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    window.result_shown.connect(lambda: QTimer.singleShot(300, shoot))
    window.task_failed.connect(lambda message: (sys.stderr.write(f"bidcheck: {message}\n"), app.quit()))
    window.check_cancelled.connect(app.quit)
    QTimer.singleShot(0, window.run_check)
    app.exec()
    window.close()
    return outcome["code"]
