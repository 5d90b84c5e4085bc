"""The self-check's test files: real .docx and .pdf bids with each kind of problem planted, a clean bid,
a planted bid fixed, a consultant's template and a tender (shared by the CLI and the app's tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docx import Document as new_docx
from docx.opc.constants import RELATIONSHIP_TYPE
from docx.oxml import OxmlElement, parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.shared import RGBColor
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

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


def write_docx(path: Path, texts: list[str], author: str = "", editor: str = "", template: str = "") -> Path:
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


def write_pdf(path: Path, pages: list[list[str]], author: str = "") -> Path:
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


def build_files(root: Path) -> dict[str, Path]:
    """The tender, a consultant's template (its author 刘顾问), a bid made from it (three paragraphs of
    the draft, another company's contact left in, the consultant's author, editor and template path),
    that bid fixed, and a clean bid of the bidder's own text."""
    tender = write_docx(root / "招标文件.docx", TENDER, author="招标代理")
    reference = write_docx(root / "顾问模板.docx", DRAFT, author="刘顾问")
    body = [*FORMS, TENDER[1], *OWN[:3], *DRAFT[:3], LEFTOVER, *OWN[3:], PERFORMANCE]
    planted = write_docx(root / "01-华东建设.docx", body, "刘顾问", "刘顾问", TEMPLATE_PATH)
    fixed_body = [*FORMS, TENDER[1], *OWN[:3], *REWRITTEN, *OWN[3:], PERFORMANCE]
    fixed = write_docx(root / "01-华东建设-改.docx", fixed_body, "张明", "")
    clean = write_docx(root / "02-华东建设-自写.docx", [*FORMS, TENDER[2], *paragraphs(540, 8), PERFORMANCE])
    return {"tender": tender, "reference": reference, "planted": planted, "fixed": fixed, "clean": clean}


HIDDEN = "此段为隐藏文字，打印时看不见。"
WHITE = "白色的文字写在白纸上看不见。"
ZERO_WIDTH_SENTENCE = "底板钢\u200b筋绑扎完成后由监理工程师进行隐蔽验收，合格后方可浇筑混凝土。"
COMMENT = "请把这里改成贵公司的业绩"
DELETED = "南京恒信市政工程有限公司承诺"


def _tracked_deletion(paragraph: Any, text: str, author: str) -> None:
    """Append ``text`` to a paragraph as a deletion tracked by ``author`` (Word's w:del)."""
    deleted = parse_xml(
        f'<w:del {nsdecls("w")} w:id="901" w:author="{author}" w:date="2024-06-10T09:00:00Z">'
        f"<w:r><w:delText>{text}</w:delText></w:r></w:del>"
    )
    paragraph._p.append(deleted)


def write_concealing_docx(path: Path, own: list[str], author: str = "刘顾问") -> Path:
    """A bid of the bidder's own text carrying leftovers: a hidden run, a white run, a sentence with a
    zero-width character, a comment and a tracked deletion, both by ``author``."""
    document = new_docx()
    for text in [*FORMS, *own]:
        document.add_paragraph(text)
    document.add_paragraph("施工部署说明。").add_run(HIDDEN).font.hidden = True
    document.add_paragraph().add_run(WHITE).font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF)
    document.add_paragraph(ZERO_WIDTH_SENTENCE)
    commented = document.add_paragraph("本工程质量目标为合格。")
    document.add_comment(commented.runs, text=COMMENT, author=author)
    _tracked_deletion(document.add_paragraph("项目部组织机构见附表。"), DELETED, author)
    document.core_properties.author = ""
    document.save(str(path))
    return path
