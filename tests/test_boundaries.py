"""The architecture rules: nothing outside bidcheck/gui imports Qt, and each stage imports only the stages
before it. Both are import-linter contracts in pyproject.toml (`make lint` runs `lint-imports`); this
test holds a plain pytest run to them too."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = "import sys, importlinter.cli as cli; sys.exit(cli.lint_imports_command())"  # lint-imports


def test_the_import_contracts_hold() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    qt = [c for c in contracts if c["type"] == "forbidden" and "PySide6" in c["forbidden_modules"]]
    assert qt and qt[0]["source_modules"] == ["bidcheck"]
    layers = next(c["layers"] for c in contracts if c["type"] == "layers")
    assert layers[:2] == ["gui | cli", "session"]  # the two faces side by side on one session
    linted = subprocess.run(
        [sys.executable, "-c", LINT_IMPORTS, "--no-cache"], cwd=ROOT, capture_output=True, text=True
    )
    assert linted.returncode == 0, linted.stdout[-3000:] + linted.stderr[-3000:]
