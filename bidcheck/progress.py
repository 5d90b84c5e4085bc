"""The progress and cancel contract shared by every stage.

A stage takes ``progress(fraction, message)`` (a no-op by default) and a ``threading.Event``-like
cancel flag. ``slice_progress`` maps a stage onto its slice of the whole run.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from typing import Protocol

__all__ = [
    "CancelFlag",
    "Cancelled",
    "ProgressFn",
    "check_cancel",
    "ignore_interrupt",
    "no_progress",
    "slice_progress",
]

ProgressFn = Callable[[float, str], None]


class CancelFlag(Protocol):
    """Anything with ``is_set()``, such as ``threading.Event``."""

    def is_set(self) -> bool: ...


class Cancelled(Exception):
    """The user cancelled the check."""


def no_progress(fraction: float, message: str) -> None:
    """The default progress callback: ignores everything."""


def slice_progress(progress: ProgressFn, start: float, end: float) -> ProgressFn:
    """A callback that maps a stage's 0..1 onto ``start..end`` of the whole run."""

    def report(fraction: float, message: str) -> None:
        progress(start + (end - start) * min(max(fraction, 0.0), 1.0), message)

    return report


def check_cancel(cancel: CancelFlag | None) -> None:
    """Raise ``Cancelled`` when the flag is set."""
    if cancel is not None and cancel.is_set():
        raise Cancelled()


def ignore_interrupt() -> None:
    """Worker-process initializer: Ctrl-C reaches the whole process group, and only the main process acts
    on it (it drops the queued work and exits with 130); a worker that took it too would die printing a
    traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
