"""OCR engines behind one interface: the text lines of a page image, with per-character confidence.

``rapidocr`` is the default: its wheel ships the PP-OCR detection and recognition models, which run on
OpenVINO or onnxruntime, fully offline. ``paddleocr`` is used when it is chosen in the settings, installed,
and its model files are already on disk (it is never allowed to download them).

Speed: recognition cost grows with the width of each text line as the model sees it (lines are scaled to
48 pixels high). Squeezing the page to half its width before OCR halves that cost; a Chinese character still
spans about two of the recogniser's time steps, and ``bench/ocr.py`` measures that the error rate stays
below 0.1% on clean scans (also with small print). Detection runs on the page scaled to at most
``_DET_SIDE`` pixels, which finds lines of 7 pt print on a 200 dpi A4 page.

Runtime: the same ONNX models run on OpenVINO when it is installed (a dependency), else on onnxruntime.
OpenVINO's CPU plugin detects text about three times as fast; on a CPU with bfloat16 matrix units (AMX)
it also computes in bfloat16 by itself and recognises lines twice as fast. There the page is squeezed to
0.6 of its width, not half: at half width bfloat16 read 0.21% of the characters wrong against 0.19% on
onnxruntime, at 0.6 it reads 0.15% wrong, for 3% more time (``bench/ocr.py``; docs/usage.md, "Scans").
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from PIL import Image

from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.ocr_detect import TextDetector
from bidcheck.ingest.ocr_int8 import int8_chosen
from bidcheck.ingest.ocr_lines import line_recognizer

__all__ = [
    "RUNTIME_ENV",
    "OcrEngine",
    "OcrLine",
    "OcrUnavailable",
    "bundled_models",
    "engine_cache_id",
    "engine_problem",
    "get_engine",
    "paddle_model_dirs",
    "rapid_runtime",
]

PADDLE_MODELS_ENV = "BIDCHECK_PADDLEOCR_MODELS"
RUNTIME_ENV = "BIDCHECK_OCR_RUNTIME"  # "onnxruntime" or "openvino": the runtime rapidocr's models run on
_SQUEEZE = {"openvino": 0.6, "onnxruntime": 0.5}  # page width factor before OCR (see the module docstring)
_WIDTH_STEP = {"openvino": 8, "onnxruntime": 1}  # batch widths rounded up to a multiple (ocr_lines)
_DET_SIDE = 960  # longest side of the image the text detector sees
_MAX_SIDE = 2400  # larger pages are scaled down before OCR
_RECIPE = 7  # raise when the way pages are prepared or read changes: cached results become stale
_UPRIGHT_CONFIDENCE = 0.8  # a page read with less mean confidence is tried upside down too
_TEXT_SCORE = 0.5  # a line read with less mean confidence is left out (rapidocr's text_score)
# a box taller than this share of the page is no line of text (the detector boxes a picture, or a page
# around a dark box whole): it is not read, where the recogniser would make a character or two of it.
# Looser than the picture search's twentieth (``regions._TALLEST_LINE``): a cover's large title is read.
_TALLEST_LINE = 0.25
_NO_MODELS = "OCR 组件 rapidocr 的模型文件缺失，请重新安装 bidcheck"
_RUNTIMES = ("openvino", "onnxruntime")  # the first one installed runs rapidocr's models
_PADDLE_DET = ("PP-OCRv5_server_det", "PP-OCRv5_mobile_det", "PP-OCRv4_server_det", "PP-OCRv4_mobile_det")
_PADDLE_REC = ("PP-OCRv5_server_rec", "PP-OCRv5_mobile_rec", "PP-OCRv4_server_rec", "PP-OCRv4_mobile_rec")


@dataclass(frozen=True)
class OcrLine:
    """One recognised text line: its text, a confidence per character, and its box in image pixels.

    ``box`` is ``(left, top, right, bottom)`` with ``top`` measured from the top of the image.
    """

    text: str
    confidences: tuple[float, ...]
    box: tuple[float, float, float, float]


class OcrEngine(Protocol):
    """What bidcheck needs of an OCR engine."""

    def recognize(self, image: Image.Image) -> list[OcrLine]:
        """The text lines of a page image, top to bottom."""
        ...


class OcrUnavailable(ReadError):
    """The chosen OCR engine cannot run here; the message says what is missing."""


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def paddle_models_root() -> Path:
    """Where PaddleOCR's model folders are looked for (``BIDCHECK_PADDLEOCR_MODELS`` overrides)."""
    env = os.environ.get(PADDLE_MODELS_ENV)
    return Path(env) if env else Path.home() / ".paddlex" / "official_models"


def paddle_model_dirs(root: Path) -> tuple[Path, Path] | None:
    """The detection and recognition model folders found under ``root``, best first, or ``None``."""

    def find(names: Sequence[str]) -> Path | None:
        for name in names:
            for folder in (root / name, root / f"{name}_infer"):
                if (folder / "inference.pdiparams").is_file():
                    return folder
        return None

    det, rec = find(_PADDLE_DET), find(_PADDLE_REC)
    return (det, rec) if det and rec else None


