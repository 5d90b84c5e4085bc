"""The timing benchmarks start the program from compiled bytecode, as an installed one starts."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from bench.installed import ROOT, compile_bytecode


def test_every_module_has_bytecode_as_new_as_its_source_after_compiling() -> None:
    assert "compiled" in compile_bytecode()
    sources = sorted((ROOT / "bidcheck").rglob("*.py"))
    assert len(sources) > 100
    stale = [
        s
        for s in sources
        if not (c := Path(importlib.util.cache_from_source(str(s)))).exists()
        or c.stat().st_mtime < s.stat().st_mtime
    ]
    assert stale == []
