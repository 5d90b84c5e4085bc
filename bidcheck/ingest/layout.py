"""Page layout shared by the PDF and OCR readers: text lines with positions, grouped into paragraphs."""

from __future__ import annotations

import itertools
import statistics
from dataclasses import dataclass

__all__ = ["Line", "group_paragraphs"]


@dataclass(frozen=True)
class Line:
    """One text line of a page; coordinates in PDF points, ``top`` measured from the page bottom."""

    text: str
    left: float
    right: float
    top: float
    height: float


def group_paragraphs(lines: list[Line]) -> list[str]:
    """Join lines into paragraphs: a new one starts after a wide gap, an indent or a short line."""
    if not lines:
        return []
    heights = [ln.height for ln in lines if ln.height > 0] or [10.0]
    char = statistics.median(heights) or 10.0
    spacing = _typical_spacing(lines, char)
    left = min(ln.left for ln in lines)
    right = max(ln.right for ln in lines)
    paragraphs: list[list[str]] = [[lines[0].text]]
    for prev, line in itertools.pairwise(lines):
        gap = prev.top - line.top
        starts_new = (
            gap > spacing * 1.45
            or gap < 0
            or line.left > left + char * 1.2
            or prev.right < right - char * 2.5
        )
        if starts_new:
            paragraphs.append([line.text])
        else:
            paragraphs[-1].append(line.text)
    return [_join_lines(p) for p in paragraphs]


def _typical_spacing(lines: list[Line], char: float) -> float:
    gaps = [a.top - b.top for a, b in itertools.pairwise(lines) if a.top - b.top > 0]
    return min(statistics.median(gaps), char * 2.2) if gaps else char * 1.5


def _join_lines(parts: list[str]) -> str:
    out = parts[0]
    for part in parts[1:]:
        latin = out[-1:].isascii() and out[-1:].isalnum() and part[:1].isascii() and part[:1].isalnum()
        out += (" " if latin else "") + part
    return out
