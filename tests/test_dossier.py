"""The Word dossier: on a section with signs of every kind it cites the articles, names both bidders of
every 一级预警 pair, gives every file's SHA-256 and the version, page references and evidence pictures,
and converts to PDF (whose pages are rendered to look at)."""

from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path

import pytest
from docx import Document as open_docx

from bench.signals import write_section
from bidcheck import __version__
from bidcheck.cli import ExitStatus, main
from bidcheck.model import load_result
from tests.printing import assert_prints_readably, printed

SHOTS = Path(__file__).resolve().parents[1] / "build" / "screenshots"


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[Path]]:
    """A 12-bid section with every kind of sign planted, checked by the command line into a dossier."""
    root = tmp_path_factory.mktemp("dossier")
    tender, paths, _plants = write_section(root / "section", 12, 13)
    out, err = io.StringIO(), io.StringIO()
    argv = [
        "check",
        *map(str, paths),
        "--tender",
        str(tender),
        "--section",
        "滨江新区排水管网改造工程第二标段",
    ]
    status = main(
        [*argv, "--docx", str(root / "报告.docx"), "--json", str(root / "r.json"), "--quiet"], out, err
    )
    assert status == ExitStatus.SUCCESS, err.getvalue()
    assert f"Word 报告：{root / '报告.docx'}" in out.getvalue()
    return root / "报告.docx", root / "r.json", [tender, *paths]


def _text(path: Path) -> str:
    doc = open_docx(str(path))
    cells = [c.text for t in doc.tables for row in t.rows for c in row.cells]
    return "\n".join([p.text for p in doc.paragraphs] + cells)


def test_the_dossier_cites_the_articles_and_names_every_raised_pair(
    written: tuple[Path, Path, list[Path]],
) -> None:
    dossier, json_path, _files = written
    text = _text(dossier)
    result = load_result(json_path)
    names = {d.id: d.name for d in result.documents}
    assert (
        "滨江新区排水管网改造工程第二标段" in text
        and "条例第四十条（一）" in text
        and "条例第四十条（四）" in text
    )
    assert "认定级" in text and "线索级" in text and "未发现不代表不存在串通" in text
    high = [p for p in result.pairs if p.level == "high"]
    assert high
    for pair in high:
        assert f"{names[pair.a]} ↔ {names[pair.b]}（一级预警）" in text
    assert "《中华人民共和国招标投标法实施条例》第四十条" in text and "办法第三十七条" not in text


def test_the_dossier_gives_every_files_digest_the_version_pages_and_pictures(
    written: tuple[Path, Path, list[Path]],
) -> None:
    dossier, _json, files = written
    text = _text(dossier)
    for path in files:
        assert hashlib.sha256(path.read_bytes()).hexdigest() in text, path.name
    assert f"bidcheck {__version__}" in text
    assert re.search(r"A 第 \d+ 页第 \d+ 段 / B 第 \d+ 页第 \d+ 段", text)  # signs located on both sides
    assert len(open_docx(str(dossier)).inline_shapes) >= 1  # the evidence on its page
    footer = open_docx(str(dossier)).sections[0].footer._element.xml
    assert "NUMPAGES" in footer and "PAGE" in footer


