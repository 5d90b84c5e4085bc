"""The task layer: a failure reaches the slot that listens, or the log when none does."""

from __future__ import annotations

import logging
import threading

import pytest
from pytestqt.qtbot import QtBot

from bidcheck.gui.tasks import Task
from bidcheck.progress import ProgressFn


def _broken(_progress: ProgressFn, _cancel: threading.Event) -> None:
    raise ValueError("文件已损坏")


def test_a_failure_nobody_listens_to_is_logged_with_its_traceback(
    qtbot: QtBot, caplog: pytest.LogCaptureFixture
) -> None:
    task = Task(_broken)
    with caplog.at_level(logging.ERROR, logger="bidcheck"), qtbot.waitSignal(task.finished, timeout=5000):
        task.start()
    [record] = [r for r in caplog.records if r.name == "bidcheck"]
    assert "文件已损坏" in record.getMessage()
    assert record.exc_info is not None and record.exc_info[0] is ValueError


def test_a_failure_goes_to_its_slot_and_not_to_the_log(
    qtbot: QtBot, caplog: pytest.LogCaptureFixture
) -> None:
    seen: list[Exception] = []
    task = Task(_broken).on_failure(seen.append)
    with caplog.at_level(logging.ERROR, logger="bidcheck"), qtbot.waitSignal(task.finished, timeout=5000):
        task.start()
    assert [str(e) for e in seen] == ["文件已损坏"]
    assert not [r for r in caplog.records if r.name == "bidcheck"]
