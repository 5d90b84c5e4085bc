"""Priced bills as XML (工程造价电子数据标准): the bill's items as a table, and the pricing program's
records of the PC that priced it (dongle, CPU, network card and disk serials) as ``Mark``s.

The names of elements and attributes are ``dicts/machine_fields.tsv``. Inside a block of software and
hardware records a value may be an attribute or a leaf element's text, in detail elements nested at any
depth: an element carrying a time starts a record holding everything on it and below it; machine fields
outside any timed element make a record of their own (one per topmost such element). The block's
signature (``XXMW``) is not verified: there is no key to verify it with. A DOCTYPE declaring entities
is cut before parsing (a bill needs none; they are how a small file expands into gigabytes).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.limits import ReadLimits, TextBudget
from bidcheck.model import BillItem, Block, Document, Mark
from bidcheck.text.bills import bill_item, resource_item

__all__ = ["looks_like_pricing_xml", "machine_fields", "read_pricing_xml"]

FIELDS_TABLE = Path(__file__).resolve().parents[2] / "dicts" / "machine_fields.tsv"
MAX_ITEMS = 200_000
MAX_RECORDS = 10_000
HEADER = ("项目编码", "项目名称", "项目特征描述", "计量单位", "工程量", "综合单价", "合价")
_ITEM_FIELDS = ("code", "name", "features", "unit", "quantity", "unit_price", "total")
_MACHINE = frozenset({"time", "dongle", "cpu", "mac", "disk", "software", "version"})
_SERIALS = frozenset({"dongle", "cpu", "disk"})
_PLACEHOLDERS = frozenset({"NULL", "NONE", "N/A", "无"})
_ZEROS = re.compile(r"[0\s:.-]*")  # empty, "0", "0000-0000", "00:00:00:00:00:00"
_MAC = re.compile(r"[0-9A-F]{12}")
_DOCTYPE = re.compile(rb"<!DOCTYPE[^\[>]*(?:\[.*?\]\s*)?>", re.S)
_BILL_CODE = re.compile(r"(?=(?:[A-Z]*\d){9})[0-9A-Z]{9,12}")  # 9 to 12 letters and digits, 9+ digits
_ENCODING_ERRORS = frozenset(
    {
        etree.ErrorTypes.ERR_UNSUPPORTED_ENCODING,
        etree.ErrorTypes.ERR_UNKNOWN_ENCODING,
        etree.ErrorTypes.ERR_INVALID_ENCODING,
    }
)
_BOM = b"\xef\xbb\xbf"
_MB = 1 << 20
BROKEN = "XML 文件有格式错误，已读取其中可解析的部分"


@functools.cache
def machine_fields() -> dict[str, frozenset[str]]:
    """Our fields and the standard's names for each, upper-cased (``dicts/machine_fields.tsv``)."""
    table: dict[str, frozenset[str]] = {}
    for line in FIELDS_TABLE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            ours, _, names = line.partition("\t")
            found = {n.strip().upper() for n in names.split(",") if n.strip()}
            table[ours.strip()] = table.get(ours.strip(), frozenset()) | found
    return table


@functools.cache
def _field_of() -> dict[str, str]:
    """The standard's upper-cased names, each to our field (the first line naming it wins)."""
    return {n: ours for ours, names in reversed(machine_fields().items()) for n in names}


def looks_like_pricing_xml(head: bytes) -> bool:
    """Whether a file's first bytes look like XML: an optional BOM and blanks, then ``<?xml`` or a tag."""
    start = head[:4096].removeprefix(_BOM).lstrip()
    return start.startswith(b"<?xml") or (start[:1] == b"<" and start[1:2].isalpha())


@dataclass
class _Record:
    """One record of the software and hardware block: each field's values in the order met."""

    timed: bool
    values: dict[str, list[str]] = field(default_factory=dict)

    def add(self, name: str, value: str) -> None:
        found = self.values.setdefault(name, [])
        if value not in found:
            found.append(value)

    def first(self, name: str) -> str:
        return self.values.get(name, [""])[0]


