"""PDFs through pypdfium2: text lines with their positions grouped into paragraphs, page by page.

A page without a text layer (a scan), or with only a few characters over a page-sized image (a scan
with a stamped page number), is read by OCR when OCR options are given (``bidcheck.ingest.scan``); a
page that gives no text even then is recorded in ``pages_without_text``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.layout import Line, page_blocks
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
        textpage = page.get_textpage()
        try:
            lines = _page_lines(textpage)
            unseen = _unseen_text(page, textpage, size) if lines else []
        finally:
            textpage.close()
        chars = sum(len(ln.text) for ln in lines)
        scanned = chars < _FEW_CHARS and (
            _image_share(page) >= _LARGE_IMAGE or (not lines and _has_marks(page))
        )
        found = pdf_page_pictures(page, index + 1, pictures)
    finally:
        page.close()
    return _Page(page_blocks(lines, index + 1), scanned, size, unseen, found)


def _unseen_text(
    page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, size: tuple[float, float]
) -> list[tuple[str, str]]:
    """Text drawn invisibly (render mode 3) or wholly outside the page: (``invisible`` or ``off_page``,
    text). Invisible text over a page-sized image is a scan's recognised text layer, and no sign."""
    found: list[tuple[str, str]] = []
    width, height = size
    for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_TEXT,), max_depth=3, textpage=textpage):
        left, bottom, right, top = obj.get_bounds()
        if right < 0 or left > width or top < 0 or bottom > height:
            found.append(("off_page", obj.extract().strip()))
        elif pdfium_c.FPDFTextObj_GetTextRenderMode(obj) == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE:
            found.append(("invisible", obj.extract().strip()))
    if any(kind == "invisible" for kind, _ in found) and _image_share(page) >= _LARGE_IMAGE:
        found = [f for f in found if f[0] != "invisible"]
    return [f for f in found if f[1]]


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


def _image_share(page: pdfium.PdfPage) -> float:
    """The largest share of the page that one image covers."""
    width, height = page.get_size()
    best = 0.0
    for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=3):
        left, bottom, right, top = obj.get_bounds()
        best = max(best, (right - left) * (top - bottom) / max(width * height, 1.0))
    return best


def _has_marks(page: pdfium.PdfPage) -> bool:
    """Whether anything is drawn on the page (text drawn as outlines has no text layer)."""
    return next(iter(page.get_objects(max_depth=1)), None) is not None


def _page_lines(textpage: pdfium.PdfTextPage) -> list[Line]:
    """Split the page text into lines and look up each line's box from its characters."""
    text = textpage.get_text_range()
    lines: list[Line] = []
    offset = 0
    for raw in text.split("\r\n"):
        stripped = raw.strip()
        if stripped:
            first = offset + (len(raw) - len(raw.lstrip()))
            last = offset + len(raw.rstrip()) - 1
            left, _, _, top = textpage.get_charbox(first, loose=True)
            _, bottom, right, _ = textpage.get_charbox(last, loose=True)
            lines.append(Line(stripped, left, right, max(top, bottom), abs(top - bottom)))
        offset += len(raw) + 2
    return lines


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
    for match in _XMP_ID.finditer(data):
        key = _XMP_IDS[match.group(1)]
        found.setdefault(key, match.group(2).decode("ascii", "replace"))
    return found
