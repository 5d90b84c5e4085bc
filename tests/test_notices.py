"""The parts bidcheck runs on and their licences, read from the installed packages' metadata."""

from __future__ import annotations

import re

from bidcheck.notices import (
    bundled_notice,
    distribution_part,
    notice_text,
    parts,
    required_distributions,
    summary,
)


def test_the_parts_name_their_licences() -> None:
    lines = {part.name: part.licence for part in parts()}
    assert lines["PySide6_Essentials"].startswith("LGPL-3.0-only")
    assert "MIT" in lines["onnxruntime"]
    assert lines["rapidocr"] == "Apache-2.0"
    assert lines["PP-OCR models (PaddleOCR, inside rapidocr)"] == "Apache-2.0"
    assert lines["Qt"].startswith("LGPL-3.0-only") and lines["Python"] == "PSF-2.0"


def test_requirements_are_followed_once_each_and_extras_left_out() -> None:
    names = required_distributions()
    normalised = [re.sub(r"[-_.]+", "-", name).lower() for name in names]
    assert len(normalised) == len(set(normalised))
    assert {"numpy", "opencv-python-headless", "shiboken6"} <= set(normalised)  # requirements of requirements
    assert not {"pytest", "mypy", "pyinstaller", "bidcheck"} & set(normalised)


def test_the_notice_lists_every_part_and_holds_the_licence_texts() -> None:
    listed = parts(["onnxruntime", "rapidocr", "no-such-distribution"])
    text = notice_text(listed)
    assert summary(text) == [part.line() for part in listed]
    assert [part.name for part in listed][3:] == ["onnxruntime", "rapidocr"]
    onnx = distribution_part("onnxruntime")
    assert onnx is not None and any(name.endswith("LICENSE") for name, _ in onnx.texts)
    assert "Permission is hereby granted, free of charge" in text  # onnxruntime's MIT licence, in full
    assert "PP-OCR" in text and "Apache" in text  # rapidocr's model licences


def test_no_notice_file_outside_the_bundle() -> None:
    assert distribution_part("no-such-distribution") is None
    assert bundled_notice() is None
