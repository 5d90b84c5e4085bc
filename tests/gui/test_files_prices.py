"""The file list shows each bid's total price (未读出 when it could not be read, never a guess) and how
many pieces of text each file hides, each one's kind, place and text in the cell's tooltip."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from docx import Document as new_docx
from docx.shared import RGBColor
from PySide6.QtWidgets import QApplication, QToolTip

from bidcheck.gui.files_view import COLUMNS, CONCEALED, PRICE, STATUS
from bidcheck.gui.style import ERROR_FG
from bidcheck.gui.window import MainWindow
from tests.builders import paragraphs
from tests.gui.conftest import checked_window, settle

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
LETTERS = {
    "恒信市政": "投标总报价（大写）：壹仟万元整（小写：¥10,000,000.00元）。",
    "华东建设": "投标总报价（大写）：壹仟零贰拾伍万元整（小写：¥10,250,000.00元）。",
    "中联路桥": "投标总报价（大写）：壹仟零伍拾万元整（小写：¥10,500,000.00元）。",
    "宏远建工": "投标总价：大写贰佰万元整，小写：¥2,100,000.00元。",  # capitals and figures disagree
    "百川园林": "我方将按招标文件要求报价。",  # no price at all
}
HIDDEN = "本段文字为隐藏文字，打印时不显示。"


def _bid(path: Path, name: str, seed: int, letter: str, hide: bool) -> Path:
    document = new_docx()
    document.add_paragraph(f"投标人：{name}有限公司（盖单位章）")
    document.add_paragraph(letter)
    for text in paragraphs(seed, 4):
        document.add_paragraph(text)
    if hide:
        document.add_paragraph("施工部署如下。").add_run(HIDDEN).font.hidden = True
        document.add_paragraph("质量目标：合格。").add_run("白色的字").font.color.rgb = RGBColor(
            255, 255, 255
        )
    document.save(str(path))
    return path


@pytest.fixture(scope="module")
def priced(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MainWindow]:
    """Five bids: three priced in equal steps, one whose capitals and figures disagree, one without a
    price; 02 hides a paragraph and a white phrase."""
    root = tmp_path_factory.mktemp("priced")
    paths = [
        _bid(root / f"0{n}-{name}.docx", name, 600 + n, letter, hide=n == 2)
        for n, (name, letter) in enumerate(LETTERS.items(), 1)
    ]
    yield from checked_window(root / "bidcheck.ini", paths)


def test_each_bid_shows_its_total_or_that_it_could_not_be_read(priced: MainWindow) -> None:
    files = priced.files
    assert files.horizontalHeaderItem(PRICE).text() == "投标总价" and COLUMNS[PRICE] == "投标总价"
    shown = [files.item(row, PRICE).text() for row in range(files.rowCount())]
    assert shown == ["10,000,000.00", "10,250,000.00", "10,500,000.00", "未读出", "未读出"]
    assert files.item(0, PRICE).toolTip() == "投标总价 10,000,000.00 元，读自第 1 页第 2 段"
    disagree, missing = files.item(3, PRICE).toolTip(), files.item(4, PRICE).toolTip()
    assert disagree == "价格未能读出：第 1 页投标总价大写（2,000,000.00 元）与小写（2,100,000.00 元）不一致"
    assert missing.startswith("价格未能读出：未找到投标总价")
    assert files.item(3, PRICE).foreground().color() == ERROR_FG


def test_each_file_shows_how_much_text_it_hides_with_the_details_in_the_tooltip(priced: MainWindow) -> None:
    files = priced.files
    counts = [files.item(row, CONCEALED).text() for row in range(files.rowCount())]
    assert counts == ["0", "2", "0", "0", "0"]
    tip = files.item(1, CONCEALED).toolTip().split("\n")
    assert tip[0] == "隐藏或伪装的文字："
    assert tip[1] == f"隐藏文字 第 1 页第 7 段：“{HIDDEN}”"
    assert tip[2] == "白色文字 第 1 页第 8 段：“白色的字”"
    assert files.item(1, CONCEALED).foreground().color() == ERROR_FG
    assert files.item(0, CONCEALED).toolTip() == "未发现隐藏或伪装的文字"
    result = priced.result
    assert result is not None and [c.kind for c in result.document("d2").concealed] == ["hidden", "white"]


def test_the_file_list_with_prices_and_hidden_text_fits_and_is_saved(priced: MainWindow) -> None:
    files = priced.files
    priced.resize(1600, 1000)
    settle()
    for column in (PRICE, CONCEALED):  # the titles and the totals fit their columns, in view
        width = files.columnWidth(column)
        assert files.columnViewportPosition(column) + width <= files.viewport().width()
        assert width >= files.horizontalHeader().sectionSizeHint(column)
        assert all(
            files.fontMetrics().horizontalAdvance(files.item(row, column).text()) + 16 <= width  # margins
            for row in range(files.rowCount())
        )
    status = files.columnViewportPosition(STATUS) + files.fontMetrics().horizontalAdvance("已读取")
    assert status < files.viewport().width()  # and the state after them still reads
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert files.window().grab().save(str(SHOTS / "file-list-prices.png"))
    cell = files.visualItemRect(files.item(1, CONCEALED)).center()
    QToolTip.showText(files.viewport().mapToGlobal(cell), files.item(1, CONCEALED).toolTip(), files)
    settle()
    (tip,) = [w for w in QApplication.topLevelWidgets() if w.isVisible() and w.inherits("QTipLabel")]
    assert tip.grab().save(str(SHOTS / "file-list-hidden-tooltip.png"))
