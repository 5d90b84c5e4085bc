"""Tables of the tender that two bids filled in alike, row for row.

Every bid returns the tender's 工程量清单, 开标一览表 and 偏离表 with its own prices, brands and answers
(``bidcheck.text.tables`` tells the frame from what a bidder filled in). Two bidders pricing and
answering on their own agree on a row now and then; two bids filled from one sheet agree on most of
them. A row counts when what the bidder filled in says something (a price, a brand, a sentence — not
满足 or 无偏离) and no more than a few bids filled it so; a pair is a sign when many rows agree and
they are most of the rows both filled.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from bidcheck.model import Signal, Strength
from bidcheck.ready import Ready
from bidcheck.signals.base import Linked, SectionInfo, held_by_few, row_place, text_table_blocks
from bidcheck.text import normalize
from bidcheck.text.tables import TableRow, cell_norms, common_frame, frame_spans, table_rows, tender_frame

__all__ = ["find"]

# Answers that say nothing of who wrote them (compared in comparable form).
_GENERIC = frozenset(
    normalize(w)[0]
    for w in (
        "满足", "响应", "完全响应", "无偏离", "正偏离", "负偏离", "偏离", "符合", "满足要求", "符合要求",
        "完全满足", "是", "否", "有", "无", "同意", "接受", "承诺", "详见附件", "见附件", "合格", "优良",
    )
)  # fmt: skip
_MIN_CHARS = 3  # what a row's filled cells must hold, generic answers left out
_ROWS = {"strong": 8, "supporting": 5}  # rows filled alike, at least
_SHARE = {"strong": 0.6, "supporting": 0.5}  # ... and this share of the rows both filled


_Filled = dict[str, tuple[str, TableRow]]


def _filled(bid: Ready, frame: frozenset[str]) -> _Filled:
    """By the frame of a row (the tender's cells it repeats): what the bid filled in there, and the row;
    rows whose filled cells say nothing are left out."""
    out: _Filled = {}
    for row in table_rows(text_table_blocks(bid.doc)):
        norms = cell_norms(row)
        spans = frame_spans(norms, frame)
        if not spans:
            continue
        framed = {i for start, end in spans for i in range(start, end)}
        own = [n for i, n in enumerate(norms) if i not in framed and n and n not in _GENERIC]
        if sum(len(n) for n in own) >= _MIN_CHARS:
            signature = "|".join("".join(norms[start:end]) for start, end in spans)
            out.setdefault(signature, ("|".join(own), row))
    return out


def _frame(bids: Sequence[Ready], section: SectionInfo) -> frozenset[str]:
    rows = (table_rows(text_table_blocks(d.doc)) for d in (section.tenders or bids))
    if section.tenders:
        return tender_frame(rows)
    return common_frame(rows, max(3, math.ceil(section.settings.signal_common_share * len(bids))))


def _strength(same: int, both: int) -> Strength | None:
    strengths: tuple[Strength, ...] = ("strong", "supporting")
    for strength in strengths:
        if same >= _ROWS[strength] and same >= _SHARE[strength] * both:
            return strength
    return None


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked]:
    """Pairs of bids that filled many rows of the tender's tables alike: one signal a pair."""
    frame = _frame(bids, section)
    if not frame:
        return []
    filled = [_filled(b, frame) for b in bids]
    keys = [{f"{signature}\0{value}" for signature, (value, _) in rows.items()} for rows in filled]
    alike: dict[tuple[int, int], list[str]] = {}
    for key, holders in held_by_few(keys, set(), section.settings).few.items():
        for pair in itertools.combinations(holders, 2):
            alike.setdefault(pair, []).append(key.split("\0")[0])
    out = []
    for (i, j), signatures in sorted(alike.items()):
        signal = _signal((filled[i], filled[j]), signatures)
        if signal is not None:
            out.append(Linked(bids[i].doc.id, bids[j].doc.id, signal))
    return out


def _signal(filled: tuple[_Filled, _Filled], alike: list[str]) -> Signal | None:
    """The pair's signal when the rows it filled alike are enough, located at the first of them."""
    both = len(filled[0].keys() & filled[1].keys())
    strength = _strength(len(alike), both)
    if strength is None:
        return None
    first = min(alike, key=lambda s: filled[0][s][1].row)
    here, there = (row_place(rows[first][1], " ") for rows in filled)
    shown = here.text
    detail = f"两份文件对招标文件表格的填写有 {len(alike)} 行相同（两家都填写的 {both} 行中），如“{shown}”"
    return Signal("table_fill", strength, "rows", f"{len(alike)}/{both} 行", detail, here, there)
