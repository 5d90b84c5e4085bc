"""A check from the user's side: files and roles, a bad file, cancel, settings, save and reopen, language."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QPushButton, QToolBar
from pytestqt.qtbot import QtBot

from bidcheck.config import Settings
from bidcheck.gui import app, prefs
from bidcheck.gui.i18n import set_language
from bidcheck.gui.window import MainWindow
from bidcheck.model import result_to_dict
from tests.builders import paragraphs
from tests.gui.conftest import SAMPLE, TENDER, new_window

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def run_to_end(window: MainWindow, qtbot: QtBot) -> None:
    with qtbot.waitSignal(window.result_shown, timeout=60_000):
        window.run_check()
    qtbot.waitUntil(lambda: not window.busy)


def test_drop_files_and_folders_and_mark_the_tender(window: MainWindow, qtbot: QtBot) -> None:
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(SAMPLE / "bids")), QUrl.fromLocalFile(str(TENDER))])
    drop = QDropEvent(
        QPointF(20, 20),
        Qt.DropAction.CopyAction,
        data,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.files.dropEvent(drop)
    files = window.files.files()
    assert [f.path.name for f in files][:2] == ["01-华东建设集团.docx", "02-恒信市政工程.pdf"]
    assert [f.role for f in files].count("tender") == 1  # named 招标文件, so marked as the tender
    assert window.files.status_item(0).text() == "待检查"
    window.files.cellWidget(5, 1).setCurrentIndex(2)  # the user marks 06 as a template
    assert window.inputs().templates == (files[5].path,)
    assert window.files.add_paths([SAMPLE / "bids"]) == 0  # nothing is added twice
    window.files.selectRow(5)
    qtbot.keyClick(window.files, Qt.Key.Key_Delete)
    assert len(window.files.files()) == 6 and window.inputs().templates == ()


def test_each_command_has_one_button_the_toolbar_or_a_panel(window: MainWindow) -> None:
    """Adding files and starting the check are the toolbar's; a panel button does what no toolbar button
    does (remove the selected files)."""
    toolbar = window.findChild(QToolBar, "main-toolbar")
    assert toolbar is not None
    commands = {_bare(a.text()) for a in toolbar.actions() if a.text()}
    assert {"添加投标文件", "添加文件夹", "开始检查"} <= commands
    buttons = {_bare(b.text()) for b in window.centralWidget().findChildren(QPushButton) if b.isVisible()}
    assert "移除" in buttons
    assert not any(b in commands or b.replace("文件", "投标文件") in commands for b in buttons), buttons


def _bare(text: str) -> str:
    return text.replace("…", "").replace("&", "").strip()


def test_a_bad_file_shows_its_error_and_the_rest_is_checked(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    bids = tmp_path / "bids"
    bids.mkdir()
    for name in ("01-华东建设集团.docx", "02-恒信市政工程.pdf"):
        shutil.copy(SAMPLE / "bids" / name, bids / name)
    (bids / "03-坏文件.pdf").write_bytes(b"%PDF-1.7\nthis is not really a pdf")
    window.add_paths([bids, TENDER])
    run_to_end(window, qtbot)
    status = window.files.status_item(2)
    assert status.text() not in ("已读取", "待检查") and status.text()
    assert status.foreground().color().red() > 150
    assert window.result is not None and window.result.pairs[0].level == "high"
    assert "1 个文件无法读取" in window.summary.text()


def test_cancel_stops_the_check_and_the_window_stays_usable(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    big = tmp_path / "big"
    big.mkdir()
    for n in range(24):
        (big / f"{n:02d}.txt").write_text("\n".join(paragraphs(n, 300)), encoding="utf-8")
    window.add_paths([big])
    window.run_check()
    assert window.busy and window.cancel_button.isVisible() and not window.menu_actions["run"].isEnabled()
    qtbot.waitUntil(lambda: window.progress.value() > 0, timeout=30_000)  # reading has begun
    with qtbot.waitSignal(window.check_cancelled, timeout=60_000):
        qtbot.mouseClick(window.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.busy)
    assert window.result is None
    assert window.stage.text() == "检查已取消。"
    assert window.menu_actions["run"].isEnabled() and window.files.isEnabled()
    assert not window.cancel_button.isVisible()
    window.new_check()  # usable again: a small section checks to the end
    window.add_paths([SAMPLE / "bids" / "03-中联路桥.docx", SAMPLE / "bids" / "04-宏远建工.pdf"])
    run_to_end(window, qtbot)
    assert window.result is not None and len(window.result.pairs) == 1


def test_settings_dialog_validates_resets_and_remembers(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    dialog = window.open_settings()
    assert dialog.isVisible()
    dialog.editors["high_similarity"].setValue(10.0)
    dialog.editors["watch_similarity"].setValue(90.0)  # watch above high: refused, and said so
    dialog.accept()
    assert dialog.isVisible()
    assert dialog.error.text() == "“二级观察相似度”不能高于一级预警相似度"
    dialog.reset()
    assert dialog.editors["high_similarity"].value() == Settings().high_similarity * 100
    assert not dialog.error.text()
    dialog.editors["high_chars"].setValue(5000)
    dialog.editors["watch_similarity"].setValue(4.0)
    dialog.accept()
    assert not dialog.isVisible()
    assert window.settings.high_chars == 5000 and window.settings.watch_similarity == 0.04
    remembered = prefs.load_settings(prefs.open_store(tmp_path / "bidcheck.ini"))
    assert remembered.high_chars == 5000


def test_settings_dialog_shows_every_setting_on_a_small_screen(window: MainWindow) -> None:
    """Every setting has its editor on one of the dialog's pages, and the dialog fits 1366 × 768."""
    from dataclasses import fields

    dialog = window.open_settings()
    try:
        assert set(dialog.editors) == {f.name for f in fields(Settings)}
        hint = dialog.sizeHint()
        assert hint.width() <= 1366 and hint.height() <= 700, hint
        assert dialog.pages.tabText(0) == "基本" and dialog.pages.currentIndex() == 0
        basic = [name for name in dialog.editors if dialog.editors[name].isVisible()]
        levels, switches = ["high_similarity", "watch_similarity"], ["signals_enabled", "semantic_enabled"]
        assert basic == [*levels, "library_path", *switches]
        assert not dialog.editors["high_chars"].isVisible()
        SHOTS.mkdir(parents=True, exist_ok=True)
        dialog.grab().save(str(SHOTS / "settings-basic.png"))
        dialog.pages.setCurrentIndex(2)
        shown = dialog.editors["bill_resource_share"]
        assert shown.isVisible() and shown.toolTip().endswith("(bill_resource_share)")
        SHOTS.mkdir(parents=True, exist_ok=True)
        dialog.grab().save(str(SHOTS / "settings-bills.png"))
    finally:
        dialog.reject()


