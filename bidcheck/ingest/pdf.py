"""PDFs through pypdfium2: text lines with their positions grouped into paragraphs, page by page.

A page without a text layer (a scan), or with only a few characters over a page-sized image (a scan
with a stamped page number), is read by OCR when OCR options are given (``bidcheck.ingest.scan``); a
page that gives no text even then is recorded in ``pages_without_text``.
"""

from __future__ import annotations

import ctypes
import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.identity import pdf_marks
from bidcheck.ingest.layout import Line, page_blocks, row_cuts
from bidcheck.ingest.limits import ReadLimits, TextBudget
from bidcheck.ingest.pictures import MAX_PICTURES, pdf_page_pictures
from bidcheck.ingest.scan import OcrOptions, PageOcr, render_scale, unread_message
from bidcheck.model import Block, Concealed, Document, Picture

__all__ = ["Line", "read_pdf"]

_INFO_FIELDS = {
    "Author": "author",
    "Creator": "application",
    "Producer": "producer",
    "Title": "title",
    "CreationDate": "created",
    "ModDate": "modified",
    "Subject": "subject",
}
# XMP identifiers, as an element or an attribute: ``<xmpMM:DocumentID>uuid:…</…>`` or ``xmpMM:DocumentID="…"``
_XMP_IDS = {b"DocumentID": "xmp_document_id", b"OriginalDocumentID": "xmp_original_document_id"}
_XMP_ID = re.compile(rb'(?<!/)xmpMM:(DocumentID|OriginalDocumentID)(?:>|=["\'])\s*([^<"\'\s]{4,200})')
_XMP_MARK = b"xmpMM:"  # every identifier's match begins with it
_XMP_BYTES = 64 << 20  # XMP stands near the start or the end of a file; a larger file is searched no further
_FEW_CHARS = 20  # a page with fewer characters than this over a large image is a scan
_LARGE_IMAGE = 0.5  # share of the page an image must cover to count as a scan


def read_pdf(
    path: Path, doc_id: str, name: str, ocr: OcrOptions | None = None, limits: ReadLimits | None = None
) -> Document:
    """Read a PDF into paragraph blocks with their pages, plus its document info.

    Args:
        path: The file.
        doc_id: The document's id.
        name: The name shown for it.
        ocr: How to read scanned pages; ``None`` reads the text layer only.
        limits: How much text the document may hold (default: ``ReadLimits()``).

    Raises:
        ReadError: The file is encrypted or damaged, the OCR engine is missing, the file holds more text
            than ``limits`` allow, or no page gave text and some could not be read (too large for OCR).
        OcrNeeded: ``ocr.defer`` is set and scanned pages are not in the OCR cache yet.
    """
    budget = TextBudget((limits or ReadLimits()).chars)
    pdf = _open(path)
    try:
        pages = len(pdf)
        scanner = PageOcr(path, "pdf", pages, ocr) if ocr is not None else None
        blocks: list[Block] = []
        empty_pages: list[int] = []
        concealed: list[Concealed] = []
        pictures: list[Picture] = []
        for index in range(pages):
            read = _read_page(pdf, index, MAX_PICTURES - len(pictures))
            on_page = read.blocks
            if read.scanned and scanner is not None:
                on_page = _scanned_blocks(scanner, index, read.size)
            if not on_page:
                empty_pages.append(index + 1)
            for block in on_page:
                budget.take(block.text)
            concealed += _placed(read.unseen, on_page, index + 1, len(blocks))
            pictures += read.pictures
            blocks.extend(on_page)
        meta = _metadata(pdf) | _xmp_ids(path)
    finally:
        pdf.close()
    if scanner is not None:
        scanner.finish()
        scanner.check_read(blocks)
    return Document(
        id=doc_id,
        path=str(path),
        name=name,
        format="pdf",
        pages=pages,
        blocks=tuple(blocks),
        metadata=meta,
        ocr_pages=scanner.done if scanner is not None else 0,
        pages_without_text=tuple(empty_pages),
        concealed=tuple(concealed),
        pictures=tuple(pictures + (scanner.pictures if scanner is not None else [])),
        marks=pdf_marks(path, name, meta.get("created", "")),
    )


