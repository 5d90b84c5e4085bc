"""A window's status bar for its background work (the stage, a progress bar, a Cancel button), and the
dialog that says a job failed: one copy for the main window and the 自查 window."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox, QProgressBar, QPushButton, QWidget

from .i18n import tr
from .tasks import describe

__all__ = ["TaskStatus", "show_failure"]


class TaskStatus:
    """The stage, a progress bar (shown while busy) and a Cancel button in ``window``'s status bar."""

    def __init__(self, window: QMainWindow, cancel: Callable[[], None]) -> None:
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
