"""The bidder's self-check (``bidcheck selfcheck``): real .docx and .pdf bids with each kind of problem
planted, a clean bid that must come out clean, and a planted bid that comes out clean once fixed."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from docx import Document as new_docx
from docx.opc.constants import RELATIONSHIP_TYPE
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from openpyxl import load_workbook
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from bidcheck.cli import main
from bidcheck.config import Settings
from bidcheck.findings import SCHEMA
from bidcheck.selfcheck import SelfCheckInputs, self_check
from bidcheck.selfcheck.foreign import company_names
from tests.builders import paragraphs, pdf_font

BIDDER = "江苏华东建设集团有限公司"
OTHER = "南京恒信市政工程有限公司"
OTHER_PHONE = "13912345678"
AGENCY_PHONE = "025-83334444"
TEMPLATE_PATH = r"C:\Users\liuguwen\AppData\Roaming\Microsoft\Templates\投标模板.dotx"
TENDER = [
    f"招标人：南京市城市建设投资有限公司。招标代理机构联系电话：{AGENCY_PHONE}。",
    *paragraphs(500, 3),
]
OWN = paragraphs(510, 6)  # the bidder's own technical text
DRAFT = paragraphs(520, 6)  # the consultant's draft
REWRITTEN = paragraphs(530, 3)  # what the bidder writes instead of the copied paragraphs
FORMS = [
    f"投标人：{BIDDER}（盖单位章）",
    "法定代表人：张明",
    "项目经理：王建华",
    "联系电话：025-52345678",
    "开户银行：中国工商银行股份有限公司南京城东支行",
]
PERFORMANCE = "类似工程业绩：发包人：苏州工业园区市政管理有限公司，项目名称：星湖街排水改造工程，已竣工验收。"
_ATTACHED_TEMPLATE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate"
LEFTOVER = f"本项目联系人：王五，联系电话：{OTHER_PHONE}，单位：{OTHER}。"


def _docx(path: Path, texts: list[str], author: str = "", editor: str = "", template: str = "") -> Path:
    """A .docx of these paragraphs, with an author, a last editor and an attached template path."""
    document = new_docx()
    for text in texts:
        document.add_paragraph(text)
    core = document.core_properties
    core.author, core.last_modified_by, core.comments = author, editor, ""
    if template:
        part = document.part.part_related_by(RELATIONSHIP_TYPE.SETTINGS)
        rid = part.relate_to(template, _ATTACHED_TEMPLATE, is_external=True)
        attached = OxmlElement("w:attachedTemplate")
        attached.set(qn("r:id"), rid)
        document.settings.element.append(attached)
    document.save(str(path))
    return path


def _pdf(path: Path, pages: list[list[str]], author: str = "") -> Path:
    """A text PDF, one list of paragraphs a page (wrapped at 38 characters)."""
    canvas = Canvas(str(path), pagesize=A4, invariant=1)
    canvas.setAuthor(author)
    for page in pages:
        canvas.setFont(pdf_font(), 11)
        y = 780.0
        for text in page:
            for start in range(0, len(text), 38):
                canvas.drawString(72, y, text[start : start + 38])
                y -= 16
            y -= 10
        canvas.showPage()
    canvas.save()
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The tender, a consultant's template (its author 刘顾问), a bid made from it (three paragraphs of
    the draft, another company's contact left in, the consultant's author, editor and template path),
    that bid fixed, and a clean bid of the bidder's own text."""
    root = tmp_path_factory.mktemp("selfcheck")
    tender = _docx(root / "招标文件.docx", TENDER, author="招标代理")
    reference = _docx(root / "顾问模板.docx", DRAFT, author="刘顾问")
    body = [*FORMS, TENDER[1], *OWN[:3], *DRAFT[:3], LEFTOVER, *OWN[3:], PERFORMANCE]
    planted = _docx(root / "01-华东建设.docx", body, "刘顾问", "刘顾问", TEMPLATE_PATH)
    fixed_body = [*FORMS, TENDER[1], *OWN[:3], *REWRITTEN, *OWN[3:], PERFORMANCE]
    fixed = _docx(root / "01-华东建设-改.docx", fixed_body, "张明", "")
    clean = _docx(root / "02-华东建设-自写.docx", [*FORMS, TENDER[2], *paragraphs(540, 8), PERFORMANCE])
    return {"tender": tender, "reference": reference, "planted": planted, "fixed": fixed, "clean": clean}


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
    assert set(props) == {"author", "last_modified_by", "template"}
    assert props["author"]["value"] == "刘顾问" and props["author"]["level"] == "watch"
    assert props["template"]["value"] == TEMPLATE_PATH and "liuguwen" in props["template"]["detail"]
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
    bid = _pdf(tmp_path / "03-华东建设.pdf", pages, author="刘顾问")
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


def test_a_folder_or_a_missing_file_is_a_usage_error(files: dict[str, Path], tmp_path: Path) -> None:
    assert _run("selfcheck", tmp_path, "--quiet")[0] == 2
    code, _, stderr = _run("selfcheck", files["clean"], "--against", tmp_path / "nope.docx")
    assert code == 2 and "找不到文件" in stderr


def test_company_names_leave_out_the_words_before_them() -> None:
    text = f"本工程由{OTHER}承建，我们公司与苏州工业园区市政管理有限公司合作。"
    assert [name for name, _s, _e in company_names(text)] == [OTHER, "苏州工业园区市政管理有限公司"]
