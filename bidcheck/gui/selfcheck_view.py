"""The self-check's findings in the app: the verdict, the findings by weight, and the selected one's
places (in the bid, and in the reference it shares with) and how to clear it."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from bidcheck.findings import PARTS, Finding, SelfCheckResult
from bidcheck.model import Place
from bidcheck.report.selfcheck import self_check_verdict

from .i18n import tr
from .results_view import BadgeDelegate
from .style import ERROR_FG

__all__ = ["FINDING_COLUMNS", "FindingsView"]

FINDING_COLUMNS = ("分量", "类别", "问题", "位置")
_CLEAN_FG = "#2E7D32"
_BADGE_ROW = 30  # pixels


def _where(place: Place | None) -> str:
    return (
        tr("文件属性")
        if place is None
        else tr("第 {page} 页第 {paragraph} 段").format(page=place.page, paragraph=place.paragraph)
    )


class FindingsView(QWidget):
    """The verdict over a table of findings, and the selected finding's details below it."""

    finding_selected = Signal(int)

    def __init__(self) -> None:
        super().__init__()
        self.findings: tuple[Finding, ...] = ()
        self.verdict = QLabel(tr("选择本单位的投标文件，可加上参考文件和招标文件，然后开始自查。"))
        self.verdict.setWordWrap(True)
        self.table = QTableWidget(0, len(FINDING_COLUMNS))
        self.table.setHorizontalHeaderLabels([tr(c) for c in FINDING_COLUMNS])
        self.table.setItemDelegateForColumn(0, BadgeDelegate(self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        modes = ("Fixed", "ResizeToContents", "Stretch", "ResizeToContents")
        for column, mode in enumerate(modes):
            header.setSectionResizeMode(column, getattr(QHeaderView.ResizeMode, mode))
        self.table.setColumnWidth(0, 96)
        self.table.currentCellChanged.connect(lambda row, _c, _r, _p: self._show(row))
        self.details = QTextBrowser()
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.details)
        split.setSizes([460, 240])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.verdict)
        layout.addWidget(split, 1)

    def set_result(self, result: SelfCheckResult | None) -> None:
        """Show a self-check's verdict and findings (the first selected), or nothing."""
        self.findings = result.findings if result else ()
        self.table.setRowCount(len(self.findings))
        for row, finding in enumerate(self.findings):
            self._fill(row, finding)
        self.table.resizeRowsToContents()
        for row in range(self.table.rowCount()):  # room for the level badge
            self.table.setRowHeight(row, max(self.table.rowHeight(row), _BADGE_ROW))
        self.details.clear()
        self._show_verdict(result)
        if self.findings:
            self.table.setCurrentCell(0, 0)

    def _show_verdict(self, result: SelfCheckResult | None) -> None:
        if result is None:
            self.verdict.setText("")
            return
        colour = _CLEAN_FG if result.clean else ERROR_FG.name()
        head = escape(f"{result.bid.name}（{result.bidder}）")
        verdict = escape(self_check_verdict(result))
        self.verdict.setText(f"<b>{head}</b>：<span style='color:{colour}'>{verdict}</span>")

    def _fill(self, row: int, finding: Finding) -> None:
        badge = QTableWidgetItem()
        badge.setData(Qt.ItemDataRole.UserRole, finding.level)
        cells = (badge, QTableWidgetItem(tr(PARTS[finding.part])), QTableWidgetItem(finding.detail))
        for column, item in enumerate((*cells, QTableWidgetItem(_where(finding.where)))):
            self.table.setItem(row, column, item)

    def _show(self, row: int) -> None:
        if not 0 <= row < len(self.findings):
            return
        finding = self.findings[row]
        parts = [f"<p><b>{escape(finding.detail)}</b></p>"]
        if finding.where is not None:
            parts.append(f"<p>{tr('本文件')}（{_where(finding.where)}）：{escape(finding.where.text)}</p>")
        if finding.reference and finding.other is not None:
            other = f"{escape(finding.reference)}（{_where(finding.other)}）"
            parts.append(f"<p>{other}：{escape(finding.other.text)}</p>")
        parts.append(f"<p><b>{tr('如何处理')}</b>：{escape(finding.fix)}</p>")
        self.details.setHtml("".join(parts))
        self.finding_selected.emit(row)
