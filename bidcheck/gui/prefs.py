"""What the app remembers between runs (QSettings): settings, language, recent sections, window size."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QWidget

from bidcheck.config import Settings, SettingsError

__all__ = [
    "language",
    "last_folder",
    "library_enabled",
    "load_settings",
    "recent",
    "remember_recent",
    "restore_geometry",
    "save_geometry",
    "save_settings",
    "set_language",
    "set_last_folder",
    "set_library_enabled",
]

RECENT_LIMIT = 8


def open_store(path: Path | None = None) -> QSettings:
    """The app's settings store: the user's (per platform), or an INI file (tests, portable use)."""
    if path is not None:
        return QSettings(str(path), QSettings.Format.IniFormat)
    return QSettings("bidcheck", "bidcheck")


def load_settings(store: QSettings) -> Settings:
    """The remembered check settings; defaults when none are remembered or they no longer validate."""
    raw = store.value("check/settings", "")
    try:
        return Settings.from_dict(json.loads(str(raw))) if raw else Settings()
    except (ValueError, SettingsError, TypeError):
        return Settings()


def save_settings(store: QSettings, settings: Settings) -> None:
    """Remember the check settings."""
    store.setValue("check/settings", json.dumps(settings.to_dict()))
    store.sync()


def language(store: QSettings) -> str:
    """The remembered interface language (``zh`` by default)."""
    return str(store.value("ui/language", "zh"))


def set_language(store: QSettings, code: str) -> None:
    """Remember the interface language."""
    store.setValue("ui/language", code)
    store.sync()


def library_enabled(store: QSettings) -> bool:
    """Whether checks are compared with the library and stored there (on unless switched off)."""
    return str(store.value("check/library", "true")).lower() == "true"


def set_library_enabled(store: QSettings, on: bool) -> None:
    """Remember the library switch."""
    store.setValue("check/library", "true" if on else "false")
    store.sync()


def recent(store: QSettings) -> list[Path]:
    """Recent sections (folders and saved checks), newest first, those still there."""
    try:
        items = json.loads(str(store.value("recent/sections", "[]")))
    except ValueError:
        items = []
    return [Path(p) for p in items if isinstance(p, str) and Path(p).exists()]


def remember_recent(store: QSettings, path: Path) -> None:
    """Put a folder or saved check first in the recent list."""
    path = path.absolute()
    items = [path] + [p for p in recent(store) if p != path]
    store.setValue("recent/sections", json.dumps([str(p) for p in items[:RECENT_LIMIT]], ensure_ascii=False))
    store.sync()


def last_folder(store: QSettings) -> str:
    """Where the file dialogs open."""
    return str(store.value("ui/last_folder", str(Path.home())))


def set_last_folder(store: QSettings, folder: Path) -> None:
    """Remember where the file dialogs open."""
    store.setValue("ui/last_folder", str(folder))


def save_geometry(store: QSettings, window: QWidget) -> None:
    """Remember the window's size and place."""
    store.setValue("ui/geometry", window.saveGeometry())
    store.sync()


def restore_geometry(store: QSettings, window: QWidget) -> None:
    """Give the window its remembered size, or a size that fits the section's views."""
    geometry = store.value("ui/geometry")
    if isinstance(geometry, QByteArray) and not geometry.isEmpty():
        window.restoreGeometry(geometry)
        return
    screen = window.screen().availableGeometry()
    window.resize(min(1600, int(screen.width() * 0.95)), min(1000, int(screen.height() * 0.92)))
