"""The recogniser's convolutions in 8-bit integers, on OpenVINO, where that is faster than its default.

OpenVINO computes a model in 8-bit integers where the graph says how to round each value: a FakeQuantize
node on a convolution's input (the range of its activations, one for the layer) and on its weights (the
range of each output channel's weights). ``quantize`` puts those nodes into the recogniser, before every
Convolution (the backbone's pointwise and full convolutions: most of its time), with the activation
ranges measured once on scanned pages and kept with the code (``ocr_int8.json``, written by
``bench/ocr_calibrate.py`` for the model file it names: its size and digest); the rest of the model
keeps the runtime's precision: the attention blocks, the layer norms, the last layer, and the grouped
(depthwise) convolutions, which in integers read more characters wrong (0.20% against 0.15%) and saved
less time (``bench/ocr_levers.py``).

It pays on a CPU without AMX: there OpenVINO computes in bfloat16 with AVX-512 (or in float32, without
it), and with integer convolutions recognition takes about three quarters (or under half) of its time.
On a CPU with AMX, bfloat16 is faster than integers and the model is left as it is.
``BIDCHECK_OCR_INT8`` = ``1`` or ``0`` overrides the choice.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from bidcheck.memo import file_digest

__all__ = [
    "INT8_ENV",
    "RANGES_FILE",
    "activation_ranges",
    "constant_value",
    "int8_chosen",
    "quantize",
    "quantized_layers",
    "stored_ranges",
]

INT8_ENV = "BIDCHECK_OCR_INT8"
RANGES_FILE = Path(__file__).with_name("ocr_int8.json")
_LAYER = "Convolution"  # not the grouped (depthwise) ones: see the module's text
_LEVELS = 256  # activations: unsigned where never negative, else signed around zero
_WEIGHT_LEVELS = 255  # weights: signed, symmetric


def int8_chosen(model_path: Path) -> bool:
    """Whether the recogniser at ``model_path`` runs its convolutions in integers here: asked for by
    ``BIDCHECK_OCR_INT8``, else on a CPU without AMX; and only with ranges measured for that model."""
    wanted = os.environ.get(INT8_ENV, "")
    if wanted == "0" or (wanted != "1" and _has_amx()):
        return False
    return stored_ranges(model_path) is not None


@functools.cache
def _has_amx() -> bool:
    """Whether the CPU has AMX tiles (Intel Xeon from Sapphire Rapids on): Linux says so in its flags;
    elsewhere AVX512-FP16, which the same CPUs brought, stands for it."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            return any(line.startswith("flags") and " amx_tile" in line for line in info)
    except OSError:
        pass
    if sys.platform.startswith("linux"):
        return False
    umath = getattr(getattr(np, "_core", None), "_multiarray_umath", None)
    features: dict[str, bool] = getattr(umath, "__cpu_features__", {})
    return bool(features.get("AVX512_SPR"))


@functools.cache
def stored_ranges(model_path: Path) -> dict[str, tuple[float, float]] | None:
    """The activation range of each quantised layer (by node name) measured for the model at
    ``model_path``, or ``None`` when ``ocr_int8.json`` is missing, unreadable or measured for another
    model file."""
    try:
        stored = json.loads(RANGES_FILE.read_text(encoding="utf-8"))
        if stored["size"] != model_path.stat().st_size or stored["digest"] != file_digest(model_path):
            return None
        return {name: (float(low), float(high)) for name, (low, high) in stored["ranges"].items()}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def quantized_layers(model: Any) -> list[Any]:
    """The model's convolutions whose weights are constants, in the graph's order."""
    return [node for node, _ in _weighted_layers(model)]


def _weighted_layers(model: Any) -> list[tuple[Any, np.ndarray]]:
    """``quantized_layers`` with each one's weights (read once)."""
    convolutions = (node for node in model.get_ordered_ops() if node.get_type_name() == _LAYER)
    layers = ((node, constant_value(node.input_value(1))) for node in convolutions)
    return [(node, weights) for node, weights in layers if weights is not None]


