"""Format sniffing and bad input: every bad file becomes an error document with a plain message."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bidcheck.ingest import collect_paths, read_document, sniff_format
from tests.builders import make_docx, make_pdf, paragraphs


def test_format_comes_from_the_bytes_not_the_suffix(tmp_path: Path) -> None:
    real = make_docx(tmp_path / "bid.docx", [paragraphs(1, 2)])
    disguised = tmp_path / "bid.pdf"
    shutil.copy(real, disguised)
    doc = read_document(disguised, "d1")
    assert doc.ok and doc.format == "docx"
    pdf = make_pdf(tmp_path / "x.pdf", [paragraphs(2, 1)])
    assert sniff_format(pdf, pdf.read_bytes()[:4096]) == "pdf"


def test_text_and_markdown_with_front_matter(tmp_path: Path) -> None:
    md = tmp_path / "notes.md"
    md.write_text("---\ntitle: 投标说明\nauthor: x\n---\n第一段文字。\n\n第二段文字。\n", encoding="utf-8")
    doc = read_document(md, "d1")
    assert doc.format == "md"
    assert [b.text for b in doc.blocks] == ["第一段文字。", "第二段文字。"]
    gbk = tmp_path / "old.txt"
    gbk.write_bytes("国标编码的文本。".encode("gb18030"))
    assert read_document(gbk, "d2").blocks[0].text == "国标编码的文本。"


def _corrupt_docx(tmp_path: Path) -> Path:
    data = make_docx(tmp_path / "good.docx", [paragraphs(3, 2)]).read_bytes()
    path = tmp_path / "corrupt.docx"
    path.write_bytes(data[: len(data) // 2])
    return path


def _bad_inputs(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    empty = tmp_path / "empty.docx"
    empty.write_bytes(b"")
    binary = tmp_path / "data.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    no_text = make_docx(tmp_path / "blank.docx", [["   "]])
    doc_file = tmp_path / "old.doc"
    doc_file.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600)
    folder = tmp_path / "空文件夹"  # a bidder's folder holding no file to read
    (folder / "说明").mkdir(parents=True)
    (folder / "readme.bin").write_bytes(b"\x00")
    return {
        "encrypted": (make_pdf(tmp_path / "locked.pdf", [paragraphs(4, 1)], password="secret"), "加密"),
        "corrupt": (_corrupt_docx(tmp_path), "损坏"),
        "empty": (empty, "为空"),
        "no text": (no_text, "没有可比较的文字"),
        "unsupported": (binary, "无法识别"),
        "old word": (doc_file, ".doc"),
        "missing": (tmp_path / "nowhere.pdf", "不存在"),
        "folder": (folder, "文件夹中没有可读取的文件"),
    }


@pytest.mark.parametrize(
    "case", ["encrypted", "corrupt", "empty", "no text", "unsupported", "old word", "missing", "folder"]
)
def test_bad_input_becomes_an_error_document(tmp_path: Path, case: str) -> None:
    path, words = _bad_inputs(tmp_path)[case]
    doc = read_document(path, "d9")
    assert doc.status == "error"
    assert doc.id == "d9" and doc.name == path.name
    assert words in (doc.error or ""), doc.error
    assert "Traceback" not in (doc.error or "")


def test_folders_expand_to_supported_files(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    make_docx(tmp_path / "b.docx", [["一"]])
    make_pdf(tmp_path / "sub" / "a.pdf", [["二"]])
    (tmp_path / "readme.bin").write_bytes(b"x")
    (tmp_path / "~$b.docx").write_bytes(b"lock")
    found = collect_paths([tmp_path])
    assert [p.name for p in found] == ["b.docx", "a.pdf"]


def test_a_pipe_or_a_device_given_as_a_bid_is_refused_not_read(tmp_path: Path) -> None:
    """A named pipe would hang the check, a link to ``/dev/zero`` would fill the memory: neither is read."""
    import os

    pipe = tmp_path / "03-丙.pdf"
    os.mkfifo(pipe)
    zero = tmp_path / "04-丁.docx"
    zero.symlink_to("/dev/zero")
    for path in (pipe, zero):
        doc = read_document(path, "d1")
        assert doc.status == "error" and "不是普通文件" in (doc.error or "")


def test_a_check_given_a_pipe_ends_with_it_unread(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    make_docx(tmp_path / "01-甲.docx", [paragraphs(3, 4)])
    make_docx(tmp_path / "02-乙.docx", [paragraphs(4, 4)])
    os.mkfifo(tmp_path / "03-丙.pdf")
    bids = [str(tmp_path / n) for n in ("01-甲.docx", "02-乙.docx", "03-丙.pdf")]
    command = [sys.executable, "-c", "from bidcheck.cli import run; run()", "check", *bids, "--quiet"]
    env = {**os.environ, "BIDCHECK_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run(
        command,
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr  # some files unreadable; the rest compared
    assert "不是普通文件" in done.stdout
