"""The staff a bid names in its tables laid out as columns: a header row ``职务 | 姓名 | 证书编号 …`` and a
row a person below it (``项目经理 | 吴海波 | 苏1322011201234``), in a Word table or a page's rows.

A header row names a person's column (姓名) and at least one more of post, certificate or ID number:
a table of names and nothing else (a signature block, a list of attendees) says nothing of staff, and
a table of certificates without people (a company's qualifications, a maker's product certificates
that several bidders quote) is no staff. The rows below it are read, column by column, until the table ends
or another header row begins; a cell counts only when it holds a value of its column's form (a name of
two to four Chinese characters, a certificate number, an ID number's eighteen characters), so a
note such as 待定 or 同上 is no name. A table laid out as label | value (a 项目经理简历表:
``姓名 | 吴海波 | 性别 | 男``) is read the same way when a post stands in it beside its label.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bidcheck.model import Block
from bidcheck.text.tables import TableRow, cells_by_column, table_rows

__all__ = ["COLUMNS", "StaffValue", "staff_values"]

# column -> the headings that name it (spaces taken out); ``post`` is read only to know a staff table
COLUMNS: dict[str, re.Pattern[str]] = {
    "person": re.compile(r"(?:人员|成员)?(?:姓名|名字)"),
    "post": re.compile(r"(?:拟任|拟派|拟担任|担任|本项目|项目)?(?:职务|岗位|职位)"),
    "certificate": re.compile(
        r"(?:注册|执业|资格|岗位|安全生产考核合格|考核合格|建造师)?(?:证书|证|执业印章)(?:编号|号码|号)"
        r"|注册(?:编号|号)|执业证号|资格证号"
    ),
    "id_number": re.compile(r"(?:居民)?身份证(?:号码|号|编号)?"),
}
_HEADING_CHARS = 12  # a heading cell is short: a longer cell is text
_NAME = re.compile(r"[\u4e00-\u9fff]{2,4}")
_NOT_NAMES = frozenset({"待定", "同上", "暂无", "暂定", "见附件", "详见附件", "空缺", "另行委派"})
# 苏1322011201234, 苏建安C（2019）0001234, 32014000123: a province's few characters, then the number
_CERTIFICATE = re.compile(r"[\u4e00-\u9fff]{0,3}[0-9A-Z\-（）()]{6,30}")
_DIGITS = 6  # a certificate number holds at least this many digits
_ID_FORM = re.compile(r"\d{17}[\dX]")
_POST = re.compile(r"经理|负责人|[员师长工]$|主管|代理人|总工|项目|质检|安全|技术")  # a post, not a name
_ONE_CHAR = re.compile(r"[\u4e00-\u9fff]")
_SPACES = re.compile(r"\s+")

StaffValue = tuple[str, str, TableRow]  # field, value, the row


def _squeezed(text: str) -> str:
    return _SPACES.sub("", text)


def _heading(text: str) -> str | None:
    """The column a header cell names, or ``None``."""
    text = _squeezed(text)
    if not text or len(text) > _HEADING_CHARS:
        return None
    bare = re.sub(r"[（(][^）)]*[）)]", "", text)  # 姓名（签字）, 证书编号（注册号）
    for column, pattern in COLUMNS.items():
        if pattern.fullmatch(bare):
            return column
    return None


@dataclass(frozen=True)
class _Header:
    """A staff table's header row: its columns (by a Word cell's column, or a page row's cell index)
    and how many cells it has."""

    columns: dict[int, str]
    width: int


def _header(row: TableRow, blocks: Sequence[Block]) -> _Header | None:
    """The columns of a staff table's header row, or ``None`` for another row."""
    texts = cells_by_column(row, blocks)
    if blocks[row.cells[0].first].cuts:  # a page row: 姓  名 spaced out comes as two cells
        texts = dict(enumerate(_joined(list(texts.values()))))
    columns = {key: c for key, text in texts.items() if (c := _heading(text))}
    named = set(columns.values())
    if "person" in named and len(named) >= 2:
        return _Header(columns, len(texts))
    return None


def _person(text: str) -> str | None:
    value = _squeezed(text)
    return value if _NAME.fullmatch(value) and value not in _NOT_NAMES else None


def _certificate(text: str) -> str | None:
    value = _squeezed(text).upper()
    return value if _CERTIFICATE.fullmatch(value) and sum(c.isdigit() for c in value) >= _DIGITS else None


def _id_number(text: str) -> str | None:
    """An ID number's form (its check character is the caller's to verify)."""
    value = _squeezed(text).upper()
    return value if _ID_FORM.fullmatch(value) else None