def _model_name(folder: Path) -> str:
    return folder.name.removesuffix("_infer")


@functools.lru_cache(maxsize=4)
def engine_cache_id(name: str) -> str:
    """Names the engine, its models and our pre-processing: cached results are kept apart per id."""
    if name == "paddleocr":
        dirs = paddle_model_dirs(paddle_models_root())
        models = "-".join(_model_name(d) for d in dirs) if dirs else "no-models"
        return f"paddleocr-{_version('paddleocr')}-{models}"
    runtime = rapid_runtime()
    shipped = bundled_models()
    int8 = "-int8" if runtime == "openvino" and shipped and int8_chosen(shipped[1]) else ""
    return (
        f"rapidocr-{_version('rapidocr')}-{runtime}-{_version(runtime)}"
        f"-r{_RECIPE}-squeeze{_SQUEEZE[runtime]}-det{_DET_SIDE}-max{_MAX_SIDE}-step{_WIDTH_STEP[runtime]}{int8}"
    )


def _model_file(folder: Path, config: dict[str, Any], task: str) -> Path | None:
    """The model of ``task`` (``"Det"`` or ``"Rec"``) that rapidocr's configuration names, in its wheel's
    ``models`` folder: ``{ocr_version}_{det|rec}_{model_type}.onnx``."""
    settings = config.get(task) or {}
    version, kind, size = settings.get("ocr_version"), settings.get("task_type"), settings.get("model_type")
    path = folder / "models" / f"{version}_{kind}_{size}.onnx"
    return path if path.is_file() else None


