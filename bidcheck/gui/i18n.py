"""The interface language: Chinese by default, English from a table (no Qt here).

The UI's own strings are written in Chinese and passed through ``tr``; in English they come from
``ENGLISH``. What the core says (file errors, a pair's reason, the stage of a running check, level names
in the reports) stays Chinese in both: the reports an evaluation panel files are Chinese documents.
A test checks that every string the GUI passes to ``tr`` has an English entry.
"""

from __future__ import annotations

from .strings import ENGLISH

__all__ = ["LANGUAGES", "language", "set_language", "tr"]

LANGUAGES = {"zh": "中文", "en": "English"}
_current = {"language": "zh"}


def set_language(code: str) -> None:
    """Switch the interface language (``zh`` or ``en``); unknown codes fall back to Chinese."""
    _current["language"] = code if code in LANGUAGES else "zh"


def language() -> str:
    """The interface language code."""
    return _current["language"]


def tr(text: str) -> str:
    """The interface string ``text`` (Chinese) in the current language."""
    if _current["language"] == "en":
        return ENGLISH.get(text, text)
    return text
