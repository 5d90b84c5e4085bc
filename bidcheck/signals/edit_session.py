"""Editing sessions two bids share: Word stamps each session that edits a file with a random id (rsid)
and keeps them in ``settings.xml``; two bidders' files holding the same ids the tender does not hold
were edited in one lineage — one file, passed on.

Ids of a tool's own blank template (every python-docx file holds python-docx's) are no sign, nor are
ids most bids hold. ``edit_session_min_rsids`` shared ids or more are a strong signal, fewer supporting.
The signal is located, on each side, at the first paragraph one of the shared sessions made
(``w:rsidR``/``w:rsidRPr``/``w:rsidRDefault``), when there is one.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from bidcheck.model import Place, Signal
from bidcheck.prepare import Ready
from bidcheck.signals.base import Linked, SectionInfo, held_by_few, place_of

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
    """Pairs of Word bids sharing editing-session ids the tender does not hold: one signal per pair."""
    excluded = set(TEMPLATE_RSIDS).union(*(t.doc.rsids for t in section.tenders))
    held = held_by_few([b.doc.rsids for b in bids], excluded, section.settings)
    shared: dict[tuple[int, int], list[str]] = {}
    for rsid, docs in held.few.items():
        for pair in itertools.combinations(docs, 2):
            shared.setdefault(pair, []).append(rsid)
    texts = [dict(b.doc.rsid_texts) for b in bids]
    out = []
    for (i, j), rsids in sorted(shared.items()):
        strong = len(rsids) >= section.settings.edit_session_min_rsids
        value = " ".join(rsids[:_LISTED]) + (" …" if len(rsids) > _LISTED else "")
        here, there = (_paragraph(bids[k], texts[k], rsids) for k in (i, j))
        where = f"；第 {here.page} 页 / 第 {there.page} 页的段落带有同一标识" if here and there else ""
        detail = (
            f"两份 Word 文件共有 {len(rsids)} 个招标文件没有的编辑会话标识（rsid），出自同一文件的编辑过程"
        )
        signal = Signal(
            "edit_session", "strong" if strong else "supporting", "rsid", value, detail + where, here, there
        )
        out.append(Linked(bids[i].doc.id, bids[j].doc.id, signal))
    return out


def _paragraph(bid: Ready, texts: dict[str, str], rsids: list[str]) -> Place | None:
    """Where the first paragraph one of the shared sessions made stands in a bid, if any did."""
    text = next((texts[r] for r in rsids if r in texts), "").strip()
    start = bid.clean.text.find(text) if text else -1
    return place_of(bid.clean, start, start + len(text)) if start >= 0 else None
