"""Why an OCR engine's first pages cost more than its later ones: new shapes, or memory touched first.

Usage: .venv/bin/python -m bench.ocr_first [--pages N] [--rounds N] [--steps PIXELS ...]

bench/ocr.py's dense scanned A4 pages are cut into their lines once (bidcheck's detector), and the lines
are put into the recogniser's batches as bidcheck does (sorted by width, six to a batch); each batch's
width is rounded up to a multiple of --steps pixels (1: as bidcheck reads them, a new shape for the
runtime at almost every batch; 32: a third as many shapes). In a fresh process each time, one engine
thread as in bench.ocr_levers, the batches of all pages are recognised twice: the first pass meets every
shape and every buffer for the first time, the second pass none. When fewer shapes make the first pass
cheaper, the first-time cost is the runtime preparing its kernels for each new shape; when they do not,
it is memory taken from the system and touched for the first time (minor page faults; on a virtual
machine each costs more than on bare metal). The steps take turns, --rounds times; CPU seconds a page
and faults a page are shown for each pass.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]


def cut_lines(pages: int, target: Path) -> int:
    """The line images of bench/ocr.py's pages, as bidcheck's detector cuts them, pickled to ``target``."""
    from bench.ocr import dense_pdf, scan
    from bidcheck.ingest.ocr import RapidOcrEngine
    from bidcheck.ingest.scan import OcrTask, load_task_image

    text_pdf, scan_pdf = target.with_suffix(".text.pdf"), target.with_suffix(".scan.pdf")
    scan(text_pdf, scan_pdf, dense_pdf(text_pdf, pages), 200, 10.0)
    engine = RapidOcrEngine(1)
    crops = []
    for index in range(pages):
        gray = load_task_image(OcrTask(str(scan_pdf), "pdf", index, pages)).convert("L")
        squeezed = (round(gray.width * 0.6), gray.height)  # bidcheck's squeeze on OpenVINO
        narrow = gray.resize(squeezed, Image.Resampling.BOX)
        crops.append(engine._detect(np.asarray(narrow))[0])
    target.write_bytes(pickle.dumps(crops))
    return sum(map(len, crops))


def two_passes(lines_file: str, step: int) -> dict[str, float]:
    """In this (fresh) process: the CPU seconds and minor faults a page of two passes over the batches."""
    from bidcheck.ingest.ocr import RapidOcrEngine
    from bidcheck.ingest.ocr_batch import keep_freed_memory
    from bidcheck.ingest.ocr_lines import _BATCH, _HEIGHT, _MIN_RATIO, _batch_pixels

    keep_freed_memory()  # as an OCR worker
    pages = pickle.loads(Path(lines_file).read_bytes())
    top1 = RapidOcrEngine(1)._reader.result()._top1
    batches = []
    for crops in pages:
        ratios = [crop.shape[1] / crop.shape[0] for crop in crops]
        order = np.argsort(np.array(ratios)).tolist()
        chunks = [order[start : start + _BATCH] for start in range(0, len(order), _BATCH)]
        widths = [int(_HEIGHT * max(_MIN_RATIO, *(ratios[i] for i in chunk))) for chunk in chunks]
        batches.append(
            [
                _batch_pixels([crops[i] for i in chunk], -(-w // step) * step)
                for chunk, w in zip(chunks, widths, strict=True)
            ]
        )
    out = {"shapes": float(len({b.shape for page in batches for b in page}))}
    for name in ("first", "second"):
        before = resource.getrusage(resource.RUSAGE_SELF)
        for page in batches:
            top1.many(page)
        after = resource.getrusage(resource.RUSAGE_SELF)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        out[f"{name} cpu"] = cpu / len(batches)
        out[f"{name} sys"] = (after.ru_stime - before.ru_stime) / len(batches)
        out[f"{name} faults"] = (after.ru_minflt - before.ru_minflt) / len(batches)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--steps", type=int, nargs="+", default=[1, 32])
    parser.add_argument("--passes", help=argparse.SUPPRESS)  # in the fresh process: the lines file and step
    args = parser.parse_args()
    if args.passes:
        lines_file, step = args.passes.split(",")
        print(json.dumps(two_passes(lines_file, int(step))))
        return
    with tempfile.TemporaryDirectory() as temp:
        env = {**os.environ, "BIDCHECK_CACHE_DIR": str(Path(temp) / "cache"), "PYTHONPATH": str(ROOT)}
        os.environ.update(env)
        lines_file = Path(temp) / "lines.pickle"
        count = cut_lines(args.pages, lines_file)
        print(f"command: .venv/bin/python -m bench.ocr_first {' '.join(sys.argv[1:])}")
        print(f"{args.pages} dense A4 pages, {count} lines; load average {os.getloadavg()[0]:.1f}")
        print(
            f"{'step':>4} {'shapes':>6} | first pass: {'cpu s/p':>7} {'sys':>5} {'faults/p':>8}"
            f" | second pass: {'cpu s/p':>7} {'sys':>5} {'faults/p':>8}"
        )
        for _ in range(args.rounds):
            for step in args.steps:
                command = [sys.executable, "-m", "bench.ocr_first", "--passes", f"{lines_file},{step}"]
                run = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=True)
                r = json.loads(run.stdout.splitlines()[-1])
                print(
                    f"{step:4d} {r['shapes']:6.0f} |             {r['first cpu']:7.3f} {r['first sys']:5.3f}"
                    f" {r['first faults']:8.0f} |              {r['second cpu']:7.3f} {r['second sys']:5.3f}"
                    f" {r['second faults']:8.0f}"
                )
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
