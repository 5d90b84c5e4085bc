"""Whose file is it: document properties and editing traces that name someone other than the bidder.

An agency's check pairs bids whose files share a non-generic author, last editor, company or manager
(``signals.metadata``); a bid made from a consultant's draft or a colleague's earlier bid carries theirs.
Listed here: a property naming another company (one the bid names, or any company name); a person in
the author, last editor or manager fields whom the bid itself never names (not among its own staff); a
template path from someone's PC; a PDF whose creating programs name a company. Values every PC writes
(``signals.metadata.GENERIC_VALUES``) and the bidder's own name are no finding.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bidcheck.findings import Finding
from bidcheck.model import Document, Level
from bidcheck.selfcheck.foreign import Owner, company_names
from bidcheck.signals.bidders import core_name
from bidcheck.signals.metadata import GENERIC_VALUES
from bidcheck.text.pinyin import latin_forms, letters

__all__ = ["PROPERTY_FIXES", "find_properties"]

PROPERTY_FIXES: dict[str, str] = {
    "word": "Word：文件 → 信息 → 检查问题 → 检查文档，勾选“文档属性和个人信息”并“全部删除”后保存；"
    "WPS：文件 → 文档加密 → 隐私设置，勾选“保存时从文件属性中删除个人信息”后保存"
    "（也可在 文件 → 属性 → 摘要 中改正）",
    "template": "Word：开发工具 → 文档模板，把文档模板改为 Normal 后保存；WPS 或没有该选项时：把正文"
    "“选择性粘贴 → 只保留文本”到新建的空白文档后保存",
    "pdf": "在 Word/WPS 中清除文档属性后重新导出 PDF；或用 Adobe Acrobat：文件 → 属性 → 说明 中改正，"
    "再用 工具 → 编辑 → 删除隐藏信息",
}
# (metadata key, field, how the panel reads it, whether it names a person)
_FIELDS: tuple[tuple[str, str, str, bool], ...] = (
    ("company", "company", "单位", False),
    ("author", "author", "作者", True),
    ("last_modified_by", "last_modified_by", "最后修改者", True),
    ("manager", "manager", "经理", True),
    ("title", "title", "标题", False),
    ("subject", "subject", "主题", False),
    ("template", "template", "模板", False),
    ("attached_template", "template", "模板路径", False),
    ("application", "producer", "生成程序", False),
    ("producer", "producer", "PDF 生成程序", False),
    ("revision_authors", "revision_author", "修订者", True),
    ("comment_authors", "comment_author", "批注者", True),
)
_LISTS = frozenset({"revision_authors", "comment_authors"})  # several people, joined by 、
_USER_FOLDER = re.compile(r"(?:Users|Documents and Settings|home)[\\/]+([^\\/]+)", re.IGNORECASE)
_WORD_FORMATS = frozenset({"docx", "doc", "wps", "rtf"})


def _values(meta: dict[str, str], key: str) -> list[str]:
    """A property's values worth judging: one, or each person of a list; none generic or overlong."""
    plain = " ".join(meta.get(key, "").split())
    values = plain.split("、") if key in _LISTS else [plain]
    return [v for v in values if not _generic(v) and len(v) <= 300]


def _generic(value: str) -> bool:
    leaf = re.split(r"[\\/]", value)[-1]
    return not value or value.casefold() in GENERIC_VALUES or leaf.casefold() in GENERIC_VALUES


def _other_company(value: str, owner: Owner, others: Sequence[str]) -> str | None:
    """The other company a property value names: one the bid names elsewhere, or any company name."""
    for other in others:
        core = core_name(other)
        if (other in value or (core and core in value)) and not owner.owns(other):
            return other
    return next((name for name, _s, _e in company_names(value) if not owner.owns(name)), None)


def _judged(
    key: str,
    value: str,
    person: bool,
    owner: Owner,
    others: Sequence[str],
    text: str,
    accounts: frozenset[str],
) -> tuple[Level, str] | None:
    """Whether a property value is someone else's: (level, why) or ``None``."""
    company = _other_company(value, owner, others)
    if company:
        return "high", f"指向另一单位“{company}”"
    if owner.owns(value) or (len(value) >= 2 and value in owner.bidder):
        return None
    if key == "company":
        return "high", "不是本单位"
    if person and value.isascii() and letters(value) in accounts:
        return None  # one of the bid's own people, as a Windows account spells him (zhangjg: 张建国)
    if person and value not in text:
        return "watch", "此人未在投标文件中出现；若不是本单位人员，机构的检查会把同一人编辑的文件配成一对"
    folder = _USER_FOLDER.search(value) if key == "attached_template" else None
    if folder:
        return "watch", f"是电脑用户“{folder.group(1)}”的模板路径，会随文件带出"
    if key == "template":
        return "watch", "不是默认模板"
    return None


def find_properties(
    doc: Document, owner: Owner, others: Sequence[str], text: str, people: Sequence[str] = ()
) -> list[Finding]:
    """The bid's properties that name someone else, each with how to clear it.

    Args:
        doc: The bid as read (its ``metadata``).
        owner: The bidder and the tender.
        others: Other companies' names the bid holds or the references give.
        text: The bid's clean text (a person it names is one of its own staff).
        people: The bid's own staff (its forms and staff tables), whose names spelled in Latin letters
            (``zhangjg``) are theirs too.
    """
    fix = PROPERTY_FIXES["word" if doc.format in _WORD_FORMATS else "pdf"]
    accounts = frozenset(form for name in people for form in latin_forms(name))
    causes: dict[tuple[str, Level, str, str], list[tuple[str, str]]] = {}  # one cause, its fields
    for key, field, word, person in _FIELDS:
        for value in _values(doc.metadata, key):
            judged = _judged(key, value, person, owner, others, text, accounts)
            if judged:
                fixed = (
                    PROPERTY_FIXES["template"] if field == "template" and doc.format in _WORD_FORMATS else fix
                )
                causes.setdefault((value, *judged, fixed), []).append((field, word))
    return [
        Finding(
            "properties", level, fields[0][0], value, f"文档属性{_quoted(fields)}为“{value}”：{why}", fixed
        )
        for (value, level, why, fixed), fields in causes.items()
    ]


def _quoted(fields: list[tuple[str, str]]) -> str:
    """The fields that hold one value, as the panel reads them: “单位”“作者”."""
    return "".join(f"“{word}”" for _field, word in dict.fromkeys(fields))
