"""Scoring a pair on its live passages, and its level with a one-line reason."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from bidcheck.config import Settings
from bidcheck.model import Level

__all__ = ["coverage", "judge_pair", "level_for"]


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


def level_for(similarity: float, chars: int, settings: Settings) -> Level:
    """``high`` / ``watch`` / ``none`` from the live share and the live characters."""
    if similarity >= settings.high_similarity or chars >= settings.high_chars:
        return "high"
    if similarity >= settings.watch_similarity or chars >= settings.watch_chars:
        return "watch"
    return "none"


def _reason(level: Level, similarity: float, chars: int, live: int, flagged: int) -> str:
    flagged_note = f"；另有 {flagged} 段为招标文件/模板或多家共有的文字，不计入" if flagged else ""
    if not live:
        return f"未发现招标文件以外的共同文字{flagged_note}"
    verdict = {"high": "一级预警", "watch": "二级观察", "none": "未达预警"}[level]
    return f"{verdict}：{live} 段共同文字（{chars} 字），占较多一方正文的 {similarity:.0%}{flagged_note}"


def judge_pair(
    spans_a: list[tuple[int, int]],
    spans_b: list[tuple[int, int]],
    masks: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]],
    flagged: int,
    settings: Settings,
) -> tuple[float, float, float, Level, str]:
    """(similarity, coverage_a, coverage_b, level, reason) of a pair from its live passage spans."""
    cov_a, chars_a = coverage(spans_a, masks[0])
    cov_b, chars_b = coverage(spans_b, masks[1])
    similarity = max(cov_a, cov_b)
    chars = max(chars_a, chars_b)
    level = level_for(similarity, chars, settings)
    return similarity, cov_a, cov_b, level, _reason(level, similarity, chars, len(spans_a), flagged)
