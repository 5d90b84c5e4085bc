"""Compares a result JSON of the sample section with the levels resources/sample/expected.json demands.

``python installer/sample_check.py RESULT.json``: prints each pair whose level is not one the sample allows
and exits 1, or prints how many pairs were right and exits 0. The Windows build runs it on the frozen
app's check; tests/test_frozen.py on the frozen demo.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

EXPECTED = Path(__file__).resolve().parents[1] / "resources" / "sample" / "expected.json"


def expected_levels(spec_path: Path = EXPECTED) -> dict[frozenset[str], list[str]]:
    """The levels each pair of the sample's bids may have."""
    spec = json.loads(spec_path.read_text(encoding="utf-8"))
    bids = spec["bids"]
    levels = {frozenset((a, b)): [spec["default_level"]] for i, a in enumerate(bids) for b in bids[i + 1 :]}
    for pair in spec["pairs"]:
        level = pair["level"]
        levels[frozenset((pair["a"], pair["b"]))] = level if isinstance(level, list) else [level]
    return levels


def _named(pair: frozenset[str]) -> str:
    return " ↔ ".join(sorted(pair))


def wrong_levels(result: dict[str, Any]) -> list[str]:
    """The pairs of ``result`` whose level the sample does not allow (and pairs missing or extra)."""
    names = {d["id"]: d["name"] for d in result["documents"]}
    got = {frozenset((names[p["a"]], names[p["b"]])): p["level"] for p in result["pairs"]}
    allowed = expected_levels()
    wrong = [f"{_named(k)}: {got.get(k)} (expected {v})" for k, v in allowed.items() if got.get(k) not in v]
    return wrong + [f"{_named(k)}: not a pair of the sample" for k in got.keys() - allowed.keys()]


def main(argv: list[str]) -> int:
    result = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    wrong = wrong_levels(result)
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    print("\n".join(wrong) if wrong else f"all {len(result['pairs'])} pairs of the sample as expected")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
