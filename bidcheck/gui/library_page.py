"""The library page: the stored sections (with their files and raised pairs), the bidders (with their
sections and past warnings, searchable), the library's size; remove a section, add model documents.

Every read and write of the library runs off the UI thread through ``Task``; the page shows what it
read last, and says so when the library cannot be used."""

from __future__ import annotations

import html
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from bidcheck.config import Settings
from bidcheck.ingest import SUPPORTED_SUFFIXES
from bidcheck.library import add_templates, open_library
from bidcheck.library.overview import LibraryOverview, bidder_rows, read_overview
from bidcheck.progress import ProgressFn

from .i18n import tr
from .style import level_name
from .tables import list_table
from .tasks import Task, describe

__all__ = ["LibraryPage"]

SECTION_COLUMNS = ("标段", "类别", "检查时间", "投标文件", "投标人")
BIDDER_COLUMNS = ("投标人", "所在标段", "以往预警")


def _role(role: str) -> str:
    return {"bid": tr("投标文件"), "tender": tr("招标文件"), "template": tr("模板")}.get(role, role)


def _fill(table: QTableWidget, rows: Sequence[Sequence[str]]) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            item = QTableWidgetItem(text)
            item.setToolTip(text)
            table.setItem(r, c, item)


def _warning(section: str, other: str, level: str) -> str:
    return f"{section}：{level_name(level)}（{other}）"


