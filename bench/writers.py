"""Render chapters as realistic Chinese bid documents (.docx via python-docx, .pdf via reportlab).

Both writers put the title on a cover page, start every chapter on a new page, print a running
header and a page-number footer, and store document properties.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from docx import Document
from docx.document import Document as DocxDocument
from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_BREAK
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Pt
from docx.styles.style import CharacterStyle
from docx.text.paragraph import Paragraph
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen.canvas import Canvas

CJK_FONT = "STSong-Light"
_ZIP_DATE = (2024, 6, 1, 0, 0, 0)
_DOCX_TEXT_PROPS = ("title", "author", "last_modified_by", "comments", "subject", "keywords", "category")
_DOCX_DATE_PROPS = ("created", "modified")
_PDF_PROPS = ("author", "subject", "keywords", "creator")  # Canvas.setAuthor(), .setSubject(), ...
_NO_LINE_START = "，。、；：？！）》」』”’"

pdfmetrics.registerFont(UnicodeCIDFont(CJK_FONT))


@dataclass(frozen=True)
class Chapter:
    """One chapter of a bid document: a heading, body paragraphs and an optional table."""

    heading: str
    paragraphs: tuple[str, ...]
    table: tuple[tuple[str, ...], ...] = ()


def write_docx(
    path: Path,
    *,
    title: str,
    header: str | None,
    chapters: list[Chapter],
    props: dict[str, str] | None = None,
) -> None:
    """Write chapters as a Word document with a cover, page breaks, header and page-number footer.

    Args:
        path: Destination ``.docx`` file; parent folders are created.
        title: Cover text (``\n`` breaks lines), also the core ``title`` unless ``props`` has one.
        header: Running header text, or ``None`` for no header.
        chapters: Chapters, each starting on a new page after an explicit page break.
        props: Core properties: ``title``, ``author``, ``last_modified_by``, ``comments``, ``subject``,
            ``keywords``, ``category`` and ISO dates ``created`` / ``modified`` (default 2024-06-01).
    """
    doc = Document()
    normal = doc.styles["Normal"]
    assert isinstance(normal, CharacterStyle)
    normal.font.size = Pt(12)
    normal.element.get_or_add_rPr().get_or_add_rFonts().set(qn("w:eastAsia"), "宋体")
    cover = doc.add_paragraph()
    cover.alignment = WD_ALIGN_PARAGRAPH.CENTER
    cover.add_run(title).font.size = Pt(22)
    for chapter in chapters:
        _add_docx_chapter(doc, chapter)
    _add_header_footer(doc, header)
    _set_core_props(doc, title, props or {})
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(str(path))
    _normalize_zip(path)


def _add_docx_chapter(doc: DocxDocument, chapter: Chapter) -> None:
    """Append a page break, the chapter heading, its paragraphs and its table."""
    doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    doc.add_heading(chapter.heading, level=1)
    for text in chapter.paragraphs:
        paragraph = doc.add_paragraph(text)
        paragraph.paragraph_format.first_line_indent = Pt(24)
        paragraph.paragraph_format.space_after = Pt(6)
    if chapter.table:
        width = max(len(row) for row in chapter.table)
        table = doc.add_table(rows=len(chapter.table), cols=width)
        table.style = "Table Grid"
        for row, cells in zip(table.rows, chapter.table, strict=True):
            for cell, text in zip(row.cells, cells, strict=False):
                cell.text = text


def _add_header_footer(doc: DocxDocument, header: str | None) -> None:
    """Fill the section header and a centred footer "第 {PAGE} 页" with a real PAGE field."""
    section = doc.sections[0]
    if header is not None:
        section.header.paragraphs[0].text = header
    footer = section.footer.paragraphs[0]
    footer.alignment = WD_ALIGN_PARAGRAPH.CENTER
    footer.add_run("第 ")
    _add_field(footer, "PAGE")
    footer.add_run(" 页")


def _add_field(paragraph: Paragraph, instruction: str) -> None:
    """Append a complex field (fldChar begin, instrText, separate, cached result, end)."""
    begin, code, separate, end = (
        OxmlElement(tag) for tag in ("w:fldChar", "w:instrText", "w:fldChar", "w:fldChar")
    )
    begin.set(qn("w:fldCharType"), "begin")
    code.set(qn("xml:space"), "preserve")
    code.text = f" {instruction} "
    separate.set(qn("w:fldCharType"), "separate")
    end.set(qn("w:fldCharType"), "end")
    for element in (begin, code, separate):
        paragraph.add_run()._r.append(element)
    paragraph.add_run("1")
    paragraph.add_run()._r.append(end)


def _set_core_props(doc: DocxDocument, title: str, props: dict[str, str]) -> None:
    """Copy ``props`` into the document's core properties; unknown keys raise ``KeyError``."""
    core = doc.core_properties
    core.title = title.replace("\n", " ")
    core.created = core.modified = datetime(2024, 6, 1)
    for key, value in props.items():
        if key in _DOCX_DATE_PROPS:
            setattr(core, key, datetime.fromisoformat(value))
        elif key in _DOCX_TEXT_PROPS:
            setattr(core, key, value)
        else:
            raise KeyError(f"unsupported docx property: {key}")


