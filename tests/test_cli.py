"""The command line, called in-process: exit codes, progress, JSON contract, bad input in a batch."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from types import FrameType

import pytest
from docx import Document as new_docx

from bidcheck import __version__
from bidcheck.cli import ExitStatus, main
from bidcheck.workers import can_fork
from tests.builders import make_docx, paragraphs


def run(*argv: str) -> tuple[ExitStatus, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def _check_both_reports(section: dict[str, Path], out: Path) -> list[str]:
    """A check of the sample section on 2 workers, writing r.json and r.xlsx in ``out``."""
    reports = ["--json", str(out / "r.json"), "--xlsx", str(out / "r.xlsx")]
    return ["check", str(section["bids"]), "--tender", str(section["tender"]), *reports, "--workers", "2"]


@pytest.fixture(scope="module")
def checked(section: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    out = tmp_path_factory.mktemp("out")
    status, stdout, stderr = run(*_check_both_reports(section, out))
    return {
        "status": status,
        "stdout": stdout,
        "stderr": stderr,
        "json": json.loads((out / "r.json").read_text(encoding="utf-8")),
        "xlsx": out / "r.xlsx",
    }


def test_check_exits_0_and_shows_progress(checked: dict[str, object]) -> None:
    assert checked["status"] == ExitStatus.SUCCESS
    assert "100%" in str(checked["stderr"])
    assert "一级预警" in str(checked["stdout"])


def test_result_json_follows_the_contract(checked: dict[str, object]) -> None:
    result = checked["json"]
    assert isinstance(result, dict)
    assert result["schema"] == "bidcheck.result/1"
    assert set(result) >= {"settings", "elapsed_s", "documents", "pairs", "groups"}
    doc = result["documents"][0]
    assert set(doc) >= {
        "id",
        "name",
        "path",
        "format",
        "pages",
        "chars",
        "ocr_pages",
        "status",
        "error",
        "metadata",
    }
    bids = [d["id"] for d in result["documents"] if d["role"] == "bid"]
    assert len(result["pairs"]) == len(bids) * (len(bids) - 1) // 2
    for pair in result["pairs"]:
        assert set(pair) >= {
            "a",
            "b",
            "similarity",
            "coverage_a",
            "coverage_b",
            "simhash_similarity",
            "level",
            "reason",
            "passages",
        }
        for passage in pair["passages"]:
            for side in ("a", "b"):
                assert set(passage[side]) >= {"page", "paragraph", "start", "end", "text"}
            assert set(passage) >= {"similarity", "chars", "template", "common"}


def test_copied_pair_is_high_and_the_rest_share_only_tender_text(
    checked: dict[str, object], section: dict[str, Path]
) -> None:
    result = checked["json"]
    assert isinstance(result, dict)
    names = {d["id"]: d["name"] for d in result["documents"]}
    levels = {frozenset((names[p["a"]], names[p["b"]])): p for p in result["pairs"]}
    copied = levels[frozenset(("01-甲.docx", "02-乙.pdf"))]
    assert copied["level"] == "high"
    live = [p for p in copied["passages"] if not p["template"]]
    assert live and live[0]["a"]["page"] == 2 and live[0]["b"]["page"] == 2
    clean = levels[frozenset(("03-丙.docx", "04-丁.pdf"))]
    assert clean["level"] == "none" and clean["similarity"] == 0.0
    assert clean["passages"] and all(p["template"] for p in clean["passages"])


def test_passage_text_is_the_documents_own_wording(
    checked: dict[str, object], section: dict[str, Path]
) -> None:
    """``start``/``end`` locate the wording (punctuation and all) in the bid's cleaned text: its body
    paragraphs joined by newlines, as python-docx reads them from the file. The copy was of whole
    paragraphs, so the passage begins where one does."""
    result = checked["json"]
    assert isinstance(result, dict)
    names = {d["id"]: d["name"] for d in result["documents"]}
    pair, passage = next((pair, p) for pair in result["pairs"] for p in pair["passages"] if not p["template"])
    assert names[pair["a"]] == "01-甲.docx"
    body = [p.text for p in new_docx(str(section["a"])).paragraphs if p.text.strip()]
    side = passage["a"]
    cleaned = "\n".join(body)
    assert "，" in side["text"] and cleaned[side["start"] : side["end"]] == side["text"]
    assert cleaned[side["start"] - 1] == "\n" and side["text"][:20] in [p[:20] for p in body]  # copied whole


def test_bad_files_are_reported_and_the_rest_compared(section: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "bids"
    shutil.copytree(section["bids"], folder)
    (folder / "05-空.docx").write_bytes(b"")
    (folder / "06-坏.pdf").write_bytes(b"%PDF-1.4 broken")
    (folder / "07-假.docx").write_bytes(b"not a zip at all, only text pretending")
    out = tmp_path / "r.json"
    status, stdout, _ = run(
        "check",
        str(folder),
        str(folder / "01-甲.docx"),
        "--tender",
        str(section["tender"]),
        "--json",
        str(out),
        "--xlsx",
        str(tmp_path / "r.xlsx"),
        "--quiet",
    )
    assert status == ExitStatus.SOME_FILES_UNREADABLE
    result = json.loads(out.read_text(encoding="utf-8"))
    errors = {d["name"]: d["error"] for d in result["documents"] if d["status"] == "error"}
    assert set(errors) == {"05-空.docx", "06-坏.pdf"}
    skipped = {Path(v["path"]).name: v["why"] for v in result["skipped"]}
    assert skipped["01-甲.docx"].startswith("重复给出")  # given twice: read once, and said so
    assert "07-假.docx" not in errors  # plain text under a .docx name is read as text
    assert len(result["pairs"]) == 10  # five readable bids
    assert (tmp_path / "r.xlsx").exists()
    assert "无法读取 05-空.docx" in stdout


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run()[0] == ExitStatus.USAGE
    assert run("check")[0] == ExitStatus.USAGE
    status, _, err = run("check", str(tmp_path), "--tender", str(tmp_path / "missing.docx"))
    assert status == ExitStatus.USAGE and "missing.docx" in err
    bad = tmp_path / "s.json"
    bad.write_text('{"window_chars": -1}', encoding="utf-8")
    status, _, err = run("check", str(tmp_path), "--settings", str(bad))
    assert status == ExitStatus.USAGE and "window_chars" in err
    assert run("--help")[0] == ExitStatus.SUCCESS


def test_settings_file_changes_the_thresholds(section: dict[str, Path], tmp_path: Path) -> None:
    settings = tmp_path / "s.json"
    settings.write_text(json.dumps({"high_similarity": 0.99, "high_chars": 100000}), encoding="utf-8")
    out = tmp_path / "r.json"
    run(
        "check",
        str(section["bids"]),
        "--tender",
        str(section["tender"]),
        "--settings",
        str(settings),
        "--json",
        str(out),
        "--quiet",
    )
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["settings"]["high_similarity"] == 0.99
    assert {p["level"] for p in result["pairs"]} <= {"watch", "none"}


def test_a_section_with_one_readable_bid_still_reports(tmp_path: Path) -> None:
    make_docx(tmp_path / "only.docx", [paragraphs(1, 3)])
    out = tmp_path / "r.json"
    status, _, _ = run("check", str(tmp_path), "--json", str(out), "--quiet")
    assert status == ExitStatus.SUCCESS
    assert json.loads(out.read_text(encoding="utf-8"))["pairs"] == []


def test_version_names_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == ExitStatus.SUCCESS
    assert capsys.readouterr().out == f"bidcheck {__version__}\n"


def _without_times(result: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in result.items() if k not in ("elapsed_s", "timings")}


# Armed by a test: a report writer forked from here (``WrittenAside``) dies as it begins (SIGKILL), as
# one killed for memory does; the folder named is told which ones died.
_KILL_WRITERS_ASIDE: list[Path] = []


def _frames(frame: FrameType | None) -> list[FrameType]:
    found = []
    while frame is not None:
        found.append(frame)
        frame = frame.f_back
    return found


def _die_if_a_report_writer() -> None:
    """In a process just forked: die at once when armed and the fork is a report's writer aside."""
    names = {f.f_code.co_qualname for f in _frames(sys._getframe())}
    if _KILL_WRITERS_ASIDE and "WrittenAside.__init__" in names:
        (_KILL_WRITERS_ASIDE[0] / str(os.getpid())).touch()
        os.kill(os.getpid(), signal.SIGKILL)


