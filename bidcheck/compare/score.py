"""Scoring a pair on its live passages: how much of each bid's own text they cover."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["Score", "coverage", "score_pair"]


@dataclass(frozen=True)
class Score:
    """A pair scored on its live passages (what the verdict is decided from)."""

    similarity: float  # the larger of the two coverages
    coverage_a: float  # share of A's own (non-template) text inside live passages
    coverage_b: float
    chars: int  # live characters of the side that has more
    passages: int  # live passages
    flagged: int  # passages of template or common text, listed but not counted
    failed: bool = False  # the pair could not be compared (its worker process died): a person must look


def coverage(spans: list[tuple[int, int]], template_mask: npt.NDArray[np.bool_]) -> tuple[float, int]:
    """(share, chars) of a document's non-template comparable text inside the given spans."""
    if not spans:
        return 0.0, 0
    covered = np.zeros(len(template_mask), dtype=bool)
    for s, e in spans:
        covered[s:e] = True
    live = covered & ~template_mask
    own = int((~template_mask).sum())
    chars = int(live.sum())
    return (chars / own if own else 0.0), chars


def score_pair(
    spans_a: list[tuple[int, int]],
    spans_b: list[tuple[int, int]],
    masks: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]],
    flagged: int,
) -> Score:
    """The score of a pair from its live passage spans on each side and the template text of each."""
    cov_a, chars_a = coverage(spans_a, masks[0])
    cov_b, chars_b = coverage(spans_b, masks[1])
    return Score(max(cov_a, cov_b), cov_a, cov_b, max(chars_a, chars_b), len(spans_a), flagged)
