"""Where an OCR worker's time goes: start-up, model loading, the first page, the pages after it.

Usage: .venv/bin/python -m bench.ocr_parts [--pages N] [--rounds N]

bench/ocr.py's dense scanned A4 pages are recognised as the OCR stage's worker does it (one process,
the engine on every core, pages one after the other), each part timed in a fresh process: wall time and
CPU time (user and system apart) of starting Python, importing what a worker imports, loading the
detector and the recogniser (compiling them with an empty cache of compiled models, and loading them
from it), rendering and recognising the first page, and the later pages on average. The rounds alternate
the empty and the filled model cache, and the median of each part is shown, so that load elsewhere on
the machine falls on both.
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

from bench.ocr import dense_pdf, scan

ROOT = Path(__file__).resolve().parents[1]

# Run in the fresh process: each part's wall, user and system seconds, as JSON, one part a line.
_WORKER = """
import json, resource, sys, time
def now():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return time.perf_counter(), usage.ru_utime, usage.ru_stime
last = now()
def part(name):
    global last
    current = now()
    print(json.dumps([name, *(b - a for a, b in zip(last, current))]), flush=True)
    last = current
import bidcheck.ingest.ocr_batch
import openvino
part("imports")
from bidcheck.ingest.ocr import get_engine
from bidcheck.ingest.scan import OcrTask, load_task_image
try:
    from bidcheck.ingest.ocr_batch import keep_freed_memory
    keep_freed_memory()
except ImportError:  # a checkout from before it
    pass
engine = get_engine("rapidocr", 0)
part("detector loaded")
engine._reader.result()
part("recogniser loaded")
pages = int(sys.argv[2])
for index in range(pages):
    image = load_task_image(OcrTask(sys.argv[1], "pdf", index, pages))
    part("render first page" if index == 0 else "render a later page")
    engine.recognize(image)
    part("recognise first page" if index == 0 else "recognise a later page")
"""


def python_start() -> tuple[float, float, float]:
    """Wall, user and system seconds of starting and ending a bare Python."""
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter() - started
    return wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime


def worker_parts(scan_pdf: Path, pages: int, cache: Path) -> dict[str, list[tuple[float, float, float]]]:
    """The parts of one worker's life in a fresh process, with ``cache`` as bidcheck's cache folder."""
    env = {**os.environ, "BIDCHECK_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", _WORKER, str(scan_pdf), str(pages)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    parts: dict[str, list[tuple[float, float, float]]] = {}
    for line in run.stdout.splitlines():
        name, wall, user, system = json.loads(line)
        parts.setdefault(name, []).append((wall, user, system))
    return parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    seen: dict[str, list[tuple[float, float, float]]] = {}
    with tempfile.TemporaryDirectory() as temp:
        text_pdf, scan_pdf = Path(temp) / "text.pdf", Path(temp) / "scan.pdf"
        scan(text_pdf, scan_pdf, dense_pdf(text_pdf, args.pages), 200, 10.0)
        for round_ in range(args.rounds):
            seen.setdefault("python start-up", []).append(python_start())
            for state in ("empty", "filled"):
                cache = Path(temp) / f"cache{round_}"  # empty first, then holding the compiled models
                for name, times in worker_parts(scan_pdf, args.pages, cache).items():
                    per_page = [tuple(sum(t[k] for t in times) / len(times) for k in range(3))]
                    compiled = "compiling" if state == "empty" else "from the model cache"
                    key = f"{name}, {compiled}" if "loaded" in name else name
                    seen.setdefault(key, []).extend(per_page if "later" in name else times)
    print(f"command: .venv/bin/python -m bench.ocr_parts {' '.join(sys.argv[1:])}")
    print(f"{args.pages} dense A4 pages, 200 dpi; load average {os.getloadavg()[0]:.1f}; medians of rounds")
    print(f"{'part':38} {'wall s':>7} {'user s':>7} {'sys s':>7}")
    for name, times in seen.items():
        wall, user, system = (statistics.median(t[k] for t in times) for k in range(3))
        print(f"{name:38} {wall:7.2f} {user:7.2f} {system:7.2f}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
