"""A priced bill's items as read from any file: the numbers of a row parsed, the row made a ``BillItem``.

Readers give each item's cells by field (``code``, ``name``, ``unit``, ``quantity``, ``unit_price``,
``total``): the XML's attributes, a sheet's columns under their header. Numbers may carry thousands
separators, a currency sign or full-width digits; a cell that is no number gives ``None``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

from bidcheck.model import BillItem, Block
from bidcheck.text.tables import cells_by_column, table_rows

__all__ = ["BILL_HEADERS", "bill_columns", "bill_from_rows", "bill_from_tables", "bill_item", "parse_amount"]

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


def bill_columns(cells: Sequence[str]) -> dict[str, int]:
    """The bill's fields a header row names, by column; empty when it is no bill header (one needs a
    unit-price column and a code or name column)."""
    found: dict[str, int] = {}
    for column, text in enumerate(cells):
        plain = text.replace(" ", "").replace("（元）", "").replace("(元)", "")
        for field, words in BILL_HEADERS:
            if field not in found and any(plain.startswith(w) for w in words):
                found[field] = column
                break
    return found if {"unit_price"} <= set(found) and ({"code", "name"} & set(found)) else {}


def _merged(upper: Sequence[str], lower: Sequence[str]) -> list[str]:
    """A header of two rows read as one, column by column (金额 over 综合单价 | 合价: the lower row's)."""
    width = max(len(upper), len(lower))
    return [
        (lower[n] if n < len(lower) and lower[n] else "") or (upper[n] if n < len(upper) else "")
        for n in range(width)
    ]


def bill_from_rows(
    rows: Sequence[Sequence[str]], file: str, header_within: int | None = None
) -> list[BillItem]:
    """The items under the first bill header (of one row or two; within the first ``header_within`` rows
    where given) among rows of cells by column; none when no row is a bill header."""
    for at, row in enumerate(rows[:header_within]):
        cells = _merged(row, rows[at + 1]) if at + 1 < len(rows) and not bill_columns(row) else list(row)
        columns = bill_columns(cells)
        if not columns:
            continue
        first = at + (2 if cells != list(row) else 1)  # past the header's second row, if it has one
        items = (
            bill_item({f: r[c] for f, c in columns.items() if c < len(r)}, file=file) for r in rows[first:]
        )
        return [i for i in items if i is not None and (i.unit_price is not None or i.code)]
    return []


def bill_from_tables(blocks: Sequence[Block], file: str = "") -> list[BillItem]:
    """A Word or PDF bid's priced bill: the rows of its tables under a bill header, by column."""
    rows = table_rows(blocks)
    cells = [cells_by_column(row, blocks) for row in rows]
    grid = [[by_column.get(n, "") for n in range(max(by_column, default=-1) + 1)] for by_column in cells]
    return bill_from_rows(grid, file)