def _open_by_name(window: MainWindow, path: Path) -> None:
    """As a double-click on a .bidcheck file does: the app started with its path."""
    app.open_paths(window, [path])


@pytest.mark.parametrize("open_saved", [MainWindow.open_check, _open_by_name], ids=["menu", "by-name"])
def test_save_and_reopen_a_check(
    checked: MainWindow, qtbot: QtBot, tmp_path: Path, open_saved: Callable[[MainWindow, Path], None]
) -> None:
    path = tmp_path / "第二标段.bidcheck"
    with qtbot.waitSignal(checked.file_written, timeout=30_000):
        checked.save_check(path)
    reopened = new_window(tmp_path / "other.ini")
    try:
        with qtbot.waitSignal(reopened.result_shown, timeout=30_000):
            open_saved(reopened, path)
        assert reopened.result is not None and checked.result is not None
        assert result_to_dict(reopened.result)["pairs"] == result_to_dict(checked.result)["pairs"]
        assert [f.role for f in reopened.files.files()] == [f.role for f in checked.files.files()]
        assert reopened.texts.keys() == checked.texts.keys()
        assert reopened.evidence.left.view.toPlainText() == checked.texts[reopened.result.pairs[0].a].text
        assert reopened.check_path == path
        assert prefs.recent(reopened.store) == [path]
    finally:
        reopened.close()