def _normalize_zip(path: Path) -> None:
    """Rewrite the package with fixed member timestamps so that output is byte-reproducible."""
    with zipfile.ZipFile(path) as source:
        members = [(info.filename, source.read(info)) for info in source.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for name, data in members:
            target.writestr(zipfile.ZipInfo(name, _ZIP_DATE), data, zipfile.ZIP_DEFLATED)


def add_rsids(path: Path, rsids: list[str], *, mark_first_paragraph: bool = False) -> Path:
    """The .docx with these editing-session ids added to ``settings.xml``, as Word keeps them; with
    ``mark_first_paragraph``, its first paragraph marked as made in the last of them (``w:rsidR``)."""
    with zipfile.ZipFile(path) as source:
        members = [(info, source.read(info)) for info in source.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info, data in members:
            if info.filename == "word/settings.xml":
                ids = "".join(f'<w:rsid w:val="{r}"/>' for r in rsids)
                data = data.replace(b"<w:rsids>", b"<w:rsids>" + ids.encode(), 1)
            elif info.filename == "word/document.xml" and mark_first_paragraph:
                data = data.replace(b"<w:p>", f'<w:p w:rsidR="{rsids[-1]}">'.encode(), 1)
            target.writestr(info, data)
    return path


def add_para_ids(path: Path, ids: list[str]) -> Path:
    """The .docx with Word 2010's paragraph ids (``w14:paraId``) on its paragraphs, in order, one id a
    paragraph for as many ids as are given."""
    with zipfile.ZipFile(path) as source:
        members = [(info, source.read(info)) for info in source.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info, data in members:
            if info.filename == "word/document.xml":
                for para_id in ids:
                    data = data.replace(
                        b"<w:p>", f'<w:p w14:paraId="{para_id}" w14:textId="77777777">'.encode(), 1
                    )
            target.writestr(info, data)
    return path


_W, _H = A4
_MARGIN = 72.0
_TOP, _BOTTOM = _H - 84.0, 66.0
_SIZE, _LEADING, _PARA_GAP = 11.0, 18.0, 6.0

_Op = tuple[float, float, float, str]  # x, y, font size, text


class _Layout:
    """Places lines top-down on A4 pages; the result is a list of pages of draw operations."""

    def __init__(self) -> None:
        self.pages: list[list[_Op]] = []
        self.y = _TOP

    def new_page(self) -> None:
        self.pages.append([])
        self.y = _TOP

    def line(self, text: str, size: float, x: float, leading: float) -> None:
        if self.y - leading < _BOTTOM:
            self.new_page()
        self.y -= leading
        self.pages[-1].append((x, self.y, size, text))

    def centred(self, text: str, size: float, leading: float) -> None:
        for part in _wrap(text, _W - 2 * _MARGIN, size, 0.0):
            self.line(part, size, (_W - pdfmetrics.stringWidth(part, CJK_FONT, size)) / 2, leading)

    def paragraph(self, text: str, indent: float) -> None:
        for i, part in enumerate(_wrap(text, _W - 2 * _MARGIN, _SIZE, indent)):
            self.line(part, _SIZE, _MARGIN + (indent if i == 0 else 0.0), _LEADING)
        self.y -= _PARA_GAP


def _wrap(text: str, width: float, size: float, indent: float) -> list[str]:
    """Break text into lines that fit ``width`` (first line narrower by ``indent``), CJK style."""
    lines: list[str] = []
    current, used, limit = "", 0.0, width - indent
    for char in text:
        advance = pdfmetrics.stringWidth(char, CJK_FONT, size)
        if current and used + advance > limit and char not in _NO_LINE_START:
            lines.append(current)
            current, used, limit = "", 0.0, width
        current += char
        used += advance
    return [*lines, current] if current else lines


def _layout(title: str, chapters: list[Chapter]) -> list[list[_Op]]:
    """Lay out the cover and the chapters, each chapter starting on a fresh page."""
    layout = _Layout()
    layout.new_page()
    layout.y = _H * 0.62
    for line in title.split("\n"):
        layout.centred(line, 22.0, 34.0)
    for chapter in chapters:
        layout.new_page()
        layout.centred(chapter.heading, 15.0, 26.0)
        layout.y -= 10.0
        for text in chapter.paragraphs:
            layout.paragraph(text, 2 * _SIZE)
        for row in chapter.table:
            layout.paragraph("  ".join(row), 0.0)
    return layout.pages


def write_pdf(
    path: Path,
    *,
    title: str,
    header: str | None,
    chapters: list[Chapter],
    props: dict[str, str] | None = None,
) -> None:
    """Write chapters as an A4 PDF in the built-in STSong-Light CID font.

    Body text is 11 pt with a two-character first-line indent; every page carries the running
    header and a footer "第 N 页 共 M 页" (pages are laid out first, so M is known). The output is
    reproducible (``invariant=1``).

    Args:
        path: Destination ``.pdf`` file; parent folders are created.
        title: Cover text (``\n`` breaks lines), also the document Title unless ``props`` has one.
        header: Running header line, or ``None`` for no header.
        chapters: Chapters, each on a new page; table rows are drawn as text lines.
        props: Document info: ``title``, ``author``, ``subject``, ``keywords``, ``creator``;
            other keys (docx-only ones such as ``comments``) are ignored.
    """
    props = props or {}
    pages = _layout(title, chapters)
    path.parent.mkdir(parents=True, exist_ok=True)
    canvas = Canvas(str(path), pagesize=A4, invariant=1)
    canvas.setTitle(props.get("title", title.replace("\n", " ")))
    for key in _PDF_PROPS:
        if key in props:
            getattr(canvas, f"set{key.capitalize()}")(props[key])
    for number, ops in enumerate(pages, start=1):
        _draw_page(canvas, ops, header, f"第 {number} 页 共 {len(pages)} 页")
    canvas.save()


def _draw_page(canvas: Canvas, ops: list[_Op], header: str | None, footer: str) -> None:
    """Draw one page: header line and rule, body lines, centred footer."""
    if header is not None:
        canvas.setFont(CJK_FONT, 9)
        canvas.drawString(_MARGIN, _H - 50, header)
        canvas.setLineWidth(0.5)
        canvas.line(_MARGIN, _H - 55, _W - _MARGIN, _H - 55)
    for x, y, size, text in ops:
        canvas.setFont(CJK_FONT, size)
        canvas.drawString(x, y, text)
    canvas.setFont(CJK_FONT, 9)
    canvas.drawCentredString(_W / 2, 36, footer)
    canvas.showPage()


def with_office_identity(
    path: Path,
    *,
    hdid: str = "",
    user: str = "",
    icv: str = "",
    doc_id: str = "",
    doc_vars: dict[str, str] | None = None,
) -> Path:
    """A .docx with the identities WPS and Word write: ``docProps/custom.xml``'s
    ``KSOTemplateDocerSaveRecord`` (base64 JSON with ``hdid`` and ``userId``) and ``ICV``, as WPS saves
    them, ``w15:docId`` in ``word/settings.xml``, as Word 2013 and later do, and ``doc_vars`` as the
    document variables (``w:docVars``) a template or a bid-writing program sets."""
    import base64
    import json
    import zipfile

    record = (
        base64.b64encode(json.dumps({"hdid": hdid, "userId": user}).encode()).decode() if hdid or user else ""
    )
    props = [(name, value) for name, value in (("KSOTemplateDocerSaveRecord", record), ("ICV", icv)) if value]
    custom = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" '
        'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
        '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="KSOProductBuildVer">'
        "<vt:lpwstr>2052-12.1.0.16120</vt:lpwstr></property>"
        + "".join(
            f'<property fmtid="{{D5CDD505-2E9C-101B-9397-08002B2CF9AE}}" pid="{n}" name="{name}">'
            f"<vt:lpwstr>{value}</vt:lpwstr></property>"
            for n, (name, value) in enumerate(props, 3)
        )
        + "</Properties>"
    )
    with zipfile.ZipFile(path) as old:
        entries = {name: old.read(name) for name in old.namelist()}
    if props:
        entries["docProps/custom.xml"] = custom.encode()
        types = entries["[Content_Types].xml"].decode()
        override = (
            '<Override PartName="/docProps/custom.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/>'
        )
        entries["[Content_Types].xml"] = types.replace("</Types>", override + "</Types>").encode()
    if doc_vars:
        variables = "".join(f'<w:docVar w:name="{k}" w:val="{v}"/>' for k, v in doc_vars.items())
        settings = entries["word/settings.xml"].decode()
        entries["word/settings.xml"] = settings.replace(
            "</w:settings>", f"<w:docVars>{variables}</w:docVars></w:settings>"
        ).encode()
    if doc_id:
        w15 = 'xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml"'
        settings = entries["word/settings.xml"].decode()
        settings = settings.replace("<w:settings ", f"<w:settings {w15} ", 1)
        entries["word/settings.xml"] = settings.replace(
            "</w:settings>", f'<w15:docId w15:val="{{{doc_id}}}"/></w:settings>'
        ).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as new:
        for name, data in entries.items():
            new.writestr(name, data)
    return path


def set_pdf_id(path: Path, first: str, second: str) -> Path:
    """A PDF whose trailer ``/ID`` is ``[<first> <second>]`` (32 hex digits each, the length ReportLab
    writes, so that no offset of the file moves): a file made apart has its own first id; one edited
    from another keeps the other's first id with a second of its own."""
    import re

    data = path.read_bytes()
    found = re.search(rb"/ID\s*\[\s*<([0-9a-fA-F]{32})>\s*<([0-9a-fA-F]{32})>", data)
    assert found and len(first) == len(second) == 32
    data = data[: found.start(1)] + first.encode() + data[found.end(1) : found.start(2)] + second.encode()
    path.write_bytes(data + path.read_bytes()[found.end(2) :])
    return path
