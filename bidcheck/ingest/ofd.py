"""OFD (GB/T 33190, the Chinese fixed-layout format): a zip of XML parts, text read page by page.

``OFD.xml`` names the document root (``Document.xml``), which lists the pages; each page's
``Content.xml`` holds ``TextObject``s placed in millimetres, whose ``TextCode``s carry the text. Text
pieces on one baseline form a line; lines are grouped into paragraphs as in PDFs. Text of template pages
(running headers and footers) is kept apart as header blocks. Pages that hold only images are listed in
``pages_without_text``. The pictures a page places (``ImageObject``s, whose ``ResourceID`` names a
``MultiMedia`` of the document's, public or page resources) are hashed with that page.
"""

from __future__ import annotations

import contextlib
import itertools
import posixpath
import re
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path

from lxml import etree

from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.layout import Line, page_blocks
from bidcheck.ingest.limits import Package, ReadLimits, TextBudget, open_package
from bidcheck.ingest.pictures import package_pictures
from bidcheck.model import Block, BlockKind, Document

__all__ = ["read_ofd"]

OFD = "http://www.ofdspec.org/2016"
_NS = {"ofd": OFD}
_INFO_FIELDS = {
    "Title": "title",
    "Author": "author",
    "Subject": "subject",
    "CreationDate": "created",
    "ModDate": "modified",
    "Creator": "application",
    "CreatorVersion": "app_version",
}


@dataclass(frozen=True)
class _Piece:
    """One ``TextCode``: its text, where its baseline starts (mm, y downwards), its width and size."""

    text: str
    x: float
    y: float
    width: float
    size: float


def read_ofd(path: Path, doc_id: str, name: str, limits: ReadLimits | None = None) -> Document:
    """Read an ``.ofd`` file into paragraph blocks with their pages, plus its document info.

    Raises:
        ReadError: The package is damaged, holds only page images (scans), or it (or its text) is larger
            than ``limits`` allow.
    """
    limits = limits or ReadLimits()
    try:
        with open_package(path, limits) as package:
            doc, placed = _read(package, TextBudget(limits.chars), path, doc_id, name)
    except zipfile.BadZipFile as exc:
        raise ReadError("OFD 文件已损坏（不是有效的压缩包）") from exc
    except etree.XMLSyntaxError as exc:
        raise ReadError("OFD 文件已损坏（XML 无法解析）") from exc
    return replace(doc, pictures=package_pictures(path, limits, placed)) if placed else doc


def _xml(package: Package, part: str) -> etree._Element:
    try:
        return package.parse(part.lstrip("/"))
    except KeyError as exc:
        raise ReadError(f"OFD 文件已损坏（缺少 {part}）") from exc


def _resolve(base_part: str, location: str) -> str:
    """A part named in ``base_part``: absolute from the package root, or relative to its folder."""
    location = location.strip().replace("\\", "/")
    if location.startswith("/"):
        return posixpath.normpath(location.lstrip("/"))
    return posixpath.normpath(posixpath.join(posixpath.dirname(base_part), location))


def _read(
    package: Package, budget: TextBudget, path: Path, doc_id: str, name: str
) -> tuple[Document, list[tuple[str, int]]]:
    """The document, and the parts of the pictures its pages place, each with its page."""
    root = _xml(package, "OFD.xml")
    body = root.find("ofd:DocBody", _NS)
    doc_root = body.findtext("ofd:DocRoot", namespaces=_NS) if body is not None else None
    if body is None or not doc_root:
        raise ReadError("OFD 文件已损坏（OFD.xml 没有指明文档）")
    document_part = _resolve("OFD.xml", doc_root)
    document = _xml(package, document_part)
    page_parts = [
        _resolve(document_part, page.get("BaseLoc", ""))
        for page in document.iterfind("ofd:Pages/ofd:Page", _NS)
    ]
    blocks: list[Block] = []
    empty_pages: list[int] = []
    images = 0
    media = _media(package, document, document_part)
    placed: list[tuple[str, int]] = []
    for number, part in enumerate(page_parts, start=1):
        content = _xml(package, part)
        placed += _placed_pictures(content, {**media, **_media(package, content, part)}, number)
        page_blocks = _blocks(_pieces(content), number, "body")
        for block in page_blocks:
            budget.take(block.text)
        if not page_blocks:
            empty_pages.append(number)
            images += int(content.find(".//ofd:ImageObject", _NS) is not None)
        blocks.extend(page_blocks)
    if not blocks and images:
        raise ReadError(f"OFD 文件只有页面图像（共 {images} 页为扫描件），暂不能识别其中的文字")
    blocks.extend(_template_blocks(package, document, document_part))
    doc = Document(
        id=doc_id,
        path=str(path),
        name=name,
        format="ofd",
        pages=len(page_parts),
        blocks=tuple(blocks),
        metadata=_metadata(body),
        pages_without_text=tuple(empty_pages),
    )
    return doc, placed