def quantize(model: Any, ranges: dict[str, tuple[float, float]]) -> bool:
    """Put FakeQuantize nodes before every convolution of ``model`` (in place): its input rounded to
    256 levels over ``ranges[name]``, its weights to 255 levels a channel. ``False``, and the model left
    as it was, when a convolution has no range (ranges measured for another model)."""
    layers = _weighted_layers(model)
    if not layers or any(node.get_friendly_name() not in ranges for node, _ in layers):
        return False
    for node, weights in layers:
        name = node.get_friendly_name()
        low, high = ranges[name]
        node.input(0).replace_source_output(_activations(node.input_value(0), low, high, name))
        node.input(1).replace_source_output(_weights(node.input_value(1), weights, name))
    model.validate_nodes_and_infer_types()
    return True


def activation_ranges(model: Any, batches: Iterable[np.ndarray]) -> dict[str, tuple[float, float]]:
    """The input range of each convolution of ``model`` over ``batches`` (run in float32), by node name:
    the mean of each batch's lowest and of its highest value, which ``quantize`` rounds to. The lowest
    and highest of all batches (one outlying batch sets the range of every line) read a rare character
    of a name wrong on a 150 dpi scan that the model as shipped reads right."""
    import openvino as ov  # type: ignore[import-untyped]

    layers = quantized_layers(model)
    inputs = [node.input_value(0) for node in layers]
    probe = ov.Model(inputs, model.get_parameters(), "rec_ranges")
    compiled = ov.Core().compile_model(probe, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    request = compiled.create_infer_request()
    lows: list[list[float]] = [[] for _ in layers]
    highs: list[list[float]] = [[] for _ in layers]
    for batch in batches:
        request.infer([batch])
        for k in range(len(layers)):
            values = request.get_output_tensor(k).data
            lows[k].append(float(values.min()))
            highs[k].append(float(values.max()))
    return {
        node.get_friendly_name(): (float(np.mean(low)), float(np.mean(high)))
        for node, low, high in zip(layers, lows, highs, strict=True)
    }


def constant_value(output: Any) -> np.ndarray | None:
    """The value of a graph node's output when the node is a constant, else ``None``."""
    node = output.get_node()
    return np.asarray(node.get_data(), np.float32) if node.get_type_name() == "Constant" else None


def _activations(source: Any, low: float, high: float, layer: str) -> Any:
    """``source`` rounded to 256 levels: from 0 to ``high`` where it is never negative, else around 0."""
    if low >= 0:
        return _fake_quantize(source, np.float32(0.0), np.float32(high), _LEVELS, f"{layer}/int8_in")
    top = max(-low, high)
    return _fake_quantize(source, np.float32(-top), np.float32(top * 127 / 128), _LEVELS, f"{layer}/int8_in")


def _weights(source: Any, weights: np.ndarray, layer: str) -> Any:
    """Weights rounded to 255 levels symmetric around 0, a range for each output channel (the first
    axis)."""
    axes = tuple(range(1, weights.ndim))
    top = np.maximum(np.abs(weights).max(axis=axes, keepdims=True), np.float32(1e-12))
    return _fake_quantize(source, -top, top, _WEIGHT_LEVELS, f"{layer}/int8_w")


def _fake_quantize(source: Any, low: Any, high: Any, levels: int, name: str) -> Any:
    """A FakeQuantize of ``source`` over [low, high], its nodes named after ``name`` (a generated name
    changes from process to process, and so would the key of the model OpenVINO compiled and kept)."""
    import openvino.opset13 as ops  # type: ignore[import-untyped]

    low_node = ops.constant(np.asarray(low, np.float32), name=f"{name}_low")
    high_node = ops.constant(np.asarray(high, np.float32), name=f"{name}_high")
    return ops.fake_quantize(source, low_node, high_node, low_node, high_node, levels, name=name).output(0)
