"""The window after checking the sample section: ranked pairs, matrix, evidence, jumps, filters, export."""

from __future__ import annotations

import json
from pathlib import Path

from openpyxl import load_workbook
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from bidcheck.gui.doc_pane import DocPane
from bidcheck.gui.window import MainWindow
from bidcheck.model import load_result

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def names(window: MainWindow, index: int) -> tuple[str, str]:
    assert window.result is not None
    pair = window.result.pairs[index]
    return window.result.document(pair.a).name, window.result.document(pair.b).name


def assert_shown_at(pane: DocPane, start: int, end: int, wording: str) -> None:
    """The pane's caret is at the passage, the passage's wording is there, and it is on screen."""
    view = pane.view
    assert view.textCursor().position() == start
    assert view.toPlainText()[start:end] == wording
    assert view.viewport().rect().contains(view.cursorRect().center())


def assert_focused(window: MainWindow, index: int) -> None:
    """Both sides show passage ``index`` of the selected pair."""
    evidence = window.evidence
    pair_index = window.pairs.selected_pair()
    assert window.result is not None and pair_index is not None
    passage = window.result.pairs[pair_index].passages[index]
    assert evidence.current_passage == index
    assert_shown_at(evidence.left, *evidence.span(0, index), passage.a.text)
    assert_shown_at(evidence.right, *evidence.span(1, index), passage.b.text)
    assert evidence.passages.currentRow() == evidence.visible_passages.index(index)


def test_top_pair_is_the_copied_bid_and_high(checked: MainWindow) -> None:
    assert checked.result is not None
    assert names(checked, 0) == ("01-华东建设集团.docx", "02-恒信市政工程.pdf")
    assert checked.result.pairs[0].level == "high"
    assert checked.pairs.selected_pair() == 0
    assert "一级预警 1" in checked.summary.text()


def test_files_show_their_state(checked: MainWindow) -> None:
    table = checked.files
    assert table.rowCount() == 7
    doc = table.document_at(0)
    assert doc is not None and doc.pages == 4
    assert table.item(0, 2).text() == "4"
    assert table.item(0, 3).text() == f"{doc.chars:,}"
    assert table.status_item(0).text() == "已读取"
    assert table.cellWidget(6, 1).currentData() == "tender"


