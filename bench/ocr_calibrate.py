"""The recogniser's activation ranges for its convolutions in integers (``bidcheck/ingest/ocr_int8.json``).

Scans dense A4 pages as ``bench/ocr.py`` does (noise of 10 grey levels), at 200 and 150 dpi, but pages
20 to 27 of its text, not the 16 it measures the error rate on; reads them with bidcheck's engine (its
convolutions not rounded), keeps the batches of lines it recognises, runs them through the recogniser in
float32 and writes each convolution's input range (the mean of the batches' lowest and highest), with
the model file's name, size and digest (the ranges are used for that file only). Run it again when
rapidocr ships another recognition model; ``tests/test_ocr_int8.py`` fails until then.

Usage: .venv/bin/python -m bench.ocr_calibrate [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

from bench.ocr import dense_pdf, scan
from bidcheck.ingest import ocr_lines
from bidcheck.ingest.ocr import RapidOcrEngine, bundled_models
from bidcheck.ingest.ocr_int8 import RANGES_FILE, activation_ranges
from bidcheck.ingest.scan import OcrTask, load_task_image
from bidcheck.memo import file_digest

_PAGES = range(20, 28)  # bench/ocr.py measures pages 1 to 16
_DPIS = (200, 150)  # as bidcheck renders a scanned PDF page, and an image file scanned coarser


def line_batches() -> list[np.ndarray]:
    """The batches of line pixels the recogniser reads on the calibration pages."""
    batches: list[np.ndarray] = []
    original = ocr_lines._top1_of_batches

    def kept(top1: ocr_lines._Top1, given: list[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
        batches.extend(batch.copy() for batch in given)
        return original(top1, given)

    with tempfile.TemporaryDirectory() as temp:
        os.environ["BIDCHECK_CACHE_DIR"] = str(Path(temp) / "cache")
        text_pdf, scan_pdf = Path(temp) / "text.pdf", Path(temp) / "scan.pdf"
        dense_pdf(text_pdf, max(_PAGES) + 1)
        engine = RapidOcrEngine(threads=1, int8=False)
        ocr_lines._top1_of_batches = kept  # type: ignore[assignment]
        try:
            for dpi in _DPIS:
                scan(text_pdf, scan_pdf, list(_PAGES), dpi, 10.0)
                for index in range(len(_PAGES)):
                    engine.recognize(load_task_image(OcrTask(str(scan_pdf), "pdf", index, len(_PAGES))))
        finally:
            ocr_lines._top1_of_batches = original
    return batches


def _json(stored: dict[str, object]) -> str:
    """The file's text: one line a key, one line a convolution's range."""
    lines = [
        f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in stored.items() if k != "ranges"
    ]
    ranges = stored["ranges"]
    assert isinstance(ranges, dict)
    inner = ",\n".join(f"    {json.dumps(name)}: {json.dumps(pair)}" for name, pair in ranges.items())
    return "{\n" + ",\n".join(lines) + ',\n  "ranges": {\n' + inner + "\n  }\n}\n"


def main() -> None:
    import openvino as ov  # type: ignore[import-untyped]

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=RANGES_FILE)
    args = parser.parse_args()
    models = bundled_models()
    if models is None:
        sys.exit("rapidocr's models are not installed")
    model_path = models[1]
    batches = line_batches()
    ranges = activation_ranges(ov.Core().read_model(model_path), batches)
    stored = {
        "model": model_path.name,
        "size": model_path.stat().st_size,
        "digest": file_digest(model_path),
        "pages": f"bench/ocr.py's dense A4 text, pages {min(_PAGES)}-{max(_PAGES)}, at {_DPIS} dpi, noise 10",
        "batches": len(batches),
        "ranges": {name: [round(low, 6), round(high, 6)] for name, (low, high) in ranges.items()},
    }
    args.out.write_text(_json(stored), encoding="utf-8")
    print(f"command: .venv/bin/python -m bench.ocr_calibrate {' '.join(sys.argv[1:])}")
    print(f"{len(ranges)} convolutions, {len(batches)} batches of lines: {args.out}")


if __name__ == "__main__":
    main()
