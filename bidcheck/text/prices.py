"""A bid's total price, read from its 投标函 or 开标一览表: the amount in capital numerals (大写) and in
figures (¥, 元, 万元), which must agree where both are given.

The price stands after a label (投标总价, 投标报价, 总报价…) in the same paragraph or in the next one
(a table's next cell), or below it: a 开标一览表 laid out as columns has the label in its header row
(``投标总价（元）``, or ``投标总价（大写）`` and ``（小写）`` side by side) and the amounts in the row
below, a bare figure taking its unit from the header. A bid whose price cannot be read says why;
nothing is guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bidcheck.model import COMPARED_KINDS, Block, Price
from bidcheck.text.tables import TableRow, cells_by_column, table_rows

__all__ = ["capital_amount", "figure_amount", "read_price"]

_LABEL = re.compile(r"投标总报价|投标总价|投标报价|总报价|报价总额|投标总金额|投标价格|投标金额|总价")
_STOP = re.compile(r"保证金|工期|质量|有效期|控制价|最高限价|暂列金额|安全文明")  # another figure begins
_CAPITAL = re.compile(
    r"[零壹贰叁肆伍陆柒捌玖拾佰仟万亿〇一二三四五六七八九十百千两]+[元圆][零壹贰叁肆伍陆柒捌玖一二三四五六七八九角分整正]*"
)
_MIXED = re.compile(r"(\d+(?:\.\d+)?)\s*万\s*(\d+(?:\.\d+)?)\s*元")  # 4123万456元
_FIGURE = re.compile(r"([¥￥]\s*)?(\d{1,3}(?:[,，]\d{3})+|\d+)(\.\d+)?\s*(万元|元)?")
_DIGITS = {
    c: n
    for n, cs in enumerate(("零〇", "壹一", "贰二两", "叁三", "肆四", "伍五", "陆六", "柒七", "捌八", "玖九"))
    for c in cs
}
_SMALL = {"拾": 10, "十": 10, "佰": 100, "百": 100, "仟": 1000, "千": 1000}
_WINDOW = 120  # characters after a label where its amount may stand
_AGREE = 0.005  # yuan: the capital and the figures agree to the fen


@dataclass(frozen=True)
class _Found:
    """The amounts after one label: in capitals and in figures (``None`` where absent)."""

    capital: float | None
    figure: float | None


def _integer(text: str) -> int:
    total = section = number = 0
    for char in text:
        if char in _DIGITS:
            number = _DIGITS[char]
        elif char in _SMALL:
            section += (number or 1) * _SMALL[char]
            number = 0
        elif char == "万":
            total += (section + number) * 10_000
            section = number = 0
        elif char == "亿":
            total = (total + section + number) * 100_000_000
            section = number = 0
    return total + section + number


def capital_amount(text: str) -> float | None:
    """The amount in yuan of capital numerals (``壹仟贰佰叁拾肆万伍仟陆佰柒拾捌元玖角整``), or ``None``."""
    match = _CAPITAL.search(text)
    if not match or not any(c in _DIGITS and _DIGITS[c] for c in match.group()):
        return None
    whole, _, cents = re.split("([元圆])", match.group(), maxsplit=1)
    amount = float(_integer(whole))
    for digit, unit in re.findall(r"(.)([角分])", cents):
        amount += _DIGITS.get(digit, 0) * (0.1 if unit == "角" else 0.01)
    return round(amount, 2)


def figure_amount(text: str) -> float | None:
    """The amount in yuan written in figures (``¥12,345,678.90``, ``1234.5678万元``, ``4123万456元``):
    the first figure marked by ¥ or followed by 元 or 万元, or ``None``."""
    mixed = _MIXED.search(text)
    for match in _FIGURE.finditer(text):
        if mixed and mixed.start() <= match.start() < mixed.end():
            return round(float(mixed.group(1)) * 10_000 + float(mixed.group(2)), 2)
        sign, whole, fraction, unit = match.groups()
        if not sign and not unit:
            continue
        value = float(re.sub("[,，]", "", whole) + (fraction or ""))
        return round(value * (10_000 if unit == "万元" else 1), 2)
    return None


def _before_label(block: Block, end: int) -> str:
    """The text of a label's paragraph before it, from the last sentence break (``愿意以人民币（大写）
    ……（¥……）的投标总报价``: the standard letter's order)."""
    text = block.text[max(0, end - _WINDOW) : end]
    return re.split(r"[。；;]", text)[-1]


def _after_label(blocks: list[Block], index: int, start: int) -> str:
    """The text after a label: the rest of its paragraph, and the next paragraph when that has none of
    the amount (a table's next cell), up to where another figure's label begins."""
    text = blocks[index].text[start:]
    if index + 1 < len(blocks) and not re.search(r"\d|[壹贰叁肆伍陆柒捌玖]", text):
        text += "\n" + blocks[index + 1].text
    text = text[:_WINDOW]
    stop = _STOP.search(text)
    return text[: stop.start()] if stop else text


def _amounts(text: str) -> _Found:
    return _Found(capital_amount(text), figure_amount(text))


# a price column's header: not 总价 alone, a bill's column of each item's line total
_COLUMN = re.compile(r"投标总报价|投标总价|投标报价|总报价|报价总额|投标总金额|投标价格|投标金额")
_SUB = re.compile(r"大写|小写")  # the second header row under a price column spanning two
_AMOUNT_CHARS = re.compile(r"\d|[壹贰叁肆伍陆柒捌玖]")


@dataclass(frozen=True)
class _Below:
    """The amounts a header row's price columns hold in the row below it, and where that row stands;
    ``unread``: the text of a price cell that holds something else than an amount."""

    found: _Found
    page: int
    paragraph: int
    unread: str = ""


