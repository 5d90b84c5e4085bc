"""Normalisation with an offset map.

The *clean text* of a document is its compared blocks joined by newlines, in the document's own
wording: passages are reported as offsets into it. The *comparable text* keeps only letters, digits
and CJK characters, full-width folded to half-width, look-alikes of other scripts folded onto what they
imitate (``bidcheck.text.concealed``) and lower-cased, so punctuation, spacing, width, zero-width
characters and homoglyphs cannot hide a copy. ``norm_map[i]`` is the clean-text offset of comparable
character ``i``.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import code_points, distinct
from bidcheck.model import Document
from bidcheck.text.concealed import LOOKALIKES

__all__ = ["CleanText", "JoinedBlocks", "build_clean_text", "join_blocks", "normalize"]

_FOLD = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
_FOLD.update({0x3000: 0x20, **{code: code + 32 for code in range(ord("A"), ord("Z") + 1)}})
_FOLD.update(LOOKALIKES)  # look-alike letters fold onto what they imitate: a disguise cannot break a match
_RUNS = re.compile(r"([^\W_]+)")  # the characters kept, a run at a time
_SENTENCE_ENDS = np.array([ord(c) for c in "。！？；!?;\n"], dtype=np.uint32)


@functools.cache
def _fold_table() -> npt.NDArray[np.uint32]:
    """``_FOLD`` by code point (every other code point onto itself): 4.4 MB, made once a process."""
    table = np.arange(0x110000, dtype=np.uint32)
    table[np.fromiter(_FOLD.keys(), np.int64, len(_FOLD))] = np.fromiter(
        _FOLD.values(), np.uint32, len(_FOLD)
    )
    return table


def _folded(text: str) -> tuple[str, npt.NDArray[np.uint32]]:
    """``text.translate(_FOLD)`` and its code points: one table lookup for all characters, where
    ``str.translate`` looks each one up in a dict (3.5 ms for a bid of 40,000 characters, against 0.2)."""
    points = _fold_table()[code_points(text)]
    return points.tobytes().decode("utf-32-le", "surrogatepass"), points


@dataclass(frozen=True, eq=False)
class CleanText:
    """A document's clean text, its comparable form and the maps between them and to the blocks."""

    text: str
    block_starts: tuple[int, ...]
    block_pages: tuple[int, ...]
    block_paragraphs: tuple[int, ...]
    norm: str
    norm_map: npt.NDArray[np.int32]
    sentence_starts: npt.NDArray[np.int32]

    def locate(self, offset: int) -> tuple[int, int]:
        """The (page, paragraph) holding a clean-text offset."""
        index = max(bisect.bisect_right(self.block_starts, offset) - 1, 0)
        if not self.block_pages:
            return (1, 0)
        return self.block_pages[index], self.block_paragraphs[index]

    def clean_span(self, start: int, end: int) -> tuple[int, int]:
        """The clean-text span covering comparable characters ``start..end`` (end exclusive)."""
        return int(self.norm_map[start]), int(self.norm_map[end - 1]) + 1


@functools.cache
def _kept_table() -> npt.NDArray[np.bool_]:
    """By code point of the Basic Multilingual Plane: whether ``_RUNS`` keeps it (a letter or digit of
    any script: what the regex engine's ``\\w`` is, less the underscore), made once a process (8 ms)."""
    table = np.fromiter(map(str.isalnum, map(chr, range(_BMP))), dtype=np.bool_, count=_BMP)
    table[ord("_")] = False
    return table


_BMP = 0x10000


def normalize(text: str) -> tuple[str, npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Comparable form of ``text``: (string, offset of each kept char, indexes where sentences start)."""
    folded, points = _folded(text)
    if not len(points) or int(points.max()) < _BMP:
        return _kept_by_table(points)
    return _kept_by_regex(folded, points)


def _kept_by_regex(
    folded: str, points: npt.NDArray[np.uint32]
) -> tuple[str, npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """``normalize`` of a folded text (and its code points), its characters kept by the regex ``_RUNS``."""
    pieces = _RUNS.split(folded)  # what is dropped, a run kept, what is dropped, …, what is dropped
    if len(pieces) == 1:
        empty = np.zeros(0, dtype=np.int32)
        return "", empty, empty
    kept = pieces[1::2]
    norm = "".join(kept).lower()
    ends = np.cumsum(np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces)))
    starts, lengths = ends[0:-1:2], ends[1::2] - ends[0:-1:2]  # each kept run's offset and length
    at = np.zeros(len(kept), dtype=np.int64)  # each run's offset in the comparable text
    np.cumsum(lengths[:-1], out=at[1:])
    offsets = (np.repeat(starts - at, lengths) + np.arange(int(at[-1] + lengths[-1]))).astype(np.int32)
    if len(norm) != len(offsets):  # a rare character whose lower case is longer: keep it as it was
        norm = "".join(kept)
    return norm, offsets, _sentence_starts(points, starts, at)


def _kept_by_table(
    points: npt.NDArray[np.uint32],
) -> tuple[str, npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """``normalize`` of a folded text of the Basic Multilingual Plane (its code points), its characters
    kept by a table lookup: the regex's split cost a bid of 40,000 characters about 1 ms."""
    offsets = np.flatnonzero(_kept_table()[points]).astype(np.int32)
    if not len(offsets):
        return "", offsets, offsets
    kept = points[offsets].tobytes().decode("utf-32-le", "surrogatepass")
    norm = kept.lower()
    if len(norm) != len(offsets):  # a rare character whose lower case is longer: keep it as it was
        norm = kept
    at = np.flatnonzero(np.diff(offsets, prepend=-2) != 1)  # where each kept run starts in ``norm``
    return norm, offsets, _sentence_starts(points, offsets[at].astype(np.int64), at)


def _sentence_starts(
    points: npt.NDArray[np.uint32], starts: npt.NDArray[np.int64], at: npt.NDArray[np.int64]
) -> npt.NDArray[np.int32]:
    """0, and the comparable offset of each kept run (``starts``: in the folded text of code points
    ``points``, ``at``: in the comparable text) after the first with a sentence end between it and the
    run before it."""
    ends = np.flatnonzero(np.isin(points, _SENTENCE_ENDS))
    after = distinct(np.searchsorted(starts, ends, side="right"))  # the run after each sentence end
    after = after[(after >= 1) & (after < len(starts))]
    return np.concatenate([[0], at[after]]).astype(np.int32)


@dataclass(frozen=True)
class JoinedBlocks:
    """A document's clean text (its compared blocks joined by newlines) and where each block starts,
    with its page and paragraph number."""

    text: str
    block_starts: tuple[int, ...]
    block_pages: tuple[int, ...]
    block_paragraphs: tuple[int, ...]


def join_blocks(doc: Document) -> JoinedBlocks:
    """Join a document's compared blocks: the clean text that passages' offsets point into."""
    blocks = doc.compared_blocks()
    starts: list[int] = []
    offset = 0
    for block in blocks:
        starts.append(offset)
        offset += len(block.text) + 1
    text = "\n".join(b.text for b in blocks)
    return JoinedBlocks(
        text, tuple(starts), tuple(b.page for b in blocks), tuple(b.paragraph for b in blocks)
    )


def build_clean_text(doc: Document) -> CleanText:
    """Join a document's compared blocks and normalise them."""
    joined = join_blocks(doc)
    norm, norm_map, sentences = normalize(joined.text)
    return CleanText(
        joined.text,
        joined.block_starts,
        joined.block_pages,
        joined.block_paragraphs,
        norm,
        norm_map,
        sentences,
    )
