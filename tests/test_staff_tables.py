"""Staff named in tables laid out as columns (职务 | 姓名 | 证书编号 …): read from real Word and PDF bids,
shared between two bids as identifier signals located at the row on both sides, silent otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest
from docx import Document as new_docx
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from bidcheck.config import Settings
from bidcheck.model import CheckResult, PairResult
from bidcheck.pipeline import CheckInputs, check
from bidcheck.prepare import prepare_document
from bidcheck.signals.identifier import cell_starts, id_number_ok, identifiers
from bidcheck.text.normalize import build_clean_text
from bidcheck.text.staff import staff_values
from tests.builders import draw_prose, paragraphs, pdf_font

_HEADER = ["序号", "拟任职务", "姓名", "证书编号", "身份证号"]
_POSTS = ("项目经理", "技术负责人", "安全员")
_SURNAMES = "王李张刘陈杨黄赵周吴徐孙马朱胡郭何高林罗"
_GIVEN = "建国海波志强丽华明杰秀英文军红梅小龙永春德胜玉兰"


def _id_number(seed: int) -> str:
    """A resident ID number with its right check character."""
    body = f"320102{1960 + seed % 30}{1 + seed % 12:02d}{1 + seed % 28:02d}{seed % 1000:03d}"
    return next(body + c for c in "0123456789X" if id_number_ok(body + c))


def _person(seed: int) -> list[str]:
    """A bidder's own staff: a row for each post (name, certificate, ID number)."""
    rows = []
    for n, post in enumerate(_POSTS):
        name = _SURNAMES[(seed * 3 + n) % 20] + _GIVEN[(seed * 7 + n * 5) % 24] + _GIVEN[(seed + n * 11) % 24]
        rows.append(
            [str(n + 1), post, name, f"苏{132_201_100_0000 + seed * 37 + n}", _id_number(seed * 3 + n)]
        )
    return rows


_SHARED = ["1", "项目经理", "吴海波", "苏1322011201234", "11010519491231002X"]


_BIDDERS = ("恒信市政", "华东建设", "中联路桥", "宏远建工", "东方路桥", "临江水利", "百川园林", "正泰安装")


def _bid(root: Path, n: int, suffix: str = "docx") -> Path:
    """Where bid ``n`` of a section is written (its bidder in its name)."""
    return (
        root / f"{n:02d}-{_BIDDERS[n % len(_BIDDERS)]}{'工程' if n >= len(_BIDDERS) else ''}有限公司.{suffix}"
    )


def _own(path: Path, seed: int, count: int = 4) -> list[str]:
    """A bid's own paragraphs, its bidder's form first (from the file's name)."""
    return [f"投标人：{path.stem[3:]}（盖单位章）", *paragraphs(seed, count)]


def _staff_docx(path: Path, own: list[str], rows: list[list[str]]) -> Path:
    """A Word bid: its own paragraphs, then its staff table under ``_HEADER``."""
    document = new_docx()
    for text in own:
        document.add_paragraph(text)
    document.add_paragraph("项目管理机构组成表")
    table = document.add_table(rows=len(rows) + 1, cols=len(_HEADER))
    for cells, row in zip(table.rows, [_HEADER, *rows], strict=True):
        for cell, text in zip(cells.cells, row, strict=True):
            cell.text = text
    document.add_paragraph("以上人员均为本单位正式职工。")
    document.save(str(path))
    return path


def _table_pdf(path: Path, own: list[str], title: str, rows: list[list[str]], xs: tuple[int, ...]) -> Path:
    """A text PDF bid: its own paragraphs, then a titled table drawn as columns starting at ``xs``."""
    canvas = Canvas(str(path), pagesize=A4, invariant=1)
    canvas.setFont(pdf_font(), 10.5)
    y = draw_prose(canvas, own, 790.0)
    canvas.drawString(60, y - 8, title)
    y -= 36
    for row in rows:
        for x, cell in zip(xs, row, strict=True):
            canvas.drawString(x, y, cell)
        canvas.line(58, y - 4, 540, y - 4)
        y -= 20
    canvas.drawString(60, y - 10, "以上人员均为本单位正式职工。")
    canvas.save()
    return path


def _staff_pdf(path: Path, own: list[str], rows: list[list[str]]) -> Path:
    """A text PDF bid: its own paragraphs, then its staff table drawn as columns."""
    return _table_pdf(path, own, "项目管理机构组成表", [_HEADER, *rows], (60, 100, 180, 250, 370))