def test_reopen_a_result_whose_files_are_gone_shows_passages_only(
    checked: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    assert checked.result is not None
    data = result_to_dict(checked.result)
    for doc in data["documents"]:
        doc["path"] = str(tmp_path / "gone" / doc["name"])
    path = tmp_path / "result.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    reopened = new_window(tmp_path / "other.ini")
    try:
        with qtbot.waitSignal(reopened.result_shown, timeout=30_000):
            reopened.open_check(path)
        assert reopened.texts == {}
        evidence = reopened.evidence
        assert "只显示共同段落" in evidence.left.title.text()
        pair = reopened.result.pairs[0] if reopened.result else None
        assert pair is not None
        index = evidence.visible_passages[-1]
        evidence.select_passage(index)
        start, end = evidence.span(1, index)
        assert evidence.right.view.toPlainText()[start:end] == pair.passages[index].b.text
        assert evidence.right.view.textCursor().position() == start
    finally:
        reopened.close()


def test_english_interface(qtbot: QtBot, tmp_path: Path) -> None:
    store = tmp_path / "bidcheck.ini"
    window = app.open_window(store)
    qtbot.addWidget(window)
    window.add_paths([SAMPLE / "bids"])
    window.switch_language("en")
    english = app.windows()[-1]
    qtbot.addWidget(english)
    assert english is not window and window not in app.windows()
    assert english.menu_actions["run"].text() == "Run check"
    assert english.windowTitle() == "6 bids — bidcheck Bid collusion check" or english.windowTitle().endswith(
        "bidcheck Bid collusion check"
    )
    assert len(english.files.files()) == 6  # the same check
    assert prefs.language(prefs.open_store(store)) == "en"
    english.close()
    set_language("zh")


def test_a_tender_named_again_takes_its_role_in_the_list(window: MainWindow, tmp_path: Path) -> None:
    folder = tmp_path / "标段 一"
    shutil.copytree(SAMPLE / "bids", folder)
    tender = Path(shutil.copy(TENDER, folder / "招标 文件（正式）.docx"))  # a name no guess makes a tender
    app.open_paths(window, [folder], [tender])
    roles = {f.path.name: f.role for f in window.files.files()}
    assert roles[tender.name] == "tender" and list(roles.values()).count("tender") == 1
    assert window.inputs().tenders == (tender,) and tender not in window.inputs().bids
    assert window.files.add_paths([tender], "tender") == 0  # named again with the same role: no change


def test_a_late_bid_after_a_command_line_check_gives_a_fresh_checks_result(
    window: MainWindow, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command line checks five bids; the window checks them (its stages answered from the cache,
    which then keep what the next check reuses), then a sixth is added: its result is a fresh check's
    of all six, in another cache."""
    from bidcheck import cli

    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(tmp_path / "cache"))
    every = sorted((SAMPLE / "bids").iterdir())
    bids = tmp_path / "bids"
    bids.mkdir()
    for path in every[:5]:
        shutil.copy(path, bids / path.name)
    first = tmp_path / "first.json"
    assert cli.main(["check", str(bids), "--tender", str(TENDER), "--json", str(first), "--quiet"]) == 0
    stages = sorted((tmp_path / "cache" / "stages").rglob("*.bin"))
    window.add_paths([bids, TENDER])
    run_to_end(window, qtbot)
    assert window.result is not None and len(window.result.pairs) == 10
    assert sorted((tmp_path / "cache" / "stages").rglob("*.bin")) == stages  # answered from the cache
    late = bids / every[5].name
    shutil.copy(every[5], late)
    window.add_paths([late])
    run_to_end(window, qtbot)
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(tmp_path / "fresh"))
    fresh = tmp_path / "fresh.json"
    assert cli.main(["check", str(bids), "--tender", str(TENDER), "--json", str(fresh), "--quiet"]) == 0
    assert window.result is not None and len(window.result.pairs) == 15
    assert _comparable(result_to_dict(window.result)) == _comparable(json.loads(fresh.read_text("utf-8")))


def _comparable(result: dict) -> str:
    """A result without what differs from run to run (times) or place to place (paths)."""
    for key in ("elapsed_s", "timings"):
        result.pop(key, None)
    for doc in result["documents"]:
        doc.pop("path", None)
    return json.dumps(result, ensure_ascii=False, sort_keys=True)


def test_a_section_is_named_by_its_tender_and_renamed_in_the_library_too(
    qapp: object, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checked with its tender, the window takes the tender's project name (title, reports, library);
    renamed (F2), the library's record takes the new name."""
    from PySide6.QtWidgets import QInputDialog

    from bidcheck.library import open_library

    window = new_window(tmp_path / "bidcheck.ini", library=True)
    library = tmp_path / "l.sqlite"
    window.settings = Settings(library_path=str(library), workers=1)
    try:
        window.add_paths([SAMPLE / "bids", TENDER])
        run_to_end(window, qtbot)
        name = "某市滨江新区道路及排水管网改造工程施工第二标段"
        assert window.name == name and name in window.windowTitle()
        monkeypatch.setattr(QInputDialog, "getText", lambda *_a, **_k: ("滨江二标", True))
        assert window.rename_section()
        assert window.name == "滨江二标" and "滨江二标" in window.windowTitle()
        assert window.stage.text() == "标段已改名为“滨江二标”，资料库中的记录也已改名"
        stored = open_library(library, read_only=True)
        try:
            assert [row.name for row in stored.sections()] == ["滨江二标"]
        finally:
            stored.close()
    finally:
        window.close()
