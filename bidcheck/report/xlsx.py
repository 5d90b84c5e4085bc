"""The Excel workbook an evaluation panel can file: summary, matrix, ranked pairs, passages, files."""

from __future__ import annotations

import datetime as dt
import errno
import functools
import os
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lxml import etree
from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.styles.cell_style import StyleArray
from openpyxl.worksheet.worksheet import Worksheet

from bidcheck.config import changed_settings, setting_name
from bidcheck.gcpause import collector_paused
from bidcheck.ingest.folder import REPORT_AUTHOR
from bidcheck.model import CheckResult, PairResult
from bidcheck.report.bill_sheet import has_bills, write_bill_sheets
from bidcheck.report.file_sheets import write_file_sheets
from bidcheck.report.files import write_atomically
from bidcheck.report.sheets import (
    WRAP,
    append_row,
    finish_table,
    print_set_up,
    rows_height,
    safe,
    sheet_header,
    wrap_long_texts,
)
from bidcheck.report.sheetxml import ValueSheet, save_workbook
from bidcheck.report.xlsx_cells import Styles, filled
from bidcheck.report.xlsx_evidence import listed_passages, passages_sheet, price_patterns_sheet, signals_sheet
from bidcheck.review import REVIEW_STATES, Review, Reviews, group_review_of, pair_key
from bidcheck.text.chars import replace_unsafe
from bidcheck.words import (
    LEVEL_FILLS,
    LEVEL_NAMES,
    SIGNAL_FIELDS,
    SIGNAL_KINDS,
    heat_rgb,
    library_line,
    public_value_line,
)

__all__ = ["NO_TENDER_WARNING", "no_tender_line", "os_error_of", "save_xlsx", "write_xlsx"]

# A section of thousands of files has millions of pairs, nearly all 无: the ranking lists every pair at a
# level and this many at 无, the rest said in one line (the JSON holds them all); the matrix is left out
# past this many bids (its cells grow with the square).
QUIET_ROWS = 2000
MATRIX_BIDS = 300

NO_TENDER_WARNING = (
    "未提供招标文件：只有两三家照抄的招标文件文字无法排除，可能被当作证据（多家共有的按公共文字不计）"
)


def no_tender_line(result: CheckResult) -> str:
    """Why the tender's text could not be told apart: none given (``NO_TENDER_WARNING``), or the files
    given as the tender could not be read (named)."""
    given = "、".join(d.name for d in result.documents if d.role != "bid")
    why = NO_TENDER_WARNING.partition("：")[2]
    return f"招标文件 {given} 未能读取：{why}" if given else NO_TENDER_WARNING


WARNING_FONT = Font(color="C00000", bold=True)
_Put = tuple[object, StyleArray | None]  # a value and its style, as a value sheet puts it
_PAIR_WIDTHS = (5, 18, 18, 9, 8, 8, 8, 9, 7, 7, 8, 34, 22, 7, 16)  # 文件对排名's columns


def write_xlsx(result: CheckResult, path: Path, section: str = "", reviews: Reviews | None = None) -> None:
    """Write the workbook for a check result to ``path`` (atomically), with the panel's marks."""
    write_atomically(path, functools.partial(save_xlsx, result, section=section, reviews=reviews))


def save_xlsx(result: CheckResult, target: Path, section: str = "", reviews: Reviews | None = None) -> None:
    """Write the workbook for a check result to ``target`` as it goes (``write_xlsx`` writes it whole).

    Raises:
        OSError: The file could not be written (also where lxml, which writes the sheets, reports it).
    """
    with collector_paused():
        try:
            save_workbook(_workbook(result, section, reviews), target)
        except etree.SerialisationError as exc:
            raise os_error_of(exc) from None


def os_error_of(exc: etree.SerialisationError) -> Exception:
    """The ``OSError`` lxml reports as ``IO_`` and the error's name (``IO_ENOSPC``: a full disk)."""
    name = str(exc).removeprefix("IO_")
    code = getattr(errno, name, None) if str(exc).startswith("IO_") else None
    return OSError(code, os.strerror(code)) if isinstance(code, int) else exc


