"""The app's 自查 mode, driven offscreen: opened from the main window, a planted bid checked against its
consultant's template, the findings listed by weight with how to clear them, exported, and the fixed
bid coming out clean."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from openpyxl import load_workbook
from pytestqt.qtbot import QtBot

from bidcheck.gui.selfcheck_window import SelfCheckWindow
from bidcheck.gui.window import MainWindow
from bidcheck.selfcheck import SelfCheckInputs
from tests.gui.conftest import new_window, settle
from tests.selfcheck_files import OTHER, TEMPLATE_PATH, build_files

SHOT = os.environ.get("BIDCHECK_SELFCHECK_SHOT")  # where to keep the screenshot, besides the test's folder


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build_files(tmp_path_factory.mktemp("selfcheck"))


@pytest.fixture
def main_window(tmp_path: Path) -> Iterator[MainWindow]:
    window = new_window(tmp_path / "store.ini")
    yield window
    window.close()
    window.deleteLater()


@pytest.fixture
def checker(main_window: MainWindow) -> SelfCheckWindow:
    """The 自查 window, opened from the main window's menu."""
    main_window.menu_actions["self_check"].trigger()
    found = main_window.findChildren(SelfCheckWindow)
    assert len(found) == 1 and found[0].isVisible()
    return found[0]


def _run(qtbot: QtBot, checker: SelfCheckWindow, inputs: SelfCheckInputs) -> None:
    checker.set_inputs(inputs)
    assert checker.run_button.isEnabled()
    with qtbot.waitSignal(checker.result_shown, timeout=120_000):
        checker.run_button.click()
    qtbot.waitUntil(lambda: not checker.busy)
    settle()


def test_the_self_check_lists_what_to_fix_and_clears_once_fixed(
    qtbot: QtBot,
    checker: SelfCheckWindow,
    files: dict[str, Path],
    tmp_path: Path,
) -> None:
    assert not checker.run_button.isEnabled()  # no bid yet
    planted = SelfCheckInputs(files["planted"], (files["reference"],), (files["tender"],))
    _run(qtbot, checker, planted)
    result = checker.result
    assert result is not None and not result.clean
    table = checker.findings.table
    assert table.rowCount() == len(result.findings) >= 6
    assert table.item(0, 0).data(256) == "high"  # Qt.UserRole: the badge's level
    assert table.item(0, 2).text().startswith(f"文件中出现另一单位的名称“{OTHER}”（第 1 页第 13 段）")
    assert "发现" in checker.findings.verdict.text()
    template = next(n for n, f in enumerate(result.findings) if f.value == TEMPLATE_PATH)
    table.setCurrentCell(template, 0)
    assert "文档模板" in checker.findings.details.toPlainText()
    table.setCurrentCell(0, 0)
    assert OTHER in checker.findings.details.toPlainText()
    shot = checker.grab()
    assert shot.save(str(tmp_path / "selfcheck.png")) and shot.width() >= 1400
    if SHOT:
        shot.save(SHOT)
    with qtbot.waitSignal(checker.file_written, timeout=30_000):
        checker.export(tmp_path / "自查.xlsx")
    sheet = load_workbook(tmp_path / "自查.xlsx")["自查"]
    assert sum(1 for row in sheet.iter_rows(values_only=True) if row[1] == "一级预警") >= 3
    fixed = SelfCheckInputs(files["fixed"], (files["reference"],), (files["tender"],))
    _run(qtbot, checker, fixed)
    assert checker.result is not None and checker.result.clean
    assert table.rowCount() == 0 and "未发现" in checker.findings.verdict.text()


def test_a_missing_reference_is_said_before_anything_runs(
    qtbot: QtBot,
    checker: SelfCheckWindow,
    files: dict[str, Path],
    tmp_path: Path,
) -> None:
    checker.set_inputs(SelfCheckInputs(files["clean"], (tmp_path / "gone.docx",)))
    with qtbot.waitSignal(checker.task_failed, timeout=5_000) as failed:
        checker.run_button.click()
    assert "找不到文件" in failed.args[0] and checker.result is None and not checker.busy


def test_a_running_self_check_can_be_cancelled(
    qtbot: QtBot, checker: SelfCheckWindow, files: dict[str, Path]
) -> None:
    checker.set_inputs(
        SelfCheckInputs(files["planted"], (files["reference"], files["clean"]), (files["tender"],))
    )
    checker.run_button.click()
    assert checker.busy and checker.status.cancel_button.isVisible()
    checker.status.cancel_button.click()
    qtbot.waitUntil(lambda: not checker.busy, timeout=60_000)
    assert checker.result is None and checker.stage.text() == "自查已取消。"
    assert not checker.status.progress.isVisible() and checker.run_button.isEnabled()
