"""Old Word, WPS and RTF files through LibreOffice; what happens without it, and when it hangs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bidcheck.ingest import SUPPORTED_SUFFIXES, collect_paths, read_document
from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.office import MISSING_MESSAGE, SOFFICE_ENV, convert, convert_to_docx, find_soffice
from bidcheck.text import clean_document
from tests.builders import make_docx, paragraphs

TEXTS = paragraphs(31, 4)


@pytest.fixture(scope="module")
def old_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A .doc made by LibreOffice from a .docx, the same bytes named .wps, and a hand-written .rtf."""
    soffice = find_soffice()
    assert soffice is not None, "LibreOffice is needed for these tests (make test installs it)"
    root = tmp_path_factory.mktemp("office")
    source = make_docx(root / "bid.docx", [TEXTS[:2], TEXTS[2:]], header="乙公司投标文件", author="李四")
    profile = (root / "profile").as_uri()
    command = [str(soffice), f"-env:UserInstallation={profile}", "--headless", "--convert-to", "doc"]
    subprocess.run(
        [*command, "--outdir", str(root), str(source)], check=True, capture_output=True, timeout=120
    )
    # A .wps file of WPS Office is an OLE compound file holding a Word document, like a .doc.
    shutil.copyfile(root / "bid.doc", root / "bid.wps")
    rtf = root / "note.rtf"
    words = "".join(f"\\u{ord(char)}?" for char in "投标说明")  # RTF writes CJK as \\uN? escapes
    rtf.write_text(
        "{\\rtf1\\ansi\\ansicpg936{\\fonttbl\\f0\\fnil SimSun;}\\f0 " + words + "\\par}", encoding="ascii"
    )
    return {"doc": root / "bid.doc", "wps": root / "bid.wps", "rtf": rtf}


@pytest.mark.parametrize("kind", ["doc", "wps"])
def test_old_word_and_wps_files_are_read_with_pages(old_files: dict[str, Path], kind: str) -> None:
    doc = read_document(old_files[kind], "d1")
    assert doc.ok, doc.error
    assert doc.format == kind and doc.name == f"bid.{kind}" and doc.path == str(old_files[kind])
    cleaned = clean_document(doc)
    assert [(b.page, b.text) for b in cleaned.compared_blocks()] == [
        (1, TEXTS[0]),
        (1, TEXTS[1]),
        (2, TEXTS[2]),
        (2, TEXTS[3]),
    ]
    assert [b.text for b in cleaned.blocks if b.kind == "header"] == ["乙公司投标文件"]
    assert doc.metadata.get("author") == "李四"
    assert "application" not in doc.metadata  # that would name LibreOffice, not the bidder's program


def test_rtf_is_read(old_files: dict[str, Path]) -> None:
    doc = read_document(old_files["rtf"], "d1")
    assert doc.ok and doc.format == "rtf"
    assert [b.text for b in doc.compared_blocks()] == ["投标说明"]


