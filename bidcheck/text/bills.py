"""A priced bill's items as read from any file: the numbers of a row parsed, the row made a ``BillItem``.

Readers give each item's cells by field (``code``, ``name``, ``unit``, ``quantity``, ``unit_price``,
``total``, ``features``): the XML's attributes, a sheet's columns under their header. Numbers may carry
thousands separators, a currency sign or full-width digits; a cell that is no number gives ``None``.
A bill's 人材机 price list (人材机汇总表, 主要材料价格表: a header with 规格型号 or 市场价) is read apart,
each 人材机 a ``BillItem`` (its name and spec as the name, its price as the unit price); such a table is
never taken for the bill.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence

from bidcheck.model import BillItem, Block
from bidcheck.text.tables import cells_by_column, table_rows

__all__ = [
    "BILL_HEADERS",
    "RESOURCE_HEADERS",
    "bill_columns",
    "bill_from_rows",
    "bill_from_tables",
    "bill_item",
    "parse_amount",
    "resource_columns",
    "resource_item",
    "resources_from_rows",
]

# a header cell's words -> the field of its column (the first that a header holds wins)
BILL_HEADERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("code", ("项目编码", "清单编码", "编码")),
    ("name", ("项目名称", "清单名称", "名称")),
    ("features", ("项目特征",)),
    ("unit", ("计量单位", "单位")),
    ("quantity", ("工程量", "工程数量", "数量")),
    ("unit_price", ("综合单价", "单价")),
    ("total", ("合价", "综合合价", "金额")),
)
# a 人材机 price list's header: its words -> the field of its column
RESOURCE_HEADERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("code", ("编码", "材料编码", "人材机编码", "工料机编码", "编号")),
    ("name", ("名称", "材料名称", "人材机名称", "工料机名称", "材料（设备）名称")),
    ("spec", ("规格",)),
    ("unit", ("单位", "计量单位")),
    ("quantity", ("数量",)),
    ("unit_price", ("市场价", "市场单价", "除税单价", "含税单价", "单价", "预算价")),
)
_RESOURCE_MARKS = ("规格", "市场价", "市场单价")  # words only a 人材机 header holds
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
        " ".join(cells.get("features", "").split()),
    )


def resource_item(cells: Mapping[str, str], file: str = "") -> BillItem | None:
    """A 人材机 from its cells by field (``code``, ``name``, ``spec``, ``unit``, ``quantity``,
    ``unit_price``); ``None`` for a row with neither a code nor a name."""
    name = " ".join(f"{cells.get('name', '')} {cells.get('spec', '')}".split())
    return bill_item({**cells, "name": name, "total": "", "features": ""}, file=file)


def _columns(cells: Sequence[str], headers: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, int]:
    found: dict[str, int] = {}
    for column, text in enumerate(cells):
        plain = text.replace(" ", "").replace("（元）", "").replace("(元)", "")
        for field, words in headers:
            if field not in found and any(plain.startswith(w) for w in words):
                found[field] = column
                break
    return found if {"unit_price"} <= set(found) and ({"code", "name"} & set(found)) else {}


def _resource_header(cells: Sequence[str]) -> bool:
    return any(w in text for text in cells for w in _RESOURCE_MARKS) and not any(
        "综合单价" in t for t in cells
    )


def bill_columns(cells: Sequence[str]) -> dict[str, int]:
    """The bill's fields a header row names, by column; empty when it is no bill header (one needs a
    unit-price column and a code or name column) or a 人材机 price list's."""
    return {} if _resource_header(cells) else _columns(cells, BILL_HEADERS)


def resource_columns(cells: Sequence[str]) -> dict[str, int]:
    """The 人材机 fields a price list's header row names, by column; empty when it is no such header."""
    return _columns(cells, RESOURCE_HEADERS) if _resource_header(cells) else {}


def _merged(upper: Sequence[str], lower: Sequence[str]) -> list[str]:
    """A header of two rows read as one, column by column (金额 over 综合单价 | 合价: the lower row's)."""
    width = max(len(upper), len(lower))
    return [
        (lower[n] if n < len(lower) and lower[n] else "") or (upper[n] if n < len(upper) else "")
        for n in range(width)
    ]


def _under_header(
    rows: Sequence[Sequence[str]],
    columns_of: Callable[[Sequence[str]], dict[str, int]],
    header_within: int | None,
) -> tuple[dict[str, int], int] | None:
    """The columns of the first header (of one row or two) ``columns_of`` knows, and the row after it."""
    for at, row in enumerate(rows[:header_within]):
        cells = _merged(row, rows[at + 1]) if at + 1 < len(rows) and not columns_of(row) else list(row)
        columns = columns_of(cells)
        if columns:
            return columns, at + (2 if cells != list(row) else 1)  # past the header's second row
    return None


def bill_from_rows(
    rows: Sequence[Sequence[str]], file: str, header_within: int | None = None
) -> list[BillItem]:
    """The items under the first bill header (of one row or two; within the first ``header_within`` rows
    where given) among rows of cells by column; none when no row is a bill header."""
    found = _under_header(rows, bill_columns, header_within)
    if found is None:
        return []
    columns, first = found
    items = (bill_item({f: r[c] for f, c in columns.items() if c < len(r)}, file=file) for r in rows[first:])
    return [i for i in items if i is not None and (i.unit_price is not None or i.code)]


def resources_from_rows(
    rows: Sequence[Sequence[str]], file: str, header_within: int | None = None
) -> list[BillItem]:
    """The 人材机 priced under the first price-list header among rows of cells by column."""
    found = _under_header(rows, resource_columns, header_within)
    if found is None:
        return []
    columns, first = found
    items = (resource_item({f: r[c] for f, c in columns.items() if c < len(r)}, file) for r in rows[first:])
    return [i for i in items if i is not None and i.unit_price is not None]


def _grid(blocks: Sequence[Block]) -> list[list[str]]:
    """A Word or PDF document's table rows as cells by column."""
    cells = [cells_by_column(row, blocks) for row in table_rows(blocks)]
    return [[by_column.get(n, "") for n in range(max(by_column, default=-1) + 1)] for by_column in cells]


def bill_from_tables(blocks: Sequence[Block], file: str = "") -> tuple[list[BillItem], list[BillItem]]:
    """A Word or PDF bid's priced bill and 人材机 price list: the rows of its tables under a bill header,
    and under a price list's, by column."""
    grid = _grid(blocks)
    return bill_from_rows(grid, file), resources_from_rows(grid, file)
