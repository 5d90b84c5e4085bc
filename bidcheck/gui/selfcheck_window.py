"""The app's 自查 mode: a bidder checks its own bid (and any reference files) before submitting it.

The same ``selfcheck.self_check`` the command line runs, off the UI thread through the one task layer,
with progress and cancel; the findings by weight, each with its place and how to clear it; the same
JSON and sheet as ``bidcheck selfcheck --json/--xlsx``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMainWindow,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from bidcheck.config import Settings
from bidcheck.findings import SelfCheckResult
from bidcheck.ingest import SUPPORTED_SUFFIXES
from bidcheck.progress import ProgressFn
from bidcheck.report.files import UnwritablePath, check_output_path
from bidcheck.report.selfcheck import write_self_check_json, write_self_check_xlsx
from bidcheck.selfcheck import SelfCheckInputs, self_check

from . import prefs
from .i18n import tr
from .selfcheck_view import FindingsView
from .task_status import JobEnds, TaskStatus
from .tasks import Task

__all__ = ["SelfCheckWindow"]


class SelfCheckWindow(QMainWindow):
    """One bid, its references and the tender in; what an agency's check would raise against it out."""

    result_shown = Signal()
    task_failed = Signal(str)
    file_written = Signal(str)

    def __init__(self, store: QSettings, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window)
        self.store, self.settings = store, settings
        self.result: SelfCheckResult | None = None
        self.setWindowTitle(f"bidcheck {tr('投标人自查')}")
        self.findings = FindingsView()
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self._inputs_panel())
        split.addWidget(self._findings_panel())
        split.setSizes([460, 1040])
        self.setCentralWidget(split)
        self._build_status_bar()
        self._update_state()

    # -- layout ---------------------------------------------------------------------------------------

    def _inputs_panel(self) -> QGroupBox:
        self.bid_edit = QLineEdit()
        self.bid_edit.textChanged.connect(self._update_state)
        self.bidder_edit = QLineEdit()
        self.bidder_edit.setPlaceholderText(tr("默认取自投标文件中的表格"))
        self.tender_edit = QLineEdit()
        self.references = QListWidget()
        self.run_button = QPushButton(tr("开始自查"))
        self.run_button.setStyleSheet("QPushButton { font-weight: bold; padding: 4px 18px; }")
        self.run_button.clicked.connect(self.run_check)
        form = QFormLayout()
        form.addRow(tr("投标文件"), self._picker(self.bid_edit, lambda: self._ask_file(self.bid_edit)))
        form.addRow(tr("本单位名称"), self.bidder_edit)
        form.addRow(tr("招标文件"), self._picker(self.tender_edit, lambda: self._ask_file(self.tender_edit)))
        box = QGroupBox(tr("自查文件"))
        layout = QVBoxLayout(box)
        layout.addLayout(form)
        layout.addWidget(QLabel(tr("参考文件（顾问的模板、合作方或去年的投标文件）")))
        layout.addWidget(self.references, 1)
        layout.addWidget(self._reference_buttons())
        layout.addWidget(self.run_button)
        return box

    def _picker(self, edit: QLineEdit, ask: Callable[[], None]) -> QWidget:
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        button = QPushButton(tr("选择…"))
        button.clicked.connect(ask)
        line.addWidget(edit, 1)
        line.addWidget(button)
        return row

    def _reference_buttons(self) -> QWidget:
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        for text, slot in (
            ("添加文件…", self._ask_references),
            ("添加文件夹…", self._ask_reference_folder),
            ("移除", self._remove_reference),
        ):
            button = QPushButton(tr(text))
            button.clicked.connect(slot)
            line.addWidget(button)
        line.addStretch(1)
        return row

    def _findings_panel(self) -> QGroupBox:
        self.export_xlsx_button = QPushButton(tr("导出 Excel 报告…"))
        self.export_json_button = QPushButton(tr("导出 JSON 结果…"))
        self.export_xlsx_button.clicked.connect(lambda: self._ask_export(".xlsx"))
        self.export_json_button.clicked.connect(lambda: self._ask_export(".json"))
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        line.addStretch(1)
        line.addWidget(self.export_xlsx_button)
        line.addWidget(self.export_json_button)
        box = QGroupBox(tr("机构的检查会指出的问题"))
        layout = QVBoxLayout(box)
        layout.addWidget(self.findings, 1)
        layout.addWidget(row)
        return box

    def _build_status_bar(self) -> None:
        self.status = TaskStatus(self, self.cancel_check)
        self.stage = self.status.stage
        self._show_busy(False)

    # -- files ----------------------------------------------------------------------------------------

    def set_inputs(self, inputs: SelfCheckInputs) -> None:
        """Fill in the bid, the references, the tender and the bidder's name."""
        self.bid_edit.setText(str(inputs.bid))
        self.bidder_edit.setText(inputs.bidder)
        self.tender_edit.setText(str(inputs.tenders[0]) if inputs.tenders else "")
        self.references.clear()
        self.references.addItems([str(p) for p in inputs.references])

    def inputs(self) -> SelfCheckInputs | None:
        """The self-check's inputs as filled in; ``None`` without a bid file."""
        bid = self.bid_edit.text().strip()
        if not bid:
            return None
        references = tuple(Path(self.references.item(n).text()) for n in range(self.references.count()))
        tender = self.tender_edit.text().strip()
        return SelfCheckInputs(
            Path(bid), references, (Path(tender),) if tender else (), self.bidder_edit.text()
        )

    def _filter(self) -> str:
        return f"{tr('支持的文件')} ({' '.join(f'*{s}' for s in sorted(SUPPORTED_SUFFIXES))})"

    def _ask_file(self, edit: QLineEdit) -> None:
        name, _ = QFileDialog.getOpenFileName(
            self, tr("选择文件"), prefs.last_folder(self.store), self._filter()
        )
        if name:
            prefs.set_last_folder(self.store, Path(name).parent)
            edit.setText(name)

    def _ask_references(self) -> None:
        names, _ = QFileDialog.getOpenFileNames(
            self, tr("添加文件"), prefs.last_folder(self.store), self._filter()
        )
        self.references.addItems(names)

    def _ask_reference_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, tr("添加文件夹"), prefs.last_folder(self.store))
        if folder:
            self.references.addItem(folder)

    def _remove_reference(self) -> None:
        for item in self.references.selectedItems():
            self.references.takeItem(self.references.row(item))

    # -- running --------------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """Whether a self-check is running."""
        return self.status.busy

    @property
    def task(self) -> Task | None:
        """The self-check running or last run."""
        return self.status.task

    def run_check(self) -> None:
        """Run the self-check off the UI thread, with progress and cancel."""
        inputs, settings = self.inputs(), self.settings
        if self.busy or inputs is None:
            return
        missing = [p for p in (inputs.bid, *inputs.references, *inputs.tenders) if not p.exists()]
        if missing or inputs.bid.is_dir():
            problem = (
                tr("投标文件应为一个文件")
                if not missing
                else tr("找不到文件：{path}").format(path=missing[0])
            )
            self._failed(ValueError(problem))
            return

        def job(progress: ProgressFn, cancel: threading.Event) -> SelfCheckResult:
            return self_check(inputs, settings, progress, cancel)

        ends = JobEnds(self._show_busy, self._cancelled, self._failed, self._ended)
        self.status.run(Task(job, self), self._done, tr("正在自查…"), ends)

    def cancel_check(self) -> None:
        """Ask the running self-check to stop."""
        self.status.cancel()

    def _done(self, result: SelfCheckResult) -> None:
        self.result = result
        self.findings.set_result(result)
        self.stage.setText(tr("自查完成，用时 {s:.1f} 秒。").format(s=result.elapsed_s))
        self.result_shown.emit()

    def _cancelled(self) -> None:
        self.stage.setText(tr("自查已取消。"))

    def _failed(self, error: Exception) -> None:
        self.task_failed.emit(self.status.fail(error))

    def _ended(self) -> None:
        self._show_busy(False)
        self._update_state()

    def _show_busy(self, busy: bool) -> None:
        self.status.show_busy(busy)
        central = self.centralWidget()
        if central is not None:
            central.setEnabled(not busy)

    def _update_state(self) -> None:
        self.run_button.setEnabled(bool(self.bid_edit.text().strip()) and not self.busy)
        for button in (self.export_xlsx_button, self.export_json_button):
            button.setEnabled(self.result is not None and not self.busy)

    # -- export ---------------------------------------------------------------------------------------

    def _ask_export(self, suffix: str) -> None:
        if self.result is None:
            return
        default = Path(prefs.last_folder(self.store)) / f"{Path(self.result.bid.name).stem}-自查{suffix}"
        name, _ = QFileDialog.getSaveFileName(self, tr("导出"), str(default), f"*{suffix}")
        if name:
            self.export(Path(name) if name.endswith(suffix) else Path(name + suffix))

    def export(self, path: Path) -> None:
        """Write the self-check's sheet (``.xlsx``) or JSON (any other suffix) in the background."""
        result = self.result
        if result is None:
            return
        try:
            check_output_path(path)
        except UnwritablePath as exc:
            self._failed(exc)
            return
        write = write_self_check_xlsx if path.suffix.lower() == ".xlsx" else write_self_check_json
        task = Task(lambda _progress, _cancel: write(result, path), self)
        task.on_success(lambda _value: self._written(path)).on_failure(self._failed).start()

    def _written(self, path: Path) -> None:
        self.stage.setText(tr("已保存：{path}").format(path=path))
        self.file_written.emit(str(path))

    def closeEvent(self, event: QCloseEvent) -> None:
        """Stop a running self-check before closing."""
        self.status.stop()
        super().closeEvent(event)
