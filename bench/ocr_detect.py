"""bidcheck's text detector (numpy, no OpenCV) against rapidocr's own (OpenCV), on bench/ocr.py's pages.

Usage: .venv/bin/python -m bench.ocr_detect [--pages N] [--runtime openvino|onnxruntime]

Both detect the lines of the same squeezed page images (bidcheck's settings: the detector sees at most
960 pixels a side, pages over 2,400 pixels are scaled down); the lines each cut out are read by the same
recogniser (bidcheck's). Printed: lines found by each, lines whose boxes match one to one (in order) and
how far (intersection over union of the boxes on the page, and the largest corner's distance), lines
read to the same text, the crops' pixels that differ, and CPU seconds of detection a page (cutting the
lines out included). Then, to see whether OpenCV's bilinear resize of a line to the recogniser's height
matters, the same crops are read once more scaled by Pillow (bilinear, which averages when it shrinks).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image

from bench.ocr import dense_pdf, scan
from bidcheck.ingest import ocr_lines
from bidcheck.ingest.ocr import _DET_SIDE, _MAX_SIDE, _SQUEEZE, bundled_models
from bidcheck.ingest.ocr_detect import TextDetector
from bidcheck.ingest.ocr_lines import LineRecognizer, line_recognizer
from bidcheck.ingest.scan import OcrTask, load_task_image

Quad = npt.NDArray[np.float32]


def rapid_detector(runtime: str) -> object:
    """rapidocr's pipeline with bidcheck's former settings, detection only."""
    from rapidocr import RapidOCR
    from rapidocr.utils.typings import EngineType

    models = bundled_models()
    assert models is not None
    engine = EngineType.OPENVINO if runtime == "openvino" else EngineType.ONNXRUNTIME
    return RapidOCR(
        params={
            "Global.log_level": "critical",
            "Global.use_cls": False,
            "Global.use_rec": False,
            "Global.max_side_len": _MAX_SIDE,
            "Det.limit_type": "max",
            "Det.limit_side_len": _DET_SIDE,
            "Det.engine_type": engine,
            "Det.model_path": str(models[0]),
            "EngineConfig.openvino.inference_num_threads": 1,
            "EngineConfig.onnxruntime.intra_op_num_threads": 1,
        }
    )


def rapid_lines(ocr: object, gray: npt.NDArray[np.uint8]) -> tuple[list[npt.NDArray[np.uint8]], list[Quad]]:
    """rapidocr's crops (grey) and boxes on the page."""
    from rapidocr.utils.process_img import map_boxes_to_original

    rgb = np.ascontiguousarray(np.repeat(gray[:, :, None], 3, axis=2))
    image, steps = ocr.preprocess_img(rgb)  # type: ignore[attr-defined]
    crops, found = ocr.detect_and_crop(image, steps)  # type: ignore[attr-defined]
    boxes = map_boxes_to_original(found.boxes, steps, *gray.shape)
    return [np.ascontiguousarray(c[:, :, 0]) for c in crops], list(boxes)


