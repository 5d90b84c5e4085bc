"""Words out of the dictionary: where a cut text falls into single characters next to words.

A wrong character in a word (钢筯 for 钢筋, 混泥土 for 混凝土) leaves the dictionary no word to cut it
into: the cut falls into single characters there. Each single character (not a function word) with its
neighbour word on either side, or both, is a candidate when the dictionary does not hold the whole. Most
candidates are innocent (a phrase jieba cuts apart); ``bidcheck.signals.shared_error`` keeps those two
bids alone share that are one character off a word of the section.
"""

from __future__ import annotations

import itertools
import re

from bidcheck.fingerprint.tokens import is_word

__all__ = ["odd_words"]

# single characters that are words of their own (particles, prepositions, pronouns, measure words,
# places and times): a span holding one is a phrase (各项应, 验收后), not a misspelt word
_FUNCTION = frozenset(
    "的了和与及在是对将把被为以于而或并也就都又从向到由等之其所这那个中上下不有无各每该此已均应可须需按如若则即至"
    "前后时内外里间第项条款次"
)


_CJK = re.compile("[\u4e00-\u9fff]+")


def odd_words(words: list[str]) -> tuple[tuple[str, int], ...]:
    """The out-of-dictionary candidates of a cut text (``tokens.cut``), each with its offset in the text
    (first occurrence), in order: a single character with a neighbour of one or two characters. Each
    span is looked up in the dictionary once."""
    singles = [n for n, w in enumerate(words) if len(w) == 1 and w not in _FUNCTION and _CJK.fullmatch(w)]
    if not singles:
        return ()
    starts = list(itertools.accumulate(map(len, words), initial=0))
    found: dict[str, int] = {}
    seen: set[str] = set()
    last = len(words)
    for index in singles:
        for lo in (index - 1, index):
            if lo < 0 or lo + 2 > last:
                continue
            span = words[lo] + words[lo + 1]
            if span in seen:
                continue
            seen.add(span)
            if len(span) <= 3 and _FUNCTION.isdisjoint(span) and _CJK.fullmatch(span) and not is_word(span):
                found[span] = starts[lo]
    return tuple(found.items())
