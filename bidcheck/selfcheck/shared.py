"""What the bid shares with its references (a consultant's template, a partner's bid, last year's bid):
the pairs a check of the bid with each reference judges (``pipeline.check``, ``judge.verdict``), read
as findings — each evidence passage of a pair that reaches a level, with that level, and each sign the
pair shares (the same author, editing sessions, numbers)."""

from __future__ import annotations

from bidcheck.findings import Finding
from bidcheck.model import Level, PairResult, Passage, Place, Signal
from bidcheck.selfcheck.properties import PROPERTY_FIXES
from bidcheck.words import LEVEL_NAMES, SIGNAL_FIELDS, SIGNAL_KINDS

__all__ = ["find_shared"]

_PASSAGE_FIX = "用本单位自己的文字重写这一段（招标文件的原文可以保留）"
_SIGNAL_FIXES: dict[str, str] = {
    "metadata": PROPERTY_FIXES["word"],
    "edit_session": "把正文“选择性粘贴 → 只保留文本”到新建的空白文档后重新排版保存，去掉沿用的编辑记录",
    "cross_name": "把对方单位的名称改为本单位名称或删除，并核对这一部分是否整段沿用了对方的文件",
    "identifier": "核对这个号码或人员是否属于本单位；不是的，改为本单位的或删除",
    "shared_error": "改正这个错别字",
    "machine": "用本单位自己的电脑和加密锁重新打开计价软件、新建工程后重新计价保存，不要用对方的文件另存",
}
_PREVIEW = 120  # the wording of a passage's place, as a signal's place holds it


def _place(page: int, paragraph: int, text: str) -> Place:
    return Place(page, paragraph, text[:_PREVIEW])


def _passage_finding(pair: PairResult, passage: Passage, reference: str, ours: bool) -> Finding:
    here, there = (passage.a, passage.b) if ours else (passage.b, passage.a)
    where = _place(here.page, here.paragraph, here.text)
    other = _place(there.page, there.paragraph, there.text)
    places = (
        f"本文件第 {where.page} 页第 {where.paragraph} 段 / 对方第 {other.page} 页第 {other.paragraph} 段"
    )
    detail = (
        f"与 {reference} 有一段 {passage.chars} 字相同（相似度 {passage.similarity:.0%}，{places}）；"
        f"两份文件会被判为{LEVEL_NAMES[pair.level]}"
    )
    return Finding("shared", pair.level, "passage", here.text, detail, _PASSAGE_FIX, where, other, reference)


def _signal_finding(signal: Signal, reference: str, ours: bool) -> Finding:
    level: Level = "high" if signal.strength == "strong" else "watch"
    kind = SIGNAL_KINDS.get(signal.kind, signal.kind)
    field = SIGNAL_FIELDS.get(signal.field, signal.field)
    detail = f"与 {reference} 的{kind}（{field}）相同：{signal.detail}"
    fix = _SIGNAL_FIXES.get(signal.kind, "核对并改为本单位自己的内容")
    where, other = (signal.a, signal.b) if ours else (signal.b, signal.a)
    return Finding("shared", level, signal.field, signal.value, detail, fix, where, other, reference)


def find_shared(pairs: tuple[PairResult, ...], bid_id: str, names: dict[str, str]) -> list[Finding]:
    """Findings from the bid's pairs with its references: the evidence passages of each pair a check
    raises (``high`` or ``watch``), and every sign a pair shares, each with the level it gives.

    Args:
        pairs: The check's pairs; those of the bid (``bid_id``) are read.
        bid_id: The bid's document id.
        names: Each document's file name, by id.
    """
    out: list[Finding] = []
    for pair in pairs:
        if bid_id not in (pair.a, pair.b):
            continue
        ours = pair.a == bid_id
        reference = names[pair.b if ours else pair.a]
        if pair.level != "none":
            out += [_passage_finding(pair, p, reference, ours) for p in pair.passages if p.live]
        out += [_signal_finding(s, reference, ours) for s in pair.signals]
    return out
