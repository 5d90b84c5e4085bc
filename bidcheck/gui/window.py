"""The main window: a section's files on the left, ranked pairs and matrix on top, evidence below."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QCloseEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from bidcheck import words
from bidcheck.config import MANY_PAIRS, Settings
from bidcheck.ingest import SUPPORTED_SUFFIXES
from bidcheck.library import default_library_path
from bidcheck.model import CheckResult, Role
from bidcheck.pipeline import CheckInputs, ReadMemo
from bidcheck.progress import ProgressFn
from bidcheck.report import write_json, write_xlsx
from bidcheck.report.files import UnwritablePath, check_output_path
from bidcheck.review import Review, group_key, group_review_of, pair_key
from bidcheck.semantic import plan_line, section_size
from bidcheck.session import check_section, tender_name
from bidcheck.text.chars import replace_unsafe
from bidcheck.text.project_name import generic_folder_name

from . import menus, prefs
from .evidence_view import EvidenceView
from .files_view import FilesTable
from .group_review import GroupReviewDialog
from .i18n import tr
from .library_page import LibraryPage
from .results_view import LEVEL_FILTERS, MatrixView, PairsView, group_title, summary_text
from .selfcheck_window import SelfCheckWindow
from .settings_dialog import SettingsDialog
from .store import CHECK_SUFFIX, SavedCheck, load_check, save_check
from .style import ERROR_FG
from .task_status import JobEnds, TaskStatus
from .tasks import Task
from .tender_note import TenderNote
from .texts import DocText, texts_from_files, texts_from_result

__all__ = ["MainWindow"]
TOP_SHARE = 0.36  # of the window's height, for the files, pairs and matrix above the evidence


class MainWindow(QMainWindow):
    """One check (one tender section) from files to evidence."""

    result_shown = Signal()  # a result (new or reopened) is on screen, the top pair selected
    check_cancelled = Signal()
    task_failed = Signal(str)  # a background job failed: the message shown to the user
    file_written = Signal(str)  # an export or a saved check was written to this path
    language_changed = Signal(str)

    def __init__(self, store: QSettings, saved: SavedCheck | None = None) -> None:
        super().__init__()
        self.store = store
        self.settings = prefs.load_settings(store)
        self.result: CheckResult | None = None
        self.texts: dict[str, DocText] = {}
        self.reviews: dict[str, Review] = {}  # the panel's marks on pairs (kept through a re-check)
        self._saved_mark: tuple[int, tuple[tuple[str, Review], ...]] | None = None  # as last saved
        self.ask_to_save: Callable[[], str] = self._ask_to_save  # asked on closing an unsaved check
        self._checked_files: list[tuple[Path, str]] | None = None  # the files the result shown is of
        self.name = ""
        self.check_path: Path | None = None
        self.name_given = False  # the section's name as the user gave it (else its folder's, its tender's)
        self.library_page: LibraryPage | None = None
        self.read_memo = ReadMemo()  # the files read by the last check, for the next (a file added)
        self._build()
        self.menu_actions = menus.build(self)
        prefs.restore_geometry(store, self)
        if saved is not None:
            self.apply_saved(saved, self.check_path)
        self._update_state()

    # -- layout ---------------------------------------------------------------------------------------

    def _build(self) -> None:
        self.files = FilesTable()
        self.files.files_changed.connect(self._update_state)
        self.pairs = PairsView()
        self.pairs.pair_selected.connect(self.show_pair)
        self.matrix = MatrixView()
        self.matrix.pair_selected.connect(self.select_pair)
        self.evidence = EvidenceView()
        self.evidence.review_changed.connect(self.set_review)
        self.summary = QLabel(tr("添加一个标段的投标文件，标出招标文件，然后开始检查。"))
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)  # a ring's 标记 link opens its mark
        self.summary.linkActivated.connect(self.review_group)
        self.stale_note = QLabel(tr("标段文件已改动：下面是改动前的结果，请重新检查。"))
        self.stale_note.setStyleSheet(f"color: {ERROR_FG.name()}; font-weight: bold;")
        self.stale_note.hide()
        self.group_dialog: GroupReviewDialog | None = None
        self.tender_note = TenderNote()
        self.tender_note.tender_picked.connect(self.mark_tender)
        self.tender_note.browse_requested.connect(self.browse_tender)
        self.top_split = QSplitter(Qt.Orientation.Horizontal)
        self.top_split.addWidget(self._files_panel())
        self.top_split.addWidget(self._pairs_panel())
        self.top_split.addWidget(self._matrix_panel())
        self.top_split.setSizes([620, 580, 400])
        self.main_split = QSplitter(Qt.Orientation.Vertical)
        self.main_split.addWidget(self.top_split)
        self.main_split.addWidget(self._boxed(tr("共同段落对照"), self.evidence))
        self.main_split.setCollapsible(1, False)
        self._split_dragged = False  # once the user moves the split, it is theirs
        self.main_split.splitterMoved.connect(lambda *_: setattr(self, "_split_dragged", True))
        self.setCentralWidget(self.main_split)
        self._build_status_bar()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._share_height()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._share_height()

    def _share_height(self) -> None:
        """The lists above take about a third of the height (no less than they need), the evidence the
        rest, at any window size, until the user moves the split."""
        if self._split_dragged:
            return
        room = sum(self.main_split.sizes()) or self.main_split.height()
        needed = self.top_split.minimumSizeHint().height()
        top = min(max(round(room * TOP_SHARE), needed), room)
        self.main_split.setSizes([top, room - top])

    def _boxed(self, title: str, widget: QWidget, *extra: QWidget) -> QGroupBox:
        box = QGroupBox(title)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(8, 8, 8, 8)
        for item in extra:
            layout.addWidget(item)
        layout.addWidget(widget, 1)
        return box

    def _files_panel(self) -> QGroupBox:
        """The section's files; adding them and starting the check are the toolbar's (and the menu's)."""
        buttons = QWidget()
        row = QHBoxLayout(buttons)
        row.setContentsMargins(0, 0, 0, 0)
        self.remove_button = QPushButton(tr("移除"))
        self.remove_button.setToolTip(tr("移除所选文件（Delete）"))
        self.remove_button.clicked.connect(self.files.remove_selected)
        self.library_switch = QCheckBox(tr("对照资料库"))  # on by default: each check also learns
        self.library_switch.setToolTip(tr("与资料库中以往检查过的标段对照，并把本标段存入资料库"))
        self.library_switch.setChecked(prefs.library_enabled(self.store))
        self.library_switch.toggled.connect(lambda on: prefs.set_library_enabled(self.store, on))
        row.addWidget(self.remove_button)
        row.addStretch(1)
        row.addWidget(self.library_switch)
        return self._boxed(tr("标段文件"), self.files, buttons)

    def _pairs_panel(self) -> QGroupBox:
        bar = QWidget()
        row = QHBoxLayout(bar)
        row.setContentsMargins(0, 0, 0, 0)
        self.level_filter = QComboBox()
        for label in LEVEL_FILTERS:
            self.level_filter.addItem(tr(label), label)
        self.level_filter.currentIndexChanged.connect(
            lambda _i: self.pairs.set_levels(LEVEL_FILTERS[self.level_filter.currentData()])
        )
        self.hide_flagged = QCheckBox(tr("隐藏招标文件/模板和多家共有段落"))
        self.hide_flagged.toggled.connect(self.evidence.set_hide_flagged)
        row.addWidget(QLabel(tr("等级")))
        row.addWidget(self.level_filter)
        row.addWidget(self.hide_flagged)
        row.addStretch(1)
        return self._boxed(tr("文件对排名"), self.pairs, self.summary, self.stale_note, self.tender_note, bar)

    def _matrix_panel(self) -> QGroupBox:
        return self._boxed(tr("相似度矩阵"), self.matrix)

    def _build_status_bar(self) -> None:
        self.status = TaskStatus(self, self.cancel_check)
        self.stage, self.progress, self.cancel_button = (
            self.status.stage,
            self.status.progress,
            self.status.cancel_button,
        )
        self._show_busy(False)

    # -- the section ----------------------------------------------------------------------------------

    def add_paths(self, paths: list[Path], role: Role | None = None) -> int:
        """Add files or folders to the section; a first folder names the section and is remembered."""
        folders = [p for p in paths if p.is_dir()]
        if folders and not self.name:
            self.name = replace_unsafe(folders[0].name)
        for folder in folders:
            prefs.remember_recent(self.store, folder)
        return self.files.add_paths(paths, role)

    def ask_files(self, role: Role) -> int:
        """Ask for files to add with a role; returns how many were added."""
        patterns = " ".join(f"*{s}" for s in sorted(SUPPORTED_SUFFIXES))
        kinds = f"{tr('支持的文件')} ({patterns});;{tr('所有文件')} (*)"
        names, _ = QFileDialog.getOpenFileNames(self, tr("添加文件"), prefs.last_folder(self.store), kinds)
        if not names:
            return 0
        prefs.set_last_folder(self.store, Path(names[0]).parent)
        return self.add_paths([Path(n) for n in names], role)

    def mark_tender(self, path: str) -> None:
        """Make one of the section's files the tender and check again."""
        rows = [row for row, item in enumerate(self.files.files()) if item.path == Path(path)]
        if rows and not self.busy:
            self.files.set_role(rows[0], "tender")
            self.run_check()

    def browse_tender(self) -> None:
        """Ask for the tender file; once added, check again."""
        if not self.busy and self.ask_files("tender"):
            self.run_check()

    def ask_folder(self) -> None:
        """Ask for a folder of bids."""
        folder = QFileDialog.getExistingDirectory(self, tr("添加文件夹"), prefs.last_folder(self.store))
        if folder:
            prefs.set_last_folder(self.store, Path(folder))
            self.add_paths([Path(folder)])

    def new_check(self) -> None:
        """Start an empty check."""
        if self.busy:
            return
        self.files.clear()
        self.name, self.check_path, self.name_given = "", None, False
        self.reviews = {}
        self._show_result(None, {})
        self.summary.setText(tr("添加一个标段的投标文件，标出招标文件，然后开始检查。"))

    def inputs(self) -> CheckInputs:
        """The section's files as the pipeline's inputs."""
        files = self.files.files()
        return CheckInputs(
            tuple(f.path for f in files if f.role == "bid" and not f.path.is_dir()),
            tuple(f.path for f in files if f.role == "tender"),
            tuple(f.path for f in files if f.role == "template"),
            tuple(f.path for f in files if f.role == "bid" and f.path.is_dir()),
        )

    # -- running --------------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """Whether a check (or reopening) is running."""
        return self.status.busy

    @property
    def task(self) -> Task | None:
        """The check (or reopening) running or last run."""
        return self.status.task

    def run_check(self) -> None:
        """Run the check off the UI thread, with progress and cancel."""
        inputs = self.inputs()
        if self.busy or not inputs.bid_files():
            if not inputs.bid_files():
                self.stage.setText(tr("请先添加投标文件。"))
            return
        if not self._large_check_wanted(inputs):
            return
        settings = self.settings
        library = self.library_path() if self.library_switch.isChecked() else None
        given, folder = self.name_given, self.name
        memo = self.read_memo

        def job(progress: ProgressFn, cancel: threading.Event) -> tuple[CheckResult, dict[str, DocText], str]:
            named = given or (folder and not generic_folder_name(folder))  # else the tender names it
            section = folder if named else (tender_name(inputs.tenders) or folder)
            wanted = section or tr("未命名标段")  # the library's name for it, made distinct there
            result = check_section(inputs, settings, library, wanted, progress, cancel, memo=memo).result
            return result, texts_from_result(result), section

        plan = plan_line(settings, section_size(inputs.bid_files()))  # the layer's cost, before it starts
        self._start(Task(job, self), self._check_done, tr("正在检查…") + "  " + plan)

    def _large_check_wanted(self, inputs: CheckInputs) -> bool:
        """Whether to go on with a very large check (asked past ``MANY_PAIRS`` pairs)."""
        bids = inputs.bid_count()
        pairs = bids * (bids - 1) // 2
        if pairs <= MANY_PAIRS:
            return True
        said = tr("本次比对 {bids:,} 份投标文件、{pairs:,} 对，需要较长时间和较多内存。继续吗？")
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self, tr("开始检查"), said.format(bids=bids, pairs=pairs), buttons.Yes | buttons.No, buttons.No
        )
        return answer == buttons.Yes

    def rename_section(self, new: str | None = None) -> bool:
        """Name the section (asked when ``new`` is not given): for the window, the reports and the library,
        where the section stored under its old name takes the new one; whether it was renamed."""
        if new is None:
            new, ok = QInputDialog.getText(
                self, tr("标段名称"), tr("本标段的名称（用于报告和资料库）："), text=self.name
            )
            if not ok:
                return False
        new = replace_unsafe(" ".join(new.split()))
        if not new or self.busy:
            return False
        old, self.name, self.name_given = self.name, new, True
        if old and old != new and self.library_switch.isChecked() and self.library_path().is_file():
            self.stage.setText(_renamed_in_library(self.library_path(), old, new))
        self._update_state()
        return True

    def library_path(self) -> Path:
        """The library the app checks against: the setting ``library_path``, else the default place."""
        return Path(self.settings.library_path) if self.settings.library_path else default_library_path()

    def open_library_page(self) -> LibraryPage:
        """Show the library page (one per window), reading the library afresh."""
        if self.library_page is None or self.library_page.path != self.library_path():
            self.library_page = LibraryPage(self.library_path(), self.settings, self)
        self.library_page.settings = self.settings
        self.library_page.show()
        self.library_page.raise_()
        self.library_page.refresh()
        return self.library_page

    def _start(self, task: Task, done: Callable[[Any], None], label: str) -> None:
        ends = JobEnds(self._show_busy, self._cancelled, self._failed, self._task_ended)
        self.status.run(task, done, label, ends)

    def cancel_check(self) -> None:
        """Ask the running check to stop."""
        self.status.cancel()

    def _check_done(self, value: tuple[CheckResult, dict[str, DocText], str]) -> None:
        result, texts, section = value
        if section and not self.name_given:
            self.name = section  # as the tender names it
        self._show_result(result, texts)

    def _cancelled(self) -> None:
        self.stage.setText(tr("检查已取消。"))
        self.check_cancelled.emit()

    def _failed(self, error: Exception) -> None:
        self.task_failed.emit(self.status.fail(error))

    def _task_ended(self) -> None:
        self._show_busy(False)
        self._update_state()

    def _show_busy(self, busy: bool) -> None:
        self.status.show_busy(busy)
        for widget in (self.remove_button, self.library_switch):
            widget.setEnabled(not busy)
        self.files.setEnabled(not busy)
        if hasattr(self, "menu_actions"):
            menus.set_busy(self.menu_actions, busy)

    # -- results --------------------------------------------------------------------------------------

    def _shown_names(self) -> tuple[str, str] | None:
        """The two documents of the pair shown, by name (the same pair after a re-check)."""
        index = self.pairs.selected_pair()
        if self.result is None or index is None or index >= len(self.result.pairs):
            return None
        pair = self.result.pairs[index]
        return self.result.document(pair.a).name, self.result.document(pair.b).name

    def _show_result(self, result: CheckResult | None, texts: dict[str, DocText]) -> None:
        shown = self._shown_names()
        self.result, self.texts = result, texts
        self._checked_files = self._file_list() if result is not None else None
        self.files.show_documents(result.documents if result else ())
        self.pairs.set_result(result)
        self.matrix.set_result(result)
        self.evidence.clear()
        self.tender_note.show_for(result, self.files.files())
        self._update_state()
        if result is None:
            return
        self._show_summary()
        self.stage.setText(tr("检查完成，用时 {s:.1f} 秒。").format(s=result.elapsed_s))
        if result.pairs:
            self.select_pair(self._index_of(shown))
        self.result_shown.emit()

    def _index_of(self, names: tuple[str, str] | None) -> int:
        """The index of the pair of these two documents in the result shown (0 when it has none)."""
        assert self.result is not None
        for index, pair in enumerate(self.result.pairs):
            if names and {self.result.document(pair.a).name, self.result.document(pair.b).name} == set(names):
                return index
        return 0

    def select_pair(self, index: int) -> None:
        """Select a pair (the level filter shows every level again if it hid this one)."""
        if not self.pairs.select_pair(index):
            self.level_filter.setCurrentIndex(self.level_filter.findData("全部等级"))
            self.pairs.select_pair(index)

    def show_pair(self, index: int) -> None:
        """Show the evidence of the pair with this index in the result."""
        if self.result is None:
            return
        pair = self.result.pairs[index]
        names = (self.result.document(pair.a).name, self.result.document(pair.b).name)
        pictures = [
            (*thumbnails, f"A 第 {s.a.page} 页 / B 第 {s.b.page} 页" if s.a and s.b else "")
            for s in pair.signals
            if (thumbnails := words.picture_thumbnails(self.result, s))
        ]
        self.evidence.show_pair(pair, names, (self.texts.get(pair.a), self.texts.get(pair.b)), pictures)
        key = pair_key(self.result.document(pair.a).path, self.result.document(pair.b).path)
        self.evidence.show_review(key, self.reviews.get(key))
        history = self.result.history
        self.evidence.show_history(names, (history.get(pair.a, ()), history.get(pair.b, ())))
        self._mark_matrix(pair.a, pair.b)

    def _mark_matrix(self, a: str, b: str) -> None:
        assert self.result is not None
        ids = [d.id for d in self.result.bids if d.ok]
        if a in ids and b in ids:
            self.matrix.blockSignals(True)
            self.matrix.setCurrentCell(ids.index(a), ids.index(b))
            self.matrix.blockSignals(False)

    # -- files: export, save, reopen ------------------------------------------------------------------

    def export_xlsx(self, path: Path) -> None:
        """Write the Excel report in the background."""
        result, section, reviews = self.result, self.name, dict(self.reviews)
        if result is not None and self._writable(path):
            self._write(lambda: write_xlsx(result, path, section, reviews), path)

    def export_docx(self, path: Path, confirmed_only: bool = False) -> None:
        """Write the Word dossier in the background (with ``confirmed_only``, of the pairs the panel
        marked 已核实 alone)."""
        from bidcheck.report.dossier import write_docx  # python-docx: loaded when a dossier is asked for

        result, section, reviews = self.result, self.name, dict(self.reviews)
        if result is not None and self._writable(path):
            self._write(
                lambda: write_docx(result, path, section, reviews=reviews, confirmed_only=confirmed_only),
                path,
            )

    def set_review(self, key: str, review: Review) -> None:
        """Keep the panel's mark on a pair or group (saved with the check, shown in the reports)."""
        self.reviews[key] = review

    def _show_summary(self) -> None:
        assert self.result is not None
        result = self.result
        self.summary.setText(summary_text(result, lambda g: group_review_of(self.reviews, result, g)))

    def review_group(self, link: str) -> None:
        """Open the dialog that marks the group a summary link (``group:N``) names."""
        number = int(link.removeprefix("group:")) if link.removeprefix("group:").isdigit() else 0
        if self.result is None or not 0 < number <= len(self.result.groups):
            return
        result, group = self.result, self.result.groups[number - 1]
        key = group_key(result.document(m).path for m in group.members)
        self.group_dialog = GroupReviewDialog(self, *group_title(result, number), self.reviews.get(key))
        self.group_dialog.accepted.connect(lambda: self._group_reviewed(key))
        self.group_dialog.open()

    def _group_reviewed(self, key: str) -> None:
        if self.group_dialog is not None:
            self.set_review(key, self.group_dialog.review())
            self._show_summary()

    def export_json(self, path: Path) -> None:
        """Write the result JSON in the background."""
        result = self.result
        if result is not None and self._writable(path):
            self._write(lambda: write_json(result, path), path)

    def save_check(self, path: Path) -> None:
        """Save the check (files, result, texts) to reopen later."""
        if not self._writable(path):
            return
        saved, mark = self.snapshot(), self._mark()
        self.check_path = path
        prefs.remember_recent(self.store, path)
        self._write(lambda: save_check(saved, path), path, lambda: setattr(self, "_saved_mark", mark))

    def _writable(self, path: Path) -> bool:
        """Whether a file can be written to ``path``; if not, a dialog says why (before any work)."""
        try:
            check_output_path(path)
        except UnwritablePath as exc:
            self._failed(exc)
            return False
        return True

    def _write(self, write: Callable[[], None], path: Path, then: Callable[[], None] = lambda: None) -> None:
        task = Task(lambda _progress, _cancel: write(), self)
        task.on_success(lambda _value: self._written(path, then)).on_failure(self._failed)
        task.start()

    def _written(self, path: Path, then: Callable[[], None] = lambda: None) -> None:
        then()
        self.stage.setText(tr("已保存：{path}").format(path=path))
        self._update_state()
        self.file_written.emit(str(path))

    def open_check(self, path: Path) -> None:
        """Reopen a saved check (or a result JSON); bids' texts missing from it are read from the files."""
        if self.busy:
            return

        def job(progress: ProgressFn, cancel: threading.Event) -> SavedCheck:
            saved = load_check(path)
            if saved.result is None:
                return saved
            texts = texts_from_files(saved.result, saved.texts, progress, cancel)
            return SavedCheck(saved.name, saved.files, saved.result, texts, saved.reviews)

        prefs.remember_recent(self.store, path)
        self._start(Task(job, self), lambda saved: self.apply_saved(saved, path), tr("正在打开…"))

    def apply_saved(self, saved: SavedCheck, path: Path | None) -> None:
        """Show a saved check."""
        self.files.set_files(saved.files)
        self.name = saved.name or (path.stem if path else "")
        self.name_given = bool(saved.name)
        self.check_path = path if path and path.suffix == CHECK_SUFFIX else None
        self.reviews = dict(saved.reviews)
        self._show_result(saved.result, dict(saved.texts))
        self._saved_mark = self._mark() if self.check_path else None
        if saved.result is None:
            self.stage.setText(tr("已打开，尚未检查。"))

    def snapshot(self) -> SavedCheck:
        """The check as it stands, to save or to carry into a new window."""
        return SavedCheck(self.name, self.files.files(), self.result, dict(self.texts), dict(self.reviews))

    def open_self_check(self) -> SelfCheckWindow:
        """Open the 自查 window (a bidder checking its own bid), with this window's settings."""
        window = SelfCheckWindow(self.store, self.settings, self)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.resize(1500, 900)
        window.show()
        return window

    # -- settings and language ------------------------------------------------------------------------

    def open_settings(self) -> SettingsDialog:
        """Open the settings dialog (window-modal); accepted settings are used and remembered."""
        dialog = SettingsDialog(self.settings, self, section_size(self.inputs().bid_files()))
        dialog.accepted.connect(lambda: self.set_settings(dialog.result_settings))
        dialog.open()
        return dialog

    def set_settings(self, settings: Settings) -> None:
        """Use and remember these settings."""
        self.settings = settings
        prefs.save_settings(self.store, settings)

    def switch_language(self, code: str) -> None:
        """Remember the language; the app rebuilds the window in it (see ``app.py``)."""
        if not self.busy:
            prefs.set_language(self.store, code)
            self.language_changed.emit(code)

    # -- state ----------------------------------------------------------------------------------------

    def _file_list(self) -> list[tuple[Path, str]]:
        return [(f.path, f.role) for f in self.files.files()]

    def _update_state(self) -> None:
        stale = self._checked_files is not None and self._checked_files != self._file_list()
        self.stale_note.setVisible(stale)  # the files changed since: the result shown is of the earlier ones
        title = tr("围标串标检查")
        self.setWindowTitle(f"{self.name} — bidcheck {title}" if self.name else f"bidcheck {title}")
        has_bids = any(f.role == "bid" for f in self.files.files())
        if hasattr(self, "menu_actions"):
            menus.update(
                self.menu_actions, has_bids=has_bids, has_result=self.result is not None, busy=self.busy
            )

    def _mark(self) -> tuple[int, tuple[tuple[str, Review], ...]]:
        """What a saved check holds of this one: its result and the panel's marks."""
        return id(self.result), tuple(sorted(self.reviews.items()))

    def unsaved(self) -> bool:
        """Whether the check shown (its result, the panel's marks) differs from the one last saved."""
        return self.result is not None and self._mark() != self._saved_mark

    def _ask_to_save(self) -> str:
        """``save``, ``discard`` or ``cancel``: what the user wants done with an unsaved check."""
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self,
            tr("保存检查？"),
            tr("本次检查的结果和核实标记尚未保存。关闭前保存吗？"),
            buttons.Save | buttons.Discard | buttons.Cancel,
            buttons.Save,
        )
        return {buttons.Save: "save", buttons.Discard: "discard"}.get(answer, "cancel")

    def _save_before_closing(self) -> bool:
        """Save the check now (asking where, if it was never saved); whether it was."""
        path = self.check_path or menus.ask_save_path(self)
        if path is None:
            return False
        try:
            save_check(self.snapshot(), path)
        except OSError as exc:
            self._failed(exc)
            return False
        self._saved_mark = self._mark()
        return True

    def closeEvent(self, event: QCloseEvent) -> None:
        """Offer to save an unsaved check (Ctrl+Q, the window's close button), stop a running check
        before closing, remember the window's size."""
        if self.unsaved() and not self.busy:
            answer = self.ask_to_save()
            if answer == "cancel" or (answer == "save" and not self._save_before_closing()):
                event.ignore()
                return
        self.status.stop()
        if self.library_page is not None and self.library_page.busy:  # its thread ends before the page
            self.library_page.wait()
        prefs.save_geometry(self.store, self)
        super().closeEvent(event)


def _renamed_in_library(path: Path, old: str, new: str) -> str:
    """What became of renaming a stored section: done, not stored, or why not."""
    from bidcheck.library import LibraryError, open_library

    try:
        library = open_library(path, busy_timeout_s=2.0)
    except LibraryError as exc:
        return tr("资料库中的标段未改名：{why}").format(why=exc)
    try:
        problem = library.rename(old, new)
    except LibraryError as exc:
        problem = str(exc)
    finally:
        library.close()
    if problem.startswith("资料库中没有标段"):
        return tr("标段已改名为“{name}”").format(name=new)
    return (
        tr("资料库中的标段未改名：{why}").format(why=problem)
        if problem
        else tr("标段已改名为“{name}”，资料库中的记录也已改名").format(name=new)
    )
