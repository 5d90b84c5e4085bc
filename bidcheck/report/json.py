"""The result JSON (``bidcheck.result/1``)."""

from __future__ import annotations

import json
from pathlib import Path

from bidcheck.model import CheckResult, result_to_dict
from bidcheck.report.files import write_atomically

__all__ = ["result_json", "write_json"]


def result_json(result: CheckResult) -> str:
    """The result as JSON text (keys in a fixed order, Chinese kept readable)."""
    return json.dumps(result_to_dict(result), ensure_ascii=False, indent=1)


def write_json(result: CheckResult, path: Path) -> None:
    """Write the result JSON to ``path``."""
    text = result_json(result)

    def write(temp: Path) -> None:
        temp.write_text(text, encoding="utf-8")

    write_atomically(path, write)
