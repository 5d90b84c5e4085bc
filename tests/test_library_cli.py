"""The library's verbs and ``near`` given what a user mistypes: a file to import or a folder to add that
is not there, a file that is not a library, an unreadable bid, output paths that cannot take the file.
Each is said in a sentence with its exit code; nothing is created or stored by mistake, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from bidcheck.cli import ExitStatus
from tests.builders import make_docx, paragraphs
from tests.test_library import run


@pytest.fixture()
def stored(tmp_path: Path) -> Path:
    """A library holding one checked section of two bids (in a folder whose name has a space)."""
    folder = tmp_path / "标段 一"
    folder.mkdir()
    make_docx(folder / "01-甲公司.docx", [paragraphs(11, 6)])
    make_docx(folder / "02-乙公司.docx", [paragraphs(12, 6)])
    library = tmp_path / "资料 库.sqlite"
    status, _, _ = run("library", "--library", str(library), "add", str(folder), "--section", "一")
    assert status == ExitStatus.SUCCESS
    return library


def test_importing_a_missing_file_says_so_and_makes_nothing(stored: Path, tmp_path: Path) -> None:
    missing = tmp_path / "没有这个.sqlite"
    status, out, err = run("library", "--library", str(stored), "import", str(missing))
    assert status == ExitStatus.USAGE
    assert f"找不到要导入的资料库文件：{missing}" in out + err
    assert not missing.exists()


def test_importing_a_file_that_is_no_library_names_that_file(stored: Path, tmp_path: Path) -> None:
    bid = make_docx(tmp_path / "投标.docx", [paragraphs(13, 2)])
    status, _, err = run("library", "--library", str(stored), "import", str(bid))
    assert status == ExitStatus.LIBRARY_FAILED
    assert err.startswith(f"bidcheck: 无法导入 {bid}：") and "Traceback" not in err
    assert "一  2 份投标文件" in run("library", "--library", str(stored), "list")[1]  # untouched


def test_adding_a_missing_folder_or_tender_stores_nothing(stored: Path, tmp_path: Path) -> None:
    status, out, _ = run("library", "--library", str(stored), "add", str(tmp_path / "无"), "--section", "二")
    assert status == ExitStatus.USAGE and f"找不到文件或文件夹：{tmp_path / '无'}" in out
    folder = stored.parent / "标段 一"
    tender = tmp_path / "招标文件.docx"
    argv = ("add", str(folder), "--section", "三", "--tender", str(tender))
    status, out, _ = run("library", "--library", str(stored), *argv)
    assert status == ExitStatus.USAGE and f"找不到文件或文件夹：{tender}" in out
    listed = run("library", "--library", str(stored), "list")[1]
    assert "二" not in listed and "三" not in listed


def test_adding_a_folder_with_a_broken_bid_says_which_and_exits_1(stored: Path, tmp_path: Path) -> None:
    folder = tmp_path / "标段 二"
    folder.mkdir()
    make_docx(folder / "01-丙公司.docx", [paragraphs(21, 6)])
    make_docx(folder / "02-丁公司.docx", [paragraphs(22, 6)])
    (folder / "03-坏 文件.docx").write_bytes(b"PK\x03\x04 not a zip at all")
    status, out, _ = run("library", "--library", str(stored), "add", str(folder), "--section", "二")
    assert status == ExitStatus.SOME_FILES_UNREADABLE
    assert "无法读取 03-坏 文件.docx：" in out and "已存入标段 二：2 份投标文件" in out


def test_a_model_document_entry_counts_its_files(stored: Path, tmp_path: Path) -> None:
    model = make_docx(tmp_path / "示范文本.docx", [paragraphs(31, 4)])
    argv = ("add-template", str(model), "--name", "示范")
    assert run("library", "--library", str(stored), *argv)[0] == ExitStatus.SUCCESS
    assert "范本  示范  1 份范本文件" in run("library", "--library", str(stored), "list")[1]


@pytest.mark.parametrize("verb", [("groups", "--json"), ("export",), ("near",)])
def test_an_output_path_that_cannot_take_the_file_is_refused(
    stored: Path, tmp_path: Path, verb: tuple[str, ...]
) -> None:
    for target in (tmp_path / "不存在" / "out.json", tmp_path, Path("-")):
        if verb == ("near",):
            bid = stored.parent / "标段 一" / "01-甲公司.docx"
            argv: tuple[str, ...] = ("near", str(bid), "--library", str(stored), "--json", str(target))
        else:
            argv = ("library", "--library", str(stored), *verb, str(target))
        status, _, err = run(*argv)
        assert status == ExitStatus.USAGE, (argv, err)
        assert err.startswith(f"bidcheck: 无法写入 {target}：") and "Traceback" not in err
    assert not Path("-").exists() and not (tmp_path / "不存在").exists()


def test_a_report_is_never_written_to_a_file_named_dash(stored: Path) -> None:
    bids = stored.parent / "标段 一"
    bid = str(bids / "01-甲公司.docx")
    for argv in (("check", str(bids), "--json", "-"), ("selfcheck", bid, "--xlsx", "-")):
        status, out, err = run(*argv, "--quiet")
        assert status == ExitStatus.USAGE and out == ""
        assert "请给出文件名" in err
    assert not Path("-").exists()


@pytest.mark.parametrize("verb", [("list",), ("show", "一"), ("remove", "一"), ("stats",), ("groups",)])
def test_a_mistyped_library_is_said_not_made(tmp_path: Path, verb: tuple[str, ...]) -> None:
    typo = tmp_path / "资料 库" / "libary.sqlite"
    status, out, _ = run("library", "--library", str(typo), *verb)
    assert status == ExitStatus.USAGE and f"资料库 {typo} 不存在" in out
    assert not typo.parent.exists()


def test_a_folder_given_as_the_library_is_said_in_words(tmp_path: Path) -> None:
    status, _, err = run("library", "--library", str(tmp_path), "add", str(tmp_path), "--section", "一")
    assert status == ExitStatus.LIBRARY_FAILED
    assert err == f"bidcheck: 无法打开资料库 {tmp_path}：这是一个文件夹，请给出资料库文件名\n"


def test_a_vault_that_is_no_folder_is_a_usage_error(stored: Path, tmp_path: Path) -> None:
    bid = stored.parent / "标段 一" / "01-甲公司.docx"
    for vault, what in ((tmp_path / "无 此文件夹", "不存在"), (bid, "是一个文件")):
        status, out, err = run("near", str(bid), "--vault", str(vault))
        assert status == ExitStatus.USAGE and out == ""
        assert err == f"bidcheck: --vault 应为文件夹，{vault} {what}\n"


def _section_of_files(folder: Path, seed: int) -> list[str]:
    """Two bids named as every section's bids are (01-甲公司.docx, 02-乙公司.docx), with their own text."""
    folder.mkdir(parents=True)
    make_docx(folder / "01-甲公司.docx", [paragraphs(seed, 6)])
    make_docx(folder / "02-乙公司.docx", [paragraphs(seed + 1, 6)])
    return [str(folder / "01-甲公司.docx"), str(folder / "02-乙公司.docx")]


