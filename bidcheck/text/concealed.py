"""Characters disguised to beat a checker, and the table that folds them away for comparison.

A copied sentence can be made to look new to a checker while reading the same to a person: zero-width
characters slipped between its characters, or letters swapped for look-alikes of another script
(Cyrillic ``С`` for Latin ``C``, a Kangxi radical ``⼯`` for ``工``, a CJK compatibility ideograph).
``LOOKALIKES`` maps each look-alike onto the character it imitates, one character for one, so that
normalisation can fold them without moving an offset; zero-width characters are not word characters and
normalisation drops them already. ``disguises`` finds both inside words, where nobody types them.

The readers mark text a printed bid does not show (hidden, white, tiny, invisible, off the page) with
the index of its block; ``resolve_concealed`` turns those marks into paragraphs once the document's
paragraphs are numbered, and adds the disguises of its compared text.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import code_points
from bidcheck.model import COMPARED_KINDS, Concealed, Document

__all__ = ["LOOKALIKES", "ZERO_WIDTH", "disguises", "resolve_concealed"]


def _latin_twins() -> dict[int, int]:
    """Cyrillic and Greek letters drawn like Latin ones, onto those (each look-alike, then its twin)."""
    pairs = "АAВBЕEКKМMНHОOРPСCТTХXУYаaеeоoрpсcуyхxіiјjѕsЅSІIЈJԁdԛqԝwһhӏlҮYΑAΒBΕEΖZΗHΙIΚKΜMΝNΟOΡPΤTΥYΧXοo"
    return {ord(pairs[n]): ord(pairs[n + 1]) for n in range(0, len(pairs), 2)}


def _cjk_twins() -> dict[int, int]:
    """Kangxi radicals, radical supplements and compatibility ideographs onto the unified ideograph
    each is drawn as (their compatibility form, where that is one character)."""
    codes = [*range(0x2E80, 0x2EF4), *range(0x2F00, 0x2FD6), *range(0xF900, 0xFADA), *range(0x2F800, 0x2FA1E)]
    out = {}
    for code in codes:
        folded = unicodedata.normalize("NFKC", chr(code))
        if len(folded) == 1 and folded != chr(code):
            out[code] = ord(folded)
    return out


LOOKALIKES: dict[int, int] = {**_latin_twins(), **_cjk_twins()}
ZERO_WIDTH = "\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad\u180e"
_LATIN_LOOK = "".join(chr(c) for c in _latin_twins())
_CJK_LOOK = "".join(chr(c) for c in _cjk_twins())
_WORD = r"[\u4e00-\u9fffA-Za-z0-9]"
# a zero-width character between two word characters; a foreign look-alike touching a Chinese character
# or a Latin letter or digit; a CJK look-alike anywhere
_DISGUISE = re.compile(
    rf"(?P<zero_width>(?<={_WORD})[{ZERO_WIDTH}]+(?={_WORD}))"
    rf"|(?P<homoglyph>(?<=[\u4e00-\u9fffA-Za-z0-9])[{_LATIN_LOOK}]|[{_LATIN_LOOK}](?=[\u4e00-\u9fffA-Za-z0-9])"
    rf"|[{_CJK_LOOK}])"
)
_SUSPECTS = frozenset(ZERO_WIDTH + _LATIN_LOOK + _CJK_LOOK)
_FONT_MAPPED = 30  # more CJK look-alikes than this in one document: its font's text mapping, no disguise
_SENTENCE = re.compile(r"[^。！？；!?;\n]*[。！？；!?;]?")
_TEXT_CHARS = 120


def disguises(text: str) -> list[tuple[str, int, int]]:
    """The disguises in a text: (``zero_width`` or ``homoglyph``, start, end), in order (a text holding
    none of the characters is passed over by a set test, not the expression)."""
    if _SUSPECTS.isdisjoint(text):
        return []
    return [(m.lastgroup or "", m.start(), m.end()) for m in _DISGUISE.finditer(text)]


def _sentence_at(text: str, offset: int) -> str:
    """The sentence of ``text`` holding ``offset`` (at most ``_TEXT_CHARS`` of it)."""
    for match in _SENTENCE.finditer(text):
        if match.start() <= offset < max(match.end(), match.start() + 1):
            return match.group().strip()[:_TEXT_CHARS]
    return text[max(0, offset - _TEXT_CHARS // 2) : offset + _TEXT_CHARS // 2]


@functools.cache
def _suspect_table() -> npt.NDArray[np.bool_]:
    """Whether each code point is one of ``_SUSPECTS`` (1.1 MB, made once a process)."""
    table = np.zeros(0x110000, dtype=bool)
    table[[ord(c) for c in _SUSPECTS]] = True
    return table


def _holds_suspects(doc: Document) -> bool:
    """Whether any compared block of a document holds one of ``_SUSPECTS``: one table lookup over all
    its characters (a set test a block cost a bid of 40,000 characters about 1 ms)."""
    text = "".join(b.text for b in doc.blocks if b.kind in COMPARED_KINDS)
    return bool(_suspect_table()[code_points(text)].any())


def _disguised(doc: Document) -> list[Concealed]:
    """A finding for each sentence of the compared text holding disguises (CJK look-alikes left out
    where the whole document is full of them: a PDF font's mapping, not a disguise)."""
    found: list[Concealed] = []
    if not _holds_suspects(doc):
        return found
    cjk_count = 0
    for index, block in enumerate(doc.blocks):
        if block.kind not in COMPARED_KINDS:
            continue
        for kind, start, _end in disguises(block.text):
            cjk_count += kind == "homoglyph" and block.text[start] in _CJK_LOOK
            finding = Concealed(kind, block.page, block.paragraph, _sentence_at(block.text, start), index)
            if finding not in found:
                found.append(finding)
    if cjk_count > _FONT_MAPPED:
        found = [f for f in found if f.kind != "homoglyph" or not set(f.text) & set(_CJK_LOOK)]
    return found


def resolve_concealed(doc: Document) -> Document:
    """The document with its readers' concealed text placed in numbered paragraphs, and the disguises
    of its compared text added (run once its paragraphs are numbered)."""
    marked = [
        replace(c, paragraph=doc.blocks[c.block].paragraph) if 0 <= c.block < len(doc.blocks) else c
        for c in doc.concealed
    ]
    return replace(doc, concealed=tuple(marked + _disguised(doc)))
