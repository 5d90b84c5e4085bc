"""Pictures: read from docx and PDF, hashed exactly and by look, and shared by two bids as a signal."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pytest
from docx import Document as new_docx
from docx.shared import Inches
from openpyxl import load_workbook
from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from bench.pictures import encoded, photo, screenshot
from bidcheck.config import Settings
from bidcheck.ingest import read_document
from bidcheck.ingest.pictures import picture_from_bytes
from bidcheck.model import CheckResult, load_result
from bidcheck.pipeline import CheckInputs, check
from bidcheck.report.json import write_json
from bidcheck.report.xlsx import write_xlsx
from bidcheck.signals.image import near_pairs
from bidcheck.words import picture_thumbnails, signal_line
from tests.builders import make_pdf, paragraphs, pdf_font
from tests.test_ocr import page_images


def _docx(path: Path, seed: int, pictures: list[bytes]) -> Path:
    document = new_docx()
    for text in paragraphs(seed, 3):
        document.add_paragraph(text)
    for data in pictures:
        document.add_paragraph("附图：")
        document.add_picture(io.BytesIO(data), width=Inches(3))
        document.add_page_break()
    document.save(str(path))
    return path


def _pdf(path: Path, seed: int, pictures: list[bytes]) -> Path:
    """A text PDF with one picture (an image XObject) a page."""
    canvas = Canvas(str(path))
    for n, data in enumerate(pictures):
        canvas.setFont(pdf_font(), 11)
        for row, text in enumerate(paragraphs(seed + n, 2)):
            canvas.drawString(60, 780 - 20 * row, text[:40])
        canvas.drawImage(ImageReader(io.BytesIO(data)), 72, 300, 300, 200)
        canvas.showPage()
    canvas.save()
    return path


def test_a_docx_and_a_pdf_give_their_pictures_with_pages_and_leave_out_icons(tmp_path: Path) -> None:
    icon = encoded(photo(9, (40, 40)))
    doc = read_document(_docx(tmp_path / "a.docx", 1, [encoded(photo(1)), icon, encoded(photo(2))]), "d1")
    assert [(p.page, p.width, p.height) for p in doc.pictures] == [(1, 900, 600), (3, 900, 600)]
    copy = encoded(photo(1).resize((450, 300)), "JPEG", quality=70)
    pdf = read_document(_pdf(tmp_path / "b.pdf", 2, [encoded(photo(3)), copy]), "d2")
    assert [(p.page, p.width, p.height) for p in pdf.pictures] == [(1, 900, 600), (2, 450, 300)]
    first, resized = doc.pictures[0], pdf.pictures[1]
    assert first.digest != resized.digest and (first.phash ^ resized.phash).bit_count() <= 8
    assert (first.phash ^ doc.pictures[1].phash).bit_count() > 16  # another photo looks apart
    assert Image.open(io.BytesIO(first.thumbnail)).size == (128, 85) and not first.plain


def _digest(data: bytes) -> str:
    picture = picture_from_bytes(data, 1)
    assert picture is not None
    return picture.digest


def test_the_exact_digest_is_of_the_pixels_not_of_the_file(tmp_path: Path) -> None:
    """Re-saved with other compression, with text chunks, as a palette or with an opaque alpha channel,
    or as a PDF's image object, a picture digests alike; one pixel changed, it does not."""
    chart = photo(7, (300, 200)).quantize(64).convert("RGB")  # few colours: a palette copy keeps them
    info = PngInfo()
    info.add_text("Software", "另一个软件")
    copies = [
        encoded(chart, compress_level=9),
        encoded(chart, compress_level=0, pnginfo=info),
        encoded(chart.quantize(64)),
        encoded(chart.convert("RGBA")),
        encoded(chart, "BMP"),
    ]
    assert len({hashlib.sha256(c).digest() for c in [*copies, encoded(chart)]}) == 6
    assert {_digest(c) for c in copies} == {_digest(encoded(chart))}
    jpeg = encoded(chart, "JPEG", quality=80)
    assert _digest(encoded(Image.open(io.BytesIO(jpeg)), compress_level=3)) == _digest(jpeg)
    pdf = read_document(_pdf(tmp_path / "chart.pdf", 3, [encoded(chart)]), "d1")
    assert [p.digest for p in pdf.pictures] == [_digest(encoded(chart))]
    touched = chart.copy()
    touched.putpixel((150, 100), (0, 0, 1))
    assert _digest(encoded(touched)) != _digest(encoded(chart))
    see_through = chart.convert("RGBA")
    see_through.putpixel((0, 0), (0, 0, 0, 0))
    assert _digest(encoded(see_through)) != _digest(encoded(chart))


