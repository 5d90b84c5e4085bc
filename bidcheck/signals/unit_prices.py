"""Unit prices two bids share: the same non-round 单价 in five rows or more of their price tables.

Bidders price each item of a bill of quantities themselves; two who priced apart seldom arrive at the
same unit price to the fen in row after row (a round price, 100 or 35.00, says less: anyone may choose
it). A table's unit-price column is the one whose header names 单价 (in a header of two rows, such as
金额 over 综合单价 | 合价, the column of the lower row); its rows below are read until another header.
Prices the tender holds, or most bids hold, are no sign (``held_by_few``); a pair whose tender tables
are filled in alike (``table_fill``) says so once, there.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from bidcheck.model import Signal
from bidcheck.ready import Ready
from bidcheck.signals.base import Linked, SectionInfo, held_by_few, row_place, text_table_blocks
from bidcheck.text.tables import TableRow, cells_by_column, table_rows

__all__ = ["MIN_ROWS", "find", "unit_prices"]

MIN_ROWS = 5  # shared non-round unit prices that make a strong signal
_HEADER = re.compile(r"单价")
_NUMBER = re.compile(r"[¥￥]?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,4})?\s*(?:元)?")


def _price(text: str) -> str | None:
    """A cell's unit price as a plain decimal (``1234.50``), when the cell holds one and nothing else."""
    match = _NUMBER.fullmatch(text.strip())
    if not match:
        return None
    return f"{float(match.group(1).replace(',', '') + (match.group(2) or '')):.2f}"


def _round(price: str) -> bool:
    """Whether a price is one anyone may choose: whole tens of yuan."""
    return price.endswith(".00") and price[:-3].endswith("0")


def unit_prices(bid: Ready) -> dict[str, TableRow]:
    """A bid's non-round unit prices, each with the first table row holding it."""
    found: dict[str, TableRow] = {}
    column: int | None = None
    blocks = text_table_blocks(bid.doc)
    for row in table_rows(blocks):
        cells = cells_by_column(row, blocks)  # by the table's columns: a header of two rows lines up
        heads = [n for n, text in sorted(cells.items()) if _HEADER.search(text) and _price(text) is None]
        if heads:
            column = heads[0]
            continue
        price = _price(cells.get(column, "")) if column is not None else None
        if price and not _round(price):
            found.setdefault(price, row)
    return found


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked]:
    """Pairs of bids whose price tables share ``MIN_ROWS`` or more non-round unit prices (none the
    tender's or most bids'): one strong signal a pair, located at the first shared row on both sides."""
    prices = [unit_prices(b) for b in bids]
    excluded = {p for t in section.tenders for p in unit_prices(t)}
    shared: dict[tuple[int, int], list[str]] = {}
    for price, docs in held_by_few(prices, excluded, section.settings).few.items():
        for pair in itertools.combinations(docs, 2):
            shared.setdefault(pair, []).append(price)
    out = []
    for (i, j), same in sorted(shared.items()):
        if len(same) < MIN_ROWS:
            continue
        first = min(same, key=lambda p: prices[i][p].row)
        listed = "、".join(sorted(same, key=float)[:6]) + ("…" if len(same) > 6 else "")
        detail = f"两份文件的报价表有 {len(same)} 项相同的非整数单价（{listed}）"
        value = f"{len(same)} 项"
        signal = Signal(
            "price",
            "strong",
            "unit_price",
            value,
            detail,
            row_place(prices[i][first], " | "),
            row_place(prices[j][first], " | "),
        )
        out.append(Linked(bids[i].doc.id, bids[j].doc.id, signal))
    return out