def _values(path: Path) -> list[tuple[str, str]]:
    ready = prepare_document(path, "d", "bid", Settings()).ready
    assert ready is not None
    return [(field, value) for field, value, _ in staff_values(ready.doc.compared_blocks())]


@pytest.mark.parametrize("maker", [_staff_docx, _staff_pdf])
def test_names_certificates_and_ids_are_read_by_their_column_headers(tmp_path: Path, maker: object) -> None:
    path = tmp_path / ("bid.docx" if maker is _staff_docx else "bid.pdf")
    rows = [
        _SHARED,
        ["2", "技术负责人", "待定", "", ""],
        ["3", "安全员", "李 明", "苏建安C（2019）0001234", ""],
    ]
    assert callable(maker)
    maker(path, paragraphs(5, 2), rows)
    values = _values(path)
    assert ("person", "吴海波") in values and ("certificate", "苏1322011201234") in values
    assert ("id_number", "11010519491231002X") in values
    assert ("certificate", "苏建安C（2019）0001234") in values
    assert ("person", "待定") not in values  # a note in the name column is no name
    assert not any(value in ("项目经理", "技术负责人", "安全员", "1", "2") for _, value in values)


def test_a_pdf_header_spaced_out_and_a_row_with_an_empty_cell_are_read(tmp_path: Path) -> None:
    canvas = Canvas(str(tmp_path / "bid.pdf"), pagesize=A4, invariant=1)
    canvas.setFont(pdf_font(), 10.5)
    canvas.drawString(60, 790, "拟投入本项目主要人员表")
    rows = [
        ["序号", "职  务", "姓  名", "证书编号"],
        ["1", "项目经理", "吴海波", ""],  # no certificate: the page row has a cell less
        ["2", "技术负责人", "李  明", "苏1322011209876"],
    ]
    for y, row in zip((760, 740, 720), rows, strict=True):
        for x, cell in zip((60, 100, 220, 340), row, strict=True):
            canvas.drawString(x, y, cell)
    canvas.save()
    values = _values(tmp_path / "bid.pdf")
    assert values == [("person", "吴海波"), ("person", "李明"), ("certificate", "苏1322011209876")]


def test_a_table_of_names_alone_and_prose_after_the_table_are_not_staff(tmp_path: Path) -> None:
    document = new_docx()
    table = document.add_table(rows=2, cols=3)
    for cells, row in zip(table.rows, [["序号", "姓名", "单位"], ["1", "吴海波", "某公司"]], strict=True):
        for cell, text in zip(cells.cells, row, strict=True):
            cell.text = text
    document.add_paragraph("项目经理 吴海波")
    document.save(str(tmp_path / "sign.docx"))
    assert _values(tmp_path / "sign.docx") == []


def _pairs(result: CheckResult) -> dict[tuple[str, str], PairResult]:
    return {(p.a, p.b): p for p in result.pairs}


def _identifier_signals(pair: PairResult) -> dict[str, str]:
    return {s.field: s.value for s in pair.signals if s.kind == "identifier"}


@pytest.fixture(scope="module")
def shared_row(tmp_path_factory: pytest.TempPathFactory) -> CheckResult:
    """Four bids with the tender's staff table frame: 01 (Word) and 02 (PDF) name the same project
    manager with his certificate and ID number; 03 and 04 their own staff."""
    root = tmp_path_factory.mktemp("staff")
    tender = _staff_docx(
        root / "tender.docx", paragraphs(900, 3), [[str(n + 1), p, "", "", ""] for n, p in enumerate(_POSTS)]
    )
    _staff_docx(path := _bid(root, 1), _own(path, 901, 5), [_SHARED, *_person(1)[1:]])
    _staff_pdf(path := _bid(root, 2, "pdf"), _own(path, 902, 5), [_SHARED, *_person(2)[1:]])
    _staff_docx(path := _bid(root, 3), _own(path, 903, 5), _person(3))
    _staff_pdf(path := _bid(root, 4, "pdf"), _own(path, 904, 5), _person(4))
    return check(CheckInputs(tuple(sorted(root.glob("0*"))), (tender,)), Settings(workers=1))


