"""Text line recognition of the detected lines: the PP-OCR recogniser, run for what bidcheck reads.

rapidocr's own recogniser copies the model's whole output out of the runtime, a probability for each of
the 18,710 characters at every step of every line (about 10 MB a line), and then looks for the most
likely character in it with numpy; afterwards it places a box on every character, which bidcheck never
uses. Here, on OpenVINO, the model itself is given a last step that keeps the most likely character and
its probability (top-1 of the softmax), so 18,710 times less leaves the runtime; on onnxruntime the full
output is reduced with numpy as rapidocr does. The lines are prepared and decoded as rapidocr does them
(sorted by width, six to a batch, scaled to 48 pixels high, CTC with repeats and blanks dropped), so the
text and the confidences are the same; each character's confidence is its own (rapidocr's character list
leaves spaces out, which shifts it). ``bench/ocr_levers.py`` measures the difference.

On OpenVINO a page's batches run at once, one thread each on as many streams as the recogniser has
threads (``NUM_STREAMS``), instead of one batch after the other on all of them: a batch of six short lines
keeps two threads waiting on each other, two batches keep two cores busy (``bench/ocr.py`` on 2 cores:
0.73-0.98 of the OCR stage's time at load 1.6-2.9, about half of it at load 6, the same text). The
models OpenVINO compiled are kept in bidcheck's cache (``models/openvino``), so that a worker loads them
instead of compiling them again. The batches queue for the streams in a thread pool, each thread with an
infer request of its own: pages recognised at once in threads (the OCR stage's ``PAGES_AT_ONCE``) take
the streams in turn, and a page's result is the same as when recognised alone.
On onnxruntime the batches run at once too, in a thread each, the session running each batch on one
thread (its threads spin while waiting for each other: ``bench/ocr.py --runtime onnxruntime`` took 2.2
CPU s a page instead of 3.1–3.3).

The model's last layer projects each step's 120 features onto all 18,710 characters: about 40% of
recognition, for the size of what it computes, not for its arithmetic. On OpenVINO it runs over the
4,280 common characters (ASCII, GB 2312's symbols and its first level of 3,755 Chinese characters, the
blank and the space) only, and at a step whose best common character scores less than ``_SURE_LOGIT``
(3% of a dense page's steps) the step's features are projected onto every character in numpy, those of
a page's batches at once, and the most likely character and its probability taken from all of them. A
step won by a character outside the list (a name's 堃 or 喆, traditional characters) scored at most 12.6
for its best common character on a test page of 600 such characters (469 steps): every one of them was
scored over all characters; so are second-level characters (砼, 鑫, 晟: a test holds them to the whole
layer's reading). The probability of a surely read character is taken over the shortlist. Against the
shortlist of all GB 2312 (7,228), the 592 lines of ``bench/ocr.py`` read the same text, 3.2% of the
steps scored over every character with either, and the confidences of 531 lines differ by at most
0.0012; recognition takes about a tenth less time.
"""

from __future__ import annotations

import contextlib
import locale
import math
import os
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import numpy as np

from bidcheck.ingest.ocr_int8 import constant_value, int8_chosen, quantize, stored_ranges
from bidcheck.ingest.raster import resize_linear
from bidcheck.memo import cache_folders

__all__ = [
    "LineRecognizer",
    "RecognizedLine",
    "compile_model",
    "line_recognizer",
    "onnx_session",
    "openvino_core",
]

_HEIGHT = 48  # the recogniser's line height
_MIN_RATIO = 320 / 48  # a batch is at least this wide for its height, as rapidocr pads it
_BATCH = 6  # lines a batch (rapidocr's default; larger batches pad more and ran slower)
_ROUND = 5  # rapidocr rounds confidences to five decimals; kept, so that results stay the same
_COMPILING = threading.Lock()  # guards the two below
_compiles = 0  # models being compiled at this moment, in threads of this process
_locale_before = ""  # the locale before the first of them began
_SURE_LOGIT = 16.0  # a step whose best shortlisted character scores less is scored over every character
_LEVEL_TWO = 0xD8  # the first byte of GB 2312's second-level (less used) Chinese characters


