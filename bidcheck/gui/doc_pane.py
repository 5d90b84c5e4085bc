"""One side of the evidence view: a document's text (whole, or its passages alone), located and painted."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QResizeEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from bidcheck.model import Side

from .i18n import tr
from .positions import QtPositions
from .style import (
    CURRENT_BG,
    CURRENT_MARK,
    FLAGGED_BG,
    FLAGGED_FG,
    LIVE_BG,
    LIVE_MARK,
    SEMANTIC_BG,
    SEMANTIC_MARK,
)
from .texts import DocText

__all__ = ["DocPane", "SideText", "TextView", "location", "side_text"]


def location(page: int, paragraph: int) -> str:
    """'第 3 页 · 第 12 段' (page and paragraph, 1-based)."""
    return tr("第 {page} 页 · 第 {paragraph} 段").format(page=page, paragraph=paragraph)


@dataclass(frozen=True)
class SideText:
    """What one side shows: a text, each passage's span in it, and whether it is the whole document."""

    text: str
    spans: tuple[tuple[int, int], ...]
    whole: bool
    source: DocText | None = None

    def locate(self, offset: int, sides: tuple[Side, ...]) -> tuple[int, int]:
        """The (page, paragraph) at an offset; (0, 0) outside any passage of a passages-only text."""
        if self.source is not None:
            return self.source.locate(offset)
        for (start, end), side in zip(self.spans, sides, strict=True):
            if start <= offset <= end:
                return side.page, side.paragraph
        return (0, 0)


def side_text(sides: tuple[Side, ...], doc: DocText | None) -> SideText:
    """The whole document with the passages at their offsets, or, without it, the passages alone."""
    if doc is not None:
        return SideText(doc.text, tuple((s.start, s.end) for s in sides), True, doc)
    parts: list[str] = []
    spans = []
    offset = 0
    for number, side in enumerate(sides, start=1):
        head = f"【{number}】{location(side.page, side.paragraph)}\n"
        parts.append(head + side.text + "\n\n")
        spans.append((offset + len(head), offset + len(head) + len(side.text)))
        offset += len(parts[-1])
    return SideText("".join(parts), tuple(spans), False)


class TextView(QPlainTextEdit):
    """A plain text view that puts a position at its top and keeps the text at its top when resized.

    QPlainTextEdit scrolls by lines and counts a block it has not laid out as one line. A new width lays
    every block out again, so the line counts shrink back to that guess; a view scrolled further down
    than the guessed count allows is clamped to another place, and shows other text. A resize therefore
    puts the text that was at the top back there.
    """

    def scroll_to_top(self, position: int, context: int = 0) -> None:
        """Scroll so that the line holding ``position`` is at the top, below ``context`` lines."""
        block = self.document().findBlock(max(0, min(position, self.document().characterCount() - 1)))
        if not block.isValid():
            return
        for lines in range(context + 1):  # the lines above must be laid out for the line numbers to hold
            earlier = self.document().findBlockByNumber(block.blockNumber() - lines)
            if earlier.isValid():
                self.blockBoundingRect(earlier)
        line = block.layout().lineForTextPosition(position - block.position())
        top = block.firstLineNumber() + (line.lineNumber() if line.isValid() else 0)
        self.verticalScrollBar().setValue(max(top - context, 0))

    def top_position(self) -> int:
        """The position of the first character on the top line."""
        block = self.firstVisibleBlock()
        line = block.layout().lineAt(self.verticalScrollBar().value() - block.firstLineNumber())
        return block.position() + (line.textStart() if line.isValid() else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Lay the text out for the new size, with the same text at the top."""
        top = self.top_position()
        super().resizeEvent(event)
        self.scroll_to_top(top)


class DocPane(QWidget):
    """One side: the file's name, where the caret is (page, paragraph), and the text.

    Its methods and signal speak in offsets into the side's text (Python characters); only the
    ``positions`` of that text turn them into Qt's positions and back.
    """

    clicked = Signal(int)  # a text offset the user clicked

    def __init__(self) -> None:
        super().__init__()
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.where = QLabel()
        self.where.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.view = TextView()
        self.view.setReadOnly(True)
        self.view.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.view.viewport().installEventFilter(self)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.where)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(head)
        layout.addWidget(self.view, 1)
        self._side: SideText | None = None
        self._sides: tuple[Side, ...] = ()
        self.positions = QtPositions()
        self.view.cursorPositionChanged.connect(self._show_where)

    def set_text(self, name: str, side: SideText, sides: tuple[Side, ...]) -> None:
        """Show a side's text."""
        self.title.setText(name if side.whole else f"{name}  {tr('（原文件不在，只显示共同段落）')}")
        self.title.setToolTip(name)
        self._side, self._sides = side, sides
        self.positions = QtPositions.of(side.text)
        self.view.setPlainText(side.text)
        self._show_where()

    def clear(self) -> None:
        """Show nothing."""
        self._side, self._sides = None, ()
        self.positions = QtPositions()
        self.title.clear()
        self.where.clear()
        self.view.clear()

    def jump_to(self, start: int, end: int) -> None:
        """Put the caret at ``start`` and scroll so the passage starts near the top, a line below it."""
        cursor = QTextCursor(self.view.document())
        cursor.setPosition(min(self.positions.to_qt(start), self.view.document().characterCount() - 1))
        self.view.setTextCursor(cursor)
        self.view.scroll_to_top(cursor.position(), context=1)

    def paint(self, passages: list[tuple[int, int, tuple[tuple[int, int], ...], str]]) -> None:
        """Highlight passages: (start, end, marks relative to start, 'live' | 'semantic' | 'flagged' |
        'current')."""
        selections = []
        for start, end, marks, kind in passages:
            background = {"live": LIVE_BG, "semantic": SEMANTIC_BG, "current": CURRENT_BG}.get(
                kind, FLAGGED_BG
            )
            selections.append(
                self._selection(start, end, background, FLAGGED_FG if kind == "flagged" else None)
            )
            if kind != "flagged":
                mark = {"current": CURRENT_MARK, "semantic": SEMANTIC_MARK}.get(kind, LIVE_MARK)
                selections.extend(self._selection(start + s, start + e, mark) for s, e in marks)
        self.view.setExtraSelections(selections)

    def _selection(
        self, start: int, end: int, background: QColor, foreground: QColor | None = None
    ) -> QTextEdit.ExtraSelection:
        selection = QTextEdit.ExtraSelection()
        cursor = QTextCursor(self.view.document())
        cursor.setPosition(self.positions.to_qt(start))
        cursor.setPosition(self.positions.to_qt(end), QTextCursor.MoveMode.KeepAnchor)
        selection.cursor = cursor
        fmt = QTextCharFormat()
        fmt.setBackground(background)
        if foreground is not None:
            fmt.setForeground(foreground)
        selection.format = fmt
        return selection

    def _show_where(self) -> None:
        if self._side is None:
            self.where.clear()
            return
        offset = self.positions.to_offset(self.view.textCursor().position())
        page, paragraph = self._side.locate(offset, self._sides)
        self.where.setText(location(page, paragraph) if page else "")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A click (not a drag-selection) in the text reports its offset."""
        if (
            event.type() == QEvent.Type.MouseButtonRelease
            and isinstance(event, QMouseEvent)
            and event.button() == Qt.MouseButton.LeftButton
            and not self.view.textCursor().hasSelection()
        ):
            position = self.view.cursorForPosition(event.position().toPoint()).position()
            self.clicked.emit(self.positions.to_offset(position))
        return super().eventFilter(watched, event)
