"""What one file may cost to read: zip packages measured before and while they inflate, text and page
size capped, each refusal a plain message (the whole check with hostile files: test_robustness)."""

from __future__ import annotations

import random
import zipfile
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from bench.robustness import giant_page_pdf, many_runs_docx, many_tables_docx, pdf_file, zip_bomb_docx
from bidcheck.config import Settings
from bidcheck.ingest import read_document
from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.limits import ReadLimits, open_package, zip_directory
from bidcheck.ingest.scan import MAX_PAGE_PIXELS, RENDER_DPI, OcrOptions, render_pdf_page, render_scale
from bidcheck.prepare import prepare_document
from tests.builders import make_docx, make_pdf, paragraphs

A0 = (2384.0, 3370.0)  # points


def _error(path: Path, **settings: int) -> str:
    doc = prepare_document(path, "d1", "bid", Settings(**settings)).doc
    assert doc.status == "error", doc
    return doc.error or ""


def test_a_bomb_is_refused_by_its_declared_size_before_it_inflates(tmp_path: Path) -> None:
    bomb = zip_bomb_docx(tmp_path / "bomb.docx", inflated_mb=300)
    assert bomb.stat().st_size < 2 << 20
    assert _error(bomb) == "文件解压后过大（300 MB，上限 200 MB），疑似压缩炸弹，已跳过"


def test_a_part_compressed_like_a_bomb_is_refused_even_when_small_enough(tmp_path: Path) -> None:
    bomb = zip_bomb_docx(tmp_path / "bomb.docx", inflated_mb=20)
    message = _error(bomb)
    assert message.startswith("文件压缩比异常（word/document.xml 压缩了 ") and "上限 100 倍" in message
    assert "疑似压缩炸弹" in message
    assert _error(bomb, max_zip_ratio=10_000, max_chars=10_000).startswith("文件文字过多")


def test_the_limits_are_settings(tmp_path: Path) -> None:
    docx = many_tables_docx(tmp_path / "tables.docx", tables=20_000)  # 800,000 characters, varied
    assert read_document(docx, "d1").ok
    with zipfile.ZipFile(docx) as archive:
        entries = len(archive.namelist())
        xml_mb = archive.getinfo("word/document.xml").file_size / (1 << 20)
    assert xml_mb > 2
    assert (
        _error(docx, max_unpacked_mb=1)
        == f"文件解压后过大（{xml_mb:.0f} MB，上限 1 MB），疑似压缩炸弹，已跳过"
    )
    assert _error(docx, max_zip_entries=entries - 1) == (
        f"压缩包内文件过多（{entries} 个，上限 {entries - 1} 个），疑似压缩炸弹，已跳过"
    )
    assert _error(docx, max_chars=500_000) == "文件文字过多（超过 50 万字的上限），已跳过"


@pytest.mark.parametrize("kind", ["pdf", "txt"])
def test_text_beyond_the_limit_is_refused_while_reading(tmp_path: Path, kind: str) -> None:
    text = paragraphs(2, 40)
    if kind == "pdf":
        path = make_pdf(tmp_path / "bid.pdf", [text[:20], text[20:]])
    else:
        path = tmp_path / "bid.txt"
        path.write_text("\n".join(text), encoding="utf-8")
    assert prepare_document(path, "d1", "bid", Settings()).doc.ok
    assert _error(path, max_chars=2000) == "文件文字过多（超过 2000 字的上限），已跳过"


def test_a_part_of_more_markup_than_any_bid_is_refused_while_it_streams(tmp_path: Path) -> None:
    """Millions of one-character runs (a small file, a huge tree once parsed) end in a plain message, not in
    gigabytes of memory or a parser's error."""
    doc = read_document(many_runs_docx(tmp_path / "runs.docx", runs=2_500_000), "d1")
    assert not doc.ok and doc.error is not None
    assert doc.error.startswith("文件结构过于繁杂（word/document.xml 的标记超过 800 万个")


