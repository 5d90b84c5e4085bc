"""The cold check's start as a timeline: from the command's launch to both reading processes at work.

Runs ``bidcheck check`` (an empty cache, as ``bench/scale.py``'s cold check) in a fresh process whose
steps are marked as they happen: Python up, the checker imported, the cache looked up, fingerprinting's
tables loaded (the tokenizer's; the IDF table's, where it is taken beside the reading processes, with
the later stages' imports: "beside the readers"), each reading process's first file begun and ended,
the check done. Each mark shows the
seconds since the launch and the CPU seconds of the process that made it (a reading process counts its
own from its fork), and the CPU seconds of the processes it had seen end by then (e.g. one that made a
table beside it). Nothing of the check is changed: its functions are only wrapped to note the time.
With ``--repeat N`` the check runs N times (each with a fresh cache) and each mark's median is shown.

The section is one ``bench/scale.py`` made (``section-N`` in its ``--folder``).

Usage: .venv/bin/python -m bench.start [--folder /tmp/bidcheck-scale] [--size 100] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.installed import compile_bytecode

ROOT = Path(__file__).resolve().parents[1]

# The check's process: marks each step into the file named by BIDCHECK_MARKS (one JSON line a mark).
_INNER = r"""
import os, time, json, resource
_T0, _FD = float(os.environ["BIDCHECK_T0"]), os.open(os.environ["BIDCHECK_MARKS"], os.O_WRONLY | os.O_APPEND)
def mark(what):
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    line = {"what": what, "pid": os.getpid(), "t": time.time() - _T0, "cpu": time.process_time(),
            "ended": used.ru_utime + used.ru_stime}
    os.write(_FD, (json.dumps(line) + "\n").encode())
mark("python up")
import functools, sys
import bidcheck.cli
mark("command line imported")
import bidcheck.pipeline as p
import bidcheck.reading as r
mark("checker imported")
def marked(fn, before, after, once=False):
    seen = set()
    @functools.wraps(fn)
    def run(*args, **kwargs):
        first = os.getpid() not in seen
        seen.add(os.getpid())
        if first or not once:
            mark(before)
        value = fn(*args, **kwargs)
        if first or not once:
            mark(after)
        return value
    return run
r._cached_jobs = marked(r._cached_jobs, "cache lookups begun", "cache lookups done", once=True)
r.share_tables = marked(r.share_tables, "tables begun", "tables loaded", once=True)
# the IDF table taken and the later stages imported as the readers begin
r._beside_readers = marked(r._beside_readers, "beside the readers begun", "beside the readers done", True)
r.read_job = marked(r.read_job, "first file begun", "first file done", once=True)
p.check = marked(p.check, "check begun", "check done", once=True)
code = bidcheck.cli.main(sys.argv[1:])
mark("reports written")
sys.exit(int(code))
"""


def run_once(section: Path, workers: int) -> list[dict[str, float | str | int]]:
    """One cold check of ``section``'s bids (tender given, reports written): its marks."""
    with tempfile.TemporaryDirectory(prefix="bidcheck-start-") as temp:
        marks, out = Path(temp) / "marks.jsonl", Path(temp)
        marks.touch()
        cmd = [sys.executable, "-c", _INNER, "check", str(section / "bids")]
        cmd += ["--tender", str(section / "tender" / "招标文件.docx"), "--quiet", "--workers", str(workers)]
        cmd += ["--json", str(out / "r.json"), "--xlsx", str(out / "r.xlsx")]
        env = {**os.environ, "BIDCHECK_CACHE_DIR": str(Path(temp) / "cache"), "BIDCHECK_MARKS": str(marks)}
        env["BIDCHECK_T0"] = repr(time.time())
        done = subprocess.run(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        found = [json.loads(line) for line in marks.read_text().splitlines()]
        if done.returncode not in (0, 1) or not any(m["what"] == "reports written" for m in found):
            # 1 is the check's own "pairs raised"; a function the marks wrap, renamed, fails here too
            raise RuntimeError(f"the check failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
        return found


def _named(marks: list[dict[str, float | str | int]]) -> dict[str, tuple[float, float, float]]:
    """Each mark by name, a reading process's marks named by its order (first, second …)."""
    main = marks[0]["pid"]
    order = {pid: n for n, pid in enumerate(dict.fromkeys(m["pid"] for m in marks if m["pid"] != main))}
    named: dict[str, tuple[float, float, float]] = {}
    for m in marks:
        who = "check" if m["pid"] == main else f"reader {order[m['pid']] + 1}"
        named.setdefault(f"{who}: {m['what']}", (float(m["t"]), float(m["cpu"]), float(m["ended"])))
    return named


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--folder", type=Path, default=Path("/tmp/bidcheck-scale"))
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    section = args.folder / f"section-{args.size}"
    compiled = compile_bytecode()
    runs = [_named(run_once(section, args.workers)) for _ in range(args.repeat)]
    print(f"$ {' '.join([Path(sys.executable).name, '-m', 'bench.start', *sys.argv[1:]])}")
    print(f"cold check of {args.size} bids, {args.workers} reading processes, median of {len(runs)} runs")
    print(compiled)
    print(f"{'mark':<34}{'s':>8}{'CPU s':>8}{'ended children CPU s':>22}")
    names = sorted(
        {n for run in runs for n in run}, key=lambda n: statistics.median(r[n][0] for r in runs if n in r)
    )
    for name in names:
        seen = [run[name] for run in runs if name in run]
        wall, cpu, ended = (statistics.median(s[i] for s in seen) for i in range(3))
        print(f"{name:<34}{wall:>8.2f}{cpu:>8.2f}{ended:>22.2f}")


if __name__ == "__main__":
    main()
