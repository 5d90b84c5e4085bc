"""A section of bidders' folders in the window: one row a bidder, its files in the row's tooltip, and a
shared dongle shown in the pair view with both records side by side."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from bench.bills import bill_items, make_pricing_xml
from bidcheck.gui.window import MainWindow
from tests.builders import make_docx, paragraphs
from tests.gui.conftest import checked_window

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
TENDER = {"time": "2025-03-01 09:00:00", "dongle": "ZB-0001", "cpu": "CPU-T", "disk": "DISK-T"}
OWN = {
    "华东建设": {"time": "2025-03-20 10:12:00", "dongle": "8801-2345", "cpu": "CPU-A", "disk": "DISK-A"},
    "恒信市政": {"time": "2025-03-21 16:40:00", "dongle": "8801-2345", "cpu": "CPU-B", "disk": "DISK-B"},
    "中联路桥": {"time": "2025-03-22 08:05:00", "dongle": "7702-0001", "cpu": "CPU-C", "disk": "DISK-C"},
}


@pytest.fixture(scope="module")
def shown(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MainWindow]:
    root = tmp_path_factory.mktemp("folders")
    items = bill_items(12, 3)
    tender = make_docx(root / "招标文件.docx", [paragraphs(1, 4)])
    control = make_pricing_xml(root / "招标控制价.xml", [TENDER], items)
    for n, (name, record) in enumerate(OWN.items(), 1):
        folder = root / "bids" / name
        folder.mkdir(parents=True)
        make_docx(folder / "投标文件.docx", [paragraphs(40 * n, 6)])
        make_pricing_xml(folder / "造价.xml", [TENDER, record], items)
    yield from checked_window(root / "bidcheck.ini", [root / "bids", tender, control])


def test_each_bidder_is_one_row_and_the_control_price_is_the_tender(shown: MainWindow) -> None:
    files = shown.files.files()
    assert [(f.path.name, f.role) for f in files] == [
        ("中联路桥", "bid"),
        ("华东建设", "bid"),
        ("恒信市政", "bid"),
        ("招标文件.docx", "tender"),
        ("招标控制价.xml", "tender"),
    ]
    row = next(n for n, f in enumerate(files) if f.path.name == "华东建设")
    assert shown.files.item(row, 0).text() == "华东建设/"
    assert "造价.xml：" in shown.files.item(row, 0).toolTip()  # its files with their pages, once read


def test_the_top_pair_shows_both_records_of_the_shared_dongle(shown: MainWindow) -> None:
    text = shown.evidence.signals.text()
    assert "同一机器 · 加密锁序列号：8801-2345" in text, text
    assert "2025-03-20 10:12:00" in text and "2025-03-21 16:40:00" in text
    assert "ZB-0001" not in text  # the tender's record, in every bill, is no sign
    assert "<a href" not in text  # records of the files: no place in the text to go to
    if os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        SHOTS.mkdir(parents=True, exist_ok=True)
        shown.resize(1400, 860)
        QApplication.processEvents()
        shown.grab().save(str(SHOTS / "bidder-folders.png"))


@pytest.fixture(scope="module")
def bills_shown(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MainWindow]:
    """Three bidders' folders with priced bills; 02 copied 01's unit prices."""
    from bench.bills import priced_around

    root = tmp_path_factory.mktemp("bills")
    items = bill_items(20, 11)
    control = make_pricing_xml(root / "招标控制价.xml", [], items)
    bills = {n: priced_around(items, 200 + n) for n in (1, 2, 3)}
    bills[2] = [
        {**mine, "unit_price": a["unit_price"], "total": a["total"]}
        for a, mine in zip(bills[1], bills[2], strict=True)
    ]
    for n, bill in bills.items():
        folder = root / "bids" / f"0{n}-投标人{n}"
        folder.mkdir(parents=True)
        make_docx(folder / "投标文件.docx", [paragraphs(70 * n, 6)])
        make_pricing_xml(folder / "造价.xml", [], bill)
    yield from checked_window(root / "bidcheck.ini", [root / "bids", control])


def test_a_bill_signal_lists_its_items_side_by_side(bills_shown: MainWindow) -> None:
    text = bills_shown.evidence.signals.text()
    assert "清单雷同 · 综合单价相同" in text and "<table" in text and "其余各项" in text, text
    assert text.count("<tr>") == 7  # the header and six items
    assert "表格填写" not in text and "相同单价" not in text  # no second reading of the bill
    if os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        SHOTS.mkdir(parents=True, exist_ok=True)
        bills_shown.resize(1400, 860)
        QApplication.processEvents()
        bills_shown.grab().save(str(SHOTS / "bill-pair.png"))
