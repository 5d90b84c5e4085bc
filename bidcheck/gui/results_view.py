"""The ranked pairs (with level badges and a level filter) and the heat-coloured similarity matrix."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import PurePath
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
)

from bidcheck.model import CheckResult, Group, PairResult
from bidcheck.review import REVIEW_STATES, Review
from bidcheck.words import public_value_line

from .i18n import tr
from .style import heat, level_name, paint_badge

__all__ = ["LEVEL_FILTERS", "MatrixView", "PairsView", "group_title", "short_name", "summary_text"]

AnyIndex = QModelIndex | QPersistentModelIndex
COLUMNS = ("排名", "等级", "文件 A", "文件 B", "相似度", "共同字数", "段落", "原因")
LEVEL_FILTERS: dict[str, frozenset[str]] = {
    "全部等级": frozenset({"high", "watch", "none"}),
    "一级预警和二级观察": frozenset({"high", "watch"}),
    "一级预警": frozenset({"high"}),
    "二级观察": frozenset({"watch"}),
    "无": frozenset({"none"}),
}
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
SHOWN_AT_LEAST = 3  # pairs the table shows however small the window


def short_name(name: str) -> str:
    """A file name without its suffix."""
    return PurePath(name).stem or name


def live_chars(pair: PairResult) -> int:
    """Characters (side A) in the pair's evidence passages."""
    return sum(p.chars for p in pair.passages if p.live)


class PairsModel(QAbstractTableModel):
    """One row per pair, in the result's ranked order."""

    def __init__(self) -> None:
        super().__init__()
        self._pairs: tuple[PairResult, ...] = ()
        self._names: dict[str, str] = {}

    def set_result(self, result: CheckResult | None) -> None:
        """Show a result's pairs (or none)."""
        self.beginResetModel()
        self._pairs = result.pairs if result else ()
        self._names = {d.id: d.name for d in result.documents} if result else {}
        self.endResetModel()

    def pair(self, row: int) -> PairResult:
        """The pair on a (source) row."""
        return self._pairs[row]

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        """Qt: rows."""
        return 0 if parent.isValid() else len(self._pairs)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        """Qt: columns."""
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        """Qt: column titles."""
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return tr(COLUMNS[section])
        return None

    def data(self, index: AnyIndex, role: int = 0) -> Any:
        """Qt: cell text, sort keys, tooltips and alignment."""
        pair = self._pairs[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(pair, index.row(), col)
        if role == SORT_ROLE:
            return self._sort_key(pair, index.row(), col)
        if role == Qt.ItemDataRole.ToolTipRole:
            return pair.reason if col == 7 else self._text(pair, index.row(), col)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 4, 5, 6):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.UserRole:
            return pair.level
        return None

    def _text(self, pair: PairResult, row: int, col: int) -> str:
        live = sum(1 for p in pair.passages if p.live)
        values = (
            str(row + 1),
            level_name(pair.level),
            short_name(self._names.get(pair.a, pair.a)),
            short_name(self._names.get(pair.b, pair.b)),
            f"{pair.similarity:.1%}",
            f"{live_chars(pair):,}",
            f"{live}" + (f" (+{len(pair.passages) - live})" if len(pair.passages) > live else ""),
            pair.reason,
        )
        return values[col]

    def _sort_key(self, pair: PairResult, row: int, col: int) -> Any:
        keys = (row, row, self._names.get(pair.a, ""), self._names.get(pair.b, ""), pair.similarity)
        if col < len(keys):
            return keys[col]
        return (live_chars(pair), sum(1 for p in pair.passages if p.live), pair.reason)[col - 5]


class LevelFilter(QSortFilterProxyModel):
    """Shows only the pairs of the chosen levels."""

    def __init__(self) -> None:
        super().__init__()
        self._levels = LEVEL_FILTERS["全部等级"]
        self.setSortRole(SORT_ROLE)

    def set_levels(self, levels: frozenset[str]) -> None:
        """Show these levels only."""
        if hasattr(self, "beginFilterChange"):  # Qt 6.9 and later
            self.beginFilterChange()
            self._levels = levels
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._levels = levels
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, row: int, parent: AnyIndex) -> bool:
        """Qt: whether a pair's level is shown."""
        return self.sourceModel().index(row, 0, parent).data(Qt.ItemDataRole.UserRole) in self._levels


