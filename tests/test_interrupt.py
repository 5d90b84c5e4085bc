"""Ctrl-C during a check: exit code 130, a short message, and no half-written report."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.builders import paragraphs

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="Ctrl-C is sent as SIGINT to a POSIX process group"
)

# The CLI as `python -m bidcheck.cli` runs it, with Python's own Ctrl-C handler restored first: a launcher
# (a CI runner, nohup, a shell's background job) may start the test session with SIGINT ignored, and a
# child inherits that; Python then leaves SIGINT ignored and the check could not be interrupted.
_CLI = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('bidcheck.cli', run_name='__main__', alter_sys=True)"
)


def test_interrupt_exits_130_and_leaves_no_report(tmp_path: Path) -> None:
    bids = tmp_path / "bids"
    bids.mkdir()
    for n in range(40):
        (bids / f"{n:02d}.txt").write_text("\n".join(paragraphs(n, 400)), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()  # an output folder must exist (a missing one is refused before the check)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            _CLI,
            "check",
            str(bids),
            "--json",
            str(out / "r.json"),
            "--xlsx",
            str(out / "r.xlsx"),
            "--workers",
            "2",
        ],
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        start_new_session=True,
    )
    assert proc.stderr is not None
    seen = ""
    while "读取" not in seen:
        seen += proc.stderr.read(1)
        assert proc.poll() is None, "the check ended before it could be interrupted"
    time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr[-2000:]
    assert "已中断" in stderr
    assert "Traceback" not in stderr
    assert list(out.iterdir()) == []