class LibraryPage(QDialog):
    """The library at ``path``, listed and managed."""

    loaded = Signal()  # what the library holds is on screen (or why it could not be read)
    changed = Signal(str)  # a section was removed or model documents added: what was done

    def __init__(self, path: Path, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path, self.settings = path, settings
        self.overview: LibraryOverview | None = None
        self.task: Task | None = None
        self.setWindowTitle(tr("资料库"))
        self.resize(1100, 700)
        self._build()

    # -- layout ---------------------------------------------------------------------------------------

    def _build(self) -> None:
        self.figures = QLabel()
        self.figures.setWordWrap(True)
        self.figures.setTextFormat(Qt.TextFormat.PlainText)
        self.sections = list_table(SECTION_COLUMNS)
        self.sections.currentCellChanged.connect(lambda row, *_: self._show_section(row))
        self.detail = QTextBrowser()
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.sections)
        split.addWidget(self.detail)
        split.setSizes([380, 220])
        self.search = QLineEdit()
        self.search.setPlaceholderText(tr("按投标人名称查找"))
        self.search.textChanged.connect(lambda _text: self._show_bidders())
        self.bidders = list_table(BIDDER_COLUMNS)
        people = QWidget()
        column = QVBoxLayout(people)
        column.addWidget(self.search)
        column.addWidget(self.bidders, 1)
        self.tabs = QTabWidget()
        self.tabs.addTab(split, tr("全部标段"))
        self.tabs.addTab(people, tr("全部投标人"))
        layout = QVBoxLayout(self)
        layout.addWidget(self.figures)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(self._buttons())

    def _buttons(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.add_button = QPushButton(tr("添加范本文件…"))
        self.remove_button = QPushButton(tr("删除所选标段"))
        self.refresh_button = QPushButton(tr("刷新"))
        close = QPushButton(tr("关闭"))
        self.add_button.clicked.connect(self.ask_templates)
        self.remove_button.clicked.connect(self.ask_remove)
        self.refresh_button.clicked.connect(self.refresh)
        close.clicked.connect(self.close)
        for button in (self.add_button, self.remove_button, self.refresh_button):
            row.addWidget(button)
        row.addStretch(1)
        row.addWidget(close)
        return row

    # -- reading --------------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Read the library again (off the UI thread)."""
        self._run(lambda: None, tr("正在读取资料库…"))

    def _run(self, change: Callable[[], Any], label: str) -> None:
        """Make a change to the library (or none), then read it, in the background."""
        if self.busy:
            return
        path = self.path

        def job(_progress: ProgressFn, _cancel: threading.Event) -> tuple[Any, LibraryOverview]:
            done = change()
            library = open_library(path)
            try:
                return done, read_overview(library)
            finally:
                library.close()

        self.figures.setText(label)
        self._set_busy(True)
        self.task = Task(job, self)
        self.task.on_success(self._shown).on_failure(self._failed).on_finish(lambda: self._set_busy(False))
        self.task.start()

    @property
    def busy(self) -> bool:
        """Whether the page is reading or changing the library."""
        return self.task is not None and self.task.is_running()

    def wait(self) -> None:
        """Block until the library job running now has ended (before the page goes)."""
        if self.task is not None:
            self.task.wait(60_000)

    def _set_busy(self, busy: bool) -> None:
        for button in (self.add_button, self.remove_button, self.refresh_button):
            button.setEnabled(not busy)

    def _shown(self, value: tuple[Any, LibraryOverview]) -> None:
        done, overview = value
        self.overview = overview
        self.figures.setText(self._figures_text(overview))
        kinds = {"templates": tr("范本"), "section": tr("标段")}
        rows = [
            (r.name, kinds.get(r.kind, r.kind), r.checked, str(r.files), "、".join(r.bidders))
            for r in reversed(overview.sections)  # newest first
        ]
        _fill(self.sections, rows)
        self._show_bidders()
        if rows:
            self.sections.selectRow(0)
        else:
            self.detail.setPlainText(
                tr("资料库中还没有标段：检查时勾选“对照资料库”，检查过的标段会存入这里。")
            )
        if isinstance(done, str):
            self.changed.emit(done)
        self.loaded.emit()

    def _figures_text(self, o: LibraryOverview) -> str:
        templates = sum(1 for r in o.sections if r.kind == "templates")
        return tr("{path}：{s} 个标段，{b} 份投标文件，{t} 组范本，{g} 个相同文件堆；{mb:.1f} MB").format(
            path=o.path, s=len(o.sections) - templates, b=o.bids, t=templates, g=o.groups, mb=o.bytes / 1e6
        )

    def _failed(self, error: Exception) -> None:
        self.overview = None
        _fill(self.sections, [])
        _fill(self.bidders, [])
        self.detail.clear()
        self.figures.setText(tr("资料库不可用：{error}").format(error=describe(error)))
        self.loaded.emit()

    def _show_section(self, row: int) -> None:
        item = self.sections.item(row, 0) if row >= 0 else None
        if self.overview is None or item is None:
            self.detail.clear()
            return
        name = item.text()
        files = "".join(
            f"<tr><td>{html.escape(f.name)}</td><td>{html.escape(f.bidder)}</td><td>{html.escape(_role(f.role))}</td>"
            f"<td align=right>{f.chars:,}</td><td>{f.digest[:12]}</td></tr>"
            for f in self.overview.files.get(name, ())
        )
        pairs = "".join(
            f"<li>{html.escape(level_name(level))}：{html.escape(a)} ↔ {html.escape(b)}</li>"
            for a, b, level in self.overview.pairs.get(name, ())
        )
        self.detail.setHtml(
            f"<b>{html.escape(name)}</b><table cellspacing=6>{files}</table>"
            + (f"<p>{tr('预警')}</p><ul>{pairs}</ul>" if pairs else f"<p>{tr('本标段没有预警。')}</p>")
        )

    def _show_bidders(self) -> None:
        if self.overview is None:
            return
        rows = [
            (b.name, "、".join(b.sections), "；".join(_warning(*w) for w in b.warnings) or tr("无"))
            for b in bidder_rows(self.overview, self.search.text())
        ]
        _fill(self.bidders, rows)

    # -- changing -------------------------------------------------------------------------------------

    def selected_section(self) -> str | None:
        """The name of the selected section, if any."""
        item = self.sections.item(self.sections.currentRow(), 0)
        return item.text() if item is not None else None

    def ask_remove(self) -> None:
        """Ask before removing the selected section."""
        name = self.selected_section()
        if name is None or self.busy:
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            tr("删除标段"),
            tr("从资料库删除标段“{name}”及其全部指纹？此操作不能撤销。").format(name=name),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        yes = box.button(QMessageBox.StandardButton.Yes)
        box.buttonClicked.connect(lambda button: self.remove_section(name) if button is yes else None)
        box.open()

    def remove_section(self, name: str) -> None:
        """Remove a section from the library, then list it again."""
        path = self.path

        def remove() -> str:
            library = open_library(path)
            try:
                library.remove(name)
            finally:
                library.close()
            return tr("已删除标段 {name}").format(name=name)

        self._run(remove, tr("正在删除…"))

    def ask_templates(self) -> None:
        """Ask for model documents to keep in the library."""
        patterns = " ".join(f"*{s}" for s in sorted(SUPPORTED_SUFFIXES))
        names, _ = QFileDialog.getOpenFileNames(
            self, tr("添加范本文件"), str(Path.home()), f"{tr('支持的文件')} ({patterns})"
        )
        if names:
            self.add_templates([Path(n) for n in names])

    def add_templates(self, paths: list[Path], name: str = "") -> None:
        """Keep model documents in the library (they act as templates in every check)."""
        path, settings = self.path, self.settings
        name = name or tr("范本：") + "、".join(p.name for p in paths)

        def add() -> str:
            library = open_library(path)
            try:
                docs = add_templates(library, paths, name, settings)
            finally:
                library.close()
            failed = [f"{d.name}（{d.error}）" for d in docs if not d.ok]
            done = tr("已存入范本 {n} 份").format(n=len(docs) - len(failed))
            return done + ("；" + tr("无法读取：") + "、".join(failed) if failed else "")

        self._run(add, tr("正在读取范本文件…"))
