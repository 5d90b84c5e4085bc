"""An OCR worker's start: importing, loading the engine (models compiled into an empty cache), and the
detector's CPU time a page on one thread or on two.

Usage: .venv/bin/python -m bench.ocr_start [--rounds N] [--code DIR ...]

Each --code folder is a checkout of bidcheck (default: this one); in turns, each round, a fresh process
with an empty cache imports the OCR stage and loads the engine (``RapidOcrEngine``: the detector and the
recogniser compiled), as a worker does before its first page; wall and CPU seconds are shown, medians of
the rounds. Then, in this process, bench/ocr.py's first page is given to the detector model compiled on
OpenVINO as bidcheck did before (one stream on every core) and as it does now (a stream on each core,
one thread to each), in turns, and the CPU seconds of a detection are shown (medians) with whether the
probability maps are the same.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

# Run in the fresh process: wall and CPU seconds of the imports, then of loading the engine.
_START = """
import resource, time
def now():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return time.perf_counter(), usage.ru_utime + usage.ru_stime
first = now()
import bidcheck.ingest.ocr_batch
from bidcheck.ingest.ocr import RapidOcrEngine
imported = now()
RapidOcrEngine()._reader.result()
loaded = now()
print(*(b - a for a, b in zip(first, imported)), *(b - a for a, b in zip(imported, loaded)))
"""


def start_times(code: Path) -> list[float]:
    """Wall and CPU seconds of the imports and of loading the engine, in a fresh process."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPATH": str(code), "BIDCHECK_CACHE_DIR": cache}
        run = subprocess.run(
            [sys.executable, "-c", _START], env=env, cwd=code, capture_output=True, text=True, check=True
        )
    return [float(v) for v in run.stdout.split()]


def detector_input() -> np.ndarray:
    """The detector's input for bench/ocr.py's first page, squeezed as bidcheck squeezes it."""
    from PIL import Image

    from bench.ocr import dense_pdf, scan
    from bidcheck.ingest import ocr_detect
    from bidcheck.ingest.scan import OcrTask, load_task_image

    with tempfile.TemporaryDirectory() as temp:
        text_pdf, scan_pdf = Path(temp) / "text.pdf", Path(temp) / "scan.pdf"
        scan(text_pdf, scan_pdf, dense_pdf(text_pdf, 1), 200, 10.0)
        gray = load_task_image(OcrTask(str(scan_pdf), "pdf", 0, 1))
    narrow = np.asarray(gray.resize((round(gray.width * 0.6), gray.height), Image.Resampling.BOX))
    prepared = ocr_detect._page_for_detection(narrow)
    assert prepared is not None
    batch = ocr_detect._model_input(prepared[0], 960)
    assert batch is not None
    return batch


def detector_cpu(rounds: int) -> dict[str, tuple[float, bool]]:
    """CPU seconds of a detection on each configuration (medians), and whether its map is the first's."""
    from bidcheck.ingest.ocr import bundled_models
    from bidcheck.ingest.ocr_lines import compile_model, openvino_core

    models = bundled_models()
    assert models is not None
    cores = str(os.cpu_count() or 1)
    configs: dict[str, dict[str, str]] = {
        "one stream on every core (before)": {},
        "a stream a core, one thread each": {"NUM_STREAMS": cores, "INFERENCE_NUM_THREADS": cores},
    }
    batch = detector_input()
    requests: dict[str, Any] = {}
    maps = []
    for name, config in configs.items():
        core = openvino_core(0)
        requests[name] = compile_model(core, core.read_model(models[0]), config).create_infer_request()
        maps.append(np.array(requests[name].infer([batch])[0]))
    times: dict[str, list[float]] = {name: [] for name in configs}
    for _ in range(rounds):
        for name, request in requests.items():
            started = time.process_time()
            for _ in range(5):
                request.infer([batch])
            times[name].append((time.process_time() - started) / 5)
    return {
        name: (statistics.median(times[name]), np.array_equal(maps[0], found))
        for name, found in zip(configs, maps, strict=True)
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--code", type=Path, nargs="+", default=[ROOT], help="checkouts compared in turns")
    args = parser.parse_args()
    print(f"command: .venv/bin/python -m bench.ocr_start {' '.join(sys.argv[1:])}")
    print(f"load average before: {os.getloadavg()[0]:.1f}; medians of {args.rounds} rounds")
    seen: dict[Path, list[list[float]]] = {code: [] for code in args.code}
    for _ in range(args.rounds):
        for code in args.code:
            seen[code].append(start_times(code))
    print(f"{'code':40} {'imports wall / CPU s':>22} {'engine loaded wall / CPU s':>28}")
    for code, runs in seen.items():
        wall_i, cpu_i, wall_e, cpu_e = (statistics.median(run[k] for run in runs) for k in range(4))
        print(f"{code!s:40} {wall_i:10.2f} / {cpu_i:5.2f}     {wall_e:14.2f} / {cpu_e:5.2f}")
    print("detector, CPU s a detection of a dense A4 page (OpenVINO):")
    for name, (cpu, same) in detector_cpu(args.rounds).items():
        print(f"  {name:36} {cpu:.3f}  {'same map' if same else 'a different map'}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