def read_pricing_xml(path: Path, doc_id: str, name: str, limits: ReadLimits) -> Document:
    """Read a pricing program's XML bill: its items as table rows, its machine records as marks.

    Raises:
        ReadError: The file is larger than ``limits`` allow, cannot be parsed at all, or holds neither
            bill items nor machine records.
    """
    size = path.stat().st_size
    if size > limits.unpacked_bytes:
        raise ReadError(
            f"XML 文件过大（{size / _MB:.0f} MB，上限 {limits.unpacked_bytes / _MB:.0f} MB），已跳过"
        )
    root, broken = _parse(path.read_bytes())
    notes = [BROKEN] if broken else []
    records = [r for r in _records(root, notes) if set(r.values) - {"time", "version"}]
    items, bill = _items(root, notes, name)
    resources = _resources(root, name)
    if not items and not records:
        raise ReadError("XML 文件中没有工程量清单或计价软件信息，不是计价文件")
    budget = TextBudget(limits.chars)
    if items:
        project = _own_fields(root).get("name", "")
        blocks = ([Block(project)] if project else []) + _item_blocks(items)
        blocks += _resource_blocks(resources, blocks[-1].row)
    else:
        blocks = [Block(f"计价文件 {name}：软硬件信息 {len(records)} 条")]
    for block in blocks:
        budget.take(block.text)
    return Document(
        id=doc_id,
        path=str(path),
        name=name,
        format="xml",
        pages=1,
        blocks=tuple(blocks),
        marks=_marks(records, name),
        notes=tuple(notes),
        bill=tuple(bill),
        resources=tuple(resources),
    )


def _parse(data: bytes) -> tuple[etree._Element, bool]:
    """The root and whether errors were repaired. Entity declarations are cut first; bytes in an
    encoding lxml cannot read are decoded as UTF-8 or else GB18030 and parsed again."""
    data = _DOCTYPE.sub(b"", data, count=1) if b"<!ENTITY" in data else data  # references then read empty
    root, errors = _parse_once(data)
    if errors & _ENCODING_ERRORS:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("gb18030", errors="replace")
        root, errors = _parse_once(text.encode("utf-8"), "utf-8")
    if root is None:
        raise ReadError("XML 文件已损坏，无法解析")
    return root, bool(errors)


def _parse_once(data: bytes, encoding: str | None = None) -> tuple[etree._Element | None, set[int]]:
    """Parse without entities, network or huge-tree allowances; the root (if any) and error types."""
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        recover=True,
        huge_tree=False,
        remove_comments=True,
        encoding=encoding,
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        root = None
    return root, {e.type for e in parser.error_log}


def _local(name: str) -> str:
    """A tag's or attribute's name without its namespace, upper-cased."""
    return name.rpartition("}")[2].upper()


def _own_fields(node: etree._Element) -> dict[str, str]:
    """The fields an element carries as attributes or as text of leaf children (first one wins)."""
    field_of = _field_of()
    found: dict[str, str] = {}
    for key, value in node.attrib.items():
        name = field_of.get(_local(key))
        if name and value.strip():
            found.setdefault(name, value.strip())
    for child in node:
        if isinstance(child.tag, str) and not any(isinstance(c.tag, str) for c in child):
            name = field_of.get(_local(child.tag))
            if name and (child.text or "").strip():
                found.setdefault(name, (child.text or "").strip())
    return found


def _clean(name: str, value: str) -> str:
    """A machine field's value as compared: serials upper-cased, a MAC as ``00-1A-…``; placeholders
    (``0``, all zeros, ``NULL``, ``无``) give ``""``."""
    value = " ".join(value.split())
    if _ZEROS.fullmatch(value) or value.upper() in _PLACEHOLDERS:
        return ""
    if name == "mac":
        bare = re.sub(r"[\s:.-]", "", value.upper())
        return "-".join(bare[i : i + 2] for i in range(0, 12, 2)) if _MAC.fullmatch(bare) else value.upper()
    return value.upper() if name in _SERIALS else value


def _records(root: etree._Element, notes: list[str]) -> list[_Record]:
    """The machine records of every topmost software and hardware block, in document order."""
    names = machine_fields().get("block", frozenset())
    blocks = [e for e in root.iter() if isinstance(e.tag, str) and _local(e.tag) in names]
    chosen = set(blocks)
    records: list[_Record] = []
    for block in blocks:
        if not any(a in chosen for a in block.iterancestors()):
            _collect(block, None, records)
    if len(records) > MAX_RECORDS:
        notes.append(f"软硬件信息超过 {MAX_RECORDS} 条，其余未读")
    return records[:MAX_RECORDS]


def _collect(node: etree._Element, record: _Record | None, records: list[_Record]) -> None:
    """Add an element's machine fields to its record, starting a record where the rule says so."""
    own = {k: c for k, v in _own_fields(node).items() if k in _MACHINE and (c := _clean(k, v))}
    if (record is None and own) or (record is not None and not record.timed and "time" in own):
        if len(records) > MAX_RECORDS:
            return
        record = _Record(timed="time" in own)
        records.append(record)
    if record is not None:
        for name, value in own.items():
            record.add(name, value)
    for child in node:
        if isinstance(child.tag, str):
            _collect(child, record, records)


