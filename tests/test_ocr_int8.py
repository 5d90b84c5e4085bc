"""The recogniser's convolutions in 8-bit integers (``bidcheck.ingest.ocr_int8``): the ranges kept with the
code fit the installed model, the rounded model reads scanned pages as well as the model as shipped, and
the choice (the CPU, ``BIDCHECK_OCR_INT8``) names the OCR cache's entries.

Pages are rendered and scanned as in ``test_ocr.py``; OCR runs for real on OpenVINO.
"""

from __future__ import annotations

from pathlib import Path

import openvino as ov
import pytest

from bidcheck.ingest.ocr import RUNTIME_ENV, RapidOcrEngine, bundled_models, engine_cache_id, rapid_runtime
from bidcheck.ingest.ocr_int8 import INT8_ENV, int8_chosen, quantize, quantized_layers, stored_ranges
from bidcheck.ingest.scan import OcrTask, load_task_image
from tests.builders import make_image_pdf, make_pdf, paragraphs
from tests.test_ocr import OCR_ERROR, error_rate, page_images, wrong_chars


def _recogniser() -> Path:
    models = bundled_models()
    assert models is not None
    return models[1]


def _fake_quantized_inputs(model: ov.Model) -> list[tuple[str, int]]:
    """Each (convolution, input) of ``model`` fed by a FakeQuantize."""
    return [
        (node.get_friendly_name(), index)
        for node in model.get_ordered_ops()
        if node.get_type_name() == "Convolution"
        for index in range(2)
        if node.input_value(index).get_node().get_type_name() == "FakeQuantize"
    ]


def test_the_stored_ranges_fit_the_installed_recogniser_and_round_every_convolution() -> None:
    # measured for this very model file (bench/ocr_calibrate.py): a rapidocr that ships another model
    # fails here until the ranges are measured again
    ranges = stored_ranges(_recogniser())
    assert ranges is not None
    model = ov.Core().read_model(_recogniser())
    names = [node.get_friendly_name() for node in quantized_layers(model)]
    assert len(names) > 40 and sorted(names) == sorted(ranges)
    assert all(low < high for low, high in ranges.values())
    assert quantize(model, ranges)
    assert sorted(_fake_quantized_inputs(model)) == sorted((name, i) for name in names for i in range(2))


def test_ranges_of_another_model_leave_the_model_as_it_is() -> None:
    detector = bundled_models()[0]  # type: ignore[index]
    assert stored_ranges(detector) is None  # the file's digest is not the one measured
    model = ov.Core().read_model(_recogniser())
    ranges = dict(stored_ranges(_recogniser()) or {})
    ranges.pop(next(iter(ranges)))  # one convolution without a range
    assert not quantize(model, ranges)
    assert _fake_quantized_inputs(model) == []


def test_the_recogniser_in_integers_reads_scanned_pages_as_well_as_the_model_as_shipped(
    tmp_path: Path,
) -> None:
    texts = paragraphs(7, 4, sentences=2)
    names = (
        "项目经理王堃与技术负责人李喆，联系电话13905711234，账号6222 0212 3456 7890，金额￥1,234,567.89元。"
    )
    source = make_pdf(tmp_path / "text.pdf", [texts[:2], [texts[2], names]], numbers=False)
    wanted = ["".join(texts[:2]), texts[2] + names]
    rounded, shipped = RapidOcrEngine(1, "openvino", int8=True), RapidOcrEngine(1, "openvino", int8=False)
    read = []
    for image, want in zip(page_images(source), wanted, strict=True):
        got = "".join(line.text for line in rounded.recognize(image))
        as_shipped = "".join(line.text for line in shipped.recognize(image))
        assert error_rate(got, want) <= OCR_ERROR, got
        assert wrong_chars(got, want) <= wrong_chars(as_shipped, want) + 2, (got, as_shipped)
        read.append(got.replace(" ", ""))
    assert "13905711234" in read[1] and "堃" in read[1] and "1,234,567.89" in read[1], read[1]


def test_the_choice_follows_the_environment_and_names_the_ocr_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(RUNTIME_ENV, "openvino")
    try:
        for wanted, chosen in (("1", True), ("0", False)):
            monkeypatch.setenv(INT8_ENV, wanted)
            rapid_runtime.cache_clear()
            engine_cache_id.cache_clear()
            assert int8_chosen(_recogniser()) is chosen
            assert engine_cache_id("rapidocr").endswith("-int8") is chosen
            assert RapidOcrEngine(1, "openvino")._reader.result()._top1.int8 is chosen  # type: ignore[attr-defined]
    finally:
        rapid_runtime.cache_clear()
        engine_cache_id.cache_clear()


def test_a_page_around_a_dark_box_is_no_text_in_either_precision(tmp_path: Path) -> None:
    # the detector boxes the whole page around the box; read as a line, it gave "1" (0.42 confidence as
    # shipped, 0.66 rounded): a box taller than a quarter of the page is not read
    image = load_task_image(OcrTask(str(make_image_pdf(tmp_path / "box.pdf", pages=1)), "pdf", 0, 1))
    for int8 in (True, False):
        assert RapidOcrEngine(1, "openvino", int8=int8).recognize(image) == []
