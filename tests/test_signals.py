"""Signals beyond shared wording: document properties (the seam: finders, verdict, JSON)."""

from __future__ import annotations

import json
import random
import re
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from docx import Document as new_docx
from openpyxl import load_workbook

from bench.grammar import paragraph as grammar_paragraph
from bench.writers import add_rsids
from bidcheck import overlaps
from bidcheck.compare.score import Score
from bidcheck.config import Settings
from bidcheck.fingerprint.oddwords import odd_words
from bidcheck.fingerprint.tokens import cut
from bidcheck.ingest import read_document
from bidcheck.judge import verdict
from bidcheck.model import Block, CheckResult, Document, Signal, result_from_dict, result_to_dict
from bidcheck.pipeline import CheckInputs, check
from bidcheck.report.json import result_json
from bidcheck.report.xlsx import write_xlsx
from bidcheck.signals.base import held_by_few, longest_first, most_holders, weighed
from bidcheck.signals.bidders import core_name
from bidcheck.signals.identifier import credit_code_ok, id_number_ok
from bidcheck.signals.metadata import minute_of
from bidcheck.signals.shared_error import (
    _all_contexts,
    _contexts,
    _same_context,
    right_form,
)
from bidcheck.text import normalize
from bidcheck.text.pinyin import reading_table, readings, toneless
from bidcheck.workers import Ahead, can_fork
from tests.builders import make_pdf, paragraphs

_BIDDERS = (
    "恒信市政",
    "华东建设",
    "中联路桥",
    "宏远建工",
    "东方路桥",
    "临江水利",
    "百川园林",
    "正泰安装",
    "远大交通",
    "明珠装饰",
)


def _docx(path: Path, texts: list[str], **props: object) -> Path:
    """A .docx with these paragraphs and core properties (``created``: an ISO time)."""
    document = new_docx()
    for text in texts:
        document.add_paragraph(text)
    core = document.core_properties
    core.author = ""
    for key, value in props.items():
        setattr(core, key, datetime.fromisoformat(str(value)) if key in ("created", "modified") else value)
    document.save(str(path))
    return path


def test_minute_of_reads_office_and_pdf_times_and_ignores_what_does_not_parse() -> None:
    assert minute_of("2024-06-10T09:12:41Z") == "2024-06-10 09:12"
    assert minute_of("D:20240610091241+08'00'") == "2024-06-10 09:12"
    assert minute_of("yesterday") is None
    assert minute_of("D:2024") is None
    assert minute_of("2013-12-23T23:15:00Z") is None  # python-docx's template
    assert minute_of("2024-06-01T00:00:00Z") is None  # a date a tool set, not a save
    assert minute_of("1995-03-02T09:12:41Z") == "1995-03-02 09:12"  # the first year a bid's file may date
    assert minute_of("1994-12-31T09:12:41Z") is None  # before it: a clock never set


def test_values_most_bids_hold_or_the_tender_holds_are_no_sign() -> None:
    settings = Settings()
    held = held_by_few([{"x", "t"}, {"x", "t", "m"}, {"m", "t"}, {"m"}, {"t"}], {"t"}, settings)
    assert held.few == {"x": [0, 1]}  # "t": the tender's
    assert held.many == {"m": 3}  # 3 of 5 (60%): the section's
    assert held_by_few([{"x"}, {"x"}, set()], set(), settings).few == {"x": [0, 1]}  # 2 of 3 is still a pair


def test_a_value_more_than_a_few_bids_hold_is_the_sections_whatever_the_share() -> None:
    """Rings are a few bidders: in 100 bids a value 5 hold (5%) is public, 4 a supporting sign at most,
    3 (a 陪标 ring of three) as strong as 2."""
    settings = Settings()
    values = [
        {"five"} if n < 5 else {"four"} if n < 9 else {"three"} if n < 12 else set() for n in range(100)
    ]
    held = held_by_few(values, set(), settings)
    assert held.few == {"four": [5, 6, 7, 8], "three": [9, 10, 11]}
    assert held.many == {"five": 5}
    assert most_holders(100, settings) == 4
    assert most_holders(100, settings.with_changes(signal_max_holders=5)) == 5
    assert most_holders(5, settings) == 2  # 3 of 5 is 60%: the common share rules small sections
    phone = Signal("identifier", "strong", "phone", "13912345678", "两份文件出现相同的电话号码")
    assert weighed(phone) == phone
    assert weighed(replace(phone, holders=3)).strength == "strong"
    four = weighed(replace(phone, holders=4))
    assert four.strength == "supporting"
    assert "此值 4 份投标文件共有" in four.detail


