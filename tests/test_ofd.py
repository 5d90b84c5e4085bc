"""OFD files: small valid packages written by hand, read page by page."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from docx import Document as new_docx
from docx.shared import Inches

from bench.pictures import encoded, photo
from bidcheck.config import Settings
from bidcheck.ingest import read_document, sniff_format
from bidcheck.ingest.pictures import picture_from_bytes
from bidcheck.pipeline import CheckInputs, check
from bidcheck.text import clean_document
from bidcheck.text.tables import table_rows
from tests.builders import paragraphs

NS = 'xmlns:ofd="http://www.ofdspec.org/2016"'
TEXTS = paragraphs(41, 3, sentences=2)
WIDTH = 30  # characters per line


def _ofd_xml(doc_root: str) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<ofd:OFD {NS} Version="1.0" DocType="OFD"><ofd:DocBody>
<ofd:DocInfo><ofd:DocID>6f3b</ofd:DocID><ofd:Title>投标文件</ofd:Title><ofd:Author>王五</ofd:Author>
<ofd:CreationDate>2024-05-20</ofd:CreationDate><ofd:Creator>某某版式软件</ofd:Creator></ofd:DocInfo>
<ofd:DocRoot>{doc_root}</ofd:DocRoot></ofd:DocBody></ofd:OFD>"""


def _document_xml(pages: list[str], template: str | None, resources: str = "") -> str:
    listed = "".join(f'<ofd:Page ID="{i + 10}" BaseLoc="{loc}"/>' for i, loc in enumerate(pages))
    tpl = f'<ofd:TemplatePage ID="2" BaseLoc="{template}"/>' if template else ""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<ofd:Document {NS}><ofd:CommonData><ofd:MaxUnitID>99</ofd:MaxUnitID>
