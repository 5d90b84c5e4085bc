"""Whose bid each file is: the bidder its filled-in forms name, or failing that its file name."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence

from bidcheck.ready import Ready

__all__ = [
    "COMPANY_SUFFIX",
    "FORM_NAME",
    "bidder_of",
    "bidder_of_file",
    "bidders_of",
    "core_name",
    "named_in_forms",
]

COMPANY_SUFFIX = "(?:有限责任公司|股份有限公司|集团有限公司|有限公司|集团公司|公司|研究院|设计院|事务所|厂)"
# 投标人：甲公司（盖单位章） / 投标人名称：甲公司 / 委托人：甲公司 — the filled-in forms
FORM_NAME = re.compile(
    r"(?:投标人|投标单位|供应商|委托人|单位名称)(?:名称)?[（(]?(?:盖章|盖单位章)?[)）]?\s*[：:]\s*"
    r"([\u4e00-\u9fff（）()A-Za-z0-9]{2,40}?" + COMPANY_SUFFIX + ")"
)
_FILE_PREFIX = re.compile(r"^[\s\d._\-、（）()]+")
_FILE_NOISE = re.compile(r"(?:投标文件|商务标|技术标|报价文件|资格审查文件|正本|副本|[（(].*?[）)])")
_PLACES = tuple(
    re.compile(p)
    for p in (
        r"^[\u4e00-\u9fff]{2,3}(?:省|自治区)",
        r"^[\u4e00-\u9fff]{2,3}[市州盟]",
        r"^[\u4e00-\u9fff]{1,3}[县区]",
    )
)
_GENERIC_TAIL = re.compile(r"(?:工程|集团|股份|有限|责任|实业|发展|总承包|第[一二三四五六七八九十\d]+)+$")


def bidder_of(bid: Ready) -> str:
    """The bidder's full name as its forms give it most often (the tender's blank forms give none),
    else its file name less numbering and words such as 投标文件."""
    return named_in_forms(bid.clean.text) or bidder_of_file(bid.doc.name)


def bidders_of(bids: Sequence[Ready]) -> list[str]:
    """``bidder_of`` each bid, found once for all the finders that ask (the last section's answer is
    remembered: the same texts and names give the same bidders)."""
    return list(_bidders(tuple((b.clean.text, b.doc.name) for b in bids)))


@functools.lru_cache(maxsize=1)
def _bidders(texts_and_names: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    return tuple(named_in_forms(text) or bidder_of_file(name) for text, name in texts_and_names)


def named_in_forms(text: str) -> str | None:
    """The bidder's full name as a text's filled-in forms give it most often; ``None`` when they give none."""
    named = Counter(m.group(1) for m in FORM_NAME.finditer(text))
    return max(named.items(), key=lambda kv: (kv[1], len(kv[0])))[0] if named else None


def bidder_of_file(name: str) -> str:
    """The bidder a file's name gives: the name less numbering, its suffix and words such as 投标文件."""
    stem = name.rsplit(".", 1)[0]
    return _FILE_NOISE.sub("", _FILE_PREFIX.sub("", stem)).strip() or stem


def core_name(full: str) -> str:
    """The distinctive core of a company name (江苏省恒信市政工程有限公司 -> 恒信市政): the name less its
    legal form, a leading province/city/county and trailing words any company has (工程, 集团...), each
    only where four characters or more are left; an empty core means none worth looking for."""
    name = re.sub(COMPANY_SUFFIX + "$", "", full)
    for pattern in (*_PLACES, _GENERIC_TAIL):
        cut = pattern.sub("", name)
        name = cut if len(cut) >= 4 else name
    return name if len(name) >= 4 else ""
