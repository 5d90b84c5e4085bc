"""The Excel workbook, read back with openpyxl."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.cell.cell import Cell
from openpyxl.cell.rich_text import CellRichText, TextBlock

from bidcheck.config import Settings
from bidcheck.model import CheckResult, Document, Passage, Side
from bidcheck.pipeline import CheckInputs, check
from bidcheck.report import write_xlsx, xlsx


@pytest.fixture(scope="module")
def workbook(section: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CheckResult]:
    result = check(CheckInputs((section["bids"],), (section["tender"],)), Settings(workers=1))
    path = tmp_path_factory.mktemp("xlsx") / "report.xlsx"
    write_xlsx(result, path, "测试标段")
    return path, result


def test_sheets_headers_frozen_and_filtered(workbook: tuple[Path, CheckResult]) -> None:
    book = load_workbook(workbook[0])
    sheets = [
        "概要",
        "相似度矩阵",
        "文件对排名",
        "共同段落",
        "串标迹象",
        "报价规律",
        "疑似串标组",
        "文件清单",
        "文件属性",
        "设置",
    ]
    assert book.sheetnames == sheets
    pairs = book["文件对排名"]
    assert [c.value for c in pairs[1]][:5] == ["排名", "文件A", "文件B", "等级", "相似度"]
    assert pairs.freeze_panes == "A2" and pairs.auto_filter.ref
    assert book["共同段落"].auto_filter.ref and book["共同段落"].freeze_panes == "A2"
    assert pairs.column_dimensions["L"].width >= 30  # 原因, wrapped


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
    """Evidence shows its aligned characters bold (and only those), tender text shows none bold."""
    sheet = load_workbook(workbook[0], rich_text=True)["共同段落"]
    rows = list(sheet.iter_rows(min_row=2))
    evidence = [r for r in rows if r[3].value == "证据"]
    template = [r for r in rows if r[3].value == "招标文件/模板"]
    assert evidence and template
    row = evidence[0]
    assert row[6].value == 2 and row[9].value == 2  # page on both sides
    for cells in evidence + template:
        passage = _passage_of(cells, workbook[1])
        for column, side in ((8, passage.a), (11, passage.b)):
            text = cells[column].value
            assert isinstance(text, CellRichText) and str(text) == side.text
            bold = [(b.text, bool(b.font.b)) for b in text if isinstance(b, TextBlock)]
            assert bold == _expected_blocks(side, highlighted=passage.live)
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


def _passage_of(cells: tuple[Cell, ...], result: CheckResult) -> Passage:
    """The passage a row of the passages sheet shows (by its two files and its number in the pair)."""
    names = {d.id: d.name for d in result.documents}
    pair = next(p for p in result.pairs if (names[p.a], names[p.b]) == (cells[0].value, cells[1].value))
    return pair.passages[int(str(cells[2].value)) - 1]


def _expected_blocks(side: Side, highlighted: bool) -> list[tuple[str, bool]]:
    """The text cut at the marks, marked parts bold; all plain when the passage is not evidence."""
    if not highlighted:
        return [(side.text, False)]
    blocks, at = [], 0
    for start, end in side.marks:
        blocks += [(side.text[at:start], False)] if start > at else []
        blocks.append((side.text[start:end], True))
        at = end
    return blocks + ([(side.text[at:], False)] if at < len(side.text) else [])


def test_ranked_pairs_count_only_evidence_characters(workbook: tuple[Path, CheckResult]) -> None:
    path, result = workbook
    rows = list(load_workbook(path)["文件对排名"].iter_rows(min_row=2, values_only=True))
    assert len(rows) == len(result.pairs)
    for row, pair in zip(rows, result.pairs, strict=True):
        live = [q for q in pair.passages if q.live]
        assert (row[8], row[9], row[10]) == (len(live), sum(q.chars for q in live), len(pair.passages))
    assert any(
        sum(q.chars for q in p.passages) > sum(q.chars for q in p.passages if q.live) for p in result.pairs
    )


def test_groups_sheet_lists_every_group(workbook: tuple[Path, CheckResult]) -> None:
    path, result = workbook
    names = {d.id: d.name for d in result.documents}
    rows = list(load_workbook(path)["疑似串标组"].iter_rows(min_row=2, values_only=True))
    expected = [
        (n, "、".join(names[m] for m in g.members), len(g.members), g.passages, g.chars, None, None)
        for n, g in enumerate(result.groups, start=1)
    ]
    assert rows == expected and expected and expected[0][3] > 0


def test_levels_and_unreadable_files_as_the_result_gives_them(
    workbook: tuple[Path, CheckResult], tmp_path: Path
) -> None:
    """Two quiet pairs set to watch and a file that could not be read: the summary counts each level,
    the file list says which files were read and why one was not."""
    _, result = workbook
    quiet = [n for n, p in enumerate(result.pairs) if p.level == "none"][:2]
    pairs = tuple(
        dataclasses.replace(p, level="watch") if n in quiet else p for n, p in enumerate(result.pairs)
    )
    broken = Document(
        id="d9", path="/bids/09-坏.pdf", name="09-坏.pdf", format="pdf", status="error", error="文件已损坏"
    )
    changed = dataclasses.replace(result, pairs=pairs, documents=(*result.documents, broken))
    write_xlsx(changed, tmp_path / "r.xlsx", "测试标段")
    book = load_workbook(tmp_path / "r.xlsx")
    summary = {r[0]: r[1] for r in book["概要"].iter_rows(values_only=True) if r and r[0]}
    assert (summary["一级预警"], summary["二级观察"], summary["无"]) == (1, 2, len(pairs) - 3)
    assert summary["无法读取的文件数"] == 1
    files = {r[1]: (r[7], r[8]) for r in book["文件清单"].iter_rows(min_row=2, values_only=True)}
    assert files.pop("09-坏.pdf") == ("错误", "文件已损坏")
    assert set(files.values()) == {("正常", None)} and len(files) == len(result.documents)


def test_only_the_aligned_characters_are_bold(workbook: tuple[Path, CheckResult], tmp_path: Path) -> None:
    """A reworded copy aligns in pieces: each piece is bold, the words between them are not."""
    _, result = workbook
    n, pair = next((n, p) for n, p in enumerate(result.pairs) if any(q.live for q in p.passages))
    k, passage = next((k, q) for k, q in enumerate(pair.passages) if q.live)
    pieces = dataclasses.replace(passage.a, marks=((2, 10), (15, 20)))
    edited = dataclasses.replace(passage, a=pieces)
    passages = (*pair.passages[:k], edited, *pair.passages[k + 1 :])
    pairs = (*result.pairs[:n], dataclasses.replace(pair, passages=passages), *result.pairs[n + 1 :])
    write_xlsx(dataclasses.replace(result, pairs=pairs), tmp_path / "r.xlsx", "测试标段")
    rows = list(load_workbook(tmp_path / "r.xlsx", rich_text=True)["共同段落"].iter_rows(min_row=2))
    row = next(r for r in rows if _passage_of(r, result) == passage)
    blocks = [(b.text, bool(b.font.b)) for b in row[8].value if isinstance(b, TextBlock)]
    text = passage.a.text
    assert blocks == [
        (text[:2], False),
        (text[2:10], True),
        (text[10:15], False),
        (text[15:20], True),
        (text[20:], False),
    ]


def test_texts_that_begin_with_an_equals_sign_stay_text(
    workbook: tuple[Path, CheckResult], tmp_path: Path
) -> None:
    """Files named like formulas ("=HYPERLINK(…)") are written as text in every sheet that names them,
    never as formulas Excel would run when the report is opened."""
    _, result = workbook
    documents = tuple(
        dataclasses.replace(d, name=f'=HYPERLINK("http://x/{d.id}","{d.name}")') for d in result.documents
    )
    write_xlsx(dataclasses.replace(result, documents=documents), tmp_path / "r.xlsx", "=1+1")
    book = load_workbook(tmp_path / "r.xlsx")
    named: dict[str, int] = {}
    for sheet in book.worksheets:
        cells = [c for row in sheet.iter_rows() for c in row if str(c.value).startswith("=")]
        assert all(c.data_type == "s" for c in cells), sheet.title
        named[sheet.title] = len(cells)
    assert named["相似度矩阵"] == 2 * len(result.documents) - 2  # the bids, across and down
    assert named["文件对排名"] == 2 * len(result.pairs) and named["文件清单"] == len(result.documents)
    assert named["共同段落"] > 0 and named["概要"] >= 1


def test_every_sheet_prints_with_the_section_and_page_numbers(workbook: tuple[Path, CheckResult]) -> None:
    book = load_workbook(workbook[0])
    for sheet in book.worksheets:
        assert sheet.oddHeader.center.text == f"测试标段　{sheet.title}"
        assert sheet.oddFooter.center.text == "第 &P 页 共 &N 页"
        assert sheet.page_setup.orientation == "landscape" and sheet.page_setup.fitToWidth == 1
    summary = [r for r in book["概要"].iter_rows(values_only=True) if r and r[0]]
    at = next(n for n, r in enumerate(summary) if str(r[0]).startswith("与默认值不同的设置"))
    changed = summary[at + 1 :]  # only what differs from the defaults (the workers of this check)
    assert changed == [("并行进程数（0 为自动）（workers）", 1)]
    settings = {r[0]: r[1] for r in book["设置"].iter_rows(min_row=2, values_only=True)}
    assert len(settings) >= 50 and settings["设置版本（version）"] == 1


def test_file_property_times_read_as_times(workbook: tuple[Path, CheckResult]) -> None:
    sheet = load_workbook(workbook[0])["文件属性"]
    header = [c.value for c in sheet[1]]
    created = header.index("创建时间")
    times = {r[1]: r[created] for r in sheet.iter_rows(min_row=2, values_only=True)}
    assert times["02-乙.pdf"] == "2000-01-01 00:00:00"  # not D:20000101000000+00'00'


def test_a_section_of_thousands_of_pairs_lists_the_quiet_ones_in_one_line(
    workbook: tuple[Path, CheckResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder of 2,000 files is two million pairs, nearly all 无: the ranking lists every pair at a level
    and the first ``QUIET_ROWS`` at 无, then one line for the rest (their number, the highest similarity);
    the summary says so; past ``MATRIX_BIDS`` bids the matrix is a line (here both made small)."""
    _path, result = workbook
    monkeypatch.setattr(xlsx, "QUIET_ROWS", 2)
    monkeypatch.setattr(xlsx, "MATRIX_BIDS", 3)
    raised = sum(p.level != "none" for p in result.pairs)
    rest = result.pairs[raised + 2 :]
    assert rest, "the section needs more quiet pairs than are listed"
    write_xlsx(result, tmp_path / "r.xlsx", "测试标段")
    book = load_workbook(tmp_path / "r.xlsx")
    ranking = [r for r in book["文件对排名"].iter_rows(min_row=2, values_only=True)]
    assert [r[0] for r in ranking[:-1]] == list(range(1, raised + 3))
    words = f"其余 {len(rest)} 对均为“无”（相似度最高 {max(p.similarity for p in rest):.1%}），未逐一列出"
    assert ranking[-1][0] is None and str(ranking[-1][1]).startswith(words)
    summary = {r[0]: r[1] for r in book["概要"].iter_rows(values_only=True) if r and r[0]}
    assert str(summary["文件对排名未列出"]).startswith(words) and summary["无"] == len(result.pairs) - raised
    (matrix,) = [r for r in book["相似度矩阵"].iter_rows(values_only=True)]
    assert str(matrix[0]).startswith("投标文件 4 份，矩阵有 16 格，超出表格可读的大小，未列出")
    passages = {(r[0], r[1]) for r in book["共同段落"].iter_rows(min_row=2, values_only=True)}
    names = {d.id: d.name for d in result.documents}
    assert not passages & {(names[p.a], names[p.b]) for p in rest}
