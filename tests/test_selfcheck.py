"""The bidder's self-check (``bidcheck selfcheck``): real .docx and .pdf bids with each kind of problem
planted, a clean bid that must come out clean, and a planted bid that comes out clean once fixed."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from docx import Document as new_docx
from openpyxl import load_workbook

from bidcheck.cli import main
from bidcheck.config import Settings
from bidcheck.findings import SCHEMA
from bidcheck.ingest.office import convert, find_soffice
from bidcheck.model import Place
from bidcheck.selfcheck import SelfCheckInputs, self_check
from bidcheck.selfcheck.foreign import company_names
from tests.builders import make_docx, paragraphs
from tests.selfcheck_files import (
    BIDDER,
    COMMENT,
    DELETED,
    DRAFT,
    FORMS,
    HIDDEN,
    LEFTOVER,
    OTHER,
    OTHER_PHONE,
    OWN,
    TEMPLATE_PATH,
    ZERO_WIDTH_SENTENCE,
    build_files,
    write_concealing_docx,
    write_docx,
    write_pdf,
)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build_files(tmp_path_factory.mktemp("selfcheck"))


def _run(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return int(code), out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def planted_json(files: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("out")
    code, stdout, _ = _run(
        "selfcheck", files["planted"], "--against", files["reference"], "--tender", files["tender"],
        "--json", out / "self.json", "--xlsx", out / "self.xlsx", "--quiet", "--workers", "1",
    )  # fmt: skip
    assert code == 1, stdout
    data: dict[str, Any] = json.loads((out / "self.json").read_text(encoding="utf-8"))
    data["_stdout"], data["_xlsx"] = stdout, out / "self.xlsx"
    return data


def _found(data: dict[str, Any], part: str, field: str) -> list[dict[str, Any]]:
    return [f for f in data["findings"] if f["part"] == part and f["field"] == field]


def test_another_company_and_its_phone_are_found_where_they_stand(planted_json: dict[str, Any]) -> None:
    assert planted_json["schema"] == SCHEMA
    assert planted_json["bidder"] == {"name": BIDDER, "source": "forms"}
    names = _found(planted_json, "foreign", "bidder")
    assert [f["value"] for f in names] == [OTHER]
    assert names[0]["level"] == "high"
    assert names[0]["where"]["page"] == 1 and names[0]["where"]["paragraph"] == 13
    assert OTHER in names[0]["where"]["text"]
    phones = _found(planted_json, "foreign", "phone")
    assert [(f["value"], f["level"]) for f in phones] == [(OTHER_PHONE, "high")]
    every_value = {f["value"] for f in planted_json["findings"]}
    # the bidder's own phone and bank, the tender's phone and owner, a past project's owner: no finding
    assert not every_value & {"02552345678", "02583334444", "苏州工业园区市政管理有限公司"}


def test_properties_naming_someone_else_are_found_with_how_to_clear_them(
    planted_json: dict[str, Any],
) -> None:
    props = {f["field"]: f for f in planted_json["findings"] if f["part"] == "properties"}
    assert set(props) == {"author", "template"}  # author and last editor, one person: one finding
    assert props["author"]["value"] == "刘顾问" and props["author"]["level"] == "watch"
    detail = props["author"]["detail"]
    assert detail.startswith("文档属性“作者”“最后修改者”为“刘顾问”：此人未在投标文件中出现")
    assert props["template"]["value"] == TEMPLATE_PATH
    assert props["template"]["detail"].endswith("是电脑用户“liuguwen”的模板路径，会随文件带出")
    assert "检查文档" in props["author"]["fix"] and "隐私设置" in props["author"]["fix"]
    assert props["author"]["where"] is None


def test_text_shared_with_the_reference_is_found_with_its_level(planted_json: dict[str, Any]) -> None:
    passages = _found(planted_json, "shared", "passage")
    assert passages and all(f["level"] == "high" and f["reference"] == "顾问模板.docx" for f in passages)
    copied = "".join(f["value"] for f in passages)
    assert all(p[:40] in copied for p in DRAFT[:3])
    assert {f["where"]["paragraph"] for f in passages} <= {10, 11, 12}
    assert all(f["other"]["paragraph"] in (1, 2, 3) for f in passages)
    author = _found(planted_json, "shared", "author")
    assert [(f["value"], f["level"]) for f in author] == [("刘顾问", "high")]
    (pair,) = planted_json["pairs"]
    assert pair["level"] == "high" and pair["passages"]


def test_findings_are_ordered_by_weight(planted_json: dict[str, Any]) -> None:
    order = {"foreign": 0, "properties": 1, "concealed": 2, "shared": 3}
    keys = [({"high": 0, "watch": 1}[f["level"]], order[f["part"]]) for f in planted_json["findings"]]
    assert keys == sorted(keys)
    assert planted_json["counts"]["high"] == sum(1 for f in planted_json["findings"] if f["level"] == "high")
    assert planted_json["clean"] is False


def test_the_sheet_lists_the_findings_in_order(planted_json: dict[str, Any]) -> None:
    sheet = load_workbook(planted_json["_xlsx"])["自查"]
    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    header = next(n for n, r in enumerate(rows) if r[0] == "序号")
    listed = [r for r in rows[header + 1 :] if r[0] is not None]
    assert len(listed) == len(planted_json["findings"])
    assert [r[3] for r in listed] == [f["detail"] for f in planted_json["findings"]]
    assert listed[0][1] == "一级预警" and listed[-1][1] in ("一级预警", "二级观察")
    assert all(r[8] for r in listed)  # how to clear each
    assert any(r[0] == "结论" and "发现" in str(r[1]) for r in rows[:header])


def test_the_listing_says_what_to_do(planted_json: dict[str, Any]) -> None:
    stdout = planted_json["_stdout"]
    assert f"[文件中的其他单位] 文件中出现另一单位的名称“{OTHER}”" in stdout
    assert "处理：" in stdout and "发现" in stdout


def test_a_clean_bid_comes_out_clean(files: dict[str, Path], tmp_path: Path) -> None:
    code, stdout, _ = _run(
        "selfcheck", files["clean"], "--against", files["reference"], "--tender", files["tender"],
        "--json", tmp_path / "clean.json", "--quiet", "--workers", "1",
    )  # fmt: skip
    data = json.loads((tmp_path / "clean.json").read_text(encoding="utf-8"))
    assert (code, data["findings"], data["clean"]) == (0, [], True), stdout
    assert "未发现" in stdout


def test_the_fixed_bid_is_cleared_when_run_again(files: dict[str, Path]) -> None:
    code, stdout, _ = _run(
        "selfcheck", files["fixed"], "--against", files["reference"], "--tender", files["tender"],
        "--quiet", "--workers", "1",
    )  # fmt: skip
    assert code == 0, stdout


def test_the_bidder_given_with_as_is_the_one_checked(files: dict[str, Path]) -> None:
    result = self_check(SelfCheckInputs(files["clean"], bidder=OTHER), Settings(workers=1))
    assert (result.bidder, result.bidder_source) == (OTHER, "as")
    assert [f.value for f in result.findings if f.field == "bidder"] == [BIDDER]  # the forms name another


def test_a_pdf_bid_is_located_by_page(tmp_path: Path) -> None:
    pages = [[*FORMS, *paragraphs(550, 3)], [*paragraphs(551, 2), LEFTOVER]]
    bid = write_pdf(tmp_path / "03-华东建设.pdf", pages, author="刘顾问")
    result = self_check(SelfCheckInputs(bid), Settings(workers=1))
    found = {(f.part, f.field): f for f in result.findings}
    assert found[("foreign", "bidder")].where is not None and found[("foreign", "bidder")].where.page == 2
    assert found[("foreign", "phone")].value == OTHER_PHONE
    assert found[("properties", "author")].value == "刘顾问"
    assert "Acrobat" in found[("properties", "author")].fix


def test_a_bid_that_cannot_be_read_is_said_and_fails(tmp_path: Path) -> None:
    broken = tmp_path / "坏文件.docx"
    broken.write_bytes(b"PK\x03\x04 not a zip at all")
    code, stdout, _ = _run("selfcheck", broken, "--quiet", "--json", tmp_path / "r.json")
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert code == 1 and data["bid"]["status"] == "error" and data["clean"] is False
    assert "无法读取投标文件" in stdout


def test_an_empty_folder_or_a_missing_file_is_a_usage_error(files: dict[str, Path], tmp_path: Path) -> None:
    code, _, stderr = _run("selfcheck", tmp_path, "--quiet")  # a bidder's folder holding no bid file
    assert code == 2 and "文件夹中没有可读取的投标文件" in stderr
    assert _run("selfcheck", tmp_path / "nope.docx", "--quiet")[0] == 2
    code, _, stderr = _run("selfcheck", files["clean"], "--against", tmp_path / "nope.docx")
    assert code == 2 and "找不到文件" in stderr


def test_company_names_leave_out_the_words_before_them() -> None:
    text = f"本工程由{OTHER}承建，我们公司与苏州工业园区市政管理有限公司合作。"
    assert [name for name, _s, _e in company_names(text)] == [OTHER, "苏州工业园区市政管理有限公司"]


SAMPLE = Path(__file__).resolve().parents[1] / "resources" / "sample"


def test_the_sample_bids_name_no_other_company_and_the_copy_is_found() -> None:
    tender = (SAMPLE / "tender" / "招标文件.docx",)
    bids = sorted((SAMPLE / "bids").iterdir())
    for bid in bids:  # each bid alone: its own forms, its suppliers' plants, the tender's owner
        result = self_check(SelfCheckInputs(bid, tenders=tender), Settings(workers=1))
        assert result.bid.ok and [f for f in result.findings if f.part != "properties"] == [], bid.name
    copier = self_check(SelfCheckInputs(bids[1], (SAMPLE / "bids",), tender), Settings(workers=1))
    shared = [f for f in copier.findings if f.part == "shared"]
    passages = [f for f in shared if f.field == "passage"]
    assert {f.reference for f in shared} == {bids[0].name} and all(f.level == "high" for f in passages)
    assert sum(len(f.value) for f in passages) > 2500  # 02 copied 01's construction plan (about 3,000 chars)
    typos = [(f.field, f.value, f.level) for f in shared if f.field != "passage"]
    assert typos == [("homophone", "观侧", "watch")]  # the typo it kept: one shared error, a supporting sign


def test_without_forms_the_company_the_bid_names_most_is_the_bidder(tmp_path: Path) -> None:
    own = f"我公司{BIDDER}承诺按期完工。"
    texts = [own, *paragraphs(560, 3), f"{BIDDER}具备相应资质。", LEFTOVER]
    bid = write_docx(tmp_path / "投标文件（正本）.docx", texts)
    result = self_check(SelfCheckInputs(bid), Settings(workers=1))
    assert (result.bidder, result.bidder_source) == (BIDDER, "text")
    assert [f.value for f in result.findings if f.field == "bidder"] == [OTHER]


def test_concealed_text_and_leftovers_are_found_and_cleared_when_removed(tmp_path: Path) -> None:
    own = paragraphs(570, 4)
    bid = write_concealing_docx(tmp_path / "01-华东建设.docx", own)
    result = self_check(SelfCheckInputs(bid), Settings(workers=1))
    hid = {f.field: f for f in result.findings if f.part == "concealed"}
    assert set(hid) == {"hidden", "white", "zero_width", "comment", "deleted"}
    assert hid["hidden"].value == HIDDEN and hid["hidden"].level == "high"
    assert hid["hidden"].where == Place(1, len(FORMS) + 5, HIDDEN)
    assert hid["zero_width"].level == "high" and "^u8203" in hid["zero_width"].fix
    assert hid["zero_width"].detail.endswith("句中夹有看不见的字符，检查软件会视为有意规避查重")
    assert hid["hidden"].detail.endswith("打印和阅读时看不到，但仍在文件中，机构的检查会读到它并视为隐藏内容")
    assert hid["comment"].value == f"刘顾问：{COMMENT}" and hid["comment"].level == "watch"
    assert "删除文档中的所有批注" in hid["comment"].fix
    assert hid["deleted"].value == DELETED and "接受所有修订" in hid["deleted"].fix
    (person,) = [f for f in result.findings if f.part == "properties"]  # one person, one finding
    assert (person.field, person.value) == ("revision_author", "刘顾问")
    assert person.detail.startswith("文档属性“修订者”“批注者”为“刘顾问”")
    assert [f.value for f in result.findings if f.part == "foreign"] == []  # a deletion is no text of the bid
    cleared = [*FORMS, *own, "施工部署说明。", ZERO_WIDTH_SENTENCE.replace("\u200b", "")]
    fixed = write_docx(tmp_path / "01-华东建设-改.docx", cleared)
    code, stdout, _ = _run("selfcheck", fixed, "--quiet")
    assert code == 0, stdout


def test_a_power_of_attorney_names_the_bidder_without_its_words(tmp_path: Path) -> None:
    text = f"本人代表{OTHER}参加本项目投标。"
    assert [name for name, _s, _e in company_names(text)] == [OTHER]
    bid = write_docx(tmp_path / "01-投标.docx", [*FORMS, text, *paragraphs(570, 3)])
    result = self_check(SelfCheckInputs(bid), Settings(workers=1))
    assert [f.value for f in result.findings if f.field == "bidder"] == [OTHER]


def test_a_copy_of_the_bid_among_its_references_is_left_out(files: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "投标 文件夹"
    (folder / "备份").mkdir(parents=True)
    bid = shutil.copy(files["fixed"], folder / files["fixed"].name)
    shutil.copy(files["fixed"], folder / "备份" / "副本.docx")
    result = self_check(SelfCheckInputs(Path(bid), (folder,), (files["tender"],)), Settings(workers=1))
    assert result.references == () and result.clean


def test_without_a_tender_the_tenderee_and_agency_are_never_another_company(tmp_path: Path) -> None:
    """The bid letter's addressee (致：…) and the 招标人/代理机构 the bid names are named in every bid: no
    advice to remove them, wherever else they stand; another company's name still is a finding."""
    own = paragraphs(61, 4)
    bid = make_docx(
        tmp_path / "01-甲建设.docx",
        [
            [
                "投标函",
                "致：某市滨江新区城市建设发展有限公司",
                "投标人：甲建设工程有限公司（盖单位章）",
                *own[:2],
                "我方承诺按某市滨江新区城市建设发展有限公司的要求组织施工。",
                "招标代理机构：临江工程咨询有限公司，我方已按其通知提交保证金。",
                "本方案的施工组织由临江工程咨询有限公司审核后实施。",
                "本项目施工机械由乙路桥工程有限公司统一调配。",
                *own[2:],
            ]
        ],
    )
    result = self_check(SelfCheckInputs(bid), Settings(workers=1))
    named = [f.value for f in result.findings if f.part == "foreign"]
    assert not [v for v in named if "滨江新区" in v or "临江工程" in v], named
    assert any("乙路桥" in v for v in named), named


