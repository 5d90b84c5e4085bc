"""Python string offsets and Qt text positions of one text, converted both ways (no Qt here).

A passage's ``start``, ``end`` and ``marks`` count the characters (code points) of a document's clean text,
as Python does; QTextDocument and QTextCursor count UTF-16 code units, in which a character beyond the
Basic Multilingual Plane (rare CJK of Extension B such as 𠮷, emoji) takes two. Each such character before
a passage would move its highlight, its scroll position and the passage a click finds by one, so the
evidence view turns every offset it hands to Qt, and every position it reads back, through one
``QtPositions`` of the text shown. The wide characters' places are found once per text; each conversion
is then a binary search among them, and a text without any (nearly every bid) converts for free.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

__all__ = ["QtPositions"]

_WIDE = re.compile("[\U00010000-\U0010ffff]")  # the characters that UTF-16 writes as a surrogate pair


@dataclass(frozen=True)
class QtPositions:
    """Where a text's characters beyond the BMP are: as Python offsets and as Qt positions, ascending."""

    offsets: tuple[int, ...] = ()
    positions: tuple[int, ...] = ()

    @classmethod
    def of(cls, text: str) -> QtPositions:
        """The positions of ``text`` (one pass over it)."""
        offsets = tuple(match.start() for match in _WIDE.finditer(text))
        return cls(offsets, tuple(offset + before for before, offset in enumerate(offsets)))

    def to_qt(self, offset: int) -> int:
        """The Qt position of a Python offset: one unit more for each wide character before it."""
        if not self.offsets:
            return offset
        return offset + bisect.bisect_left(self.offsets, offset)

    def to_offset(self, position: int) -> int:
        """The Python offset of a Qt position; one between the halves of a pair is that character's."""
        if not self.positions:
            return position
        return position - bisect.bisect_left(self.positions, position)
