"""The Excel workbook, read back with openpyxl."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.cell.rich_text import CellRichText, TextBlock

from bidcheck.config import Settings
from bidcheck.model import CheckResult
from bidcheck.pipeline import CheckInputs, check
from bidcheck.report import write_xlsx


@pytest.fixture(scope="module")
def workbook(section: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CheckResult]:
    result = check(CheckInputs((section["bids"],), (section["tender"],)), Settings(workers=1))
    path = tmp_path_factory.mktemp("xlsx") / "report.xlsx"
    write_xlsx(result, path, "测试标段")
    return path, result


def test_sheets_headers_frozen_and_filtered(workbook: tuple[Path, CheckResult]) -> None:
    book = load_workbook(workbook[0])
    assert book.sheetnames == ["概要", "相似度矩阵", "文件对排名", "共同段落", "疑似串标组", "文件清单"]
    pairs = book["文件对排名"]
    assert [c.value for c in pairs[1]][:5] == ["排名", "文件A", "文件B", "等级", "相似度"]
    assert pairs.freeze_panes == "A2" and pairs.auto_filter.ref
    assert book["共同段落"].auto_filter.ref and book["共同段落"].freeze_panes == "A2"
    assert pairs.column_dimensions["L"].width >= 60


def test_summary_counts_levels(workbook: tuple[Path, CheckResult]) -> None:
    path, result = workbook
    rows = {r[0]: r[1] for r in load_workbook(path)["概要"].iter_rows(values_only=True) if r and r[0]}
    assert rows["标段"] == "测试标段"
    assert rows["投标文件数"] == 4
    assert rows["一级预警"] == sum(1 for p in result.pairs if p.level == "high") == 1
    assert rows["比对的文件对数"] == 6


def test_matrix_is_symmetric_and_heat_coloured(workbook: tuple[Path, CheckResult]) -> None:
    sheet = load_workbook(workbook[0])["相似度矩阵"]
    values = [[c.value for c in row[1:]] for row in sheet.iter_rows(min_row=2)]
    assert len(values) == 4
    for i in range(4):
        assert values[i][i] == "—"
        for j in range(4):
            assert i == j or values[i][j] == values[j][i]
    top = max(v for row in values for v in row if isinstance(v, float))
    hot = next(c for row in sheet.iter_rows(min_row=2) for c in row[1:] if c.value == top)
    cold = next(c for row in sheet.iter_rows(min_row=2) for c in row[1:] if c.value == 0.0)
    assert hot.fill.fgColor.rgb != cold.fill.fgColor.rgb


def test_passages_have_both_locations_highlighted_and_flags_greyed(
    workbook: tuple[Path, CheckResult],
) -> None:
    sheet = load_workbook(workbook[0], rich_text=True)["共同段落"]
    rows = list(sheet.iter_rows(min_row=2))
    evidence = [r for r in rows if r[3].value == "证据"]
    template = [r for r in rows if r[3].value == "招标文件/模板"]
    assert evidence and template
    row = evidence[0]
    assert row[6].value == 2 and row[9].value == 2  # page on both sides
    text = row[8].value
    assert isinstance(text, CellRichText)
    marked = [b for b in text if isinstance(b, TextBlock) and b.font.b]
    assert marked and sum(len(b.text) for b in marked) >= 0.9 * len(str(text))
    assert template[0][0].font.color.rgb.endswith("808080")


def test_quiet_pairs_list_only_evidence_and_the_summary_counts_the_rest(
    workbook: tuple[Path, CheckResult],
) -> None:
    path, result = workbook
    book = load_workbook(path)
    names = {d.id: d.name for d in result.documents}
    quiet = {frozenset((names[p.a], names[p.b])) for p in result.pairs if p.level == "none"}
    rows = list(book["共同段落"].iter_rows(min_row=2, values_only=True))
    assert rows and not [r for r in rows if frozenset((r[0], r[1])) in quiet and r[3] != "证据"]
    left_out = sum(len(p.passages) for p in result.pairs if p.level == "none")
    summary = {r[0]: r[1] for r in book["概要"].iter_rows(values_only=True) if r and r[0]}
    assert left_out > 0 and str(summary["共同段落表未列出"]).startswith(f"{left_out} 段")