if can_fork():
    os.register_at_fork(after_in_child=_die_if_a_report_writer)


@pytest.mark.skipif(not can_fork(), reason="a report is written aside where processes fork")
def test_both_reports_are_written_whole_when_the_forked_writer_is_killed(
    checked: dict[str, object], section: dict[str, Path], tmp_path: Path
) -> None:
    killed = tmp_path / "killed"
    killed.mkdir()
    _KILL_WRITERS_ASIDE.append(killed)
    try:
        status, stdout, _ = run(*_check_both_reports(section, tmp_path), "--quiet")
    finally:
        _KILL_WRITERS_ASIDE.clear()
    assert len(list(killed.iterdir())) == 1  # the one writer forked, which died
    assert status == ExitStatus.SUCCESS
    assert f"JSON 结果：{tmp_path / 'r.json'}" in stdout and f"Excel 报告：{tmp_path / 'r.xlsx'}" in stdout
    written = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert isinstance(checked["json"], dict)
    assert _without_times(written) == _without_times(checked["json"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["killed", "r.json", "r.xlsx"]  # no temporary file


def test_a_check_ends_its_process_with_its_status_its_output_written_and_its_exit_handlers_run(
    checked: dict[str, object], section: dict[str, Path], tmp_path: Path
) -> None:
    """The command ends without the interpreter's teardown (``cli._exit_now``), but as a process ending
    normally would: the summary reaches a pipe whole, exit handlers run, the status is the check's."""
    handled = tmp_path / "exit handler ran"
    script = (
        "import atexit, pathlib, sys\n"
        "atexit.register(pathlib.Path(sys.argv.pop(1)).touch)\n"
        "from bidcheck.cli import run\n"
        "run()\n"
    )
    argv = _check_both_reports(section, tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", script, str(handled), *argv, "--quiet"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    _, in_process, _ = run(*argv, "--quiet")
    assert done.returncode == ExitStatus.SUCCESS
    took = re.compile(r"用时 [\d.]+ 秒")
    assert took.sub("", done.stdout) == took.sub("", in_process) and "Excel 报告：" in done.stdout
    assert handled.exists()
    written = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert isinstance(checked["json"], dict)
    assert _without_times(written) == _without_times(checked["json"])


def test_an_unusable_check_ends_its_process_with_the_usage_status(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bidcheck.cli", "check", str(tmp_path / "none"), "--json", str(tmp_path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert done.returncode == ExitStatus.USAGE
    assert done.stderr.startswith("bidcheck: ") and "文件夹" in done.stderr