def test_the_directory_is_read_from_the_end_record(tmp_path: Path) -> None:
    docx = make_docx(tmp_path / "bid.docx", [paragraphs(3, 2)])
    with zipfile.ZipFile(docx) as archive:
        entries = len(archive.infolist())
    with docx.open("rb") as handle:
        declared = zip_directory(handle)
    assert declared is not None and declared[0] == entries and 0 < declared[1] < docx.stat().st_size
    limits = ReadLimits(zip_entries=entries - 1)
    assert "压缩包内文件过多" in (read_document(docx, "d1", limits=limits).error or "")


def test_pages_are_rendered_within_the_pixel_budget() -> None:
    assert render_scale(595, 842) == RENDER_DPI / 72  # A4 at the OCR resolution
    a0 = render_scale(*A0)
    assert a0 is not None and 150 < a0 * 72 < RENDER_DPI  # about 160 dpi
    assert render_scale(200 * 72, 200 * 72) is None  # a drawing saved 5 m wide is not rendered at all


def test_an_a0_scan_renders_within_the_budget(tmp_path: Path) -> None:
    path = pdf_file(tmp_path / "a0.pdf", A0, [b"0.5 g 100 100 800 800 re f"])
    pdf = pdfium.PdfDocument(path)
    try:
        image = render_pdf_page(pdf, 0)
    finally:
        pdf.close()
    assert image.width * image.height <= MAX_PAGE_PIXELS
    assert image.width * image.height > MAX_PAGE_PIXELS * 0.95


def test_a_page_too_large_for_ocr_is_named_and_never_rendered(tmp_path: Path) -> None:
    drawing = giant_page_pdf(tmp_path / "drawing.pdf")
    doc = read_document(drawing, "d1", OcrOptions(defer=True))
    assert doc.status == "error"
    assert doc.error == (
        "第 1 页尺寸过大（5080 × 5080 毫米），超出文字识别能处理的大小，未能读取，文件中没有其他可比较的文字"
    )


def test_pages_the_ocr_stage_gave_up_are_named(tmp_path: Path) -> None:
    scan = pdf_file(tmp_path / "scan.pdf", (595, 842), [b"0.5 g 100 100 300 300 re f"] * 2)
    unread = (
        (0, "文字识别超时（超过 120 秒）", ""),
        (1, "文字识别时程序异常退出", str(scan)),
        (0, "不是这个文件", "其他.pdf"),
    )
    doc = read_document(scan, "d1", OcrOptions(unread=unread))
    assert doc.error == (
        "第 1 页文字识别超时（超过 120 秒），未能读取（共 2 页未能读取），文件中没有其他可比较的文字"
    )


def test_a_file_read_past_the_time_limit_is_stopped_and_said_unreadable(
    section: dict[str, Path], tmp_path: Path
) -> None:
    """A file still being read after ``read_timeout_s`` has its reading process stopped: it is an error
    document saying so, and the other bids are compared."""
    from bidcheck.pipeline import CheckInputs, check

    slow = many_tables_docx(tmp_path / "slow.docx", tables=60_000)  # seconds to read
    bids = [p for p in sorted(section["bids"].iterdir())]
    result = check(CheckInputs((*bids, slow)), Settings(workers=2, read_timeout_s=1))
    stopped = next(d for d in result.documents if d.name == "slow.docx")
    assert not stopped.ok and stopped.error is not None
    assert stopped.error.startswith("读取超过 1 秒仍未完成，已停止")
    assert sum(d.ok for d in result.bids) == len(bids) and result.pairs


def test_the_parts_of_one_package_share_one_budget(tmp_path: Path) -> None:
    """Two parts of 3 MB each (stored, read a megabyte at a time) under a budget of 5 MB: the first is
    read, the second refused — the budget is the package's, not a part's."""
    path = tmp_path / "two.zip"
    rng = random.Random(5)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name in ("a.bin", "b.bin"):
            archive.writestr(name, rng.randbytes(3 << 20))
    with open_package(path, ReadLimits(unpacked_bytes=5 << 20)) as package:
        assert len(package.read("a.bin")) == 3 << 20
        with pytest.raises(ReadError, match=r"文件解压后过大（6 MB，上限 5 MB）"):
            package.read("b.bin")
