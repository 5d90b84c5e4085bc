"""Old Word ``.doc``, WPS ``.wps`` and ``.rtf`` files, converted to ``.docx`` by LibreOffice and read as Word.

LibreOffice runs headless on a copy of the file, with a profile folder of its own made fresh in a
temporary folder for each conversion (so conversions never share, lock or change a user's profile) in
which macros are switched off, under a time limit; on a hang its whole process tree is killed. Without
LibreOffice the document carries a message saying what to install.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from bidcheck.ingest.docx import read_docx
from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.limits import ReadLimits
from bidcheck.model import Document

__all__ = ["CONVERT_TIMEOUT_S", "SOFFICE_ENV", "convert_to_docx", "find_soffice", "read_office"]

SOFFICE_ENV = "BIDCHECK_SOFFICE"  # the soffice program to use, when it is not found by itself
CONVERT_TIMEOUT_S = 120.0
MISSING_MESSAGE = (
    "读取 .doc/.wps/.rtf 文件需要 LibreOffice，本机没有找到：Windows 请安装 LibreOffice（libreoffice.org），"
    "Debian/Ubuntu 请安装 libreoffice-writer-nogui（sudo apt-get install libreoffice-writer-nogui）"
)
# Properties that the converted .docx gets from LibreOffice itself rather than from the original file.
_CONVERTER_FIELDS = frozenset({"application", "app_version"})
_NO_MACROS = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" \
oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" \
oor:op="fuse"><value>true</value></prop></item>
</oor:items>
"""


def _usual_places() -> list[Path]:
    if sys.platform == "win32":
        roots = {os.environ.get(v) for v in ("ProgramFiles", "ProgramW6432", "ProgramFiles(x86)")}
        roots |= {r"C:\Program Files", r"C:\Program Files (x86)"}
        return [Path(r) / "LibreOffice" / "program" / "soffice.exe" for r in sorted(r for r in roots if r)]
    if sys.platform == "darwin":
        return [Path("/Applications/LibreOffice.app/Contents/MacOS/soffice")]
    return [
        Path("/usr/lib/libreoffice/program/soffice"),
        *sorted(Path("/opt").glob("libreoffice*/program/soffice")),
    ]


def find_soffice() -> Path | None:
    """LibreOffice's ``soffice``: ``$BIDCHECK_SOFFICE``, then the PATH, then where installers put it."""
    env = os.environ.get(SOFFICE_ENV)
    if env:
        return Path(env) if Path(env).is_file() else None
    for name in ("soffice", "libreoffice"):
        found = shutil.which(name)
        if found:
            return Path(found)
    return next((p for p in _usual_places() if p.is_file()), None)


def convert_to_docx(source: Path, soffice: Path, workdir: Path, timeout_s: float = CONVERT_TIMEOUT_S) -> Path:
    """Convert ``source`` to ``.docx`` inside ``workdir`` and return the new file.

    Raises:
        ReadError: LibreOffice failed, produced nothing, or ran past ``timeout_s`` (it is then killed).
    """
    return convert(source, soffice, workdir, "docx:MS Word 2007 XML", timeout_s)


def convert(
    source: Path, soffice: Path, workdir: Path, target: str, timeout_s: float = CONVERT_TIMEOUT_S
) -> Path:
    """Convert ``source`` to ``target`` (LibreOffice's ``--convert-to`` argument: ``pdf``, ``docx:…``)
    inside ``workdir``, with macros off and a profile of its own, and return the new file.

    Raises:
        ReadError: LibreOffice failed, produced nothing, or ran past ``timeout_s`` (it is then killed).
    """
    profile = workdir / "profile"
    (profile / "user").mkdir(parents=True)
    (profile / "user" / "registrymodifications.xcu").write_text(_NO_MACROS, encoding="utf-8")
    outdir = workdir / "out"
    command = [
        str(soffice),
        f"-env:UserInstallation={profile.as_uri()}",
        "--headless",
        "--invisible",
        "--nologo",
        "--nodefault",
        "--norestore",
        "--nolockcheck",
        "--convert-to",
        target,
        "--outdir",
        str(outdir),
        str(source),
    ]
    _run(command, timeout_s, _private_env(profile))
    result = outdir / f"{source.stem}.{target.partition(':')[0]}"
    if not result.is_file() or result.stat().st_size == 0:
        raise ReadError(
            "LibreOffice 无法转换此文件（文件已损坏、已加密或不是文字处理文档，如 .doc/.wps/.rtf）"
        )
    return result


def _private_env(profile: Path) -> dict[str, str]:
    """LibreOffice's environment with every folder it (and the desktop libraries it loads: dconf, GIO)
    would write under the user's home put in its own profile folder, and settings kept in memory."""
    env = dict(os.environ)
    for name, folder in (
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_STATE_HOME", "state"),
    ):
        (profile / folder).mkdir(parents=True, exist_ok=True)
        env[name] = str(profile / folder)
    env["GSETTINGS_BACKEND"] = "memory"  # no dconf database written
    env.pop("XDG_RUNTIME_DIR", None)  # the session's folder, shared with the user's desktop
    return env


def _run(command: list[str], timeout_s: float, env: dict[str, str] | None = None) -> None:
    """Run LibreOffice in a process group of its own, so that a hang can be ended with all it started."""
    group: dict[str, Any] = {"start_new_session": True}
    if sys.platform == "win32":
        group = {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.CREATE_NO_WINDOW}
    quiet = subprocess.DEVNULL
    process = subprocess.Popen(command, stdin=quiet, stdout=quiet, stderr=quiet, env=env, **group)
    try:
        process.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired as exc:
        _kill_tree(process)
        raise ReadError(f"LibreOffice 转换超时（超过 {timeout_s:.0f} 秒），已终止转换") from exc
    except BaseException:
        _kill_tree(process)
        raise


def _kill_tree(process: subprocess.Popen[bytes]) -> None:
    """Kill LibreOffice and the processes it started (its launcher starts the real program)."""
    if sys.platform == "win32":
        subprocess.run(["taskkill", "/F", "/T", "/PID", str(process.pid)], capture_output=True, check=False)
    else:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    process.kill()
    process.wait()


def read_office(path: Path, doc_id: str, name: str, fmt: str, limits: ReadLimits | None = None) -> Document:
    """Read a ``.doc``/``.wps``/``.rtf`` file through LibreOffice; ``fmt`` is the format to report.

    Raises:
        ReadError: LibreOffice is missing or could not convert the file, or the converted file is larger
            than ``limits`` allow.
    """
    soffice = find_soffice()
    if soffice is None:
        raise ReadError(MISSING_MESSAGE)
    with tempfile.TemporaryDirectory(prefix="bidcheck-office-", ignore_cleanup_errors=True) as temp:
        workdir = Path(temp)
        # a plain name with the suffix LibreOffice expects: .wps files from WPS are Word files inside
        source = workdir / ("source.rtf" if fmt == "rtf" else "source.doc")
        shutil.copyfile(path, source)
        doc = read_docx(convert_to_docx(source, soffice, workdir), doc_id, name, limits)
    meta = {k: v for k, v in doc.metadata.items() if k not in _CONVERTER_FIELDS}
    return replace(doc, path=str(path), format=fmt, metadata=meta)
