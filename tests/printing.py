"""Printing a report as a panel would: LibreOffice turns a workbook or a dossier into a PDF (with
Carlito, it lays a workbook's columns out at Excel's widths), and each page's text and smallest type size
are read back."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
from openpyxl import load_workbook

from bidcheck.ingest.office import convert, find_soffice

__all__ = ["Printed", "assert_prints_readably", "printed"]


@dataclass(frozen=True)
class Printed:
    """A printed report: each page's text and the smallest size (points) of its characters."""

    pdf: Path
    texts: list[str]
    smallest: list[float]


def printed(xlsx: Path, work: Path) -> Printed:
    """Print ``xlsx`` (or a dossier) to a PDF in ``work`` through LibreOffice and read its pages."""
    soffice = find_soffice()
    assert soffice is not None, "LibreOffice is needed for these tests (make test installs it)"
    pdf = convert(xlsx, soffice, Path(tempfile.mkdtemp(prefix="print-", dir=work)), "pdf", 240)
    document = pdfium.PdfDocument(str(pdf))
    texts = [document[n].get_textpage().get_text_range() for n in range(len(document))]
    return Printed(pdf, texts, [_smallest_font(document[n]) for n in range(len(document))])


def _smallest_font(page: pdfium.PdfPage) -> float:
    text = page.get_textpage()
    sizes = [
        raw.FPDFText_GetFontSize(text, i)
        for i in range(raw.FPDFText_CountChars(text))
        if not chr(raw.FPDFText_GetUnicode(text, i)).isspace()
    ]
    return min(sizes, default=99.0)


def assert_prints_readably(xlsx: Path, work: Path, section: str) -> Printed:
    """Every page heads with the section and foots with its number, nothing is printed below 8 pt,
    and each sheet's first page holds its first and last columns' titles (one page wide)."""
    out = printed(xlsx, work)
    assert section in out.texts[0] and "第 1 页 共" in out.texts[0]
    small = {n + 1: s for n, s in enumerate(out.smallest) if s < 7.95}
    assert not small, small
    for sheet in load_workbook(xlsx).worksheets:
        page = next(t for t in out.texts if f"{section}　{sheet.title}" in t)
        first = "".join(page.split())  # a title wrapped in its cell is joined again
        titles = ["".join(str(c.value).split()) for c in sheet[1] if c.value]
        assert titles[0] in first and titles[-1] in first, sheet.title
    return out