def test_the_dossier_converts_to_pdf(written: tuple[Path, Path, list[Path]], tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    out = printed(written[0], tmp_path)
    assert len(out.texts) >= 3 and "围标串标检查报告" in out.texts[0]
    pdf = pdfium.PdfDocument(str(out.pdf))
    SHOTS.mkdir(parents=True, exist_ok=True)
    for n in (0, 1):
        pdf[n].render(scale=1.0).to_pil().save(SHOTS / f"dossier-page{n + 1}.png")


def test_the_printed_workbook_carries_the_section_and_page_numbers(
    written: tuple[Path, Path, list[Path]], tmp_path: Path
) -> None:
    """Printed by LibreOffice, every page heads with the section and foots with its number, no text is
    smaller than 8 pt, and each sheet's first page holds its first and last columns (one page wide)."""
    import pypdfium2 as pdfium

    from bidcheck.report import write_xlsx

    result = load_result(written[1])
    write_xlsx(result, tmp_path / "报告.xlsx", "滨江新区排水管网改造工程第二标段")
    out = assert_prints_readably(tmp_path / "报告.xlsx", tmp_path, "滨江新区排水管网改造工程第二标段")
    pdf = pdfium.PdfDocument(str(out.pdf))
    SHOTS.mkdir(parents=True, exist_ok=True)
    pdf[0].render(scale=1.0).to_pil().save(SHOTS / "workbook-page1.png")
    ranked = next(n for n, t in enumerate(out.texts) if "标段　文件对排名" in t)
    pdf[ranked].render(scale=1.5).to_pil().save(SHOTS / "workbook-ranking.png")


def test_the_dossier_as_pdf_or_a_plain_word_why_not(
    section: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pypdfium2 as pdfium

    from bidcheck.ingest.office import SOFFICE_ENV

    out = tmp_path / "报告.pdf"
    argv = ["check", str(section["bids"]), "--tender", str(section["tender"]), "--quiet"]
    status = main([*argv, "--pdf", str(out)], io.StringIO(), io.StringIO())
    assert status == ExitStatus.SUCCESS
    assert "围标串标检查报告" in pdfium.PdfDocument(str(out))[0].get_textpage().get_text_range()
    monkeypatch.setenv(SOFFICE_ENV, str(tmp_path / "no-such-soffice"))
    err = io.StringIO()
    status = main([*argv, "--pdf", str(tmp_path / "again.pdf")], io.StringIO(), err)
    assert status == ExitStatus.USAGE and "写 PDF 报告需要 LibreOffice" in err.getvalue()
    assert not (tmp_path / "again.pdf").exists()


def test_a_dossier_saved_among_the_bids_is_no_bid_and_odd_names_do_not_stop_it(
    section: dict[str, Path], tmp_path: Path
) -> None:
    """The dossier (and its PDF) carries its author: saved in the section's folder it is not read as a
    bid the next time; a section name or note holding characters Word cannot hold is written all the same."""
    import shutil

    from bidcheck.pipeline import CheckInputs, check
    from bidcheck.report.dossier import write_docx
    from bidcheck.review import Review, pair_key

    bids = tmp_path / "bids"
    shutil.copytree(section["bids"], bids)
    argv = ["check", str(bids), "--tender", str(section["tender"]), "--quiet"]
    out = io.StringIO()
    argv_reports = ["--docx", str(bids / "标段-bidcheck.docx"), "--pdf", str(bids / "标段-bidcheck.pdf")]
    assert main([*argv, *argv_reports], out, io.StringIO()) == ExitStatus.SUCCESS
    out = io.StringIO()
    assert main(argv, out, io.StringIO()) == ExitStatus.SUCCESS
    assert "\n4 份投标文件，6 对" in out.getvalue()  # the two reports beside them are not bids
    result = check(CheckInputs((bids,), (section["tender"],)))
    pair = result.pairs[0]
    paths = {d.id: d.path for d in result.documents}
    reviews = {pair_key(paths[pair.a], paths[pair.b]): Review("confirmed", "备注\x0b\udcb1")}
    write_docx(result, tmp_path / "odd.docx", "标段\x01\udcb1", reviews=reviews)
    text = "\n".join(p.text for p in open_docx(str(tmp_path / "odd.docx")).paragraphs)
    assert "【评标委员会：已核实：备注" in text


def test_the_confirmed_dossier_holds_every_confirmed_pair_at_any_level(
    written: tuple[Path, Path, list[Path]], tmp_path: Path
) -> None:
    from bidcheck.report.dossier import write_docx
    from bidcheck.review import Review, pair_key

    result = load_result(written[1])
    names = {d.id: d.name for d in result.documents}
    paths = {d.id: d.path for d in result.documents}
    quiet = next(p for p in result.pairs if p.level == "none")
    high = [p for p in result.pairs if p.level == "high"]
    reviews = {pair_key(paths[p.a], paths[p.b]): Review("confirmed") for p in (quiet, high[0])}
    reviews[pair_key(paths[high[1].a], paths[high[1].b])] = Review("excluded", "同一集团内部，已说明")
    write_docx(result, tmp_path / "c.docx", "标段", reviews=reviews, confirmed_only=True)
    text = "\n".join(p.text for p in open_docx(str(tmp_path / "c.docx")).paragraphs)
    for pair in (quiet, high[0]):
        assert f"{names[pair.a]} ↔ {names[pair.b]}（" in text
    assert f"{names[high[1].a]} ↔ {names[high[1].b]}" not in text and "疑似串标组 1：" not in text
