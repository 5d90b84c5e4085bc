"""Word ``.docx``: body paragraphs, table cells and text boxes in reading order, with pages.

Pages come from explicit page breaks, ``pageBreakBefore``, section breaks and Word's
``w:lastRenderedPageBreak`` markers (a rendered marker right after an explicit break is the same page
break and is not counted twice).
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from bidcheck.ingest.docx_look import RunLooks
from bidcheck.ingest.docx_marks import comment_texts, has_marks, paragraph_marks, revision_people
from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.identity import office_marks
from bidcheck.ingest.limits import ReadLimits, TextBudget, open_package
from bidcheck.ingest.pictures import package_pictures
from bidcheck.model import Block, BlockKind, Concealed, Document, Picture

__all__ = ["read_docx"]

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_NS = {"w": W}


def _q(tag: str) -> str:
    return f"{{{W}}}{tag}"


_COMMENTS = "word/comments.xml"
_SETTINGS_RELS = "word/_rels/settings.xml.rels"  # where Word names the template a document is attached to
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PICTURE_REFS = {  # an element that places a picture, and the attribute naming its part
    "{http://schemas.openxmlformats.org/drawingml/2006/main}blip": f"{{{_R}}}embed",
    "{urn:schemas-microsoft-com:vml}imagedata": f"{{{_R}}}id",
}


_PARAGRAPH_RSIDS = (_q("rsidR"), _q("rsidRPr"), _q("rsidRDefault"))  # the sessions that made a paragraph
# the tags the walk meets at every paragraph and run, named once
_P, _TBL, _SDT, _R_TAG, _T, _TAB = _q("p"), _q("tbl"), _q("sdt"), _q("r"), _q("t"), _q("tab")
_BREAKS, _RENDERED, _BOX = (_q("br"), _q("cr")), _q("lastRenderedPageBreak"), _q("txbxContent")
_FALLBACK = f"{{{MC}}}Fallback"
_RSID_TEXT = 60  # enough of a paragraph's text to find it again
_PARA_ID = "{http://schemas.microsoft.com/office/word/2010/wordml}paraId"  # Word 2010's id of a paragraph


@dataclass
class _Walk:
    """State while walking the body: the current page and the blocks found so far."""

    budget: TextBudget
    looks: RunLooks
    page: int = 1
    fresh_page: bool = True  # a page break was just counted and no text followed yet
    blocks: list[Block] = field(default_factory=list)
    rsid_texts: dict[str, str] = field(default_factory=dict)  # rsid -> the first paragraph it marks
    para_ids: dict[str, str] = field(default_factory=dict)  # w14:paraId -> the paragraph's start
    rows: int = 0  # table rows met so far
    place: tuple[int, int] = (0, 0)  # (row, column) of the table cell being walked
    para_style: str = ""  # the style of the paragraph being walked
    unseen: dict[str, list[str]] = field(default_factory=dict)  # concealed text of the block being gathered
    concealed: list[Concealed] = field(default_factory=list)
    pictures: list[tuple[str, int]] = field(default_factory=list)  # (relationship id, page) in order
    comments: dict[str, str] = field(default_factory=dict)  # comment id -> its author and text
    marked: bool = False  # the body holds tracked deletions or comments

    def new_page(self) -> None:
        self.page += 1
        self.fresh_page = True

    def rendered_break(self) -> None:
        if not self.fresh_page:
            self.new_page()

    def add(self, text: str, kind: BlockKind) -> None:
        text = text.strip()
        if text:
            self.budget.take(text)
            row, cell = self.place if kind == "table" else (0, 0)
            self.blocks.append(Block(text, kind, self.page, 0, row, cell))
            self.fresh_page = False
            for how, pieces in self.unseen.items():
                unseen = "".join(pieces).strip()
                if unseen:
                    self.concealed.append(Concealed(how, self.page, 0, unseen, len(self.blocks) - 1))
        self.unseen.clear()


def read_docx(path: Path, doc_id: str, name: str, limits: ReadLimits | None = None) -> Document:
    """Read a ``.docx`` file into blocks with pages, plus its document properties.

    Raises:
        ReadError: The package is damaged, or it (or its text) is larger than ``limits`` allow.
    """
    limits = limits or ReadLimits()
    try:
        with open_package(path, limits) as package:
            root = package.parse("word/document.xml")
            parts = {
                n: package.parse(n)
                for n in package.names()
                if (n.startswith(("word/header", "word/footer", "docProps/")) and n.endswith(".xml"))
                or n in ("word/settings.xml", "word/styles.xml", _SETTINGS_RELS, _COMMENTS)
            }
    except zipfile.BadZipFile as exc:
        raise ReadError("Word 文件已损坏（不是有效的 docx 压缩包）") from exc
    except KeyError as exc:
        raise ReadError("Word 文件已损坏（缺少正文 document.xml）") from exc
    walk = _Walk(TextBudget(limits.chars), RunLooks(parts.get("word/styles.xml"), root))
    walk.comments, walk.marked = comment_texts(parts.get(_COMMENTS)), has_marks(root)
    body = root.find(_q("body"))
    if body is None:
        raise ReadError("Word 文件已损坏（缺少正文）")
    _walk_body(body, walk, _section_starts_new_page(body))
    blocks = walk.blocks + _header_footer_blocks(parts)
    return Document(
        id=doc_id,
        path=str(path),
        name=name,
        format="docx",
        pages=walk.page,
        blocks=tuple(blocks),
        metadata=_properties(parts)
        | _attached_template(parts.get(_SETTINGS_RELS))
        | revision_people(root, parts.get(_COMMENTS)),
        rsids=_rsids(parts.get("word/settings.xml")),
        rsid_texts=tuple(sorted(walk.rsid_texts.items())),
        para_ids=tuple(walk.para_ids.items()),
        concealed=tuple(walk.concealed),
        pictures=_pictures(path, limits, walk.pictures),
        marks=office_marks(parts, name),
    )


def _section_starts_new_page(body: etree._Element) -> list[bool]:
    """For each section break in order: whether the following section starts on a new page."""
    sects = body.findall(".//w:pPr/w:sectPr", _NS) + body.findall("w:sectPr", _NS)
    starts = []
    for following in sects[1:]:
        kind = following.find("w:type", _NS)
        starts.append(kind is None or kind.get(_q("val")) != "continuous")
    return starts


def _walk_body(container: etree._Element, walk: _Walk, section_breaks: list[bool]) -> None:
    for child in container:
        if child.tag == _P:
            _walk_paragraph(child, walk, "body")
            ends_section = child.find("w:pPr/w:sectPr", _NS) is not None and section_breaks
            if ends_section and section_breaks.pop(0):
                walk.new_page()
        elif child.tag == _TBL:
            _walk_table(child, walk)
        elif child.tag == _SDT:
            content = child.find(_q("sdtContent"))
            if content is not None:
                _walk_body(content, walk, section_breaks)


def _walk_table(table: etree._Element, walk: _Walk) -> None:
    """Each row's cells in order; a table inside a cell gives rows of its own, then the cell goes on."""
    for tr in table.iterfind("w:tr", _NS):
        walk.rows += 1
        row = walk.rows
        for column, cell in enumerate(tr.iterfind("w:tc", _NS)):
            walk.place = (row, column)
            for child in cell:
                if child.tag == _P:
                    _walk_paragraph(child, walk, "table")
                elif child.tag == _TBL:
                    _walk_table(child, walk)
                    walk.place = (row, column)
    walk.place = (0, 0)