def _record_text(record: _Record) -> str:
    """The record as a panel reads it: time, dongle, CPU, network card, disk, software (those present)."""
    software = " ".join(filter(None, (record.first("software"), record.first("version"))))
    dongles = "、".join(record.values.get("dongle", []))
    parts = (
        record.first("time"),
        dongles and f"加密锁 {dongles}",
        record.first("cpu") and f"CPU {record.first('cpu')}",
        record.first("mac") and f"网卡 {record.first('mac')}",
        record.first("disk") and f"硬盘 {record.first('disk')}",
        software and f"软件 {software}",
    )
    return " · ".join(p for p in parts if p)


def _marks(records: list[_Record], name: str) -> tuple[Mark, ...]:
    """Each record's dongle serials and its CPU/MAC/disk, in document order, each (field, value, time)
    once."""
    marks: dict[tuple[str, str, str], Mark] = {}
    for record in records:
        time, text = record.first("time"), _record_text(record)
        values = [("dongle", serial) for serial in record.values.get("dongle", [])]
        cpu, mac, disk = record.first("cpu"), record.first("mac"), record.first("disk")
        if cpu and disk:
            machine = f"CPU {cpu} / MAC {mac} / 硬盘 {disk}" if mac else f"CPU {cpu} / 硬盘 {disk}"
            values.append(("cpu_mac_disk", machine))
        for kind, value in values:
            marks.setdefault((kind, value, time), Mark(kind, value, file=name, time=time, record=text))
    return tuple(marks.values())


def _items(root: etree._Element, notes: list[str], file: str) -> tuple[list[dict[str, str]], list[BillItem]]:
    """The bill's items (elements named as items, or carrying a bill code of 9 to 12 digits): their
    cells, and each as a ``BillItem`` with its build-up (the quotas below it)."""
    names = machine_fields().get("item", frozenset())
    items: list[dict[str, str]] = []
    bill: list[BillItem] = []
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue
        own = _own_fields(node)
        row = {k: own[k] for k in _ITEM_FIELDS if k in own}
        coded = _BILL_CODE.fullmatch(own.get("code", "").upper()) is not None
        if row and (coded or _local(node.tag) in names):
            if len(items) == MAX_ITEMS:
                notes.append(f"清单项目超过 {MAX_ITEMS} 条，其余未读")
                break
            items.append(row)
            item = bill_item(row, _buildup(node), file)
            if item is not None:
                bill.append(item)
    return items, bill


def _resources(root: etree._Element, file: str) -> list[BillItem]:
    """The bill's 人材机 and their prices (``resource`` elements), each once: a 人材机 listed again
    under every item it prices is one 人材机."""
    names = machine_fields().get("resource", frozenset())
    found: dict[tuple[str, str, str, str], BillItem] = {}
    for node in root.iter():
        if not isinstance(node.tag, str) or _local(node.tag) not in names or len(found) == MAX_ITEMS:
            continue
        own = _own_fields(node)
        cells = {k.removeprefix("resource_"): v for k, v in own.items() if k.startswith("resource_")}
        item = resource_item({**cells, "unit_price": cells.get("price", "")}, file)
        if item is not None and item.unit_price is not None:
            found.setdefault((item.code, item.name, item.unit, f"{item.unit_price:.4f}"), item)
    return list(found.values())


def _buildup(item: etree._Element) -> tuple[tuple[str, str], ...]:
    """The quotas an item is priced from: each 定额编号 below it with its 含量, in order."""
    found = []
    for node in item.iterdescendants():
        if isinstance(node.tag, str):
            own = _own_fields(node)
            if own.get("quota_code"):
                found.append((own["quota_code"].upper(), own.get("quota_amount", "")))
    return tuple(found)


def _resource_blocks(resources: list[BillItem], last_row: int) -> list[Block]:
    """The 人材机 price list after the items: a header row, then a row a 人材机 (its code, name and
    spec, unit, price), numbered on from ``last_row``."""
    if not resources:
        return []
    listed = ((r.code, r.name, r.unit, f"{r.unit_price:g}") for r in resources)
    rows = [("编码", "名称", "单位", "市场价"), *listed]
    return [
        Block(text, "table", 1, 0, last_row + number, cell)
        for number, row in enumerate(rows, start=1)
        for cell, text in enumerate(row)
        if text
    ]


def _item_blocks(items: list[dict[str, str]]) -> list[Block]:
    """A header row, then a row per item, as table cells (rows from 1; empty cells left out)."""
    rows = [dict(zip(_ITEM_FIELDS, HEADER, strict=True)), *items]
    return [
        Block(row[key], "table", 1, 0, number, cell)
        for number, row in enumerate(rows, start=1)
        for cell, key in enumerate(_ITEM_FIELDS)
        if row.get(key)
    ]