@dataclass(frozen=True)
class RecognizedLine:
    """A line's text, a confidence per character (1 for a space), and the line's score (the mean
    confidence of what the recogniser read)."""

    text: str
    confidences: tuple[float, ...]
    score: float


class _Top1(Protocol):
    def __call__(self, batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The most likely character index at each step of each line, and its probability."""
        ...


def openvino_core(threads: int, precision: str | None = None) -> Any:
    """OpenVINO's runtime, its CPU plugin on ``threads`` threads a request (0: its default) in
    ``precision`` (``None``: its default, bfloat16 on a CPU with AMX)."""
    import openvino as ov  # type: ignore[import-untyped]

    core = ov.Core()
    folder = compiled_models_folder()
    if folder is not None:
        core.set_property({"CACHE_DIR": str(folder)})
    if threads > 0:
        core.set_property("CPU", {"INFERENCE_NUM_THREADS": str(threads)})
    if precision:
        core.set_property("CPU", {"INFERENCE_PRECISION_HINT": precision})
    return core


def compile_model(core: Any, model: Any, config: dict[str, str] | None = None) -> Any:
    """``model`` compiled for OpenVINO's CPU plugin; several at once in threads (the engine compiles its
    detector and its recogniser side by side), the process's locale kept (``_locale_kept``)."""
    with _locale_kept():
        return core.compile_model(model, "CPU", config or {})


@contextlib.contextmanager
def _locale_kept() -> Iterator[None]:
    """The C library's locale as it was before the first of the compiles running at once, put back when
    the last one ends: compiling with a cache folder sets the locale to "C" and back, and two compiles at
    once put back each other's "C" (a text subprocess read later in the process then failed on UTF-8)."""
    global _compiles, _locale_before
    with _COMPILING:
        if not _compiles:
            _locale_before = locale.setlocale(locale.LC_ALL)
        _compiles += 1
    try:
        yield
    finally:
        with _COMPILING:
            _compiles -= 1
            if not _compiles:
                locale.setlocale(locale.LC_ALL, _locale_before)


def compiled_models_folder() -> Path | None:
    """Where OpenVINO keeps the models it compiled (``models/openvino`` in bidcheck's cache), so that a
    process loads them instead of compiling them again; ``None`` when no cache folder can be made."""
    for root in cache_folders("models"):
        folder = root / "openvino"
        with contextlib.suppress(OSError):
            folder.mkdir(parents=True, exist_ok=True)
            return folder
    return None


def onnx_session(model_path: Path, threads: int) -> Any:
    """An onnxruntime session of the model on the CPU, ``threads`` to a run (0: every core), with the
    memory arena (rapidocr turns it off; with it, the models run about 8% faster here)."""
    import onnxruntime as ort  # type: ignore[import-untyped]

    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.intra_op_num_threads = threads if threads > 0 else 0
    options.inter_op_num_threads = 1
    options.enable_cpu_mem_arena = True
    return ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])


