"""Bidders as folders, and the machine proof the provincial rules name: a section whose bidders each
handed in a folder (商务标, 技术标, the priced bill's XML), checked with the tender and its 招标控制价 XML."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from bench.bills import bill_items, make_pricing_xml
from bench.writers import set_pdf_id, with_office_identity
from bidcheck.config import Settings
from bidcheck.ingest import read_document
from bidcheck.model import CheckResult, PairResult
from bidcheck.pipeline import CheckInputs, check
from tests.builders import make_docx, make_pdf, paragraphs

TENDER_RECORD = {"time": "2025-03-01 09:00:00", "dongle": "TENDER-0001", "cpu": "BFEBFBFF000906EA",
                 "mac": "00-11-22-33-44-55", "disk": "WD-TENDER", "software": "某某计价 V9"}  # fmt: skip
BIDDERS = ("华东建设", "恒信市政", "中联路桥", "宏远建工")
OWN_RECORDS = {
    "华东建设": {"time": "2025-03-20 10:12:00", "dongle": "8801-2345", "cpu": "CPU-A", "disk": "DISK-A"},
    "恒信市政": {"time": "2025-03-21 16:40:00", "dongle": "8801-2345", "cpu": "CPU-B", "disk": "DISK-B"},
    "中联路桥": {"time": "2025-03-19 08:05:00", "dongle": "7702-0001", "cpu": "CPU-C",
                 "mac": "AA-BB-CC-00-11-22", "disk": "DISK-C"},
    "宏远建工": {"time": "2025-03-22 11:30:00", "dongle": "6603-0002", "cpu": "CPU-C",
                 "mac": "aa:bb:cc:00:11:22", "disk": "DISK-C"},
}  # fmt: skip
STALE = {
    "time": "2025-02-10 09:00:00",
    "dongle": "7702-0001",
}  # 宏远's file kept a record older than the tender


def _priced(items: list[dict[str, str]], seed: int) -> list[dict[str, str]]:
    """The tender's items priced by one bidder: the same codes, names and quantities, its own prices."""
    rng = random.Random(seed)
    return [
        {**item, "unit_price": f"{float(item['unit_price']) * rng.uniform(0.8, 1.1):.2f}"} for item in items
    ]


