"""A section's name as its tender gives it: the 项目名称 (and the 标段 it names), else the cover's title,
the lines before the one that ends in 招标文件; "" when the tender names neither."""

from __future__ import annotations

import re

__all__ = ["generic_folder_name", "project_name"]

_LONGEST = 60
_FIELD = re.compile(r"(?:项目名称|工程名称|采购项目名称)\s*[:：]\s*([^\n。；;]{4,80})")
_LOT = re.compile(r"(?:标段名称|标段|包号|采购包)\s*[:：]\s*([^\n。；;，,]{1,30})")
_TITLE_END = re.compile(r"(?:招标文件|竞争性磋商文件|竞争性谈判文件|采购文件)\s*$")
_KIND_END = re.compile(r"(?:施工|采购|服务|监理|设计|勘察)$")  # …工程施工招标文件: the kind of tender
_COVER_LINES = 3  # a cover's title may run over this many lines before 招标文件


_GENERIC = re.compile(
    r"(?:bids?|samples?|files?|documents?|docs?|inputs?|data|tmp|temp|新建文件夹|文件夹|投标文件|投标|标书|文件"
    r"|招投标|评标|资料|下载)?[\s\d_()（）.-]*",
    re.IGNORECASE,
)


def generic_folder_name(name: str) -> bool:
    """Whether a folder's name says nothing of its section (``bids``, ``新建文件夹 (2)``, ``2026``): the
    tender's project name is the better name then."""
    return _GENERIC.fullmatch(name.strip()) is not None


def project_name(text: str) -> str:
    """The project (and lot) a tender's text names, trimmed to a name's length; "" when none."""
    head = text[:20_000]  # the cover and the first chapter name it
    found = _FIELD.search(head)
    name = found.group(1).strip() if found else _cover_title(head)
    lot = _LOT.search(head)
    if name and lot and lot.group(1).strip() not in name:
        name = f"{name}（{lot.group(1).strip()}）"
    return " ".join(name.split())[:_LONGEST]


def _cover_title(head: str) -> str:
    """The cover's title: the line that ends in 招标文件 less those words, with the lines before it
    when it is short (a title over three lines: 某市…改造工程 / 施工第二标段 / 招标文件)."""
    lines = [line.strip() for line in head.splitlines() if line.strip()][:40]
    for at, line in enumerate(lines):
        if _TITLE_END.search(line) and len(line) <= 80:
            title = _KIND_END.sub("", _TITLE_END.sub("", line).strip())
            before = lines[max(0, at - _COVER_LINES + 1) : at] if len(title) < 8 else []
            return "".join([*before, title]).strip()
    return ""