def test_the_same_staff_row_in_two_bids_is_a_signal_located_on_both_sides(shared_row: CheckResult) -> None:
    pairs = _pairs(shared_row)
    pair = pairs[("d1", "d2")]
    assert _identifier_signals(pair) == {
        "person": "吴海波",
        "certificate": "苏1322011201234",
        "id_number": "11010519491231002X",
    }
    assert pair.level == "high"  # the certificate and ID are strong; the name alone would be supporting
    strengths = {s.field: s.strength for s in pair.signals if s.kind == "identifier"}
    assert strengths["person"] == "supporting" and strengths["certificate"] == "strong"
    for signal in pair.signals:
        assert signal.a is not None and signal.b is not None
        assert "项目经理" in signal.a.text and "吴海波" in signal.a.text  # the row, in Word: cells joined
        assert "项目经理" in signal.b.text and "吴海波" in signal.b.text  # the PDF's row
        assert signal.a.page == 1 and signal.b.page == 1
        assert signal.a.paragraph > 5 and signal.b.paragraph > 5  # the row, after the bid's own text
    for key, other in pairs.items():
        if key != ("d1", "d2"):
            assert not _identifier_signals(other), key


def test_a_name_in_a_table_pairs_with_the_same_name_after_its_post(tmp_path: Path) -> None:
    _staff_docx(path := _bid(tmp_path, 1), _own(path, 911), [[*_SHARED[:3], "", ""], *_person(11)[1:]])
    document = new_docx()
    for text in [*_own(_bid(tmp_path, 2), 912), "项目经理：吴海波"]:
        document.add_paragraph(text)
    document.save(str(_bid(tmp_path, 2)))
    _staff_docx(path := _bid(tmp_path, 3), _own(path, 913), _person(13))
    result = check(CheckInputs(tuple(sorted(tmp_path.glob("0*"))), ()), Settings(workers=1))
    pair = _pairs(result)[("d1", "d2")]
    assert _identifier_signals(pair) == {"person": "吴海波"} and pair.level == "watch"
    signal = pair.signals[0]
    assert signal.a is not None and signal.a.text.startswith("1 | 项目经理 | 吴海波")
    assert signal.b is not None and signal.b.text == "项目经理：吴海波"


def test_ten_bids_with_their_own_staff_under_the_tenders_frame_raise_nothing(tmp_path: Path) -> None:
    frame = [[str(n + 1), p, "", "", ""] for n, p in enumerate(_POSTS)]
    tender = _staff_docx(tmp_path / "tender.docx", paragraphs(930, 3), frame)
    for n in range(10):
        maker, path = (_staff_docx, _bid(tmp_path, n)) if n % 2 else (_staff_pdf, _bid(tmp_path, n, "pdf"))
        maker(path, _own(path, 931 + n), _person(20 + n))
    bids = tuple(sorted(tmp_path.glob("0*")))
    for tenders in ((tender,), ()):
        result = check(CheckInputs(bids, tenders), Settings(workers=1))
        assert all(d.status == "ok" for d in result.documents)
        raised = [(p.a, p.b, _identifier_signals(p)) for p in result.pairs if _identifier_signals(p)]
        assert raised == [], tenders
        assert {p.level for p in result.pairs} == {"none"}


def test_a_row_the_tender_fills_in_is_the_tenders_not_a_sign(tmp_path: Path) -> None:
    sample = ["1", "项目经理", "吴海波", "苏1322011201234", ""]  # the tender's own example row
    tender = _staff_docx(tmp_path / "tender.docx", paragraphs(940, 3), [sample])
    for n in range(4):  # two bids keep the example row, two write their own
        rows = [sample, *_person(40 + n)[1:]] if n < 2 else _person(40 + n)
        _staff_docx(path := _bid(tmp_path, n), _own(path, 941 + n), rows)
    bids = tuple(sorted(tmp_path.glob("0*")))
    with_tender = check(CheckInputs(bids, (tender,)), Settings(workers=1))
    assert not any(_identifier_signals(p) for p in with_tender.pairs)
    without = _pairs(check(CheckInputs(bids, ()), Settings(workers=1)))  # the same files, no tender
    assert _identifier_signals(without[("d1", "d2")]) == {
        "person": "吴海波",
        "certificate": "苏1322011201234",
    }


_RESUME = [
    ["姓名", "吴海波", "性别", "男"],
    ["职务", "项目经理", "职称", "高级工程师"],
    ["注册证书编号", "苏1322011201234", "身份证号", "11010519491231002X"],
]


def _resume_pdf(path: Path, own: list[str], rows: list[list[str]]) -> Path:
    """A text PDF bid whose 项目经理简历表 is laid out as label | value."""
    return _table_pdf(path, own, "项目经理简历表", rows, (60, 160, 300, 400))


