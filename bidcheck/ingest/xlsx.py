"""Excel ``.xlsx`` workbooks: every sheet's cells as table rows, and a priced bill where a sheet has one.

A bidder's 报价 sheet or a pricing program's export (分部分项工程量清单计价表 and the like) is a sheet whose
header row names the bill's columns (项目编码, 项目名称, 计量单位, 工程量, 综合单价, 合价: ``BILL_HEADERS``);
the rows under it are the bill's items; a sheet of 人材机 prices (its header names 规格型号 or 市场价) gives
the bill's price list. Each sheet is a page. The package is measured before it is
opened (entries, unpacked size, compression ratio), as every zip package is.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.limits import ReadLimits, TextBudget, open_package
from bidcheck.model import BillItem, Block, Document
from bidcheck.text.bills import bill_from_rows, resources_from_rows

__all__ = ["read_xlsx"]

_HEADER_ROWS = 30  # a bill's header stands within a sheet's first rows
_BOMB = "疑似压缩炸弹"


def read_xlsx(path: Path, doc_id: str, name: str, limits: ReadLimits) -> Document:
    """Read a workbook's sheets into table rows (a page a sheet) and its bill's items.

    Raises:
        ReadError: The package is damaged, or larger than ``limits`` allow.
    """
    from openpyxl import load_workbook  # here, not at start-up: the checker starts reading without it

    try:
        with open_package(path, limits) as package:
            _measure(package.archive.infolist(), limits)
        book = load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError) as exc:
        raise ReadError("Excel 文件已损坏（不是有效的 xlsx 压缩包）") from exc
    budget = TextBudget(limits.chars)
    blocks: list[Block] = []
    bill: list[BillItem] = []
    resources: list[BillItem] = []
    try:
        for page, sheet in enumerate(book.worksheets, 1):
            sheet.reset_dimensions()  # a sheet's stated size may run to column XFD: read what it holds
            rows = [_trimmed([_text(v) for v in row]) for row in sheet.iter_rows(values_only=True)]
            first = blocks[-1].row if blocks else 0
            blocks += _row_blocks(rows, page, first, budget)
            bill += bill_from_rows(rows, name, header_within=_HEADER_ROWS)
            resources += resources_from_rows(rows, name, header_within=_HEADER_ROWS)
    finally:
        book.close()
    return Document(
        id=doc_id,
        path=str(path),
        name=name,
        format="xlsx",
        pages=max(len(book.worksheets), 1),
        blocks=tuple(blocks),
        bill=tuple(bill),
        resources=tuple(resources),
    )


def _measure(entries: Sequence[zipfile.ZipInfo], limits: ReadLimits) -> None:
    """Refuse a package whose parts would unpack past the limits (in all, or one part by its ratio)."""
    if sum(e.file_size for e in entries) > limits.unpacked_bytes:
        raise ReadError(f"Excel 文件解压后过大，{_BOMB}")
    for entry in entries:
        if entry.file_size > 10 << 20 and entry.file_size > limits.zip_ratio * max(entry.compress_size, 1):
            raise ReadError(f"Excel 文件压缩比异常，{_BOMB}")


def _text(value: object) -> str:
    """A cell as text: a whole number without its ``.0``, others as they are."""
    if value is None:
        return ""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return " ".join(str(value).split())


def _row_blocks(rows: Iterable[list[str]], page: int, first: int, budget: TextBudget) -> list[Block]:
    """A block per non-empty cell, its row numbered on from ``first`` (rows count through the document)."""
    blocks: list[Block] = []
    number = first
    for cells in rows:
        if not any(cells):
            continue
        number += 1
        for column, text in enumerate(cells):
            if text:
                budget.take(text)
                blocks.append(Block(text, "table", page, 0, number, column))
    return blocks


def _trimmed(cells: list[str]) -> list[str]:
    """A row less its empty cells at the end."""
    while cells and not cells[-1]:
        cells.pop()
    return cells
