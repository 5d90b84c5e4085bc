"""The passage in focus is in view, in blue, near the top of both sides, however it was chosen.

The section has four long bids (two docx, two PDF); the top pair shares passages far down both documents,
at different depths on each side, so that a side which is not scrolled to its passage shows other text.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from bidcheck.gui.window import MainWindow
from tests.builders import make_docx, make_pdf, paragraphs
from tests.gui.conftest import assert_at_top, checked_window, settle

PER_PAGE = 6
COPIED = ((22, 40), (30, 26), (38, 52), (46, 34))  # (paragraph in A, where B put it)


def _pages(texts: list[str]) -> list[list[str]]:
    return [texts[i : i + PER_PAGE] for i in range(0, len(texts), PER_PAGE)]


def _section(root: Path) -> list[Path]:
    """A and B share four paragraphs far down, in another order; C and D share nothing."""
    a, b = paragraphs(401, 60, sentences=5), paragraphs(402, 66, sentences=5)
    for source, target in COPIED:
        b[target] = a[source]
    return [
        make_docx(root / "01-甲.docx", _pages(a)),
        make_pdf(root / "02-乙.pdf", _pages(b)),
        make_pdf(root / "03-丙.pdf", _pages(paragraphs(403, 48, sentences=5))),
        make_docx(root / "04-丁.docx", _pages(paragraphs(404, 48, sentences=5))),
    ]


@pytest.fixture(scope="module")
def shown(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MainWindow]:
    """A window that has checked the section and shows the top pair, as the user first sees it."""
    root = tmp_path_factory.mktemp("long-section")
    yield from checked_window(root / "bidcheck.ini", _section(root))


def assert_focused(window: MainWindow, index: int) -> None:
    """Passage ``index`` of the top pair is in focus and at the top of both sides."""
    settle()
    evidence = window.evidence
    assert evidence.current_passage == index
    assert_at_top(evidence.left, evidence.span(0, index)[0])
    assert_at_top(evidence.right, evidence.span(1, index)[0])


def test_the_top_pair_shares_passages_far_down_both_documents(shown: MainWindow) -> None:
    assert shown.result is not None
    pair = shown.result.pairs[0]
    names = {shown.result.document(pair.a).name, shown.result.document(pair.b).name}
    assert names == {"01-甲.docx", "02-乙.pdf"}
    assert len(pair.passages) == len(COPIED) and shown.evidence.visible_passages == [0, 1, 2, 3]
    assert all(p.a.page >= 4 and p.b.page >= 5 for p in pair.passages)


def test_a_shown_pair_has_its_first_passage_at_the_top_of_both_sides(shown: MainWindow) -> None:
    assert_focused(shown, 0)
    shown.select_pair(1)
    shown.select_pair(0)
    assert_focused(shown, 0)


def test_a_passage_chosen_in_the_list_is_at_the_top_of_both_sides(shown: MainWindow, qtbot: QtBot) -> None:
    table = shown.evidence.passages
    for row in (2, 0, 3, 1):
        rect = table.visualItemRect(table.item(row, 1))
        qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        assert_focused(shown, row)


def test_next_and_previous_bring_the_passage_to_the_top_of_both_sides(
    shown: MainWindow, qtbot: QtBot
) -> None:
    evidence = shown.evidence
    evidence.select_passage(0)
    for button, index in (
        (evidence.next_button, 1),
        (evidence.next_button, 2),
        (evidence.previous_button, 1),
    ):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert_focused(shown, index)
    for _ in range(2):
        qtbot.mouseClick(evidence.next_button, Qt.MouseButton.LeftButton)
    assert_focused(shown, 3)


@pytest.mark.parametrize("side", [0, 1])
def test_a_click_on_a_passage_in_either_text_brings_it_to_the_top_of_both(
    shown: MainWindow, qtbot: QtBot, side: int
) -> None:
    evidence = shown.evidence
    pane = (evidence.left, evidence.right)[side]
    for current, target in ((0, 2), (2, 1), (1, 3)):
        evidence.select_passage(current)
        settle()
        start, end = evidence.span(side, target)
        view = pane.view
        cursor = QTextCursor(view.document())
        cursor.setPosition((start + end) // 2)
        view.setTextCursor(cursor)  # the user scrolled this side to the passage
        view.ensureCursorVisible()
        settle()
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.cursorRect().center())
        assert_focused(shown, target)


def test_the_passage_stays_at_the_top_when_the_window_is_resized(shown: MainWindow) -> None:
    evidence = shown.evidence
    try:
        for index, size in ((2, (1300, 900)), (1, (1700, 1050)), (3, (1400, 800))):
            evidence.select_passage(index)
            settle()
            shown.resize(*size)
            assert_focused(shown, index)
    finally:
        shown.resize(1600, 1000)
        settle()


def test_keys_step_through_the_passages_from_either_text(shown: MainWindow, qtbot: QtBot) -> None:
    """F3 / Shift+F3 (and Ctrl+↓ / Ctrl+↑) move to the next and previous passage with the focus in a text."""
    evidence = shown.evidence
    evidence.select_passage(0)
    shown.activateWindow()
    for pane, key, modifier, index in (
        (evidence.left, Qt.Key.Key_F3, Qt.KeyboardModifier.NoModifier, 1),
        (evidence.right, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier, 2),
        (evidence.left, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier, 1),
    ):
        pane.view.setFocus()
        qtbot.keyClick(pane.view, key, modifier)
        settle()
        assert_focused(shown, index)
    assert "F3" in evidence.next_button.toolTip() and "Shift+F3" in evidence.previous_button.toolTip()
