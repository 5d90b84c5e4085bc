"""The same computer, dongle, program account or file behind two bidders' files: the proof provincial
rules name for 条例第四十条（一）"不同投标人的投标文件由同一单位或者个人编制".

福建住建厅's rule: a priced bill's XML whose pricing program's dongle serial (加密锁序列号) is the same as
another bidder's, or whose recorded computer has the same network card MAC (where recorded), CPU serial
and disk serial; 大庆高新 and others name the file's machine code and creation id. These come from the
files' records (``Document.marks``: ``bidcheck.ingest.pricing_xml`` and ``bidcheck.ingest.identity``).

Every bidder imports the tenderer's 招标控制价 file, whose records (the tenderer's own dongle and PC)
then stand in every bid: values the tender's files carry, records dated before the tender's last one,
and the agency's public PCs and dongles (``machine_whitelist``) are never a sign. A value many bids
hold is the section's (``held_by_few``). Where the tender file that would carry a value was not given (a
Word tender for Word's and WPS's ids, a PDF one for a PDF's, the 招标控制价 XML for a pricing record held by
both bids at the same time), the value may be the tender's: a supporting sign, saying so. A PDF handed to
two bidders unchanged (the same permanent id and the same save) is a supporting sign; one edited from the
same file (the same permanent id, saved again) is strong.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

from bidcheck.model import Mark, Place, PublicValue, Signal, Strength
from bidcheck.ready import Ready
from bidcheck.signals.base import WORD_FORMATS, Linked, SectionInfo, held_by_few, public_values

__all__ = ["MACHINE_FIELDS", "find", "own_marks", "whitelisted"]

# field -> (strength, what the panel reads it as)
MACHINE_FIELDS: dict[str, tuple[Strength, str]] = {
    "dongle": ("strong", "计价软件加密锁序列号"),
    "cpu_mac_disk": ("strong", "计算机硬件信息（CPU、网卡、硬盘序列号）"),
    "wps_hdid": ("strong", "WPS 硬件标识（hdid）"),
    "wps_user": ("strong", "WPS 账号（userId）"),
    "doc_id": ("strong", "Word 文档标识（docId）"),
    "pdf_id": ("strong", "PDF 文件标识（/ID）"),
    "wps_icv": ("supporting", "WPS 安装标识（ICV）"),
    "doc_var": ("supporting", "Word 文档变量"),
}
_RULE = "（依《招标投标法实施条例》第四十条（一），视为不同投标人的投标文件由同一单位或者个人编制）"
# Ids a file made from the tender's own Word or PDF file keeps (its format file, filled in): without the
# tender to leave them out, two bidders who both wrote into it would look like one file's lineage.
# field -> the formats of a tender file that would carry it (a bid made from the tender's own file keeps
# them), and what the panel is told when no such tender file was given
_TENDER_BORNE: dict[str, tuple[frozenset[str], str]] = {
    **dict.fromkeys(
        ("doc_id", "wps_hdid", "wps_user", "wps_icv", "doc_var"),
        (
            WORD_FORMATS,
            "（未提供 Word 格式的招标文件，不能排除双方都在招标文件的格式文件上编写，仅作辅助迹象）",
        ),
    ),
    "pdf_id": (
        frozenset({"pdf"}),
        "（未提供 PDF 格式的招标文件，不能排除双方的 PDF 都出自招标文件，仅作辅助迹象）",
    ),
    **dict.fromkeys(
        ("dongle", "cpu_mac_disk"),
        (
            frozenset({"xml"}),
            "（未提供招标控制价 XML，双方的这条记录时间也相同，不能排除都来自导入的招标控制价文件，"
            "仅作辅助迹象）",
        ),
    ),
}


_TIME = re.compile(r"(\d{4})\D(\d{1,2})\D(\d{1,2})(?:\D+(\d{1,2})\D(\d{1,2})(?:\D(\d{1,2}))?)?")


def _moment(text: str) -> tuple[int, ...] | None:
    """A record's time as numbers to compare (``2024-5-1 9:05`` and ``2024/05/01 09:05:00`` alike)."""
    found = _TIME.search(text)
    return tuple(int(v or 0) for v in found.groups()) if found else None