<ofd:PageArea><ofd:PhysicalBox>0 0 210 297</ofd:PhysicalBox></ofd:PageArea>{resources}{tpl}</ofd:CommonData>
<ofd:Pages>{listed}</ofd:Pages></ofd:Document>"""


def _text_lines(text: str, top: float, indent: bool = True) -> tuple[str, float]:
    """A paragraph as one TextObject per line, 3.5 mm characters, the first line indented."""
    out = []
    for number, start in enumerate(range(0, len(text), WIDTH)):
        line = text[start : start + WIDTH]
        x = 20 + (7 if number == 0 and indent else 0)
        out.append(
            f'<ofd:TextObject ID="{number + 100}" Boundary="{x} {top} 170 6" Font="3" Size="3.5">'
            f'<ofd:TextCode X="0" Y="4" DeltaX="g {len(line) - 1} 3.5">{line}</ofd:TextCode></ofd:TextObject>'
        )
        top += 6
    return "".join(out), top + 4


def _by_character(text: str, top: float) -> str:
    """A line written one TextCode per character (as converters from PDF often do), out of order."""
    codes = [
        f'<ofd:TextObject ID="{i + 300}" Boundary="0 {top} 210 6" Size="3.5">'
        f'<ofd:TextCode X="{27 + i * 3.5}" Y="4">{char}</ofd:TextCode></ofd:TextObject>'
        for i, char in enumerate(text)
    ]
    return "".join(reversed(codes))


def _page(body: str) -> str:
    layer = f'<ofd:Layer ID="5">{body}</ofd:Layer>'
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><ofd:Page {NS}><ofd:Content>{layer}</ofd:Content></ofd:Page>'
    )


def make_ofd(path: Path) -> Path:
    """Two pages: two paragraphs, then one written per character; a template page with a header."""
    first, top = _text_lines(TEXTS[0], 30)
    second, _ = _text_lines(TEXTS[1], top)
    header, _ = _text_lines("丙公司投标文件", 10, indent=False)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("OFD.xml", _ofd_xml("Doc_0/Document.xml"))
        archive.writestr(
            "Doc_0/Document.xml",
            _document_xml(
                ["Pages/Page_0/Content.xml", "/Doc_0/Pages/Page_1/Content.xml"], "Tpls/Tpl_0/Content.xml"
            ),
        )
        archive.writestr("Doc_0/Pages/Page_0/Content.xml", _page(first + second))
        archive.writestr("Doc_0/Pages/Page_1/Content.xml", _page(_by_character(TEXTS[2][:WIDTH], 30)))
        archive.writestr("Doc_0/Tpls/Tpl_0/Content.xml", _page(header))
    return path


def test_ofd_text_is_read_by_page_with_its_properties(tmp_path: Path) -> None:
    path = make_ofd(tmp_path / "bid.ofd")
    assert sniff_format(path, path.read_bytes()[:4096]) == "ofd"
    doc = read_document(path, "d1")
    assert doc.ok and doc.format == "ofd" and doc.pages == 2
    body = [(b.page, b.text) for b in clean_document(doc).compared_blocks()]
    assert body == [(1, TEXTS[0]), (1, TEXTS[1]), (2, TEXTS[2][:WIDTH])]
    assert [b.text for b in doc.blocks if b.kind == "header"] == ["丙公司投标文件"]
    assert doc.metadata == {
        "title": "投标文件",
        "author": "王五",
        "created": "2024-05-20",
        "application": "某某版式软件",
    }


def test_an_ofd_of_page_images_says_it_is_a_scan(tmp_path: Path) -> None:
    image = '<ofd:ImageObject ID="7" Boundary="0 0 210 297" ResourceID="8"/>'
    path = tmp_path / "scan.ofd"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("OFD.xml", _ofd_xml("Doc_0/Document.xml"))
        archive.writestr("Doc_0/Document.xml", _document_xml(["Pages/Page_0/Content.xml"], None))
        archive.writestr("Doc_0/Pages/Page_0/Content.xml", _page(image))
    doc = read_document(path, "d1")
    assert doc.status == "error" and "扫描件" in (doc.error or "")


def test_a_damaged_ofd_says_so(tmp_path: Path) -> None:
    path = tmp_path / "broken.ofd"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("OFD.xml", _ofd_xml("Doc_0/Document.xml"))
    doc = read_document(path, "d1")
    assert doc.status == "error" and "损坏" in (doc.error or "") and "Document.xml" in (doc.error or "")
    path.write_bytes(b"PK\x03\x04" + b"\x00" * 100)
    assert read_document(path, "d2").status == "error"


def test_an_ofd_table_row_is_read_as_cells(tmp_path: Path) -> None:
    """A bill row written one TextObject per cell, columns apart: a row of cells, not a paragraph."""
    cells = [("1", 20), ("挖一般土方", 30), ("m3", 70), ("5355", 90), ("721.05", 115), ("3861222.75", 145)]
    row = "".join(
        f'<ofd:TextObject ID="{200 + i}" Boundary="{x} 40 40 6" Size="3.5">'
        f'<ofd:TextCode X="0" Y="4" DeltaX="g {len(text) - 1} 2">{text}</ofd:TextCode></ofd:TextObject>'
        for i, (text, x) in enumerate(cells)
    )
    prose, _ = _text_lines(TEXTS[0], 60)
    with zipfile.ZipFile(tmp_path / "bill.ofd", "w") as archive:
        archive.writestr("OFD.xml", _ofd_xml("Doc_0/Document.xml"))
        archive.writestr("Doc_0/Document.xml", _document_xml(["Pages/Page_0/Content.xml"], None))
        archive.writestr("Doc_0/Pages/Page_0/Content.xml", _page(row + prose))
    doc = clean_document(read_document(tmp_path / "bill.ofd", "d1"))
    rows = table_rows(doc.compared_blocks())
    assert [[c.text for c in r.cells] for r in rows] == [[text for text, _ in cells]]
    assert [b.text for b in doc.compared_blocks() if not b.row] == [TEXTS[0]]


def _res_xml(base: str, files: dict[int, str]) -> str:
    """A resource file listing image files (``MultiMedia``) by resource id, under ``base``."""
    media = "".join(
        f'<ofd:MultiMedia ID="{rid}" Type="Image"><ofd:MediaFile>{name}</ofd:MediaFile></ofd:MultiMedia>'
        for rid, name in files.items()
    )
    head = f'<?xml version="1.0" encoding="UTF-8"?><ofd:Res {NS} BaseLoc="{base}">'
    return f"{head}<ofd:MultiMedias>{media}</ofd:MultiMedias></ofd:Res>"


def make_ofd_with_pictures(path: Path, seed: int, pictures: list[bytes]) -> Path:
    """A page of text and one picture (an ``ImageObject``) a page, the pictures listed alternately in
    the document's resources (``Res/``) and the public ones (``/Doc_0/Public/``); a picture placed a
    second time on the last page, and one resource id that names no image."""
    pages = [f"Pages/Page_{n}/Content.xml" for n in range(len(pictures))]
    own = {60 + n: f"Image_{n}.png" for n in range(0, len(pictures), 2)}
    public = {60 + n: f"Image_{n}.png" for n in range(1, len(pictures), 2)}
    resources = (
        "<ofd:PublicRes>PublicRes.xml</ofd:PublicRes><ofd:DocumentRes>DocumentRes.xml</ofd:DocumentRes>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("OFD.xml", _ofd_xml("Doc_0/Document.xml"))
        archive.writestr("Doc_0/Document.xml", _document_xml(pages, None, resources))
        archive.writestr("Doc_0/DocumentRes.xml", _res_xml("Res", own))
        archive.writestr("Doc_0/PublicRes.xml", _res_xml("/Doc_0/Public", public))
        for n, data in enumerate(pictures):
            folder = "Res" if n % 2 == 0 else "Public"
            archive.writestr(f"Doc_0/{folder}/Image_{n}.png", data)
            text, _ = _text_lines(paragraphs(seed + n, 1)[0], 20)
            again = 60 if n == len(pictures) - 1 else 99
            images = "".join(
                f'<ofd:ImageObject ID="{400 + k}" Boundary="20 120 120 80" ResourceID="{rid}"/>'
                for k, rid in enumerate((60 + n, again))
            )
            archive.writestr(f"Doc_0/{pages[n]}", _page(text + images))
    return path


def test_an_ofd_gives_the_pictures_its_pages_place(tmp_path: Path) -> None:
    site, chart = encoded(photo(31)), encoded(photo(32, (700, 500)))
    path = make_ofd_with_pictures(tmp_path / "pictured.ofd", 5, [site, encoded(photo(33, (40, 40))), chart])
    doc = read_document(path, "d1")
    assert doc.ok and doc.pages == 3
    assert [(p.page, p.width, p.height) for p in doc.pictures] == [(1, 900, 600), (3, 700, 500)]
    assert [p.digest for p in doc.pictures] == [picture_from_bytes(d, 1).digest for d in (site, chart)]


def test_an_ofd_bid_and_a_docx_bid_sharing_a_photo_are_linked(tmp_path: Path) -> None:
    site = photo(34)
    ofd = make_ofd_with_pictures(tmp_path / "01.ofd", 6, [encoded(photo(35)), encoded(site)])
    docx = tmp_path / "02.docx"
    word = new_docx()
    for text in paragraphs(70, 3):
        word.add_paragraph(text)
    word.add_picture(io.BytesIO(encoded(site, "JPEG", quality=70)), width=Inches(3))
    word.save(str(docx))
    result = check(CheckInputs((ofd, docx), ()), Settings(workers=1))
    (signal,) = result.pairs[0].signals
    assert (signal.kind, signal.field, signal.strength) == ("image", "similar", "strong")
    assert signal.a is not None and signal.a.page == 2


def test_a_glyph_spacing_that_repeats_a_step_millions_of_times_costs_nothing(tmp_path: Path) -> None:
    """``DeltaX="g 200000000 1"`` on a line of a few characters (a 1 KB file that took 63 s and 3.2 GB)
    is read as the steps its characters take."""
    line = TEXTS[0][:WIDTH]
    body = (
        '<ofd:TextObject ID="100" Boundary="20 30 170 6" Font="3" Size="3.5">'
        f'<ofd:TextCode X="0" Y="4" DeltaX="g 200000000 1">{line}</ofd:TextCode></ofd:TextObject>'
    )
    path = tmp_path / "spaced.ofd"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("OFD.xml", _ofd_xml("Doc_0/Document.xml"))
        archive.writestr("Doc_0/Document.xml", _document_xml(["Pages/Page_0/Content.xml"], None))
        archive.writestr("Doc_0/Pages/Page_0/Content.xml", _page(body))
    doc = read_document(path, "d1")
    assert doc.ok and [b.text for b in doc.compared_blocks()] == [line]
