"""The app with its library: the switch (on by default, the default library), each check compared with
the earlier sections and stored, a bid's history in the evidence view, and the library page (sections,
bidders, remove, model documents)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QTableWidget
from pytestqt.qtbot import QtBot

from bidcheck.config import Settings
from bidcheck.gui.library_page import LibraryPage
from bidcheck.gui.window import MainWindow
from bidcheck.library import default_library_path, open_library
from tests.builders import make_docx, paragraphs
from tests.gui.conftest import SAMPLE, TENDER, assert_at_top, new_window, settle

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def run_to_end(window: MainWindow, qtbot: QtBot) -> None:
    with qtbot.waitSignal(window.result_shown, timeout=120_000):
        window.run_check()
    qtbot.waitUntil(lambda: not window.busy)


def stored_sections(path: Path) -> list[str]:
    opened = open_library(path)
    try:
        return [row.name for row in opened.sections()]
    finally:
        opened.close()


@pytest.fixture()
def library_window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    """A fresh window as a user first sees it: the library switch as it comes."""
    window = new_window(tmp_path / "bidcheck.ini", library=True)
    yield window
    window.close()
    window.deleteLater()


def test_the_library_switch_is_on_by_default_and_uses_the_default_library(
    library_window: MainWindow, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert library_window.library_switch.isChecked()
    assert library_window.library_path() == tmp_path / "data" / "bidcheck" / "library.sqlite"
    library_window.add_paths([SAMPLE / "bids"])
    for _ in range(2):
        run_to_end(library_window, qtbot)
    result = library_window.result
    assert result is not None and result.library is not None
    assert result.library.path == str(default_library_path())
    assert result.library.sections == 0  # the same section checked again is compared with the others only
    assert not result.library.error
    assert stored_sections(default_library_path()) == ["bids"]


def test_switched_off_the_check_leaves_the_library_alone(
    library_window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    library = tmp_path / "library.sqlite"
    library_window.settings = library_window.settings.with_changes(library_path=str(library))
    library_window.library_switch.setChecked(False)
    stages: list[str] = []
    library_window.add_paths([SAMPLE / "bids"])
    library_window.run_check()
    assert library_window.task is not None
    library_window.task.on_progress(lambda _f, message: stages.append(message))
    qtbot.waitUntil(lambda: library_window.result is not None and not library_window.busy, timeout=120_000)
    assert library_window.result is not None and library_window.result.library is None
    assert not library.exists()
    assert "对照资料库" not in stages and "判定与分组" in stages
    again = new_window(tmp_path / "bidcheck.ini", library=True)  # the switch is remembered
    try:
        assert not again.library_switch.isChecked()
    finally:
        again.close()
        again.deleteLater()


def earlier_section(tmp_path: Path) -> Path:
    """The sample's bids under other bidders' names (so their text is another bidder's history) and the
    first bid under its own name (its own template)."""
    folder = tmp_path / "去年某标段"
    folder.mkdir()
    bids = sorted((SAMPLE / "bids").iterdir())
    shutil.copy(bids[0], folder / bids[0].name)
    for n, path in enumerate(bids[1:3], start=7):
        shutil.copy(path, folder / f"0{n}-别家公司{n}{path.suffix}")
    return folder


@pytest.fixture()
def app(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    """A window with the library on, its library ``tmp_path / "library.sqlite"``."""
    window = new_window(tmp_path / "bidcheck.ini", library=True)
    window.settings = window.settings.with_changes(library_path=str(tmp_path / "library.sqlite"))
    yield window
    window.close()
    window.deleteLater()


def check_twice(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> MainWindow:
    """The earlier section checked (and stored), then the sample section against it."""
    window.add_paths([earlier_section(tmp_path), TENDER])
    run_to_end(window, qtbot)
    window.new_check()
    window.add_paths([SAMPLE / "bids", TENDER])
    run_to_end(window, qtbot)
    return window


def test_the_evidence_view_shows_each_bids_history(app: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    window = check_twice(app, qtbot, tmp_path)
    result = window.result
    assert result is not None and result.library is not None and result.library.sections == 1
    names = [d.name for d in result.documents]
    first = names.index("01-华东建设集团.docx")
    pair = next(n for n, p in enumerate(result.pairs) if result.document(p.a).name == names[first])
    window.select_pair(pair)
    settle()
    view = window.evidence.history
    assert view.isVisible()
    rows = view.rows()
    assert rows[0] == "01-华东建设集团.docx：以往标段 2 份"
    assert rows[1].startswith("  去年某标段 / 01-华东建设集团.docx | 华东建设集团 | ")
    assert rows[1].endswith("| 自有模板")
    assert rows[2].startswith("    第 ") and "↔ 以往 第 " in rows[2]
    shown = {p.text for m in result.history[result.pairs[pair].a] for p in m.passages}
    assert any(text[:20] in rows[2] for text in shown)
    others = [r for r in rows if "别家公司" in r and r.endswith("| 以往标段")]
    assert others, rows  # another bidder's earlier bid holding this pair's text
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / "history.png"))
    window.select_pair(len(result.pairs) - 1)  # a pair whose bids have no history hides the view
    settle()
    bare = result.pairs[-1]
    assert view.isVisible() == bool(result.history.get(bare.a) or result.history.get(bare.b))


def test_a_small_window_shows_the_pairs_the_history_and_the_texts(
    app: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    """At 1280×720 with a bid's history shown, right after the check: three pairs in view, the history's
    first matches, eight lines of each text or more (four or five were), the passage in focus at the top
    of both sides."""
    app.resize(1280, 720)
    window = check_twice(app, qtbot, tmp_path)
    settle()
    evidence = window.evidence
    history = evidence.history
    assert history.isVisible() and history.height() >= history.height_for_rows() // 2
    table, seen = window.pairs, window.pairs.viewport().rect()
    assert all(seen.contains(table.visualRect(table.model().index(row, 0))) for row in range(3))
    for pane in (evidence.left, evidence.right):
        assert pane.view.viewport().height() >= 8 * pane.view.fontMetrics().lineSpacing(), pane.title.text()
    index = evidence.current_passage
    assert index is not None
    assert_at_top(evidence.left, evidence.span(0, index)[0])
    assert_at_top(evidence.right, evidence.span(1, index)[0])
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / "window-1280x720.png"))


def opened_page(window: MainWindow, qtbot: QtBot) -> LibraryPage:
    page = window.open_library_page()
    qtbot.waitUntil(lambda: page.overview is not None and not page.busy, timeout=60_000)
    settle()
    return page


def column(table: QTableWidget, number: int) -> list[str]:
    return [table.item(row, number).text() for row in range(table.rowCount())]


def test_the_library_page_lists_sections_and_bidders(app: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    window = check_twice(app, qtbot, tmp_path)
    page = opened_page(window, qtbot)
    named = "某市滨江新区道路及排水管网改造工程施工第二标段"  # "bids" says nothing: its tender names it
    assert column(page.sections, 0) == [named, "去年某标段"]  # newest first
    assert column(page.sections, 3) == ["6", "3"]
    assert "2 个标段，9 份投标文件，0 组范本" in page.figures.text()
    page.sections.selectRow(1)
    detail = page.detail.toPlainText()
    assert "07-别家公司7.pdf" in detail and "一级预警：华东建设集团 ↔ 别家公司7" in detail
    page.search.setText("别家")
    assert column(page.bidders, 0) == ["别家公司7", "别家公司8"]
    assert column(page.bidders, 1) == ["去年某标段", "去年某标段"]
    assert column(page.bidders, 2)[0] == "去年某标段：一级预警（华东建设集团）"
    page.search.setText("华东")
    assert column(page.bidders, 1) == [f"去年某标段、{named}"]
    page.tabs.setCurrentIndex(0)
    page.resize(1100, 640)
    settle()
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert page.grab().save(str(SHOTS / "library-page.png"))
    page.close()


def test_the_library_page_removes_a_section_and_keeps_model_documents(
    app: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    window, library = app, tmp_path / "library.sqlite"
    window.add_paths([earlier_section(tmp_path)])
    run_to_end(window, qtbot)
    page = opened_page(window, qtbot)
    assert column(page.sections, 0) == ["去年某标段"]
    model = make_docx(tmp_path / "示范文本.docx", [paragraphs(5, 6)])
    with qtbot.waitSignal(page.changed, timeout=60_000) as said:
        page.add_templates([model, tmp_path / "不存在.docx"], "示范文本")
    qtbot.waitUntil(lambda: not page.busy)
    assert said.args is not None and said.args[0].startswith("已存入范本 1 份；无法读取：不存在.docx")
    assert column(page.sections, 0) == ["示范文本", "去年某标段"]
    assert column(page.sections, 1) == ["范本", "标段"]
    with qtbot.waitSignal(page.changed, timeout=60_000) as said:
        page.remove_section("去年某标段")
    qtbot.waitUntil(lambda: not page.busy)
    assert said.args == ["已删除标段 去年某标段"]
    assert column(page.sections, 0) == ["示范文本"]
    assert stored_sections(library) == ["示范文本"]
    page.close()


def test_the_library_page_says_when_the_library_cannot_be_used(qtbot: QtBot, tmp_path: Path) -> None:
    broken = tmp_path / "library.sqlite"
    broken.write_bytes(b"not a database, only some bytes" * 100)
    page = LibraryPage(broken, Settings())
    qtbot.addWidget(page)
    with qtbot.waitSignal(page.loaded, timeout=60_000):
        page.refresh()
    assert page.figures.text() == "资料库不可用：资料库文件已损坏"
    assert page.sections.rowCount() == 0


def test_closing_the_window_waits_for_the_library_page(app: MainWindow, qtbot: QtBot) -> None:
    page = app.open_library_page()
    assert page.busy and page.task is not None
    app.close()  # the page's job ends before the window (and the page with it) can go
    assert page.task.wait(0)
    qtbot.waitUntil(lambda: not page.busy)


def test_sections_of_files_without_a_folder_are_each_kept(
    library_window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    library = tmp_path / "library.sqlite"
    library_window.settings = library_window.settings.with_changes(library_path=str(library))
    for year, seed in (("2025", 61), ("2026", 71)):  # files picked one by one: no folder names the section
        folder = tmp_path / year
        folder.mkdir()
        bids = [make_docx(folder / f"0{n}-{c}.docx", [paragraphs(seed + n, 6)]) for n, c in enumerate("甲乙")]
        library_window.new_check()
        library_window.add_paths(bids)
        run_to_end(library_window, qtbot)
    result = library_window.result
    assert result is not None and result.library is not None and result.library.sections == 1
    assert stored_sections(library) == ["未命名标段", "未命名标段（2）"]
    run_to_end(library_window, qtbot)  # the same files again: their own section is replaced
    assert stored_sections(library) == ["未命名标段", "未命名标段（2）"]
