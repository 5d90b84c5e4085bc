"""Builders of priced-bill XML files shaped like the 工程造价电子数据标准 that pricing programs export."""

from __future__ import annotations

import random
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from lxml import etree

# Our field names, as the standard names them on a record or an item
_RECORD_NAMES = {
    "time": "JLSJ",
    "dongle": "JMSXLH",
    "cpu": "CPUXLH",
    "mac": "WKDZ",
    "disk": "YPXLH",
    "software": "RJMC",
    "version": "RJBB",
}
_ITEM_NAMES = {
    "code": "XMBM",
    "name": "XMMC",
    "unit": "JLDW",
    "quantity": "GCL",
    "unit_price": "ZHDJ",
    "total": "HJ",
}
_HARDWARE = ("cpu", "mac", "disk")  # nested records keep these on the hardware detail (YJXXMX)

# Items of a road and building bill: the first nine digits of the code, the name, the unit, and the
# range of a plausible unit price in yuan
_CATALOGUE = (
    ("010101002", "挖一般土方", "m3", (18, 45)),
    ("010103001", "回填方", "m3", (12, 38)),
    ("010501001", "混凝土垫层", "m3", (420, 560)),
    ("010502001", "矩形柱", "m3", (560, 720)),
    ("010505001", "有梁板", "m3", (520, 680)),
    ("010515001", "钢筋制作安装", "t", (4800, 6200)),
    ("011702001", "基础模板", "m2", (45, 80)),
    ("011101001", "水泥砂浆楼地面", "m2", (25, 48)),
    ("040202001", "路床整形", "m2", (2, 6)),
    ("040203006", "沥青混凝土面层", "m2", (60, 120)),
)
_CENT = Decimal("0.01")


def make_pricing_xml(
    path: Path,
    records: Sequence[dict[str, str]] = (),
    items: Sequence[dict[str, str]] = (),
    *,
    encoding: str = "utf-8",
    nested: bool = True,
    signature: str = "MEUCIQ...",
    project: str = "某市滨江新区道路工程",
) -> Path:
    """Write a 建设项目 file: machine records under ``XTXX/RYJXX``, items under ``DXGCXX/QDXX``.

    A record's keys are our fields (``time``, ``dongle``, ``cpu``, ``mac``, ``disk``, ``software``,
    ``version``); an item's ``buildup`` (a list of (定额编号, 含量)) is written as ``DEMX`` children;
    ``nested`` puts the hardware and dongle on detail elements of the timed ``JLSJMX``,
    else all on it as attributes. An item's keys are ``code``, ``name``, ``unit``, ``quantity``,
    ``unit_price``, ``total``. ``signature`` is the block's ``XXMW`` (left out when empty).
    """
    root = etree.Element("JSXMXX", XMMC=project)
    block = etree.SubElement(etree.SubElement(root, "XTXX"), "RYJXX")
    if signature:
        block.set("XXMW", signature)
    for record in records:
        _add_record(block, record, nested)
    bill = etree.SubElement(etree.SubElement(root, "DXGCXX", XMMC=project), "QDXX")
    for item in items:
        row = etree.SubElement(bill, "QDMX", _named(item, _ITEM_NAMES))
        for code, amount in item.get("buildup", ()):  # type: ignore[attr-defined]
            etree.SubElement(row, "DEMX", DEBM=code, HL=amount)
    path.write_bytes(etree.tostring(root, xml_declaration=True, encoding=encoding.upper(), pretty_print=True))
    return path


def _named(values: dict[str, str], names: dict[str, str]) -> dict[str, str]:
    return {names[key]: value for key, value in values.items() if key in names}


def _add_record(block: etree._Element, record: dict[str, str], nested: bool) -> None:
    if not nested:
        etree.SubElement(block, "JLSJMX", _named(record, _RECORD_NAMES))
        return
    own = {k: v for k, v in record.items() if k not in (*_HARDWARE, "dongle")}
    timed = etree.SubElement(block, "JLSJMX", _named(own, _RECORD_NAMES))
    hardware = {k: v for k, v in record.items() if k in _HARDWARE}
    if hardware:
        etree.SubElement(timed, "YJXXMX", _named(hardware, _RECORD_NAMES))
    if "dongle" in record:
        etree.SubElement(timed, "JMSBXXMX", JMSXLH=record["dongle"])


def bill_items(n: int, seed: int) -> list[dict[str, str]]:
    """``n`` bill items with 12-digit codes, quantities, unit prices in cents and totals to the cent."""
    rng = random.Random(seed)
    used: dict[str, int] = {}
    items = []
    for _ in range(n):
        prefix, name, unit, (low, high) = rng.choice(_CATALOGUE)
        used[prefix] = used.get(prefix, 0) + 1
        quantity = Decimal(rng.randint(100, 2_000_000)) / 1000
        price = Decimal(rng.randint(low * 100, high * 100)) / 100
        items.append(
            {
                "code": f"{prefix}{used[prefix]:03d}",
                "name": name,
                "unit": unit,
                "quantity": f"{quantity:.3f}",
                "unit_price": f"{price:.2f}",
                "total": str((quantity * price).quantize(_CENT, ROUND_HALF_UP)),
            }
        )
    return items


def make_bill_xlsx(
    path: Path, items: Sequence[dict[str, str]], *, title: str = "分部分项工程量清单与计价表"
) -> Path:
    """A bidder's priced bill as an Excel sheet: a title row, the header row of the usual 计价表, then a
    row per item (numbers as numbers), as pricing programs export them."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "分部分项"
    sheet.append([title])
    sheet.append(["序号", "项目编码", "项目名称", "计量单位", "工程量", "综合单价（元）", "合价（元）"])
    for n, item in enumerate(items, 1):
        numbers = [float(item[k]) for k in ("quantity", "unit_price", "total")]
        sheet.append([n, item["code"], item["name"], item["unit"], *numbers])
    book.save(path)
    return path


def priced_around(
    items: Sequence[dict[str, str]], seed: int, low: float = 0.85, high: float = 0.99
) -> list[dict[str, str]]:
    """The control price's items priced by one bidder apart: each item at a share of its control price
    drawn between ``low`` and ``high``, to the fen, its total worked out."""
    rng = random.Random(seed)
    out = []
    for item in items:
        price = (Decimal(item["unit_price"]) * Decimal(str(rng.uniform(low, high)))).quantize(
            _CENT, ROUND_HALF_UP
        )
        total = (Decimal(item["quantity"]) * price).quantize(_CENT, ROUND_HALF_UP)
        out.append({**item, "unit_price": str(price), "total": str(total)})
    return out
