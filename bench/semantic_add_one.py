"""The semantic stage when a bid is added: its wall and CPU seconds in a cold check of a section, and in
the app's check after the last bid is added to the others (checked before in the same process, as the
window does: ``bench/app_add_one.py``), each case in a fresh process with an empty cache of its own.

The stage's CPU seconds are this process's (every thread: the encoder's load, when it is still
loading, counts) between the progress bar reaching the stage's slice and leaving it (the reading
workers have ended by then); its wall seconds are the check's ``timings["semantic"]``. ``check cpu``
is the whole check's (this process and its workers), the model's load included wherever it ran. Sections are
``bench.scale``'s (generated into ``--folder`` when missing). Each size and case runs ``--repeat``
times, the cases in turn; the medians are printed, with the single runs.

Usage: .venv/bin/python -m bench.semantic_add_one [--sizes 10 30] [--folder DIR] [--repeat 3]
       [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.corpus import generate_section
from bench.grammar import lexicon_paragraph

ROOT = Path(__file__).resolve().parents[1]
_STAGE = (0.9, 0.94)  # the semantic stage's slice of the progress bar (``pipeline._STAGES``)


class _StageClock:
    """A progress callback that notes the process's CPU time as the bar enters and leaves a slice."""

    def __init__(self) -> None:
        self.entered: float | None = None
        self.left: float | None = None

    def __call__(self, fraction: float, _message: str) -> None:
        if self.entered is None and fraction >= _STAGE[0]:
            self.entered = time.process_time()
        if self.left is None and fraction >= _STAGE[1]:
            self.left = time.process_time()

    def cpu(self) -> float:
        """CPU seconds spent in the slice."""
        assert self.entered is not None and self.left is not None
        return self.left - self.entered


def _one_case(section: Path, case: str, workers: int) -> dict[str, float]:
    """In this process: the case's last check's semantic stage (wall, CPU seconds, and what it did)."""
    from bidcheck.config import Settings
    from bidcheck.pipeline import CheckInputs, ReadMemo, check

    settings = Settings(workers=workers)
    bids = sorted((section / "bids").iterdir())
    tenders = (section / "tender" / "招标文件.docx",)
    memo = ReadMemo()
    if case == "add":
        check(CheckInputs(tuple(bids[:-1]), tenders), settings, memo=memo)
    clock, before = _StageClock(), _cpu()
    result = check(CheckInputs(tuple(bids), tenders), settings, clock, memo=memo)
    semantic = sum(p.semantic for pair in result.pairs for p in pair.passages)
    return {
        "wall": result.timings["semantic"],
        "cpu": clock.cpu(),
        "check_cpu": _cpu() - before,
        "passages": semantic,
    }


def _cpu() -> float:
    """CPU seconds (user + system) of this process and its finished children."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run_case(section: Path, case: str, workers: int) -> dict[str, float]:
    """One case in a fresh process with an empty cache."""
    with tempfile.TemporaryDirectory() as temp:
        env = {**os.environ, "BIDCHECK_CACHE_DIR": str(Path(temp) / "cache")}
        cmd = [sys.executable, "-m", "bench.semantic_add_one", "--case", case, str(section)]
        done = subprocess.run(
            [*cmd, "--workers", str(workers)], env=env, capture_output=True, text=True, cwd=ROOT, check=False
        )
    if done.returncode != 0:
        raise RuntimeError(f"{case} failed: {done.stderr[-2000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 30])
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "bidcheck-scale")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--case", choices=["cold", "add"], help=argparse.SUPPRESS)
    parser.add_argument("section", type=Path, nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(_one_case(args.section, args.case, args.workers)))
        return
    runs: dict[tuple[int, str], list[dict[str, float]]] = {}
    for _ in range(args.repeat):
        for size in args.sizes:
            section = args.folder / f"section-{size}"
            if not (section / "truth.json").exists():
                generate_section(
                    section, size, seed=size, own=(250, 270), prose=lexicon_paragraph, alternate=True
                )
            for case in ("cold", "add"):
                runs.setdefault((size, case), []).append(run_case(section, case, args.workers))
    print(f"command: {Path(sys.executable).name} -m bench.semantic_add_one {' '.join(sys.argv[1:])}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    header = f"{'bids':>5}{'case':>6}{'wall s':>8}{'cpu s':>8}{'check cpu':>11}{'passages':>10}"
    print(f"{header}   runs (wall/cpu/check)")
    for (size, case), got in runs.items():
        wall, cpu, whole = (statistics.median(r[key] for r in got) for key in ("wall", "cpu", "check_cpu"))
        each = "  ".join(f"{r['wall']:.2f}/{r['cpu']:.2f}/{r['check_cpu']:.1f}" for r in got)
        print(
            f"{size:>5}{case:>6}{wall:>8.2f}{cpu:>8.2f}{whole:>11.2f}{int(got[0]['passages']):>10}   {each}"
        )


if __name__ == "__main__":
    main()