def _open(path: Path) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(path)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise ReadError("PDF 已加密，需要密码才能打开") from exc
        raise ReadError("PDF 文件已损坏或无法解析") from exc


def _scanned_blocks(scanner: PageOcr, index: int, size: tuple[float, float]) -> list[Block]:
    """A scanned page's paragraphs by OCR; none for a page too large to render (the scanner notes why)."""
    if render_scale(*size) is None:
        scanner.skip(unread_message(index + 1, *size))
        return []
    return scanner.blocks(index)


@dataclass(frozen=True)
class _Page:
    """What one page gives: its text-layer paragraphs, whether it looks scanned (to be read by OCR), its
    size in points, the text on it a reader does not see (kind, text), and its pictures."""

    blocks: list[Block]
    scanned: bool
    size: tuple[float, float]
    unseen: list[tuple[str, str]]
    pictures: list[Picture]


def _read_page(pdf: pdfium.PdfDocument, index: int, pictures: int) -> _Page:
    """Read one page (and at most ``pictures`` of its pictures)."""
    page = pdf[index]
    try:
        size = page.get_size()
        objects = _page_objects(page)
        textpage = page.get_textpage()
        try:
            lines = _page_lines(textpage)
            unseen = _unseen_text(page, textpage, objects, size) if lines else []
        finally:
            textpage.close()
        chars = sum(len(ln.text) for ln in lines)
        scanned = chars < _FEW_CHARS and (
            _image_share(objects.images, size) >= _LARGE_IMAGE or (not lines and objects.marks)
        )
        found = pdf_page_pictures(page, objects.images, index + 1, pictures)
    finally:
        page.close()
    return _Page(page_blocks(lines, index + 1), scanned, size, unseen, found)


@dataclass(frozen=True)
class _Objects:
    """A page's text and image objects as pdfium's handles (inside form XObjects too, ``_DEPTH`` levels
    deep), each kind in the order pypdfium2's ``get_objects`` yields them; ``marks``: whether anything
    at all is drawn on the page (text drawn as outlines has no text layer)."""

    texts: list[Any]
    images: list[Any]
    marks: bool


_DEPTH = 3  # form XObjects nested deeper than this are not searched


def _page_objects(page: pdfium.PdfPage) -> _Objects:
    """Walk a page's objects once through pdfium's own calls: pypdfium2's ``get_objects`` builds a
    Python object for every object of the page at every walk (a text and an image walk cost a bid of
    34 pages about 13 ms; this walk, 3)."""
    texts: list[Any] = []
    images: list[Any] = []
    count = _collect(page.raw, pdfium_c.FPDFPage_CountObjects, pdfium_c.FPDFPage_GetObject, 0, texts, images)
    return _Objects(texts, images, count > 0)


def _collect(parent: Any, count: Any, get: Any, level: int, texts: list[Any], images: list[Any]) -> int:
    """Append the text and image objects of a page or form object (and of the forms inside it) in
    order; the number of objects directly in it."""
    objects = count(parent)
    if objects < 0:
        raise pdfium.PdfiumError("Failed to get number of pageobjects.")
    for i in range(objects):
        obj = get(parent, i)
        if not obj:
            raise pdfium.PdfiumError("Failed to get pageobject.")
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_TEXT:
            texts.append(obj)
        elif kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            images.append(obj)
        elif kind == pdfium_c.FPDF_PAGEOBJ_FORM and level < _DEPTH - 1:
            _collect(
                obj,
                pdfium_c.FPDFFormObj_CountObjects,
                pdfium_c.FPDFFormObj_GetObject,
                level + 1,
                texts,
                images,
            )
        elif kind == pdfium_c.FPDF_PAGEOBJ_UNKNOWN:
            raise pdfium.PdfiumError("Failed to determine pageobject type.")
    return int(objects)