@functools.cache
def bundled_models() -> tuple[Path, Path] | None:
    """The detection and recognition models (ONNX) rapidocr's wheel ships, or ``None`` when not found.

    Found from rapidocr's package folder and its configuration, without importing its modules (they
    import OpenCV, which the desktop bundle leaves out).
    """
    import yaml  # type: ignore[import-untyped]

    spec = importlib.util.find_spec("rapidocr")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations)))
    try:
        config = yaml.safe_load((folder / "config.yaml").read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None
    det, rec = (_model_file(folder, config, task) for task in ("Det", "Rec"))
    return (det, rec) if det and rec else None


@functools.cache
def rapid_runtime() -> str:
    """The runtime rapidocr's models run on: the one ``BIDCHECK_OCR_RUNTIME`` names, else the first of
    ``_RUNTIMES`` installed (OpenVINO needs the model files of the wheel, which it reads as they are)."""
    chosen = os.environ.get(RUNTIME_ENV, "")
    for runtime in (chosen,) if chosen in _RUNTIMES else _RUNTIMES:
        if importlib.util.find_spec(runtime) is not None and (runtime != "openvino" or bundled_models()):
            return runtime
    return "onnxruntime"


def engine_problem(name: str) -> str | None:
    """Why the engine cannot run here, in words a user can act on; ``None`` when it can."""
    if name == "rapidocr":
        if importlib.util.find_spec("rapidocr") is None or importlib.util.find_spec("onnxruntime") is None:
            return "OCR 组件 rapidocr 未安装，请重新安装 bidcheck（pip install rapidocr onnxruntime）"
        return None if bundled_models() else _NO_MODELS
    if name != "paddleocr":
        return f"未知的 OCR 引擎 {name!r}（可选 rapidocr 或 paddleocr）"
    prefix = "设置中选择的 OCR 引擎 PaddleOCR 不可用："
    suffix = "；也可在设置中改用 rapidocr"
    if importlib.util.find_spec("paddleocr") is None:
        return f"{prefix}未安装 paddleocr（pip install paddleocr）{suffix}"
    if importlib.util.find_spec("paddle") is None:
        return f"{prefix}未安装 PaddlePaddle（pip install paddlepaddle）{suffix}"
    root = paddle_models_root()
    if paddle_model_dirs(root) is None:
        return (
            f"{prefix}在 {root} 找不到模型文件（需要 {_PADDLE_DET[0]} 与 {_PADDLE_REC[0]} 或其 mobile 版，"
            f"可用环境变量 {PADDLE_MODELS_ENV} 指定目录）{suffix}"
        )
    return None


@functools.lru_cache(maxsize=4)
def get_engine(name: str, threads: int = 0) -> OcrEngine:
    """The engine ``name``, loaded once per process (loading the models takes about a second).

    Args:
        name: ``"rapidocr"`` or ``"paddleocr"``.
        threads: Threads for one recognition; 0 lets the runtime use every core.

    Raises:
        OcrUnavailable: The engine or its model files are missing.
    """
    problem = engine_problem(name)
    if problem:
        raise OcrUnavailable(problem)
    if name == "paddleocr":
        return PaddleOcrEngine(*(paddle_model_dirs(paddle_models_root()) or ()))
    return RapidOcrEngine(threads)


class RapidOcrEngine:
    """The PP-OCR models of rapidocr's wheel, on OpenVINO or onnxruntime (``rapid_runtime``), run by
    bidcheck: its detector (``bidcheck.ingest.ocr_detect``, rapidocr's steps without OpenCV) and its run
    of the recogniser (``bidcheck.ingest.ocr_lines``).

    ``runtime``, ``squeeze``, ``side`` (the longest side the detector sees), ``batch`` (lines recognised
    at once), ``precision`` (OpenVINO's precision hint, such as ``"f32"``), ``shortlist`` (on OpenVINO,
    the recogniser's last layer over the common characters first), ``width_step`` (batch widths
    rounded up to a multiple of it; 1: rapidocr's widths) and ``int8`` (on OpenVINO, the recogniser's
    convolutions in integers: see ``ocr_int8``) replace bidcheck's choices:
    for ``bench/ocr_levers.py``, which measures the alternatives.
    """

    def __init__(
        self,
        threads: int = 0,
        runtime: str | None = None,
        squeeze: float | None = None,
        side: int | None = None,
        batch: int | None = None,
        precision: str | None = None,
        shortlist: bool = True,
        width_step: int | None = None,
        int8: bool | None = None,
    ) -> None:
        models = bundled_models()
        if models is None:
            raise OcrUnavailable(_NO_MODELS)
        runtime = runtime or rapid_runtime()
        self._squeeze = squeeze or _SQUEEZE[runtime]
        # the recogniser is loaded in a thread while the detector is loaded and finds the first page's lines
        loading = ThreadPoolExecutor(1)
        self._reader = loading.submit(
            line_recognizer,
            models[1],
            runtime,
            threads,
            batch,
            precision,
            shortlist,
            _WIDTH_STEP[runtime] if width_step is None else width_step,
            int8,
        )
        loading.shutdown(wait=False)
        self._detect = TextDetector(models[0], runtime, threads, side or _DET_SIDE, precision)

    def recognize(self, image: Image.Image) -> list[OcrLine]:
        """The text lines of a page image, in reading order.

        A page read with low confidence is read again turned by 180 degrees (a page scanned upside down);
        the better reading is kept, its boxes placed on the page as it reads upright.
        """
        gray = image.convert("L")
        lines = self._recognize(gray)
        if _mean_confidence(lines) < _UPRIGHT_CONFIDENCE:
            turned = self._recognize(gray.rotate(180))
            if _mean_confidence(turned) > _mean_confidence(lines):
                return turned
        return lines

    def _recognize(self, gray: Image.Image) -> list[OcrLine]:
        width, height = gray.size
        squeeze = self._squeeze
        narrow = gray.resize((max(1, round(width * squeeze)), height), Image.Resampling.BOX)
        crops, quads = self._detect(np.asarray(narrow))
        tallest = height * _TALLEST_LINE
        kept = [
            i for i, quad in enumerate(quads) if max(p[1] for p in quad) - min(p[1] for p in quad) <= tallest
        ]
        crops, quads = [crops[i] for i in kept], [quads[i] for i in kept]
        lines = []
        for line, quad in zip(self._reader.result()(crops), quads, strict=True):
            if not line.text.strip() or line.score < _TEXT_SCORE:
                continue
            xs, ys = [float(p[0]) / squeeze for p in quad], [float(p[1]) for p in quad]
            lines.append(OcrLine(line.text, line.confidences, (min(xs), min(ys), max(xs), max(ys))))
        return lines


def _mean_confidence(lines: list[OcrLine]) -> float:
    """The mean character confidence; 0 for a page where nothing was found (upside down, it may be)."""
    confidences = [c for line in lines for c in line.confidences]
    return sum(confidences) / len(confidences) if confidences else 0.0


class PaddleOcrEngine:
    """PaddleOCR 3.x with model folders already on disk (``paddle_model_dirs``)."""

    def __init__(self, det_dir: Path, rec_dir: Path) -> None:
        from paddleocr import PaddleOCR

        os.environ.setdefault("PADDLE_PDX_DISABLE_MODEL_SOURCE_CHECK", "True")
        self._ocr = PaddleOCR(
            text_detection_model_name=_model_name(det_dir),
            text_detection_model_dir=str(det_dir),
            text_recognition_model_name=_model_name(rec_dir),
            text_recognition_model_dir=str(rec_dir),
            use_doc_orientation_classify=False,
            use_doc_unwarping=False,
            use_textline_orientation=False,
        )

    def recognize(self, image: Image.Image) -> list[OcrLine]:
        """The text lines of a page image (PaddleOCR gives one score per line, used for every character)."""
        pixels = np.ascontiguousarray(np.asarray(image.convert("RGB"))[:, :, ::-1])
        lines = []
        for result in self._ocr.predict(pixels):
            rows = zip(result["rec_texts"], result["rec_scores"], result["rec_boxes"], strict=True)
            for text, score, box in rows:
                left, top, right, bottom = (float(v) for v in box)
                lines.append(OcrLine(str(text), (float(score),) * len(text), (left, top, right, bottom)))
        return lines
