"""The priced-bill XML reader: machine records as marks, bill items as table rows, damaged and hostile
files, all from real files written to disk."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from bench.bills import bill_items, make_pricing_xml
from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.limits import ReadLimits
from bidcheck.ingest.pricing_xml import (
    BROKEN,
    HEADER,
    MAX_ITEMS,
    MAX_RECORDS,
    looks_like_pricing_xml,
    machine_fields,
    read_pricing_xml,
)
from bidcheck.model import Block, Document, Mark

NAME = "甲-计价.xml"
RECORD = {
    "time": "2024-05-01 10:12:00",
    "dongle": "8801-2345",
    "cpu": "bfebfbff000906ea",
    "mac": "00:1a:2b:3c:4d:5e",
    "disk": " wd-wx12 ",
    "software": "某某计价",
    "version": "V9",
}
RECORD_TEXT = (
    "2024-05-01 10:12:00 · 加密锁 8801-2345 · CPU BFEBFBFF000906EA · 网卡 00-1A-2B-3C-4D-5E"
    " · 硬盘 WD-WX12 · 软件 某某计价 V9"
)
MACHINE = "CPU BFEBFBFF000906EA / MAC 00-1A-2B-3C-4D-5E / 硬盘 WD-WX12"


def _read(path: Path, limits: ReadLimits | None = None) -> Document:
    return read_pricing_xml(path, "d1", NAME, limits or ReadLimits())


def _write(path: Path, body: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(f'<?xml version="1.0" encoding="{encoding}"?>\n{body}'.encode(encoding))
    return path


def _cells(doc: Document) -> list[tuple[int, int, str]]:
    return [(b.row, b.cell, b.text) for b in doc.blocks if b.kind == "table"]


@pytest.mark.parametrize("nested", [True, False], ids=["nested", "flat"])
def test_records_give_dongle_and_machine_marks_with_time_and_record(tmp_path: Path, nested: bool) -> None:
    doc = _read(make_pricing_xml(tmp_path / "a.xml", [RECORD], bill_items(2, 1), nested=nested))
    assert doc.marks == (
        Mark("dongle", "8801-2345", NAME, "2024-05-01 10:12:00", RECORD_TEXT),
        Mark("cpu_mac_disk", MACHINE, NAME, "2024-05-01 10:12:00", RECORD_TEXT),
    )
    assert doc.format == "xml" and doc.notes == ()


def test_values_as_leaf_elements_under_namespaced_lower_case_names(tmp_path: Path) -> None:
    body = """<jsxmxx xmlns="urn:example:zjbz"><xtxx><ryjxx xxmw="@@not a signature@@">
      <jlsjmx><jlsj>2024-06-02 08:00:00</jlsj>
        <yjxxmx><cpuxlh>CPU-1</cpuxlh><wkdz>001A2B3C4D5F</wkdz><ypxlh>DISK-1</ypxlh></yjxxmx>
        <jmsbxxmx><jmsxlh>7700-1</jmsxlh></jmsbxxmx>
      </jlsjmx></ryjxx></xtxx></jsxmxx>"""
    doc = _read(_write(tmp_path / "leaf.xml", body))
    assert [(m.field, m.value, m.time) for m in doc.marks] == [
        ("dongle", "7700-1", "2024-06-02 08:00:00"),
        ("cpu_mac_disk", "CPU CPU-1 / MAC 00-1A-2B-3C-4D-5F / 硬盘 DISK-1", "2024-06-02 08:00:00"),
    ]


def test_each_timed_element_is_its_own_record_and_untimed_fields_one_more(tmp_path: Path) -> None:
    body = """<JSXMXX><XTXX><RYJXX>
      <JBXX JMSXLH="1111"/>
      <JLSJMX JLSJ="2024-01-01 09:00:00" JMSXLH="2222"/>
      <JLSJMX JLSJ="2024-01-02 09:00:00" JMSXLH="3333"/>
      </RYJXX></XTXX></JSXMXX>"""
    doc = _read(_write(tmp_path / "records.xml", body))
    assert [(m.value, m.time, m.record) for m in doc.marks] == [
        ("1111", "", "加密锁 1111"),
        ("2222", "2024-01-01 09:00:00", "2024-01-01 09:00:00 · 加密锁 2222"),
        ("3333", "2024-01-02 09:00:00", "2024-01-02 09:00:00 · 加密锁 3333"),
    ]


def test_the_same_dongle_and_time_gives_one_mark_another_time_another(tmp_path: Path) -> None:
    first = {"time": "2024-01-01 09:00:00", "dongle": "8801"}
    again = {"time": "2024-01-03 09:00:00", "dongle": "8801"}
    doc = _read(make_pricing_xml(tmp_path / "dup.xml", [first, first, again]))
    assert [(m.value, m.time) for m in doc.marks] == [
        ("8801", "2024-01-01 09:00:00"),
        ("8801", "2024-01-03 09:00:00"),
    ]


def test_machine_mark_leaves_out_a_missing_mac(tmp_path: Path) -> None:
    record = {"time": "2024-01-01 09:00:00", "cpu": "C1", "disk": "D1"}
    doc = _read(make_pricing_xml(tmp_path / "nomac.xml", [record]))
    assert [(m.field, m.value) for m in doc.marks] == [("cpu_mac_disk", "CPU C1 / 硬盘 D1")]


def test_placeholder_values_give_no_mark(tmp_path: Path) -> None:
    record = {
        "time": "2024-01-01 09:00:00",
        "dongle": "0000-0000",
        "cpu": "0",
        "mac": "00-00-00-00-00-00",
        "disk": "NULL",
        "software": "无",
    }
    doc = _read(make_pricing_xml(tmp_path / "zeros.xml", [record], bill_items(1, 2)))
    assert doc.marks == ()
    with pytest.raises(ReadError):  # nothing but placeholders is no record at all
        _read(make_pricing_xml(tmp_path / "zeros_only.xml", [record]))


def test_gbk_declared_file_reads_its_chinese_software_name(tmp_path: Path) -> None:
    record = {"time": "2024-05-01 10:12:00", "dongle": "8801", "software": "新点清单造价"}
    path = make_pricing_xml(tmp_path / "gbk.xml", [record], bill_items(1, 3), encoding="gbk")
    data = path.read_bytes()
    assert b"encoding='GBK'" in data and "新点清单造价".encode("gbk") in data
    doc = _read(path)
    assert doc.marks[0].record == "2024-05-01 10:12:00 · 加密锁 8801 · 软件 新点清单造价"
    assert doc.blocks[0].text == "某市滨江新区道路工程"


def test_an_encoding_lxml_does_not_know_falls_back_to_gb18030(tmp_path: Path) -> None:
    body = '<JSXMXX><RYJXX><JLSJMX JLSJ="2024-01-01" JMSXLH="9" RJMC="某某计价"/></RYJXX></JSXMXX>'
    path = tmp_path / "odd.xml"
    path.write_bytes(f'<?xml version="1.0" encoding="X-ZJ-UNKNOWN"?>{body}'.encode("gb18030"))
    assert _read(path).marks[0].record == "2024-01-01 · 加密锁 9 · 软件 某某计价"


def test_item_table_gives_a_header_and_a_row_per_item(tmp_path: Path) -> None:
    items = bill_items(3, 4)
    doc = _read(make_pricing_xml(tmp_path / "bill.xml", items=items, project="某县污水管网工程"))
    assert doc.blocks[0] == Block("某县污水管网工程", "body", 1, 0)
    keys = ("code", "name", "features", "unit", "quantity", "unit_price", "total")
    expected = [(1, c, h) for c, h in enumerate(HEADER)]
    expected += [(r, c, item[k]) for r, item in enumerate(items, start=2) for c, k in enumerate(keys)]
    assert _cells(doc) == expected
    assert all(b.page == 1 for b in doc.blocks) and doc.marks == ()


def test_bill_items_are_realistic(tmp_path: Path) -> None:
    items = bill_items(50, 5)
    assert len({i["code"] for i in items}) == 50
    for item in items:
        assert len(item["code"]) == 12 and item["code"].isdigit() and item["unit"] in ("m3", "m2", "t")
        total = round(float(item["quantity"]) * float(item["unit_price"]), 2)
        assert abs(float(item["total"]) - total) < 0.011 and "." in item["unit_price"]


def test_an_element_with_a_bill_code_is_an_item_whatever_its_name(tmp_path: Path) -> None:
    body = """<JSXMXX><FBXX XMBM="0101"><XMMC>土石方工程</XMMC></FBXX>
      <ZJXM><XMBM>040101001001</XMBM><XMMC>挖沟槽土方</XMMC><JLDW>m3</JLDW><GCL>12.5</GCL></ZJXM>
      </JSXMXX>"""
    doc = _read(_write(tmp_path / "coded.xml", body))
    assert [(r, c, t) for r, c, t in _cells(doc) if r > 1] == [
        (2, 0, "040101001001"),
        (2, 1, "挖沟槽土方"),
        (2, 3, "m3"),  # column 2 is the 项目特征, which this item has none of
        (2, 4, "12.5"),
    ]


def test_records_without_items_still_give_a_document_with_its_marks(tmp_path: Path) -> None:
    doc = _read(make_pricing_xml(tmp_path / "only.xml", [RECORD]))
    assert doc.blocks == (Block(f"计价文件 {NAME}：软硬件信息 1 条"),)
    assert [m.field for m in doc.marks] == ["dongle", "cpu_mac_disk"]


def test_no_items_and_no_records_is_not_a_pricing_file(tmp_path: Path) -> None:
    path = _write(tmp_path / "plain.xml", '<JSXMXX XMMC="某工程"><XTXX><RYJXX XXMW="x"/></XTXX></JSXMXX>')
    with pytest.raises(ReadError, match="XML 文件中没有工程量清单或计价软件信息，不是计价文件"):
        _read(path)


def test_truncated_file_keeps_what_precedes_the_break(tmp_path: Path) -> None:
    items = bill_items(10, 6)
    path = make_pricing_xml(tmp_path / "cut.xml", [RECORD], items)
    data = path.read_bytes()
    path.write_bytes(data[: data.index(items[6]["code"].encode()) + 4])
    doc = _read(path)
    assert doc.notes == (BROKEN,)
    codes = [t for r, c, t in _cells(doc) if c == 0 and r > 1]
    assert codes[:6] == [i["code"] for i in items[:6]] and items[7]["code"] not in codes
    assert len(doc.marks) == 2


def test_garbage_bytes_raise_the_damaged_message(tmp_path: Path) -> None:
    path = tmp_path / "garbage.xml"
    path.write_bytes(random.Random(7).randbytes(5000))
    with pytest.raises(ReadError, match=r"^XML 文件已损坏，无法解析$"):
        _read(path)


@pytest.mark.parametrize("signature", ["", "!!%%不是签名%%!!" * 50], ids=["absent", "garbage"])
def test_the_signature_is_never_checked(tmp_path: Path, signature: str) -> None:
    doc = _read(make_pricing_xml(tmp_path / "sig.xml", [RECORD], signature=signature))
    assert len(doc.marks) == 2


def test_entity_expansion_neither_hangs_nor_expands(tmp_path: Path) -> None:
    entities = '<!ENTITY a0 "哈哈哈哈哈哈哈哈哈哈">' + "".join(
        f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 10)
    )
    body = f"""<!DOCTYPE JSXMXX [{entities}]><JSXMXX XMMC="&a3;">
      <RYJXX><JLSJMX JLSJ="2024-01-01" JMSXLH="8801" RJMC="&a3;"/></RYJXX>
      <QDXX><QDMX XMBM="010101001001" XMMC="&a3;"><JLDW>&a9;</JLDW></QDMX></QDXX></JSXMXX>"""
    path = tmp_path / "laughs.xml"
    path.write_bytes(f'<?xml version="1.0"?>{body}'.encode())
    started = time.perf_counter()
    doc = _read(path)
    assert time.perf_counter() - started < 5
    assert [b.text for b in doc.blocks] == [*HEADER, "010101001001"]
    assert doc.marks[0].record == "2024-01-01 · 加密锁 8801" and doc.notes == (BROKEN,)


def test_a_file_larger_than_the_limit_is_refused(tmp_path: Path) -> None:
    path = make_pricing_xml(tmp_path / "big.xml", items=bill_items(50, 8))
    with pytest.raises(ReadError, match="XML 文件过大"):
        _read(path, ReadLimits(unpacked_bytes=path.stat().st_size - 1))
    assert _read(path, ReadLimits(unpacked_bytes=path.stat().st_size)).blocks


def test_records_stop_at_the_cap_with_a_note(tmp_path: Path) -> None:
    records = [{"time": f"2024-01-01 {i}", "dongle": f"D{i}"} for i in range(MAX_RECORDS + 5)]
    doc = _read(make_pricing_xml(tmp_path / "many.xml", records, nested=False))
    assert len(doc.marks) == MAX_RECORDS and doc.marks[-1].value == f"D{MAX_RECORDS - 1}"
    assert doc.notes == (f"软硬件信息超过 {MAX_RECORDS} 条，其余未读",)


def test_items_stop_at_the_cap_with_a_note(tmp_path: Path) -> None:
    items = [{"code": f"01010100{i:04d}"} for i in range(MAX_ITEMS + 3)]
    doc = _read(make_pricing_xml(tmp_path / "huge.xml", items=items))
    assert [b.text for b in doc.blocks[-2:]] == [items[MAX_ITEMS - 2]["code"], items[MAX_ITEMS - 1]["code"]]
    assert doc.blocks[-1].row == MAX_ITEMS + 1
    assert doc.notes == (f"清单项目超过 {MAX_ITEMS} 条，其余未读",)


def test_field_names_come_from_the_table(tmp_path: Path) -> None:
    fields = machine_fields()
    assert {"JMSXLH", "JMSBXLH", "JMSH"} <= fields["dongle"] and fields["block"] == {"RYJXX"}
    body = '<JSXMXX><RYJXX><JLSJMX JLSJ="2024-01-01" JMSBXLH="5501" MACDZ="001a2b3c4d5e"/></RYJXX></JSXMXX>'
    doc = _read(_write(tmp_path / "other.xml", body))
    assert doc.marks[0].record == "2024-01-01 · 加密锁 5501 · 网卡 00-1A-2B-3C-4D-5E"


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b'<?xml version="1.0" encoding="GBK"?><JSXMXX/>', True),
        (b"\xef\xbb\xbf\r\n  <JSXMXX>", True),
        (b"%PDF-1.7", False),
        (b"plain text <b>", False),
        (b"< 3 and > 1", False),
        (b"", False),
    ],
)
def test_looks_like_pricing_xml(head: bytes, expected: bool) -> None:
    assert looks_like_pricing_xml(head) is expected
