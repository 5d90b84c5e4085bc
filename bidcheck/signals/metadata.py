"""Document properties two bids share: who wrote and last saved them, for which company, when.

Word keeps the author, the last editor, the company and the times in ``docProps``; a PDF keeps its
author, its creating program and its times in ``/Info`` and an identifier in its XMP. A bid handed
from one bidder to another keeps them. Values every PC writes (Administrator, 微软用户, WPS Office),
the tender's own, a tool's fixed default time, and values most bids hold say nothing of a pair.
Times count from word processors' files only: their creation time travels with a file passed on,
while a PDF's is the moment it was exported, printed or scanned, which one scanner gives a pile of
files within the minute.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from datetime import datetime

from bidcheck.model import PublicValue, Signal, Strength
from bidcheck.ready import Ready
from bidcheck.signals.base import (
    Held,
    Linked,
    SectionInfo,
    held_by_few,
    public_values,
    seen_elsewhere,
    value_key,
)

__all__ = ["GENERIC_VALUES", "find", "metadata_keys", "minute_of"]

# Values Office, WPS, PDF tools and preinstalled Windows write for anyone (compared case-folded).
GENERIC_VALUES: frozenset[str] = frozenset(
    v.casefold()
    for v in (
        "Administrator", "admin", "User", "user1", "Owner", "用户", "微软用户", "微软中国", "Windows 用户",
        "Windows User", "Microsoft", "Microsoft Corporation", "Microsoft Office User",
        "Microsoft Office 用户", "MS", "PC", "Lenovo", "HP", "Dell", "DELL", "Sky123.Org", "Sky",
        "china", "中国", "Youngzsoft",
        "WPS Office", "WPS", "Kingsoft", "Microsoft Office Word", "Microsoft Word", "python-docx",
        "anonymous", "(anonymous)", "unknown", "unspecified", "(unspecified)", "Normal", "Normal.dotm",
        "Normal.dot", "Normal.wpt", "作者", "ThinkPad", "USER-PC", "雨林木风", "番茄花园", "深度技术",
        "www.deepbbs.org", "Chinese ORG", "微软", "Sinopec", "ghost",
    )
)  # fmt: skip
# A tool's fixed default time (python-docx's template; ReportLab's reproducible output) is nobody's.
_DEFAULT_MINUTES = frozenset({"2013-12-23 23:15", "2000-01-01 00:00"})
# Programs too common for their pairing to mean anything (matched as parts of Creator/Producer).
_COMMON_TOOLS = re.compile(
    r"microsoft|word|wps|kingsoft|acrobat|adobe|distiller|foxit|福昕|libreoffice|openoffice|reportlab|"
    r"skia|chrom|quartz|pdftex|latex|itext|ghostscript|print to pdf|pdf ?creator|nitro|金山|pil\b|pillow|"
    r"python|pypdf|scan|扫描|canon|epson|ricoh|kyocera|xerox|brother|sharp|konica|toshiba|lexmark|hp ",
    re.IGNORECASE,
)
# (metadata key, field, strength, how the panel reads it)
_NAMES: tuple[tuple[str, str, Strength, str], ...] = (
    ("author", "author", "strong", "作者"),
    ("last_modified_by", "last_modified_by", "strong", "最后修改者"),
    ("company", "company", "strong", "单位（文档属性）"),
    ("manager", "manager", "supporting", "经理（文档属性）"),
    ("xmp_document_id", "document_id", "strong", "文档标识（XMP DocumentID）"),
    ("xmp_original_document_id", "document_id", "strong", "原始文档标识（XMP OriginalDocumentID）"),
)
_TIMES: tuple[tuple[str, str, Strength, str], ...] = (
    ("created", "created", "strong", "创建时间"),
    ("modified", "modified", "supporting", "最后保存时间"),
    ("last_printed", "last_printed", "supporting", "最后打印时间"),
)
_TIMED_FORMATS = frozenset({"docx", "doc", "wps", "rtf"})
_PDF_DATE = re.compile(r"D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})")


def minute_of(value: str) -> str | None:
    """A property time to the minute (``2024-06-10 09:12``), from W3CDTF or a PDF date; ``None`` when it
    does not parse (bad metadata is ignored for that field, never fatal)."""
    text = value.strip()
    match = _PDF_DATE.match(text)
    if match:
        text = "{}-{}-{}T{}:{}".format(*match.groups())
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    minute = moment.strftime("%Y-%m-%d %H:%M")
    midnight = moment.hour == moment.minute == moment.second == 0  # a date a tool set, not a save
    return None if minute in _DEFAULT_MINUTES or moment.year < 1995 or midnight else minute


def _name_values(meta: dict[str, str], key: str) -> set[str]:
    value = " ".join(meta.get(key, "").split())
    return {value} if value and value.casefold() not in GENERIC_VALUES and len(value) <= 200 else set()


def _time_values(meta: dict[str, str], key: str) -> set[str]:
    minute = minute_of(meta.get(key, ""))
    return {minute} if minute else set()


Values = Callable[[dict[str, str], str], set[str]]


def _of_files(metas: list[dict[str, str]], values: Values, key: str) -> set[str]:
    """The values of one property in a bid's files (one file, or a bidder's folder's)."""
    return {v for meta in metas for v in values(meta, key)}