def _resume_docx(path: Path, own: list[str], rows: list[list[str]]) -> Path:
    """A Word bid whose 项目经理简历表 is laid out as label | value."""
    document = new_docx()
    for text in [*own, "项目经理简历表"]:
        document.add_paragraph(text)
    table = document.add_table(rows=len(rows), cols=4)
    for cells, row in zip(table.rows, rows, strict=True):
        for cell, text in zip(cells.cells, row, strict=True):
            cell.text = text
    document.save(str(path))
    return path


def test_a_resume_table_laid_out_as_label_and_value_is_staff(tmp_path: Path) -> None:
    _resume_docx(path := _bid(tmp_path, 1), _own(path, 951), _RESUME)
    _resume_pdf(path := _bid(tmp_path, 2, "pdf"), _own(path, 952), _RESUME)
    own = [["姓名", "罗春军", "性别", "男"], ["职务", "项目经理", "职称", "工程师"]]
    _resume_docx(path := _bid(tmp_path, 3), _own(path, 953), own)
    result = check(CheckInputs(tuple(sorted(tmp_path.glob("0*"))), ()), Settings(workers=1))
    pairs = _pairs(result)
    assert _identifier_signals(pairs[("d1", "d2")]) == {
        "person": "吴海波",
        "certificate": "苏1322011201234",
        "id_number": "11010519491231002X",
    }
    assert not _identifier_signals(pairs[("d1", "d3")]) and not _identifier_signals(pairs[("d2", "d3")])
    person = next(s for s in pairs[("d1", "d2")].signals if s.field == "person")
    assert person.a is not None and "姓名 | 吴海波" in person.a.text
    assert person.b is not None and "吴海波" in person.b.text


def test_a_table_of_particulars_naming_no_post_is_no_staff(tmp_path: Path) -> None:
    particulars = [["姓名", "吴海波", "性别", "男"], ["单位", "恒信市政有限公司", "电话", "0571-8888"]]
    assert _values(_resume_docx(tmp_path / "a.docx", [], particulars)) == []
    assert ("person", "吴海波") in _values(_resume_docx(tmp_path / "b.docx", [], _RESUME))


def test_a_pdf_row_whose_narrow_cells_wrap_is_read_whole(tmp_path: Path) -> None:
    """A PDF writer puts a table cell by cell: the row's first line, then the further lines of a wrapped
    cell under it, the next cells' first lines level with the row. The row is read back whole (the
    certificate, the mobile and the company each one cell), its mobile apart from the certificate before
    it; the heading and the prose after the table stay paragraphs."""
    path = tmp_path / "staff.pdf"
    canvas = Canvas(str(path), pagesize=A4, invariant=1)
    canvas.setFont(pdf_font(), 10)
    columns = (60, 140, 200, 290, 380, 470)
    rows = [
        [["职务"], ["姓名"], ["证书编号"], ["身份证号"], ["联系电话"], ["所在单位"]],
        [["技术负责"], ["赵志远"], ["苏1322019", "998888"], ["1101051949", "1231002X"], ["1391234", "5678"],
         ["南京恒信市", "政工程有限", "公司"]],
    ]  # fmt: skip
    y = 760.0
    for cells in rows:
        for x, lines in zip(columns, cells, strict=True):  # cell by cell, line by line
            for k, line in enumerate(lines):
                canvas.drawString(x, y - 13 * k, line)
        y -= 13 * max(len(lines) for lines in cells) + 6
    canvas.drawString(60, y - 20, "二、施工部署")
    draw_prose(canvas, paragraphs(588, 1), y - 40)
    canvas.showPage()
    canvas.save()
    doc = prepare_document(path, "d1", "bid", Settings()).doc
    table = [b.text for b in doc.blocks if b.kind == "table"]
    assert table == [
        "职务 姓名 证书编号 身份证号 联系电话 所在单位",
        "技术负责 赵志远 苏1322019998888 11010519491231002X 13912345678 南京恒信市政工程有限公司",
    ]
    assert "二、施工部署" in [b.text for b in doc.blocks if b.kind == "body"]
    staff = {(field, value) for field, value, _row in staff_values(doc.compared_blocks())}
    assert ("person", "赵志远") in staff and ("certificate", "苏1322019998888") in staff
    assert ("id_number", "11010519491231002X") in staff
    clean = build_clean_text(doc)
    assert "13912345678" in identifiers(clean, cell_starts(doc, clean))["phone"]
