"""The cold check's peak memory, counted two ways: resident pages (RSS) and proportional pages (PSS).

``bench/scale.py``'s 'peak MB' adds up the resident memory of the check's processes. A process forked
from the checking process (a reading, verifying or signals process) shares the checking process's pages
until it writes them, and each such page counts once for every process that maps it: the sum grows with
the number of forked processes alive at once, not with the memory the machine gives them. PSS divides a
shared page among the processes that share it, so the sum is the memory the check holds. Reading PSS
walks each process's page tables (some milliseconds a process), so it is sampled here every half
second, on a check that is not timed.

Runs ``bidcheck check`` as ``bench/scale.py`` does (a fresh process, an empty cache, JSON and Excel
written) on its section of ``--size`` bids; prints both peaks, the load average and the command line.

Usage: .venv/bin/python -m bench.peak_memory [--size 100] [--workers 2] [--folder /tmp/bidcheck-scale]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.installed import compile_bytecode
from bench.scale import ROOT, check_command, process_tree, rss_and_pss, scale_section


def peaks(section: Path, workers: int) -> tuple[int, int]:
    """The peak summed RSS and PSS (MB) of a cold check of ``section`` and its processes."""
    best = [0, 0]
    with tempfile.TemporaryDirectory() as temp:
        env = {**os.environ, "BIDCHECK_CACHE_DIR": str(Path(temp) / "cache")}
        cmd = check_command(section, Path(temp), workers)
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
        while proc.poll() is None:
            sums = [sum(v) for v in zip(*map(rss_and_pss, process_tree(proc.pid)), strict=True)] or [0, 0]
            best = [max(b, s) for b, s in zip(best, sums, strict=True)]
            time.sleep(0.5)
        _, err = proc.communicate()
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"bidcheck check failed ({proc.returncode}): {err.decode()[-2000:]}")
    return best[0] >> 10, best[1] >> 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "bidcheck-scale")
    args = parser.parse_args()
    compiled = compile_bytecode()
    section = scale_section(args.size, args.folder)
    rss, pss = peaks(section, args.workers)
    print(f"cold check of {args.size} bids, {args.workers} workers: peak RSS {rss} MB, peak PSS {pss} MB")
    print(compiled)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"command: {Path(sys.executable).name} -m bench.peak_memory {' '.join(sys.argv[1:])}")


if __name__ == "__main__":
    main()
