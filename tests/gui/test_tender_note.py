"""Checked without a tender, the results header says so and offers to mark one; the check then runs again."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from bidcheck.gui.i18n import set_language
from bidcheck.gui.strings import ENGLISH
from bidcheck.gui.tender_note import TenderNote
from bidcheck.gui.window import MainWindow
from bidcheck.report.xlsx import NO_TENDER_WARNING
from tests.gui.conftest import SAMPLE, TENDER


def _raised(window: MainWindow) -> int:
    assert window.result is not None
    return sum(1 for p in window.result.pairs if p.level != "none")


def _check_without_tender(window: MainWindow, qtbot: QtBot) -> None:
    window.add_paths([SAMPLE / "bids", TENDER], role="bid")  # the tender given as if it were a bid
    with qtbot.waitSignal(window.result_shown, timeout=60_000):
        window.run_check()


def test_the_warning_offers_the_sections_files_and_marking_one_checks_again(
    window: MainWindow, qtbot: QtBot
) -> None:
    _check_without_tender(window, qtbot)
    note = window.tender_note
    assert note.isVisible() and note.label.text() == NO_TENDER_WARNING
    assert note.button.text() == "指定招标文件…"
    offered = [a.text() for a in note.menu.actions() if a.text() and not a.isSeparator()]
    assert TENDER.name in offered and "从磁盘选择招标文件…" in offered
    assert len(offered) == 7 + 1  # six bids and the tender, then "from disk"
    assert window.result is not None and len(window.result.pairs) == 21  # the tender compared as a bid
    pick = next(a for a in note.menu.actions() if a.text() == TENDER.name)
    with qtbot.waitSignal(window.result_shown, timeout=60_000):
        pick.trigger()
    assert window.result is not None and window.result.has_tender
    assert [f.role for f in window.files.files() if f.path == TENDER] == ["tender"]
    assert not note.isVisible()
    assert len(window.result.pairs) == 15 and _raised(window) == 2  # the sample's high and watch pairs


def test_the_tender_can_be_picked_from_disk(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.add_paths([SAMPLE / "bids"])
    with qtbot.waitSignal(window.result_shown, timeout=60_000):
        window.run_check()
    assert window.tender_note.isVisible()
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *_args: ([str(TENDER)], ""))
    browse = window.tender_note.menu.actions()[-1]
    with qtbot.waitSignal(window.result_shown, timeout=60_000):
        browse.trigger()
    assert window.result is not None and window.result.has_tender
    assert not window.tender_note.isVisible()


def test_no_warning_with_a_tender(checked: MainWindow) -> None:
    assert not checked.tender_note.isVisible()


def test_the_warning_in_english(qtbot: QtBot) -> None:
    set_language("en")
    try:
        note = TenderNote()
        qtbot.addWidget(note)
    finally:
        set_language("zh")
    assert note.label.text() == ENGLISH[NO_TENDER_WARNING]
    assert note.button.text() == "Mark the tender…"


def test_the_header_with_the_warning_is_drawn(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    """The pairs panel as a picture: the yellow bar lies between the summary and the pairs."""
    _check_without_tender(window, qtbot)
    panel = window.tender_note.parentWidget()
    image = panel.grab().toImage()
    image.save(str(tmp_path / "header.png"))
    note = window.tender_note.geometry()
    colour = image.pixelColor(note.left() + 3, note.center().y())
    assert (colour.red(), colour.green(), colour.blue()) == (0xFF, 0xF4, 0xCE)
    assert window.summary.geometry().bottom() < note.top() < window.pairs.geometry().top()


def test_a_tender_that_cannot_be_read_is_named_in_the_note(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    garbage = tmp_path / "招标文件.docx"
    garbage.write_bytes(bytes(range(256)) * 8)
    window.add_paths([SAMPLE / "bids"])
    window.add_paths([garbage], role="tender")
    with qtbot.waitSignal(window.result_shown, timeout=60_000):
        window.run_check()
    note = window.tender_note
    assert note.isVisible() and note.label.text().startswith("招标文件 招标文件.docx 未能读取：只有两三家")
