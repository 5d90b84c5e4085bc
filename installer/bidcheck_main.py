"""The frozen app's one entry point: ``bidcheck`` (command line) and ``bidcheck-gui`` (the window).

Both programs of the folder run this script; the name of the program started decides which. Worker
processes (the OCR pool starts them with ``spawn``, and every pool does on Windows) re-run the program
with their own arguments, which ``freeze_support`` recognises and serves before anything else runs.
"""

from __future__ import annotations

import io
import multiprocessing
import sys
from collections.abc import Callable
from pathlib import Path


def _run_windowed(run: Callable[[], None]) -> None:
    """Run a program that has no console (``bidcheck-gui`` on Windows): what it would have said on
    stderr before exiting with an error (a file that is gone, say) is shown in a message box."""
    sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
    try:
        run()
    except SystemExit as exc:
        said = sys.stderr.getvalue().strip()
        if exc.code and said and sys.platform == "win32":
            import ctypes

            ctypes.windll.user32.MessageBoxW(None, said, "bidcheck", 0x10)
        raise


def main() -> None:
    """Run the window for ``bidcheck-gui``, else the command line."""
    multiprocessing.freeze_support()
    from bidcheck.cli import run, run_gui

    start = run_gui if Path(sys.executable).stem.lower() == "bidcheck-gui" else run
    if sys.stderr is None:
        _run_windowed(start)
    else:
        start()


if __name__ == "__main__":
    main()
