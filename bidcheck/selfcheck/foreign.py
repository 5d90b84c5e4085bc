"""Other companies inside a bid (混装): their names, and the phones, e-mails, people and numbers that stand
with them, that do not belong to the bidder and are not in the tender.

An agency's check finds one bidder's name in another's bid (``signals.cross_name``) and the same
identifier in two bids (``signals.identifier``); a bidder checking alone does not know the other
bidders, so every company the bid names is listed, except the bidder itself, what the tender names
(the owner, the agency), banks and insurers (every bid names its bank and its guarantor) and the owners
and designers of its past projects (its 业绩 tables name them after 发包人, 建设单位...).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from bidcheck.findings import Finding
from bidcheck.model import Block, Document, Level, Place
from bidcheck.signals.base import place_of
from bidcheck.signals.bidders import FORM_NAME, core_name
from bidcheck.signals.identifier import PATTERNS, row_span, staffed_identifiers
from bidcheck.text import CleanText
from bidcheck.text.tables import table_rows
from bidcheck.words import SIGNAL_FIELDS

__all__ = ["ForeignName", "Owner", "company_names", "find_foreign"]

# A company in running text: a legal form (有限公司...), never a bare 公司 or 厂 (我公司, 搅拌厂)
_NAME = re.compile(
    r"[\u4e00-\u9fff（）()]{2,20}?(?P<form>有限责任公司|股份有限公司|集团有限公司|有限公司|集团公司|研究院|设计院|事务所)"
)
# a word a name never starts after: what comes before it in a sentence (由恒信公司承建, 我公司恒信公司,
# the power of attorney's 本人代表恒信公司...)
_LEAD = re.compile(r"[由与及向对受被给从经将把的了是在为和、]|公司|单位|我方|代表")
_THIRD_PARTY = re.compile(r"银行|保险|担保|证券|信用社|信用合作|公证处|律师事务所")
# the owner, designer or supervisor of a past project, named in the bid's 业绩 tables
# (and the addressee of the bid letter, 致：…, and the tenderee, purchaser or agency the bid names: every
# bid names them, so they are never another bidder's left behind)
_CLIENT = re.compile(
    r"(?:发包人|建设单位|业主|招标人|采购人|代理机构|招标代理|采购代理|监理单位|设计单位|委托单位|甲方|(?:^|\n)\s*致)"
    r"[^\n。；]{0,8}$"
)
_ROLES = re.compile(
    r"(项目经理|项目负责人|技术负责人|法定代表人)(?:姓名)?\s*[：:]\s*([\u4e00-\u9fff]{2,3})(?![\u4e00-\u9fff])"
)
_NAME_FIX = "把“{name}”改为本单位名称或删除，并核对这一部分是否整段沿用了他人的文件（电话、人员、证书等）"
_VALUE_FIX = "核对这个{field}是否属于本单位；不是的，改为本单位的或删除"


@dataclass(frozen=True)
class Owner:
    """Whose names and numbers are no finding: the bidder's (full name and core) and the tender's."""

    bidder: str
    tender_text: str
    tender_values: frozenset[str] = frozenset()  # the identifiers the tender holds

    def owns(self, name: str) -> bool:
        """Whether a company name is the bidder's own, or one the tender gives."""
        core = core_name(name)
        mine = {self.bidder, core_name(self.bidder)} - {""}
        if any(m in name or name in m for m in mine) or (core and core in self.bidder):
            return True
        return name in self.tender_text or bool(core and core in self.tender_text)


@dataclass(frozen=True)
class ForeignName:
    """Another company's name in the bid: the name, its span in the clean text, whether a form names it."""

    name: str
    start: int
    end: int
    in_form: bool


def company_names(text: str) -> Iterator[tuple[str, int, int]]:
    """Company names in a text (a run of Chinese ending in a legal form), each with its span; a name a
    PDF line break cuts is whole, the words a sentence puts before a name (and the paragraph before it)
    are left out, and names without a distinctive core (我们公司) skipped."""
    kept = [i for i, c in enumerate(text) if c != "\n"]
    joined = "".join(text[i] for i in kept)
    for match in _NAME.finditer(joined):
        start, end = match.span()
        breaks = [i for i in range(start + 1, end) if kept[i] - kept[i - 1] > 1]
        if breaks and core_name(joined[breaks[-1] : end]):
            start = breaks[-1]  # the name begins a line: what stands before it is another paragraph's
        start = _after_lead(joined, start, match.start("form"), end)
        if core_name(joined[start:end]):
            yield joined[start:end], kept[start], kept[end - 1] + 1


def _after_lead(text: str, start: int, form: int, end: int) -> int:
    """Where a name begins in ``text[start:end]``: after the last word before its legal form (``form``)
    that a sentence puts before a name, as long as four letters of a core are left."""
    for lead in reversed([m.end() for m in _LEAD.finditer(text, start, form)]):
        if len(core_name(text[lead:end])) >= 4:
            return lead
    return start


def _third_party(name: str, text: str, start: int) -> bool:
    return bool(_THIRD_PARTY.search(name) or _CLIENT.search(text[max(0, start - 16) : start]))


def _a_client(name: str, clients: set[str]) -> bool:
    """Whether a name is one of the clients': the same core, or a client's full name with the words a
    sentence puts before it (``承诺按某市…有限公司``); another company of a like name is not."""
    core = core_name(name)
    return any(core == core_name(c) or name.endswith(c) for c in clients)


