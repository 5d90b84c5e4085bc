"""Words out of the dictionary: where a cut text falls into single characters next to words.

A wrong character in a word (钢筯 for 钢筋, 混泥土 for 混凝土) leaves the dictionary no word to cut it
into: the cut falls into single characters there. Each single character (not a function word) with its
neighbour word on either side, or both, is a candidate when the dictionary does not hold the whole. Most
candidates are innocent (a phrase jieba cuts apart); ``bidcheck.signals.shared_error`` keeps those two
bids alone share that are one character off a word of the section.

The candidates are found with whole-array operations over the cut (its words' lengths and the text's
code points), so that a text that falls apart everywhere (a bid of 2 million characters in one-cell
tables) costs no Python loop over its words; only the distinct spans are looked up in the dictionary,
all at once (``wordkeys``).
"""

from __future__ import annotations

from itertools import compress

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import code_points
from bidcheck.fingerprint.tokens import are_words
from bidcheck.fingerprint.wordkeys import MAX_SPAN, in_dictionary, load_word_keys, span_keys

__all__ = ["OddWords", "odd_words", "odd_words_and_keys"]

OddWords = tuple[tuple[str, int], ...]  # (word, offset of its first occurrence), in the text's order

# single characters that are words of their own (particles, prepositions, pronouns, measure words,
# places and times): a span holding one is a phrase (各项应, 验收后), not a misspelt word
_FUNCTION = frozenset(
    "的了和与及在是对将把被为以于而或并也就都又从向到由等之其所这那个中上下不有无各每该此已均应可须需按如若则即至"
    "前后时内外里间第项条款次"
)
_PLAIN = np.zeros(0x110000, dtype=bool)  # by code point: a CJK ideograph (U+4E00-U+9FFF), no function word
_PLAIN[0x4E00:0xA000] = True
_PLAIN[[ord(c) for c in _FUNCTION]] = False


def _candidate_starts(starts: npt.NDArray[np.int32], plain: npt.NDArray[np.bool_]) -> npt.NDArray[np.intp]:
    """The indices ``lo`` (ascending) of the word pairs ``words[lo] + words[lo + 1]`` (``starts``: each
    word's offset in the text, and the text's length) that hold a single plain ideograph, are at most
    ``MAX_SPAN`` characters and are plain ideographs throughout (``plain``: by character)."""
    lengths = np.diff(starts)
    single = lengths == 1
    single[single] = plain[starts[:-1][single]]
    del lengths
    wanted = (single[:-1] | single[1:]) & (starts[2:] - starts[:-2] <= MAX_SPAN)
    bad = np.zeros(len(plain) + 1, dtype=np.int32)  # characters that are no plain ideograph, so far
    np.cumsum(~plain, out=bad[1:])
    wanted &= bad[starts[2:]] == bad[starts[:-2]]
    return np.flatnonzero(wanted)


def odd_words(words: list[str]) -> OddWords:
    """The out-of-dictionary candidates of a cut text (``tokens.cut``), each with its offset in the text
    (first occurrence), in order: a single character with a neighbour of one or two characters. The
    distinct spans are looked up in the dictionary's numbers all at once (``wordkeys``), or one by one
    in rjieba where jieba's dictionary file cannot be read."""
    return odd_words_and_keys(words)[0]


def odd_words_and_keys(words: list[str]) -> tuple[OddWords, npt.NDArray[np.uint64]]:
    """``odd_words``, and each word's number (``wordkeys.span_keys``: one number a word, a different one
    for any other word), in the same order: the signals count the bids holding each word by these
    numbers, with no Python step a word (``signals.shared_error``)."""
    if len(words) < 2:
        return (), np.zeros(0, dtype=np.uint64)
    text = "".join(words)
    points = code_points(text)
    starts = np.zeros(len(words) + 1, dtype=np.int32)  # a text holds at most a few million characters
    np.cumsum(np.fromiter(map(len, words), dtype=np.int32, count=len(words)), out=starts[1:])
    lows = _candidate_starts(starts, _PLAIN[points])
    offsets, ends = starts[lows], starts[lows + 2]
    numbers = span_keys(points, offsets, ends)
    keys, first = np.unique(numbers, return_index=True)
    table = load_word_keys()
    if table is not None:
        picked = np.sort(first[~in_dictionary(keys, table)])
        return tuple(_spans_at(text, offsets, ends, picked)), numbers[picked]
    picked = np.sort(first)
    spans = _spans_at(text, offsets, ends, picked)
    odd = np.logical_not(are_words([span for span, _ in spans]))
    return tuple(compress(spans, odd.tolist())), numbers[picked[odd]]


def _spans_at(
    text: str, offsets: npt.NDArray[np.int32], ends: npt.NDArray[np.int32], picked: npt.NDArray[np.intp]
) -> list[tuple[str, int]]:
    """The spans ``picked`` (indices into ``offsets`` and ``ends``, ascending) of ``text`` with their
    offsets, in the text's order (no Python step a span)."""
    at = offsets[picked].tolist()
    return list(zip(map(text.__getitem__, map(slice, at, ends[picked].tolist())), at, strict=True))
