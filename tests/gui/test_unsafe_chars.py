"""The app on a section whose texts and names hold characters XML cannot hold (see ``tests/oddchars.py``):
the pairs and the evidence show, at the right offsets, and a saved check keeps them."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from bidcheck.gui.store import load_check
from bidcheck.gui.texts import agrees
from bidcheck.gui.window import MainWindow
from bidcheck.model import CheckResult
from tests.oddchars import OddSection, make_odd_section


@pytest.fixture(scope="module")
def odd(tmp_path_factory: pytest.TempPathFactory) -> OddSection:
    return make_odd_section(tmp_path_factory.mktemp("odd"))


def _check(window: MainWindow, qtbot: QtBot, odd: OddSection) -> CheckResult:
    window.add_paths([odd.bids])
    with qtbot.waitSignal(window.result_shown, timeout=60_000):
        window.run_check()
    assert window.result is not None
    return window.result


def _assert_evidence_in_place(window: MainWindow, result: CheckResult) -> None:
    """The copied pair's passage lies at its offsets on both sides of the evidence view."""
    index = next(i for i, p in enumerate(result.pairs) if (p.a, p.b) == ("d1", "d2"))
    window.select_pair(index)
    passage = result.pairs[index].passages[0]
    assert "\ufffd" in passage.a.text
    for side, pane, wording in (
        (0, window.evidence.left, passage.a.text),
        (1, window.evidence.right, passage.b.text),
    ):
        start, end = window.evidence.span(side, 0)
        assert pane.view.toPlainText()[start:end] == wording


def test_the_app_shows_the_pairs_and_the_evidence(window: MainWindow, qtbot: QtBot, odd: OddSection) -> None:
    result = _check(window, qtbot, odd)
    assert window.pairs.model().rowCount() == 6
    assert [window.files.item(row, 0).text() for row in range(4)] == [
        "01-甲.txt",
        "02-乙\ufffd.txt",
        "03-\ufffd\ufffd.txt",
        "04-丁.pdf",
    ]
    assert set(window.texts) == {"d1", "d2", "d3", "d4"}
    _assert_evidence_in_place(window, result)


def test_a_saved_check_keeps_the_texts_and_reopens(
    window: MainWindow, qtbot: QtBot, odd: OddSection, tmp_path: Path
) -> None:
    result = _check(window, qtbot, odd)
    path = tmp_path / "odd.bidcheck"
    with qtbot.waitSignal(window.file_written, timeout=30_000):
        window.save_check(path)
    saved = load_check(path)
    assert saved.result is not None and saved.texts == window.texts
    assert [d.name for d in saved.result.documents] == [d.name for d in result.documents]
    assert all(agrees(saved.result, doc_id, text) for doc_id, text in saved.texts.items())
    assert saved.files[1].path == odd.files["b"]  # U+0001 kept (JSON escapes it): the file is found again
    assert saved.files[2].path.name == "03-\ufffd\ufffd.txt"  # UTF-8 cannot hold a lone surrogate
    window.new_check()
    with qtbot.waitSignal(window.result_shown, timeout=60_000):
        window.open_check(path)
    assert window.result is not None
    _assert_evidence_in_place(window, window.result)