def _walk_paragraph(para: etree._Element, walk: _Walk, kind: BlockKind) -> None:
    """Collect a paragraph's text, counting the page breaks inside it, then its text boxes."""
    if para.find("w:pPr/w:pageBreakBefore", _NS) is not None and walk.blocks:
        walk.new_page()
    pieces: list[str] = []
    boxes: list[etree._Element] = []
    before = len(walk.blocks)
    if walk.looks.possible:  # the paragraph's style is needed only to resolve its runs' looks
        style = para.find("w:pPr/w:pStyle", _NS)
        walk.para_style = (style.get(_q("val")) or "") if style is not None else ""
    _walk_runs(para, pieces, boxes, walk, kind)
    _flush(pieces, walk, kind)
    if len(walk.blocks) > before:
        for name in _PARAGRAPH_RSIDS:
            rsid = (para.get(name) or "").upper()
            if len(rsid) == 8:
                walk.rsid_texts.setdefault(rsid, walk.blocks[before].text[:_RSID_TEXT])
        para_id = (para.get(_PARA_ID) or "").upper()
        if len(para_id) == 8:
            walk.para_ids.setdefault(para_id, walk.blocks[before].text[:_RSID_TEXT])
    if walk.marked:  # comments and tracked deletions belong to the paragraph's block (a wholly deleted
        at = before if len(walk.blocks) > before else len(walk.blocks) - 1  # one: the one before)
        walk.concealed += [
            Concealed(how, walk.page, 0, text, at) for how, text in paragraph_marks(para, walk.comments)
        ]
    for box in boxes:
        for box_para in box.iterfind(".//w:p", _NS):
            walk.add("".join(t.text or "" for t in box_para.iterfind(".//w:t", _NS)), "textbox")


