"""The words and colours a check is shown in, for the CLI, the workbook and the app alike (no Qt here)."""

from __future__ import annotations

from bidcheck.model import Passage

__all__ = [
    "LEVEL_BADGES",
    "LEVEL_FILLS",
    "LEVEL_NAMES",
    "LEVEL_RANK",
    "heat_rgb",
    "passage_kind",
]

LEVEL_NAMES: dict[str, str] = {"high": "一级预警", "watch": "二级观察", "none": "无"}
LEVEL_RANK: dict[str, int] = {"high": 0, "watch": 1, "none": 2}  # how pairs are ranked and filtered
LEVEL_FILLS: dict[str, str] = {"high": "F8696B", "watch": "FFD966", "none": "E2EFDA"}  # workbook cells
LEVEL_BADGES: dict[str, str] = {"high": "D9363E", "watch": "E8A317", "none": "9AA5B1"}  # the app's badges


def passage_kind(passage: Passage) -> str:
    """What a passage is, in words: evidence, tender/template text, common text, or text the library
    has learned is public."""
    if passage.template:
        return "招标文件/模板"
    if passage.public:
        return "公共文字（资料库）"
    return "多家共有" if passage.common else "证据"


def heat_rgb(value: float) -> tuple[int, int, int]:
    """The similarity colour scale: white through yellow to red as the similarity rises."""
    v = min(max(value, 0.0), 1.0)
    green = int(255 - 155 * min(v / 0.3, 1.0))
    blue = int(255 - 255 * min(v / 0.1, 1.0))
    red = 255 if v < 0.3 else int(255 - 55 * min((v - 0.3) / 0.7, 1.0))
    return red, green, blue