def _plain(value: str) -> str:
    return re.sub(r"[^0-9A-Za-z]", "", value).upper()


def whitelisted(mark: Mark, listed: str) -> bool:
    """Whether a mark names a PC or dongle of ``listed`` (serials and MACs, separated by commas, spaces
    or new lines; compared without separators or case)."""
    wanted = {_plain(v) for v in re.split(r"[,，;；\s]+", listed) if _plain(v)}
    if not wanted:
        return False
    pieces = re.split(r"\s*/\s*|\s+", mark.value)
    return _plain(mark.value) in wanted or any(_plain(p) in wanted for p in pieces if _plain(p))


def own_marks(marks: Iterable[Mark], tender: Sequence[Mark], whitelist: str = "") -> list[Mark]:
    """A bid's marks less the values the tender's files carry (``tender``), the records dated before the
    tender's last one, and the PCs and dongles ``whitelist`` names."""
    values = {(m.field, m.value) for m in tender}
    last = max((t for m in tender if (t := _moment(m.time)) is not None), default=None)
    own = []
    for mark in marks:
        moment = _moment(mark.time)
        if (mark.field, mark.value) in values or (last and moment and moment <= last):
            continue
        if not whitelisted(mark, whitelist):
            own.append(mark)
    return own


def _record_place(mark: Mark) -> Place:
    """Where a mark stands, for the records side by side: no page (a fact of the file), its record."""
    return Place(0, 0, f"{mark.file}：{mark.record or mark.value}")


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked | PublicValue]:
    """Pairs of bids whose files carry the same dongle, computer, WPS hardware id or account, Word
    document id or PDF id, none of them the tender's; and such values too many bids hold."""
    tender = [m for t in section.tenders for m in t.doc.marks]
    own = [own_marks(b.doc.marks, tender, section.settings.machine_whitelist) for b in bids]
    versions = [{m.value for m in marks if m.field == "pdf_version"} for marks in own]
    out: list[Linked | PublicValue] = []
    given = {f for t in section.tenders for f, _ in t.doc.file_metadata()}  # the tender files' formats
    for field, (strength, word) in MACHINE_FIELDS.items():
        by_value = [{m.value: m for m in marks if m.field == field} for marks in own]
        held = held_by_few([set(values) for values in by_value], set(), section.settings)
        out += public_values("machine", field, held.many)
        for value, docs in held.few.items():
            for i, j in itertools.combinations(docs, 2):
                a, b = by_value[i][value], by_value[j][value]
                same_file = field == "pdf_id" and bool(versions[i] & versions[j])
                borne = _tender_borne(field, (a, b), given)
                weight: Strength = "supporting" if same_file or borne else strength
                detail = _detail(value, weight, word, same_file) + borne
                signal = Signal(
                    "machine", weight, field, value, detail, _record_place(a), _record_place(b), len(docs)
                )
                out.append(Linked(bids[i].doc.id, bids[j].doc.id, signal))
    return out


def _tender_borne(field: str, marks: tuple[Mark, Mark], given: set[str]) -> str:
    """Why a shared value may have come from a tender file not given (what the detail then adds), or
    ``""``: a pricing record counts so only where both bids hold it at the same time (one record)."""
    formats, why = _TENDER_BORNE.get(field, (frozenset(), ""))
    if not formats or formats & given:
        return ""
    if field in ("dongle", "cpu_mac_disk") and marks[0].time != marks[1].time:
        return ""  # two saves at two times: not one record imported by both
    return why


def _detail(value: str, strength: Strength, word: str, same_file: bool) -> str:
    """The sentence the panel reads: the shared record, and the rule a strong one meets."""
    if same_file:
        same = f"两家的文件中有同一个未经修改的 PDF 文件（{word} {value}，保存记录也相同）"
        return f"{same}：可能同出一源，须核实来源"
    return f"两家的文件记录了同一{word}：{value}{_RULE if strength == 'strong' else ''}"