_RESOURCES = ("ofd:CommonData/ofd:DocumentRes", "ofd:CommonData/ofd:PublicRes", "ofd:PageRes")


def _media(package: Package, owner: etree._Element, owner_part: str) -> dict[str, str]:
    """The image resources a document or page lists: resource id -> the part holding the image. A
    resource file that is missing or broken lists none (a picture is never worth failing a file for)."""
    media: dict[str, str] = {}
    for node in (n for path in _RESOURCES for n in owner.iterfind(path, _NS)):
        res_part = _resolve(owner_part, node.text or "")
        with contextlib.suppress(KeyError, etree.XMLSyntaxError):
            res = package.parse(res_part)
            folder = res.get("BaseLoc") or ""
            for item in res.iterfind(".//ofd:MultiMedia", _NS):
                file = item.findtext("ofd:MediaFile", namespaces=_NS)
                if file and item.get("ID"):
                    media[item.get("ID", "")] = _resolve(res_part, posixpath.join(folder, file.strip()))
    return media


def _placed_pictures(content: etree._Element, media: dict[str, str], page: int) -> list[tuple[str, int]]:
    """The image parts a page places, with the page."""
    ids = (obj.get("ResourceID", "") for obj in content.iterfind(".//ofd:ImageObject", _NS))
    return [(media[i], page) for i in ids if i in media]


def _numbers(text: str | None) -> list[float]:
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:[eE]-?\d+)?", text or "")]


def _advances(delta_x: str | None, count: int, size: float) -> float:
    """The width of ``count`` characters: their ``DeltaX`` steps (``g n v`` repeats a step) plus one.
    Only the steps the characters take are counted: ``g 200000000 1`` on a line of ten is nine steps,
    never a list of 200 million."""
    need = max(count - 1, 0)
    total, taken, stepped = 0.0, 0, False
    tokens = (delta_x or "").split()
    i = 0
    while i < len(tokens) and (taken < need or not stepped):
        if tokens[i] == "g" and i + 2 < len(tokens):
            repeat, step = _numbers(tokens[i + 1]), _numbers(tokens[i + 2])
            if repeat and step:
                times = int(min(max(repeat[0], 0.0), need - taken))  # 1e400 is no count
                total, taken, stepped = total + times * step[0], taken + times, True
            i += 3
            continue
        values = _numbers(tokens[i])
        stepped = stepped or bool(values)
        for value in values[: need - taken]:
            total, taken = total + value, taken + 1
        i += 1
    return total + size if stepped else count * size


def _pieces(content: etree._Element) -> list[_Piece]:
    pieces = []
    for obj in content.iterfind(".//ofd:TextObject", _NS):
        box = [*_numbers(obj.get("Boundary")), 0.0, 0.0]
        size = (_numbers(obj.get("Size")) or [3.5])[0]
        for code in obj.iterfind("ofd:TextCode", _NS):
            text = code.text or ""
            if not text.strip():
                continue
            x = box[0] + (_numbers(code.get("X")) or [0.0])[0]
            y = box[1] + (_numbers(code.get("Y")) or [0.0])[0]
            pieces.append(_Piece(text, x, y, _advances(code.get("DeltaX"), len(text), size), size))
    return pieces


def _lines(pieces: list[_Piece]) -> list[Line]:
    """Pieces on one baseline (within half a character) joined left to right into lines, top down."""
    rows: list[list[_Piece]] = []
    for piece in sorted(pieces, key=lambda p: (p.y, p.x)):
        if rows and abs(rows[-1][0].y - piece.y) <= piece.size * 0.5:
            rows[-1].append(piece)
        else:
            rows.append([piece])
    lines = []
    for row in rows:
        row.sort(key=lambda p: p.x)
        text = row[0].text
        for prev, piece in itertools.pairwise(row):
            text += (" " if piece.x - (prev.x + prev.width) > piece.size else "") + piece.text
        right = max(p.x + p.width for p in row)
        lines.append(Line(text.strip(), row[0].x, right, -row[0].y, max(p.size for p in row)))
    return lines


def _blocks(pieces: list[_Piece], page: int, kind: BlockKind) -> list[Block]:
    return page_blocks(_lines(pieces), page, kind)


def _template_blocks(package: Package, document: etree._Element, document_part: str) -> list[Block]:
    """Text of template pages (running headers and footers), once each, kept out of the compared text."""
    blocks: list[Block] = []
    names = set(package.names())
    for template in document.iterfind("ofd:CommonData/ofd:TemplatePage", _NS):
        part = _resolve(document_part, template.get("BaseLoc", ""))
        if part in names:
            blocks.extend(_blocks(_pieces(_xml(package, part)), 1, "header"))
    return blocks


def _metadata(body: etree._Element) -> dict[str, str]:
    info = body.find("ofd:DocInfo", _NS)
    if info is None:
        return {}
    meta = {}
    for node in info:
        local = etree.QName(node).localname
        if local in _INFO_FIELDS and (node.text or "").strip():
            meta[_INFO_FIELDS[local]] = node.text.strip()
    return meta
