"""A section of scanned bids in the window: the status bar counts the OCR pages and says the time left."""

from __future__ import annotations

import os
import re
from pathlib import Path

from pytestqt.qtbot import QtBot

from bidcheck.gui.files_view import PAGES
from bidcheck.gui.window import MainWindow
from tests.builders import make_pdf, paragraphs
from tests.test_ocr import scan_pdf

SHOT_ENV = "BIDCHECK_SHOTS"  # a folder: the window is saved there as it shows the OCR progress
STAGE = re.compile(r"文字识别（OCR）(\d)/4 页(，剩余约 \d+ 秒)?：0[12]-扫描\.pdf 第 [12]/2 页")


def _scanned_bid(folder: Path, n: int) -> Path:
    pages = [paragraphs(80 + n, 2, 3), paragraphs(90 + n, 2, 3)]
    return scan_pdf(make_pdf(folder / f"{n}.pdf", pages), folder / f"0{n}-扫描.pdf")


def test_the_status_bar_counts_ocr_pages_and_says_the_time_left(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    assert window.files.add_paths([_scanned_bid(tmp_path, n) for n in (1, 2)]) == 2
    shown: list[str] = []

    def seen(_fraction: float, message: str) -> None:
        if "文字识别" in message:
            shown.append(window.stage.text())  # the window's own slot has run: the bar shows it
            if len(shown) == 1 and os.environ.get(SHOT_ENV):
                window.grab().save(str(Path(os.environ[SHOT_ENV]) / "ocr-progress.png"))

    with qtbot.waitSignal(window.result_shown, timeout=240_000):
        window.run_check()
        assert window.task is not None
        window.task.progress_changed.connect(seen)
    qtbot.waitUntil(lambda: not window.busy)
    done = [STAGE.fullmatch(text) for text in shown]
    assert all(done) and [int(m.group(1)) for m in done if m] == [1, 2, 3, 4], shown
    assert all(m.group(2) for m in done[:-1] if m) and done[-1] and not done[-1].group(2), shown
    cells = [window.files.item(row, PAGES + 2) for row in range(2)]  # pages, characters, OCR pages
    assert [cell.text() if cell else None for cell in cells] == ["2", "2"]
