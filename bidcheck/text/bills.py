"""A priced bill's items as read from any file: the numbers of a row parsed, the row made a ``BillItem``.

Readers give each item's cells by field (``code``, ``name``, ``unit``, ``quantity``, ``unit_price``,
``total``): the XML's attributes, a sheet's columns under their header. Numbers may carry thousands
separators, a currency sign or full-width digits; a cell that is no number gives ``None``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from bidcheck.model import BillItem

__all__ = ["BILL_HEADERS", "bill_item", "parse_amount"]

# a header cell's words -> the field of its column (the first that a header holds wins)
BILL_HEADERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("code", ("项目编码", "清单编码", "编码")),
    ("name", ("项目名称", "清单名称", "名称")),
    ("unit", ("计量单位", "单位")),
    ("quantity", ("工程量", "工程数量", "数量")),
    ("unit_price", ("综合单价", "单价")),
    ("total", ("合价", "综合合价", "金额")),
)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def parse_amount(text: str) -> float | None:
    """A cell's number (``1,234.50``, ``￥1234.5``, full-width digits), or ``None``."""
    plain = unicodedata.normalize("NFKC", text).replace(",", "").replace("¥", "").strip()
    found = _NUMBER.fullmatch(plain)
    return float(found.group()) if found else None


def bill_item(
    cells: Mapping[str, str], buildup: tuple[tuple[str, str], ...] = (), file: str = ""
) -> BillItem | None:
    """An item from its cells by field; ``None`` for a row with neither a code nor a name (a sub-total,
    a blank line)."""
    code = "".join(cells.get("code", "").split()).upper()
    name = " ".join(cells.get("name", "").split())
    if not code and not name:
        return None
    return BillItem(
        code,
        name,
        cells.get("unit", "").strip(),
        parse_amount(cells.get("quantity", "")),
        parse_amount(cells.get("unit_price", "")),
        parse_amount(cells.get("total", "")),
        buildup,
        file,
    )