def test_a_client_of_a_like_name_never_hides_another_company_in_a_form(tmp_path: Path) -> None:
    """业主：华东建设有限公司 in a 业绩 table is a client; 浙江华东建设有限公司 written in the bid's own
    form is another company all the same."""
    bid = make_docx(
        tmp_path / "01-甲建设.docx",
        [
            [
                "投标人：浙江华东建设有限公司（盖单位章）",
                *paragraphs(62, 3),
                "类似项目业绩：某路改造工程，业主：华东建设有限公司，合同金额 1200 万元。",
                "投标人：甲建设工程有限公司（盖单位章）",
            ]
        ],
    )
    result = self_check(SelfCheckInputs(bid, bidder="甲建设工程有限公司"), Settings(workers=1))
    named = [f.value for f in result.findings if f.part == "foreign"]
    assert any("浙江华东建设" in v for v in named), named


def test_an_account_spelling_the_bids_own_manager_in_pinyin_is_no_finding(tmp_path: Path) -> None:
    """The last editor ``wangjh`` is 王建华, the bid's 项目经理, as his Windows account spells him: no
    finding; an account that spells no one of the bid (``lisi``) still is one."""
    own = write_docx(tmp_path / "01.docx", [*FORMS, *OWN], author="wangjh", editor="WangJianHua")
    result = self_check(SelfCheckInputs(own, bidder=BIDDER), Settings(workers=1))
    assert not [f for f in result.findings if f.part == "properties"], result.findings
    other = write_docx(tmp_path / "02.docx", [*FORMS, *OWN], author="lisi")
    result = self_check(SelfCheckInputs(other, bidder=BIDDER), Settings(workers=1))
    assert [f.value for f in result.findings if f.part == "properties"] == ["lisi"]