def test_libreoffice_writes_nothing_in_the_users_home(
    old_files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading an RTF runs LibreOffice, whose desktop libraries would make ~/.cache/dconf/user: all it
    writes stays in its own profile folder, removed with it."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(tmp_path / "cache"))
    doc = read_document(old_files["rtf"], "d1")
    assert doc.ok
    assert [str(p.relative_to(home)) for p in home.rglob("*")] == []


def test_without_libreoffice_the_message_names_what_to_install(
    old_files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``$BIDCHECK_SOFFICE`` names the program to use, found or not: here LibreOffice is installed (the
    fixture converted with it), and naming a missing program is what makes the file unreadable."""
    installed = find_soffice()
    assert installed is not None
    monkeypatch.setenv(SOFFICE_ENV, str(installed))
    assert find_soffice() == installed
    monkeypatch.setenv(SOFFICE_ENV, str(tmp_path / "no-such-soffice"))
    assert find_soffice() is None
    doc = read_document(old_files["doc"], "d1")
    assert doc.status == "error" and doc.error == MISSING_MESSAGE
    assert "LibreOffice" in doc.error and "libreoffice-writer-nogui" in doc.error


def test_a_file_libreoffice_cannot_convert_says_so(tmp_path: Path) -> None:
    bad = tmp_path / "broken.doc"
    bad.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600)
    doc = read_document(bad, "d1")
    assert doc.status == "error" and "LibreOffice" in (doc.error or "")


@pytest.mark.skipif(
    sys.platform == "win32", reason="the stand-in for a hanging LibreOffice is a shell script"
)
def test_a_hanging_conversion_is_killed_with_all_it_started(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    hang = tmp_path / "soffice"
    hang.write_text(f"#!/bin/sh\nsleep 60 &\necho $$ $! > {pids}\nwait\n", encoding="utf-8")
    hang.chmod(0o755)
    source = tmp_path / "source.doc"
    source.write_bytes(b"x")
    (tmp_path / "work").mkdir()
    started = time.monotonic()
    with pytest.raises(ReadError, match="超时"):
        convert_to_docx(source, hang, tmp_path / "work", timeout_s=1.0)
    assert time.monotonic() - started < 10
    started = [int(pid) for pid in pids.read_text(encoding="utf-8").split()]
    deadline = time.monotonic() + 5  # a killed process takes a moment to go
    while any(_running(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in started if _running(pid)]


def _running(pid: int) -> bool:
    """Whether a process exists and is not a zombie (a killed orphan waits to be reaped by init)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    state = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True).stdout
    return bool(state.strip()) and not state.strip().startswith("Z")


def test_folders_bring_in_every_format(tmp_path: Path) -> None:
    names = ["a.doc", "b.WPS", "c.rtf", "d.ofd", "e.png", "f.jpg", "g.jpeg", "h.tif", "i.tiff", "j.docx"]
    for name in names:
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / "k.pptx").write_bytes(b"x")
    assert [p.name for p in collect_paths([tmp_path])] == names
    assert {
        ".doc",
        ".wps",
        ".rtf",
        ".ofd",
        ".png",
        ".jpg",
        ".jpeg",
        ".tif",
        ".tiff",
        ".xml",
        ".xlsx",
    } <= SUPPORTED_SUFFIXES


_FODT = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
<office:meta><meta:user-defined meta:name="KSOTemplateDocerSaveRecord">{record}</meta:user-defined>
<meta:user-defined meta:name="KSOProductBuildVer">2052-12.1.0.16120</meta:user-defined></office:meta>
<office:body><office:text><text:p>{text}</text:p></office:text></office:body></office:document>"""


def test_a_wps_files_own_property_stream_gives_its_pc_and_account(tmp_path: Path) -> None:
    """WPS keeps its save record in the OLE file's user-defined properties (DocumentSummaryInformation);
    LibreOffice carries them into the converted document, where they are read as in a .docx."""
    import base64
    import json

    soffice = find_soffice()
    assert soffice is not None, "LibreOffice is needed for these tests (make test installs it)"
    record = base64.b64encode(
        json.dumps({"hdid": "4cfe25645f346482924f702e4d9c120e", "userId": "439701367"}).encode()
    )
    source = tmp_path / "bid.fodt"
    source.write_text(_FODT.format(record=record.decode(), text=TEXTS[0]), encoding="utf-8")
    written = convert(source, soffice, tmp_path / "lo", "doc", 120)
    assert b"KSOTemplateDocerSaveRecord" in written.read_bytes()  # in the OLE property stream
    shutil.copyfile(written, tmp_path / "bid.wps")
    doc = read_document(tmp_path / "bid.wps", "d1")
    assert doc.ok and doc.format == "wps", doc.error
    assert {(m.field, m.value) for m in doc.marks} == {
        ("wps_hdid", "4CFE25645F346482924F702E4D9C120E"),
        ("wps_user", "439701367"),
    }