def test_a_strong_signal_alone_makes_high_and_a_supporting_one_watch() -> None:
    quiet = Score(0.0, 0.0, 0.0, 0, 0, 0)
    strong = Signal("metadata", "strong", "author", "刘建国", "两份文件的作者均为“刘建国”")
    editor = Signal("metadata", "strong", "last_modified_by", "刘建国", "…")
    saved = Signal("metadata", "supporting", "modified", "2024-06-10 09:12", "…")
    level, reason = verdict(quiet, None, {}, Settings(), signals=(strong, editor))
    assert level == "high"
    assert reason.startswith("一级预警：不同投标人的文件由同一人编辑（作者、最后修改者相同）")
    assert verdict(quiet, None, {}, Settings(), signals=(strong,))[0] == "high"  # one alone
    assert verdict(quiet, None, {}, Settings(), signals=(saved,))[0] == "watch"
    assert (
        verdict(quiet, None, {}, Settings(), signals=(saved, saved))[0] == "watch"
    )  # supporting ones add up to no more
    assert verdict(quiet, None, {}, Settings())[0] == "none"


@pytest.fixture(scope="module")
def property_section(tmp_path_factory: pytest.TempPathFactory) -> CheckResult:
    """Five bids of their own wording: 01 and 02 written by one 刘建国 in the same minute; every bid
    saved by Administrator; the tender's author in every bid; 05 a PDF by the same unusual programs
    as nothing else."""
    root = tmp_path_factory.mktemp("props")
    common = {"last_modified_by": "Administrator", "company": "某某招标代理公司"}
    tender = _docx(root / "tender.docx", paragraphs(900, 4), author="招标代理", **common)
    for n in range(1, 5):
        props = dict(common, author="刘建国" if n <= 2 else f"员工{n}")
        if n <= 2:
            props["created"] = f"2024-06-10T09:12:{10 + n}"
        else:
            props["created"] = f"2024-06-1{n}T10:00:05"
        _docx(root / f"0{n}-投标人{n}.docx", paragraphs(910 + n, 8), **props)
    make_pdf(root / "05-投标人5.pdf", [paragraphs(950, 8)], author="Administrator")
    return check(
        CheckInputs(
            (
                root / "01-投标人1.docx",
                *sorted(root.glob("0[2-5]*")),
            ),
            (tender,),
        ),
        Settings(workers=1),
    )


def test_shared_author_and_creation_minute_make_the_pair_high(property_section: CheckResult) -> None:
    pairs = {(p.a, p.b): p for p in property_section.pairs}
    pair = pairs[("d1", "d2")]
    assert pair.level == "high"
    assert "由同一人编辑（作者相同）" in pair.reason
    fields = {(s.kind, s.field, s.value, s.strength) for s in pair.signals}
    assert fields == {
        ("metadata", "author", "刘建国", "strong"),
        ("metadata", "created", "2024-06-10 09:12", "strong"),
    }
    assert all(s.a is None and s.b is None for s in pair.signals)
    details = sorted(s.detail for s in pair.signals)  # one sentence a field, the times to the second
    assert details == [
        "两份文件的作者均为“刘建国”",
        "两份文件的创建时间同为 2024-06-10 09:12（同一分钟：09:12:11 与 09:12:12）",
    ]
    quiet = [p for key, p in pairs.items() if key != ("d1", "d2")]
    assert all(not p.signals and p.level == "none" for p in quiet), [(p.a, p.b, p.reason) for p in quiet]


def test_signals_are_in_the_json_and_come_back(property_section: CheckResult) -> None:
    data = json.loads(result_json(property_section))
    assert all("signals" in p for p in data["pairs"])
    assert sum(1 for p in data["pairs"] if p["signals"] == []) == len(data["pairs"]) - 1
    again = result_from_dict(data)
    assert again.pairs == property_section.pairs


def test_xmp_document_ids_are_read_and_broken_xmp_is_ignored(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "x.pdf", [paragraphs(3, 2)])
    data = path.read_bytes()
    xmp = (
        b"% <x:xmpmeta><xmpMM:DocumentID>uuid:1b2c3d4e-aaaa</xmpMM:DocumentID>"
        b' xmpMM:OriginalDocumentID="xmp.did:77ff"\n'
    )
    path.write_bytes(data + xmp + b"% xmpMM:DocumentID>\n")
    meta = read_document(path, "d1").metadata
    assert meta["xmp_document_id"] == "uuid:1b2c3d4e-aaaa"
    assert meta["xmp_original_document_id"] == "xmp.did:77ff"


