"""Runs the comparison of every pair of bids, in worker processes when there are several.

Each pair with candidate windows gets its evidence passages, aligned in worker processes; meanwhile the
main process lists the passages of masked text every pair shares (exact runs of all pairs at once, see
``bidcheck.compare.shared``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from bidcheck.compare.align import align_pair
from bidcheck.compare.candidates import WindowPairs
from bidcheck.compare.inputs import AlignInput
from bidcheck.compare.memo import PairMemo
from bidcheck.compare.passage import RawPassage
from bidcheck.compare.shared import all_masked_passages
from bidcheck.config import Settings
from bidcheck.progress import CancelFlag, ProgressFn, check_cancel, ignore_interrupt, no_progress

__all__ = ["PairFound", "compare_pairs"]

_WORKER_INPUTS: tuple[Sequence[AlignInput], Settings] | None = None
_PAIRS_PER_TASK = 64
_POOL_MIN_WINDOWS = 400  # fewer candidate window pairs align faster here than worker processes start


@dataclass(frozen=True)
class PairFound:
    """What one pair shares: passages that may be evidence, and passages of masked text."""

    live: list[RawPassage]
    masked: list[RawPassage]
    failed: bool = False  # its worker process died twice while aligning it: not compared


Job = tuple[int, int, list[tuple[int, int]]]
Pair = tuple[int, int]


def _install(inputs: Sequence[AlignInput], settings: Settings) -> None:
    """Worker initializer: each worker receives the documents once, not once per pair (and leaves Ctrl-C
    to the main process)."""
    global _WORKER_INPUTS
    ignore_interrupt()
    _WORKER_INPUTS = (inputs, settings)


def _compare(inputs: Sequence[AlignInput], job: Job, settings: Settings) -> list[RawPassage]:
    i, j, window_pairs = job
    return align_pair(inputs[i], inputs[j], window_pairs, settings)


def _compare_in_worker(jobs: list[Job]) -> list[list[RawPassage]]:
    assert _WORKER_INPUTS is not None, "worker started without its inputs"
    inputs, settings = _WORKER_INPUTS
    return [_compare(inputs, job, settings) for job in jobs]


def _found(
    live: dict[tuple[int, int], list[RawPassage]],
    masked: dict[tuple[int, int], list[RawPassage]],
    failed: frozenset[tuple[int, int]] = frozenset(),
) -> dict[tuple[int, int], PairFound]:
    keys = sorted(live.keys() | masked.keys() | failed)
    return {key: PairFound(live.get(key, []), masked.get(key, []), key in failed) for key in keys}


def compare_pairs(
    inputs: Sequence[AlignInput],
    candidates: WindowPairs,
    settings: Settings,
    progress: ProgressFn = no_progress,
    cancel: CancelFlag | None = None,
) -> dict[tuple[int, int], PairFound]:
    """What every pair shares. Pairs sharing nothing are left out.

    Pairs verified before with the same inputs and settings are read from the cache (``PairMemo``); only
    the others are aligned, and then remembered.
    """
    memo = PairMemo(inputs, settings)
    jobs = [(i, j, windows) for (i, j), windows in sorted(candidates.items())]
    live = memo.load_pairs(jobs)
    todo = [job for job in jobs if (job[0], job[1]) not in live]
    known, missing = memo.load_masked()

    def listed() -> dict[tuple[int, int], list[RawPassage]]:
        return known | all_masked_passages(inputs, settings, cancel, missing) if missing else known

    aligned, masked, failed = _verify(todo, inputs, settings, listed, progress, cancel)
    memo.store_pairs(todo, aligned)
    memo.store_masked(missing, masked)
    return _found(live | aligned, masked, failed)


def _verify(
    jobs: list[Job],
    inputs: Sequence[AlignInput],
    settings: Settings,
    listed: Callable[[], dict[tuple[int, int], list[RawPassage]]],
    progress: ProgressFn,
    cancel: CancelFlag | None,
) -> tuple[dict[tuple[int, int], list[RawPassage]], dict[tuple[int, int], list[RawPassage]], frozenset[Pair]]:
    """Align the pairs of ``jobs`` and list the passages of masked text (``listed``, in this process while
    the workers align): (passages by pair, masked passages by pair, pairs whose worker died twice)."""
    live: dict[tuple[int, int], list[RawPassage]] = {}
    if settings.worker_count <= 1 or sum(len(job[2]) for job in jobs) < _POOL_MIN_WINDOWS:
        for done, job in enumerate(jobs, start=1):
            check_cancel(cancel)
            live[(job[0], job[1])] = _compare(inputs, job, settings)
            progress(done / len(jobs), "比对文件对")
        return live, listed(), frozenset()
    shared: dict[tuple[int, int], list[RawPassage]] = {}
    with ProcessPoolExecutor(
        settings.worker_count, initializer=_install, initargs=(inputs, settings)
    ) as pool:
        futures = {
            pool.submit(_compare_in_worker, batch): batch for batch in _batches(jobs, settings.worker_count)
        }
        try:
            shared = listed()
            _collect(futures, live, len(jobs), progress, cancel)
        except BrokenProcessPool:  # a worker died (killed for memory, a native crash): see ``_one_by_one``
            pass
        except BaseException:  # interrupted or cancelled: the pool must not finish the queue first
            for future in futures:
                future.cancel()
            raise
    failed = _one_by_one(
        [job for job in jobs if (job[0], job[1]) not in live], inputs, settings, live, cancel
    )
    return live, shared, failed


def _one_by_one(
    jobs: list[Job],
    inputs: Sequence[AlignInput],
    settings: Settings,
    live: dict[tuple[int, int], list[RawPassage]],
    cancel: CancelFlag | None,
) -> frozenset[tuple[int, int]]:
    """The pairs a dead worker left, each in a process of its own; those whose process dies again are
    returned (not compared), and every other pair's passages are in ``live``."""
    failed: set[tuple[int, int]] = set()
    pool: ProcessPoolExecutor | None = None
    for job in jobs:
        check_cancel(cancel)
        pool = pool or ProcessPoolExecutor(1, initializer=_install, initargs=(inputs, settings))
        try:
            live[(job[0], job[1])] = pool.submit(_compare_in_worker, [job]).result()[0]
        except BrokenProcessPool:
            failed.add((job[0], job[1]))
            pool.shutdown(wait=False)
            pool = None
    if pool is not None:
        pool.shutdown()
    return frozenset(failed)


def _batches(jobs: list[Job], workers: int) -> list[list[Job]]:
    """Jobs in batches: few enough to keep the pool's overhead low, many enough to share the work."""
    size = max(1, min(_PAIRS_PER_TASK, len(jobs) // (workers * 8)))
    return [jobs[x : x + size] for x in range(0, len(jobs), size)]


def _collect(
    futures: dict[Future[list[list[RawPassage]]], list[Job]],
    out: dict[tuple[int, int], list[RawPassage]],
    total: int,
    progress: ProgressFn,
    cancel: CancelFlag | None,
) -> None:
    """Each batch's passages into ``out`` as it completes (what completed stays there if one fails)."""
    for future in as_completed(futures):
        check_cancel(cancel)
        for job, found in zip(futures[future], future.result(), strict=True):
            out[(job[0], job[1])] = found
        progress(len(out) / total, "比对文件对")
