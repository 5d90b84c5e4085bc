"""How much one file may make a reader inflate, parse and hold, so that no file can exhaust the PC.

A ``.docx`` or ``.ofd`` is a zip package: a 1 MB file may hold a part that inflates to gigabytes (a
decompression bomb). Its directory is measured before the package is opened (number of entries), each
part before it is inflated (its declared size against what is left of the package's budget, and its
compression ratio), and the bytes are counted again while they stream into the XML parser, which never
holds the whole part at once. (``zipfile`` itself stops at the declared size, so the count is the second
line of defence, for a part that would inflate beyond it.) Every part read is charged to the budget, so
an OFD that lists one page part a million times is stopped too. A part's markup is counted as it streams
in too: a part of more tags than any bid's (``MAX_TAGS``: 9 million one-character runs, a 7 MB file, held
3.4 GB parsed) is refused before its tree outgrows the memory. A reader also stops once a document holds
more text than any bid does (``TextBudget``).
"""

from __future__ import annotations

import struct
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from lxml import etree

from bidcheck.ingest.errors import ReadError

__all__ = ["MAX_TAGS", "Package", "ReadLimits", "TextBudget", "open_package", "zip_directory"]

_MB = 1 << 20
_CHUNK = 1 << 20  # bytes inflated and parsed at a time
_RATIO_FLOOR = 10 * _MB  # smaller parts may compress as well as they like (a blank form, a style sheet)
_DIRECTORY_BYTES_PER_ENTRY = 1024  # a zip directory larger than this per allowed entry is refused too
_EOCD = b"PK\x05\x06"
_EOCD64_LOCATOR = b"PK\x06\x07"
_EOCD64 = b"PK\x06\x06"
BOMB = "疑似压缩炸弹，已跳过"
# markup tags (``<``) one part may hold: some 4 million elements, about 600 MB parsed; a 300-page bid
# holds well under a million
MAX_TAGS = 8_000_000


@dataclass(frozen=True)
class ReadLimits:
    """What one file may cost a reader (see the module docstring); defaults no real bid reaches.

    Attributes:
        unpacked_bytes: What the parts read from one zip package may inflate to, all together.
        zip_ratio: Largest compression ratio of a part over 10 MB.
        zip_entries: Most entries in a zip package.
        chars: Most characters of text in one document.
    """

    unpacked_bytes: int = 200 * _MB
    zip_ratio: int = 100
    zip_entries: int = 10_000
    chars: int = 5_000_000


def _too_many_tags(part: str) -> str:
    return (
        f"文件结构过于繁杂（{part} 的标记超过 {MAX_TAGS // 10_000} 万个，正常的投标文件远少于此），"
        "未读取；请在 Word/WPS 中另存为新文件后再检查"
    )


class TextBudget:
    """Counts a document's characters as a reader finds them; past the limit the file is refused."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    def take(self, text: str) -> None:
        """Count ``text``; raise ``ReadError`` once the document holds more than the limit."""
        self.count(len(text))

    def count(self, chars: int) -> None:
        """Count ``chars`` characters; raise ``ReadError`` once the document holds more than the limit."""
        self.used += chars
        if self.used > self.limit:
            raise ReadError(f"文件文字过多（超过 {_wan(self.limit)}字的上限），已跳过")


def _wan(count: int) -> str:
    """A count of characters as a Chinese reader says it: ``500 万``, or the plain number when small."""
    return f"{count / 10_000:g} 万" if count >= 10_000 else f"{count} "


def zip_directory(handle: BinaryIO) -> tuple[int, int] | None:
    """The number of entries and the size in bytes of the directory that a zip file declares, read from
    its end record alone (before ``zipfile`` builds an object per entry); ``None`` without an end record."""
    handle.seek(0, 2)
    size = handle.tell()
    tail_size = min(size, 22 + 0xFFFF)
    handle.seek(size - tail_size)
    tail = handle.read(tail_size)
    at = tail.rfind(_EOCD)
    if at < 0 or at + 22 > len(tail):
        return None
    entries, directory = struct.unpack_from("<HI", tail, at + 10)
    if (entries == 0xFFFF or directory == 0xFFFFFFFF) and tail[at - 20 : at - 16] == _EOCD64_LOCATOR:
        (offset,) = struct.unpack_from("<Q", tail, at - 12)
        handle.seek(offset)
        record = handle.read(56)
        if record[:4] == _EOCD64 and len(record) == 56:
            entries, directory = struct.unpack_from("<QQ", record, 32)
    return int(entries), int(directory)


class Package:
    """A zip package whose parts are read within one budget of inflated bytes (``ReadLimits``)."""

    def __init__(self, archive: zipfile.ZipFile, limits: ReadLimits) -> None:
        self.archive = archive
        self.limits = limits
        self.unpacked = 0

    def names(self) -> list[str]:
        """The names of the package's entries."""
        return self.archive.namelist()

    def read(self, name: str) -> bytes:
        """A part's bytes. Raises ``KeyError`` when it is missing, ``ReadError`` past the limits."""
        info = self._measured(name)
        pieces = []
        with self.archive.open(info) as stream:
            while chunk := stream.read(_CHUNK):
                self._count(len(chunk))
                pieces.append(chunk)
        return b"".join(pieces)

    def parse(self, name: str) -> etree._Element:
        """A part parsed as XML while it inflates (entities are never expanded, nothing is fetched).

        Raises ``KeyError`` when it is missing, ``ReadError`` past the limits, ``XMLSyntaxError``.
        """
        info = self._measured(name)
        parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
        tags = 0
        with self.archive.open(info) as stream:
            while chunk := stream.read(_CHUNK):
                self._count(len(chunk))
                tags += chunk.count(b"<")
                if tags > MAX_TAGS:
                    raise ReadError(_too_many_tags(name))
                parser.feed(chunk)
        root: etree._Element = parser.close()
        return root

    def _measured(self, name: str) -> zipfile.ZipInfo:
        """The part's entry, refused before inflating when its declared size or ratio is beyond the limits."""
        info = self.archive.getinfo(name)
        if self.unpacked + info.file_size > self.limits.unpacked_bytes:
            self._refuse(self.unpacked + info.file_size)
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > _RATIO_FLOOR and ratio > self.limits.zip_ratio:
            raise ReadError(
                f"文件压缩比异常（{name} 压缩了 {ratio:.0f} 倍，上限 {self.limits.zip_ratio} 倍），{BOMB}"
            )
        return info

    def _count(self, size: int) -> None:
        """Count inflated bytes as they come (a part that inflates past its declared size is stopped)."""
        self.unpacked += size
        if self.unpacked > self.limits.unpacked_bytes:
            self._refuse(self.unpacked)

    def _refuse(self, size: int) -> None:
        raise ReadError(
            f"文件解压后过大（{size / _MB:.0f} MB，上限 {self.limits.unpacked_bytes / _MB:.0f} MB），{BOMB}"
        )


@contextmanager
def open_package(path: Path, limits: ReadLimits) -> Iterator[Package]:
    """Open a zip package after measuring its directory.

    Raises:
        ReadError: It declares more entries (or a larger directory) than the limits allow.
        zipfile.BadZipFile: It is not a zip file.
    """
    with path.open("rb") as handle:
        declared = zip_directory(handle)
        if declared is not None:
            entries, directory = declared
            if entries > limits.zip_entries or directory > limits.zip_entries * _DIRECTORY_BYTES_PER_ENTRY:
                raise ReadError(f"压缩包内文件过多（{entries} 个，上限 {limits.zip_entries} 个），{BOMB}")
        with zipfile.ZipFile(handle) as archive:
            yield Package(archive, limits)
