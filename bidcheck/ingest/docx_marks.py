"""Word's comments and tracked changes: what a file carries besides its printed text.

A comment (``word/comments.xml``, anchored in a paragraph by ``w:commentReference``) and text deleted
with changes tracked (``w:del``/``w:delText``) travel with the file though the printed bid shows neither;
text inserted with changes tracked (``w:ins``) shows, but stays someone's suggestion until it is accepted;
the people who made them are named on each (``w:author``). The reader keeps them as concealed text of
their paragraph (kinds ``comment``, ``deleted`` and ``inserted``) and their authors as properties.
"""

from __future__ import annotations

from lxml import etree

__all__ = ["comment_texts", "has_marks", "paragraph_marks", "revision_people"]

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_REVISIONS = ("ins", "del", "moveFrom", "moveTo", "rPrChange", "pPrChange")  # elements naming their author


def _q(tag: str) -> str:
    return f"{{{W}}}{tag}"


def _text(node: etree._Element, tags: tuple[str, ...] = ("t",)) -> str:
    return "".join(t.text or "" for t in node.iter(*(_q(tag) for tag in tags))).strip()


def comment_texts(comments: etree._Element | None) -> dict[str, str]:
    """Each comment's text by its id, its author first (``刘顾问：请改为贵公司名称``)."""
    out: dict[str, str] = {}
    for comment in comments.iter(_q("comment")) if comments is not None else ():
        text = _text(comment)
        if text:
            author = (comment.get(_q("author")) or "").strip()
            out[comment.get(_q("id")) or ""] = f"{author}：{text}" if author else text
    return out


def has_marks(document: etree._Element) -> bool:
    """Whether the body holds a tracked deletion or a comment's anchor (most files hold neither, and
    their paragraphs need not be searched for them)."""
    return next(document.iter(_q("del"), _q("ins"), _q("commentReference")), None) is not None


def paragraph_marks(para: etree._Element, comments: dict[str, str]) -> list[tuple[str, str]]:
    """A paragraph's comments and tracked changes: (``comment``, ``deleted`` or ``inserted``, text)."""
    marks = [("deleted", _text(node, ("delText",))) for node in para.iter(_q("del"))]
    marks += [("inserted", _text(node)) for node in para.iter(_q("ins"))]
    marks += [
        ("comment", comments.get(ref.get(_q("id")) or "", "")) for ref in para.iter(_q("commentReference"))
    ]
    return [(kind, text) for kind, text in marks if text]


def _authors(root: etree._Element | None, tags: tuple[str, ...]) -> str:
    if root is None:
        return ""
    found = {(node.get(_q("author")) or "").strip() for node in root.iter(*(_q(t) for t in tags))}
    return "、".join(sorted(found - {""}))


def revision_people(document: etree._Element, comments: etree._Element | None) -> dict[str, str]:
    """The people who tracked changes in the body (``revision_authors``) and who wrote comments
    (``comment_authors``), each joined by 、; only the keys that name someone."""
    people = {
        "revision_authors": _authors(document, _REVISIONS),
        "comment_authors": _authors(comments, ("comment",)),
    }
    return {key: value for key, value in people.items() if value}