class BadgeDelegate(QStyledItemDelegate):
    """Paints the level column as a coloured badge."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        """Qt: the selection background, then the badge."""
        self.initStyleOption(option, index)
        option.text = ""
        style = option.widget.style() if option.widget else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, option.widget)
        paint_badge(painter, option.rect, index.data(Qt.ItemDataRole.UserRole), option.font)


class PairsView(QTableView):
    """The ranked pairs; selecting a row emits ``pair_selected`` with the pair's index in the result."""

    pair_selected = Signal(int)

    def __init__(self) -> None:
        super().__init__()
        self.pairs = PairsModel()
        self.filter = LevelFilter()
        self.filter.setSourceModel(self.pairs)
        self.setModel(self.filter)
        self.setItemDelegateForColumn(1, BadgeDelegate(self))
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(True)
        self.setSortingEnabled(True)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a long name keeps its number and its end
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(30)
        self._size_columns()
        chrome = self.horizontalHeader().sizeHint().height() + self.horizontalScrollBar().sizeHint().height()
        self.setMinimumHeight(chrome + SHOWN_AT_LEAST * 30 + 2 * self.frameWidth())  # a small window too
        self.selectionModel().currentRowChanged.connect(self._on_current)

    def _size_columns(self) -> None:
        header = self.horizontalHeader()
        header.setStretchLastSection(True)
        for col, width in enumerate((44, 92, 124, 124, 64, 72, 60)):
            self.setColumnWidth(col, max(width, header.sectionSizeHint(col)))  # the title fits
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.sortByColumn(0, Qt.SortOrder.AscendingOrder)

    def set_result(self, result: CheckResult | None) -> None:
        """Show a result's ranked pairs."""
        self.pairs.set_result(result)
        self.sortByColumn(0, Qt.SortOrder.AscendingOrder)

    def set_levels(self, levels: frozenset[str]) -> None:
        """Filter by level."""
        self.filter.set_levels(levels)

    def select_pair(self, index: int) -> bool:
        """Select the pair with this index in the result; False when the level filter hides it."""
        proxy = self.filter.mapFromSource(self.pairs.index(index, 0))
        if not proxy.isValid():
            return False
        self.setCurrentIndex(proxy)
        self.scrollTo(proxy)
        return True

    def selected_pair(self) -> int | None:
        """The index in the result of the selected pair."""
        current = self.currentIndex()
        return self.filter.mapToSource(current).row() if current.isValid() else None

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.pair_selected.emit(self.filter.mapToSource(current).row())


class MatrixView(QTableWidget):
    """Bids × bids, each cell the pair's similarity on a heat colour; a click selects the pair."""

    pair_selected = Signal(int)

    def __init__(self) -> None:
        super().__init__()
        self._cells: dict[tuple[int, int], int] = {}
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.horizontalHeader().setDefaultSectionSize(44)
        self.verticalHeader().setDefaultSectionSize(30)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.cellClicked.connect(self._on_click)

    def set_result(self, result: CheckResult | None) -> None:
        """Show the matrix of a result's readable bids."""
        bids = [d for d in result.bids if d.ok] if result else []
        self.clear()
        self._cells = {}
        self.setRowCount(len(bids))
        self.setColumnCount(len(bids))
        # numbered columns keep the matrix narrow; the rows carry the names
        for i, doc in enumerate(bids):
            self.setVerticalHeaderItem(i, _header(f"{i + 1}  {_clip(short_name(doc.name))}", doc.name))
            self.setHorizontalHeaderItem(i, _header(str(i + 1), doc.name))
        if result is None:
            return
        where = {d.id: i for i, d in enumerate(bids)}
        for index, pair in enumerate(result.pairs):
            if pair.a in where and pair.b in where:
                self._fill(where[pair.a], where[pair.b], index, pair, result)
                self._fill(where[pair.b], where[pair.a], index, pair, result)
        for i in range(len(bids)):
            self._diagonal(i)

    def _fill(self, row: int, col: int, index: int, pair: PairResult, result: CheckResult) -> None:
        item = QTableWidgetItem(f"{pair.similarity:.0%}")
        item.setBackground(heat(pair.similarity))
        item.setForeground(QColor("#1F2328"))
        item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
        if pair.level != "none":
            font = QFont(self.font())
            font.setBold(True)
            item.setFont(font)
        names = (result.document(pair.a).name, result.document(pair.b).name)
        item.setToolTip(f"{names[0]} ↔ {names[1]}\n{level_name(pair.level)}  {pair.similarity:.1%}")
        self.setItem(row, col, item)
        self._cells[(row, col)] = index

    def _diagonal(self, i: int) -> None:
        item = QTableWidgetItem("—")
        item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        self.setItem(i, i, item)

    def pair_at(self, row: int, col: int) -> int | None:
        """The index in the result of the pair in a cell."""
        return self._cells.get((row, col))

    def _on_click(self, row: int, col: int) -> None:
        index = self._cells.get((row, col))
        if index is not None:
            self.pair_selected.emit(index)


