"""The Word document's plumbing the dossier is built on: an A4 document in Chinese type with the section
in its header and 第 X 页 共 Y 页 in its footer (fields Word fills in), and a table with a header row."""

from __future__ import annotations

from collections.abc import Sequence

from docx import Document as new_document
from docx.document import Document as DocxDocument
from docx.enum.section import WD_ORIENT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Cm, Pt
from docx.table import Table
from docx.text.paragraph import Paragraph

from bidcheck.ingest.folder import REPORT_AUTHOR

__all__ = ["add_table", "new_document_for"]

_FONT = "SimSun"


def new_document_for(section: str) -> DocxDocument:
    doc = new_document()
    doc.core_properties.author = REPORT_AUTHOR  # a report saved among a section's files is no bid
    doc.core_properties.title = f"围标串标检查报告　{section}"
    page = doc.sections[0]
    page.page_width, page.page_height = Cm(21), Cm(29.7)
    page.orientation = WD_ORIENT.PORTRAIT
    for side in ("left_margin", "right_margin"):
        setattr(page, side, Cm(2.2))
    normal = doc.styles["Normal"]
    normal.font.name, normal.font.size = _FONT, Pt(10.5)
    normal.element.get_or_add_rPr().get_or_add_rFonts().set(qn("w:eastAsia"), _FONT)
    for level in (1, 2):
        style = doc.styles[f"Heading {level}"]
        style.element.get_or_add_rPr().get_or_add_rFonts().set(qn("w:eastAsia"), _FONT)
    page.header.paragraphs[0].text = f"围标串标检查报告　{section}"
    _page_numbers(page.footer.paragraphs[0])
    return doc


def _page_numbers(paragraph: Paragraph) -> None:
    """第 X 页 共 Y 页, the numbers as Word fields."""
    paragraph.add_run("第 ")
    _field(paragraph, "PAGE")
    paragraph.add_run(" 页 共 ")
    _field(paragraph, "NUMPAGES")
    paragraph.add_run(" 页")


def _field(paragraph: Paragraph, code: str) -> None:
    field = OxmlElement("w:fldSimple")
    field.set(qn("w:instr"), code)
    run = OxmlElement("w:r")
    text = OxmlElement("w:t")
    text.text = "1"
    run.append(text)
    field.append(run)
    paragraph._p.append(field)


def add_table(
    doc: DocxDocument,
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    widths: Sequence[float],
    size: float = 0,
) -> Table:
    """A ruled table, its header bold, each column ``widths`` cm wide, its text ``size`` pt (0: the
    body's)."""
    table: Table = doc.add_table(rows=1 + len(rows), cols=len(header))
    table.style = "Table Grid"
    table.autofit = False
    for cell, text in zip(table.rows[0].cells, header, strict=True):
        cell.text = text
        for run in cell.paragraphs[0].runs:
            run.bold = True
    for line, row in zip(table.rows[1:], rows, strict=True):
        for cell, value in zip(line.cells, row, strict=True):
            cell.text = "" if value is None else str(value)
    for column, width in zip(table.columns, widths, strict=True):
        column.width = Cm(width)  # the grid, which LibreOffice lays out by; Word, by the cells
    for line in table.rows:
        for cell, width in zip(line.cells, widths, strict=True):
            cell.width = Cm(width)
            if size:
                for run in (r for paragraph in cell.paragraphs for r in paragraph.runs):
                    run.font.size = Pt(size)
    return table
