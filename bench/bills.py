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
    "features": "XMTZ",
}
_RESOURCE_NAMES = {"code": "RCJBM", "name": "RCJMC", "spec": "GGXH", "unit": "DW", "price": "SCJ"}
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
# What an item's 项目特征 describes, by the first digits of its code: the words, and the choices of each
_FEATURES = {
    "010101": (
        "1.土壤类别：{}\n2.挖土深度：{}",
        ("三类土", "四类土", "二类土"),
        ("2m以内", "4m以内", "6m以内"),
    ),
    "010103": (
        "1.密实度要求：{}\n2.填方材料品种：{}",
        ("0.94", "0.95", "0.96"),
        ("素土", "级配砂石", "灰土"),
    ),
    "010501": (
        "1.混凝土种类：{}\n2.混凝土强度等级：{}",
        ("商品混凝土", "现场搅拌"),
        ("C15", "C20"),
    ),
    "010502": (
        "1.混凝土种类：{}\n2.混凝土强度等级：{}",
        ("商品混凝土", "现场搅拌"),
        ("C30", "C35", "C40"),
    ),
    "010505": (
        "1.混凝土种类：{}\n2.混凝土强度等级：{}",
        ("商品混凝土", "泵送商品混凝土"),
        ("C25", "C30"),
    ),
    "010515": (
        "1.钢筋种类、规格：{}\n2.连接方式：{}",
        ("HRB400 Φ12", "HRB400 Φ20", "HPB300 Φ8"),
        ("绑扎", "焊接"),
    ),
    "011702": (
        "1.基础类型：{}\n2.模板材质：{}",
        ("独立基础", "条形基础"),
        ("木模板", "钢模板"),
    ),
    "011101": (
        "1.找平层厚度、砂浆配合比：{}\n2.面层厚度：{}",
        ("20mm 1:3", "25mm 1:2.5"),
        ("20mm", "25mm"),
    ),
    "040202": (
        "1.部位：{}\n2.范围：{}",
        ("车行道", "人行道"),
        ("全线", "K0+000~K1+200"),
    ),
    "040203": (
        "1.沥青品种：{}\n2.厚度：{}",
        ("AC-13C 改性沥青", "AC-20C 普通沥青"),
        ("4cm", "6cm"),
    ),
}
# 人材机 of a price list: code, name, spec, unit, and the range of a 信息价 in yuan
_RESOURCES = (
    ("00010101", "综合工日", "", "工日", (110, 160)),
    ("01010101", "钢筋", "HPB300 Φ10以内", "t", (3900, 4600)),
    ("01010102", "钢筋", "HRB400 Φ12~Φ25", "t", (3800, 4500)),
    ("04010101", "普通硅酸盐水泥", "P.O 42.5", "t", (380, 520)),
    ("04030101", "中砂", "", "m3", (90, 160)),
    ("04050101", "碎石", "5~31.5mm", "m3", (80, 140)),
    ("80210101", "商品混凝土", "C30", "m3", (420, 520)),
    ("80210102", "商品混凝土", "C20", "m3", (390, 480)),
    ("05030101", "板枋材", "", "m3", (1800, 2600)),
    ("35010101", "复合模板", "18mm", "m2", (28, 46)),
    ("03010101", "镀锌铁丝", "22#", "kg", (5, 9)),
    ("13010101", "沥青混凝土", "AC-13C", "t", (580, 760)),
    ("99010101", "履带式单斗挖掘机", "1m3", "台班", (900, 1400)),
    ("99050101", "自卸汽车", "15t", "台班", (700, 1100)),
    ("34110101", "水", "", "m3", (3, 6)),
    ("34110103", "电", "", "kW·h", (0, 2)),
)


def make_pricing_xml(
    path: Path,
    records: Sequence[dict[str, str]] = (),
    items: Sequence[dict[str, str]] = (),
    *,
    resources: Sequence[dict[str, str]] = (),
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
    ``unit_price``, ``total``, ``features`` (项目特征). ``resources`` (``code``, ``name``, ``spec``,
    ``unit``, ``price``) are the 人材机 price list, ``RCJMX`` under ``RCJHZ``. ``signature`` is the block's
    ``XXMW`` (left out when empty).
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
    if resources:
        listed = etree.SubElement(root, "RCJHZ")
        for resource in resources:
            etree.SubElement(listed, "RCJMX", _named(resource, _RESOURCE_NAMES))
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
                "features": _features(prefix, used[prefix]),
            }
        )
    return items


def _features(prefix: str, turn: int) -> str:
    """An item's 项目特征 as the tender's bill words it (its choices picked by the item's turn)."""
    words, *choices = _FEATURES[prefix[:6]]
    return words.format(*(options[(turn + n) % len(options)] for n, options in enumerate(choices)))


def resource_list(seed: int) -> list[dict[str, str]]:
    """A price list's 人材机 at their 信息价 (the control bill's), to the fen."""
    rng = random.Random(seed)
    return [
        {"code": code, "name": name, "spec": spec, "unit": unit, "price": f"{rng.uniform(low, high + 1):.2f}"}
        for code, name, spec, unit, (low, high) in _RESOURCES
    ]


def resources_around(resources: Sequence[dict[str, str]], seed: int) -> list[dict[str, str]]:
    """One bidder's market prices of the 人材机: each at 90–110% of its 信息价, to the fen, drawn apart,
    but for two at the 信息价 itself and two at a round price (as bidders price)."""
    rng = random.Random(seed)
    out = [{**r, "price": f"{float(r['price']) * rng.uniform(0.9, 1.1):.2f}"} for r in resources]
    for n in rng.sample(range(len(out)), 4):
        out[n]["price"] = resources[n]["price"] if n % 2 else f"{round(float(resources[n]['price']))}.00"
    return out


def make_bill_xlsx(
    path: Path,
    items: Sequence[dict[str, str]],
    *,
    title: str = "分部分项工程量清单与计价表",
    resources: Sequence[dict[str, str]] = (),
) -> Path:
    """A bidder's priced bill as an Excel sheet: a title row, the header row of the usual 计价表, then a
    row per item (numbers as numbers), as pricing programs export them; ``resources`` as a second sheet,
    the 人材机汇总表."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "分部分项"
    sheet.append([title])
    sheet.append(
        ["序号", "项目编码", "项目名称", "项目特征描述", "计量单位", "工程量", "综合单价（元）", "合价（元）"]
    )
    for n, item in enumerate(items, 1):
        numbers = [float(item[k]) for k in ("quantity", "unit_price", "total")]
        sheet.append([n, item["code"], item["name"], item.get("features", ""), item["unit"], *numbers])
    if resources:
        listed = book.create_sheet("人材机汇总表")
        listed.append(["序号", "编码", "名称", "规格型号", "单位", "市场价（元）"])
        for n, r in enumerate(resources, 1):
            listed.append([n, r["code"], r["name"], r["spec"], r["unit"], float(r["price"])])
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


STANDARD = [("1-1", "1.000")]  # the quota everyone prices an item from
OWN_BUILDUP = [("1-1", "0.950"), ("5-12", "0.031")]  # one cost engineer's build-up of his own


def copied_prices(
    source: Sequence[dict[str, str]], into: Sequence[dict[str, str]], count: int
) -> list[dict[str, str]]:
    """``into`` with the unit prices and totals of ``source``'s first ``count`` items (a bill priced
    from another)."""
    return [
        {**mine, "unit_price": theirs["unit_price"], "total": theirs["total"]} if n < count else dict(mine)
        for n, (theirs, mine) in enumerate(zip(source, into, strict=True))
    ]
