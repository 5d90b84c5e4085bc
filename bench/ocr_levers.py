"""OCR levers: CPU seconds a page and error rate of each way of running the OCR models (bench/ocr.py's pages).

Usage: .venv/bin/python -m bench.ocr_levers [--pages N] [--levers NAME ...]

Each lever is bidcheck's engine (``RapidOcrEngine``) with one choice changed: the runtime (onnxruntime or
OpenVINO; OpenVINO in float32, or in its default precision, bfloat16 on a CPU with AMX), the page width
factor before OCR, the detector's image side, the recognition batch (lines read at once), the recogniser's
last layer over every character at every step instead of over the common ones first, the batches as
wide as rapidocr makes them instead of rounded up to fewer widths, the recogniser's convolutions in 8-bit
integers or not (bidcheck's choice: on a CPU without AMX, see ``bidcheck/ingest/ocr_int8.py``; the levers
that do not name it take bidcheck's choice, but for "openvino f32", which is the model as shipped in
float32). The engine runs
with one thread, as in an OCR worker, on the same dense scanned A4 pages; the figures are CPU seconds a
page (detection and recognition apart; start-up excluded: one page is read first), the character error
rate of compared text as bench/ocr.py counts it, and what the CPU time means on idle cores (cores / CPU
seconds a page). CPU time is used, not wall time, so that a loaded machine moves the figures less; the
levers take turns, --rounds times, and the median of each lever's rounds is shown, so that a burst of
load elsewhere falls on all of them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PIL import Image

from bench.ocr import dense_pdf, error_rates, page_texts, scan
from bidcheck.ingest import read_document
from bidcheck.ingest.ocr import RapidOcrEngine
from bidcheck.ingest.ocr_detect import TextDetector
from bidcheck.ingest.ocr_lines import LineRecognizer
from bidcheck.ingest.scan import OcrTask, blocks_from_lines, load_task_image
from bidcheck.model import Block, Document


@dataclass(frozen=True)
class Lever:
    """One way of running the engine (``None``: bidcheck's choice)."""

    runtime: str
    squeeze: float | None = None
    precision: str | None = None  # OpenVINO's inference precision hint ("f32"), else its default
    side: int | None = None  # the longest side the detector sees (None: bidcheck's choice)
    batch: int | None = None  # lines recognised at once (None: bidcheck's choice)
    shortlist: bool = True  # OpenVINO: the recogniser's last layer over the common characters first
    width_step: int | None = None  # batch widths rounded up to a multiple (None: bidcheck's; 1: rapidocr's)
    int8: bool | None = None  # OpenVINO: the recogniser's convolutions in integers (None: where it pays)


LEVERS = {
    "onnxruntime, squeeze 0.5": Lever("onnxruntime"),
    "onnxruntime, det side 736": Lever("onnxruntime", side=736),
    "openvino f32, squeeze 0.6": Lever("openvino", 0.6, "f32", int8=False),
    "openvino default, squeeze 0.5": Lever("openvino", 0.5),
    "openvino default, squeeze 0.6 (bidcheck)": Lever("openvino", 0.6),
    "openvino default, squeeze 0.6, whole last layer": Lever("openvino", 0.6, shortlist=False),
    "openvino default, squeeze 0.6, rapidocr's batch widths": Lever("openvino", 0.6, width_step=1),
    "openvino default, squeeze 0.6, rec batch 1": Lever("openvino", 0.6, batch=1),
    "openvino default, squeeze 0.6, rec batch 12": Lever("openvino", 0.6, batch=12),
    "openvino default, squeeze 0.6, det side 736": Lever("openvino", 0.6, side=736),
    "openvino default, squeeze 0.6, convolutions int8": Lever("openvino", 0.6, int8=True),
    "openvino default, squeeze 0.6, no int8": Lever("openvino", 0.6, int8=False),
    "openvino f32, squeeze 0.6, convolutions int8": Lever("openvino", 0.6, "f32", int8=True),
}

_SPENT: dict[str, float] = {}


def _timed(cls: type, key: str) -> None:
    """Add the CPU time of every call of ``cls`` (the detector or the recogniser) to ``_SPENT[key]``."""
    call: Callable[..., Any] = cls.__call__  # type: ignore[operator]

    def timed(self: object, *args: object, **kwargs: object) -> object:
        started = time.process_time()
        try:
            return call(self, *args, **kwargs)
        finally:
            _SPENT[key] = _SPENT.get(key, 0.0) + time.process_time() - started

    cls.__call__ = timed  # type: ignore[operator]


def engine_for(lever: Lever, first: Image.Image) -> RapidOcrEngine:
    """The engine of a lever, its models loaded and its runtime warmed up on one page."""
    engine = RapidOcrEngine(
        1,
        lever.runtime,
        lever.squeeze,
        lever.side,
        lever.batch,
        lever.precision,
        lever.shortlist,
        lever.width_step,
        lever.int8,
    )
    engine.recognize(first)
    return engine


def run(engine: RapidOcrEngine, images: list[Image.Image]) -> tuple[list[Block], tuple[float, ...]]:
    """The blocks of the pages, and CPU seconds a page: in all, detecting, recognising."""
    _SPENT.clear()
    started = time.process_time()
    blocks: list[Block] = []
    for number, image in enumerate(images, start=1):
        blocks += blocks_from_lines(engine.recognize(image), number)
    per_page = (time.process_time() - started) / len(images)
    return blocks, (per_page, *(_SPENT.get(k, 0.0) / len(images) for k in ("det", "rec")))


def line(
    times: list[tuple[float, ...]], blocks: list[Block], template: Document, truth: dict[int, str]
) -> str:
    """One lever's figures: median CPU seconds a page, error rates, pages/s on idle cores."""
    per_page, det, rec = (statistics.median(t[k] for t in times) for k in range(3))
    cer, raw, _ = error_rates(truth, page_texts(replace(template, blocks=tuple(blocks))))
    idle = (os.cpu_count() or 1) / per_page
    return f"{per_page:7.2f} {det:6.2f} {rec:6.2f} {cer:8.2%} {raw:8.2%} {idle:9.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=8)
    parser.add_argument("--levers", nargs="+", choices=sorted(LEVERS), default=list(LEVERS))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    _timed(TextDetector, "det")
    _timed(LineRecognizer, "rec")
    with tempfile.TemporaryDirectory() as temp:
        os.environ["BIDCHECK_CACHE_DIR"] = str(Path(temp) / "cache")
        text_pdf, scan_pdf = Path(temp) / "text.pdf", Path(temp) / "scan.pdf"
        indexes = dense_pdf(text_pdf, args.pages)
        scan(text_pdf, scan_pdf, indexes, 200, 10.0)
        template = read_document(text_pdf, "d1")
        truth_by_index = page_texts(template)
        truth = {n: truth_by_index[i + 1] for n, i in enumerate(indexes, start=1)}
        tasks = [OcrTask(str(scan_pdf), "pdf", i, len(indexes)) for i in range(len(indexes))]
        images = [load_task_image(task) for task in tasks]
    print(f"command: .venv/bin/python -m bench.ocr_levers {' '.join(sys.argv[1:])}")
    print(f"{args.pages} dense A4 pages, 200 dpi, one thread; load average {os.getloadavg()[0]:.1f}")
    engines = {name: engine_for(LEVERS[name], images[0]) for name in args.levers}
    times: dict[str, list[tuple[float, ...]]] = {name: [] for name in args.levers}
    read: dict[str, list[Block]] = {}
    for _ in range(args.rounds):
        for name, engine in engines.items():
            read[name], spent = run(engine, images)
            times[name].append(spent)
    print(f"{'lever':46} {'cpu s/p':>7} {'det':>6} {'rec':>6} {'CER':>8} {'raw CER':>8} {'idle p/s':>9}")
    for name in args.levers:
        print(f"{name:46} {line(times[name], read[name], template, truth)}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