def test_a_section_that_only_shares_a_default_name_is_kept(tmp_path: Path) -> None:
    library = str(tmp_path / "l.sqlite")
    first = _section_of_files(tmp_path / "2025" / "投标文件", 41)
    second = _section_of_files(tmp_path / "2026" / "投标文件", 51)
    assert run("check", *first, "--library", library, "--quiet")[0] == ExitStatus.SUCCESS
    status, out, _ = run("check", *second, "--library", library, "--quiet")
    assert status == ExitStatus.SUCCESS
    assert "对照 1 个标段、2 份投标文件；本标段已存入（01-甲公司.docx（2））" in out
    out = run("check", *first, "--library", library, "--quiet")[1]  # the first again: replaced
    assert "对照 1 个标段、2 份投标文件；本标段已存入（01-甲公司.docx）" in out
    folders = [str(tmp_path / year / "投标文件") for year in ("2025", "2026")]
    assert "本标段已存入（投标文件）" in run("check", folders[0], "--library", library, "--quiet")[1]
    assert "本标段已存入（投标文件（2））" in run("check", folders[1], "--library", library, "--quiet")[1]
    named = run("check", *second, "--library", library, "--section", "投标文件", "--quiet")[1]
    assert "本标段已存入（投标文件）" in named  # a name given is the user's: that section is replaced
    listed = run("library", "--library", library, "list")[1]
    names = sorted(line.split("  ")[2] for line in listed.splitlines())
    assert names == ["01-甲公司.docx", "01-甲公司.docx（2）", "投标文件", "投标文件（2）"]


def test_the_library_option_may_follow_the_verb_and_a_closed_pipe_ends_quietly(stored: Path) -> None:
    import subprocess
    import sys

    status, listed, _ = run("library", "list", "--library", str(stored))
    assert status == ExitStatus.SUCCESS and "一" in listed
    command = [
        sys.executable,
        "-c",
        "from bidcheck.cli import run; run()",
        "library",
        "--library",
        str(stored),
    ]
    process = subprocess.Popen([*command, "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before a word is written (``| head -0``)
    stderr = process.stderr.read().decode("utf-8", "replace")
    assert process.wait(timeout=120) == 141 and "Traceback" not in stderr and "BrokenPipe" not in stderr, (
        stderr
    )


def test_a_section_stored_under_a_template_sets_name_replaces_it_never_joins_it(tmp_path: Path) -> None:
    """A section named as a kept template set is a section of bids: the set is replaced, and its model
    documents are no longer offered as templates; the bids never become model documents."""
    from bidcheck.library import open_library

    library = tmp_path / "库.sqlite"
    model = make_docx(tmp_path / "范本.docx", [paragraphs(40, 4)])
    assert run("library", "--library", str(library), "add-template", str(model), "--name", "范本")[0] == 0
    folder = tmp_path / "标段"
    folder.mkdir()
    make_docx(folder / "01-甲公司.docx", [paragraphs(41, 6)])
    make_docx(folder / "02-乙公司.docx", [paragraphs(42, 6)])
    assert run("library", "--library", str(library), "add", str(folder), "--section", "范本")[0] == 0
    opened = open_library(library)
    try:
        (row,) = [r for r in opened.sections() if r.name == "范本"]
        assert (row.kind, row.files) == ("section", 2) and opened.template_texts() == []
    finally:
        opened.close()