def test_a_docx_without_app_properties_is_read(tmp_path: Path) -> None:
    import zipfile

    path = _docx(tmp_path / "a.docx", paragraphs(4, 2), author="张三")
    bare = tmp_path / "bare.docx"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(bare, "w") as dst:
        for item in src.infolist():
            if item.filename != "docProps/app.xml":
                dst.writestr(item, src.read(item.filename))
    doc = read_document(bare, "d1")
    assert doc.ok and doc.metadata["author"] == "张三"


def test_signals_can_be_switched_off(property_section: CheckResult, tmp_path: Path) -> None:
    paths = [Path(d.path) for d in property_section.documents if d.role == "bid"]
    result = check(CheckInputs(tuple(paths)), Settings(workers=1, signals_enabled=False))
    assert all(not p.signals and p.level == "none" for p in result.pairs)


def test_check_characters_of_id_numbers_and_credit_codes() -> None:
    assert id_number_ok("11010519491231002X")
    assert not id_number_ok("110105194912310021")  # one wrong check character
    assert not id_number_ok("1101051949123100")  # too short
    assert credit_code_ok("91350100M000100Y43")
    assert not credit_code_ok("91350100M000100Y44")
    chars = "0123456789ABCDEFGHJKLMNPQRTUWXY"  # GB 32100: the code's 31 characters, weights 3^i mod 31
    checks = set()
    for base in ("91350100M000100Y4", "91110000600037341", "92440300MA5DXXXX1", "12100000400012345"):
        total = sum(chars.index(c) * pow(3, i, 31) for i, c in enumerate(base))
        right = chars[(31 - total % 31) % 31]
        checks.add(right)
        assert credit_code_ok(base + right), base + right
        assert not any(credit_code_ok(base + c) for c in chars if c != right)
    assert len(checks) >= 3  # the rule tried with several check characters, not one
    assert not credit_code_ok("91350100I000100Y43")  # I is not among the code's characters


def test_core_names_leave_out_place_legal_form_and_generic_words() -> None:
    assert core_name("江苏省恒信市政工程有限公司") == "恒信市政"
    assert core_name("浙江省杭州市华东建设集团有限公司") == "华东建设"
    assert core_name("恒信市政有限公司") == "恒信市政"
    assert core_name("甲公司") == ""  # too short to be looked for


def test_the_names_expression_finds_what_their_alternation_longest_first_finds() -> None:
    names = ["恒信市政", "恒信市政工程有限公司", "恒信建设", "华东建设", "华东建设集团", "中联路桥", "恒信"]
    text = "恒信市政工程有限公司与恒信市政工程部、恒信建设集团、华东建设集团有限公司、华东建设和中联路恒信"
    plain = re.compile("|".join(re.escape(n) for n in sorted(names, key=lambda n: (-len(n), n))))
    tree = re.compile(longest_first(names))
    found = [(m.span(), m.group()) for m in tree.finditer(text)]
    assert found == [(m.span(), m.group()) for m in plain.finditer(text)]
    assert [g for _, g in found] == [
        "恒信市政工程有限公司",
        "恒信市政",
        "恒信建设",
        "华东建设集团",
        "华东建设",
        "恒信",
    ]


AGENCY = "招标代理机构联系电话：0571-88886666，邮箱：bid@agency.cn。"