_PUBLIC_SHOWN = 3  # values many bids hold, named in the summary (the report's 概要 lists them all)


def summary_text(result: CheckResult, marks: Callable[[Group], Review | None] = lambda _g: None) -> str:
    """Counts by level, unreadable files, suspected rings (each with the panel's mark and a 标记 link,
    ``group:N``), and the values too many bids hold to be a sign, in a few lines of rich text."""
    counts = {level: sum(1 for p in result.pairs if p.level == level) for level in ("high", "watch", "none")}
    text = tr("{bids} 份投标文件，{pairs} 对：一级预警 {high}，二级观察 {watch}，无 {none}").format(
        bids=len(result.bids), pairs=len(result.pairs), **counts
    )
    unreadable = sum(1 for d in result.documents if not d.ok)
    if unreadable:
        text += tr("；{n} 个文件无法读取").format(n=unreadable)
    if result.skipped:
        text += tr("；跳过 {n} 个文件（不支持的格式等，见报告的文件清单）").format(n=len(result.skipped))
    lines = [html.escape(text)]
    names = {d.id: short_name(d.name) for d in result.documents}
    for number, group in enumerate(result.groups, start=1):
        members = "、".join(names[m] for m in group.members)
        line = tr("疑似串标组 {n}：{members}").format(n=number, members=members) + _mark_words(marks(group))
        lines.append(f'{html.escape(line)} <a href="group:{number}">{tr("标记…")}</a>')
    more = len(result.public_values) - _PUBLIC_SHOWN
    notes = [result.semantic_note] if result.semantic_note else []  # what the check says stays Chinese
    notes += [public_value_line(v) for v in result.public_values[:_PUBLIC_SHOWN]]
    notes += [tr("另有 {n} 个多家共有的值，见报告概要").format(n=more)] if more > 0 else []
    return "<br>".join(lines + [html.escape(n) for n in notes])


def group_title(result: CheckResult, number: int) -> tuple[str, str]:
    """A group's heading (疑似串标组 N) and its members' names, for the dialog that marks it."""
    names = {d.id: d.name for d in result.documents}
    group = result.groups[number - 1]
    return tr("疑似串标组 {n}").format(n=number), "、".join(names[m] for m in group.members)


def _mark_words(review: Review | None) -> str:
    if review is None or (review.state == "pending" and not review.note):
        return ""
    note = f"：{review.note}" if review.note else ""
    return f"〔{tr(REVIEW_STATES[review.state])}{note}〕"


def _clip(name: str, limit: int = 10) -> str:
    """A name cut to ``limit`` characters in its middle (its number and its end kept), the whole name
    in the tooltip."""
    if len(name) <= limit:
        return name
    head = (limit - 1) // 2
    return name[:head] + "…" + name[len(name) - (limit - 1 - head) :]


def _header(text: str, tooltip: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setToolTip(tooltip)
    return item
