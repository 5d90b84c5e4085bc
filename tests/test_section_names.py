"""A section is named as its tender names it (项目名称, else the cover's title), or as the user names it;
a stored section can be renamed (``library rename``)."""

from __future__ import annotations

import io
from pathlib import Path

from bidcheck.cli import ExitStatus, main
from bidcheck.text.project_name import project_name

SAMPLE = Path(__file__).resolve().parents[1] / "resources" / "sample"


def run(*argv: str) -> tuple[ExitStatus, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def test_a_tender_names_its_project_and_lot() -> None:
    assert project_name("招标公告\n项目名称：滨江新区排水管网改造工程\n标段：第二标段\n") == (
        "滨江新区排水管网改造工程（第二标段）"
    )
    cover = "某市滨江新区道路及排水管网改造工程\n施工第二标段\n招标文件\n第一章 投标人须知\n项目概况……"
    assert project_name(cover) == "某市滨江新区道路及排水管网改造工程施工第二标段"
    assert (
        project_name("某市临江新区综合管网工程第三标段施工招标文件\n第一章")
        == "某市临江新区综合管网工程第三标段"
    )
    assert project_name("第一章 投标人须知\n本工程……") == ""


def test_the_library_stores_a_section_by_its_tenders_name_and_renames_it(tmp_path: Path) -> None:
    library = tmp_path / "l.sqlite"
    argv = ["check", str(SAMPLE / "bids"), "--tender", str(SAMPLE / "tender" / "招标文件.docx")]
    status, out, _ = run(*argv, "--library", str(library), "--quiet")
    name = "某市滨江新区道路及排水管网改造工程施工第二标段"
    assert status == ExitStatus.SUCCESS and f"本标段已存入（{name}）" in out
    assert f"标段  {name}  6 份投标文件" in run("library", "list", "--library", str(library))[1]
    status, out, _ = run("library", "rename", name, "滨江二标", "--library", str(library))
    assert status == ExitStatus.SUCCESS and out == f"已把标段 {name} 改名为 滨江二标\n"
    assert "标段  滨江二标  6 份投标文件" in run("library", "list", "--library", str(library))[1]
    status, out, _ = run("library", "rename", "没有的标段", "x", "--library", str(library))
    assert status == ExitStatus.USAGE and out == "资料库中没有标段 没有的标段\n"
    status, out, _ = run(
        "check", str(SAMPLE / "bids"), "--section", "另一个", "--library", str(library), "--quiet"
    )
    assert "本标段已存入（另一个）" in out
    status, out, _ = run("library", "rename", "另一个", "滨江二标", "--library", str(library))
    assert status == ExitStatus.USAGE and out == "资料库中已有标段 滨江二标，请换一个名称\n"
