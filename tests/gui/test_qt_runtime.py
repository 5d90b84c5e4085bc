"""The Qt binding installed is one the app can run on for hours."""

from __future__ import annotations

import gc
import sys

import pytest
from PySide6.QtWidgets import QApplication, QLabel, QScrollBar


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="None is immortal from Python 3.12: nothing to lose")
def test_calls_that_return_nothing_leave_nones_references_alone(qapp: QApplication) -> None:
    """PySide6 6.12.0 under Python 3.11 took one reference from None at each call returning nothing
    (``setText``, ``setValue``…): after some tens of thousands of such calls — an hour of reading
    passages — the interpreter aborts (``none_dealloc``). The app's pin keeps it out; this notices a
    release that brings it back."""
    label, bar = QLabel(), QScrollBar()
    gc.collect()
    before = sys.getrefcount(None)
    for n in range(2000):
        label.setText("x")
        bar.setValue(n % 2)
    gc.collect()
    assert sys.getrefcount(None) >= before - 50, "this PySide6 loses references to None: pin it out"