def test_text_inserted_by_another_with_changes_tracked_is_found(tmp_path: Path) -> None:
    """A paragraph a consultant inserted with changes tracked shows in the bid, but the file names him as
    its author: listed with its place and how to accept it (and he is found among the properties)."""
    from docx import Document as new_docx
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    document = new_docx()
    for text in [*FORMS, *OWN]:
        document.add_paragraph(text)
    inserted = "本工程质量目标为合格，争创省级优质工程。"
    para = document.add_paragraph()
    para._p.append(
        parse_xml(
            f'<w:ins {nsdecls("w")} w:id="9" w:author="刘顾问" w:date="2026-01-01T00:00:00Z">'
            f"<w:r><w:t>{inserted}</w:t></w:r></w:ins>"
        )
    )
    document.save(str(tmp_path / "01.docx"))
    result = self_check(SelfCheckInputs(tmp_path / "01.docx", bidder=BIDDER), Settings(workers=1))
    (found,) = [f for f in result.findings if f.part == "concealed"]
    assert (found.field, found.level, found.value) == ("inserted", "watch", inserted)
    assert "修订中插入的文字" in found.detail and "接受所有修订" in found.fix
    assert found.where is not None and found.where.paragraph == len(FORMS) + len(OWN) + 1
    assert [f.value for f in result.findings if f.part == "properties"] == ["刘顾问"]


