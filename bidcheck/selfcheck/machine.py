"""Whose machine saved it: a bid whose files record more than one pricing dongle, computer or WPS account.

An agency's check ties two bidders whose files share a dongle, a computer or a WPS account
(``signals.machine``); a bid priced on another company's PC, or finished from a file another company's
account saved, carries that company's record beside the bidder's own. Without the other company's file
the self-check cannot name whose it is, so it lists the bid's own records when they name more than
one dongle, computer or account (the tender's records, and records older than the tender's, are the
tenderer's and are left out), for the bidder to confirm each is its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from bidcheck.findings import Finding
from bidcheck.model import Document, Mark
from bidcheck.signals.machine import own_marks

__all__ = ["MACHINE_FIX", "find_machine"]

MACHINE_FIX = (
    "确认每一条都是本单位的电脑、加密锁或账号；不是的，用本单位的电脑和加密锁重新打开计价软件、"
    "新建工程并导入招标控制价后重新计价保存（不要用他人的文件另存），Word/WPS 文件在本单位电脑上"
    "新建文档后粘贴正文保存"
)
# field -> what the bidder reads it as
_WORDS = {
    "dongle": "加密锁",
    "cpu_mac_disk": "电脑（CPU、网卡、硬盘）",
    "wps_user": "WPS 账号",
    "wps_hdid": "WPS 电脑标识",
}


def find_machine(doc: Document, tenders: Sequence[Document], whitelist: str = "") -> list[Finding]:
    """A finding for each kind of record the bid's files give more than one value of."""
    marks = own_marks(doc.marks, [m for t in tenders for m in t.marks], whitelist)
    out = []
    for field, word in _WORDS.items():
        found: dict[str, Mark] = {}
        for mark in marks:
            if mark.field == field:
                found.setdefault(mark.value, mark)
        if len(found) < 2:
            continue
        listed = "；".join(f"{m.file}：{m.record or m.value}" for m in found.values())
        detail = (
            f"文件记录了 {len(found)} 个不同的{word}：{listed}。其中若有不属于本单位的，"
            f"评标时会与那家单位的投标文件判为同一{word}编制"
        )
        out.append(Finding("properties", "watch", field, "、".join(found), detail, MACHINE_FIX))
    return out
