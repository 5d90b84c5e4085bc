"""The pair view lists a pair's signals above its passages, and hides the list when there are none."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QLabel

from bidcheck.gui.window import MainWindow
from bidcheck.model import Place, Signal
from bidcheck.words import signal_line
from tests.builders import make_docx, paragraphs
from tests.gui.conftest import checked_window, new_window, settle, wait_until

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


@pytest.fixture(scope="module")
def shown(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MainWindow]:
    """Three bids of their own wording; 01 and 02 were written by one 刘建国."""
    root = tmp_path_factory.mktemp("signals")
    paths = [
        make_docx(root / f"0{n}-投标人{n}.docx", [paragraphs(300 + n, 6)], author=author)
        for n, author in ((1, "刘建国"), (2, "刘建国"), (3, "王五"))
    ]
    yield from checked_window(root / "bidcheck.ini", paths)


def test_the_top_pair_lists_its_signal(shown: MainWindow) -> None:
    evidence = shown.evidence
    assert evidence.signals.isVisible()
    assert evidence.signals.text() == "【强】文档属性 · 作者：刘建国（文件属性）"  # no place: no link
    assert evidence.badge.text().split() == ["一级预警", "迹象"]  # raised by a sign alone: no "0.0%"
    assert "由同一人编辑" in evidence.reason.text()


def test_a_pair_without_signals_hides_the_list(shown: MainWindow) -> None:
    result = shown.result
    assert result is not None
    quiet = next(p for p in result.pairs if not p.signals)
    shown.evidence.show_pair(quiet, ("a", "b"), (None, None))
    settle()
    assert not shown.evidence.signals.isVisible()


def test_a_located_signal_names_both_places() -> None:
    signal = Signal("identifier", "strong", "phone", "13912345678", "…", Place(3, 41, "…"), Place(5, 12, "…"))
    assert (
        signal_line(signal)
        == "【强】相同标识 · 电话号码：13912345678（A 第 3 页第 41 段 / B 第 5 页第 12 段）"
    )


@pytest.fixture(scope="module")
def phone_shown(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MainWindow]:
    """Three bids of their own wording, three pages each; 01 and 02 give one mobile far down."""
    root = tmp_path_factory.mktemp("phone")
    paths = []
    for n in (1, 2, 3):
        own = paragraphs(330 + n, 18, sentences=5)
        if n < 3:
            own[14 + n] = f"项目联系人手机：13912345678，随时联系（{n}）。"
        paths.append(make_docx(root / f"0{n}-投标人{n}.docx", [own[:6], own[6:12], own[12:]]))
    yield from checked_window(root / "bidcheck.ini", paths)


def test_a_click_on_a_located_signal_shows_its_place_on_both_sides(phone_shown: MainWindow) -> None:
    evidence = phone_shown.evidence
    assert '<a href="0">' in evidence.signals.text() and "13912345678" in evidence.signals.text()
    evidence.signals.linkActivated.emit("0")
    settle()
    for pane, n in ((evidence.left, 1), (evidence.right, 2)):
        block = pane.view.textCursor().block().text()
        assert f"13912345678，随时联系（{n}）" in block, block


@pytest.fixture(scope="module")
def picture_shown(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MainWindow]:
    """Three bids of their own wording; 01 and 02 carry one site photo (02's re-encoded, smaller)."""
    from docx import Document as new_docx
    from docx.shared import Inches

    from bench.pictures import encoded, photo

    root = tmp_path_factory.mktemp("pictures")
    site = photo(101)
    pictures = {
        1: encoded(site),
        2: encoded(site.resize((450, 300)), "JPEG", quality=70),
        3: encoded(photo(7)),
    }
    paths = []
    for n, data in pictures.items():
        document = new_docx()
        for text in paragraphs(360 + n, 6):
            document.add_paragraph(text)
        document.add_picture(io.BytesIO(data), width=Inches(2))
        document.save(str(root / f"0{n}-投标人{n}.docx"))
        paths.append(root / f"0{n}-投标人{n}.docx")
    yield from checked_window(root / "bidcheck.ini", paths)


def test_a_pair_sharing_a_picture_shows_both_thumbnails(picture_shown: MainWindow, tmp_path: Path) -> None:
    evidence = picture_shown.evidence
    assert evidence.pictures.isVisible() and "相同图片" in evidence.signals.text()
    shown = [
        label.pixmap() for label in evidence.pictures.findChildren(QLabel) if not label.pixmap().isNull()
    ]
    assert len(shown) == 2 and all(p.width() == 96 for p in shown)
    picture_shown.resize(1400, 800)
    settle()
    assert picture_shown.grab().save(str(tmp_path / "pictures.png"))
    result = picture_shown.result
    assert result is not None
    quiet = next(p for p in result.pairs if not p.signals)
    evidence.show_pair(quiet, ("a", "b"), (None, None))
    settle()
    assert not evidence.pictures.isVisible()


def test_a_shared_screenshot_is_shown_as_a_supporting_sign_that_says_what_it_is(
    qapp: QApplication, tmp_path: Path
) -> None:
    """Two bids sharing a credit-query site's screenshot and nothing else: the pair is 二级观察, its
    sign 辅助, the detail says the picture is drawn by a computer and often public; both thumbnails."""
    from docx import Document as new_docx
    from docx.shared import Inches

    from bench.pictures import encoded, screenshot

    paths = []
    for n in (1, 2):
        document = new_docx()
        for text in paragraphs(380 + n, 6):
            document.add_paragraph(text)
        document.add_picture(io.BytesIO(encoded(screenshot(4))), width=Inches(4))
        document.save(str(tmp_path / f"0{n}-投标人{n}.docx"))
        paths.append(tmp_path / f"0{n}-投标人{n}.docx")
    for window in checked_window(tmp_path / "bidcheck.ini", paths):
        evidence = window.evidence
        text = evidence.signals.text()
        assert "【辅助】相同图片 · 同一图片：截图、图表一类电脑绘制的图片（1200×800 像素）" in text, text
        assert window.result is not None and window.result.pairs[0].level == "watch"
        shown = [label for label in evidence.pictures.findChildren(QLabel) if not label.pixmap().isNull()]
        assert len(shown) == 2
        window.resize(1400, 800)
        settle()
        SHOTS.mkdir(parents=True, exist_ok=True)
        assert window.grab().save(str(SHOTS / "screenshot-signal.png"))


def test_the_thumbnails_come_back_with_a_saved_result(
    picture_shown: MainWindow, qapp: QApplication, tmp_path: Path
) -> None:
    """The result JSON keeps the shared pictures' thumbnails: a window that opens it shows them."""
    saved = tmp_path / "result.json"
    written: list[str] = []
    picture_shown.file_written.connect(written.append)
    picture_shown.export_json(saved)
    wait_until(lambda: bool(written) and not picture_shown.busy)
    reopened = new_window(tmp_path / "bidcheck.ini")
    try:
        opened: list[bool] = []
        reopened.result_shown.connect(lambda: opened.append(True))
        reopened.open_check(saved)
        wait_until(lambda: bool(opened) and not reopened.busy)
        reopened.resize(1400, 800)
        settle()
        evidence = reopened.evidence
        assert evidence.pictures.isVisible() and "相同图片" in evidence.signals.text()
        labels = evidence.pictures.findChildren(QLabel)
        shown = [label.pixmap() for label in labels if not label.pixmap().isNull()]
        assert len(shown) == 2 and all(p.width() == 96 for p in shown)
        assert shown[0].toImage().pixelColor(48, 30) != shown[0].toImage().pixelColor(5, 5)  # a picture
        shot = Path(os.environ.get("BIDCHECK_SHOT_DIR", tmp_path)) / "pictures-reopened.png"
        assert reopened.grab().save(str(shot))
    finally:
        reopened.close()
        reopened.deleteLater()


@pytest.fixture(scope="module")
def public_shown(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MainWindow]:
    """Six bids of their own wording; five quote one project contact from public documents."""
    root = tmp_path_factory.mktemp("public")
    paths = []
    for n in range(1, 7):
        own = paragraphs(360 + n, 8)
        if n < 6:
            own[3] = "本项目建设单位咨询电话：13912345678（摘自公开的项目信息）。"
        paths.append(make_docx(root / f"0{n}-投标人{n}.docx", [own]))
    yield from checked_window(root / "bidcheck.ini", paths)


def test_a_number_five_bids_quote_raises_no_pair_and_the_summary_says_why(public_shown: MainWindow) -> None:
    result = public_shown.result
    assert result is not None
    assert {p.level for p in result.pairs} == {"none"} and not any(p.signals for p in result.pairs)
    summary = public_shown.summary.text()
    assert "电话号码“13912345678”出现在 5 份投标文件中，视为公开信息，不计为迹象" in summary
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert public_shown.grab().save(str(SHOTS / "public-values.png"))


@pytest.fixture(scope="module")
def prices_shown(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MainWindow]:
    """Four bids of their own wording, two pages each; three priced to the yuan in equal steps, the
    letter on the second page."""
    root = tmp_path_factory.mktemp("prices")
    totals = {
        1: "壹仟零壹万贰仟叁佰肆拾伍元整（¥10,012,345.00）",
        2: "壹仟零贰拾陆万贰仟叁佰肆拾伍元整（¥10,262,345.00）",
        3: "壹仟零伍拾壹万贰仟叁佰肆拾伍元整（¥10,512,345.00）",
        4: "玖佰叁拾壹万贰仟元整（¥9,312,000.00）",
    }
    paths = []
    for n, total in totals.items():
        own = paragraphs(380 + n, 10, sentences=5)
        own[7] = f"第{n}家投标人愿意以人民币（大写）{total}的投标总报价承包本工程。"
        paths.append(make_docx(root / f"0{n}-投标人{n}.docx", [own[:5], own[5:]]))
    yield from checked_window(root / "bidcheck.ini", paths)


def test_a_click_on_a_price_pattern_shows_each_total_where_it_stands(prices_shown: MainWindow) -> None:
    evidence = prices_shown.evidence
    text = evidence.signals.text()
    assert '<a href="0">' in text and "等差报价" in text and "（A 第 2 页" in text, text
    evidence.signals.linkActivated.emit("0")
    settle()
    for pane in (evidence.left, evidence.right):
        block = pane.view.textCursor().block().text()
        assert "投标人愿意以人民币（大写）" in block and "的投标总报价承包本工程" in block, block
