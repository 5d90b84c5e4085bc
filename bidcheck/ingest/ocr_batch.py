"""The OCR stage of a check: the pages of every file that wait for OCR, spread over the cores.

Readers that run with ``OcrOptions(defer=True)`` leave scanned pages that are not cached yet and say which
(``OcrNeeded``). ``recognize_pages`` then recognises all those pages, of all files together, in worker
processes (one onnxruntime thread each, so every core works on its own page), reports progress per page
and checks the cancel flag while they work (cancel stops the workers at once). Results land in the OCR
cache, from which the files are then read again. With one worker the pages are recognised in this
process, using every core for each page.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from multiprocessing.pool import AsyncResult
from pathlib import Path

from bidcheck.ingest.scan import OcrTask, recognize_task
from bidcheck.progress import CancelFlag, ProgressFn, check_cancel, ignore_interrupt, no_progress

__all__ = ["recognize_pages"]

_POLL_S = 0.2  # how often the cancel flag is looked at while pages are being recognised


def _message(task: OcrTask) -> str:
    return f"文字识别（OCR）{Path(task.path).name} 第 {task.page + 1}/{task.pages} 页"


def _recognize_quietly(task: OcrTask, engine: str, threads: int) -> str | None:
    """Recognise one page; a failure is returned as text (the reader meets it again and reports it)."""
    try:
        recognize_task(task, engine, threads)
    except Exception as exc:  # one bad page must not stop the others
        return f"{type(exc).__name__}: {exc}"
    return None


def recognize_pages(
    tasks: Sequence[OcrTask],
    engine: str,
    workers: int,
    progress: ProgressFn = no_progress,
    cancel: CancelFlag | None = None,
) -> None:
    """Recognise pages into the OCR cache, ``workers`` pages at a time.

    Args:
        tasks: The pages.
        engine: The OCR engine's name.
        workers: Worker processes (1: in this process).
        progress: Called after each page.
        cancel: Checked between pages (and every 0.2 s while pages are recognised in workers); when set,
            the workers are stopped and ``Cancelled`` is raised.
    """
    if not tasks:
        return
    if workers <= 1 or len(tasks) == 1:
        for done, task in enumerate(tasks, start=1):
            check_cancel(cancel)
            _recognize_quietly(task, engine, 0)
            progress(done / len(tasks), _message(task))
        return
    # spawned, not forked: onnxruntime is not safe to use in a forked copy of a process that loaded it
    pool = multiprocessing.get_context("spawn").Pool(min(workers, len(tasks)), initializer=ignore_interrupt)
    try:
        running = [(pool.apply_async(_recognize_quietly, (task, engine, 1)), task) for task in tasks]
        _collect(running, len(tasks), progress, cancel)
        pool.close()
    except BaseException:
        pool.terminate()  # on cancel, pages being recognised are dropped at once (results are written whole)
        raise
    finally:
        pool.join()


def _collect(
    running: list[tuple[AsyncResult[str | None], OcrTask]],
    total: int,
    progress: ProgressFn,
    cancel: CancelFlag | None,
) -> None:
    done = 0
    while running:
        check_cancel(cancel)
        running[0][0].wait(_POLL_S)
        for result, task in [r for r in running if r[0].ready()]:
            result.get()
            done += 1
            progress(done / total, _message(task))
        running = [r for r in running if not r[0].ready()]
