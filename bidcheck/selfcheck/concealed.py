"""Concealed text and leftovers in a bid, phrased as things to remove: what the readers find hidden or
disguised in the file (``Document.concealed``: hidden, white, tiny, invisible and off-page text,
zero-width characters and look-alike letters, see ``bidcheck.text.concealed``), and a Word file's
comments and text deleted or inserted with changes tracked (``bidcheck.ingest.docx_marks``).

An agency's check reads every character of the file: text the printed bid does not show, or characters
slipped in to beat a checker, look like evasion (``high``); comments and tracked deletions carry their
authors and the wording before it was changed (``watch``).
"""

from __future__ import annotations

from bidcheck.findings import Finding
from bidcheck.model import Concealed, Document, Level, Place
from bidcheck.words import CONCEALED_KINDS

__all__ = ["CONCEALED_FIXES", "find_concealed"]

_RERENDER = "在原 Word/WPS 文件中删除后重新导出 PDF"
_ACCEPT = "Word：审阅 → 接受 → 接受所有修订，再关闭“修订”后保存；WPS：审阅 → 接受 → 接受对文档所做的所有修订"
CONCEALED_FIXES: dict[str, str] = {
    "hidden": "Word：文件 → 信息 → 检查问题 → 检查文档，勾选“隐藏文字”并“全部删除”"
    "（或点 开始 → 显示/隐藏编辑标记，看到后删除）；WPS：文件 → 选项 → 视图，勾选“隐藏文字”后选中删除",
    "white": "全选正文（Ctrl+A）把字体颜色设为“自动”，找到这段文字后删除",
    "tiny": "选中这段文字把字号改大，看清后删除",
    "invisible": "PDF 中看不见的文字：" + _RERENDER,
    "off_page": "PDF 中页面以外的文字：" + _RERENDER,
    "zero_width": "删除零宽字符：Word/WPS 查找替换，“查找内容”填 ^u8203（再依次填 ^u8204、^u8205、^u65279），"
    "“替换为”留空，全部替换；或重新输入这句话",
    "homoglyph": "把形似的外文字母或部首改回原字：重新输入这个词",
    "comment": "Word：审阅 → 删除 → 删除文档中的所有批注；WPS：审阅 → 删除 → 删除文档中的所有批注",
    "deleted": _ACCEPT,
    "inserted": _ACCEPT,
}
_WHY: dict[str, str] = {
    "zero_width": "句中夹有看不见的字符，检查软件会视为有意规避查重",
    "homoglyph": "句中有外形相同的其他文字，检查软件会视为有意规避查重",
    "comment": "批注随文件提交，会带出批注人和修改意见",
    "deleted": "修订记录随文件提交，会带出修订人和改动前的文字",
    "inserted": "修订记录随文件提交，会带出插入这段文字的人（若不是本单位人员，即是他人代写的痕迹）",
}
_UNSEEN = "打印和阅读时看不到，但仍在文件中，机构的检查会读到它并视为隐藏内容"
_WATCH_ONLY = frozenset({"comment", "deleted", "inserted"})
_SHOWN = 60  # characters of the concealed text the sentence quotes


def _finding(item: Concealed) -> Finding:
    word = CONCEALED_KINDS.get(item.kind, item.kind)
    level: Level = "watch" if item.kind in _WATCH_ONLY else "high"
    quoted = item.text if len(item.text) <= _SHOWN else item.text[:_SHOWN] + "…"
    where = Place(item.page, item.paragraph, item.text)
    at = f"第 {item.page} 页第 {item.paragraph} 段" if item.paragraph else f"第 {item.page} 页"
    detail = f"{at}有{word}“{quoted}”：{_WHY.get(item.kind, _UNSEEN)}"
    fix = CONCEALED_FIXES.get(item.kind, "找到这段内容后删除")
    return Finding("concealed", level, item.kind, item.text, detail, fix, where)


def find_concealed(doc: Document) -> list[Finding]:
    """Each concealed text, disguise, comment and tracked deletion of the bid, with how to remove it."""
    return [_finding(item) for item in doc.concealed]
