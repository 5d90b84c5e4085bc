"""Colours, level names and small painting helpers shared by the views."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QPainter

from bidcheck.words import LEVEL_BADGES, LEVEL_NAMES, SEMANTIC_FILL, heat_rgb
from bidcheck.words import SEMANTIC_MARK as _SEMANTIC_MARK_RGB

from .i18n import tr

__all__ = [
    "CURRENT_BG",
    "CURRENT_MARK",
    "ERROR_FG",
    "FLAGGED_BG",
    "FLAGGED_FG",
    "LEVEL_COLOURS",
    "LIVE_BG",
    "LIVE_MARK",
    "SEMANTIC_BG",
    "SEMANTIC_MARK",
    "heat",
    "level_name",
    "paint_badge",
]

LEVEL_COLOURS = {level: QColor(f"#{rgb}") for level, rgb in LEVEL_BADGES.items()}
LIVE_BG = QColor("#FFF6D9")  # a shared passage, lightly
LIVE_MARK = QColor("#FFD35C")  # its aligned characters, strongly
SEMANTIC_BG = QColor(f"#{SEMANTIC_FILL}")  # a rewritten passage (same meaning, other words), lightly
SEMANTIC_MARK = QColor(f"#{_SEMANTIC_MARK_RGB}").lighter(190)  # its matched sentences
CURRENT_BG = QColor("#E4EEFF")  # the passage in focus, lightly
CURRENT_MARK = QColor("#94BCFF")  # and its aligned characters, strongly
FLAGGED_BG = QColor("#ECEDEF")  # template / common text: greyed, never counted
FLAGGED_FG = QColor("#8A8F98")
ERROR_FG = QColor("#C62828")


def level_name(level: str) -> str:
    """The level's name as the reports print it (一级预警 / 二级观察 / 无), in the interface language."""
    return tr(LEVEL_NAMES[level])


def heat(value: float) -> QColor:
    """The similarity's colour, as in the workbook's matrix (see ``words.heat_rgb``)."""
    return QColor(*heat_rgb(value))


def paint_badge(painter: QPainter, rect: QRect, level: str, font: QFont) -> None:
    """A rounded, coloured level badge centred in ``rect``."""
    text = level_name(level)
    bold = QFont(font)
    bold.setBold(True)
    painter.save()
    painter.setFont(bold)
    width = painter.fontMetrics().horizontalAdvance(text) + 18
    badge = QRect(0, 0, min(width, rect.width() - 4), min(rect.height() - 6, 22))
    badge.moveCenter(rect.center())
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(LEVEL_COLOURS[level])
    painter.drawRoundedRect(badge, 9, 9)
    painter.setPen(QColor("white"))
    painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, text)
    painter.restore()