def _workbook(result: CheckResult, section: str, reviews: Reviews | None = None) -> Workbook:
    reviews = reviews or {}
    book = Workbook()
    book.properties.creator = REPORT_AUTHOR  # a report found among a section's files is no bid
    names = {d.id: d.name for d in result.documents}
    listed = listed_pairs(result.pairs)
    quiet_flagged = sum(len(p.passages) - len(listed_passages(p)) for p in listed)
    unlisted = _unlisted_line(result.pairs[len(listed) :])
    _summary(book.active, result, section, quiet_flagged, unlisted)
    _matrix(_value_sheet(book, "相似度矩阵"), result)
    paths = {d.id: d.path for d in result.documents}
    ranking = _value_sheet(book, "文件对排名")
    _pairs(ranking, listed, names, reviews, paths)
    if unlisted:  # under the ranking, what it leaves out
        ranking.put_row(ranking.max_row + 1, [(None, None), (unlisted, None)])
    passages_sheet(book.create_sheet("共同段落"), listed, names)
    signals_sheet(book.create_sheet("串标迹象"), result, names)
    price_patterns_sheet(book.create_sheet("报价规律"), result)
    if has_bills(result):
        write_bill_sheets(book, result, names)
    _groups(book.create_sheet("疑似串标组"), result, names, reviews)
    write_file_sheets(book, result.documents, result.skipped)
    _settings(book.create_sheet("设置"), result)
    for sheet in book.worksheets:
        print_set_up(sheet, f"{section or '未命名标段'}　{sheet.title}")
        wrap_long_texts(sheet)
        _texts_not_formulas(sheet)
    return book


def _texts_not_formulas(sheet: Worksheet) -> None:
    """A text that begins with "=" (a file or bidder name, a passage) stays text: openpyxl would write it
    as a formula, which Excel runs when the panel opens the report (a file named "=HYPERLINK(…)")."""
    for cell in sheet._cells.values():
        if cell.data_type == "f":
            cell.data_type = "s"


def _value_sheet(book: Workbook, title: str) -> ValueSheet:
    """A new last sheet whose rows are put as values (``sheetxml.ValueSheet``: the large ones)."""
    sheet = ValueSheet(book, title)
    book._add_sheet(sheet)
    return sheet


_PUBLIC_ROWS = 20  # values many bids hold, one a row of the summary


def _public_rows(result: CheckResult) -> list[tuple[str, Any]]:
    """The values too many bids hold to be a sign, most held first (the rest counted)."""
    label = "多家共有的值（不计为迹象）"
    rows: list[tuple[str, Any]] = [(label, public_value_line(v)) for v in result.public_values[:_PUBLIC_ROWS]]
    more = len(result.public_values) - _PUBLIC_ROWS
    return rows + ([(label, f"另有 {more} 个，见 JSON 结果的 public_values")] if more > 0 else [])


def _summary(sheet: Worksheet, result: CheckResult, section: str, quiet_flagged: int, unlisted: str) -> None:
    sheet.title = "概要"
    levels = Counter(p.level for p in result.pairs)
    bids = result.bids
    tender: list[tuple[str, Any]] = [
        ("招标文件/模板", "、".join(d.name for d in result.documents if d.role != "bid") or "（未提供）")
    ]
    if not result.has_tender:
        tender.append(("注意", no_tender_line(result)))
    if result.semantic_note:
        tender.append(("语义比对", result.semantic_note))
    if result.library is not None:
        tender.append(("资料库", library_line(result.library)))
    rows: list[tuple[str, Any]] = [
        ("标段", section or "（未命名）"),
        ("报告生成时间", dt.datetime.now().strftime("%Y-%m-%d %H:%M")),
        ("检查用时（秒）", round(result.elapsed_s, 1)),
        ("投标文件数", len(bids)),
        ("无法读取的文件数", sum(1 for d in result.documents if not d.ok)),
        *tender,
        ("比对的文件对数", len(result.pairs)),
        ("一级预警", levels["high"]),
        ("二级观察", levels["watch"]),
        ("无", levels["none"]),
        *([("文件对排名未列出", unlisted)] if unlisted else []),
        ("疑似串标组数", len(result.groups)),
        ("报价规律数", len(result.price_patterns)),
        *_public_rows(result),
        (
            "共同段落表未列出",
            f"{quiet_flagged} 段（等级为“无”的文件对中的招标文件/多家共有文字）" if quiet_flagged else "无",
        ),
    ]
    sheet_header(sheet, ("项目", "内容"), (44, 70))
    for row in rows:
        append_row(sheet, row)
        if row[0] == "注意":
            sheet.cell(row=sheet.max_row, column=2).font = WARNING_FONT
    sheet.append([])
    sheet.append(["与默认值不同的设置（全部设置见“设置”表）", "值"])
    for cell in sheet[sheet.max_row]:
        cell.font = Font(bold=True)
    changed = changed_settings(result.settings)
    for key, value in changed:
        append_row(sheet, (setting_name(key), value))
    if not changed:
        append_row(sheet, ("（无：全部为默认值）", ""))
    for row in sheet.iter_rows(min_row=2, min_col=2, max_col=2):
        row[0].alignment = Alignment(horizontal="left")


