"""Times ``bidcheck check`` on the bundled sample section, as a user runs it (a fresh process each time).

Usage: .venv/bin/python bench/sample_speed.py [--runs N] [--workers N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources" / "sample"


def _command(out: Path, workers: int | None) -> list[str]:
    cmd = [
        sys.executable,
        "-m",
        "bidcheck.cli",
        "check",
        str(SAMPLE / "bids"),
        "--tender",
        str(SAMPLE / "tender" / "招标文件.docx"),
        "--json",
        str(out / "r.json"),
        "--xlsx",
        str(out / "r.xlsx"),
        "--quiet",
    ]
    return cmd + (["--workers", str(workers)] if workers else [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    times = []
    with tempfile.TemporaryDirectory() as temp:
        cmd = _command(Path(temp), args.workers)
        for _ in range(args.runs):
            started = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            times.append(time.perf_counter() - started)
    print(f"command: {' '.join(sys.argv)}")
    print(f"bidcheck check on the sample section (6 bids + tender), {args.runs} runs, whole process:")
    print(f"  min {min(times):.2f} s   median {statistics.median(times):.2f} s   max {max(times):.2f} s")


if __name__ == "__main__":
    main()
