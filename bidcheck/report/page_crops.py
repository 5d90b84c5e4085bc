"""Pictures of the evidence on the page: the part of a PDF page where a passage stands, its first
characters highlighted, for the dossier (a panel sees the passage as the bid prints it).

A passage is found on its page through the PDF's text layer; a scanned page (no text layer, its text
read by OCR) gives the page itself, unmarked. Word files have no page image without a word processor:
their passages are quoted, not pictured.
"""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw

from bidcheck.model import Document

__all__ = ["passage_crop"]

_SCALE = 1.6  # pixels per point: about 115 dpi
_MARGIN = 140  # pixels kept above and below the highlighted lines
_HIGHLIGHT = (255, 214, 0, 90)
_NEEDLES = (24, 12, 6)  # characters of the passage tried in turn


def _source(doc: Document, page: int) -> tuple[Path, int] | None:
    """The PDF file and its page (1-based) holding a page of a document, when that file is a PDF."""
    if doc.parts:
        name, in_file = doc.page_of_file(page)
        part = next((p for p in doc.parts if p.name == name), None)
        if part is None or part.format != "pdf":
            return None
        return Path(doc.path) / name, in_file
    return (Path(doc.path), page) if doc.format == "pdf" else None


def passage_crop(doc: Document, page: int, text: str) -> bytes | None:
    """A PNG of the part of the page where ``text`` begins, highlighted; the page unmarked when its text
    layer does not hold it (a scanned page); ``None`` for a page of no PDF, or a file gone since."""
    found = _source(doc, page)
    if found is None:
        return None
    path, in_file = found
    try:
        pdf = pdfium.PdfDocument(str(path))
    except (pdfium.PdfiumError, OSError):
        return None
    try:
        if not 1 <= in_file <= len(pdf):
            return None
        return _cropped(pdf[in_file - 1], text)
    finally:
        pdf.close()


def _boxes(page: pdfium.PdfPage, text: str) -> list[tuple[float, float, float, float]]:
    """The boxes (left, bottom, right, top, in points) of the first characters of ``text`` on the page."""
    textpage = page.get_textpage()
    plain = "".join(text.split())
    for length in _NEEDLES:
        if len(plain) < length:
            continue
        searcher = textpage.search(plain[:length])
        hit = searcher.get_next()
        if hit:
            start, count = hit
            return [textpage.get_charbox(i) for i in range(start, start + count)]
    return []


def _cropped(page: pdfium.PdfPage, text: str) -> bytes:
    height = page.get_height()
    image = page.render(scale=_SCALE).to_pil().convert("RGBA")
    boxes = _boxes(page, text)
    if boxes:
        overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))  # blended over the page, the text shows
        layer = ImageDraw.Draw(overlay)
        for left, bottom, right, top in boxes:
            layer.rectangle(
                ((left * _SCALE, (height - top) * _SCALE), (right * _SCALE, (height - bottom) * _SCALE)),
                fill=_HIGHLIGHT,
            )
        image = Image.alpha_composite(image, overlay)
        upper = min((height - top) * _SCALE for _l, _b, _r, top in boxes)
        lower = max((height - bottom) * _SCALE for _l, bottom, _r, _t in boxes)
        image = image.crop(
            (0, max(0, int(upper) - _MARGIN), image.width, min(image.height, int(lower) + _MARGIN))
        )
    out = io.BytesIO()
    image.convert("RGB").save(out, "PNG", optimize=True)
    return out.getvalue()