def _settings(sheet: Worksheet, result: CheckResult) -> None:
    """Every setting the check ran with, last (the 概要 names only those that differ)."""
    sheet_header(sheet, ("设置", "值"), (60, 30))
    for key, value in result.settings.items():
        append_row(sheet, (setting_name(key), value))


def _percent_fill(color: str) -> Callable[[Cell], None]:
    def style(cell: Cell) -> None:
        cell.fill, cell.number_format = PatternFill("solid", fgColor=color), "0.0%"

    return style


def _heat(value: float) -> str:
    """The fill colour of a similarity (see ``words.heat_rgb``)."""
    return "{:02X}{:02X}{:02X}".format(*heat_rgb(value))


def _percent(cell: Cell) -> None:
    cell.number_format = "0.0%"


def listed_pairs(pairs: Sequence[PairResult]) -> Sequence[PairResult]:
    """The ranked pairs the workbook lists one a row: every pair at a level, and the first ``QUIET_ROWS``
    at 无 (``pairs`` ranked: levels first, then similarity)."""
    quiet = next((n for n, p in enumerate(pairs) if p.level == "none"), len(pairs))
    return pairs[: quiet + QUIET_ROWS]


def _unlisted_line(rest: Sequence[PairResult]) -> str:
    """What the pairs at 无 the ranking leaves out are, in a line ("" when it leaves none)."""
    return quiet_words(len(rest), max(p.similarity for p in rest)) if rest else ""


def quiet_words(count: int, most: float) -> str:
    """The pairs at 无 the reports leave out, in a line a panel reads."""
    return f"其余 {count:,} 对均为“无”（相似度最高 {most:.1%}），未逐一列出；全部文件对见 JSON 结果"


def _matrix(sheet: ValueSheet, result: CheckResult) -> None:
    bids = [d for d in result.bids if d.ok]
    if len(bids) > MATRIX_BIDS:
        words = f"投标文件 {len(bids):,} 份，矩阵有 {len(bids) ** 2:,} 格，超出表格可读的大小，未列出"
        sheet.put_row(1, [(f"{words}；见“文件对排名”", None)])
        return
    lookup = {(p.a, p.b): p.similarity for p in result.pairs}
    lookup.update({(p.b, p.a): p.similarity for p in result.pairs})
    sheet_header(sheet, ["文件", *[d.name for d in bids]], [20] + [8] * len(bids), height=48)
    sheet.freeze_panes = "B2"
    styles = Styles()
    for row, doc in enumerate(bids, start=2):
        values: list[tuple[object, StyleArray | None]] = [
            (replace_unsafe(doc.name), styles.of(sheet, ("bold",), _bold_wrapped))
        ]
        for other in bids:
            if doc.id != other.id:
                value = lookup.get((doc.id, other.id), 0.0)
                color = _heat(float(value))
                values.append((value, styles.of(sheet, ("heat", color), _percent_fill(color))))
            else:
                values.append(("—", styles.of(sheet, ("centre",), _centred)))
        sheet.put_row(row, values)


def _bold_wrapped(cell: Cell) -> None:
    cell.font, cell.alignment = Font(bold=True), WRAP


def _wrapped(cell: Cell) -> None:
    cell.alignment = WRAP


