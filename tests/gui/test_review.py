"""The panel's marks on pairs: set in the pair view, kept through a re-check, saved with the check,
and carried into the workbook and the dossier (whose 已核实-only form holds the confirmed pairs alone)."""

from __future__ import annotations

from pathlib import Path

from docx import Document as open_docx
from openpyxl import load_workbook
from pytestqt.qtbot import QtBot

from bidcheck.gui.window import MainWindow
from bidcheck.review import Review, pair_key
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

    saved = tmp_path / "标段.bidcheck"
    with qtbot.waitSignal(checked.file_written, timeout=30_000):
        checked.save_check(saved)
    reopened = new_window(tmp_path / "other.ini")
    try:
        with qtbot.waitSignal(reopened.result_shown, timeout=30_000):
            reopened.open_check(saved)
        assert reopened.reviews[top].state == "confirmed"
    finally:
        reopened.close()

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
