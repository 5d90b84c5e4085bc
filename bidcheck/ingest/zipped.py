"""A bidder's ``.zip``: a folder of its files (商务标, 技术标, the priced bill), read together as one bid.

Its entries are unpacked within the reading limits (entries, unpacked bytes, compression ratio: the
package's budget) into a folder of their own that is gone once they are read; an entry whose name
climbs out of it (``../``, an absolute path) is skipped, and so is a zip inside the zip. Names a Chinese
Windows wrote without the UTF-8 flag are read as GBK. Scanned pages are recognised as the files are
read (the unpacked files do not outlive the reading).
"""

from __future__ import annotations

import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path, PurePosixPath

from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.folder import read_folder
from bidcheck.ingest.limits import ReadLimits, open_package
from bidcheck.model import Document

__all__ = ["ZIP_FORMAT", "read_zip", "zip_holds"]

ZIP_FORMAT = "zip"
_UTF8_FLAG = 0x800


def _member_name(info: zipfile.ZipInfo) -> str:
    """An entry's name as its maker wrote it: GBK where the UTF-8 flag is off and the name reads so."""
    if info.flag_bits & _UTF8_FLAG:
        return info.filename
    try:
        return info.filename.encode("cp437").decode("gb18030")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return info.filename


def _safe_parts(name: str) -> tuple[str, ...] | None:
    """An entry's path inside the folder, or ``None`` for one that would climb out of it."""
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or any(part in ("..", "") for part in path.parts) or not path.parts:
        return None
    return path.parts


def _wanted(info: zipfile.ZipInfo, suffixes: frozenset[str]) -> tuple[str, ...] | None:
    name = _member_name(info)
    parts = _safe_parts(name)
    if info.is_dir() or parts is None or parts[-1].startswith(("~$", ".")):
        return None
    suffix = PurePosixPath(parts[-1]).suffix.lower()
    return parts if suffix in suffixes and suffix != ".zip" else None


def zip_holds(path: Path, suffixes: frozenset[str], limits: ReadLimits) -> bool:
    """Whether a zip holds a file of a supported format (a bidder's files, not an unknown package)."""
    try:
        with open_package(path, limits) as package:
            return any(_wanted(info, suffixes) for info in package.archive.infolist())
    except (zipfile.BadZipFile, OSError):
        return False


def read_zip(
    path: Path,
    doc_id: str,
    name: str,
    suffixes: frozenset[str],
    limits: ReadLimits,
    read_one: Callable[[Path, str], Document],
) -> Document:
    """The bidder's files in a zip read as its folder's would be (``read_folder``), named by the zip.

    Raises:
        ReadError: The zip is damaged, past the limits, or holds no file to read.
    """
    with tempfile.TemporaryDirectory(prefix="bidcheck-zip-") as unpacked:
        folder = Path(unpacked) / PurePosixPath(name).stem
        try:
            with open_package(path, limits) as package:
                for info in package.archive.infolist():
                    parts = _wanted(info, suffixes)
                    if parts is None:
                        continue
                    target = folder.joinpath(*parts)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(package.read(info.filename))
        except zipfile.BadZipFile as exc:
            raise ReadError("压缩包已损坏") from exc
        if not folder.is_dir():
            raise ReadError("压缩包中没有可读取的文件")
        doc = read_folder(folder, doc_id, suffixes, read_one)
    return replace(doc, path=str(path), name=name, format=ZIP_FORMAT)
