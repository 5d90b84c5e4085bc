"""Rare errors two bids share: the same wrong characters (混泥土 for 混凝土, 钢筯 for 钢筋) in two
bidders' bids and in no other bid and not in the tender — a text typed once and passed on.

The errors are a list of wrong forms of the trade's words that spell-checkers miss because each
character is a real one (``MISSPELLINGS``: wrong form to right form; slips anyone makes, such as 部份 or
做为, are left out: two writers make them apart); each bid is searched once with one expression of them
all. Two or more errors shared by the same two bids are a strong signal, one is supporting.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bidcheck.model import Signal, Strength
from bidcheck.prepare import Ready
from bidcheck.signals.base import Linked, SectionInfo, place_of

__all__ = ["MISSPELLINGS", "find"]

MISSPELLINGS: dict[str, str] = {
    "混泥土": "混凝土",
    "砼土": "砼",
    "钢筯": "钢筋",
    "钢精混凝土": "钢筋混凝土",
    "水泥砂桨": "水泥砂浆",
    "沙桨": "砂浆",
    "砂桨": "砂浆",
    "工期拖廷": "工期拖延",
    "竣工验收合恪": "竣工验收合格",
    "质量合恪": "质量合格",
    "脚手加": "脚手架",
    "模版支撑": "模板支撑",
    "砌筑沙浆": "砌筑砂浆",
    "防水卷财": "防水卷材",
    "施工工义": "施工工艺",
    "技术交低": "技术交底",
    "隐蔽工程验收记彔": "隐蔽工程验收记录",
    "养户": "养护",
    "振倒": "振捣",
    "砼养扩": "砼养护",
    "泵送砼土": "泵送混凝土",
}
_PATTERN = re.compile("|".join(re.escape(w) for w in sorted(MISSPELLINGS, key=lambda w: (-len(w), w))))


def _errors(bid: Ready) -> dict[str, tuple[int, int]]:
    """The listed errors in a bid, each with the span where it first stands."""
    found: dict[str, tuple[int, int]] = {}
    for match in _PATTERN.finditer(bid.clean.text):
        found.setdefault(match.group(), match.span())
    return found


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked]:
    """Pairs of bids sharing listed errors that no other bid and no tender holds: one signal an error."""
    errors = [_errors(b) for b in bids]
    tender = {e for t in section.tenders for e in _errors(t)}
    holders: dict[str, list[int]] = {}
    for index, held in enumerate(errors):
        for error in held:
            if error not in tender:
                holders.setdefault(error, []).append(index)
    pairs: dict[tuple[int, int], list[str]] = {}
    for error, docs in sorted(holders.items()):
        if len(docs) == 2:
            pairs.setdefault((docs[0], docs[1]), []).append(error)
    out = []
    for (i, j), shared in sorted(pairs.items()):
        strength: Strength = "strong" if len(shared) >= 2 else "supporting"
        for error in shared:
            here, there = (place_of(bids[k].clean, *errors[k][error]) for k in (i, j))
            right = MISSPELLINGS[error]
            detail = f"两份文件有相同的错别字“{error}”（应为“{right}”），其他投标文件和招标文件均没有"
            signal = Signal("shared_error", strength, "misspelling", error, detail, here, there)
            out.append(Linked(bids[i].doc.id, bids[j].doc.id, signal))
    return out
