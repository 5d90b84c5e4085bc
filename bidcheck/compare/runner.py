"""Runs the comparison of every pair of bids, in worker processes when there are several.

Each pair with candidate windows gets its evidence passages, aligned in worker processes, which also
look each pair up in the cache first (``bidcheck.compare.memo``: the rows of remembered pairs are read
here before the workers are forked; each worker works out its pairs' keys, on its own core, and finds
them in its copy of the rows); the pairs aligned come back with their keys and are remembered here, one
entry a bid. Meanwhile the main process lists the passages of masked text every pair shares (exact runs
of all pairs at once, see ``bidcheck.compare.shared``). The app's check looks the pairs up here instead,
so that its memo keeps them for its next check.
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
from bidcheck.memo import memo_running
from bidcheck.process_limits import die_with_parent
from bidcheck.progress import CancelFlag, ProgressFn, check_cancel, ignore_interrupt, no_progress

__all__ = ["PairFound", "compare_pairs"]

_WORKER_INPUTS: tuple[Sequence[AlignInput], Settings, PairMemo | None] | None = None
_PAIRS_PER_TASK = 64
_POOL_MIN_WINDOWS = 400  # fewer candidate window pairs align faster here than worker processes start


@dataclass(frozen=True)
class PairFound:
    """What one pair shares: passages that may be evidence, and passages of masked text."""

    live: list[RawPassage]
    masked: list[RawPassage]
    failed: bool = False  # its worker process died twice while aligning it: not compared


Job = tuple[int, int, list[tuple[int, int]]]  # a pair and its candidate window pairs
Pair = tuple[int, int]
Compared = tuple[list[RawPassage], str | None]  # a pair's passages, and its key when aligned now


def _install(inputs: Sequence[AlignInput], settings: Settings, memo: PairMemo | None) -> None:
    """Worker initializer: each worker receives the documents once, not once per pair (and leaves Ctrl-C
    to the main process)."""
    global _WORKER_INPUTS
    ignore_interrupt()
    die_with_parent()  # a pool's worker waits for work forever once the main process is gone
    _WORKER_INPUTS = (inputs, settings, memo)


def _compare(inputs: Sequence[AlignInput], task: Job, settings: Settings, memo: PairMemo | None) -> Compared:
    """A pair's passages; with a ``memo``, looked up in its rows first, else aligned (with the pair's key,
    to remember them under)."""
    known = memo.known(task) if memo is not None else None
    if known is not None:
        return known, None
    i, j, window_pairs = task
    passages = align_pair(inputs[i], inputs[j], window_pairs, settings)
    return passages, memo.pair_key(task) if memo is not None else None


def _compare_in_worker(tasks: list[Job]) -> list[Compared]:
    assert _WORKER_INPUTS is not None, "worker started without its inputs"
    inputs, settings, memo = _WORKER_INPUTS
    return [_compare(inputs, task, settings, memo) for task in tasks]


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
    beside: Callable[[], None] = lambda: None,
) -> dict[tuple[int, int], PairFound]:
    """What every pair shares. Pairs sharing nothing are left out.

    Pairs verified before with the same inputs and settings are read from the cache (``PairMemo``); only
    the others are aligned, and then remembered. ``beside`` is called once the worker processes are
    started (before aligning here, without them): work of the caller's that a thread does meanwhile.
    """
    memo = PairMemo(inputs, settings)
    jobs = [(i, j, windows) for (i, j), windows in sorted(candidates.items())]
    here = memo_running()  # the app's memo keeps what this process reads and stores, for its next check
    memo.read_pair_rows()
    live = memo.load_pairs(jobs) if here else {}  # else each pair is looked up where it is aligned
    todo = [job for job in jobs if (job[0], job[1]) not in live]
    known, missing = memo.load_masked()

    def listed() -> dict[tuple[int, int], list[RawPassage]]:
        """The masked passages, those not remembered stored now (while the workers align, not after)."""
        if not missing:
            return known
        masked = known | all_masked_passages(inputs, settings, cancel, missing)
        memo.store_masked(missing, masked)
        return masked

    aligned, masked, failed = _verify(
        todo, inputs, settings, None if here else memo, (listed, beside), progress, cancel
    )
    keys = {pair: key for pair, (_, key) in aligned.items() if key is not None}
    passages = {pair: found for pair, (found, _) in aligned.items()}
    memo.store_pairs([job for job in todo if here or (job[0], job[1]) in keys], passages, keys)
    return _found(live | passages, masked, failed)


def _verify(
    tasks: list[Job],
    inputs: Sequence[AlignInput],
    settings: Settings,
    memo: PairMemo | None,
    meanwhile: tuple[Callable[[], dict[tuple[int, int], list[RawPassage]]], Callable[[], None]],
    progress: ProgressFn,
    cancel: CancelFlag | None,
) -> tuple[dict[Pair, Compared], dict[tuple[int, int], list[RawPassage]], frozenset[Pair]]:
    """Align the pairs of ``tasks`` (with a ``memo``: those it does not remember, see ``_compare``) and,
    ``meanwhile``, list the passages of masked text (in this process while the workers align) and begin
    the caller's work beside them: (passages and key by pair, masked passages by pair, pairs whose
    worker died twice)."""
    listed, beside = meanwhile
    live: dict[Pair, Compared] = {}
    if settings.worker_count <= 1 or sum(len(task[2]) for task in tasks) < _POOL_MIN_WINDOWS:
        beside()
        for done, task in enumerate(tasks, start=1):
            check_cancel(cancel)
            live[_pair(task)] = _compare(inputs, task, settings, memo)
            progress(done / len(tasks), "比对文件对")
        return live, listed(), frozenset()
    shared: dict[tuple[int, int], list[RawPassage]] = {}
    with ProcessPoolExecutor(
        settings.worker_count, initializer=_install, initargs=(inputs, settings, memo)
    ) as pool:
        futures = {
            pool.submit(_compare_in_worker, batch): batch for batch in _batches(tasks, settings.worker_count)
        }
        beside()  # the workers are forked by now: a thread begun before might hold a lock across the fork
        try:
            shared = listed()
            _collect(futures, live, len(tasks), progress, cancel)
        except BrokenProcessPool:  # a worker died (killed for memory, a native crash): see ``_one_by_one``
            pass
        except BaseException:  # interrupted or cancelled: the pool must not finish the queue first
            for future in futures:
                future.cancel()
            raise
    left = [task for task in tasks if _pair(task) not in live]
    failed = _one_by_one(left, inputs, settings, memo, live, cancel)
    return live, shared, failed


def _pair(task: Job) -> Pair:
    return task[0], task[1]


def _one_by_one(
    tasks: list[Job],
    inputs: Sequence[AlignInput],
    settings: Settings,
    memo: PairMemo | None,
    live: dict[Pair, Compared],
    cancel: CancelFlag | None,
) -> frozenset[tuple[int, int]]:
    """The pairs a dead worker left, each in a process of its own; those whose process dies again are
    returned (not compared), and every other pair's passages are in ``live``."""
    failed: set[tuple[int, int]] = set()
    pool: ProcessPoolExecutor | None = None
    for task in tasks:
        check_cancel(cancel)
        pool = pool or ProcessPoolExecutor(1, initializer=_install, initargs=(inputs, settings, memo))
        try:
            live[_pair(task)] = pool.submit(_compare_in_worker, [task]).result()[0]
        except BrokenProcessPool:
            failed.add(_pair(task))
            pool.shutdown(wait=False)
            pool = None
    if pool is not None:
        pool.shutdown()
    return frozenset(failed)


def _batches(tasks: list[Job], workers: int) -> list[list[Job]]:
    """Pairs in batches: few enough to keep the pool's overhead low, many enough to share the work."""
    size = max(1, min(_PAIRS_PER_TASK, len(tasks) // (workers * 8)))
    return [tasks[x : x + size] for x in range(0, len(tasks), size)]


def _collect(
    futures: dict[Future[list[Compared]], list[Job]],
    out: dict[Pair, Compared],
    total: int,
    progress: ProgressFn,
    cancel: CancelFlag | None,
) -> None:
    """Each batch's passages into ``out`` as it completes (what completed stays there if one fails)."""
    for future in as_completed(futures):
        check_cancel(cancel)
        for task, found in zip(futures[future], future.result(), strict=True):
            out[_pair(task)] = found
        progress(len(out) / total, "比对文件对")
