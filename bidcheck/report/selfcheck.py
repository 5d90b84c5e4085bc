"""The self-check's reports: its JSON (``bidcheck.selfcheck/1``) and a one-sheet workbook (自查), the
summary on top and the findings below it, ordered by weight, each with where it is and how to clear it."""

from __future__ import annotations

import json
from pathlib import Path

from lxml import etree
from openpyxl import Workbook
from openpyxl.styles import Alignment, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from bidcheck.findings import PARTS, Finding, SelfCheckResult, self_check_to_dict
from bidcheck.ingest.folder import REPORT_AUTHOR
from bidcheck.model import Place
from bidcheck.report.files import write_atomically
from bidcheck.report.sheets import (
    HEADER_FILL,
    HEADER_FONT,
    WRAP,
    append_row,
    print_set_up,
    rows_height,
    text_height,
)
from bidcheck.report.xlsx import WARNING_FONT, os_error_of
from bidcheck.text.chars import utf8
from bidcheck.words import LEVEL_FILLS, LEVEL_NAMES

__all__ = ["SHEET", "self_check_json", "self_check_verdict", "write_self_check_json", "write_self_check_xlsx"]

SHEET = "自查"
_TEXT_WIDTH = 32  # the wrapped texts: the finding, the bid's words, the fix
_COLUMNS = (
    ("序号", 10),
    ("分量", 6),
    ("类别", 10),
    ("问题", _TEXT_WIDTH),
    ("位置", 10),
    ("原文", _TEXT_WIDTH),
    ("参考文件", 14),
    ("参考文件位置", 10),
    ("如何处理", _TEXT_WIDTH),
)


def self_check_json(result: SelfCheckResult) -> str:
    """The self-check as JSON text (Chinese kept readable)."""
    return json.dumps(self_check_to_dict(result), ensure_ascii=False, indent=1) + "\n"


def write_self_check_json(result: SelfCheckResult, path: Path) -> None:
    """Write the self-check's JSON to ``path`` (atomically)."""
    data = utf8(self_check_json(result))

    def write(temp: Path) -> None:
        temp.write_bytes(data)

    write_atomically(path, write)


def self_check_verdict(result: SelfCheckResult) -> str:
    """The self-check in one sentence: clean, unreadable, or how many findings of each weight."""
    if not result.bid.ok:
        return f"无法读取投标文件：{result.bid.error}"
    if result.clean:
        return "未发现机构检查会提出的问题"
    counts = result.counts()
    return (
        f"发现 {len(result.findings)} 项问题：{LEVEL_NAMES['high']} {counts['high']} 项，"
        f"{LEVEL_NAMES['watch']} {counts['watch']} 项；请逐项处理后再自查一次"
    )


def _where(place: Place | None) -> str:
    return "文件属性" if place is None else f"第 {place.page} 页第 {place.paragraph} 段"


def _summary(sheet: Worksheet, result: SelfCheckResult) -> None:
    sources = {
        "as": "（用户指定）",
        "forms": "（取自投标文件中的表格）",
        "text": "（投标文件中出现最多的单位）",
        "file": "（取自文件名）",
    }
    rows = (
        ("投标人自查", ""),
        ("投标文件", result.bid.name),
        ("投标人", result.bidder + sources[result.bidder_source]),
        ("参考文件", "、".join(d.name for d in result.references) or "（未提供）"),
        ("招标文件", "、".join(d.name for d in result.tenders) or "（未提供）"),
        ("结论", self_check_verdict(result)),
    )
    for label, value in rows:
        append_row(sheet, (label, value))
    sheet.cell(row=1, column=1).font = WARNING_FONT
    if not result.clean:
        sheet.cell(row=len(rows), column=2).font = WARNING_FONT
    for d in result.references:
        if not d.ok:
            append_row(sheet, ("无法读取", f"{d.name}：{d.error}"))
    append_row(sheet, ())


def _table_header(sheet: Worksheet) -> int:
    append_row(sheet, [title for title, _ in _COLUMNS])
    row: int = sheet.max_row
    for col, (_title, width) in enumerate(_COLUMNS, start=1):
        cell = sheet.cell(row=row, column=col)
        cell.font, cell.fill = HEADER_FONT, HEADER_FILL
        cell.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
        sheet.column_dimensions[get_column_letter(col)].width = width
    sheet.row_dimensions[row].height = rows_height(_COLUMNS) or 32
    sheet.freeze_panes = f"A{row + 1}"
    return row


def _finding_row(sheet: Worksheet, number: int, finding: Finding) -> None:
    text = finding.where.text if finding.where else finding.value
    append_row(
        sheet,
        (
            number,
            LEVEL_NAMES[finding.level],
            PARTS[finding.part],
            finding.detail,
            _where(finding.where),
            text,
            finding.reference or "",
            _where(finding.other) if finding.reference else "",
            finding.fix,
        ),
    )
    row: int = sheet.max_row
    sheet.cell(row=row, column=2).fill = PatternFill("solid", fgColor=LEVEL_FILLS[finding.level])
    for col in range(1, len(_COLUMNS) + 1):
        sheet.cell(row=row, column=col).alignment = WRAP
    tallest = max(text_height(s, _TEXT_WIDTH) for s in (finding.detail, text, finding.fix))
    sheet.row_dimensions[row].height = tallest


def write_self_check_xlsx(result: SelfCheckResult, path: Path) -> None:
    """Write the self-check's sheet to ``path`` (atomically): the summary, then the findings by weight."""
    book = Workbook()
    sheet = book.active
    sheet.title = SHEET
    _summary(sheet, result)
    header = _table_header(sheet)
    for number, finding in enumerate(result.findings, start=1):
        _finding_row(sheet, number, finding)
    if result.findings:
        sheet.auto_filter.ref = f"A{header}:{get_column_letter(len(_COLUMNS))}{sheet.max_row}"
    print_set_up(sheet, f"投标人自查　{result.bidder}")
    sheet.print_title_rows = f"{header}:{header}"
    book.properties.creator = REPORT_AUTHOR  # a report found among a section's files is no bid
    write_atomically(path, lambda temp: _save(book, temp))


def _save(book: Workbook, target: Path) -> None:
    """Save the workbook; lxml's report of a failed write (``IO_EFBIG``: a full disk, a size limit) is
    the ``OSError`` it is, told as the check's reports tell it, not a traceback."""
    try:
        book.save(target)
    except etree.SerialisationError as exc:
        raise os_error_of(exc) from None
