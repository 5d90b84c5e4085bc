"""Text PDFs through pypdfium2: lines with their positions, grouped into paragraphs, page by page.

A page with no text layer is recorded in ``pages_without_text`` for OCR.
"""

from __future__ import annotations

import itertools
import statistics
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium

from bidcheck.ingest.errors import ReadError
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


@dataclass(frozen=True)
class Line:
    """One text line of a page; coordinates in PDF points, ``top`` measured from the page bottom."""

    text: str
    left: float
    right: float
    top: float
    height: float


def read_pdf(path: Path, doc_id: str, name: str) -> Document:
    """Read a text PDF into paragraph blocks with their pages, plus its document info."""
    pdf = _open(path)
    try:
        blocks: list[Block] = []
        empty_pages: list[int] = []
        for index in range(len(pdf)):
            page_blocks = _page_blocks(pdf, index)
            if not page_blocks:
                empty_pages.append(index + 1)
            blocks.extend(page_blocks)
        meta = _metadata(pdf)
        pages = len(pdf)
    finally:
        pdf.close()
    return Document(
        id=doc_id,
        path=str(path),
        name=name,
        format="pdf",
        pages=pages,
        blocks=tuple(blocks),
        metadata=meta,
        pages_without_text=tuple(empty_pages),
    )


def _open(path: Path) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(path)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise ReadError("PDF 已加密，需要密码才能打开") from exc
        raise ReadError("PDF 文件已损坏或无法解析") from exc


def _page_blocks(pdf: pdfium.PdfDocument, index: int) -> list[Block]:
    page = pdf[index]
    try:
        textpage = page.get_textpage()
        try:
            lines = _page_lines(textpage)
        finally:
            textpage.close()
    finally:
        page.close()
    return [Block(text, "body", index + 1, 0) for text in group_paragraphs(lines)]


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


def group_paragraphs(lines: list[Line]) -> list[str]:
    """Join lines into paragraphs: a new one starts after a wide gap, an indent or a short line."""
    if not lines:
        return []
    heights = [ln.height for ln in lines if ln.height > 0] or [10.0]
    char = statistics.median(heights) or 10.0
    spacing = _typical_spacing(lines, char)
    left = min(ln.left for ln in lines)
    right = max(ln.right for ln in lines)
    paragraphs: list[list[str]] = [[lines[0].text]]
    for prev, line in itertools.pairwise(lines):
        gap = prev.top - line.top
        starts_new = (
            gap > spacing * 1.45
            or gap < 0
            or line.left > left + char * 1.2
            or prev.right < right - char * 2.5
        )
        if starts_new:
            paragraphs.append([line.text])
        else:
            paragraphs[-1].append(line.text)
    return [_join_lines(p) for p in paragraphs]


def _typical_spacing(lines: list[Line], char: float) -> float:
    gaps = [a.top - b.top for a, b in itertools.pairwise(lines) if a.top - b.top > 0]
    return min(statistics.median(gaps), char * 2.2) if gaps else char * 1.5


def _join_lines(parts: list[str]) -> str:
    out = parts[0]
    for part in parts[1:]:
        latin = out[-1:].isascii() and out[-1:].isalnum() and part[:1].isascii() and part[:1].isalnum()
        out += (" " if latin else "") + part
    return out


def _metadata(pdf: pdfium.PdfDocument) -> dict[str, str]:
    try:
        info = pdf.get_metadata_dict(skip_empty=True)
    except pdfium.PdfiumError:
        return {}
    return {_INFO_FIELDS[k]: str(v) for k, v in info.items() if k in _INFO_FIELDS}
