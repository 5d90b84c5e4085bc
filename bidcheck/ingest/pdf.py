"""PDFs through pypdfium2: text lines with their positions grouped into paragraphs, page by page.

A page without a text layer (a scan), or with only a few characters over a page-sized image (a scan
with a stamped page number), is read by OCR when OCR options are given (``bidcheck.ingest.scan``); a
page that gives no text even then is recorded in ``pages_without_text``.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.layout import Line, group_paragraphs
from bidcheck.ingest.scan import OcrOptions, PageOcr
from bidcheck.model import Block, Document

__all__ = ["Line", "group_paragraphs", "read_pdf"]

_INFO_FIELDS = {
    "Author": "author",
    "Creator": "application",
    "Producer": "producer",
    "Title": "title",
    "CreationDate": "created",
    "ModDate": "modified",
    "Subject": "subject",
}
_FEW_CHARS = 20  # a page with fewer characters than this over a large image is a scan
_LARGE_IMAGE = 0.5  # share of the page an image must cover to count as a scan


def read_pdf(path: Path, doc_id: str, name: str, ocr: OcrOptions | None = None) -> Document:
    """Read a PDF into paragraph blocks with their pages, plus its document info.

    Args:
        path: The file.
        doc_id: The document's id.
        name: The name shown for it.
        ocr: How to read scanned pages; ``None`` reads the text layer only.

    Raises:
        ReadError: The file is encrypted or damaged, or the OCR engine is missing.
        OcrNeeded: ``ocr.defer`` is set and scanned pages are not in the OCR cache yet.
    """
    pdf = _open(path)
    try:
        pages = len(pdf)
        scanner = PageOcr(path, "pdf", pages, ocr) if ocr is not None else None
        blocks: list[Block] = []
        empty_pages: list[int] = []
        for index in range(pages):
            page_blocks, scanned = _page_blocks(pdf, index)
            if scanned and scanner is not None:
                page_blocks = scanner.blocks(index)
            if not page_blocks:
                empty_pages.append(index + 1)
            blocks.extend(page_blocks)
        meta = _metadata(pdf)
    finally:
        pdf.close()
    if scanner is not None:
        scanner.finish()
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
    )


def _open(path: Path) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(path)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise ReadError("PDF 已加密，需要密码才能打开") from exc
        raise ReadError("PDF 文件已损坏或无法解析") from exc


def _page_blocks(pdf: pdfium.PdfDocument, index: int) -> tuple[list[Block], bool]:
    """The page's text-layer paragraphs, and whether the page looks scanned (to be read by OCR)."""
    page = pdf[index]
    try:
        textpage = page.get_textpage()
        try:
            lines = _page_lines(textpage)
        finally:
            textpage.close()
        chars = sum(len(ln.text) for ln in lines)
        scanned = chars < _FEW_CHARS and (
            _image_share(page) >= _LARGE_IMAGE or (not lines and _has_marks(page))
        )
    finally:
        page.close()
    return [Block(text, "body", index + 1, 0) for text in group_paragraphs(lines)], scanned


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