def _tool_values(meta: dict[str, str]) -> set[str]:
    """An unusual Creator + Producer pairing (neither a common program)."""
    tools = [" ".join(meta.get(k, "").split()) for k in ("application", "producer")]
    if not all(tools) or any(_COMMON_TOOLS.search(t) or t.casefold() in GENERIC_VALUES for t in tools):
        return set()
    return {" + ".join(tools)}


def _linked(
    bids: Sequence[Ready], held: Held, field: str, strength: Strength, detail: str, section: SectionInfo
) -> list[Linked | PublicValue]:
    """A signal for each pair of bids sharing a name, but for names bidders elsewhere hold too (an
    unlisted preinstalled user name, a program every office has)."""
    few, world = seen_elsewhere("metadata", field, held.few, section)
    out: list[Linked | PublicValue] = [
        Linked(
            bids[i].doc.id,
            bids[j].doc.id,
            Signal("metadata", strength, field, value, detail.format(value), holders=len(docs)),
        )
        for value, docs in few.items()
        for i, j in itertools.combinations(docs, 2)
    ]
    return out + world + public_values("metadata", field, held.many)


def metadata_keys(doc: Ready) -> tuple[int, ...]:
    """A document's property names (authors, editors, companies, XMP ids, unusual programs) as the
    library keeps them (``value_key``: hashed, never the names); its times are not kept (a minute two
    sections share is chance)."""
    metas = [m for _, m in doc.doc.file_metadata()]
    keys = {value_key(field, v) for key, field, _, _ in _NAMES for v in _of_files(metas, _name_values, key)}
    return tuple(sorted(keys | {value_key("producer", v) for m in metas for v in _tool_values(m)}))


def _second_of(meta: dict[str, str], key: str) -> str:
    """The seconds of a property time (``:07``), or nothing when it has none."""
    match = re.search(r"T\d{2}:\d{2}:(\d{2})|D:\d{12}(\d{2})", meta.get(key, ""))
    return f":{match.group(1) or match.group(2)}" if match else ""


def _linked_times(
    bids: Sequence[Ready], held: Held, time: tuple[str, str, Strength, str]
) -> list[Linked | PublicValue]:
    """A signal for each pair of bids saved in the same minute, the detail giving both times."""
    key, field, strength, word = time
    out: list[Linked | PublicValue] = [*public_values("metadata", field, held.many)]
    for value, docs in held.few.items():
        for i, j in itertools.combinations(docs, 2):
            seconds = [_second_of(bids[k].doc.metadata, key) for k in (i, j)]
            clock = value[-5:]
            both = f"：{clock}{seconds[0]} 与 {clock}{seconds[1]}" if all(seconds) else ""
            detail = f"两份文件的{word}同为 {value}（同一分钟{both}）"
            signal = Signal("metadata", strength, field, value, detail, holders=len(docs))
            out.append(Linked(bids[i].doc.id, bids[j].doc.id, signal))
    return out


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked | PublicValue]:
    """Pairs of bids whose files share a non-generic author, last editor, company or XMP identifier,
    were created (or saved, or printed) in the same minute, or came from the same unusual programs;
    and such values too many bids hold."""
    metas = [[m for _, m in b.doc.file_metadata()] for b in bids]  # a bidder's folder: each file's
    tender = [m for t in section.tenders for _, m in t.doc.file_metadata()]
    out: list[Linked | PublicValue] = []
    for key, field, strength, word in _NAMES:
        excluded = {v for m in tender for v in _name_values(m, key)}
        held = held_by_few([_of_files(ms, _name_values, key) for ms in metas], excluded, section.settings)
        out += _linked(bids, held, field, strength, f"两份文件的{word}均为“{{}}”", section)
    timed = [[m for f, m in b.doc.file_metadata() if f in _TIMED_FORMATS] for b in bids]
    for key, field, strength, word in _TIMES:
        excluded = {v for m in tender for v in _time_values(m, key)}
        held = held_by_few([_of_files(ms, _time_values, key) for ms in timed], excluded, section.settings)
        out += _linked_times(bids, held, (key, field, strength, word))
    excluded = {v for m in tender for v in _tool_values(m)}
    held = held_by_few([{v for m in ms for v in _tool_values(m)} for ms in metas], excluded, section.settings)
    out += _linked(bids, held, "producer", "supporting", "两份文件由同一组不常见的程序生成：{}", section)
    return out