@pytest.mark.parametrize("pairs", [1, 2])
def test_a_staff_name_two_bids_share_is_chance_where_several_pairs_share_one(
    tmp_path: Path, pairs: int
) -> None:
    """Ten bids; ``pairs`` unrelated pairs each name one project manager alike (张伟, 王芳: names a
    million people hold), and 09 and 10 share a 技术负责人 with his certificate. Two names each shared by
    two bids: each is a supporting sign. Three: a name two bids share is what chance gives in this
    section, and none is a sign; the certificate 09 and 10 share still is, and strong."""
    names = ["张伟", "王芳"][:pairs]
    bids = []
    for n in range(1, 11):
        lines = [f"投标人：{_BIDDERS[n - 1]}有限公司（盖单位章）"]
        manager = names[(n - 1) // 2] if (n - 1) // 2 < len(names) else ""
        lines += [f"项目经理：{manager}，全面负责本工程。"] if manager else []
        lines += ["技术负责人：周建明，注册编号：苏1322010345678。"] if n in (9, 10) else []
        bids.append(_docx(tmp_path / f"{n:02d}-bid.docx", [*paragraphs(840 + n, 6), *lines]))
    result = check(CheckInputs(tuple(bids)), Settings(workers=1))
    found = {(p.a, p.b): sorted(s.value for s in p.signals if s.kind == "identifier") for p in result.pairs}
    certificate = "苏1322010345678"
    assert found.pop(("d9", "d10")) == (["周建明", certificate] if pairs == 1 else [certificate])
    shared = {pair: values for pair, values in found.items() if values}
    assert shared == ({("d1", "d2"): ["张伟"]} if pairs == 1 else {})


@pytest.fixture(scope="module")
def named_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four bids: 02 names 01's bidder and gives 01's mobile; 03 and 04 give one credit code and bank
    account; all four copy the agency's phone and e-mail from the tender."""
    root = tmp_path_factory.mktemp("named")
    _docx(root / "tender.docx", [*paragraphs(800, 3), "投标人：（盖单位章）", AGENCY])
    extras = {
        1: ["投标人：恒信市政有限公司（盖单位章）", "项目经理：张大山，联系电话 13912345678。"],
        2: [
            "投标人：华东建设有限公司（盖单位章）",
            "本工程施工组织由恒信市政统一安排。",
            "联系人手机：139 1234 5678；13912345678",
        ],
        3: [
            "投标人：中联路桥有限公司（盖单位章）",
            "统一社会信用代码：91350100M000100Y43",
            "开户行：某银行临江支行 账号：6222 0000 1111 2222 333",
        ],
        4: [
            "投标人：宏远建工有限公司（盖单位章）",
            "统一社会信用代码：91350100M000100Y43",
            "基本账户 账号：6222000011112222333",
        ],
    }
    for n, lines in extras.items():
        own = paragraphs(820 + n, 6)
        _docx(root / f"0{n}-bid.docx", [lines[0], *own[:3], *lines[1:], AGENCY, *own[3:]])
    return root


def _named_inputs(root: Path) -> CheckInputs:
    return CheckInputs(tuple(sorted(root.glob("0*"))), (root / "tender.docx",))


@pytest.fixture(scope="module")
def named_section(named_root: Path) -> CheckResult:
    return check(_named_inputs(named_root), Settings(workers=1))


@pytest.mark.skipif(not can_fork(), reason="processes are forked on Linux only")
def test_signals_found_ahead_in_a_forked_process_are_the_checks_own(
    named_root: Path, named_section: CheckResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Begun in a forked process beside the candidates (a section of 20 bids or more; here of 4), the
    signals, and so the whole result, are those found in the checking process."""
    begun: list[Ahead[object]] = []

    class Counted(Ahead[object]):
        def __init__(self, fn: Callable[[], object]) -> None:
            super().__init__(fn)
            begun.append(self)

    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(tmp_path))  # no stage remembered by an earlier check
    monkeypatch.setattr(overlaps, "SIGNALS_AHEAD_MIN_BIDS", 4)
    monkeypatch.setattr(overlaps, "Ahead", Counted)
    ahead = check(_named_inputs(named_root), Settings(workers=1))
    assert len(begun) == 1 and not begun[0]._process.is_alive()
    assert sum(len(p.signals) for p in ahead.pairs) == 4
    assert _stable(ahead) == _stable(named_section)


def test_an_overlap_switched_off_is_not_begun_and_changes_nothing(
    named_root: Path, named_section: CheckResult, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``BIDCHECK_OVERLAPS_OFF=signals``: no forked process finds the signals ahead, and the result is
    the same; the overlaps not named stay on."""
    begun: list[object] = []
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("BIDCHECK_OVERLAPS_OFF", "signals, encoder")
    monkeypatch.setattr(overlaps, "SIGNALS_AHEAD_MIN_BIDS", 4)
    monkeypatch.setattr(overlaps, "Ahead", lambda fn: begun.append(fn))
    assert [overlaps.enabled(name) for name in overlaps.OVERLAPS] == [False, True, False, True]
    alone = check(_named_inputs(named_root), Settings(workers=1))
    assert begun == [] and _stable(alone) == _stable(named_section)


def _stable(result: CheckResult) -> str:
    data = result_to_dict(result)
    data["elapsed_s"], data["timings"] = 0, {}
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def test_a_bidder_named_in_another_bid_and_a_shared_mobile_are_strong(named_section: CheckResult) -> None:
    pairs = {(p.a, p.b): p for p in named_section.pairs}
    pair = pairs[("d1", "d2")]
    kinds = {(s.kind, s.field, s.value) for s in pair.signals}
    assert kinds == {("cross_name", "bidder", "恒信市政有限公司"), ("identifier", "phone", "13912345678")}
    assert pair.level == "high" and "混装" in pair.reason
    named = next(s for s in pair.signals if s.kind == "cross_name")
    assert named.a is not None and "恒信市政统一安排" in named.a.text  # where 02 names it ...
    assert named.b is not None and "恒信市政有限公司" in named.b.text  # ... and 01's own form


def test_a_shared_credit_code_and_account_are_found_and_the_tenders_contacts_are_not(
    named_section: CheckResult,
) -> None:
    pairs = {(p.a, p.b): p for p in named_section.pairs}
    fields = {s.field: s.value for s in pairs[("d3", "d4")].signals}
    assert fields == {"credit_code": "91350100M000100Y43", "bank_account": "6222000011112222333"}
    assert pairs[("d3", "d4")].level == "high"
    for key in (("d1", "d3"), ("d1", "d4"), ("d2", "d3"), ("d2", "d4")):
        assert not pairs[key].signals and pairs[key].level == "none", key


def test_the_workbook_lists_each_signal_and_the_pairs_signs(
    named_section: CheckResult, tmp_path: Path
) -> None:
    path = tmp_path / "report.xlsx"
    write_xlsx(named_section, path)
    book = load_workbook(path)
    rows = list(book["串标迹象"].iter_rows(min_row=2, values_only=True))
    assert len(rows) == sum(len(p.signals) for p in named_section.pairs) == 4
    phone = next(r for r in rows if r[5] == "电话号码")
    assert phone[:2] == ("01-bid.docx", "02-bid.docx") and phone[6] == "13912345678"
    assert str(phone[8]).startswith("第 ") and "13912345678" in str(phone[9])
    ranked = {(r[1], r[2]): r[12] for r in book["文件对排名"].iter_rows(min_row=2, values_only=True)}
    assert ranked[("03-bid.docx", "04-bid.docx")] == "相同标识：银行账号、统一社会信用代码"
    assert ranked[("01-bid.docx", "03-bid.docx")] in ("", None)


def test_identifiers_broken_by_a_pdf_line_are_whole_and_an_id_number_is_no_certificate() -> None:
    from bidcheck.signals.identifier import _Squeezed, _values
    from bidcheck.text import build_clean_text

    text = "邮箱：zb@ljzx.c n，手机 139 1234 5678，身份证号：11010519491231002X。"
    clean = build_clean_text(Document("d1", "x.pdf", "x.pdf", "pdf", blocks=(Block(text),)))
    squeezed = _Squeezed.of(clean.text)
    email = _values(clean, "email", squeezed)
    assert list(email) == ["zb@ljzx.cn"]
    start, end = email["zb@ljzx.cn"]
    assert clean.text[start:end] == "zb@ljzx.c n"
    assert list(_values(clean, "phone", squeezed)) == ["13912345678"]
    assert list(_values(clean, "id_number", squeezed)) == ["11010519491231002X"]
    assert not _values(clean, "certificate", squeezed)


def _with_rsids(path: Path, rsids: list[str]) -> Path:
    """The .docx with these editing-session ids (plus the blank template's own, which every python-docx
    file holds), its first paragraph made in the last session."""
    return add_rsids(path, rsids, mark_first_paragraph=True)


def test_editing_sessions_shared_beyond_the_tender_are_a_sign(tmp_path: Path) -> None:
    tender = _with_rsids(_docx(tmp_path / "tender.docx", paragraphs(700, 3)), ["1A2B3C4D"])
    bids = [
        _with_rsids(
            _docx(
                tmp_path / f"0{n}-bid.docx", [f"投标人：{name}有限公司（盖单位章）", *paragraphs(710 + n, 5)]
            ),
            ids,
        )
        for n, name, ids in (
            (1, "恒信市政", ["1A2B3C4D", "00AB12CD", "00EF3456", "0077AA88"]),
            (2, "华东建设", ["1A2B3C4D", "00AB12CD", "00EF3456", "00C0FFEE", "0077AA88"]),
            (3, "中联路桥", ["1A2B3C4D", "00DDEE11"]),
        )
    ]
    rsids = read_document(bids[0], "d1").rsids
    assert rsids == tuple(sorted(rsids)) and {"00AB12CD", "00B47730"} <= set(rsids)  # ours and the template's
    result = check(CheckInputs(tuple(bids), (tender,)), Settings(workers=1))
    pairs = {(p.a, p.b): p for p in result.pairs}
    (signal,) = pairs[("d1", "d2")].signals
    assert (signal.kind, signal.strength, signal.value) == (
        "edit_session",
        "strong",
        "0077AA88 00AB12CD 00EF3456",
    )
    assert "3 个" in signal.detail and pairs[("d1", "d2")].level == "high"
    assert signal.a is not None and signal.a.text.startswith("投标人：恒信市政")
    assert signal.b is not None and signal.b.text.startswith("投标人：华东建设")
    assert "第 1 页 / 第 1 页的段落带有同一标识" in signal.detail
    assert not pairs[("d1", "d3")].signals and not pairs[("d2", "d3")].signals
    fewer = check(CheckInputs(tuple(bids), (tender,)), Settings(workers=1, edit_session_min_rsids=4))
    assert next(p for p in fewer.pairs if (p.a, p.b) == ("d1", "d2")).level == "watch"


def test_rare_errors_two_bids_alone_share_are_a_sign(tmp_path: Path) -> None:
    tender = _docx(tmp_path / "tender.docx", [*paragraphs(600, 3), "基础采用C30混泥土浇筑。"])
    lines = {
        1: ["投标人：恒信市政有限公司（盖单位章）", "垫层采用钢筯混凝土，水泥砂桨抹面，混泥土养户七天。"],
        2: ["投标人：华东建设有限公司（盖单位章）", "底板钢筯绑扎后，用水泥砂桨找平，混泥土浇筑。"],
        3: ["投标人：中联路桥有限公司（盖单位章）", "模版支撑体系经验算，混泥土分层振倒。"],
        4: ["投标人：宏远建工有限公司（盖单位章）", "模版支撑体系稳固。"],
    }
    bids = [_docx(tmp_path / f"0{n}-bid.docx", [*text, *paragraphs(610 + n, 5)]) for n, text in lines.items()]
    result = check(CheckInputs(tuple(bids), (tender,)), Settings(workers=1))
    pairs = {(p.a, p.b): p for p in result.pairs}
    shared = pairs[("d1", "d2")].signals
    assert [(s.kind, s.strength, s.value) for s in shared] == [
        ("shared_error", "strong", "水泥砂桨"),
        ("shared_error", "strong", "钢筯"),
    ]
    assert shared[1].a is not None and "钢筯" in shared[1].a.text
    (one,) = pairs[("d3", "d4")].signals  # 混泥土 is the tender's; 模版支撑 one error: supporting
    assert (one.value, one.strength, pairs[("d3", "d4")].level) == ("模版支撑", "supporting", "watch")
    assert not pairs[("d1", "d3")].signals


def test_a_listed_error_across_two_words_is_no_error(tmp_path: Path) -> None:
    """养户 is a slip for 养护 where it stands as a word (浇水养户); in 饲养户 (a livestock farmer) and
    培养户外 it is one word's end and the next one's start, which two bids share with no error made."""
    lines = {
        1: ["投标人：恒信市政有限公司（盖单位章）", "施工期间拜访沿线饲养户，组织培养户外作业人员。"],
        2: ["投标人：华东建设有限公司（盖单位章）", "协调周边饲养户的出行，加强培养户外作业的班组。"],
        3: ["投标人：中联路桥有限公司（盖单位章）", "混凝土浇筑后及时浇水养户，覆盖薄膜。"],
        4: ["投标人：宏远建工有限公司（盖单位章）", "路面完成后洒水养户七天，专人负责。"],
    }
    bids = [_docx(tmp_path / f"0{n}-bid.docx", [*text, *paragraphs(640 + n, 5)]) for n, text in lines.items()]
    result = check(CheckInputs(tuple(bids)), Settings(workers=1))
    errors = {(p.a, p.b): [s.value for s in p.signals if s.kind == "shared_error"] for p in result.pairs}
    assert errors.get(("d1", "d2"), []) == []
    assert errors[("d3", "d4")] == ["养户"]


def test_a_name_most_bids_cite_is_no_sign(tmp_path: Path) -> None:
    firm = "投标人：中建八局有限公司（盖单位章）"
    bids = [_docx(tmp_path / "01-bid.docx", [firm, *paragraphs(500, 4)])]
    for n, name in ((2, "恒信市政"), (3, "华东建设"), (4, "宏远建工"), (5, "中联路桥")):
        cite = "本工程参照中建八局有限公司的成熟工艺组织施工。"
        bids.append(
            _docx(
                tmp_path / f"0{n}-bid.docx",
                [f"投标人：{name}有限公司（盖单位章）", cite, *paragraphs(500 + n, 4)],
            )
        )
    result = check(CheckInputs(tuple(bids)), Settings(workers=1))
    assert not any(s.kind == "cross_name" for p in result.pairs for s in p.signals)


def test_input_method_slips_two_bids_alone_share_are_found_and_ten_unrelated_bids_stay_silent(
    tmp_path: Path,
) -> None:
    """Ten bids of their own construction prose (bench.grammar): ordinary wording that jieba cuts
    apart raises nothing; 03 and 07 share two slips no list holds (验受 for 验收, 质亮 for 质量)."""
    slips = "隐蔽工程验受合格后方可进入下道工序，确保工程质亮达到合格标准。"
    tender = _docx(tmp_path / "tender.docx", [grammar_paragraph(random.Random(900 + n)) for n in range(6)])
    bids = []
    for n in range(1, 11):
        rng = random.Random(n)
        texts = [
            f"投标人：{_BIDDERS[n - 1]}有限公司（盖单位章）",
            *(grammar_paragraph(rng) for _ in range(10)),
        ]
        bids.append(_docx(tmp_path / f"{n:02d}-bid.docx", texts + ([slips] if n in (3, 7) else [])))
    result = check(CheckInputs(tuple(bids), (tender,)), Settings(workers=1))
    errors = {(p.a, p.b): [s for s in p.signals if s.kind == "shared_error"] for p in result.pairs}
    found = [(s.field, s.value, s.strength) for s in errors.pop(("d3", "d7"))]
    assert found == [("homophone", "质亮", "strong"), ("homophone", "验受", "strong")]
    assert not any(errors.values()), {k: [s.value for s in v] for k, v in errors.items() if v}
    detail = next(s.detail for p in result.pairs for s in p.signals if s.value == "验受")
    assert "应为“验收”" in detail


@pytest.mark.parametrize("pairs", [2, 3])
def test_one_slip_a_pair_shares_is_chance_where_several_pairs_share_one(tmp_path: Path, pairs: int) -> None:
    """Ten bids of their own prose; ``pairs`` unrelated pairs each share one slip of sound (施公, 安权,
    检差), and 09–10 share two. Two pairs sharing one slip each: each is a sign. Three: one slip is what
    chance gives in this section (long bids share such odd words by chance), and none is a sign; the
    pair sharing two still is."""
    slips = ["现场施公前完成技术交底。", "落实安权生产责任制度。", "每日检差临时用电线路。"][:pairs]
    both = "隐蔽工程验受合格后方可进入下道工序，确保工程质亮达到合格标准。"
    bids = []
    for n in range(1, 11):
        rng = random.Random(200 + n)
        texts = [f"投标人：{_BIDDERS[n - 1]}有限公司（盖单位章）"]
        texts += [grammar_paragraph(rng) for _ in range(10)]
        texts += [slip for k, slip in enumerate(slips) if n in (2 * k + 1, 2 * k + 2)]
        texts += [both] if n in (9, 10) else []
        bids.append(_docx(tmp_path / f"{n:02d}-bid.docx", texts))
    result = check(CheckInputs(tuple(bids)), Settings(workers=1))
    found = {(p.a, p.b): sorted(s.value for s in p.signals if s.kind == "shared_error") for p in result.pairs}
    assert found.pop(("d9", "d10")) == ["质亮", "验受"]
    shared = {pair: values for pair, values in found.items() if values}
    expected = {("d1", "d2"): ["施公"], ("d3", "d4"): ["安权"]} if pairs == 2 else {}
    assert shared == expected


def test_a_slip_the_tender_holds_too_is_no_sign(tmp_path: Path) -> None:
    """Two bids share two slips; the tender holds one of them (验受): only the other is their sign."""
    slips = "隐蔽工程验受合格后方可进入下道工序，确保工程质亮达到合格标准。"
    tender_text = [grammar_paragraph(random.Random(950 + n)) for n in range(6)] + ["分项工程验受记录齐全。"]
    tender = _docx(tmp_path / "tender.docx", tender_text)
    bids = []
    for n in range(1, 5):
        rng = random.Random(60 + n)
        texts = [f"投标人：{_BIDDERS[n - 1]}有限公司（盖单位章）"]
        texts += [grammar_paragraph(rng) for _ in range(10)] + ([slips] if n in (1, 2) else [])
        bids.append(_docx(tmp_path / f"{n:02d}-bid.docx", texts))
    result = check(CheckInputs(tuple(bids), (tender,)), Settings(workers=1))
    errors = {(p.a, p.b): [s.value for s in p.signals if s.kind == "shared_error"] for p in result.pairs}
    assert errors.pop(("d1", "d2")) == ["质亮"]
    assert not any(errors.values()), errors


def test_the_right_form_of_a_slip_sounds_alike_and_the_section_uses_it() -> None:
    texts = [normalize(t)[0] for t in ("钢筋混凝土水泥砂浆养护", "水泥砂浆养护找平层", "砂浆养护，水平")]
    assert right_form("砂桨", texts) == "砂浆" and right_form("养户", texts) == "养护"
    assert right_form("找平", texts) is None  # 水平 does not sound like 找平: a term, not a slip
    assert right_form("钢筯", texts) is None  # a slip of the pen, not of sound: the list's job
    assert right_form("砂桨", texts[:2]) is None  # three texts at least must spell it right
    assert right_form("摊铺未", [*texts, "摊铺机", "摊铺机进场", "摊铺机两台"]) is None  # 机 read wèi: rare
    words = cut("底板钢筯绑扎后用水泥砂桨找平")
    assert dict(odd_words(words)).keys() >= {"钢筯", "砂桨"}
    phrases = dict(odd_words(cut("第3项应满足各项应急要求，验收后归档")))  # 项, 应, 后: phrases, not words
    assert not {"项应", "各项应", "验收后"} & phrases.keys()


def test_readings_lose_their_tone_marks_and_diaereses_as_their_normal_form_less_its_marks_would() -> None:
    assert readings("绿") == {"lu"}  # lǜ, lù: the diaeresis goes with the tones
    assert readings("筋") == {"jin", "qian"} and readings("a") == frozenset()
    for code, listed in list(reading_table().items())[::50]:
        nfd = unicodedata.normalize("NFD", listed)
        assert toneless(listed) == "".join(c for c in nfd if not unicodedata.combining(c)), chr(code)


def test_the_places_of_all_words_at_once_are_those_of_each_word_alone() -> None:
    text = "验受合格后验受验受验受验受验受，验受后质亮，质亮质亮亮质，啊啊啊啊。合格后合格"
    words = {"验受", "验受验", "受验", "质亮", "亮质", "啊啊", "合格后", "格后", "不在"}
    found = _all_contexts(words, text)
    assert found == {w: _contexts(w, text) for w in words}
    assert found["啊啊"] == ({"质，", "，啊", "啊啊"}, {"啊啊", "啊。", "。合"})  # overlaps itself
    assert found["不在"] == (set(), set()) and _all_contexts(set(), text) == {}


@pytest.mark.parametrize("seed", range(5))
def test_the_places_of_many_words_of_each_length_are_those_of_each_word_alone(seed: int) -> None:
    """Words of one to five characters (to three found as numbers, longer by an expression) in a text
    of few distinct characters, so that words repeat, overlap and start where others start; some
    characters beyond the basic plane and a lone surrogate among them."""
    rng = random.Random(seed)
    alphabet = "验受合格质亮啊后，。\U00020000\ud800"
    text = "".join(rng.choice(alphabet) for _ in range(3_000))
    words = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5))) for _ in range(120)}
    found = _all_contexts(words, text)
    assert found == {w: _contexts(w, text) for w in words}
    assert sum(bool(before) for before, _ in found.values()) >= 40  # most of those up to three long


def test_a_shared_slip_counts_where_it_came_with_its_sentence() -> None:
    copied, copy, apart = "隐蔽工程验受合格后方可", "本工程隐蔽工程验受合格后", "材料进场验受由监理负责"
    assert _same_context("验受", copied, copy) and not _same_context("验受", copied, apart)
