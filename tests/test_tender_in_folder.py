"""A tender kept in the section's folder and named as the tender (``check 标段 --tender 标段/招标文件.docx``,
the way many agencies file a section) is the tender: not read as one more bid, not dropped as a file
given twice. So for ``library add`` and for a self-check whose reference folder holds the tender."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bidcheck.cli import ExitStatus, main
from bidcheck.config import Settings
from bidcheck.selfcheck import SelfCheckInputs, self_check
from tests.builders import make_docx, paragraphs

AGENCY = "招标代理机构：江苏中诚招标咨询有限公司，联系电话：025-84561234，账号：4650 6823 1177 0012。"


@pytest.fixture(scope="module")
def section(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three bids that each copy the tender's agency paragraph, and the tender, in one folder."""
    folder = tmp_path_factory.mktemp("sections") / "标段 一"
    folder.mkdir()
    make_docx(folder / "招标文件.docx", [[AGENCY, *paragraphs(900, 6)]])
    for number, name in enumerate(("甲建设有限公司", "乙市政有限公司", "丙路桥有限公司"), start=1):
        own = paragraphs(910 + number, 6)
        make_docx(folder / f"0{number}-{name}.docx", [[f"投标人：{name}（盖单位章）", AGENCY, *own]])
    return folder


def _run(*argv: str) -> tuple[ExitStatus, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out, err), out.getvalue(), err.getvalue()


def test_the_tender_in_the_folder_is_the_tender(section: Path, tmp_path: Path) -> None:
    report = tmp_path / "结果.json"
    tender = str(section / "招标文件.docx")
    status, out, _ = _run("check", str(section), "--tender", tender, "--json", str(report), "--quiet")
    assert status == ExitStatus.SUCCESS and "未提供招标文件" not in out
    documents = json.loads(report.read_text(encoding="utf-8"))["documents"]
    roles = {d["name"]: (d["role"], d["status"]) for d in documents}
    assert roles["招标文件.docx"] == ("tender", "ok") and len(documents) == 4
    assert out.startswith("3 份投标文件，3 对")


def test_library_add_keeps_the_tender_apart(section: Path, tmp_path: Path) -> None:
    library = tmp_path / "l.sqlite"
    tender = str(section / "招标文件.docx")
    argv = ("library", "--library", str(library), "add", str(section), "--section", "一", "--tender", tender)
    status, out, _ = _run(*argv)
    assert status == ExitStatus.SUCCESS and "已存入标段 一：3 份投标文件" in out
    shown = _run("library", "--library", str(library), "show", "一")[1]
    assert "招标文件  招标文件.docx" in shown and "投标文件  招标文件.docx" not in shown


def test_a_reference_folder_holding_the_tender_leaves_it_the_tender(section: Path) -> None:
    tender = section / "招标文件.docx"
    inputs = SelfCheckInputs(section / "01-甲建设有限公司.docx", (section,), (tender,))
    result = self_check(inputs, Settings(workers=1))
    assert [d.name for d in result.tenders] == ["招标文件.docx"] and result.tenders[0].ok
    assert "招标文件.docx" not in [d.name for d in result.references]
    assert result.clean, [f.detail for f in result.findings]  # the agency's phone and account are no finding


def test_without_tender_given_a_file_named_as_the_tender_is_taken_and_said(
    section: Path, tmp_path: Path
) -> None:
    """The command line takes the folder's 招标文件 as the tender, as the app does, and says so."""
    report = tmp_path / "结果.json"
    status, out, err = _run("check", str(section), "--json", str(report), "--quiet")
    assert status == ExitStatus.SUCCESS and "未提供招标文件" not in out
    assert "按文件名把 招标文件.docx 作为招标文件" in err
    roles = {d["name"]: d["role"] for d in json.loads(report.read_text(encoding="utf-8"))["documents"]}
    assert roles["招标文件.docx"] == "tender" and out.startswith("3 份投标文件，3 对")


@pytest.mark.parametrize(
    ("name", "tender"),
    [
        ("招标文件.docx", True),
        ("00-招标文件.pdf", True),
        ("招标控制价.xml", True),
        ("1、招标文件（第二版）.docx", True),
        ("关于招标文件的澄清响应.docx", False),
        ("恒信公司-对招标文件的响应与偏离表.pdf", False),
        ("投标文件（招标文件编号ZB2024-001）.pdf", False),
        ("招标文件响应表.docx", False),
    ],
)
def test_a_file_is_the_tender_by_a_name_that_begins_so_and_answers_nothing(name: str, tender: bool) -> None:
    from bidcheck.ingest.folder import named_as_tender

    assert named_as_tender(Path(name)) is tender


def test_every_file_found_is_listed_with_what_became_of_it(section: Path, tmp_path: Path) -> None:
    """Files in the section's folder that are not read are said, with why, in the summary, the JSON and
    the workbook's file list: none vanishes without a word."""
    import shutil

    from openpyxl import load_workbook

    folder = tmp_path / "标段"
    shutil.copytree(section, folder)
    (folder / "资料.rar").write_bytes(b"Rar!\x1a\x07\x00")
    (folder / "演示.pptx").write_bytes(b"x")
    (folder / "~$01-甲建设有限公司.docx").write_bytes(b"x")
    report, book = tmp_path / "r.json", tmp_path / "r.xlsx"
    status, out, _ = _run("check", str(folder), "--json", str(report), "--xlsx", str(book), "--quiet")
    assert status == ExitStatus.SUCCESS
    assert "跳过 资料.rar：不支持的文件类型（.rar）" in out and "跳过 演示.pptx" in out
    assert "跳过 ~$01-甲建设有限公司.docx：Office 打开文件时留下的临时文件" in out
    skipped = {
        Path(s["path"]).name: s["why"] for s in json.loads(report.read_text(encoding="utf-8"))["skipped"]
    }
    assert set(skipped) == {"资料.rar", "演示.pptx", "~$01-甲建设有限公司.docx"}
    rows = list(load_workbook(book)["文件清单"].iter_rows(min_row=2, values_only=True))
    assert {r[1] for r in rows if r[7] == "跳过"} == set(skipped)
