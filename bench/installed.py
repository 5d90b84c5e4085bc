"""The program as a user has it installed: its modules' bytecode compiled.

An installed bidcheck (the installer's frozen program, or a package installed with pip) starts from
compiled bytecode. A checkout has none until Python writes it, and where ``PYTHONDONTWRITEBYTECODE`` is
set (as on some build machines) it never does: every start then compiles all of bidcheck's modules
again, 0.2-0.3 CPU s of a timed check that no user pays. The timing benchmarks compile them first.
"""

from __future__ import annotations

import compileall
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

__all__ = ["compile_bytecode"]


def compile_bytecode() -> str:
    """Compile bidcheck's modules where their bytecode is missing or older than the source; a line
    saying so, for the benchmark's output."""
    if not compileall.compile_dir(str(ROOT / "bidcheck"), quiet=1):
        raise RuntimeError("bidcheck's modules could not be compiled")
    return "bytecode: bidcheck's modules compiled first, as an installed program has them"