@pytest.mark.parametrize("form", ["docx", "pdf"])
def test_another_companys_person_certificate_and_phone_in_a_staff_table_are_found(
    tmp_path: Path, form: str
) -> None:
    """A staff table row left from another company's file: its person, certificate and mobile stand in the
    row that names that company, each a finding; the bidder's own rows are none. In the PDF LibreOffice
    exports, the narrow columns wrap the certificate, the mobile and the company onto further lines, which
    the reader sets back in their cells."""
    soffice = find_soffice()
    if form == "pdf" and soffice is None:
        pytest.skip("the PDF is exported by LibreOffice (make office-deps)")
    document = new_docx()
    for text in [*FORMS, *OWN[:3], f"本项目的深基坑专项方案由{OTHER}提供技术支持。"]:  # named before, too
        document.add_paragraph(text)
    rows = [
        ("职务", "姓名", "证书编号", "联系电话", "所在单位"),
        ("项目经理", "王建华", "苏1322011201234", "13800001111", BIDDER),
        ("技术负责人", "赵志远", "苏1322019998888", OTHER_PHONE, OTHER),
    ]
    table = document.add_table(rows=len(rows), cols=len(rows[0]))
    for line, values in zip(table.rows, rows, strict=True):
        for cell, value in zip(line.cells, values, strict=True):
            cell.text = value
    for text in OWN[3:]:
        document.add_paragraph(text)
    bid = tmp_path / "01.docx"
    document.save(str(bid))
    if form == "pdf" and soffice is not None:
        bid = convert(bid, soffice, tmp_path / "pdf", "pdf")
    result = self_check(SelfCheckInputs(bid, bidder=BIDDER), Settings(workers=1))
    foreign = {f.value: f for f in result.findings if f.part == "foreign"}
    assert {"赵志远", "苏1322019998888", OTHER_PHONE, OTHER} <= set(foreign), sorted(foreign)
    assert not {"王建华", "苏1322011201234", "13800001111"} & set(foreign)
    assert "在同一段或表格的同一行" in foreign["赵志远"].detail and OTHER in foreign["赵志远"].detail


