"""The workbook's 清单比对 sheet: the section's matrix of unit prices alike between priced bills, then each
bill signal's items side by side (code, name, unit, both unit prices, the control price)."""

from __future__ import annotations

from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from bidcheck.model import CheckResult
from bidcheck.report.sheets import append_row
from bidcheck.words import LEVEL_NAMES, SIGNAL_FIELDS, STRENGTH_NAMES

__all__ = ["has_bills", "write_bill_sheet"]

# The item table's columns (the matrix above it takes them as they come: A names, then a bid a column).
_WIDTHS = (18, 16, 9, 12, 5, 14, 20, 6, 11, 11, 11, 30)


def has_bills(result: CheckResult) -> bool:
    """Whether the section's bids had priced bills to compare."""
    return bool(result.bill_shares) or any(s.kind == "bill" for p in result.pairs for s in p.signals)


def _share(same: int, common: int) -> str:
    return f"{same}/{common}（{same / common:.0%}）" if common else ""


def write_bill_sheet(sheet: Worksheet, result: CheckResult, names: dict[str, str]) -> None:
    """The matrix (a row and a column a bid with a bill: unit prices alike of those both priced), a
    blank row, then a row per item of each bill signal."""
    shares = {frozenset((s.a, s.b)): (s.same, s.common) for s in result.bill_shares}
    ids = [d.id for d in result.bids if any(d.id in k for k in shares)]
    for column, width in enumerate(_WIDTHS, start=1):
        sheet.column_dimensions[get_column_letter(column)].width = width
    append_row(sheet, ["综合单价相同的项目（相同项 / 双方都报价的项）", *[names[i] for i in ids]])
    for bid in ids:
        append_row(sheet, [names[bid], *[_share(*shares.get(frozenset((bid, col)), (0, 0))) for col in ids]])
    append_row(sheet, [])
    append_row(
        sheet,
        [
            "文件A",
            "文件B",
            "等级",
            "迹象",
            "强度",
            "项目编码",
            "项目名称",
            "单位",
            "A 综合单价",
            "B 综合单价",
            "招标控制价",
            "说明",
        ],
    )
    for pair in result.pairs:
        for signal in (s for s in pair.signals if s.kind == "bill"):
            head = [
                names[pair.a],
                names[pair.b],
                LEVEL_NAMES[pair.level],
                SIGNAL_FIELDS.get(signal.field, signal.field),
                STRENGTH_NAMES[signal.strength],
            ]
            for n, item in enumerate(signal.rows):
                cells = [item.code, item.name, item.unit, item.a, item.b, item.control]
                append_row(sheet, [*head, *cells, signal.detail if n == 0 else ""])
