"""The parts bidcheck runs on and their licences.

The About dialog lists them; the desktop bundle carries their full licence texts in
``THIRD-PARTY-NOTICES.txt``, which ``installer/bidcheck.spec`` writes with :func:`notice_text` from the
distributions it froze. An installed bidcheck lists the distributions it requires, read from their metadata.
"""

from __future__ import annotations

import importlib.metadata as md
import platform
import re
from dataclasses import dataclass
from pathlib import Path

from bidcheck import __version__

__all__ = [
    "NOTICE_FILE",
    "Part",
    "bundled_notice",
    "distribution_part",
    "notice_text",
    "parts",
    "required_distributions",
    "summary",
]

NOTICE_FILE = "THIRD-PARTY-NOTICES.txt"
_HEADING = "Parts:"
_LICENCE_NAMES = re.compile(r"LICEN[CS]E|COPYING|NOTICE", re.IGNORECASE)
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


@dataclass(frozen=True)
class Part:
    """One bundled part: its name, version and licence, with the licence files it ships."""

    name: str
    version: str
    licence: str
    texts: tuple[tuple[str, str], ...] = ()  # (file name, text)

    def line(self) -> str:
        """``name version — licence``."""
        return f"{self.name} {self.version} — {self.licence}"


def _licence(meta: md.PackageMetadata) -> str:
    """The licence a distribution declares: its SPDX expression, a short License field, or classifiers."""
    fields = meta.json
    expression = fields.get("license_expression")
    if isinstance(expression, str) and expression:
        return expression
    field = fields.get("license")
    if isinstance(field, str) and field.strip() and "\n" not in field.strip() and len(field) <= 80:
        return field.strip()
    classifiers = [
        c.split("::")[-1].strip() for c in meta.get_all("Classifier") or [] if c.startswith("License")
    ]
    return ", ".join(classifiers) or "see its licence text"


def _licence_texts(dist: md.Distribution) -> tuple[tuple[str, str], ...]:
    files = [f for f in dist.files or () if _LICENCE_NAMES.search(f.name) and f.suffix != ".py"]
    texts = []
    for file in sorted(files, key=str):
        try:
            texts.append((str(file), Path(str(dist.locate_file(file))).read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue
    return tuple(texts)


def _normalised(name: str) -> str:
    """A distribution's name as the package index compares names (``typing_extensions`` is
    ``typing-extensions``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def distribution_part(name: str) -> Part | None:
    """The part an installed distribution makes; ``None`` when it is not installed."""
    try:
        dist = md.distribution(name)
    except md.PackageNotFoundError:
        return None
    return Part(dist.metadata["Name"], dist.version, _licence(dist.metadata), _licence_texts(dist))


def required_distributions(root: str = "bidcheck") -> list[str]:
    """The installed distributions ``root`` runs on, its requirements' requirements included (extras and
    requirements of other platforms, which are not installed, left out)."""
    seen: dict[str, str] = {}  # normalised name -> name
    todo = [root]
    while todo:
        try:
            requires = md.requires(todo.pop()) or []
        except md.PackageNotFoundError:
            continue
        for requirement in requires:
            match = _NAME.match(requirement)
            if "extra ==" in requirement or match is None:
                continue
            name = match.group(0)
            if _normalised(name) not in seen and distribution_part(name) is not None:
                seen[_normalised(name)] = name
                todo.append(name)
    return sorted(seen.values(), key=str.lower)


def _base_parts() -> list[Part]:
    """What is bundled beside the distributions: Python itself, Qt (inside PySide6) and the OCR models."""
    qt = distribution_part("PySide6-Essentials") or distribution_part("PySide6")
    return [
        Part("Python", platform.python_version(), "PSF-2.0"),
        Part("Qt", qt.version if qt else "6", "LGPL-3.0-only (the Qt libraries inside PySide6)"),
        Part("PP-OCR models (PaddleOCR, inside rapidocr)", "v6", "Apache-2.0"),
    ]


def parts(distributions: list[str] | None = None) -> list[Part]:
    """The parts of ``distributions`` (default: every distribution bidcheck requires), Python, Qt and the
    OCR models first."""
    names = required_distributions() if distributions is None else distributions
    found = {_normalised(name): distribution_part(name) for name in names}
    listed = sorted((part for part in found.values() if part is not None), key=lambda part: part.name.lower())
    return _base_parts() + listed


def notice_text(bundled: list[Part]) -> str:
    """The third-party notice: one line a part, then each part's licence files in full."""
    lines = [f"bidcheck {__version__}: third-party notices", "", _HEADING]
    lines += [f"  {part.line()}" for part in bundled]
    for part in bundled:
        for file, text in part.texts:
            lines += ["", "=" * 78, f"{part.name} {part.version}: {file}", "=" * 78, text.rstrip()]
    return "\n".join(lines) + "\n"


def summary(notice: str) -> list[str]:
    """The one-line-a-part list at the top of a notice written by :func:`notice_text`."""
    lines = notice.splitlines()
    start = lines.index(_HEADING) + 1 if _HEADING in lines else len(lines)
    listed = []
    for line in lines[start:]:
        if not line.startswith("  "):
            break
        listed.append(line.strip())
    return listed


def bundled_notice() -> Path | None:
    """The notice file of the desktop bundle (next to the ``bidcheck`` package); ``None`` elsewhere."""
    path = Path(__file__).resolve().parents[1] / NOTICE_FILE
    return path if path.is_file() else None