def _walk_runs(
    node: etree._Element, pieces: list[str], boxes: list[etree._Element], walk: _Walk, kind: BlockKind
) -> None:
    """The paragraph's own text in order; text boxes are set aside, VML fallback copies skipped."""
    for child in node:
        tag = child.tag
        if tag == _T:
            pieces.append(child.text or "")
        elif tag == _TAB:
            pieces.append("\t")
        elif tag in _BREAKS:
            _walk_break(child, pieces, walk, kind)
        elif tag == _RENDERED:
            _flush(pieces, walk, kind)
            walk.rendered_break()
        elif tag == _BOX:
            boxes.append(child)
        elif tag in _PICTURE_REFS:
            walk.pictures.append((child.get(_PICTURE_REFS[tag]) or "", walk.page))
        elif tag != _FALLBACK and isinstance(tag, str):
            if tag == _R_TAG and walk.looks.possible:
                _note_unseen(child, walk)
            _walk_runs(child, pieces, boxes, walk, kind)


def _note_unseen(run: etree._Element, walk: _Walk) -> None:
    """Set aside the text of a run a printed page would not show (hidden, white, tiny)."""
    how = walk.looks.concealment(run, walk.para_style)
    if how:
        walk.unseen.setdefault(how, []).append("".join(t.text or "" for t in run.iterfind("w:t", _NS)))


def _walk_break(node: etree._Element, pieces: list[str], walk: _Walk, kind: BlockKind) -> None:
    if node.get(_q("type")) == "page":
        _flush(pieces, walk, kind)
        walk.new_page()
    else:
        pieces.append("\n")


def _flush(pieces: list[str], walk: _Walk, kind: BlockKind) -> None:
    """Emit the text gathered so far as a block (a page break splits a paragraph in two)."""
    walk.add("".join(pieces), kind)
    pieces.clear()


def _pictures(path: Path, limits: ReadLimits, placed: list[tuple[str, int]]) -> tuple[Picture, ...]:
    """The body's pictures (each part once, at its first page), hashed; a picture that cannot be read
    within the limits, or decoded, is left out."""
    if not placed:
        return ()
    try:
        with open_package(path, limits) as package:
            rels = package.parse("word/_rels/document.xml.rels")
    except (ReadError, KeyError, OSError, zipfile.BadZipFile, etree.XMLSyntaxError):
        return ()  # a picture is never worth failing a file for
    targets = {r.get("Id"): r.get("Target") or "" for r in rels}
    parts = ((targets.get(ref, ""), page) for ref, page in placed)
    return package_pictures(
        path,
        limits,
        ((t.removeprefix("/") if t.startswith("/") else f"word/{t}", page) for t, page in parts if t),
    )


def _header_footer_blocks(parts: dict[str, etree._Element]) -> list[Block]:
    blocks: list[Block] = []
    seen: set[tuple[str, str]] = set()
    for part_name in sorted(parts):
        if not part_name.startswith(("word/header", "word/footer")):
            continue
        kind: BlockKind = "header" if part_name.startswith("word/header") else "footer"
        for para in parts[part_name].iterfind(".//w:p", _NS):
            text = "".join(t.text or "" for t in para.iterfind(".//w:t", _NS)).strip()
            if text and (kind, text) not in seen:
                seen.add((kind, text))
                blocks.append(Block(text, kind, 1, 0))
    return blocks


_CORE_FIELDS = {
    "creator": "author",
    "lastModifiedBy": "last_modified_by",
    "created": "created",
    "modified": "modified",
    "revision": "revision",
    "title": "title",
    "lastPrinted": "last_printed",
}
_APP_FIELDS = {
    "Application": "application",
    "AppVersion": "app_version",
    "Company": "company",
    "Manager": "manager",
    "TotalTime": "total_edit_minutes",
    "Template": "template",
}


def _rsids(settings: etree._Element | None) -> tuple[str, ...]:
    """The editing-session ids Word keeps in ``settings.xml`` (``w:rsidRoot`` and ``w:rsids``), sorted."""
    if settings is None:
        return ()
    found = {
        (node.get(_q("val")) or "").upper()
        for node in settings.iterfind(".//w:rsids/*", _NS)
        if etree.QName(node).localname in ("rsidRoot", "rsid")
    }
    return tuple(sorted(v for v in found if len(v) == 8))


def _attached_template(rels: etree._Element | None) -> dict[str, str]:
    """The template the document is attached to, as Word recorded it (often a path on the PC of whoever
    made the file): ``{"attached_template": path}``, or nothing."""
    for node in rels if rels is not None else ():
        if str(node.get("Type", "")).endswith("/attachedTemplate") and (node.get("Target") or "").strip():
            return {"attached_template": str(node.get("Target")).strip()}
    return {}


def _properties(parts: dict[str, etree._Element]) -> dict[str, str]:
    """Document properties from ``docProps/core.xml`` and ``docProps/app.xml``."""
    meta: dict[str, str] = {}
    for part_name, fields in (("docProps/core.xml", _CORE_FIELDS), ("docProps/app.xml", _APP_FIELDS)):
        if part_name not in parts:
            continue
        for node in parts[part_name]:
            local = etree.QName(node).localname
            if local in fields and (node.text or "").strip():
                meta[fields[local]] = node.text.strip()
    return meta
