"""Settings kept in files: a settings file read, and the settings a check was run with that differ from
the defaults (as a result keeps them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bidcheck.config.settings import Settings, SettingsError

__all__ = ["changed_settings", "load_settings"]


def changed_settings(used: dict[str, Any]) -> list[tuple[str, Any]]:
    """The settings of a check (``Settings.to_dict()``, as a result keeps them) whose values differ
    from the defaults, in their order."""
    defaults = Settings().to_dict()
    return [(key, value) for key, value in used.items() if key in defaults and defaults[key] != value]


def load_settings(path: Path) -> Settings:
    """Read settings from a JSON file; missing keys keep their defaults."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SettingsError(f"cannot read settings file {path}: {exc}", rule="file") from exc
    if not isinstance(data, dict):
        raise SettingsError(f"settings file {path} must hold a JSON object", rule="file")
    return Settings.from_dict(data)