@pytest.fixture(scope="module")
def section(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("folders")
    bids, tender = root / "bids", root / "tender"
    tender.mkdir()
    common = paragraphs(900, 4)
    make_docx(tender / "招标文件.docx", [common])
    items = bill_items(30, 7)
    make_pricing_xml(tender / "招标控制价.xml", [TENDER_RECORD], items)
    copied = paragraphs(950, 5)  # 华东 and 恒信's technical plans come from one draft
    for n, name in enumerate(BIDDERS, 1):
        folder = bids / name
        folder.mkdir(parents=True)
        make_docx(folder / "投标文件.docx", [paragraphs(100 * n, 6) + common[:1]])
        plan = paragraphs(100 * n + 50, 8) + (copied if n <= 2 else [])
        maker, suffix = (make_pdf, "pdf") if n == 2 else (make_docx, "docx")
        maker(folder / f"技术标.{suffix}", [plan[:6], plan[6:]])
        records = [TENDER_RECORD, OWN_RECORDS[name]] + ([STALE] if name == "宏远建工" else [])
        make_pricing_xml(folder / "造价.xml", records, _priced(items, n), nested=n % 2 == 1)
    make_docx(bids / "05-金石城建.docx", [paragraphs(600, 8)])  # a bid handed in as one file
    return root


def _check(section: Path, **settings: object) -> CheckResult:
    tender = section / "tender"
    inputs = CheckInputs((section / "bids",), (tender / "招标文件.docx", tender / "招标控制价.xml"))
    return check(inputs, Settings(workers=2).with_changes(**settings))


@pytest.fixture(scope="module")
def result(section: Path) -> CheckResult:
    return _check(section)


def _pair(result: CheckResult, a: str, b: str) -> PairResult:
    names = {d.id: d.name for d in result.documents}
    return next(p for p in result.pairs if {names[p.a], names[p.b]} == {a, b})


def test_each_folder_is_one_bidder_named_by_it(result: CheckResult) -> None:
    assert sorted(d.name for d in result.bids) == sorted([*BIDDERS, "05-金石城建.docx"])
    assert len(result.pairs) == 10  # five bids, never a bidder's files against each other
    first = next(d for d in result.bids if d.name == "华东建设")
    assert first.ok and first.format == "folder"
    assert [p.name for p in first.parts] == sorted(["投标文件.docx", "技术标.docx", "造价.xml"])
    starts = [p.first_page for p in first.parts]
    assert starts == sorted(starts) and starts[0] == 1 and first.pages == sum(p.pages for p in first.parts)


def test_a_shared_dongle_is_strong_proof_with_both_records(result: CheckResult) -> None:
    pair = _pair(result, "华东建设", "恒信市政")
    assert pair.level == "high"
    dongle = [s for s in pair.signals if s.kind == "machine" and s.field == "dongle"]
    assert [s.value for s in dongle] == ["8801-2345"] and dongle[0].strength == "strong"
    assert dongle[0].a and dongle[0].b and "2025-03-20 10:12" in dongle[0].a.text + dongle[0].b.text
    assert "第四十条" in dongle[0].detail
    assert any(p.live for p in pair.passages)  # the copied plan is found across the folders' files too


def test_the_same_computer_is_strong_and_the_mac_is_read_in_either_form(result: CheckResult) -> None:
    pair = _pair(result, "中联路桥", "宏远建工")
    fields = {s.field: s for s in pair.signals if s.kind == "machine"}
    assert (
        set(fields) == {"cpu_mac_disk"} and pair.level == "high"
    )  # the stale record's dongle is not counted
    assert "AA-BB-CC-00-11-22" in fields["cpu_mac_disk"].value


def test_the_tenders_record_in_every_bill_ties_no_pair(result: CheckResult) -> None:
    tied = [{"华东建设", "恒信市政"}, {"中联路桥", "宏远建工"}]
    names = {d.id: d.name for d in result.documents}
    for pair in result.pairs:
        machine = [s for s in pair.signals if s.kind == "machine"]
        assert bool(machine) == ({names[pair.a], names[pair.b]} in tied), (names[pair.a], names[pair.b])
    assert all("TENDER" not in v.value for v in result.public_values)


def test_a_whitelisted_dongle_is_no_sign(section: Path) -> None:
    result = _check(section, machine_whitelist="88012345，DISK-X")
    pair = _pair(result, "华东建设", "恒信市政")
    assert not [s for s in pair.signals if s.kind == "machine"]
    assert [s.field for s in _pair(result, "中联路桥", "宏远建工").signals if s.kind == "machine"] == [
        "cpu_mac_disk"
    ]


def test_a_broken_file_in_a_folder_leaves_a_note_and_the_rest_is_compared(
    section: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "bids"
    shutil.copytree(section / "bids", copy)
    (copy / "华东建设" / "造价.xml").write_bytes(b"\x00\xff garbage")
    (copy / "恒信市政" / "附件.docx").write_bytes(b"PK\x03\x04 not a zip")
    result = check(CheckInputs((copy,)), Settings(workers=2))
    first = next(d for d in result.bids if d.name == "恒信市政")
    assert first.ok and any("附件.docx" in n for n in first.notes)
    assert _pair(result, "华东建设", "恒信市政").level == "high"  # the copied plan still ties them


def test_wps_and_word_identities_tie_two_bids_but_not_the_tenders(tmp_path: Path) -> None:
    hdid, doc_id = "4cfe25645f346482924f702e4d9c120e", "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    tender = with_office_identity(make_docx(tmp_path / "招标文件.docx", [paragraphs(1, 4)]), doc_id=doc_id)
    a = with_office_identity(make_docx(tmp_path / "a.docx", [paragraphs(10, 6)]), hdid=hdid, doc_id=doc_id)
    b = with_office_identity(make_docx(tmp_path / "b.docx", [paragraphs(20, 6)]), hdid=hdid, user="439701367")
    c = with_office_identity(
        make_docx(tmp_path / "c.docx", [paragraphs(30, 6)]), user="439701367", doc_id=doc_id
    )
    d = make_docx(tmp_path / "d.docx", [paragraphs(40, 6)])
    result = check(CheckInputs((a, b, c, d), (tender,)), Settings(workers=2))
    machine = {
        frozenset((p.a, p.b)): sorted(s.field for s in p.signals if s.kind == "machine") for p in result.pairs
    }
    ids = {x.name: x.id for x in result.bids}
    assert machine[frozenset((ids["a.docx"], ids["b.docx"]))] == ["wps_hdid"]
    assert machine[frozenset((ids["b.docx"], ids["c.docx"]))] == ["wps_user"]
    assert machine[frozenset((ids["a.docx"], ids["c.docx"]))] == []  # the docId both took from the tender
    assert sum(bool(v) for v in machine.values()) == 2


def test_a_pdf_edited_from_anothers_is_strong_an_unchanged_copy_supporting(tmp_path: Path) -> None:
    made = [
        make_pdf(tmp_path / f"{n}.pdf", [paragraphs(50 + n, 6)], created=f"D:2025052014{n:02d}07")
        for n in range(6)
    ]
    set_pdf_id(made[0], "A1" * 16, "B1" * 16)
    set_pdf_id(made[1], "A1" * 16, "C1" * 16)  # saved again from 0's file
    set_pdf_id(made[2], "A1" * 16, "B1" * 16)  # 0's file as it was (a document handed to both)
    for n in range(3, 6):  # three bids made apart: six in all, so that three holding one id are few
        set_pdf_id(made[n], f"D{n}" * 16, f"D{n}" * 16)
    assert [m.field for m in read_document(made[1], "x").marks] == ["pdf_id", "pdf_version"]
    pdf_tender = make_pdf(tmp_path / "招标文件.pdf", [paragraphs(1, 4)], created="D:20250501090000")
    word_tender = make_docx(tmp_path / "招标文件.docx", [paragraphs(1, 4)])
    for tenders, edited in (((pdf_tender,), "strong"), ((word_tender,), "supporting"), ((), "supporting")):
        result = check(CheckInputs(tuple(made), tenders), Settings(workers=2))
        ids = {x.name: x.id for x in result.bids}
        strength = {
            frozenset((p.a, p.b)): [s.strength for s in p.signals if s.field == "pdf_id"]
            for p in result.pairs
        }
        assert strength[frozenset((ids["0.pdf"], ids["1.pdf"]))] == [edited]
        assert strength[frozenset((ids["0.pdf"], ids["2.pdf"]))] == ["supporting"]
        assert not any(strength[frozenset((ids["3.pdf"], ids[f"{n}.pdf"]))] for n in range(3))


def test_the_self_check_tells_a_bidder_of_a_second_dongle_in_its_bill(section: Path, tmp_path: Path) -> None:
    from bidcheck.selfcheck import SelfCheckInputs, self_check

    bid = tmp_path / "宏远建工"
    shutil.copytree(section / "bids" / "宏远建工", bid)
    tender = section / "tender"
    tenders = (tender / "招标文件.docx", tender / "招标控制价.xml")
    clean = self_check(SelfCheckInputs(bid, tenders=tenders), Settings(workers=2))
    assert clean.bid.name == "宏远建工" and not [f for f in clean.findings if f.field == "dongle"]
    borrowed = {"time": "2025-03-23 09:00:00", "dongle": "8801-2345"}  # saved again on 华东's PC
    make_pricing_xml(bid / "造价.xml", [TENDER_RECORD, OWN_RECORDS["宏远建工"], borrowed], bill_items(5, 7))
    result = self_check(SelfCheckInputs(bid, tenders=tenders), Settings(workers=2))
    dongles = [f for f in result.findings if f.field == "dongle"]
    assert len(dongles) == 1 and dongles[0].value == "6603-0002、8801-2345"
    assert "TENDER" not in dongles[0].detail and "2025-03-23 09:00" in dongles[0].detail


def test_paragraph_ids_of_one_file_in_two_bidders_bids_are_strong(tmp_path: Path) -> None:
    from bench.writers import add_para_ids

    tender_ids = ["1A2B3C01", "1A2B3C02", "1A2B3C03"]  # the tender's format file, filled in by two bidders
    a_ids = ["2B3C4D01", "2B3C4D02", "2B3C4D03", "2B3C4D04"]
    tender = add_para_ids(make_docx(tmp_path / "招标文件.docx", [paragraphs(1, 4)]), tender_ids)
    bids = [make_docx(tmp_path / f"{n}.docx", [paragraphs(10 * n, 8)]) for n in range(1, 5)]
    add_para_ids(bids[0], a_ids)
    add_para_ids(bids[1], [*a_ids[:3], "5E6F7A01"])  # saved from a's file, then rewritten
    add_para_ids(bids[2], [*tender_ids, "6F7A8B01"])
    add_para_ids(bids[3], [*tender_ids, "7A8B9C01"])
    read = read_document(bids[1], "x")
    assert dict(read.para_ids)["2B3C4D01"] and len(read.para_ids) == 4
    result = check(CheckInputs(tuple(bids), (tender,)), Settings(workers=2))
    ids = {x.name: x.id for x in result.bids}
    found = {
        frozenset((p.a, p.b)): [(s.value, s.strength) for s in p.signals if s.field == "para_id"]
        for p in result.pairs
    }
    assert found[frozenset((ids["1.docx"], ids["2.docx"]))] == [("2B3C4D01 2B3C4D02 2B3C4D03", "strong")]
    assert sum(bool(v) for v in found.values()) == 1  # the tender's ids, in two bids, tie none


def test_one_or_two_paragraph_ids_alike_are_chance(tmp_path: Path) -> None:
    from bench.writers import add_para_ids

    bids = [make_docx(tmp_path / f"{n}.docx", [paragraphs(10 * n, 8)]) for n in range(1, 4)]
    add_para_ids(bids[0], ["2B3C4D01", "2B3C4D02", "11111111"])
    add_para_ids(bids[1], ["2B3C4D01", "2B3C4D02", "22222222"])
    result = check(CheckInputs(tuple(bids)), Settings(workers=2))
    assert not [s for p in result.pairs for s in p.signals if s.field == "para_id"]


def test_without_the_control_xml_one_record_in_two_bills_is_a_lead(tmp_path: Path) -> None:
    """Two bills holding one record (the same dongle at the same time) may both have imported it from
    the 招标控制价 file nobody gave; the same dongle saved at two times is strong all the same."""
    record = {"time": "2025-03-01 09:00:00", "dongle": "ZB-7788"}
    later = {"dongle": "8801-2345"}  # one dongle, saved on two days
    bids = []
    for n in range(6):
        folder = tmp_path / f"0{n}-投标人{n}"
        folder.mkdir()
        make_docx(folder / "投标文件.docx", [paragraphs(20 * n + 1, 6)])
        records = [record] if n < 2 else [{"time": f"2025-03-1{n} 10:00:00", "dongle": f"OWN-{n}"}]
        records += [{**later, "time": f"2025-03-2{n} 15:00:00"}] if n in (2, 3) else []
        make_pricing_xml(folder / "造价.xml", records, bill_items(5, n))
        bids.append(folder)
    result = check(CheckInputs((), bidders=tuple(bids)), Settings(workers=2))
    dongles = {
        s.value: (s.strength, s.detail) for p in result.pairs for s in p.signals if s.field == "dongle"
    }
    assert dongles["ZB-7788"][0] == "supporting" and "未提供招标控制价 XML" in dongles["ZB-7788"][1]
    assert dongles["8801-2345"][0] == "strong"


def test_a_tenders_folder_is_no_bidder_and_bidders_folders_given_alone_are_bidders(tmp_path: Path) -> None:
    from bidcheck.ingest import collect_sources

    section = tmp_path / "标段"
    for name in ("甲公司", "乙公司"):
        (section / name).mkdir(parents=True)
        for n, part in enumerate(("商务标", "技术标")):
            make_docx(
                section / name / f"{part}.docx", [paragraphs(len(name) * 10 + n + ord(name[0]) % 50, 5)]
            )
    (section / "招标文件").mkdir()
    tender = make_docx(section / "招标文件" / "招标文件.docx", [paragraphs(1, 4)])
    result = check(CheckInputs((section,), (tender,)), Settings(workers=2))
    assert sorted(d.name for d in result.bids) == ["乙公司", "甲公司"]
    assert [d.name for d in result.documents if d.role == "tender"] == ["招标文件.docx"]
    given = collect_sources([section / "甲公司", section / "乙公司"])  # dropped in one by one
    assert given == [section / "甲公司", section / "乙公司"]
    assert collect_sources([section / "甲公司"]) == sorted(
        (section / "甲公司").glob("*.docx")
    )  # a folder of bids


def test_a_document_variable_that_is_an_id_is_a_lead_and_a_short_one_nothing(tmp_path: Path) -> None:
    tender = make_docx(tmp_path / "招标文件.docx", [paragraphs(1, 4)])
    stamp = {"BidToolFileId": "9f2c4e1ab7d04c5e8a61f03b2d7c9e45", "Lang": "zh-CN"}
    bids = [make_docx(tmp_path / f"{n}.docx", [paragraphs(10 * n, 6)]) for n in range(1, 5)]
    with_office_identity(bids[0], doc_vars=stamp)
    with_office_identity(bids[1], doc_vars=stamp)
    with_office_identity(bids[2], doc_vars={"Lang": "zh-CN"})
    result = check(CheckInputs(tuple(bids), (tender,)), Settings(workers=2))
    found = [(s.value, s.strength) for p in result.pairs for s in p.signals if s.field == "doc_var"]
    assert found == [("BidToolFileId=9f2c4e1ab7d04c5e8a61f03b2d7c9e45", "supporting")]


def test_the_same_file_in_two_bidders_folders_is_said_to_be_one_file(tmp_path: Path) -> None:
    tender = make_docx(tmp_path / "招标文件.docx", [paragraphs(1, 4)])
    for name in ("甲公司", "乙公司", "丙公司"):
        (tmp_path / "bids" / name).mkdir(parents=True)
    own = make_docx(tmp_path / "bids" / "甲公司" / "投标文件.docx", [paragraphs(70, 6)])
    shutil.copy(own, tmp_path / "bids" / "乙公司" / "投标文件.docx")  # handed in twice
    make_docx(tmp_path / "bids" / "丙公司" / "投标文件.docx", [paragraphs(71, 6)])
    result = check(CheckInputs((tmp_path / "bids",), (tender,)), Settings(workers=2))
    pair = _pair(result, "甲公司", "乙公司")
    same = [s for s in pair.signals if s.kind == "identical"]
    assert [s.strength for s in same] == ["strong"] and "逐字节完全相同" in same[0].detail
    assert not [s for p in result.pairs for s in p.signals if s.kind == "identical" and p is not pair]


def test_names_in_gbk_bytes_read_as_their_owner_wrote_them(tmp_path: Path) -> None:
    """An archive from a Chinese Windows unpacked here: file and folder names in GBK bytes."""
    import os

    root = os.fsencode(tmp_path / "bids")
    os.mkdir(root)
    os.mkdir(os.path.join(root, "乙公司".encode("gbk")))
    for raw, seed in (
        ("02-甲公司.docx".encode("gbk"), 81),
        (os.path.join("乙公司".encode("gbk"), "技术标.docx".encode("gbk")), 82),
    ):
        make_docx(Path(os.fsdecode(os.path.join(root, raw))), [paragraphs(seed, 5)])
    make_docx(tmp_path / "bids" / "03-丙公司.docx", [paragraphs(83, 5)])
    result = check(CheckInputs((tmp_path / "bids",)), Settings(workers=1))
    names = sorted(d.name for d in result.bids)
    assert names == ["02-甲公司.docx", "03-丙公司.docx", "乙公司"], names
    folder = next(d for d in result.bids if d.name == "乙公司")
    assert [p.name for p in folder.parts] == ["技术标.docx"]


def test_a_bidders_zip_is_read_as_its_folder(tmp_path: Path) -> None:
    """A bidder's files zipped on a Chinese Windows (names in GBK, no UTF-8 flag): one bid named by the
    zip, its files read together; an entry whose name climbs out of the zip is never written out."""
    import zipfile

    draft = paragraphs(90, 5)
    make_docx(tmp_path / "商务标.docx", [paragraphs(91, 5)])
    make_docx(tmp_path / "技术标.docx", [paragraphs(92, 4) + draft])
    section = tmp_path / "标段"
    section.mkdir()

    class GbkName(zipfile.ZipInfo):  # an entry named as a Chinese Windows names it: GBK bytes, no flag
        def _encodeFilenameFlags(self) -> tuple[bytes, int]:
            return self.filename.encode("gbk"), self.flag_bits

    with zipfile.ZipFile(section / "02-乙公司.zip", "w") as archive:
        for name in ("商务标.docx", "技术标.docx"):
            archive.writestr(GbkName(name), (tmp_path / name).read_bytes())
        archive.writestr("../../逃逸.docx", (tmp_path / "商务标.docx").read_bytes())
    make_docx(section / "01-甲公司.docx", [paragraphs(93, 4) + draft])  # shares the draft
    make_docx(section / "03-丙公司.docx", [paragraphs(94, 6)])
    result = check(CheckInputs((section,)), Settings(workers=1))
    zipped = next(d for d in result.bids if d.name == "02-乙公司.zip")
    assert zipped.ok and zipped.format == "zip"
    assert [p.name for p in zipped.parts] == ["商务标.docx", "技术标.docx"]
    assert _pair(result, "01-甲公司.docx", "02-乙公司.zip").level == "high"
    assert not (tmp_path.parent / "逃逸.docx").exists() and not (tmp_path / "逃逸.docx").exists()