def test_another_company_in_a_running_header_or_footer_is_found_on_its_side(tmp_path: Path) -> None:
    """A header or footer left from another company's file prints its name on every page: a strong
    finding, said as the header's or the footer's, located at that line."""
    document = new_docx()
    for text in [*FORMS, *paragraphs(575, 4)]:
        document.add_paragraph(text)
    section = document.sections[0]
    section.header.paragraphs[0].text = f"{OTHER}投标文件"
    section.footer.paragraphs[0].text = f"{BIDDER}　第一册"
    document.save(str(tmp_path / "01-华东建设.docx"))
    result = self_check(SelfCheckInputs(tmp_path / "01-华东建设.docx"), Settings(workers=1))
    (found,) = [f for f in result.findings if f.part == "foreign" and f.field == "bidder"]
    assert (found.value, found.level) == (OTHER, "high")
    assert found.detail == f"页眉中出现另一单位的名称“{OTHER}”：每一页都会带着它"
    assert found.where is not None and found.where.text == f"{OTHER}投标文件"
    assert found.fix.startswith(f"把“{OTHER}”改为本单位名称或删除")
    section.header.paragraphs[0].text = f"{BIDDER}投标文件"
    section.footer.paragraphs[0].text = f"{OTHER}　第一册"
    document.save(str(tmp_path / "02-华东建设.docx"))
    result = self_check(SelfCheckInputs(tmp_path / "02-华东建设.docx"), Settings(workers=1))
    (found,) = [f for f in result.findings if f.part == "foreign" and f.field == "bidder"]
    assert found.detail.startswith(f"页脚中出现另一单位的名称“{OTHER}”")