class _Bounds:
    """Four numbers pdfium writes an object's bounds into: one set for a page's objects, not four new
    ones an object (a bid's 1,200 text objects: a third of their walk)."""

    def __init__(self) -> None:
        self.left, self.bottom, self.right, self.top = (ctypes.c_float() for _ in range(4))

    def of(self, obj: Any) -> tuple[float, float, float, float]:
        """An object's left, bottom, right and top on its page."""
        if not pdfium_c.FPDFPageObj_GetBounds(obj, self.left, self.bottom, self.right, self.top):
            raise pdfium.PdfiumError("Failed to locate pageobject.")
        return self.left.value, self.bottom.value, self.right.value, self.top.value


def _unseen_text(
    page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, objects: _Objects, size: tuple[float, float]
) -> list[tuple[str, str]]:
    """Text drawn invisibly (render mode 3) or wholly outside the page: (``invisible`` or ``off_page``,
    text). Invisible text over a page-sized image is a scan's recognised text layer, and no sign."""
    found: list[tuple[str, str]] = []
    width, height = size
    bounds, mode, invisible = (
        _Bounds(),
        pdfium_c.FPDFTextObj_GetTextRenderMode,
        pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE,
    )
    for obj in objects.texts:
        left, bottom, right, top = bounds.of(obj)
        if right < 0 or left > width or top < 0 or bottom > height:
            found.append(("off_page", _text_of(page, textpage, obj)))
        elif mode(obj) == invisible:
            found.append(("invisible", _text_of(page, textpage, obj)))
    if any(kind == "invisible" for kind, _ in found) and _image_share(objects.images, size) >= _LARGE_IMAGE:
        found = [f for f in found if f[0] != "invisible"]
    return [f for f in found if f[1]]


def _text_of(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, obj: Any) -> str:
    """The text of one text object, stripped."""
    text: str = pdfium.PdfObject(obj, page=page, pdf=page.pdf, textpage=textpage).extract()
    return text.strip()


def _placed(unseen: list[tuple[str, str]], blocks: list[Block], page: int, first: int) -> list[Concealed]:
    """Unseen text of a page as findings, each marked with the block holding it (``first`` is the page's
    first block's index in the document), or the page's first block."""
    out: list[Concealed] = []
    for kind, text in unseen:
        probe = "".join(text.split())[:12]
        at = next((n for n, b in enumerate(blocks) if probe in "".join(b.text.split())), 0)
        block = first + at if blocks else -1
        if out and (out[-1].kind, out[-1].block) == (kind, block):  # a paragraph's lines, one finding
            out[-1] = Concealed(kind, page, 0, out[-1].text + text, block)
        else:
            out.append(Concealed(kind, page, 0, text, block))
    return out


def _image_share(images: list[Any], size: tuple[float, float]) -> float:
    """The largest share of the page that one of its images covers."""
    width, height = size
    best = 0.0
    bounds = _Bounds()
    for obj in images:
        left, bottom, right, top = bounds.of(obj)
        best = max(best, (right - left) * (top - bottom) / max(width * height, 1.0))
    return best


