"""The dictionary's words of two and three characters as sorted numbers, for the odd words' spans.

``oddwords`` asks the dictionary about each distinct span of two or three ideographs a bid's cut leaves
(about 4,600 a bid): one call into rjieba each cost a bid 1.2-1.8 CPU ms. The same answers are one
binary search of all the spans at once in the sorted numbers (``span_keys``: 21 bits a character) of
the dictionary's words of that length. rjieba holds jieba's dictionary and the bid vocabulary
(``tokens.user_words``) but cannot list its words, so the numbers are made from jieba's own dictionary
file; a test holds every word of that file, and many spans that are not words, to rjieba's answers.
The numbers are kept in the on-disk cache (made in a few hundredths of a second, read back in a few ms).
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import code_points, distinct
from bidcheck.fingerprint.tokens import DICTS, dictionary_path, user_words
from bidcheck.memo import source_key, stored_table

__all__ = ["MAX_SPAN", "in_dictionary", "load_word_keys", "span_keys"]

MAX_SPAN = 3  # characters: a single character with a neighbour of one or two
_BITS = np.uint64(21)  # a code point's bits
_NEWLINE = 10
_ASCII_SPACE = np.zeros(0x81, dtype=bool)  # by code point (all beyond ASCII at 0x80): ends a line's field
_ASCII_SPACE[[ord(c) for c in " \t\n\r\v\f"]] = True
_TABLES = "tables"  # the cache's kind of entry for the numbers (as for the IDF table)


def span_keys(
    points: npt.NDArray[np.uint32], offsets: npt.NDArray[np.int32], ends: npt.NDArray[np.int32]
) -> npt.NDArray[np.uint64]:
    """One number for each span ``offsets[i]:ends[i]`` of one to ``MAX_SPAN`` characters of the text of
    code points ``points`` (21 bits a code point), equal for equal spans."""
    key = np.zeros(len(offsets), dtype=np.uint64)
    for n in range(MAX_SPAN):
        inside = offsets + n < ends
        point = points[np.minimum(offsets + n, len(points) - 1)].astype(np.uint64)
        key = (key << _BITS) | np.where(inside, point, np.uint64(0))
    return key


@functools.cache
def load_word_keys() -> npt.NDArray[np.uint64] | None:
    """The sorted, distinct ``span_keys`` of the dictionary's words of two and three characters (loaded
    once a process: reading processes forked after share them); ``None`` when jieba's dictionary file
    cannot be read (each span is then asked of rjieba)."""
    key = _table_key()
    if key is None:
        return None
    return stored_table(_TABLES, key, _keys_from_bytes, _keys_of_files, _keys_bytes)


def in_dictionary(keys: npt.NDArray[np.uint64], table: npt.NDArray[np.uint64]) -> npt.NDArray[np.bool_]:
    """Whether each span of ``keys`` (``span_keys``) is a word of ``table`` (``load_word_keys``)."""
    if not len(table):
        return np.zeros(len(keys), dtype=bool)
    at = np.minimum(np.searchsorted(table, keys), len(table) - 1)
    return np.asarray(table[at] == keys)


def _keys_of_files() -> npt.NDArray[np.uint64]:
    """The numbers made from jieba's dictionary file and the bid vocabulary."""
    return _built_keys(dictionary_path().read_text(encoding="utf-8"))


def _keys_bytes(keys: npt.NDArray[np.uint64]) -> bytes:
    """The numbers as stored (little-endian)."""
    return keys.astype("<u8").tobytes()


def _built_keys(dictionary: str) -> npt.NDArray[np.uint64]:
    """The numbers of the short words of a dictionary file's text and of the bid vocabulary."""
    vocabulary = "\n".join(word for word, _, _ in user_words())
    return distinct(np.concatenate([_first_field_keys(dictionary), _first_field_keys(vocabulary)]))


def _first_field_keys(text: str) -> npt.NDArray[np.uint64]:
    """The numbers of each line's first field (up to the first ASCII space, tab or line end) where it is
    two or three characters long, found over the whole text's code points at once (0.1 CPU s a line
    at a time for jieba's 349,046 lines, a few hundredths so)."""
    points = code_points(f"{text}\n")
    gaps = np.flatnonzero(_ASCII_SPACE[np.minimum(points, 0x80)])
    starts = np.concatenate(([0], np.flatnonzero(points == _NEWLINE)[:-1] + 1)).astype(np.int32)
    ends = gaps[np.searchsorted(gaps, starts)].astype(np.int32)  # a line's own end at the latest
    short = (ends - starts >= 2) & (ends - starts <= MAX_SPAN)
    return span_keys(points, starts[short], ends[short])


def _table_key() -> str | None:
    """The stored numbers' key: jieba's dictionary file, the bid vocabulary and this code; ``None`` when
    the dictionary file cannot be read."""
    code = [Path(__file__), Path(__file__).with_name("tokens.py"), DICTS / "bid_words.txt"]
    return source_key("w", dictionary_path, ("words",), code)


def _keys_from_bytes(data: bytes) -> npt.NDArray[np.uint64] | None:
    """The numbers of ``load_word_keys`` as stored; ``None`` for bytes of another shape or out of order."""
    if len(data) % 8:
        return None
    keys = np.frombuffer(data, "<u8").astype(np.uint64, copy=False)
    return keys if bool(np.all(keys[1:] > keys[:-1])) else None
