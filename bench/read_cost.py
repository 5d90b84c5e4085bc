"""What a cold check's read stage costs a file, by format, against the plain-text floor's reading of it.

Every bid of a section (``bench.scale``'s generator: about 42,000 characters a bid, docx and text PDF in
turn) is read in worker processes as the check reads it (``pipeline.read_job``: read, clean, normalise,
fingerprint, write the cache entry, an empty cache), then read again as the floor of ``bench.scale``
reads it (its text with pypdfium2 and python-docx, nothing else). Each task's CPU seconds are taken
inside its worker (``process_time``: every thread of the process, so a BLAS pool spinning beside the
work counts too). Printed: the mean CPU seconds a docx and a PDF bid, each way, the ratio, the load
average and the command line. ``--rounds N`` reads the section N times in turn (check, floor, check,
floor, …) and keeps each file's fastest.

Usage: .venv/bin/python -m bench.read_cost [--bids 100] [--workers 2] [--rounds 2] [--folder DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.scale import _read_plain, scale_section
from bidcheck.config import Settings
from bidcheck.prepare import Pickled
from bidcheck.reading import Job, read_job
from bidcheck.workers import run_tasks


def _check_read(path: Path) -> float:
    """CPU seconds of this process to read one bid as a check's worker does."""
    started = time.process_time()
    outcome = read_job(Job(path, "d1", "bid"), Settings(), True, ())
    if not isinstance(outcome, Pickled) and outcome.ready is None:  # bytes come only of a readable file
        raise RuntimeError(f"{path.name} could not be read: {outcome.doc.error}")
    return time.process_time() - started


def _floor_read(path: Path) -> float:
    """CPU seconds of this process to read one bid's text as the floor does."""
    started = time.process_time()
    _read_plain(path)
    return time.process_time() - started


def _timed(fn: Callable[[Path], float], files: list[Path], workers: int) -> list[float]:
    """Each file's CPU seconds, read by ``fn`` in ``workers`` processes."""
    return [float(v) for v in run_tasks(fn, [(path,) for path in files], workers, lambda i, r: None)]


def measure(files: list[Path], workers: int, rounds: int) -> dict[str, dict[str, float]]:
    """Mean CPU seconds a file of each format (each file's fastest of ``rounds``), checked and floor."""
    best: dict[str, list[float]] = {
        "check": [float("inf")] * len(files),
        "floor": [float("inf")] * len(files),
    }
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as cache:
            os.environ["BIDCHECK_CACHE_DIR"] = cache  # an empty cache: every file is read
            best["check"] = list(map(min, best["check"], _timed(_check_read, files, workers)))
        best["floor"] = list(map(min, best["floor"], _timed(_floor_read, files, workers)))
    return {
        way: {
            suffix: statistics.mean(s for f, s in zip(files, seconds, strict=True) if f.suffix == suffix)
            for suffix in (".docx", ".pdf")
        }
        for way, seconds in best.items()
    }


def section_bids(folder: Path, bids: int) -> list[Path]:
    """The bids of ``bench.scale``'s section of ``bids`` bids under ``folder`` (made when missing)."""
    return sorted((scale_section(bids, folder) / "bids").iterdir())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bids", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "bidcheck-scale")
    args = parser.parse_args()
    figures = measure(section_bids(args.folder, args.bids), args.workers, args.rounds)
    print(f"command: {Path(sys.executable).name} -m bench.read_cost {' '.join(sys.argv[1:])}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print("CPU seconds a bid (user + system of its worker, every thread), each file's fastest of the rounds:")
    print(f"{'':8}{'check':>9}{'floor':>9}{'ratio':>8}")
    for suffix in (".docx", ".pdf"):
        check, floor = figures["check"][suffix], figures["floor"][suffix]
        print(f"{suffix[1:]:8}{check:9.3f}{floor:9.3f}{check / floor:8.2f}")


if __name__ == "__main__":
    main()