def _on_top(style: Callable[[Cell], None]) -> Callable[[Cell], None]:
    """``style``, the cell's content at the top of its row (beside a wrapped text)."""

    def topped(cell: Cell) -> None:
        style(cell)
        cell.alignment = Alignment(horizontal=cell.alignment.horizontal, vertical="top")

    return topped


def _centred(cell: Cell) -> None:
    cell.alignment = Alignment(horizontal="center")


def _pairs(
    sheet: ValueSheet,
    pairs: Sequence[PairResult],
    names: dict[str, str],
    reviews: Reviews,
    paths: dict[str, str],
) -> None:
    """One row a pair, ranked, with the panel's mark (``reviews``, by the documents' ``paths``)."""
    sheet_header(
        sheet,
        (
            "排名",
            "文件A",
            "文件B",
            "等级",
            "相似度",
            "A覆盖率",
            "B覆盖率",
            "SimHash相似度（粗筛）",
            "证据段落数",
            "证据字数",
            "全部共同段落数",
            "原因",
            "串标迹象",
            "核实",
            "核实备注",
        ),
        _PAIR_WIDTHS,
    )
    styles = Styles()
    for rank, pair in enumerate(pairs, start=1):
        live = [p for p in pair.passages if p.live]
        # each cell at the top of its row, the long texts wrapped: printed whole, not cut off
        level = styles.of(sheet, ("level", pair.level), _on_top(filled(LEVEL_FILLS[pair.level])))
        percent = styles.of(sheet, ("percent",), _on_top(_percent))
        wrapped = styles.of(sheet, ("wrap",), _wrapped)
        top = styles.of(sheet, ("top",), _on_top(lambda _cell: None))
        row: list[tuple[object, StyleArray | None]] = [
            (rank, top),
            (safe(names[pair.a]), wrapped),
            (safe(names[pair.b]), wrapped),
            (LEVEL_NAMES[pair.level], level),
            (pair.similarity, percent),
            (pair.coverage_a, percent),
            (pair.coverage_b, percent),
            (pair.simhash_similarity, percent),
            (len(live), top),
            (sum(p.chars for p in live), top),
            (len(pair.passages) + pair.passages_omitted, top),
            (safe(pair.reason), wrapped),
            (safe(_sign_summary(pair)), wrapped),
            *_review_cells(reviews.get(pair_key(paths[pair.a], paths[pair.b])), wrapped, top),
        ]
        sheet.put_row(rank + 1, row)
        height = rows_height(
            [(value, _PAIR_WIDTHS[n]) for n, (value, style) in enumerate(row) if style is wrapped]
        )
        if height is not None:
            sheet.row_dimensions[rank + 1].height = height
    finish_table(sheet)


def _review_cells(
    review: Review | None, note: StyleArray | None = None, mark: StyleArray | None = None
) -> list[_Put]:
    """The panel's mark on a pair or group and its note (blank where it made none), styled ``mark`` and
    ``note``."""
    if review is None:
        return [("", mark), ("", note)]
    return [(REVIEW_STATES[review.state], mark), (safe(review.note), note)]


def _sign_summary(pair: PairResult) -> str:
    """A pair's signals in a few words: 文档属性：作者、创建时间；相同标识：电话号码."""
    fields: dict[str, list[str]] = {}
    for signal in pair.signals:
        words = fields.setdefault(SIGNAL_KINDS.get(signal.kind, signal.kind), [])
        word = SIGNAL_FIELDS.get(signal.field, signal.field)
        if word not in words:
            words.append(word)
    return "；".join(f"{kind}：{'、'.join(words)}" for kind, words in fields.items())


def _groups(sheet: Worksheet, result: CheckResult, names: dict[str, str], reviews: Reviews) -> None:
    """One row a suspected ring: its members (wrapped, never cut), its evidence, the panel's mark."""
    titles = ("组", "成员", "成员数", "证据段落数", "证据字数", "核实", "核实备注")
    sheet_header(sheet, titles, (5, 90, 7, 9, 9, 8, 30))
    for number, group in enumerate(result.groups, start=1):
        members = "、".join(names[m] for m in group.members)
        marks = [value for value, _style in _review_cells(group_review_of(reviews, result, group))]
        append_row(sheet, [number, members, len(group.members), group.passages, group.chars, *marks])
    finish_table(sheet)