def test_a_page_of_text_is_plain_and_matches_only_itself() -> None:
    """Scanned pages of text hash alike at 9 x 8: they count as pictures only byte for byte."""
    page = Image.new("L", (620, 877), 255)
    draw = ImageDraw.Draw(page)
    for row in range(60, 800, 24):
        draw.line((60, row, 560, row), fill=40, width=6)
    picture = picture_from_bytes(encoded(page), 1)
    assert picture is not None and picture.plain


def test_undecodable_pictures_are_skipped_quietly() -> None:
    assert picture_from_bytes(b"not a picture at all", 1) is None
    assert picture_from_bytes(encoded(photo(1))[:300], 1) is None  # cut short
    assert picture_from_bytes(encoded(photo(1, (63, 200))), 1) is None  # narrower than 64 px


def test_near_hashes_are_found_in_blocks() -> None:
    hashes = [0, 0b111, 2**64 - 1, 0b1]
    assert sorted(near_pairs(hashes, [0b11], 2)) == [(0, 0), (1, 0), (3, 0)]
    many = list(range(600))
    assert sum(1 for i, j in near_pairs(many, many, 0) if i == j) == 600


@pytest.fixture(scope="module")
def section(tmp_path_factory: pytest.TempPathFactory) -> CheckResult:
    """A tender with the agency's logo, which every bid carries; 01 (docx) and 02 (PDF) hold one site
    photo, 02's re-encoded as JPEG 70 at half the size; 03 and 04 hold one organisation chart, byte for
    byte; 05 only pictures of its own."""
    root = tmp_path_factory.mktemp("pictures")
    logo = encoded(photo(100, (300, 120)))
    site, chart = photo(101), encoded(photo(102, (700, 500)))
    tender = _docx(root / "tender.docx", 50, [logo])
    bids = [
        _docx(root / "01.docx", 51, [logo, encoded(photo(201)), encoded(site)]),
        _pdf(root / "02.pdf", 52, [logo, encoded(site.resize((450, 300)), "JPEG", quality=70)]),
        _docx(root / "03.docx", 53, [logo, chart]),
        _docx(root / "04.docx", 54, [logo, encoded(photo(204)), chart]),
        _docx(root / "05.docx", 55, [logo, encoded(photo(205))]),
    ]
    return check(CheckInputs(tuple(bids), (tender,)), Settings(workers=1))


def test_a_shared_photo_and_a_shared_chart_are_strong_signals_and_the_logo_none(section: CheckResult) -> None:
    pairs = {(p.a, p.b): p for p in section.pairs}
    (photo_signal,) = pairs[("d1", "d2")].signals
    assert (photo_signal.kind, photo_signal.field, photo_signal.strength) == ("image", "similar", "strong")
    assert photo_signal.a is not None and photo_signal.b is not None
    assert (photo_signal.a.page, photo_signal.b.page) == (3, 2)
    assert pairs[("d1", "d2")].level == "high" and "相同的图片" in pairs[("d1", "d2")].reason
    (chart_signal,) = pairs[("d3", "d4")].signals
    assert (chart_signal.field, chart_signal.a.page if chart_signal.a else 0) == ("exact", 2)
    assert "/" not in chart_signal.value and len(photo_signal.value.split("/")) == 2  # one picture; two
    line = signal_line(chart_signal)
    assert line == "【强】相同图片 · 同一图片：图片（700×500 像素）（A 第 2 页 / B 第 3 页）"
    quiet = {key for key, p in pairs.items() if p.signals}
    assert quiet == {("d1", "d2"), ("d3", "d4")}
    assert picture_thumbnails(section, photo_signal) is not None


