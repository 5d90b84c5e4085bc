"""Plain text and Markdown files: one block per non-empty line, YAML front matter removed."""

from __future__ import annotations

import re
from pathlib import Path

from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.limits import ReadLimits, TextBudget
from bidcheck.model import Block, Document

__all__ = ["read_plain"]

_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n.*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S)


def decode_text(data: bytes) -> str:
    """Decode UTF-8 (with or without BOM), UTF-16 with BOM, or GB18030."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ReadError("文本文件的编码无法识别（支持 UTF-8 与 GBK/GB18030）")


def read_plain(path: Path, doc_id: str, name: str, limits: ReadLimits | None = None) -> Document:
    """Read a ``.txt``/``.md`` file; form feeds separate pages.

    Raises:
        ReadError: The encoding is unknown, or the file holds more text than ``limits`` allow.
    """
    budget = TextBudget((limits or ReadLimits()).chars)
    at_least = path.stat().st_size // 4  # no encoding spends more than 4 bytes on a character
    if at_least > budget.limit:
        budget.count(at_least)
    text = _FRONT_MATTER.sub("", decode_text(path.read_bytes()), count=1)
    budget.take(text)
    blocks: list[Block] = []
    pages = text.split("\f")
    for page_no, page in enumerate(pages, start=1):
        for line in page.splitlines():
            if line.strip():
                blocks.append(Block(line.strip(), "body", page_no, len(blocks) + 1))
    fmt = "md" if path.suffix.lower() == ".md" else "txt"
    return Document(id=doc_id, path=str(path), name=name, format=fmt, pages=len(pages), blocks=tuple(blocks))
