"""The result JSON (``bidcheck.result/1``)."""

from __future__ import annotations

import json
from pathlib import Path

from bidcheck.gcpause import collector_paused
from bidcheck.model import CheckResult, result_to_dict
from bidcheck.report.files import write_atomically

__all__ = ["result_json", "write_json"]


def result_json(result: CheckResult) -> str:
    """The result as JSON text: keys in a fixed order, Chinese kept readable, one document, pair or group
    per line (each line written by the C encoder, which an indented dump would not use)."""
    with collector_paused():
        items = list(result_to_dict(result).items())
    lines = ["{"]
    for n, (key, value) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        if isinstance(value, list) and value:
            rows = ",\n".join(f"  {_compact(v)}" for v in value)
            lines.append(f" {_compact(key)}: [\n{rows}\n ]{comma}")
        else:
            lines.append(f" {_compact(key)}: {_compact(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def write_json(result: CheckResult, path: Path) -> None:
    """Write the result JSON to ``path``."""
    text = result_json(result)

    def write(temp: Path) -> None:
        temp.write_text(text, encoding="utf-8")

    write_atomically(path, write)