def test_the_workbook_shows_both_pictures_of_a_picture_signal(section: CheckResult, tmp_path: Path) -> None:
    write_xlsx(section, tmp_path / "report.xlsx")
    sheet = load_workbook(tmp_path / "report.xlsx")["串标迹象"]
    rows = list(sheet.iter_rows(min_row=2, values_only=True))
    assert [row[5] for row in rows] == ["近似图片", "同一图片"]
    anchors = sorted((image.anchor._from.row, image.anchor._from.col) for image in sheet._images)
    assert anchors == [(1, 9), (1, 11), (2, 9), (2, 11)]  # rows 2 and 3, columns J and L (0-based)


def test_a_photo_on_a_scanned_page_is_found_beside_its_text_and_matches_the_original(tmp_path: Path) -> None:
    """A scan (150 dpi, image-only PDF) of two pages of text, the first with a photo pasted in: OCR reads
    the text, the photo is cropped from the page as a picture and matches the photo in a Word bid;
    the page of text alone gives no picture but the page's own image, which is mostly paper."""
    site = photo(301, (450, 300))
    texts = [paragraphs(60, 2, sentences=2), paragraphs(61, 2, sentences=2)]
    source = make_pdf(tmp_path / "source.pdf", texts)
    pages = [image.convert("RGB") for image in page_images(source, 150)]
    pages[0].paste(site, (300, 900))
    pages[0].save(tmp_path / "scan.pdf", save_all=True, append_images=pages[1:], resolution=150)
    word = _docx(tmp_path / "word.docx", 62, [encoded(site)])
    result = check(CheckInputs((tmp_path / "scan.pdf", word), ()), Settings(workers=1))
    scan = result.document("d1")
    assert scan.ok and scan.ocr_pages == 2
    found = [(p.page, p.width, p.height) for p in scan.pictures if not p.plain]
    assert len(found) == 1 and found[0][0] == 1
    assert abs(found[0][1] - 600) <= 16 and abs(found[0][2] - 400) <= 16  # 450 × 300 at 200 / 150
    assert [p.page for p in scan.pictures if p.plain] == [1, 2]  # the pages' own images
    (signal,) = result.pairs[0].signals
    assert (signal.kind, signal.field, signal.a.page if signal.a else 0) == ("image", "similar", 1)


def test_a_saved_result_keeps_the_shared_pictures_thumbnails(section: CheckResult, tmp_path: Path) -> None:
    """The result JSON holds each shared picture once, with its thumbnail: the workbook written from
    the reloaded result embeds the same pictures; pictures no signal names stay out of the JSON."""
    write_json(section, tmp_path / "result.json")
    data = json.loads((tmp_path / "result.json").read_text(encoding="utf-8"))
    documents = data["documents"]
    saved = {d["id"]: [(p["page"], p["width"], p["height"]) for p in d["pictures"]] for d in documents}
    assert saved == {
        "d6": [],
        "d1": [(3, 900, 600)],
        "d2": [(2, 450, 300)],
        "d3": [(2, 700, 500)],
        "d4": [(3, 700, 500)],
        "d5": [],
    }
    reloaded = load_result(tmp_path / "result.json")
    for signal in (s for p in section.pairs for s in p.signals):
        assert picture_thumbnails(reloaded, signal) == picture_thumbnails(section, signal) is not None
    write_xlsx(reloaded, tmp_path / "reloaded.xlsx")
    sheet = load_workbook(tmp_path / "reloaded.xlsx")["串标迹象"]
    assert sorted((image.anchor._from.row, image.anchor._from.col) for image in sheet._images) == [
        (1, 9),
        (1, 11),
        (2, 9),
        (2, 11),
    ]


