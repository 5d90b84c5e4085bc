"""Reading .docx: reading order, tables, text boxes, headers/footers, pages, properties."""

from __future__ import annotations

from pathlib import Path

from docx import Document as new_docx
from docx.enum.text import WD_BREAK
from docx.oxml import parse_xml

from bidcheck.ingest import read_document

W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
MC_NS = 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'
V_NS = 'xmlns:v="urn:schemas-microsoft-com:vml"'
WPS_NS = 'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"'


def _textbox_run(text: str) -> str:
    """A run holding a text box as Word writes it: a DrawingML choice and a VML fallback copy."""
    box = f"<w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent>"
    return (
        f"<w:r {W_NS} {MC_NS} {V_NS} {WPS_NS}><mc:AlternateContent>"
        f'<mc:Choice Requires="wps"><w:drawing><wps:txbx>{box}</wps:txbx></w:drawing></mc:Choice>'
        f"<mc:Fallback><w:pict><v:textbox>{box}</v:textbox></w:pict></mc:Fallback>"
        f"</mc:AlternateContent></w:r>"
    )


def _build(path: Path) -> Path:
    doc = new_docx()
    doc.add_paragraph("第一页正文。")
    table = doc.add_table(rows=2, cols=2)
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            cell.text = f"单元格{r}{c}"
    para = doc.add_paragraph("带文本框的段落。")
    para._p.append(parse_xml(_textbox_run("文本框里的文字")))
    brk = doc.add_paragraph()
    brk.add_run().add_break(WD_BREAK.PAGE)
    after = doc.add_paragraph()
    after._p.append(parse_xml(f"<w:r {W_NS}><w:lastRenderedPageBreak/><w:t>第二页开头。</w:t></w:r>"))
    rendered = doc.add_paragraph()
    rendered._p.append(
        parse_xml(f"<w:r {W_NS}><w:lastRenderedPageBreak/><w:t>第三页（排版分页）。</w:t></w:r>")
    )
    ending = doc.add_paragraph("第三页末段，本节结束。")
    ending._p.get_or_add_pPr().append(parse_xml(f'<w:sectPr {W_NS}><w:type w:val="nextPage"/></w:sectPr>'))
    doc.add_paragraph("第四页：新的一节。")
    doc.sections[0].header.paragraphs[0].text = "某工程投标文件"
    doc.sections[0].footer.paragraphs[0].text = "第 1 页"
    props = doc.core_properties
    props.author, props.last_modified_by, props.revision = "张三", "李四", 7
    doc.save(str(path))
    return path


def test_docx_blocks_in_reading_order_with_kinds_and_pages(tmp_path: Path) -> None:
    doc = read_document(_build(tmp_path / "bid.docx"), "d1")
    assert doc.ok, doc.error
    body = [(b.text, b.kind, b.page) for b in doc.blocks if b.kind not in ("header", "footer")]
    assert body == [
        ("第一页正文。", "body", 1),
        ("单元格00", "table", 1),
        ("单元格01", "table", 1),
        ("单元格10", "table", 1),
        ("单元格11", "table", 1),
        ("带文本框的段落。", "body", 1),
        ("文本框里的文字", "textbox", 1),
        ("第二页开头。", "body", 2),
        ("第三页（排版分页）。", "body", 3),
        ("第三页末段，本节结束。", "body", 3),
        ("第四页：新的一节。", "body", 4),
    ]
    assert doc.pages == 4


def test_docx_headers_footers_are_separate_blocks(tmp_path: Path) -> None:
    doc = read_document(_build(tmp_path / "bid.docx"), "d1")
    assert [(b.text, b.kind) for b in doc.blocks if b.kind in ("header", "footer")] == [
        ("第 1 页", "footer"),
        ("某工程投标文件", "header"),
    ]
    assert all(b.text != "某工程投标文件" for b in doc.compared_blocks())


def test_docx_properties(tmp_path: Path) -> None:
    meta = read_document(_build(tmp_path / "bid.docx"), "d1").metadata
    assert meta["author"] == "张三"
    assert meta["last_modified_by"] == "李四"
    assert meta["revision"] == "7"
    assert "created" in meta and "modified" in meta


def test_docx_continuous_section_break_keeps_the_page(tmp_path: Path) -> None:
    doc = new_docx()
    first = doc.add_paragraph("同一页上的第一节。")
    first._p.get_or_add_pPr().append(parse_xml(f"<w:sectPr {W_NS}/>"))
    doc.add_paragraph("同一页上的第二节。")
    body_sect = doc.element.body.find("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}sectPr")
    body_sect.insert(0, parse_xml(f'<w:type {W_NS} w:val="continuous"/>'))
    doc.save(str(tmp_path / "c.docx"))
    read = read_document(tmp_path / "c.docx", "d1")
    assert [b.page for b in read.compared_blocks()] == [1, 1]
