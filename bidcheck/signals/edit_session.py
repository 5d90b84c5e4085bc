"""Editing sessions two bids share: Word stamps each session that edits a file with a random id (rsid)
and keeps them in ``settings.xml``; two bidders' files holding the same ids the tender does not hold
were edited in one lineage — one file, passed on.

Ids of a tool's own blank template (every python-docx file holds python-docx's) are no sign, nor are
ids most bids hold. ``edit_session_min_rsids`` shared ids or more are a strong signal, fewer supporting.
Word 2010 and later also give each paragraph an id (``w14:paraId``) that a file saved under another name
keeps: paragraphs of two bidders' files with the same ids the tender's do not hold came from one file
(ids are random 31-bit numbers: 100 bids of 3,000 paragraphs hold about 20 ids alike by chance, never
three of one pair, so paragraph ids count from the same bound, strong, and not below it).
The signal is located, on each side, at the first paragraph one of the shared sessions made
(``w:rsidR``/``w:rsidRPr``/``w:rsidRDefault``), when there is one.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from bidcheck.model import Place, Signal, Strength
from bidcheck.ready import Ready
from bidcheck.signals.base import WORD_FORMATS, Linked, SectionInfo, held_by_few, place_of

__all__ = ["TEMPLATE_RSIDS", "find"]

# python-docx's blank document (its rsidRoot and sessions)
TEMPLATE_RSIDS: frozenset[str] = frozenset(
    {
        "00B47730",
        "00034616",
        "0006063C",
        "0015074B",
        "0029639D",
        "00326F90",
        "00AA1D8D",
        "00CB0664",
        "00FC693F",
    }
)
_LISTED = 12  # ids named in the value; the detail gives the count


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked]:
    """Pairs of Word bids sharing editing-session ids, or paragraph ids, the tender does not hold: one
    signal per pair and kind of id."""
    tender_rsids = set(TEMPLATE_RSIDS).union(*(t.doc.rsids for t in section.tenders))
    tender_paras = {i for t in section.tenders for i, _ in t.doc.para_ids}
    word_tender = any(f in WORD_FORMATS for t in section.tenders for f, _ in t.doc.file_metadata())
    out = []
    for field, ids, excluded, detail in (
        ("rsid", [b.doc.rsids for b in bids], tender_rsids, _RSID_DETAIL),
        ("para_id", [[i for i, _ in b.doc.para_ids] for b in bids], tender_paras, _PARA_DETAIL),
    ):
        texts = [dict(b.doc.rsid_texts if field == "rsid" else b.doc.para_ids) for b in bids]
        for (i, j), shared in sorted(_shared(ids, excluded, section).items()):
            strong = len(shared) >= section.settings.edit_session_min_rsids
            if field == "para_id" and not strong:
                continue  # a section's thousands of paragraphs give one or two alike by chance
            value = " ".join(shared[:_LISTED]) + (" …" if len(shared) > _LISTED else "")
            here, there = (_paragraph(bids[k], texts[k], shared) for k in (i, j))
            where = f"；第 {here.page} 页 / 第 {there.page} 页的段落带有同一标识" if here and there else ""
            soft = field == "para_id" and not word_tender  # the tender's format file may be where they began
            strength: Strength = "strong" if strong and not soft else "supporting"
            said = detail.format(len(shared)) + where + (_NO_WORD_TENDER if soft else "")
            signal = Signal("edit_session", strength, field, value, said, here, there)
            out.append(Linked(bids[i].doc.id, bids[j].doc.id, signal))
    return out


_RSID_DETAIL = "两份 Word 文件共有 {} 个招标文件没有的编辑会话标识（rsid），出自同一文件的编辑过程"
_NO_WORD_TENDER = "（未提供 Word 格式的招标文件，不能排除这些段落都来自招标文件的格式文件，仅作辅助迹象）"
_PARA_DETAIL = "两份 Word 文件有 {} 个招标文件没有的相同段落标识（w14:paraId），这些段落出自同一文件"


def _shared(
    ids: Sequence[Iterable[str]], excluded: set[str], section: SectionInfo
) -> dict[tuple[int, int], list[str]]:
    """By pair of bids (indices), the ids both hold that few bids and not the tender hold."""
    held = held_by_few(ids, excluded, section.settings)
    shared: dict[tuple[int, int], list[str]] = {}
    for value, docs in held.few.items():
        for pair in itertools.combinations(docs, 2):
            shared.setdefault(pair, []).append(value)
    return shared


def _paragraph(bid: Ready, texts: dict[str, str], rsids: list[str]) -> Place | None:
    """Where the first paragraph one of the shared sessions made stands in a bid, if any did."""
    text = next((texts[r] for r in rsids if r in texts), "").strip()
    start = bid.clean.text.find(text) if text else -1
    return place_of(bid.clean, start, start + len(text)) if start >= 0 else None
