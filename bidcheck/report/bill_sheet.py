"""The workbook's two sheets on priced bills: 清单比对 (each bill signal's items side by side: code,
name, unit, both unit prices, the control price, the wording where the sign is wording) and 清单单价矩阵
(the section's matrix of unit prices alike between each two bills)."""

from __future__ import annotations

from openpyxl.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from bidcheck.model import CheckResult
from bidcheck.report.sheets import append_row, finish_table, sheet_header
from bidcheck.words import LEVEL_NAMES, SIGNAL_FIELDS, STRENGTH_NAMES

__all__ = ["has_bills", "write_bill_sheets"]

_ITEMS = (
    ("文件A", 16),
    ("文件B", 16),
    ("等级", 9),
    ("迹象", 12),
    ("强度", 5),
    ("项目编码", 14),
    ("项目名称", 20),
    ("单位", 6),
    ("A 综合单价", 11),
    ("B 综合单价", 11),
    ("招标控制价", 11),
    ("项目特征（两家 / 招标清单）", 20),
    ("说明", 24),
)


def has_bills(result: CheckResult) -> bool:
    """Whether the section's bids had priced bills to compare."""
    return bool(result.bill_shares) or any(s.kind == "bill" for p in result.pairs for s in p.signals)


def _share(same: int, common: int) -> str:
    return f"{same}/{common}（{same / common:.0%}）" if common else ""


def write_bill_sheets(book: Workbook, result: CheckResult, names: dict[str, str]) -> None:
    """Add 清单比对 (a row an item of each bill signal) and 清单单价矩阵 to ``book``."""
    _items(book.create_sheet("清单比对"), result, names)
    _matrix(book.create_sheet("清单单价矩阵"), result, names)


def _items(sheet: Worksheet, result: CheckResult, names: dict[str, str]) -> None:
    sheet_header(sheet, [t for t, _ in _ITEMS], [w for _, w in _ITEMS])
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
                cells = [item.code, item.name, item.unit, item.a, item.b, item.control, item.text]
                append_row(sheet, [*head, *cells, signal.detail if n == 0 else ""])
    finish_table(sheet)


def _matrix(sheet: Worksheet, result: CheckResult, names: dict[str, str]) -> None:
    """A row and a column a bid with a bill: of the items both priced, how many at the same unit price."""
    shares = {frozenset((s.a, s.b)): (s.same, s.common) for s in result.bill_shares}
    ids = [d.id for d in result.bids if any(d.id in k for k in shares)]
    title = "综合单价相同的项目（相同项 / 双方都报价的项）"
    sheet_header(sheet, [title, *[names[i] for i in ids]], [20] + [11] * len(ids), height=48)
    sheet.freeze_panes = "B2"
    for bid in ids:
        append_row(sheet, [names[bid], *[_share(*shares.get(frozenset((bid, col)), (0, 0))) for col in ids]])
