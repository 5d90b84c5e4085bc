"""The OCR stage of a check: the pages of every file that wait for OCR, spread over the cores.

Readers that run with ``OcrOptions(defer=True)`` leave scanned pages that are not cached yet and say which
(``OcrNeeded``). ``recognize_pages`` then recognises all those pages, of all files together, in worker
processes (two cores to a process, ``ocr_processes``; a page image found in several files, such as the
same certificate in several bids, is recognised once), reports progress per page (pages done of all,
and the time left at the pace so far) and checks the cancel flag while they work (cancel stops the
workers at once). Results land in the OCR cache, from which the files are then read again. A worker
holds ``PAGES_AT_ONCE`` pages, each in a thread, so that one page's serial steps (rendering, finding and
cutting out its lines) run while another's lines are recognised; its engine loads while its first pages
render (``load_engine_soon``). A page that takes longer than the time limit, or whose worker dies, is
given up: the files are read again without it (``OcrOptions.unread``; a worker that dies holding two
pages has each tried again alone first).
"""

from __future__ import annotations

import ctypes
import functools
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bidcheck.ingest.scan import OcrTask, recognize_task
from bidcheck.progress import CancelFlag, ProgressFn, no_progress
from bidcheck.workers import Lost, run_tasks, spawn_without_main

__all__ = ["PAGES_AT_ONCE", "keep_freed_memory", "ocr_message", "recognize_pages", "same_images", "time_left"]

# Pages a worker holds at once, each in a thread: one page is rendered, its lines found and cut out while
# another's lines are recognised, and the recogniser's streams take the batches of both in turn, so that
# no core waits on a page's serial steps (``bench/ocr.py``; docs/usage.md, "Scans").
PAGES_AT_ONCE = 2
# glibc's mallopt parameters: memory freed is kept for the process's next allocations, never handed back
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_KEEP_ABOVE = (1 << 31) - 1  # bytes free at the top of a heap before it is handed back (C int: 2 GB)
_MMAP_ABOVE = 32 << 20  # allocations up to this size come from the heaps (glibc's largest threshold)


def time_left(seconds: float) -> str:
    """A time still to wait, in a user's words, rounded as an estimate should be."""
    if seconds < 57.5:
        return f"约 {max(5, round(seconds / 5) * 5)} 秒"
    hours, minutes = divmod(max(1, round(seconds / 60)), 60)
    if not hours:
        return f"约 {minutes} 分钟"
    return f"约 {hours} 小时" + (f" {minutes} 分钟" if minutes else "")


def ocr_message(task: OcrTask, done: int, total: int, elapsed_s: float) -> str:
    """The OCR stage's progress line: pages done of all, the time left at the pace so far, the page."""
    left = f"，剩余{time_left(elapsed_s / done * (total - done))}" if 0 < done < total else ""
    return (
        f"文字识别（OCR）{done}/{total} 页{left}：{Path(task.path).name} 第 {task.page + 1}/{task.pages} 页"
    )


def _recognize_quietly(task: OcrTask, engine: str, threads: int) -> str | None:
    """Recognise one page; a failure is returned as text (the reader meets it again and reports it)."""
    keep_freed_memory()
    try:
        recognize_task(task, engine, threads)
    except Exception as exc:  # one bad page must not stop the others
        return f"{type(exc).__name__}: {exc}"
    return None


@functools.cache
def keep_freed_memory() -> bool:
    """Have the C allocator keep the memory this process frees for its next allocations (glibc only);
    whether it could be told.

    A page's OCR allocates and frees tens of MB of arrays (the page, the detector's maps, the runtime's
    buffers for each batch's shape); glibc hands large blocks back to the system as they are freed, and
    memory the system hands out anew is slow to touch on a virtual machine (100 MB of new memory took
    0.5-1.2 CPU s the first time in a fresh process on the measuring machine, 0.02 s again). An OCR
    worker reads page after page of much the same size, so it keeps what it freed: a page then took
    25,500-27,400 new pages of memory from the system instead of 31,200-36,800 (docs/benchmarks/).
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    return bool(mallopt(_M_TRIM_THRESHOLD, _KEEP_ABOVE)) and bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_ABOVE))


def recognize_pages(
    tasks: Sequence[OcrTask],
    engine: str,
    workers: int,
    progress: ProgressFn = no_progress,
    cancel: CancelFlag | None = None,
    *,
    time_limit_s: float | None = None,
    memory_mb: int = 0,
    at_once: int = PAGES_AT_ONCE,
) -> dict[OcrTask, str]:
    """Recognise pages into the OCR cache in worker processes (``ocr_processes``: two cores to each).

    Args:
        tasks: The pages.
        engine: The OCR engine's name.
        workers: The cores to use (1: one process, using every core for each page).
        progress: Called after each page recognised (a page image found in several files counts as
            that many pages).
        cancel: Checked every 0.2 s while pages are recognised; when set, the workers are stopped and
            ``Cancelled`` is raised.
        time_limit_s: A page taking longer is given up (its worker stopped).
        memory_mb: Memory each worker may use (``bidcheck.process_limits.cap_memory``); 0: no cap.
        at_once: Pages a worker holds at once (``PAGES_AT_ONCE``), each in a thread.

    Returns:
        The pages given up, each with the reason in a user's words: past the time limit, or its worker
        died or ran out of memory. The other pages' results are in the cache.
    """
    if not tasks:
        return {}
    processes, threads = ocr_processes(workers)
    groups = same_images(tasks)
    done = 0
    started = time.monotonic()

    def finished(index: int, _outcome: object) -> None:
        nonlocal done
        done += len(groups[index])
        elapsed = time.monotonic() - started
        progress(done / len(tasks), ocr_message(tasks[groups[index][0]], done, len(tasks), elapsed))

    outcomes = run_tasks(
        _recognize_quietly,
        [(tasks[group[0]], engine, threads) for group in groups],
        processes,
        finished,
        cancel=cancel,
        # spawned, not forked: the runtimes are not safe to use in a forked copy of a process that loaded
        # them; without importing the app's main module (its window) in each worker
        context=spawn_without_main(),
        memory_mb=memory_mb,
        time_limit_s=time_limit_s,
        at_once=at_once,
    )
    return {
        tasks[index]: _given_up(outcome, time_limit_s)
        for group, outcome in zip(groups, outcomes, strict=True)
        if isinstance(outcome, Lost)
        for index in group
    }


def ocr_processes(workers: int) -> tuple[int, int]:
    """How many OCR processes for ``workers`` cores, and the threads each runs (0: all cores).

    Two cores to a process: on 2 cores one process running the models on both recognised 16 dense
    pages in 12.0–13.7 s where two single-threaded processes took 17.9–18.4 s (they contend for the
    cores' caches; ``bench/ocr.py``)."""
    processes = max(1, workers // 2)
    return processes, 0 if processes == 1 else 2


def same_images(tasks: Sequence[OcrTask]) -> list[list[int]]:
    """The tasks (their indexes) grouped by page image, in the order first seen; a task whose page image
    is not known is a group of its own."""
    groups: dict[str, list[int]] = {}
    for index, task in enumerate(tasks):
        groups.setdefault(task.image or f"#{index}", []).append(index)
    return list(groups.values())


def _given_up(lost: Lost, time_limit_s: float | None) -> str:
    """Why a page was given up, in a user's words."""
    if lost.reason == "timeout":
        return f"文字识别超时（超过 {time_limit_s:g} 秒）"
    if lost.reason == "memory":
        return "文字识别时内存不足"
    return "文字识别时程序异常退出"