class _OpenVinoTop1:
    """The model compiled on OpenVINO with a top-1 step after its softmax, its last layer over the
    shortlisted characters first (``_ShortlistedHead``) unless told otherwise."""

    def __init__(
        self,
        model_path: Path,
        threads: int,
        precision: str | None = None,
        shortlist: bool = True,
        int8: bool | None = None,
    ) -> None:
        import openvino as ov
        import openvino.opset13 as ops  # type: ignore[import-untyped]

        core = openvino_core(threads, precision)
        model = core.read_model(model_path)
        wanted = int8_chosen(model_path) if int8 is None else int8
        ranges = stored_ranges(model_path) if wanted else None
        self.int8 = ranges is not None and quantize(model, ranges)
        framework = model.get_rt_info()["framework"]
        self.characters: list[str] = str(framework["character"].value).splitlines()
        softmax = model.output(0).get_node().input_value(0)  # the Result's input
        self._head = _ShortlistedHead.of(softmax, self.characters) if shortlist else None
        if self._head is None:
            top = ops.topk(softmax, 1, 2, "max", "none", name="top1")
            results = [ops.result(top.output(i), name=f"top1_{i}") for i in range(2)]
        else:
            results = self._head.shortlist_results()
        # named nodes: generated names change from process to process, and so would the compiled model's key
        name = ("rec_top1" if self._head is None else "rec_short") + ("_int8" if self.int8 else "")
        top1 = ov.Model(results, model.get_parameters(), name)
        streams = threads or os.cpu_count() or 1
        config = {"NUM_STREAMS": str(streams), "INFERENCE_NUM_THREADS": str(streams)}
        self._model = compile_model(core, top1, config)
        self._pool = ThreadPoolExecutor(streams)
        self._requests = threading.local()

    def __call__(self, batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.many([batch])[0]

    def many(self, batches: Sequence[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
        """The top-1 characters of each batch, the batches run at once on the streams (a thread and an
        infer request each); pages recognised at once in threads share the streams in turn. The steps the
        shortlist is not sure of are scored over every character afterwards, those of all batches at once
        (the projection's weights are read once)."""
        steps = list(self._pool.map(self._run, batches))
        return self._head.rescore(steps) if self._head else [(s.characters, s.probabilities) for s in steps]

    def _run(self, batch: np.ndarray) -> _Steps:
        """The graph's outputs for ``batch``, copied out of this thread's infer request."""
        request = getattr(self._requests, "request", None)
        if request is None:
            request = self._requests.request = self._model.create_infer_request()
        request.infer([batch])
        outputs = [request.get_output_tensor(i).data for i in range(2 if self._head is None else 4)]
        if self._head is None:
            return _Steps(outputs[1][..., 0].copy(), outputs[0][..., 0].copy())
        return self._head.shortlisted(*outputs)


def _common(character: str) -> bool:
    """A character of the shortlist: ASCII, or in GB 2312's symbols (punctuation, full-width forms, kana,
    Greek and Cyrillic) or its first level (the 3,755 most used Chinese characters)."""
    try:
        code = character.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return len(code) == 1 or code[0] < _LEVEL_TWO


@dataclass(frozen=True)
class _ShortlistedHead:
    """The recogniser's last layer (a projection of each step's 120 features onto every character), run
    on OpenVINO over the shortlisted characters only, and in numpy over all of them for the steps whose
    best shortlisted character scores less than ``_SURE_LOGIT`` (a character outside the shortlist may
    win there, or the step is unsure and its probability must be exact)."""

    features: Any  # the graph's output feeding the projection: (lines, steps, 120)
    weights: np.ndarray  # (120, characters + 2): blank first, the space last
    bias: np.ndarray
    rows: np.ndarray  # the shortlisted columns of ``weights``

    @staticmethod
    def of(softmax: Any, characters: Sequence[str]) -> _ShortlistedHead | None:
        """The head under the model's softmax (``softmax.get_node()``: the Softmax), or ``None`` when the
        graph is not the expected MatMul and Add of constants."""
        node = softmax.get_node().input_value(0).get_node()
        while node.get_type_name() == "Identity":
            node = node.input_value(0).get_node()
        matmul = node.input_value(0).get_node() if node.get_type_name() == "Add" else None
        if matmul is None or matmul.get_type_name() != "MatMul":
            return None
        weights, bias = constant_value(matmul.input_value(1)), constant_value(node.input_value(1))
        if weights is None or bias is None or weights.shape[1] != len(characters) + 2:
            return None
        common = [True, *(_common(c) for c in characters), True]  # the blank and the space are kept
        return _ShortlistedHead(matmul.input_value(0), weights, bias, np.flatnonzero(common))

    def shortlist_results(self) -> list[Any]:
        """The graph's outputs: the top shortlisted character's probability (over the shortlist) and
        index, the best shortlisted score, and the features."""
        import openvino.opset13 as ops

        weights = ops.constant(np.ascontiguousarray(self.weights[:, self.rows]), name="short_w")
        bias = ops.constant(np.ascontiguousarray(self.bias[self.rows]), name="short_b")
        product = ops.matmul(self.features, weights, False, False, name="short_matmul")
        logits = ops.add(product, bias, name="short_logits")
        top = ops.topk(ops.softmax(logits, 2, name="short_softmax"), 1, 2, "max", "none", name="short_top1")
        axis = ops.constant(np.array([2], np.int64), name="short_axis")
        best = ops.reduce_max(logits, axis, False, name="short_best")
        outputs = (top.output(0), top.output(1), best.output(0), self.features)
        return [ops.result(output, name=f"short_{i}") for i, output in enumerate(outputs)]

    def shortlisted(
        self, probs: np.ndarray, indexes: np.ndarray, best: np.ndarray, features: np.ndarray
    ) -> _Steps:
        """The top shortlisted character of each step (its index among every character) and its
        probability, with the steps the shortlist is not sure of and their features."""
        unsure = best < _SURE_LOGIT
        return _Steps(self.rows[indexes[..., 0]], probs[..., 0].copy(), unsure, features[unsure])

    def rescore(self, batches: Sequence[_Steps]) -> list[tuple[np.ndarray, np.ndarray]]:
        """The batches' characters and probabilities, the unsure steps' scored over every character."""
        unsure = [b.features for b in batches if b.features is not None and len(b.features)]
        if unsure:
            logits = np.concatenate(unsure, dtype=np.float32) @ self.weights
            logits += self.bias
            characters, top = logits.argmax(axis=1), logits.max(axis=1)
            logits -= top[:, None]  # in place: a page's unsure steps hold about 10 MB of logits
            probabilities = 1 / np.exp(logits, out=logits).sum(axis=1)
        start = 0
        for batch in batches:
            count = int(batch.unsure.sum()) if batch.unsure is not None else 0
            if count:
                batch.characters[batch.unsure] = characters[start : start + count]
                batch.probabilities[batch.unsure] = probabilities[start : start + count]
            start += count
        return [(batch.characters, batch.probabilities) for batch in batches]


class _Steps(NamedTuple):
    """A batch's most likely character at each step (lines x steps) and its probability; with a
    shortlist, which steps it is not sure of and their features (unsure steps x 120)."""

    characters: np.ndarray
    probabilities: np.ndarray
    unsure: np.ndarray | None = None
    features: np.ndarray | None = None


class _OnnxTop1:
    """The model on onnxruntime; the most likely characters are taken from its full output."""

    def __init__(self, model_path: Path, threads: int) -> None:
        streams = threads or os.cpu_count() or 1
        self._session = onnx_session(model_path, 1)
        self._pool = ThreadPoolExecutor(streams) if streams > 1 else None
        meta = self._session.get_modelmeta().custom_metadata_map
        self.characters = meta["character"].splitlines()
        self._input = self._session.get_inputs()[0].name

    def __call__(self, batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        preds: Any = self._session.run(None, {self._input: batch})[0]
        return preds.argmax(axis=2), preds.max(axis=2)

    def many(self, batches: Sequence[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
        """The top-1 characters of each batch, the batches run at once, one thread each."""
        return list(self._pool.map(self, batches)) if self._pool else [self(batch) for batch in batches]


class LineRecognizer:
    """Reads cropped text line images (grey, any size) into text with per-character confidences."""

    def __init__(
        self, top1: _Top1, characters: Sequence[str], batch: int = _BATCH, width_step: int = 1
    ) -> None:
        self._top1 = top1
        self._characters = ["", *characters, " "]  # index 0 is CTC's blank; rapidocr adds the space last
        self._batch = batch
        self._width_step = width_step  # a batch's width is rounded up to a multiple of this

    def __call__(self, crops: Sequence[np.ndarray]) -> list[RecognizedLine]:
        """One result per crop, in the order given."""
        ratios = [crop.shape[1] / crop.shape[0] for crop in crops]
        order = np.argsort(np.array(ratios)).tolist()  # rapidocr's order: the same lines share a batch
        out: list[RecognizedLine | None] = [None] * len(crops)
        chunks = [order[start : start + self._batch] for start in range(0, len(order), self._batch)]
        batches = [
            _batch_pixels(
                [crops[i] for i in chunk], self._width(max(_MIN_RATIO, *(ratios[i] for i in chunk)))
            )
            for chunk in chunks
        ]
        for chunk, (indexes, probs) in zip(chunks, _top1_of_batches(self._top1, batches), strict=True):
            for row, i in enumerate(chunk):
                out[i] = self._decode(indexes[row], probs[row])
        return [line for line in out if line is not None]

    def _width(self, ratio: float) -> int:
        """The width of a batch whose widest line is ``ratio`` times as wide as high (rapidocr's), rounded
        up to a multiple of the width step."""
        step = self._width_step
        return -(-int(_HEIGHT * ratio) // step) * step

    def _decode(self, indexes: np.ndarray, probs: np.ndarray) -> RecognizedLine:
        """CTC decoding: a step counts when it is not blank and differs from the step before."""
        keep = indexes != 0
        keep[1:] &= indexes[1:] != indexes[:-1]
        steps = zip(indexes[keep].tolist(), probs[keep].tolist(), strict=True)
        read = [(self._characters[i], round(p, _ROUND)) for i, p in steps]
        score = round(sum(p for _, p in read) / len(read), _ROUND) if read else 0.0
        text = "".join(chars for chars, _ in read)
        confidences = tuple(1.0 if c == " " else p for chars, p in read for c in chars)
        return RecognizedLine(text, confidences, score)


def _top1_of_batches(top1: _Top1, batches: Sequence[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
    """``top1`` of each batch: all at once where the runtime runs several (``many``), else in turn."""
    many = getattr(top1, "many", None)
    return many(batches) if many else [top1(batch) for batch in batches]


def _batch_pixels(crops: Sequence[np.ndarray], width: int) -> np.ndarray:
    """The crops (grey) scaled to the line height, normalised to [-1, 1] and padded to one width, as
    rapidocr prepares them (the three colour channels alike)."""
    batch = np.zeros((len(crops), 3, _HEIGHT, width), np.float32)
    for row, crop in enumerate(crops):
        scaled_w = min(width, math.ceil(_HEIGHT * crop.shape[1] / crop.shape[0]))
        scaled = resize_linear(crop, scaled_w, _HEIGHT).astype(np.float32)
        batch[row, :, :, :scaled_w] = (scaled / 255 - 0.5) / 0.5
    return batch


def line_recognizer(
    model_path: Path,
    runtime: str,
    threads: int,
    batch: int | None = None,
    precision: str | None = None,
    shortlist: bool = True,
    width_step: int = 1,
    int8: bool | None = None,
) -> LineRecognizer:
    """The recogniser of ``model_path`` (an ONNX model carrying its character list) on ``runtime``,
    ``threads`` to a recognition (0: every core), ``batch`` lines at once (``None``: six), in OpenVINO's
    ``precision`` (``None``: its default), on OpenVINO with the last layer over the ``shortlist`` first,
    each batch's width rounded up to a multiple of ``width_step`` pixels, on OpenVINO its convolutions
    in integers if ``int8`` (``None``: where that pays, see ``ocr_int8``)."""
    top1: _OpenVinoTop1 | _OnnxTop1 = (
        _OpenVinoTop1(model_path, threads, precision, shortlist, int8)
        if runtime == "openvino"
        else _OnnxTop1(model_path, threads)
    )
    return LineRecognizer(top1, top1.characters, batch or _BATCH, width_step)
