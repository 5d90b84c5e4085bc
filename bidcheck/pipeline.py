"""The one entry point: ``check(inputs, settings, progress, cancel) -> CheckResult``."""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bidcheck.compare import AlignInput, align_inputs, candidate_window_pairs, compare_pairs
from bidcheck.compare.candidates import mostly_open_windows
from bidcheck.config import Settings
from bidcheck.evidence import find_groups
from bidcheck.evidence.masks import shared_masks
from bidcheck.gcpause import collector_paused
from bidcheck.ingest import collect_paths
from bidcheck.ingest.ocr_batch import recognize_pages
from bidcheck.ingest.registry import error_document
from bidcheck.judge import judge_all
from bidcheck.model import CheckResult, Document, Role
from bidcheck.prepare import Prepared, Ready, prepare_cached
from bidcheck.progress import (
    CancelFlag,
    ProgressFn,
    check_cancel,
    ignore_interrupt,
    no_progress,
    slice_progress,
)

__all__ = ["CheckInputs", "check"]


@dataclass(frozen=True)
class CheckInputs:
    """The files of one tender section: bids (files or folders), tender documents and templates."""

    bids: Sequence[Path]
    tenders: Sequence[Path] = field(default_factory=tuple)
    templates: Sequence[Path] = field(default_factory=tuple)


@dataclass(frozen=True)
class _Job:
    path: Path
    doc_id: str
    role: Role


def _jobs(inputs: CheckInputs) -> tuple[list[_Job], list[Document]]:
    """One job per distinct file; a file given twice becomes an error document the second time."""
    jobs: list[_Job] = []
    duplicates: list[Document] = []
    seen: dict[Path, str] = {}
    groups: tuple[tuple[Sequence[Path], Role], ...] = (
        (inputs.bids, "bid"),
        (inputs.tenders, "tender"),
        (inputs.templates, "template"),
    )
    for paths, role in groups:
        for path in collect_paths(paths):
            doc_id = f"d{len(jobs) + len(duplicates) + 1}"
            key = path.resolve() if path.exists() else path.absolute()
            if key in seen:
                first = next(j.path.name for j in jobs if j.doc_id == seen[key])
                duplicates.append(
                    replace(error_document(path, doc_id, f"重复添加：与 {first} 是同一个文件"), role=role)
                )
                continue
            seen[key] = doc_id
            jobs.append(_Job(path, doc_id, role))
    return jobs, duplicates


def _prepare_all(
    jobs: list[_Job], settings: Settings, progress: ProgressFn, cancel: CancelFlag | None
) -> list[Prepared]:
    """Read every file; scanned pages are then recognised together (all cores) and their files read again."""
    prepared = _prepare_jobs(jobs, settings, slice_progress(progress, 0.0, 0.5), cancel, defer_ocr=True)
    waiting = [i for i, p in enumerate(prepared) if p.ocr_tasks]
    if waiting:
        tasks = [task for i in waiting for task in prepared[i].ocr_tasks]
        ocr_progress = slice_progress(progress, 0.5, 0.95)
        recognize_pages(tasks, settings.ocr_engine, settings.worker_count, ocr_progress, cancel)
        again = _prepare_jobs(
            [jobs[i] for i in waiting], settings, slice_progress(progress, 0.95, 1.0), cancel
        )
        for i, done in zip(waiting, again, strict=True):
            prepared[i] = done
    return prepared


def _prepare_jobs(
    jobs: list[_Job],
    settings: Settings,
    progress: ProgressFn,
    cancel: CancelFlag | None,
    defer_ocr: bool = False,
) -> list[Prepared]:
    if settings.worker_count <= 1 or len(jobs) < 3:
        out = []
        for done, job in enumerate(jobs, start=1):
            check_cancel(cancel)
            out.append(prepare_cached(job.path, job.doc_id, job.role, settings, defer_ocr=defer_ocr))
            progress(done / len(jobs), f"读取 {job.path.name}")
        return out
    with ProcessPoolExecutor(min(settings.worker_count, len(jobs)), initializer=ignore_interrupt) as pool:
        futures = [
            pool.submit(prepare_cached, j.path, j.doc_id, j.role, settings, defer_ocr=defer_ocr) for j in jobs
        ]
        out = []
        try:
            for done, (job, future) in enumerate(zip(jobs, futures, strict=True), start=1):
                check_cancel(cancel)
                out.append(future.result())
                progress(done / len(jobs), f"读取 {job.path.name}")
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        return out


def _usable(x: AlignInput, ready: Ready, settings: Settings) -> tuple[npt.NDArray[np.bool_], list[bool]]:
    """The k-grams and windows of a bid that may find candidates: k-grams outside its masked text and
    no stock phrase; windows mostly outside its masked text (stock phrases are part of any prose)."""
    unmasked = x.unmasked
    windows = mostly_open_windows(unmasked, ready.fingerprint.window_starts, settings.window_chars)
    return x.open, windows


class _Stopwatch:
    """Wall seconds per stage, in the order the stages ran."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.seconds[stage] = self.seconds.get(stage, 0.0) + now - self._last
        self._last = now


def check(
    inputs: CheckInputs,
    settings: Settings | None = None,
    progress: ProgressFn = no_progress,
    cancel: CancelFlag | None = None,
) -> CheckResult:
    """Check one tender section: read every file, compare every pair of bids, judge and group them."""
    settings = settings or Settings()
    started = time.perf_counter()
    watch = _Stopwatch()
    jobs, duplicates = _jobs(inputs)
    prepared = _prepare_all(jobs, settings, slice_progress(progress, 0.0, 0.6), cancel)
    watch.lap("read")
    with collector_paused():
        return _compare_and_judge(prepared, duplicates, settings, progress, cancel, watch, started)


def _compare_and_judge(
    prepared: list[Prepared],
    duplicates: list[Document],
    settings: Settings,
    progress: ProgressFn,
    cancel: CancelFlag | None,
    watch: _Stopwatch,
    started: float,
) -> CheckResult:
    ready = [p.ready for p in prepared if p.ready is not None]
    bids = [r for r in ready if r.doc.role == "bid"]
    templates = [r for r in ready if r.doc.role != "bid"]
    check_cancel(cancel)
    progress(0.6, "建立候选索引")
    masks = shared_masks(bids, templates, settings)
    aligned = align_inputs(
        bids, [masks.unaligned(i) for i in range(len(bids))], masks.stock, settings.seed_chars
    )
    candidates = candidate_window_pairs(
        [b.fingerprint.windows for b in bids],
        [b.fingerprint.kgrams for b in bids],
        settings.window_stride,
        settings.lsh_threshold,
        settings.num_perm,
        [_usable(x, b, settings) for x, b in zip(aligned, bids, strict=True)],
    )
    watch.lap("candidates")
    found = compare_pairs(aligned, candidates, settings, slice_progress(progress, 0.62, 0.95), cancel)
    watch.lap("verify")
    check_cancel(cancel)
    progress(0.95, "判定与分组")
    pairs = judge_all(bids, masks, found, settings)
    groups = find_groups(pairs)
    watch.lap("judge")
    documents = sorted([p.doc for p in prepared] + duplicates, key=lambda d: int(d.id[1:]))
    progress(1.0, "完成")
    return CheckResult(
        settings.to_dict(),
        time.perf_counter() - started,
        tuple(documents),
        tuple(pairs),
        tuple(groups),
        watch.seconds,
    )