_READ: dict[str, Callable[[str], str | None]] = {
    "person": _person,
    "certificate": _certificate,
    "id_number": _id_number,
}


def _joined(texts: list[str]) -> list[str]:
    """A page row's cell texts, a name spaced out to line up (``李  明``: one-character cells) joined
    again."""
    texts = list(texts)
    index = 0
    while index + 1 < len(texts):
        if _ONE_CHAR.fullmatch(texts[index]) and _ONE_CHAR.fullmatch(texts[index + 1]):
            texts[index : index + 2] = [texts[index] + texts[index + 1]]
        else:
            index += 1
    return texts


def _by_form(texts: list[str], wanted: set[str]) -> dict[str, str]:
    """The values of a page row that does not line up with its header (an empty cell leaves no gap in
    a page's text): each column's value where exactly one cell has its form (a post such as 项目经理
    is no name)."""
    out: dict[str, str] = {}
    for column in wanted & _READ.keys():
        cells = [t for t in texts if _READ[column](t) and not (column == "person" and _POST.search(t))]
        if len(cells) == 1:
            out[column] = cells[0]
    return out


def _row_values(row: TableRow, blocks: Sequence[Block], header: _Header) -> dict[str, str]:
    """A row's cells under a staff header, by column: a Word cell by its column, a page row's by its
    position (or form)."""
    if not blocks[row.cells[0].first].cuts:  # a Word row: each block knows its column
        texts = cells_by_column(row, blocks)
        return {column: texts[key] for key, column in header.columns.items() if key in texts}
    lined = _joined([c.text for c in row.cells])
    if len(lined) != header.width:
        return _by_form(lined, set(header.columns.values()))
    return {column: lined[key] for key, column in header.columns.items()}


def _adjoining(before: TableRow, after: TableRow) -> bool:
    """Whether ``after`` follows ``before`` in one table (no paragraph between them)."""
    return after.cells[0].first <= before.cells[-1].last + 1


def staff_values(blocks: Sequence[Block]) -> list[StaffValue]:
    """The names, certificate and ID numbers of a document's staff tables (``blocks``: its compared
    blocks), each with its row, in reading order."""
    found: list[StaffValue] = []
    for table in _tables(table_rows(blocks)):
        found += _under_headers(table, blocks) + _labelled(table, blocks)
    return found


def _tables(rows: list[TableRow]) -> list[list[TableRow]]:
    """Rows grouped into tables: a paragraph between two rows ends one."""
    tables: list[list[TableRow]] = []
    for row in rows:
        if tables and _adjoining(tables[-1][-1], row):
            tables[-1].append(row)
        else:
            tables.append([row])
    return tables


def _under_headers(table: list[TableRow], blocks: Sequence[Block]) -> list[StaffValue]:
    """The values of the rows under a staff table's header rows."""
    found: list[StaffValue] = []
    header: _Header | None = None
    for row in table:
        heading = _header(row, blocks)
        if heading is not None:
            header = heading
        elif header is not None:
            found += _read_row(row, blocks, header)
    return found


def _labelled(table: list[TableRow], blocks: Sequence[Block]) -> list[StaffValue]:
    """The values of a table laid out as label | value (a 项目经理简历表: ``姓名 | 吴海波 | 性别 | 男``,
    ``职务 | 项目经理``), when a post stands in it beside its label: a table naming no post (a list
    of signatures, a company's particulars) is no staff."""
    pairs = [(row, _label_pairs(_joined(list(cells_by_column(row, blocks).values())))) for row in table]
    if not any(column == "post" for _, found in pairs for column, _ in found):
        return []
    return [(column, value, row) for row, found in pairs for column, value in found if column in _READ]


def _label_pairs(texts: list[str]) -> list[tuple[str, str]]:
    """The (column, value) pairs of a row whose cells alternate label and value."""
    out: list[tuple[str, str]] = []
    for label, text in itertools.pairwise(texts):
        column = _heading(label)
        if column is None or not text.strip() or _heading(text) is not None:
            continue
        value = _READ[column](text) if column in _READ else _squeezed(text)
        if value:
            out.append((column, value))
    return out


def _read_row(row: TableRow, blocks: Sequence[Block], header: _Header) -> list[StaffValue]:
    """The values of one row under a staff header, each of its column's form."""
    found: list[StaffValue] = []
    for column, text in _row_values(row, blocks, header).items():
        value = _READ[column](text) if column in _READ else None
        if value is not None:
            found.append((column, value, row))
    return found