def iou(a: Quad, b: Quad) -> float:
    """Intersection over union of the two boxes' upright bounds."""
    ax0, ay0, ax1, ay1 = a[:, 0].min(), a[:, 1].min(), a[:, 0].max(), a[:, 1].max()
    bx0, by0, bx1, by1 = b[:, 0].min(), b[:, 1].min(), b[:, 0].max(), b[:, 1].max()
    inter = max(0.0, min(ax1, bx1) - max(ax0, bx0)) * max(0.0, min(ay1, by1) - max(ay0, by0))
    union = (ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - inter
    return float(inter / union) if union else 1.0


def pillow_batch(crops: list[npt.NDArray[np.uint8]], width: int) -> npt.NDArray[np.float32]:
    """``ocr_lines._batch_pixels`` with Pillow's bilinear resize in place of OpenCV's."""
    batch = np.zeros((len(crops), 3, 48, width), np.float32)
    for row, crop in enumerate(crops):
        scaled_w = min(width, int(np.ceil(48 * crop.shape[1] / crop.shape[0])))
        image = Image.fromarray(crop).resize((scaled_w, 48), Image.Resampling.BILINEAR)
        batch[row, :, :, :scaled_w] = (np.asarray(image, np.float32) / 255 - 0.5) / 0.5
    return batch


def pages(count: int) -> list[npt.NDArray[np.uint8]]:
    """bench/ocr.py's scanned pages, squeezed as bidcheck squeezes them (grey)."""
    with tempfile.TemporaryDirectory() as temp:
        text_pdf, scan_pdf = Path(temp) / "text.pdf", Path(temp) / "scan.pdf"
        indexes = dense_pdf(text_pdf, count)
        scan(text_pdf, scan_pdf, indexes, 200, 10.0)
        tasks = [OcrTask(str(scan_pdf), "pdf", i, len(indexes)) for i in range(len(indexes))]
        return [np.asarray(load_task_image(task).convert("L")) for task in tasks]


def squeezed(page: npt.NDArray[np.uint8], factor: float) -> npt.NDArray[np.uint8]:
    image = Image.fromarray(page)
    narrow = image.resize((max(1, round(image.width * factor)), image.height), Image.Resampling.BOX)
    return np.asarray(narrow)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=16)
    parser.add_argument("--runtime", choices=("openvino", "onnxruntime"), default="onnxruntime")
    args = parser.parse_args()
    models = bundled_models()
    assert models is not None
    ours = TextDetector(models[0], args.runtime, 1, _DET_SIDE)
    theirs = rapid_detector(args.runtime)
    read = line_recognizer(models[1], args.runtime, 1)
    images = [squeezed(page, _SQUEEZE[args.runtime]) for page in pages(args.pages)]
    ours(images[0]), rapid_lines(theirs, images[0])  # warm both up
    totals = dict.fromkeys(("ours", "theirs", "paired", "same_text", "pillow_same", "pixels", "differ"), 0)
    ious: list[float] = []
    corner = 0.0
    spent = {"ours": 0.0, "theirs": 0.0}
    for image in images:
        started = time.process_time()
        our_crops, our_boxes = ours(image)
        spent["ours"] += time.process_time() - started
        started = time.process_time()
        their_crops, their_boxes = rapid_lines(theirs, image)
        spent["theirs"] += time.process_time() - started
        totals["ours"] += len(our_boxes)
        totals["theirs"] += len(their_boxes)
        if len(our_boxes) != len(their_boxes):
            continue
        totals["paired"] += len(our_boxes)
        ious += [iou(a, b) for a, b in zip(our_boxes, their_boxes, strict=True)]
        corner = max(
            [corner, *(float(np.abs(a - b).max()) for a, b in zip(our_boxes, their_boxes, strict=True))]
        )
        texts_ours, texts_theirs = read(our_crops), read(their_crops)
        totals["same_text"] += sum(a.text == b.text for a, b in zip(texts_ours, texts_theirs, strict=True))
        for a, b in zip(our_crops, their_crops, strict=True):
            if a.shape == b.shape:
                totals["pixels"] += a.size
                totals["differ"] += int((a != b).sum())
        pillow = LineRecognizer(read._top1, read._characters[1:-1])
        original = ocr_lines._batch_pixels
        ocr_lines._batch_pixels = pillow_batch  # type: ignore[assignment]
        try:
            texts_pillow = pillow(our_crops)
        finally:
            ocr_lines._batch_pixels = original
        totals["pillow_same"] += sum(a.text == b.text for a, b in zip(texts_ours, texts_pillow, strict=True))
    n = len(images)
    print(f"command: .venv/bin/python -m bench.ocr_detect {' '.join(sys.argv[1:])}")
    print(f"{n} dense A4 pages, 200 dpi, squeezed to {_SQUEEZE[args.runtime]}, {args.runtime}, one thread")
    print(f"  lines found: bidcheck {totals['ours']}, rapidocr {totals['theirs']}")
    if ious:
        print(
            f"  boxes paired in order: {totals['paired']}; IoU mean {np.mean(ious):.4f}, "
            f"min {min(ious):.4f}, "
            f"{sum(v == 1.0 for v in ious)} identical; largest corner distance {corner:.1f} px"
        )
    print(f"  lines read to the same text: {totals['same_text']} of {totals['paired']}")
    if totals["pixels"]:
        print(f"  crop pixels that differ: {totals['differ']} of {totals['pixels']}")
    print(
        f"  with Pillow's resize to the line height: {totals['pillow_same']} of {totals['paired']} "
        "the same text"
    )
    print(
        f"  CPU s a page, detection and cutting: bidcheck {spent['ours'] / n:.3f}, "
        f"rapidocr {spent['theirs'] / n:.3f}"
    )
    print(f"  load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
