"""Text line detection: the PP-OCR detection model (DB) run by bidcheck, its image steps in numpy.

rapidocr's detector does the same with OpenCV, whose wheel brings 150 MB of video codecs and BLAS to the
desktop bundle for a handful of image steps. Here they are done as rapidocr does them, with the same
settings, in numpy (``bidcheck.ingest.raster``, ``bidcheck.ingest.blobs``) and pyclipper:

* the page is scaled (OpenCV's bilinear resize) so that its longest side is at most ``side`` pixels, in
  multiples of 32, and normalised to [-1, 1];
* the model gives each pixel the probability that it is text; pixels over ``_THRESHOLD`` (the map
  widened by one pixel up and left) form blobs, and each blob's smallest rotated rectangle, when its
  mean probability is at least ``_BOX_THRESHOLD``, is widened by area x ``_UNCLIP`` / perimeter (the
  model marks the core of a line) and scaled back to the page;
* the boxes are put in reading order (rows 10 pixels apart, then left to right) and each line is cut out
  straightened (a perspective warp, bicubic), turned upright when it stands 1.5 times taller than wide.

``bench/ocr_detect.py`` compares the lines and boxes with rapidocr's own pipeline.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyclipper  # type: ignore[import-untyped]

from bidcheck.ingest.blobs import find_blobs, min_area_rect
from bidcheck.ingest.raster import dilate, fill_convex, resize_linear, warp_quad

__all__ = ["DetectedLines", "TextDetector"]

Quad = npt.NDArray[np.float32]  # four corners (x, y): top-left, top-right, bottom-right, bottom-left
DetectedLines = tuple[list[npt.NDArray[np.uint8]], list[Quad]]

_THRESHOLD = 0.3  # a pixel with this probability of text is text (rapidocr's thresh)
_BOX_THRESHOLD = 0.5  # a blob's mean probability to be a line (box_thresh)
_UNCLIP = 1.6  # how far a line's core is widened (unclip_ratio)
_MIN_SIDE = 3  # a blob's rectangle narrower than this is noise (min_size)
_MAX_CANDIDATES = 1000  # blobs looked at a page (max_candidates)
_ROW_GAP = 10  # boxes whose tops are this close (pixels) are one row of the reading order
_MAX_PAGE = 2400  # a larger page is scaled down first (rapidocr's max_side_len, as bidcheck sets it)
_MIN_PAGE = 30  # a smaller one is scaled up (min_side_len)
_WIDE = 8  # a page wider than this many heights is padded above and below (width_height_ratio)
_UPRIGHT = 1.5  # a cut-out line this many times taller than wide is turned upright


def _to_32(value: int) -> int:
    """The nearest multiple of 32 (Python's rounding, half to even, as rapidocr rounds)."""
    return int(round(value / 32) * 32)


def _scaled(pixels: npt.NDArray[np.uint8], ratio: float) -> npt.NDArray[np.uint8] | None:
    """The image scaled by ``ratio``, each side to a multiple of 32; ``None`` when a side comes to 0."""
    height, width = pixels.shape
    new_h, new_w = _to_32(int(height * ratio)), _to_32(int(width * ratio))
    if new_h <= 0 or new_w <= 0:
        return None
    return resize_linear(pixels, new_w, new_h)


def _page_for_detection(
    pixels: npt.NDArray[np.uint8],
) -> tuple[npt.NDArray[np.uint8], float, float, int] | None:
    """The page as rapidocr prepares it: scaled into ``_MIN_PAGE`` .. ``_MAX_PAGE``, padded black above
    and below when very wide; with the factors back to the page and the padding's height. ``None`` for a
    strip too thin to scale (rapidocr fails on it; it holds no line of text)."""
    ratio_h = ratio_w = 1.0
    image = pixels
    for limit in (_MAX_PAGE, _MIN_PAGE):
        side = max(image.shape) if limit == _MAX_PAGE else min(image.shape)
        if (side > limit) if limit == _MAX_PAGE else (side < limit):
            scaled = _scaled(image, float(limit) / side)
            if scaled is None:
                return None
            ratio_h, ratio_w = image.shape[0] / scaled.shape[0], image.shape[1] / scaled.shape[1]
            image = scaled
    height, width = image.shape
    if height <= _MIN_PAGE or width / height > _WIDE:
        pad = int(abs(max(int(width / _WIDE), _MIN_PAGE) * 2 - height) / 2)
        image = np.pad(image, ((pad, pad), (0, 0)))
        return image, ratio_h, ratio_w, pad
    return image, ratio_h, ratio_w, 0


def _model_input(image: npt.NDArray[np.uint8], side: int) -> npt.NDArray[np.float32] | None:
    """The detector's input: the image with its longest side at most ``side``, normalised, 1 x 3 x H x W."""
    height, width = image.shape
    ratio = float(side) / (height if height > width else width) if max(height, width) > side else 1.0
    scaled = _scaled(image, ratio)
    if scaled is None:
        return None
    normal = (((scaled.astype(np.float32) * (1 / 255.0)).astype(np.float64) - 0.5) / 0.5).astype(np.float32)
    return np.ascontiguousarray(np.broadcast_to(normal, (1, 3, *normal.shape)))


def _mini_box(points: npt.NDArray[np.float64]) -> tuple[Quad, float]:
    """rapidocr's ``get_mini_boxes``: the smallest rectangle's corners from the top-left, clockwise, and
    its shorter side."""
    corners, side_a, side_b = min_area_rect(points)
    ordered = sorted(corners, key=lambda p: float(p[0]))
    first, fourth = (0, 1) if ordered[1][1] > ordered[0][1] else (1, 0)
    second, third = (2, 3) if ordered[3][1] > ordered[2][1] else (3, 2)
    box = np.array([ordered[first], ordered[second], ordered[third], ordered[fourth]], np.float32)
    return box, min(side_a, side_b)


def _box_score(probability: npt.NDArray[np.float32], box: Quad) -> float:
    """The mean probability inside the box (rapidocr's ``box_score_fast``)."""
    height, width = probability.shape
    xmin = int(np.clip(np.floor(box[:, 0].min()), 0, width - 1))
    xmax = int(np.clip(np.ceil(box[:, 0].max()), 0, width - 1))
    ymin = int(np.clip(np.floor(box[:, 1].min()), 0, height - 1))
    ymax = int(np.clip(np.ceil(box[:, 1].max()), 0, height - 1))
    shifted = (box - np.array([xmin, ymin], np.float32)).astype(np.int32)
    inside = fill_convex(shifted, ymax - ymin + 1, xmax - xmin + 1)
    area = probability[ymin : ymax + 1, xmin : xmax + 1][inside]
    return float(area.astype(np.float64).mean()) if area.size else 0.0


def _unclip(box: Quad) -> npt.NDArray[np.float64]:
    """The box widened by area x ``_UNCLIP`` / perimeter, with rounded corners (pyclipper)."""
    xs, ys = box[:, 0].astype(np.float64), box[:, 1].astype(np.float64)
    area = abs(float(np.dot(xs, np.roll(ys, -1)) - np.dot(ys, np.roll(xs, -1)))) / 2
    length = float(np.hypot(np.roll(xs, -1) - xs, np.roll(ys, -1) - ys).sum())
    offset = pyclipper.PyclipperOffset()
    offset.AddPath(box.tolist(), pyclipper.JT_ROUND, pyclipper.ET_CLOSEDPOLYGON)
    paths = offset.Execute(area * _UNCLIP / length) if length else []
    return np.array([point for path in paths for point in path], np.float64).reshape(-1, 2)


def _line_box(probability: npt.NDArray[np.float32], points: npt.NDArray[np.float64]) -> Quad | None:
    """The widened box of one blob (in the probability map's pixels), or ``None`` when it is no line."""
    box, short = _mini_box(points)
    if short < _MIN_SIDE or _box_score(probability, box) < _BOX_THRESHOLD:
        return None
    widened = _unclip(box)
    if len(widened) == 0:
        return None
    box, short = _mini_box(widened)
    return None if short < _MIN_SIDE + 2 else box


def _clockwise(box: Quad, height: int, width: int) -> Quad | None:
    """The corners from the top-left, clockwise, kept on the image; ``None`` when 3 pixels or thinner."""
    by_x = box[np.argsort(box[:, 0])]
    left, right = by_x[:2], by_x[2:]
    top_left, bottom_left = left[np.argsort(left[:, 1])]
    top_right, bottom_right = right[np.argsort(right[:, 1])]
    rect = np.array([top_left, top_right, bottom_right, bottom_left], np.float32)
    rect[:, 0] = np.floor(np.clip(rect[:, 0], 0, width - 1))
    rect[:, 1] = np.floor(np.clip(rect[:, 1], 0, height - 1))
    wide = int(np.linalg.norm(rect[0] - rect[1]))
    tall = int(np.linalg.norm(rect[0] - rect[3]))
    return rect if wide > 3 and tall > 3 else None


def _boxes(probability: npt.NDArray[np.float32], height: int, width: int) -> list[Quad]:
    """The line boxes of a probability map, on an image of ``height`` x ``width``."""
    text = dilate(probability > _THRESHOLD, 2)
    blobs = find_blobs(text)
    map_h, map_w = probability.shape
    boxes = []
    points = blobs.end_points()
    for label in range(
        blobs.count - 1, max(-1, blobs.count - 1 - _MAX_CANDIDATES), -1
    ):  # as OpenCV lists them
        box = _line_box(probability, points[label])
        if box is None:
            continue
        box[:, 0] = np.clip(np.round(box[:, 0] / map_w * width), 0, width)
        box[:, 1] = np.clip(np.round(box[:, 1] / map_h * height), 0, height)
        rect = _clockwise(box.astype(np.int32).astype(np.float32), height, width)
        if rect is not None:
            boxes.append(rect)
    return boxes


def _reading_order(boxes: list[Quad]) -> list[Quad]:
    """Top to bottom by the top-left corner, rows ``_ROW_GAP`` apart, then left to right in each row."""
    if not boxes:
        return []
    stacked = np.array(boxes, np.float32)
    by_y = np.argsort(stacked[:, 0, 1], kind="stable")
    tops = stacked[by_y, 0, 1]
    rows = np.concatenate([[0], np.cumsum(np.diff(tops) >= _ROW_GAP)])
    order = by_y[np.lexsort((stacked[by_y, 0, 0], rows))]
    return [stacked[i] for i in order]


def _cut(image: npt.NDArray[np.uint8], box: Quad) -> npt.NDArray[np.uint8]:
    """The line inside ``box`` straightened and turned upright, as rapidocr crops it."""
    wide = int(max(np.linalg.norm(box[0] - box[1]), np.linalg.norm(box[2] - box[3])))
    tall = int(max(np.linalg.norm(box[0] - box[3]), np.linalg.norm(box[1] - box[2])))
    line = warp_quad(image, box, wide, tall)
    return np.rot90(line) if line.shape[0] / line.shape[1] >= _UPRIGHT else line


class TextDetector:
    """Finds the text lines of a page image with the PP-OCR detection model on ``runtime``.

    Args:
        model_path: The ONNX detection model (rapidocr's wheel ships it).
        runtime: ``"onnxruntime"`` or ``"openvino"``.
        threads: Threads for one detection; 0 lets the runtime use every core.
        side: The longest side of the image the model sees.
        precision: OpenVINO's inference precision hint (``None``: its default).
    """

    def __init__(
        self, model_path: Path, runtime: str, threads: int, side: int, precision: str | None = None
    ) -> None:
        self._run = (
            _openvino(model_path, threads, precision) if runtime == "openvino" else _onnx(model_path, threads)
        )
        self._side = side

    def __call__(self, pixels: npt.NDArray[np.uint8]) -> DetectedLines:
        """The line images (grey) of a page (2-D, grey) and their corners on the page, in reading order."""
        prepared = _page_for_detection(pixels)
        batch = None if prepared is None else _model_input(prepared[0], self._side)
        if prepared is None or batch is None:
            return [], []
        image, ratio_h, ratio_w, pad = prepared
        probability = np.asarray(self._run(batch), np.float32)[0, 0]
        boxes = _reading_order(_boxes(probability, *image.shape))
        crops = [_cut(image, box) for box in boxes]
        return crops, [_on_page(box, pad, ratio_h, ratio_w, pixels.shape) for box in boxes]


def _on_page(box: Quad, pad: int, ratio_h: float, ratio_w: float, shape: tuple[int, ...]) -> Quad:
    """A box moved from the prepared image back onto the page (rapidocr's ``map_boxes_to_original``)."""
    out = box.copy()
    out[:, 1] -= pad
    out[:, 0] *= ratio_w
    out[:, 1] *= ratio_h
    out = np.where(out < 0, 0, out)
    out[:, 0] = np.minimum(out[:, 0], shape[1])
    out[:, 1] = np.minimum(out[:, 1], shape[0])
    return out.astype(np.float32)


def _onnx(model_path: Path, threads: int) -> Callable[[npt.NDArray[np.float32]], npt.NDArray[np.float32]]:
    """The model on onnxruntime, as rapidocr sets it up (with the memory arena: 8% faster here)."""
    from bidcheck.ingest.ocr_lines import onnx_session

    session = onnx_session(model_path, threads)
    name = session.get_inputs()[0].name
    return lambda batch: session.run(None, {name: batch})[0]


def _openvino(
    model_path: Path, threads: int, precision: str | None
) -> Callable[[npt.NDArray[np.float32]], npt.NDArray[np.float32]]:
    """The model compiled for OpenVINO's CPU plugin, a stream for each of ``threads`` cores (0: all) and
    one thread to a stream: pages detected at once in threads run side by side, each with an infer request
    of its own. A page's detection on one thread took 0.054 CPU s against 0.076 on two (the same map)."""
    from bidcheck.ingest.ocr_lines import compile_model, openvino_core

    core = openvino_core(threads, precision)
    streams = str(threads or os.cpu_count() or 1)
    config = {"NUM_STREAMS": streams, "INFERENCE_NUM_THREADS": streams}
    model = compile_model(core, core.read_model(model_path), config)
    requests = threading.local()

    def run(batch: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        request = getattr(requests, "request", None)
        if request is None:
            request = requests.request = model.create_infer_request()
        return np.array(request.infer([batch])[0])

    return run
