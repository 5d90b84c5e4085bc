"""The panel's marks on pairs: set in the pair view, kept through a re-check, saved with the check,
and carried into the workbook and the dossier (whose 已核实-only form holds the confirmed pairs alone)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from docx import Document as open_docx
from openpyxl import load_workbook
from pytestqt.qtbot import QtBot

from bidcheck.gui.window import MainWindow
from bidcheck.review import Review, group_key, pair_key
from tests.gui.conftest import new_window, settle

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def _paths(window: MainWindow, index: int) -> tuple[str, str]:
    assert window.result is not None
    pair = window.result.pairs[index]
    return window.result.document(pair.a).path, window.result.document(pair.b).path


def _names(window: MainWindow, index: int) -> tuple[str, str]:
    assert window.result is not None
    pair = window.result.pairs[index]
    return window.result.document(pair.a).name, window.result.document(pair.b).name


@contextmanager
def _saved_and_reopened(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    """The check saved (.bidcheck) and opened in a second window, closed when done with."""
    saved = tmp_path / "标段.bidcheck"
    with qtbot.waitSignal(window.file_written, timeout=30_000):
        window.save_check(saved)
    reopened = new_window(tmp_path / "other.ini")
    try:
        with qtbot.waitSignal(reopened.result_shown, timeout=30_000):
            reopened.open_check(saved)
        yield reopened
    finally:
        reopened.close()


def test_a_mark_is_kept_saved_and_reported(checked: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    checked.select_pair(0)
    settle()
    evidence = checked.evidence
    evidence.review_state.setCurrentIndex(evidence.review_state.findData("confirmed"))
    evidence.review_note.setFocus()
    qtbot.keyClicks(evidence.review_note, "chapter 4 from one draft, heard 12-05")  # kept as typed, no Enter
    top = pair_key(*_paths(checked, 0))
    assert checked.reviews[top] == Review("confirmed", "chapter 4 from one draft, heard 12-05")
    checked.select_pair(1)
    settle()
    assert evidence.review_state.currentData() == "pending" and evidence.review_note.text() == ""
    checked.select_pair(0)
    settle()
    assert evidence.review_note.text() == "chapter 4 from one draft, heard 12-05"  # shown again with its pair

    with qtbot.waitSignal(checked.result_shown, timeout=60_000):
        checked.run_check()  # checked again (from the cache): the pair is the same pair
    checked.select_pair(0)
    settle()
    assert evidence.review_state.currentData() == "confirmed"
    checked.resize(1400, 860)
    settle()
    SHOTS.mkdir(parents=True, exist_ok=True)
    checked.grab().save(str(SHOTS / "review-mark.png"))

    with _saved_and_reopened(checked, qtbot, tmp_path) as reopened:
        assert reopened.reviews[top].state == "confirmed"

    for path, export in (
        (tmp_path / "r.xlsx", checked.export_xlsx),
        (tmp_path / "r.docx", checked.export_docx),
    ):
        with qtbot.waitSignal(checked.file_written, timeout=30_000):
            export(path)
    rows = list(load_workbook(tmp_path / "r.xlsx")["文件对排名"].iter_rows(values_only=True))
    assert rows[0][13:15] == ("核实", "核实备注") and rows[1][13:15] == (
        "已核实",
        "chapter 4 from one draft, heard 12-05",
    )
    only = tmp_path / "confirmed.docx"
    with qtbot.waitSignal(checked.file_written, timeout=30_000):
        checked.export_docx(only, confirmed_only=True)
    text = "\n".join(p.text for p in open_docx(str(only)).paragraphs)
    a, b = _names(checked, 0)
    assert f"{a} ↔ {b}" in text and "【评标委员会：已核实：chapter 4 from one draft, heard 12-05】" in text
    c, d = _names(checked, 1)
    assert f"{c} ↔ {d}" not in text  # not marked: not in the confirmed dossier
    full = "\n".join(p.text for p in open_docx(str(tmp_path / "r.docx")).paragraphs)
    assert f"{c} ↔ {d}" in full


def test_a_recheck_keeps_the_pair_shown(checked: MainWindow, qtbot: QtBot) -> None:
    checked.select_pair(2)
    settle()
    before = _names(checked, 2)
    with qtbot.waitSignal(checked.result_shown, timeout=60_000):
        checked.run_check()
    index = checked.pairs.selected_pair()
    assert index is not None and set(_names(checked, index)) == set(before) and index == 2
    assert checked.evidence.heading.text() == f"{before[0]}  ↔  {before[1]}"


def test_a_ring_is_marked_from_the_summary_and_reported(
    checked: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    """A suspected ring's 标记 link opens its mark; the mark shows in the summary, survives a re-check
    and a save, and is carried into the workbook's 疑似串标组 sheet and the confirmed-only dossier."""
    assert checked.result is not None and checked.result.groups
    assert 'href="group:1"' in checked.summary.text()
    checked.review_group("group:1")
    dialog = checked.group_dialog
    assert dialog is not None and dialog.isVisible()
    members = [checked.result.document(m) for m in checked.result.groups[0].members]
    assert dialog.members.text() == "、".join(d.name for d in members)
    dialog.state.setCurrentIndex(dialog.state.findData("confirmed"))
    qtbot.keyClicks(dialog.note, "one author, one draft")
    dialog.grab().save(str(SHOTS / "group-mark.png"))
    dialog.accept()
    key = group_key(d.path for d in members)
    assert checked.reviews[key] == Review("confirmed", "one author, one draft")
    assert "〔已核实：one author, one draft〕" in checked.summary.text()
    checked.resize(1400, 860)
    settle()
    checked.summary.grab().save(str(SHOTS / "group-summary.png"))
    checked.review_group("group:1")  # opened again: the mark as made
    assert checked.group_dialog is not None and checked.group_dialog.state.currentData() == "confirmed"
    checked.group_dialog.reject()

    with qtbot.waitSignal(checked.result_shown, timeout=60_000):
        checked.run_check()
    assert "〔已核实：one author, one draft〕" in checked.summary.text()
    with _saved_and_reopened(checked, qtbot, tmp_path) as reopened:
        assert reopened.reviews[key].state == "confirmed"
        assert "〔已核实：one author, one draft〕" in reopened.summary.text()

    with qtbot.waitSignal(checked.file_written, timeout=30_000):
        checked.export_xlsx(tmp_path / "r.xlsx")
    rows = list(load_workbook(tmp_path / "r.xlsx")["疑似串标组"].iter_rows(values_only=True))
    assert rows[0][5:7] == ("核实", "核实备注") and rows[1][5:7] == ("已核实", "one author, one draft")
    assert rows[2][5] in (None, "")  # the second ring: not marked
    only = tmp_path / "confirmed.docx"
    with qtbot.waitSignal(checked.file_written, timeout=30_000):
        checked.export_docx(only, confirmed_only=True)
    text = "\n".join(p.text for p in open_docx(str(only)).paragraphs)
    assert "疑似串标组 1：" in text and "【评标委员会：已核实：one author, one draft】" in text
    assert "疑似串标组 2：" not in text
