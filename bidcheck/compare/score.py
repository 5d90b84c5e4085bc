"""Scoring a pair on its live passages: how much of each bid's own text they cover."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["Score", "coverage", "score_pair"]

Span = tuple[int, int]


@dataclass(frozen=True)
class Score:
    """A pair scored on its live passages (what the verdict is decided from)."""

    similarity: float  # the larger of the two coverages
    coverage_a: float  # share of A's own (non-template) text inside live passages
    coverage_b: float
    chars: int  # live characters of the side that has more
    passages: int  # live passages (rewritten ones included)
    flagged: int  # passages of template or common text, listed but not counted
    failed: bool = False  # the pair could not be compared (its worker process died): a person must look
    rewritten: int = 0  # of the live passages, those the semantic layer found (reworded all through)
    rewritten_chars: int = 0  # their characters, on the side that has more
    rewritten_units: int = 0  # their sentences matched in order (one draft's points in one order)
    copied: tuple[tuple[Span, Span], ...] = ()  # each live copied passage's spans (A, B), comparable text


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
    copied: tuple[list[Span], list[Span]],
    rewritten: tuple[list[Span], list[Span]],
    masks: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]],
    flagged: int,
    weight: float = 1.0,
    rewritten_units: int = 0,
) -> Score:
    """The score of a pair from the spans of its live passages on each side (``copied`` by the copy
    engine, ``rewritten`` as the semantic layer found them, counted ``weight`` times, their sentences
    matched in order ``rewritten_units``) and the template text of each side."""
    cov_a, chars_a = coverage(copied[0], masks[0])
    cov_b, chars_b = coverage(copied[1], masks[1])
    sem_a, sem_chars_a = coverage(rewritten[0], masks[0])
    sem_b, sem_chars_b = coverage(rewritten[1], masks[1])
    cov_a, cov_b = cov_a + weight * sem_a, cov_b + weight * sem_b
    chars = max(chars_a + round(weight * sem_chars_a), chars_b + round(weight * sem_chars_b))
    passages = len(copied[0]) + len(rewritten[0])
    return Score(
        max(cov_a, cov_b),
        cov_a,
        cov_b,
        chars,
        passages,
        flagged,
        rewritten=len(rewritten[0]),
        rewritten_chars=max(sem_chars_a, sem_chars_b),
        rewritten_units=rewritten_units,
        copied=tuple(zip(copied[0], copied[1], strict=True)),
    )
