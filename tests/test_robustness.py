"""One file never takes the check down: the fast cases of ``bench.robustness`` next to good bids, each
checked by ``bidcheck check`` in a fresh process whose process tree's memory is sampled."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PIL import Image

from bench.robustness import CASES, FAST, GOOD, kill_reader, prepare_folder, run_check
from bidcheck.config import Settings
from bidcheck.pipeline import CheckInputs, check
from tests.builders import make_pdf, paragraphs
from tests.test_ocr import page_images

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="memory and worker processes are looked at in /proc"
)

EXPECTED = {
    "bomb.docx": "文件解压后过大（600 MB，上限 200 MB），疑似压缩炸弹，已跳过",
    "drawing.pdf": "第 1 页尺寸过大（5080 × 5080 毫米）",
    "laughs.docx": "文件已损坏",
    "entries.docx": "压缩包内文件过多（20003 个，上限 10000 个）",
    "absurd.png": "图片像素过多",
    "huge.txt": "文件文字过多（超过 500 万字的上限）",
}


def test_hostile_files_are_refused_and_the_good_bids_compared(tmp_path: Path) -> None:
    paths, _ = prepare_folder(tmp_path / "in", [CASES[name] for name in FAST])
    # the address space of the whole check is capped at 4 GB, so that a build which does not refuse
    # these files fails here instead of taking the machine's memory
    run = run_check(paths, tmp_path / "out", memory_limit_mb=4096)
    errors = {str(d["name"]): str(d["error"]) for d in run.documents if d["status"] == "error"}
    assert set(errors) == set(EXPECTED), errors
    for name, words in EXPECTED.items():
        assert words in errors[name], (name, errors[name])
    assert run.exit_code == 1, run.stderr[-2000:]
    assert run.good_pair_level() == "high"
    assert len(run.pairs) == 3 and run.xlsx_written
    assert "Traceback" not in run.stderr
    assert run.peak_mb < 1500, run.peak_mb  # the check and its workers together
    assert run.seconds < 60


def test_a_killed_reading_process_becomes_an_error_document(tmp_path: Path) -> None:
    case = CASES["worker killed"]
    paths, given = prepare_folder(tmp_path / "in", [case])
    run = run_check(paths, tmp_path / "out", during=kill_reader, given=given)
    stuck = next(d for d in run.documents if d["name"] == "stuck.pdf")
    assert stuck["status"] == "error" and stuck["error"] == "读取时程序异常退出（文件可能过大或已损坏）"
    assert run.exit_code == 1, run.stderr[-2000:]
    assert {d["name"] for d in run.documents if d["status"] == "ok"} == set(GOOD)
    assert run.good_pair_level() == "high" and run.xlsx_written
    assert "Traceback" not in run.stderr


def crowded_scan(folder: Path, across: int) -> Path:
    """A one-page scan holding ``across`` × ``across`` dense A4 pages of their own text, side by side."""
    tiles = [
        page_images(make_pdf(folder / f"tile{n}.pdf", [paragraphs(80 + n, 12)]))[0] for n in range(across**2)
    ]
    width, height = tiles[0].size
    page = Image.new("L", (width * across, height * across), 255)
    for n, tile in enumerate(tiles):
        page.paste(tile, ((n % across) * width, (n // across) * height))
    page.save(folder / "scan.pdf", resolution=150)
    return folder / "scan.pdf"


def test_a_page_past_the_ocr_time_limit_is_given_up(tmp_path: Path) -> None:
    # nine dense pages' lines on one page: 5–6 s of OCR on two cores, model loading aside. One dense
    # page was not enough: a fast machine recognised it, models loaded, within the second.
    scan = crowded_scan(tmp_path, 3)
    text = [make_pdf(tmp_path / f"{n}.pdf", [paragraphs(71 + n, 3)]) for n in range(2)]
    result = check(CheckInputs([scan, *text]), Settings(workers=1, ocr_page_timeout_s=1))
    doc = next(d for d in result.documents if d.name == "scan.pdf")
    assert doc.status == "error"
    assert doc.error == "第 1 页文字识别超时（超过 1 秒），未能读取，文件中没有其他可比较的文字"
    assert len(result.pairs) == 1


def test_a_pipe_and_a_link_to_dev_zero_are_refused_unread(tmp_path: Path) -> None:
    """Given as bids, a named pipe (which hung the check) and a link to /dev/zero (which filled the
    memory) become documents with a plain message; the good bids are compared."""
    paths, given = prepare_folder(tmp_path / "in", [CASES["named pipe as a bid"], CASES["link to /dev/zero"]])
    run = run_check(paths, tmp_path / "out", given=given, memory_limit_mb=4096)
    errors = {str(d["name"]): str(d["error"]) for d in run.documents if d["status"] == "error"}
    assert set(errors) == {"pipe.pdf", "zero.docx"} and all("不是普通文件" in e for e in errors.values())
    assert run.exit_code == 1 and run.good_pair_level() == "high" and run.seconds < 60
    assert "Traceback" not in run.stderr