def test_matrix_is_heat_coloured_and_selects_pairs(checked: MainWindow, qtbot: QtBot) -> None:
    matrix = checked.matrix
    assert matrix.rowCount() == matrix.columnCount() == 6
    hot, cold = matrix.item(0, 1).background().color(), matrix.item(0, 4).background().color()
    assert hot.blue() < cold.blue() and hot.green() < cold.green()
    rect = matrix.visualItemRect(matrix.item(2, 3))
    qtbot.mouseClick(matrix.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert names(checked, checked.pairs.selected_pair() or 0) == ("03-中联路桥.docx", "04-宏远建工.pdf")
    assert "03-中联路桥.docx" in checked.evidence.heading.text()
    checked.select_pair(0)


def test_top_pair_evidence_is_whole_documents_side_by_side(checked: MainWindow) -> None:
    evidence = checked.evidence
    assert checked.result is not None
    pair = checked.result.pairs[0]
    assert evidence.heading.text() == "01-华东建设集团.docx  ↔  02-恒信市政工程.pdf"
    assert evidence.left.view.toPlainText() == checked.texts[pair.a].text
    assert evidence.right.view.toPlainText() == checked.texts[pair.b].text
    first_live = next(i for i, p in enumerate(pair.passages) if p.live)
    assert_focused(checked, first_live)
    assert (
        evidence.left.where.text()
        == f"第 {pair.passages[first_live].a.page} 页 · 第 {pair.passages[first_live].a.paragraph} 段"
    )
    assert len(evidence.left.view.extraSelections()) > len(pair.passages)


def test_jump_to_a_passage_from_the_list(checked: MainWindow, qtbot: QtBot) -> None:
    evidence = checked.evidence
    table = evidence.passages
    last = table.rowCount() - 1
    qtbot.mouseClick(
        table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(table.item(last, 1)).center()
    )
    assert_focused(checked, evidence.visible_passages[last])
    assert not evidence.next_button.isEnabled()


def test_next_and_previous(checked: MainWindow, qtbot: QtBot) -> None:
    evidence = checked.evidence
    visible = evidence.visible_passages
    evidence.select_passage(visible[0])
    assert not evidence.previous_button.isEnabled()
    qtbot.mouseClick(evidence.next_button, Qt.MouseButton.LeftButton)
    assert_focused(checked, visible[1])
    qtbot.mouseClick(evidence.next_button, Qt.MouseButton.LeftButton)
    assert_focused(checked, visible[2])
    qtbot.mouseClick(evidence.previous_button, Qt.MouseButton.LeftButton)
    assert_focused(checked, visible[1])
    assert evidence.counter.text() == f"第 2 / {len(visible)} 段"


def test_click_on_a_passage_in_the_text_jumps_both_sides(checked: MainWindow, qtbot: QtBot) -> None:
    evidence = checked.evidence
    visible = evidence.visible_passages
    evidence.select_passage(visible[0])
    target = visible[-2]
    start, end = evidence.span(1, target)
    view = evidence.right.view
    cursor = QTextCursor(view.document())
    cursor.setPosition((start + end) // 2)
    view.setTextCursor(cursor)  # the user scrolled side B to the passage
    view.ensureCursorVisible()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.cursorRect().center())
    assert_focused(checked, target)


def test_hide_template_and_common_passages(checked: MainWindow) -> None:
    assert checked.result is not None
    pair = checked.result.pairs[0]
    flagged = sum(1 for p in pair.passages if not p.live)
    assert flagged, "the sample's top pair shares some tender text"
    checked.hide_flagged.setChecked(True)
    try:
        assert checked.evidence.passages.rowCount() == len(pair.passages) - flagged
        assert all(pair.passages[i].live for i in checked.evidence.visible_passages)
    finally:
        checked.hide_flagged.setChecked(False)
    assert checked.evidence.passages.rowCount() == len(pair.passages)
    assert checked.evidence.passages.item(0, 5).text() == "招标文件/模板"


def test_level_filter(checked: MainWindow) -> None:
    combo = checked.level_filter
    combo.setCurrentIndex(combo.findData("一级预警"))
    try:
        assert checked.pairs.model().rowCount() == 1
        checked.select_pair(1)  # e.g. from the matrix: the filter makes way for the pair
        assert combo.currentData() == "全部等级" and checked.pairs.selected_pair() == 1
    finally:
        combo.setCurrentIndex(combo.findData("全部等级"))
        checked.select_pair(0)
    assert checked.pairs.model().rowCount() == 15


def test_export_workbook_and_json(checked: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    for path, export in (
        (tmp_path / "r.xlsx", checked.export_xlsx),
        (tmp_path / "r.json", checked.export_json),
    ):
        with qtbot.waitSignal(checked.file_written, timeout=30_000) as written:
            export(path)
        assert written.args == [str(path)]
    result = load_result(tmp_path / "r.json")
    assert checked.result is not None
    assert [(p.a, p.b, p.level) for p in result.pairs] == [(p.a, p.b, p.level) for p in checked.result.pairs]
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["schema"] == "bidcheck.result/1"
    book = load_workbook(tmp_path / "r.xlsx")
    assert "文件对排名" in book.sheetnames
    assert book["文件对排名"].max_row == 16


def test_long_names_are_cut_in_the_middle_with_the_whole_name_in_the_tooltip(checked: MainWindow) -> None:
    """A long file name keeps its number and its end where it is cut (the views and the matrix's row
    headers), and its tooltip gives it whole."""
    from bidcheck.gui.results_view import _clip

    assert checked.pairs.textElideMode() == Qt.TextElideMode.ElideMiddle
    assert checked.files.textElideMode() == Qt.TextElideMode.ElideMiddle
    clipped = _clip("07-江苏省华东建设集团有限公司第二标段")
    assert (
        len(clipped) == 10 and clipped.startswith("07-江") and clipped.endswith("第二标段") and "…" in clipped
    )
    header = checked.matrix.verticalHeaderItem(0)
    assert header is not None and checked.result is not None
    assert header.toolTip() == checked.result.bids[0].name


def test_the_evidence_view_says_what_its_colours_mean(checked: MainWindow) -> None:
    """A legend names each colour of the texts: shared passage, characters alike, the passage in focus,
    reworded, and the tender's or common text that is not counted."""
    legend = checked.evidence.legend
    for word in ("共同段落", "逐字相同的字", "当前段落", "语义改写", "招标文件/模板或多家共有（不计入）"):
        assert word in legend.text()
    for colour in ("#fff6d9", "#ffd35c", "#e4eeff", "#ecedef"):
        assert colour in legend.text().lower()
    checked.select_pair(0)
    checked.resize(1400, 860)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert legend.isVisible() and checked.grab().save(str(SHOTS / "evidence-legend.png"))
