"""The history of a pair's two bids: the earlier sections' bids in the library holding their text,
each with its passages located on both sides (page and paragraph here and there)."""

from __future__ import annotations

from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem

from bidcheck.model import HistoryMatch, HistoryPassage

from .i18n import tr
from .style import FLAGGED_FG, LEVEL_COLOURS

__all__ = ["HistoryView"]

COLUMNS = ("以往标段 / 文件", "投标人", "共同字数", "占本文件", "类别")


def _place(passage: HistoryPassage) -> str:
    return tr("第 {p} 页 第 {q} 段 ↔ 以往 第 {op} 页 第 {oq} 段").format(
        p=passage.page, q=passage.paragraph, op=passage.other_page, oq=passage.other_paragraph
    )


class HistoryView(QTreeWidget):
    """For each bid of the shown pair, its matches in earlier sections and their passages; hidden when
    neither bid has any (or no library was used)."""

    def __init__(self) -> None:
        super().__init__()
        self.setColumnCount(len(COLUMNS))
        self.setHeaderLabels([tr(c) for c in COLUMNS])
        self.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.header().setStretchLastSection(True)
        self.setUniformRowHeights(True)
        self.hide()

    def show_history(self, names: tuple[str, str], matches: tuple[tuple[HistoryMatch, ...], ...]) -> None:
        """Show the history of the pair's bids (``names``, ``matches`` side by side)."""
        self.clear()
        for name, found in zip(names, matches, strict=True):
            if found:
                top = QTreeWidgetItem([tr("{name}：以往标段 {n} 份").format(name=name, n=len(found))])
                top.setFirstColumnSpanned(True)
                self.addTopLevelItem(top)
                for match in found:
                    top.addChild(self._match_item(match))
        self.expandToDepth(0)
        self.setVisible(self.topLevelItemCount() > 0)

    def height_for_rows(self) -> int:
        """The height that shows every row now expanded (the bids and their matches) and the header."""
        rows = 0
        for n in range(self.topLevelItemCount()):
            top = self.topLevelItem(n)
            rows += 1 + (top.childCount() if top is not None and top.isExpanded() else 0)
        row = self.sizeHintForRow(0) if rows else 0
        return self.header().sizeHint().height() + rows * row + 2 * self.frameWidth()

    def _match_item(self, match: HistoryMatch) -> QTreeWidgetItem:
        kind = tr("自有模板") if match.own_template else tr("以往标段")
        where = f"{match.section} / {match.document}"
        item = QTreeWidgetItem([where, match.bidder, f"{match.chars:,}", f"{match.similarity:.1%}", kind])
        colour = FLAGGED_FG if match.own_template else LEVEL_COLOURS["watch"]
        item.setForeground(4, QBrush(colour))
        for passage in match.passages:
            child = QTreeWidgetItem([f"{_place(passage)}  {passage.text}"])
            child.setToolTip(0, passage.text)
            child.setFirstColumnSpanned(True)
            item.addChild(child)
        return item

    def rows(self) -> list[str]:
        """Every line shown, depth-first (what a reader sees, for tests)."""
        out: list[str] = []

        def walk(item: QTreeWidgetItem, depth: int) -> None:
            cells = [item.text(c) for c in range(self.columnCount()) if item.text(c)]
            out.append("  " * depth + " | ".join(cells))
            for n in range(item.childCount()):
                child = item.child(n)
                if child is not None:
                    walk(child, depth + 1)

        for n in range(self.topLevelItemCount()):
            top = self.topLevelItem(n)
            if top is not None:
                walk(top, 0)
        return out