def _cell_amount(text: str, unit: str) -> _Found | None:
    """A value cell's amount, or ``None`` when the cell holds something else; a bare figure takes the
    header's unit."""
    cell = re.sub(r"\s+", "", text)
    if _CAPITAL.fullmatch(cell):
        return _Found(capital_amount(cell), None)
    if not _FIGURE.fullmatch(cell) or not re.search(r"\d", cell):
        return None
    figure = figure_amount(cell if re.search(r"[¥￥元]", cell) else cell + unit)
    return _Found(None, figure) if figure is not None else None


def _header_unit(text: str) -> str:
    return "万元" if "万元" in text else "元" if "元" in text else ""


def _price_columns(head: dict[int, str], sub: dict[int, str]) -> dict[int, str]:
    """The price columns of a header (by column, each with its unit): those a price label heads, or,
    under a label spanning two columns, the 大写/小写 columns of the second header row ``sub``."""
    labels = {k: _header_unit(t) for k, t in head.items() if _COLUMN.search(t)}
    if not labels or not any(_SUB.search(t) for t in sub.values()):
        return labels
    first = min(labels)  # (a Word row numbers its cells, not the grid: a merged cell is one)
    return {k: _header_unit(t) or labels[first] for k, t in sub.items() if k >= first and _SUB.search(t)}


def _below(rows: list[TableRow], blocks: list[Block]) -> _Below | None:
    """The amounts under a header row's price columns (``rows``: the header and the rows after it in
    its table), when it is one: its cells hold no figure and name no unit price."""
    head = cells_by_column(rows[0], blocks)
    if len(rows) < 2 or any(re.search(r"\d|单价", t) for t in head.values()):
        return None
    sub = cells_by_column(rows[1], blocks)
    if any(_AMOUNT_CHARS.search(t) for t in sub.values()):
        columns, row = _price_columns(head, {}), rows[1]
    elif any(_SUB.search(t) for t in sub.values()) and len(rows) > 2:  # a second header row
        columns, row = _price_columns(head, sub), rows[2]  # (大写 | 小写), the amounts in the row after
    else:
        return None
    values = cells_by_column(row, blocks)
    paged = bool(blocks[row.cells[0].first].cuts)
    if not columns or (paged and len(values) != len(sub if row is not rows[1] else head)):
        return None
    return _read_below(row, [(values[k].strip(), unit) for k, unit in columns.items() if k in values])


def _read_below(row: TableRow, values: list[tuple[str, str]]) -> _Below | None:
    """The amounts of a row's price cells (text, the header's unit), or ``None`` when none holds one.
    A bare figure under a header without a unit is read only beside capitals (which it must match)."""
    values = [(text, unit) for text, unit in values if _AMOUNT_CHARS.search(text)]
    if not values:
        return None
    read = [_cell_amount(text, unit or "元") for text, unit in values]
    capital = next((f.capital for f in read if f and f.capital is not None), None)
    bare = [not unit and not re.search(r"[¥￥元]", text) and capital is None for text, unit in values]
    read = [None if unitless else got for got, unitless in zip(read, bare, strict=True)]
    unread = next((text for (text, _), got in zip(values, read, strict=True) if got is None), "")
    figure = next((f.figure for f in read if f and f.figure is not None), None)
    return _Below(_Found(capital, figure), row.page, row.paragraph, unread)


def _table_after(rows: list[TableRow], index: int, count: int) -> list[TableRow]:
    """Row ``index`` and up to ``count`` - 1 rows after it in the same table."""
    out = [rows[index]]
    for row in rows[index + 1 : index + count]:
        if row.cells[0].first > out[-1].cells[-1].last + 1:
            break
        out.append(row)
    return out


def _vertical(blocks: list[Block]) -> dict[int, _Below]:
    """By the compared block a price header row starts at: the amounts in the row (or the row after a
    second header row) below it."""
    rows = table_rows(blocks)
    out: dict[int, _Below] = {}
    for index, header in enumerate(rows):
        below = _below(_table_after(rows, index, 3), blocks)
        if below is not None:
            out[header.cells[0].first] = below
    return out


def _decided(found: _Found, page: int, paragraph: int) -> tuple[Price | None, str | None]:
    """The total of the amounts found at one place, or why not: capitals and figures disagreeing."""
    both = found.capital is not None and found.figure is not None
    if both and abs((found.capital or 0.0) - (found.figure or 0.0)) > _AGREE:
        return None, (
            f"第 {page} 页投标总价大写（{found.capital:,.2f} 元）与小写（{found.figure:,.2f} 元）不一致"
        )
    total = found.capital if found.capital is not None else found.figure
    assert total is not None
    return Price(total, page, paragraph), None


def _from_below(below: _Below) -> tuple[Price | None, str | None]:
    if below.unread:
        return (
            None,
            f"第 {below.page} 页开标一览表的投标总价“{below.unread[:40]}”无法读出（非金额或缺少单位）",
        )
    return _decided(below.found, below.page, below.paragraph)


def read_price(blocks: list[Block]) -> tuple[Price | None, str | None]:
    """A bid's total price and where it stands, or why it could not be read (the first label followed
    by an amount decides)."""
    compared = [b for b in blocks if b.kind in COMPARED_KINDS]
    vertical = _vertical(compared)
    for index, block in enumerate(compared):
        if index in vertical:
            return _from_below(vertical[index])
        for label in _LABEL.finditer(block.text):
            found = _amounts(_after_label(compared, index, label.end()))
            if found.capital is None and found.figure is None:
                found = _amounts(_before_label(block, label.start()))
            if found.capital is not None or found.figure is not None:
                return _decided(found, block.page, block.paragraph)
    return None, "未找到投标总价（投标函或开标一览表中的大写或小写金额）"
