"""Runs the verification of every candidate pair, in worker processes when there are several."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed

from bidcheck.compare.align import AlignInput, RawPassage, align_pair
from bidcheck.compare.candidates import WindowPairs
from bidcheck.config import Settings
from bidcheck.progress import CancelFlag, ProgressFn, check_cancel, no_progress

__all__ = ["compare_pairs"]

PairPassages = dict[tuple[int, int], list[RawPassage]]
_WORKER_INPUTS: tuple[Sequence[AlignInput], Settings] | None = None


def _install(inputs: Sequence[AlignInput], settings: Settings) -> None:
    """Worker initializer: each worker receives the documents once, not once per pair."""
    global _WORKER_INPUTS
    _WORKER_INPUTS = (inputs, settings)


def _align_in_worker(i: int, j: int, window_pairs: list[tuple[int, int]]) -> list[RawPassage]:
    assert _WORKER_INPUTS is not None, "worker started without its inputs"
    inputs, settings = _WORKER_INPUTS
    return align_pair(inputs[i], inputs[j], window_pairs, settings)


def compare_pairs(
    inputs: Sequence[AlignInput],
    candidates: WindowPairs,
    settings: Settings,
    progress: ProgressFn = no_progress,
    cancel: CancelFlag | None = None,
) -> PairPassages:
    """Passages of every candidate pair. Pairs without candidates share nothing and are left out."""
    total = max(len(candidates), 1)
    out: PairPassages = {}
    if settings.worker_count <= 1 or len(candidates) < 4:
        for done, ((i, j), window_pairs) in enumerate(candidates.items(), start=1):
            check_cancel(cancel)
            out[(i, j)] = align_pair(inputs[i], inputs[j], window_pairs, settings)
            progress(done / total, "比对文件对")
        return out
    with ProcessPoolExecutor(
        settings.worker_count, initializer=_install, initargs=(inputs, settings)
    ) as pool:
        return _run_in_pool(pool, candidates, progress, cancel)


def _run_in_pool(
    pool: Executor, candidates: WindowPairs, progress: ProgressFn, cancel: CancelFlag | None
) -> PairPassages:
    futures = {pool.submit(_align_in_worker, i, j, wp): (i, j) for (i, j), wp in candidates.items()}
    out: PairPassages = {}
    try:
        for done, future in enumerate(as_completed(futures), start=1):
            check_cancel(cancel)
            out[futures[future]] = future.result()
            progress(done / len(futures), "比对文件对")
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    return out