def _page_lines(textpage: pdfium.PdfTextPage) -> list[Line]:
    """Split the page text into lines and look up each line's box from its first and last characters'
    loose boxes (as pypdfium2's ``get_charbox(loose=True)`` gives them), read into one structure."""
    text = textpage.get_text_range()
    lines: list[Line] = []
    offset = 0
    box, handle, charbox = pdfium_c.FS_RECTF(), textpage.raw, pdfium_c.FPDFText_GetLooseCharBox
    for raw in text.split("\r\n"):
        stripped = raw.strip()
        if stripped:
            first = offset + raw.find(stripped)  # after the leading blanks
            if not charbox(handle, first, box):
                raise pdfium.PdfiumError("Failed to get charbox.")
            left, top = box.left, box.top
            if not charbox(handle, first + len(stripped) - 1, box):
                raise pdfium.PdfiumError("Failed to get charbox.")
            bottom, right = box.bottom, box.right
            starts: tuple[float, ...] = ()
            if _STRAY_TAIL.search(stripped):
                stripped, right = _in_place(textpage, offset, raw, right)
            elif row_cuts(stripped) is not None:  # a table row: where its cells start
                starts = _piece_starts(textpage, first, stripped)
            lines.append(Line(stripped, left, right, max(top, bottom), abs(top - bottom), starts))
        offset += len(raw) + 2
    return lines


def _piece_starts(textpage: pdfium.PdfTextPage, first: int, text: str) -> tuple[float, ...]:
    """The left edge of each piece of a line between spaces (``text``, its first character at ``first``):
    where a table row's cells start; nothing when a character's box cannot be had."""
    box, handle = pdfium_c.FS_RECTF(), textpage.raw
    starts = []
    for match in re.finditer(r"\S+", text):
        if not pdfium_c.FPDFText_GetLooseCharBox(handle, first + match.start(), box):
            return ()
        starts.append(box.left)
    return tuple(starts)


# Quotation marks a PDF writer set in another font than the line (LibreOffice's curly quotes) that the
# text page puts at the line's end, each after a space it made up: ``按 分段 开挖 “ ”``
_STRAY_TAIL = re.compile(r"\S.*?(?: [“”‘’「」『』《》〈〉\"'])+$")


def _in_place(textpage: pdfium.PdfTextPage, offset: int, raw: str, right: float) -> tuple[str, float]:
    """A line whose quotation marks were put at its end (``raw``, its first character at ``offset``), its
    characters set back in the order of their places on the line (a gap wider than half a character
    stays a space), and its right edge; as it was when a character's box cannot be had."""
    box, handle = pdfium_c.FS_RECTF(), textpage.raw
    placed: list[tuple[float, float, float, str]] = []
    for k, char in enumerate(raw):
        if pdfium_c.FPDFText_IsGenerated(handle, offset + k) or char.isspace():
            continue
        if not pdfium_c.FPDFText_GetLooseCharBox(handle, offset + k, box):
            return raw.strip(), right
        placed.append((box.left, box.right, abs(box.top - box.bottom), char))
    if not placed:
        return raw.strip(), right
    placed.sort(key=lambda c: c[0])
    out = [placed[0][3]]
    for (_l, end, height, _c), (start, _r, _h, char) in itertools.pairwise(placed):
        out.append((" " if start - end > height / 2 else "") + char)
    return "".join(out), max(c[1] for c in placed)


def _metadata(pdf: pdfium.PdfDocument) -> dict[str, str]:
    try:
        info = pdf.get_metadata_dict(skip_empty=True)
    except pdfium.PdfiumError:
        return {}
    return {_INFO_FIELDS[k]: str(v) for k, v in info.items() if k in _INFO_FIELDS}


def _xmp_ids(path: Path) -> dict[str, str]:
    """The XMP document identifiers of an uncompressed metadata stream (the usual form); none when
    the stream is compressed, missing or broken (they are hints, never worth failing a file for)."""
    try:
        with path.open("rb") as file:
            data = file.read(_XMP_BYTES)
    except OSError:
        return {}
    found: dict[str, str] = {}
    at = data.find(_XMP_MARK)
    while at >= 0:  # the matches ``finditer`` gives, tried only where the prefix stands (a file is
        match = _XMP_ID.match(data, at)  # searched byte by byte for it in a tenth of the regex's time)
        if match:
            found.setdefault(_XMP_IDS[match.group(1)], match.group(2).decode("ascii", "replace"))
        at = data.find(_XMP_MARK, match.end() if match else at + 1)
    return found
