"""A window's background work: the one job it runs at a time, started, followed, cancelled and stopped on
close, with its status bar (the stage, a progress bar, a Cancel button) and the dialog that says a job
failed: one copy for the main window and the 自查 window."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox, QProgressBar, QPushButton, QWidget

from .i18n import tr
from .tasks import Task, describe

__all__ = ["JobEnds", "TaskStatus", "show_failure"]


@dataclass(frozen=True)
class JobEnds:
    """What a window does as its job runs and ends: shows itself busy or not, says it was cancelled,
    says it failed, and tidies up after any outcome."""

    busy: Callable[[bool], None]
    cancelled: Callable[[], None]
    failed: Callable[[Exception], None]
    ended: Callable[[], None]


class TaskStatus:
    """The stage, a progress bar (shown while busy) and a Cancel button in ``window``'s status bar, and
    the job they follow (``task``): ``run`` starts one, ``cancel`` asks it to stop, ``stop`` waits for it
    when the window closes."""

    def __init__(self, window: QMainWindow, cancel: Callable[[], None]) -> None:
        self.window = window
        self.task: Task | None = None
        self.stage = QLabel()
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setFixedWidth(260)
        self.progress.setTextVisible(True)
        self.cancel_button = QPushButton(tr("取消"))
        self.cancel_button.clicked.connect(cancel)
        bar = window.statusBar()
        bar.addWidget(self.stage, 1)
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)
        self.show_busy(False)

    def show_busy(self, busy: bool) -> None:
        """Show the progress bar and the Cancel button while a job runs, hide them after."""
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        self.cancel_button.setEnabled(busy)

    def show_progress(self, fraction: float, message: str, cancelling: bool) -> None:
        """A job's progress; its stage unless cancelling (which the stage already says)."""
        self.progress.setValue(int(fraction * 1000))
        self.progress.setFormat(f"{fraction:.0%}")
        if not cancelling:
            self.stage.setText(message)

    @property
    def busy(self) -> bool:
        """Whether a job is running."""
        return self.task is not None and self.task.is_running()

    def run(self, task: Task, done: Callable[[Any], None], label: str, ends: JobEnds) -> None:
        """Start ``task``: its progress shown here, ``done`` given its value; ``ends`` says what the
        window does when it is cancelled, fails or ends (after any outcome)."""
        self.task = task
        task.on_progress(self._show_progress).on_success(done).on_failure(ends.failed)
        task.on_cancel(ends.cancelled).on_finish(ends.ended)
        self.progress.setValue(0)
        self.stage.setText(label)
        ends.busy(True)
        task.start()

    def cancel(self) -> None:
        """Ask the running job to stop."""
        if self.busy and self.task is not None:
            self.task.cancel()
            self.cancelling()

    def stop(self, wait_ms: int = 30_000) -> None:
        """Cancel a running job and wait for it (the window is closing)."""
        if self.task is not None and self.task.is_running():
            self.task.cancel()
            self.task.wait(wait_ms)

    def fail(self, error: Exception) -> str:
        """Say that the job failed, in a dialog and the stage; the message."""
        message = show_failure(self.window, error)
        self.stage.setText(message)
        return message

    def _show_progress(self, fraction: float, message: str) -> None:
        self.show_progress(fraction, message, self.task is not None and self.task.cancel_requested)

    def cancelling(self) -> None:
        """Say the job is being cancelled; the Cancel button has done its work."""
        self.stage.setText(tr("正在取消…"))
        self.cancel_button.setEnabled(False)


def show_failure(parent: QWidget, error: Exception) -> str:
    """Say in a window-modal dialog (never blocking the event loop) that a job failed; the message."""
    message = tr("没有完成：{error}").format(error=describe(error))
    box = QMessageBox(QMessageBox.Icon.Warning, tr("出错了"), message, parent=parent)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return message