def test_a_role_named_as_two_people_names_the_later_one_and_the_earlier(tmp_path: Path) -> None:
    """项目经理 王建华 in the forms and 李志强 further on (another bid's staff left in): the later name is
    the finding, where it stands, the earlier named in its detail; one name twice is none."""
    texts = [*FORMS, *paragraphs(576, 3), "项目经理：王建华", *paragraphs(577, 2), "项目经理：李志强"]
    bid = write_docx(tmp_path / "01-华东建设.docx", texts)
    result = self_check(SelfCheckInputs(bid), Settings(workers=1))
    (found,) = [f for f in result.findings if f.field == "person" and f.part == "foreign"]
    assert (found.value, found.level) == ("李志强", "watch")
    assert found.where is not None and found.where.paragraph == len(texts)
    assert found.detail.startswith(f"项目经理前后不一：第 {found.where.page} 页为“李志强”，此前为“王建华”")
    assert found.fix == "统一为本单位实际的项目经理，删除沿用的他人信息"
    same = write_docx(tmp_path / "02-华东建设.docx", texts[:-1])
    assert not [
        f for f in self_check(SelfCheckInputs(same), Settings(workers=1)).findings if f.field == "person"
    ]


def test_a_property_naming_a_reference_bidder_in_part_is_that_company(tmp_path: Path) -> None:
    """The author 南京恒信市政 is no person of the bid: given another bidder's file whose forms name
    南京恒信市政工程有限公司, it is that company's (strong), said by its full name."""
    bid = write_docx(tmp_path / "01-华东建设.docx", [*FORMS, *paragraphs(578, 4)], author="南京恒信市政")
    other = write_docx(tmp_path / "02-恒信.docx", [f"投标人：{OTHER}（盖单位章）", *paragraphs(579, 4)])
    result = self_check(SelfCheckInputs(bid, (other,)), Settings(workers=1))
    (author,) = [f for f in result.findings if f.part == "properties"]
    assert (author.value, author.level) == ("南京恒信市政", "high")
    assert author.detail.endswith(f"指向另一单位“{OTHER}”")
    alone = self_check(SelfCheckInputs(bid), Settings(workers=1))
    assert [(f.value, f.level) for f in alone.findings if f.part == "properties"] == [
        ("南京恒信市政", "watch")
    ]
