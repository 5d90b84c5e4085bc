"""A rewritten passage (语义改写) is listed and painted in its own colour, apart from copied text."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from bench.grammar import paragraph
from bench.rewrites import REWRITES
from bidcheck.gui.style import CURRENT_BG, SEMANTIC_BG
from bidcheck.gui.window import MainWindow
from tests.builders import make_docx
from tests.gui.conftest import SAMPLE, TENDER, checked_window, new_window, settle


def _own(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [paragraph(rng) for _ in range(count)]


@pytest.fixture(scope="module")
def shown(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MainWindow]:
    """Five bids of their own wording; 02 rewrote three paragraphs of 01 as a block and one alone."""
    root = tmp_path_factory.mktemp("rewritten")
    block, alone = REWRITES[6:9], REWRITES[9]
    paths = []
    for n in range(1, 6):
        own = _own(900 + n, 14)
        if n in (1, 2):
            pick = (lambda r: r.original) if n == 1 else (lambda r: r.rewrite)
            own = own[:4] + [pick(r) for r in block] + own[4:10] + [pick(alone)] + own[10:]
        paths.append(make_docx(root / f"0{n}-投标人{n}.docx", [own[:9], own[9:]]))
    yield from checked_window(root / "bidcheck.ini", paths)


def test_rewritten_passages_are_listed_and_painted_in_their_own_colour(
    shown: MainWindow, tmp_path: Path
) -> None:
    evidence = shown.evidence
    pair = evidence._pair
    assert pair is not None and "语义改写" in pair.reason
    rewritten = [i for i, p in enumerate(pair.passages) if p.semantic]
    assert len(rewritten) == 2, [(p.a.text[:20], p.semantic) for p in pair.passages]
    rows = {int(evidence.passages.item(r, 0).text()) - 1: r for r in range(evidence.passages.rowCount())}
    for index in rewritten:
        kind = evidence.passages.item(rows[index], 5)
        assert kind.text() == "语义改写"
        assert kind.background().color() == SEMANTIC_BG
    evidence.select_passage(rewritten[0])
    settle()
    backgrounds = {s.format.background().color().name() for s in evidence.left.view.extraSelections()}
    assert {SEMANTIC_BG.name(), CURRENT_BG.name()} <= backgrounds
    shot = Path(os.environ.get("BIDCHECK_SHOT_DIR", tmp_path)) / "semantic-passages.png"
    assert shown.grab().save(str(shot))
    assert shot.stat().st_size > 10_000


def test_the_settings_say_what_the_layer_costs_here_and_a_skipped_layer_is_said(
    qapp: QApplication, qtbot: QtBot, tmp_path: Path
) -> None:
    """The dialog states the layer's time for the section's bids as its values change; a check run
    without the layer (more bids than ``semantic_max_bids``) says so under the counts."""
    window = new_window(tmp_path / "bidcheck.ini")
    try:
        window.add_paths([SAMPLE / "bids", TENDER])
        dialog = window.open_settings()
        assert re.fullmatch(
            r"语义比对约需 \d+ 秒（6 份投标文件，约 [\d.]+ 万字；可在设置中关闭 semantic_enabled）",
            dialog.plan.text(),
        )
        assert dialog.plan.isVisible()
        dialog.editors["semantic_max_bids"].setValue(5)
        assert dialog.plan.text().startswith("语义比对未运行：标段有 6 份投标文件，超过上限 5 份")
        shot = Path(os.environ.get("BIDCHECK_SHOT_DIR", tmp_path)) / "settings-semantic-plan.png"
        assert dialog.grab().save(str(shot))
        dialog.accept()
        assert window.settings.semantic_max_bids == 5
        with qtbot.waitSignal(window.result_shown, timeout=120_000):
            window.run_check()
        assert window.result is not None and window.result.semantic_note
        assert window.result.semantic_note in window.summary.text()
    finally:
        window.close()
        window.deleteLater()
