"""The one task layer: every background job of the app (check, export, save, reopen) runs through ``Task``.

Modelled on Anki's ``QueryOp``: the job is a plain function of the core's contract,
``job(progress, cancel) -> value``, run on a worker thread; the task reports back on the UI thread by
signal, exactly one of ``succeeded(value)``, ``failed(exception)`` or ``cancelled()``, then ``finished()``;
a failure no slot listens to is logged (``logging``, logger ``bidcheck``) with its traceback instead.
The job never touches a widget. ``cancel()`` sets the ``threading.Event`` the job checks; the core raises
``bidcheck.progress.Cancelled``, which becomes ``cancelled``::

    Task(lambda progress, cancel: check(inputs, settings, progress, cancel), parent=window)
        .on_progress(bar.show_progress).on_success(show_result).on_failure(show_error).start()
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QMetaMethod, QObject, QThread, Signal

from bidcheck.progress import Cancelled, ProgressFn

__all__ = ["Job", "Task", "describe"]

Job = Callable[[ProgressFn, threading.Event], Any]

_log = logging.getLogger("bidcheck")
_running: set[Task] = set()  # keeps a task (and its thread) alive until it has finished


class _Worker(QThread):
    """Runs the job and keeps its outcome; the ``Task`` reads it once the thread has finished."""

    progress_changed = Signal(float, str)

    def __init__(self, job: Job, cancel: threading.Event, parent: QObject) -> None:
        super().__init__(parent)
        self._job = job
        self._cancel = cancel
        self.outcome: tuple[str, Any] = ("failed", RuntimeError("the task did not run"))

    def run(self) -> None:
        """The worker thread: call the job, catch everything it raises."""
        try:
            value = self._job(self.progress_changed.emit, self._cancel)
        except Cancelled:
            self.outcome = ("cancelled", None)
        except Exception as exc:  # reported to the user as a message, never a crash
            self.outcome = ("failed", exc)
        else:
            self.outcome = ("succeeded", value)


class Task(QObject):
    """One background job with progress, cancel and a result delivered by signal on the UI thread."""

    progress_changed = Signal(float, str)
    succeeded = Signal(object)
    failed = Signal(object)
    cancelled = Signal()
    finished = Signal()

    def __init__(self, job: Job, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cancel = threading.Event()
        self._worker = _Worker(job, self._cancel, self)
        self._worker.progress_changed.connect(self.progress_changed)
        self._worker.finished.connect(self._deliver)

    def on_progress(self, slot: Callable[[float, str], None]) -> Task:
        """Call ``slot(fraction, message)`` as the job reports progress."""
        self.progress_changed.connect(slot)
        return self

    def on_success(self, slot: Callable[[Any], None]) -> Task:
        """Call ``slot(value)`` with what the job returned."""
        self.succeeded.connect(slot)
        return self

    def on_failure(self, slot: Callable[[Exception], None]) -> Task:
        """Call ``slot(exception)`` when the job raised."""
        self.failed.connect(slot)
        return self

    def on_cancel(self, slot: Callable[[], None]) -> Task:
        """Call ``slot()`` when the job stopped because it was cancelled."""
        self.cancelled.connect(slot)
        return self

    def on_finish(self, slot: Callable[[], None]) -> Task:
        """Call ``slot()`` after any outcome."""
        self.finished.connect(slot)
        return self

    def start(self) -> Task:
        """Run the job on its worker thread."""
        _running.add(self)
        self._worker.start()
        return self

    def cancel(self) -> None:
        """Ask the job to stop at its next check of the cancel flag."""
        self._cancel.set()

    @property
    def cancel_requested(self) -> bool:
        """Whether ``cancel()`` was called."""
        return self._cancel.is_set()

    def is_running(self) -> bool:
        """Whether the job has not finished yet (or its outcome has not been delivered)."""
        return self in _running

    def wait(self, msecs: int = -1) -> bool:
        """Block until the worker thread ends (for closing the window); True if it did."""
        return self._worker.wait() if msecs < 0 else self._worker.wait(msecs)

    def _deliver(self) -> None:
        kind, value = self._worker.outcome
        _running.discard(self)
        if kind == "succeeded":
            self.succeeded.emit(value)
        elif kind == "cancelled":
            self.cancelled.emit()
        elif self.isSignalConnected(QMetaMethod.fromSignal(self.failed)):
            self.failed.emit(value)
        else:  # nobody listens: the failure is logged with its traceback, never lost
            _log.error("a background task failed: %s", describe(value), exc_info=value)
        self.finished.emit()


def describe(error: Exception) -> str:
    """An exception in words a user can act on (no traceback)."""
    if isinstance(error, OSError):
        return f"{error.strerror or error} ({error.filename})" if error.filename else str(error)
    return str(error) or type(error).__name__