def foreign_names(clean: CleanText, owner: Owner) -> list[ForeignName]:
    """Each other company the bid names, once (by its core), at the first place it stands; a name a
    filled-in form gives (投标人：…（盖单位章）) first of all."""
    forms = {m.start(1) for m in FORM_NAME.finditer(clean.text)}
    names = list(company_names(clean.text))
    clients = {n for n, start, _end in names if _third_party(n, clean.text, start)}
    found: dict[str, ForeignName] = {}
    for name, start, end in names:
        in_form = any(start <= f < end for f in forms)
        if owner.owns(name) or (not in_form and _a_client(name, clients)):
            continue  # a client named once is the client throughout; a name a form gives never is
        key = core_name(name)
        if key not in found or (in_form and not found[key].in_form):
            found[key] = ForeignName(name, start, end, in_form)
    return sorted(found.values(), key=lambda f: f.start)


def _name_finding(clean: CleanText, foreign: ForeignName) -> Finding:
    where = place_of(clean, foreign.start, foreign.end)
    what = "投标文件的表格中填写的单位" if foreign.in_form else "文件中出现另一单位的名称"
    detail = (
        f"{what}“{foreign.name}”（第 {where.page} 页第 {where.paragraph} 段）：若该单位也参加本标段，"
        "机构的检查会判为一级预警（混装）"
    )
    return Finding(
        "foreign", "high", "bidder", foreign.name, detail, _NAME_FIX.format(name=foreign.name), where
    )


def _block_span(clean: CleanText, offset: int) -> tuple[int, int]:
    """The span of the paragraph holding a clean-text offset."""
    starts = clean.block_starts
    if not starts:
        return 0, len(clean.text)
    index = max(bisect.bisect_right(starts, offset) - 1, 0)
    return starts[index], starts[index + 1] if index + 1 < len(starts) else len(clean.text)


def _units(doc: Document, clean: CleanText) -> Callable[[int], tuple[int, int]]:
    """The span of the unit holding a clean-text offset: its table row (every cell of it), else its
    paragraph."""
    rows = sorted(row_span(clean, row) for row in table_rows(doc.compared_blocks()))
    starts = [start for start, _end in rows]

    def unit(offset: int) -> tuple[int, int]:
        at = bisect.bisect_right(starts, offset) - 1
        if at >= 0 and rows[at][0] <= offset < rows[at][1]:
            return rows[at]
        return _block_span(clean, offset)

    return unit


def _identifier_findings(
    doc: Document, clean: CleanText, names: list[ForeignName], owner: Owner
) -> list[Finding]:
    """The identifiers (and the people, certificates and ID numbers of staff tables) standing in a
    paragraph or a table row with another company's name: that company's, not the bidder's."""
    unit = _units(doc, clean)
    foreign = {core_name(n.name): n.name for n in names}
    paragraphs = {  # every place another company stands, not only the first
        unit(start): foreign[core_name(name)]
        for name, start, _end in company_names(clean.text)
        if core_name(name) in foreign
    }
    out = []
    for field, values in staffed_identifiers(doc, clean).items():
        for value, (start, end) in values.items():
            company = paragraphs.get(unit(start))
            if company is None or value in owner.tender_values:
                continue
            where = place_of(clean, start, end)
            word = SIGNAL_FIELDS[field]
            at = f"第 {where.page} 页第 {where.paragraph} 段"
            detail = f"{word}“{value}”与另一单位“{company}”在同一段或表格的同一行（{at}）"
            level: Level = "high" if PATTERNS[field][2] == "strong" else "watch"
            out.append(Finding("foreign", level, field, value, detail, _VALUE_FIX.format(field=word), where))
    return out


def _role_findings(clean: CleanText) -> list[Finding]:
    """A role one person holds (项目经理, 法定代表人) named as two people: one of them is a leftover of
    another bid."""
    people: dict[str, dict[str, int]] = {}
    for match in _ROLES.finditer(clean.text):
        people.setdefault(match.group(1), {}).setdefault(match.group(2), match.start(2))
    out = []
    for role, named in people.items():
        if len(named) < 2:
            continue
        first, *others = sorted(named.items(), key=lambda kv: kv[1])
        for person, start in others:
            where = place_of(clean, start, start + len(person))
            earlier = f"此前为“{first[0]}”"
            detail = f"{role}前后不一：第 {where.page} 页为“{person}”，{earlier}，可能是沿用他人文件的残留"
            fix = f"统一为本单位实际的{role}，删除沿用的他人信息"
            out.append(Finding("foreign", "watch", "person", person, detail, fix, where))
    return out


def _margin_findings(doc: Document, owner: Owner) -> list[Finding]:
    """Another company named in a running header or footer (no part of the compared text)."""
    out = []
    margins: list[Block] = [b for b in doc.blocks if b.kind in ("header", "footer")]
    for block in margins:
        for name, _start, _end in company_names(block.text):
            if not owner.owns(name) and not _THIRD_PARTY.search(name):
                where = Place(block.page, block.paragraph, block.text)
                side = "页眉" if block.kind == "header" else "页脚"
                detail = f"{side}中出现另一单位的名称“{name}”：每一页都会带着它"
                out.append(
                    Finding("foreign", "high", "bidder", name, detail, _NAME_FIX.format(name=name), where)
                )
    return out


def find_foreign(doc: Document, clean: CleanText, owner: Owner) -> list[Finding]:
    """Every other company the bid names (text, headers and footers), the identifiers standing with
    them, and roles named as two people."""
    names = foreign_names(clean, owner)
    return [
        *(_name_finding(clean, n) for n in names),
        *_margin_findings(doc, owner),
        *_identifier_findings(doc, clean, names, owner),
        *_role_findings(clean),
    ]
