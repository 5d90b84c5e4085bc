"""Passages after characters beyond the BMP are highlighted, focused and clicked at their own text.

A passage's offsets count Python characters; Qt counts UTF-16 units, two for 𠮷 or an emoji. Two .docx
bids share two paragraphs; before the first stand 7 such characters in A and 3 in B, before the second 9
and 8, and the second holds one itself (and B changed two of its characters, so its marks come in two
pieces). Every expectation here is read back from Qt and compared with the passage's own wording.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextCursor
from PySide6.QtWidgets import QApplication, QTextEdit
from pytestqt.qtbot import QtBot

from bidcheck.gui.doc_pane import DocPane, location
from bidcheck.gui.positions import QtPositions
from bidcheck.gui.style import CURRENT_BG, CURRENT_MARK, LIVE_BG
from bidcheck.gui.window import MainWindow
from bidcheck.model import Passage, Side
from tests.builders import make_docx, paragraphs
from tests.gui.conftest import checked_window, settle

WIDE = "𠮷𩸽😀𪚥𠀋🚧𡈽"  # Extension B CJK and emoji: two UTF-16 units each


def _units(text: str) -> int:
    """How many UTF-16 units (Qt positions) ``text`` takes."""
    return len(text.encode("utf-16-le")) // 2


def _with_wide(text: str, chars: str) -> str:
    """``text`` with ``chars`` spread evenly through it."""
    step = len(text) // (len(chars) + 1)
    for number, char in enumerate(chars):
        at = step * (number + 1) + number
        text = text[:at] + char + text[at:]
    return text


def _section(root: Path) -> list[Path]:
    """A shares paragraphs 6 and 10 with B's 5 and 11; wide characters stand in paragraphs before them."""
    first, second = paragraphs(611, 2, sentences=6)
    second = second[:60] + WIDE[0] + second[60:]
    a, b = paragraphs(612, 24, sentences=5), paragraphs(613, 26, sentences=5)
    a[1], a[3], a[7] = _with_wide(a[1], WIDE[:4]), _with_wide(a[3], WIDE[4:]), _with_wide(a[7], WIDE[5:])
    b[2], b[6] = _with_wide(b[2], WIDE[2:5]), _with_wide(b[6], WIDE[:5])
    a[5], a[9], b[4], b[10] = first, second, first, second[:120] + "水电" + second[122:]
    return [
        make_docx(root / "01-甲.docx", [a[:6], a[6:12], a[12:]]),
        make_docx(root / "02-乙.docx", [b[:7], b[7:14], b[14:]]),
    ]


@pytest.fixture(scope="module")
def shown(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MainWindow]:
    """A window that has checked the two bids and shows their pair."""
    root = tmp_path_factory.mktemp("wide-section")
    yield from checked_window(root / "bidcheck.ini", _section(root))


def passages(window: MainWindow) -> tuple[Passage, ...]:
    assert window.result is not None and len(window.result.pairs) == 1
    return window.result.pairs[0].passages


def pane_and_side(window: MainWindow, side: int, passage: Passage) -> tuple[DocPane, Side]:
    evidence = window.evidence
    return (evidence.left, passage.a) if side == 0 else (evidence.right, passage.b)


def as_qt(text: str) -> str:
    """``text`` as a QTextCursor's selectedText gives it (a paragraph break is U+2029)."""
    return text.replace("\n", "\u2029")


def painted(pane: DocPane, colour: QColor) -> list[str]:
    """The text under each extra selection of a colour, in order."""
    selections: list[QTextEdit.ExtraSelection] = pane.view.extraSelections()
    return [s.cursor.selectedText() for s in selections if s.format.background().color() == colour]


def wide_before(pane: DocPane, side: Side) -> int:
    return sum(1 for char in pane.view.toPlainText()[: side.start] if ord(char) > 0xFFFF)


def test_the_passages_lie_after_wide_characters_in_different_numbers_on_each_side(shown: MainWindow) -> None:
    found = passages(shown)
    assert len(found) == 2 and all(p.live for p in found)
    evidence = shown.evidence
    assert [wide_before(evidence.left, p.a) for p in found] == [7, 9]
    assert [wide_before(evidence.right, p.b) for p in found] == [3, 8]
    assert WIDE[0] in found[1].a.text and len(found[1].b.marks) == 2


@pytest.mark.parametrize("side", [0, 1])
def test_the_highlights_cover_exactly_each_passage_and_its_aligned_text(shown: MainWindow, side: int) -> None:
    found = passages(shown)
    for current, other in ((0, 1), (1, 0)):
        shown.evidence.select_passage(current)
        pane, focused = pane_and_side(shown, side, found[current])
        unfocused = pane_and_side(shown, side, found[other])[1]
        assert painted(pane, CURRENT_BG) == [as_qt(focused.text)]
        assert painted(pane, LIVE_BG) == [as_qt(unfocused.text)]
        assert painted(pane, CURRENT_MARK) == [as_qt(focused.text[s:e]) for s, e in focused.marks]


def test_a_selected_passage_is_in_view_with_the_caret_at_its_start_on_both_sides(shown: MainWindow) -> None:
    found = passages(shown)
    for index in (1, 0, 1):
        shown.evidence.select_passage(index)
        settle()
        for side in (0, 1):
            pane, at = pane_and_side(shown, side, found[index])
            view = pane.view
            cursor = view.textCursor()
            cursor.setPosition(cursor.position() + _units(at.text), QTextCursor.MoveMode.KeepAnchor)
            assert cursor.selectedText() == as_qt(at.text), f"{pane.title.text()}: the caret is not at it"
            where, seen = view.cursorRect(), view.viewport().rect()
            assert seen.contains(where.center()) and where.top() < seen.height() / 3, pane.title.text()
            assert pane.where.text() == location(at.page, at.paragraph)


@pytest.mark.parametrize("side", [0, 1])
def test_a_click_inside_a_highlighted_passage_in_either_text_selects_it(
    shown: MainWindow, qtbot: QtBot, side: int
) -> None:
    found = passages(shown)
    for target in (1, 0):
        pane, at = pane_and_side(shown, side, found[target])
        text = pane.view.toPlainText()
        for offset in (at.start + 1, (at.start + at.end) // 2, at.end - 1):
            shown.evidence.select_passage(1 - target)
            settle()
            view = pane.view
            cursor = QTextCursor(view.document())
            cursor.setPosition(_units(text[:offset]))
            view.setTextCursor(cursor)  # the user scrolled this side to the passage
            view.ensureCursorVisible()
            settle()
            qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.cursorRect().center())
            assert shown.evidence.current_passage == target, f"{pane.title.text()}: a click at {offset}"
            assert pane.where.text() == location(at.page, at.paragraph)


def test_offsets_and_qt_positions_convert_both_ways() -> None:
    text = "x𠮷y\n😀😀z"
    positions = QtPositions.of(text)
    for offset in range(len(text) + 1):
        assert positions.to_qt(offset) == _units(text[:offset])
        assert positions.to_offset(_units(text[:offset])) == offset
    assert [positions.to_offset(p) for p in (2, 6, 8)] == [1, 4, 5]  # between a pair's halves: its start
    plain = QtPositions.of("工程施工")
    assert plain == QtPositions() and plain.to_qt(3) == 3 and plain.to_offset(3) == 3
