"""Runs the comparison of every pair of bids, in worker processes when there are several.

Each pair gets its evidence passages (aligned from its candidate windows, outside the masked text) and
its passages of masked text (exact runs, see ``bidcheck.compare.shared``).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from bidcheck.compare.align import AlignInput, RawPassage, align_pair
from bidcheck.compare.candidates import WindowPairs
from bidcheck.compare.shared import masked_passages
from bidcheck.config import Settings
from bidcheck.progress import CancelFlag, ProgressFn, check_cancel, no_progress

__all__ = ["PairFound", "compare_pairs"]

_WORKER_INPUTS: tuple[Sequence[AlignInput], Settings] | None = None
_PAIRS_PER_TASK = 64


@dataclass(frozen=True)
class PairFound:
    """What one pair shares: passages that may be evidence, and passages of masked text."""

    live: list[RawPassage]
    masked: list[RawPassage]


Job = tuple[int, int, list[tuple[int, int]]]


def _install(inputs: Sequence[AlignInput], settings: Settings) -> None:
    """Worker initializer: each worker receives the documents once, not once per pair."""
    global _WORKER_INPUTS
    _WORKER_INPUTS = (inputs, settings)


def _compare(inputs: Sequence[AlignInput], job: Job, settings: Settings) -> PairFound:
    i, j, window_pairs = job
    a, b = inputs[i], inputs[j]
    live = align_pair(a, b, window_pairs, settings) if window_pairs else []
    return PairFound(live, masked_passages(a, b, settings))


def _compare_in_worker(jobs: list[Job]) -> list[PairFound]:
    assert _WORKER_INPUTS is not None, "worker started without its inputs"
    inputs, settings = _WORKER_INPUTS
    return [_compare(inputs, job, settings) for job in jobs]


def _jobs(inputs: Sequence[AlignInput], candidates: WindowPairs) -> list[Job]:
    """Every pair with candidates, and every pair whose two sides both hold masked text."""
    has_masked = [x.masked is not None and bool(x.masked.any()) for x in inputs]
    return [
        (i, j, candidates.get((i, j), []))
        for i in range(len(inputs))
        for j in range(i + 1, len(inputs))
        if (i, j) in candidates or (has_masked[i] and has_masked[j])
    ]


def compare_pairs(
    inputs: Sequence[AlignInput],
    candidates: WindowPairs,
    settings: Settings,
    progress: ProgressFn = no_progress,
    cancel: CancelFlag | None = None,
) -> dict[tuple[int, int], PairFound]:
    """What every pair shares. Pairs sharing nothing are left out."""
    jobs = _jobs(inputs, candidates)
    out: dict[tuple[int, int], PairFound] = {}
    if settings.worker_count <= 1 or len(jobs) < 4:
        for done, job in enumerate(jobs, start=1):
            check_cancel(cancel)
            out[(job[0], job[1])] = _compare(inputs, job, settings)
            progress(done / len(jobs), "比对文件对")
        return out
    with ProcessPoolExecutor(
        settings.worker_count, initializer=_install, initargs=(inputs, settings)
    ) as pool:
        return _run_in_pool(pool, _batches(jobs, settings.worker_count), len(jobs), progress, cancel)


def _batches(jobs: list[Job], workers: int) -> list[list[Job]]:
    """Jobs in batches: few enough to keep the pool's overhead low, many enough to share the work."""
    size = max(1, min(_PAIRS_PER_TASK, len(jobs) // (workers * 8)))
    return [jobs[x : x + size] for x in range(0, len(jobs), size)]


def _run_in_pool(
    pool: Executor, batches: list[list[Job]], total: int, progress: ProgressFn, cancel: CancelFlag | None
) -> dict[tuple[int, int], PairFound]:
    futures = {pool.submit(_compare_in_worker, batch): batch for batch in batches}
    out: dict[tuple[int, int], PairFound] = {}
    try:
        for future in as_completed(futures):
            check_cancel(cancel)
            for job, found in zip(futures[future], future.result(), strict=True):
                out[(job[0], job[1])] = found
            progress(len(out) / total, "比对文件对")
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    return out
