"""The workbook's 清单比对 sheet: the section's matrix of unit prices alike between priced bills, then each
bill signal's items side by side (code, name, unit, both unit prices, the control price)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bidcheck.model import CheckResult
from bidcheck.words import LEVEL_NAMES, SIGNAL_FIELDS, STRENGTH_NAMES

__all__ = ["has_bills", "write_bill_sheet"]

Append = Callable[[object, Sequence[object]], None]


def has_bills(result: CheckResult) -> bool:
    """Whether the section's bids had priced bills to compare."""
    return bool(result.bill_shares) or any(s.kind == "bill" for p in result.pairs for s in p.signals)


def _share(same: int, common: int) -> str:
    return f"{same}/{common}（{same / common:.0%}）" if common else ""


def write_bill_sheet(sheet: object, result: CheckResult, names: dict[str, str], append: Append) -> None:
    """The matrix (a row and a column a bid with a bill: unit prices alike of those both priced), a
    blank row, then a row per item of each bill signal."""
    shares = {frozenset((s.a, s.b)): (s.same, s.common) for s in result.bill_shares}
    ids = [d.id for d in result.bids if any(d.id in k for k in shares)]
    append(sheet, ["综合单价相同的项目（相同项 / 双方都报价的项）", *[names[i] for i in ids]])
    for bid in ids:
        append(sheet, [names[bid], *[_share(*shares.get(frozenset((bid, col)), (0, 0))) for col in ids]])
    append(sheet, [])
    append(
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
                append(sheet, [*head, *cells, signal.detail if n == 0 else ""])
