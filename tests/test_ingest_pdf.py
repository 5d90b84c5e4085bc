"""Reading text PDFs: pages, paragraphs, document info, pages without a text layer."""

from __future__ import annotations

from pathlib import Path

from bidcheck.ingest import read_document
from bidcheck.text import clean_document
from tests.builders import make_image_pdf, make_pdf, paragraphs


def test_pdf_paragraphs_are_grouped_and_located_by_page(tmp_path: Path) -> None:
    texts = paragraphs(7, 5)
    path = make_pdf(tmp_path / "bid.pdf", [texts[:3], texts[3:]], header="某某公司投标文件", author="王五")
    doc = clean_document(read_document(path, "d1"))
    assert doc.ok and doc.pages == 2
    body = [(b.text, b.page) for b in doc.compared_blocks()]
    assert body == [(texts[0], 1), (texts[1], 1), (texts[2], 1), (texts[3], 2), (texts[4], 2)]
    assert [b.paragraph for b in doc.compared_blocks()] == [1, 2, 3, 4, 5]
    assert doc.metadata["author"] == "王五"


def test_pdf_running_header_and_page_numbers_leave_the_compared_text(tmp_path: Path) -> None:
    texts = paragraphs(8, 8)
    pages = [texts[i : i + 2] for i in range(0, 8, 2)]
    doc = clean_document(read_document(make_pdf(tmp_path / "b.pdf", pages, header="滨江项目投标文件"), "d1"))
    kinds = {b.text: b.kind for b in doc.blocks}
    assert kinds["滨江项目投标文件"] == "header"
    assert kinds["第 3 页 共 4 页"] == "footer"
    assert [b.text for b in doc.compared_blocks()] == texts


def test_pdf_page_without_text_layer_is_recorded_for_ocr(tmp_path: Path) -> None:
    doc = read_document(make_image_pdf(tmp_path / "scan.pdf", pages=3), "d1")
    assert doc.status == "error"
    assert doc.pages_without_text == (1, 2, 3)
    assert "OCR" in (doc.error or "")


def test_mixed_pdf_keeps_text_pages_and_lists_the_others(tmp_path: Path) -> None:
    texts = paragraphs(9, 2)
    path = make_pdf(tmp_path / "mixed.pdf", [texts, [], texts], numbers=False)
    doc = read_document(path, "d1")
    assert doc.ok and doc.pages_without_text == (2,)


def test_quotation_marks_in_another_font_stay_where_they_stand(tmp_path: Path) -> None:
    """LibreOffice sets curly quotes in a Latin font; the text page puts them at the line's end, each
    after a space it made up (按 分段 开挖 “ ”). They are set back in their places, over lines too."""
    from docx import Document as new_docx

    from bidcheck.ingest.office import convert, find_soffice

    soffice = find_soffice()
    assert soffice is not None, "LibreOffice is needed for these tests (make test installs it)"
    texts = [
        "沟槽开挖按“分段、分幅”开挖的原则进行，并设置“安全警示”标志。" * 3,
        "本工程采用‘先地下、后地上’的顺序。",
        "“安全第一，预防为主”是本项目的方针。",
        "The contractor shall follow “Safety First” rules at all times on site.",
    ]
    document = new_docx()
    for text in texts:
        document.add_paragraph(text)
    document.save(str(tmp_path / "q.docx"))
    doc = read_document(convert(tmp_path / "q.docx", soffice, tmp_path / "pdf", "pdf"), "d1")
    assert [b.text for b in doc.compared_blocks()] == texts
