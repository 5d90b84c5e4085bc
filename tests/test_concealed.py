"""Concealed text: what the readers find hidden or disguised in a file, and a pair sharing it."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docx import Document as new_docx
from docx.enum.style import WD_STYLE_TYPE
from docx.shared import Pt, RGBColor
from lxml import etree
from openpyxl import load_workbook
from PIL import Image
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from bidcheck.config import Settings
from bidcheck.ingest.docx_look import _CONCEALING, RunLooks, _conceals, look_of
from bidcheck.ingest.limits import ReadLimits, open_package
from bidcheck.pipeline import CheckInputs, check
from bidcheck.report.json import result_json
from bidcheck.report.xlsx import write_xlsx
from bidcheck.signals.concealed import concealed_in
from bidcheck.text import normalize
from bidcheck.text.concealed import disguises
from tests.builders import paragraphs, pdf_font

_TAIL = "模板拆除时间根据同条件养护试块强度确定，拆模后及时覆盖洒水养护不少于七天，并做好成品保护工作。"
COPIED = "底板钢筋绑扎完成后由监理工程师进行隐蔽验收，合格后方可浇筑C30混凝土，浇筑时分层振捣密实。" + _TAIL
# the same sentences with a Kangxi radical for 工, a Cyrillic С for the Latin C and zero-width spaces
DISGUISED = (
    "底板钢\u200b筋绑扎完成后由监理⼯程师进行隐蔽验收，合格后方可浇筑С30混凝土，浇筑时分层振\u200d捣密实。"
    + _TAIL
)
FIRST = DISGUISED[: DISGUISED.index("。") + 1]  # the disguised sentence
LATIN = "采用С30混凝土浇筑，模板采用Q235钢材，质量检验依据GB 50204执行。"  # a Cyrillic С


def _styled_docx(path: Path) -> Path:
    """A .docx holding each kind of concealed run, and runs that look alike but show."""
    document = new_docx()
    document.add_paragraph("第一段正常文字，说明施工组织设计的总体安排。")
    hidden = document.add_paragraph("第二段可见文字。").add_run("这段文字设为隐藏，打印时看不见。")
    hidden.font.hidden = True
    white = document.add_paragraph().add_run("白色的文字写在白纸上看不见。")
    white.font.color.rgb = RGBColor(0xFF, 0xFF, 0xF8)
    tiny = document.add_paragraph("很小的字：").add_run("一磅大小的文字谁也读不出。")
    tiny.font.size = Pt(1)
    style = document.styles.add_style("悄悄", WD_STYLE_TYPE.CHARACTER)
    style.font.hidden = True
    document.add_paragraph("样式：").add_run("由字符样式隐藏的文字。", style="悄悄")
    shown = document.add_paragraph().add_run("灰色文字看得见，字号十二磅。")
    shown.font.color.rgb = RGBColor(0x80, 0x80, 0x80)
    shown.font.size = Pt(12)
    document.add_paragraph(DISGUISED)
    document.save(str(path))
    return path


def test_a_docx_shows_its_hidden_white_tiny_and_disguised_text(tmp_path: Path) -> None:
    found = concealed_in(_styled_docx(tmp_path / "bid.docx"))
    assert [(c.kind, c.page, c.paragraph, c.text) for c in found] == [
        ("hidden", 1, 2, "这段文字设为隐藏，打印时看不见。"),
        ("white", 1, 3, "白色的文字写在白纸上看不见。"),
        ("tiny", 1, 4, "一磅大小的文字谁也读不出。"),
        ("hidden", 1, 5, "由字符样式隐藏的文字。"),
        ("zero_width", 1, 7, FIRST),
        ("homoglyph", 1, 7, FIRST),
    ]


def test_look_alikes_and_zero_width_characters_fold_away_with_offsets_kept() -> None:
    norm, offsets, _ = normalize(DISGUISED)
    assert norm == normalize(COPIED)[0]
    assert all(DISGUISED[o] not in "\u200b\u200d" for o in offsets) and len(offsets) == len(norm)
    assert DISGUISED[offsets[norm.index("工")]] == "⼯"  # the offset still points at the radical itself
    assert normalize(LATIN)[0].startswith("采用c30混凝土")
    assert [k for k, _, _ in disguises(LATIN)] == ["homoglyph"]
    plain = "采用C30混凝土，Q235钢材，GB 50204，φ12钢筋，“ZERO\u200b”，ΔT。"  # nothing inside a word
    assert disguises(plain) == [] and disguises("Z\u200bERO") == [("zero_width", 1, 2)]


def _pdf(path: Path, lines: list[tuple[str, int, float]], scan: bool = False) -> Path:
    """A PDF of lines (text, render mode, x); with ``scan``, a page-sized picture under them (a scan
    with its recognised text layer)."""
    canvas = Canvas(str(path), pagesize=A4, invariant=1)
    if scan:
        buffer = io.BytesIO()
        Image.new("RGB", (200, 280), (250, 250, 245)).save(buffer, "PNG")
        canvas.drawImage(ImageReader(buffer), 0, 0, *A4)
    for n, (text, mode, x) in enumerate(lines):
        canvas.saveState()  # the render mode is graphics state: it ends with the line
        line = canvas.beginText(x, 760 - 30 * n)
        line.setFont(pdf_font(), 12)
        line.setTextRenderMode(mode)
        line.textLine(text)
        canvas.drawText(line)
        canvas.restoreState()
    canvas.save()
    return path


def test_a_pdf_shows_invisible_and_off_page_text_but_not_a_scans_text_layer(tmp_path: Path) -> None:
    lines = [
        ("第一段正常文字，说明施工组织设计的总体安排和质量目标。", 0, 72.0),
        ("这是一段看不见的文字，抄自另一家投标文件的施工方案。", 3, 72.0),
        ("页面外的文字同样看不见，写在页面框之外。", 0, -900.0),
        ("最后一段正常文字，说明安全文明施工的措施。", 0, 72.0),
    ]
    found = concealed_in(_pdf(tmp_path / "bid.pdf", lines))
    assert [(c.kind, c.page, c.paragraph, c.text) for c in found] == [
        ("invisible", 1, 2, "这是一段看不见的文字，抄自另一家投标文件的施工方案。"),
        ("off_page", 1, 2, "页面外的文字同样看不见，写在页面框之外。"),  # joined to the line before
    ]
    scan = [(text, 3, 72.0) for text, _, _ in lines[:2]]
    assert concealed_in(_pdf(tmp_path / "scan.pdf", scan, scan=True)) == ()
    assert concealed_in(tmp_path / "missing.pdf") == ()


def _bid(path: Path, name: str, seed: int, extra: list[str], hide: str | None = None) -> Path:
    document = new_docx()
    for text in [f"投标人：{name}有限公司（盖单位章）", *paragraphs(seed, 4), *extra]:
        document.add_paragraph(text)
    if hide:
        document.add_paragraph("施工部署如下。").add_run(hide).font.hidden = True
    document.save(str(path))
    return path


def test_hidden_copied_text_and_a_disguised_copy_are_strong_signals(tmp_path: Path) -> None:
    own = paragraphs(80, 1)[0]
    tender = _bid(tmp_path / "tender.docx", "招标代理", 70, ["投标须知：" + paragraphs(71, 1)[0]])
    bids = [
        _bid(tmp_path / "01.docx", "恒信市政", 81, [own]),
        _bid(tmp_path / "02.docx", "华东建设", 82, [], hide=own),  # 01's paragraph, hidden in 02
        _bid(tmp_path / "03.docx", "中联路桥", 83, [COPIED]),
        _bid(tmp_path / "04.docx", "宏远建工", 84, [DISGUISED]),  # 03's sentence, disguised
        _bid(tmp_path / "05.docx", "东方路桥", 85, [], hide="投标须知：" + paragraphs(71, 1)[0]),
    ]
    result = check(CheckInputs(tuple(bids), (tender,)), Settings(workers=1))
    pairs = {(p.a, p.b): p for p in result.pairs}
    (hidden,) = pairs[("d1", "d2")].signals
    assert (hidden.kind, hidden.field, hidden.strength, pairs[("d1", "d2")].level) == (
        "concealed",
        "hidden",
        "strong",
        "high",
    )
    assert hidden.a is not None and hidden.a.paragraph == 6 and hidden.b is not None and hidden.b.text == own
    assert "隐藏文字" in hidden.detail and "02.docx" in hidden.detail
    fields = {s.field for s in pairs[("d3", "d4")].signals}
    assert fields == {"zero_width", "homoglyph"} and pairs[("d3", "d4")].level == "high"
    assert pairs[("d3", "d4")].passages, "the disguise must not break the copied passage"
    assert "一家文件中隐藏或伪装的文字与另一家的文字相同" in pairs[("d3", "d4")].reason
    raised = {key for key, p in pairs.items() if p.signals}
    assert raised == {("d1", "d2"), ("d3", "d4")}  # 05 hides the tender's text: no sign of a pair
    documents = {d["id"]: d for d in json.loads(result_json(result))["documents"]}
    assert [c["kind"] for c in documents["d5"]["concealed"]] == ["hidden"]
    assert documents["d1"]["concealed"] == []
    write_xlsx(result, tmp_path / "report.xlsx")
    rows = list(load_workbook(tmp_path / "report.xlsx")["文件属性"].iter_rows(values_only=True))
    column, count = rows[0].index("隐藏或伪装的文字"), rows[0].index("隐藏文字数")
    listed = {row[1]: (row[count], row[column]) for row in rows[1:]}
    assert listed["02.docx"][0] == 1 and str(listed["02.docx"][1]).startswith("隐藏文字 第 1 页第 6 段“")
    assert listed["04.docx"][0] == len(documents["d4"]["concealed"]) >= 2  # zero-width and look-alikes
    assert listed["01.docx"] in ((0, ""), (0, None))
    signs = list(load_workbook(tmp_path / "report.xlsx")["串标迹象"].iter_rows(values_only=True))
    assert {row[3] for row in signs[1:]} == {"隐藏文字"} and len(signs) == 4


def test_a_docx_without_concealing_formatting_skips_the_looks_and_one_with_any_does_not(
    tmp_path: Path,
) -> None:
    """Each way of concealing alone (hidden, near-white, 2 pt, a hidden style, a tiny default size)
    makes the reader resolve the runs' looks; grey 12-pt text and hidden text switched off do not."""

    def looks(path: Path) -> RunLooks:
        with open_package(path, ReadLimits()) as package:
            return RunLooks(package.parse("word/styles.xml"), package.parse("word/document.xml"))

    def bid(name: str, dress: Callable[[Any], None] | None = None) -> Path:
        document = new_docx()
        document.add_paragraph("施工组织设计。").add_run("本段说明总体安排。")
        if dress is not None:
            dress(document)
        document.save(str(tmp_path / name))
        return tmp_path / name

    plain = looks(bid("plain.docx", lambda d: setattr(d.paragraphs[0].runs[1].font, "size", Pt(12))))
    assert not plain.possible
    shown = bid("shown.docx", lambda d: setattr(d.paragraphs[0].runs[1].font, "hidden", False))
    assert not looks(shown).possible
    dressings = {
        "hidden": lambda d: setattr(d.paragraphs[0].runs[1].font, "hidden", True),
        "white": lambda d: setattr(d.paragraphs[0].runs[1].font.color, "rgb", RGBColor(0xF8, 0xF8, 0xF8)),
        "tiny": lambda d: setattr(d.paragraphs[0].runs[1].font, "size", Pt(2)),
        "style": lambda d: setattr(d.styles["Normal"].font, "hidden", True),
    }
    for name, dress in dressings.items():
        assert looks(bid(f"{name}.docx", dress)).possible, name
        assert [c.kind for c in concealed_in(tmp_path / f"{name}.docx")] == [
            "hidden" if name == "style" else name
        ], name


def test_the_quick_look_at_the_body_never_misses_formatting_the_runs_would_be_concealed_by() -> None:
    """For each value Word or a hand-made file may give: when a run's look would conceal it, the
    libxml2 search over the body finds the element too (it may find more, never less)."""
    values = {
        "vanish": ["", "1", "true", "On", "TRUE", "0", "false", "OFF", "no"],
        "color": ["FFFFFF", "fff0f5", "F0F0F0", "EFFFFF", "FFFFEF", "auto", "FFF", "000000", "FZFZFZ"],
        "sz": ["1", "4", "5", " 4", "+4", "-2", "x", "24", ""],
    }
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    for tag, options in values.items():
        for value in options:
            body = etree.Element(f"{w}body")
            rpr = etree.SubElement(etree.SubElement(etree.SubElement(body, f"{w}p"), f"{w}r"), f"{w}rPr")
            etree.SubElement(rpr, f"{w}{tag}", {f"{w}val": value})
            assert _CONCEALING(body) or not _conceals(look_of(rpr)), (tag, value)
            if (tag, value) in {("vanish", "0"), ("vanish", "OFF"), ("color", "000000"), ("sz", "24")}:
                assert not _CONCEALING(body), (tag, value)  # what shows leaves the quick look empty
