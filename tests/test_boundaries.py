"""The architecture rule: nothing outside bidcheck/gui imports Qt."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "bidcheck"
QT = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "qtpy")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_core_never_imports_qt() -> None:
    core = [p for p in PACKAGE.rglob("*.py") if "gui" not in p.relative_to(PACKAGE).parts]
    assert len(core) > 20
    offenders = {str(p.relative_to(PACKAGE)): _imports(p) & set(QT) for p in core}
    assert {k: v for k, v in offenders.items() if v} == {}