def test_a_picture_too_large_to_decode_is_left_out_before_it_is_decoded(tmp_path: Path) -> None:
    """A PNG of 7,000 × 7,000 pixels (a few kilobytes, 49 million pixels decoded) is no picture to hash:
    left out from its header's size; a photo beside it is hashed as ever."""
    huge = Image.new("L", (7000, 7000), 255)
    ImageDraw.Draw(huge).line((0, 0, 6999, 6999), fill=0, width=9)
    data = io.BytesIO()
    huge.save(data, "PNG")
    assert len(data.getvalue()) < 1_000_000
    assert picture_from_bytes(data.getvalue(), 1) is None
    document = new_docx()
    document.add_paragraph("附图：")
    document.add_picture(io.BytesIO(data.getvalue()), width=Inches(2))
    document.add_picture(io.BytesIO(encoded(photo(3), "PNG")), width=Inches(2))
    document.save(str(tmp_path / "pictures.docx"))
    doc = read_document(tmp_path / "pictures.docx", "d1")
    assert doc.ok and [(p.width, p.height) for p in doc.pictures] == [photo(3).size]


def _bar_chart() -> Image.Image:
    chart = Image.new("RGB", (800, 500), "white")
    draw = ImageDraw.Draw(chart)
    draw.line((60, 440, 760, 440), fill="black", width=2)
    for n, height in enumerate((120, 260, 200, 330, 90)):
        draw.rectangle((100 + n * 130, 440 - height, 180 + n * 130, 440), fill=(60, 120, 200))
    return chart


def test_screenshots_charts_and_forms_are_drawn_and_photos_and_scans_are_not(tmp_path: Path) -> None:
    """Drawn: a query site's screenshot (as PNG and as JPEG), a bar chart, a page a computer rendered;
    not drawn: a photo (PNG, JPEG), a scanned page of text (grain, JPEG), and a black-and-white scan
    (bilevel: all flat, and as scanners store pages)."""
    shot = screenshot(1)
    page = make_pdf(tmp_path / "page.pdf", [paragraphs(70, 3)])
    (scan,) = page_images(page, 150)
    rendered = page_images(page, 150, noise=0.0)[0]
    drawn = [encoded(shot), encoded(shot, "JPEG", quality=85), encoded(_bar_chart()), encoded(rendered)]
    taken = [
        encoded(photo(5)),
        encoded(photo(6), "JPEG", quality=80),
        encoded(scan, "JPEG"),
        encoded(shot.convert("1")),
    ]
    assert [getattr(picture_from_bytes(data, 1), "drawn", None) for data in drawn] == [True] * 4
    assert [getattr(picture_from_bytes(data, 1), "drawn", None) for data in taken] == [False] * 4


def test_a_screenshot_two_bids_share_is_a_supporting_sign_and_a_photo_a_strong_one(tmp_path: Path) -> None:
    """01 and 02 carry the same screenshot of a credit-query site (as tender files show for an example),
    02 and 03 the same site photo, and nothing else alike: the screenshot ties 01–02 as a supporting
    sign, saying what it is (二级观察 at most), the photo 02–03 as a strong one (一级预警)."""
    shot, site = encoded(screenshot(2)), encoded(photo(7))
    bids = [
        _docx(tmp_path / "01.docx", 81, [shot]),
        _docx(tmp_path / "02.docx", 82, [shot, site]),
        _docx(tmp_path / "03.docx", 83, [site]),
    ]
    result = check(CheckInputs(tuple(bids), ()), Settings(workers=1))
    pairs = {(p.a, p.b): p for p in result.pairs}
    (shared,) = pairs[("d1", "d2")].signals
    assert (shared.kind, shared.field, shared.strength) == ("image", "exact", "supporting")
    assert "截图" in shared.detail and pairs[("d1", "d2")].level == "watch"
    (photo_signal,) = pairs[("d2", "d3")].signals
    assert (photo_signal.strength, pairs[("d2", "d3")].level) == ("strong", "high")
    assert not pairs[("d1", "d3")].signals
    write_json(result, tmp_path / "result.json")
    saved = load_result(tmp_path / "result.json").document("d1").pictures
    assert [p.drawn for p in saved] == [True]
