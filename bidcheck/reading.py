"""Reading a section's files: one job a distinct bid (a file, or a bidder's folder) and each tender
and template file, read in worker processes one file cannot take down (the largest first, the cache's
first), scanned pages recognised together after, and what this process does beside the reading
processes (the tables they share, the stages after reading imported: ``LATER_STAGES``)."""

from __future__ import annotations

import contextlib
import contextvars
import functools
import importlib
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from threadpoolctl import threadpool_limits

from bidcheck.config import Settings
from bidcheck.fingerprint import load_tables
from bidcheck.fingerprint.simhash import load_idf_table
from bidcheck.fingerprint.tokens import load_tokenizer
from bidcheck.fingerprint.wordkeys import load_word_keys
from bidcheck.ingest import SUPPORTED_SUFFIXES, collect_paths, collect_sources
from bidcheck.ingest.errors import OUT_OF_MEMORY, READER_DIED
from bidcheck.ingest.folder import bidder_files, source_size
from bidcheck.ingest.ocr_batch import recognize_pages
from bidcheck.ingest.registry import error_document
from bidcheck.model import Role
from bidcheck.prepare import Pickled, load_prepared, prepare_stored, remember_read
from bidcheck.process_limits import default_memory_mb
from bidcheck.progress import CancelFlag, ProgressFn, check_cancel, slice_progress
from bidcheck.ready import Prepared
from bidcheck.signals.identifier import remembered_identifiers
from bidcheck.workers import Ahead, Lost, can_fork, run_tasks

__all__ = [
    "LATER_STAGES",
    "Alongside",
    "CheckInputs",
    "Job",
    "import_later_stages",
    "prepare_all",
    "read_job",
    "section_jobs",
    "share_tables",
    "take_tables",
    "workers_leave_a_core",
]

# The stages after reading, imported while the reading processes read (``import_later_stages``), not
# before they are forked: a cold check's reading then begins sooner (0.07 CPU s at 100 bids). Each
# stage's function imports what it uses from them.
LATER_STAGES = (
    "bidcheck.compare",
    "bidcheck.compare.candidates",
    "bidcheck.compare.kept",
    "bidcheck.evidence",
    "bidcheck.evidence.masks",
    "bidcheck.judge",
    "bidcheck.library.history",
    "bidcheck.library.prints",
    "bidcheck.library.store",
    "bidcheck.semantic",
)


def import_later_stages() -> None:
    """Import the stages after reading (``LATER_STAGES``; nothing when they are imported already)."""
    for name in LATER_STAGES:
        importlib.import_module(name)


@dataclass(frozen=True)
class CheckInputs:
    """The files of one tender section: bids (files, or section folders: their files one bid each, their
    sub-folders one bidder each), tender documents, templates, and bidders' folders given one by one."""

    bids: Sequence[Path]
    tenders: Sequence[Path] = field(default_factory=tuple)
    templates: Sequence[Path] = field(default_factory=tuple)
    bidders: Sequence[Path] = field(default_factory=tuple)

    def bid_count(self) -> int:
        """How many bids the check compares (a file or a bidder's folder each)."""
        return len(collect_sources(self.bids)) + len(self.bidders)

    def bid_files(self) -> list[Path]:
        """Every file of the bids, folders expanded, each once (what the section is made of, to size it)."""
        return list({_key(p): p for p in collect_paths([*self.bids, *self.bidders])}.values())


@dataclass(frozen=True)
class Job:
    path: Path
    doc_id: str
    role: Role


def _key(path: Path) -> Path:
    return path.resolve() if path.exists() else path.absolute()


def _named(path: Path, named: set[Path]) -> bool:
    """Whether a bid found is a file named as the tender or a template, or a folder holding only such."""
    if not path.is_dir():
        return _key(path) in named
    files = bidder_files(path, SUPPORTED_SUFFIXES)
    return bool(files) and all(_key(f) in named for f in files)


def section_jobs(inputs: CheckInputs) -> tuple[list[Job], list[tuple[str, str]]]:
    """One job per distinct bid (a file, or a bidder's folder); a file given twice is read once, the
    second time listed as skipped and why. A file of a section's folder named as its tender or a
    template is that."""
    jobs: list[Job] = []
    duplicates: list[tuple[str, str]] = []
    seen: dict[Path, str] = {}
    named = {_key(p) for p in collect_paths([*inputs.tenders, *inputs.templates])}
    bids = [p for p in collect_sources(inputs.bids) if not _named(p, named)] + list(inputs.bidders)
    groups: tuple[tuple[Sequence[Path], Role], ...] = (
        (bids, "bid"),
        (collect_paths(inputs.tenders), "tender"),
        (collect_paths(inputs.templates), "template"),
    )
    for paths, role in groups:
        for path in paths:
            doc_id = f"d{len(jobs) + 1}"
            key = _key(path)
            if key in seen:
                first = next(j.path for j in jobs if j.doc_id == seen[key])
                duplicates.append((str(path), f"重复给出：与 {first} 是同一个文件，只读取一次"))
                continue
            seen[key] = doc_id
            jobs.append(Job(path, doc_id, role))
    return jobs, duplicates


Unread = dict[str, tuple[tuple[int, str, str], ...]]  # per document: pages the OCR stage gave up, and why


def _memory_mb(settings: Settings) -> int:
    """What each worker process may use (``Settings.worker_memory_mb``, 0: a share of the PC's memory)."""
    return settings.worker_memory_mb or default_memory_mb(settings.worker_count)


# work on the files found in the cache while the others are read, until told to stop
Alongside = Callable[[list[Prepared], threading.Event], None]


def prepare_all(
    jobs: list[Job],
    settings: Settings,
    progress: ProgressFn,
    cancel: CancelFlag | None,
    reading: Callable[[], None] = lambda: None,
    alongside: Alongside | None = None,
    begun: Callable[[], None] = lambda: None,
) -> list[Prepared]:
    """Read every file; scanned pages are then recognised together (all cores) and their files read again.
    ``reading`` is called as files not in the cache are handed to the workers, ``begun`` once they hold
    their first files; ``alongside`` runs in a thread on the files found in the cache while the others
    are read."""
    first = slice_progress(progress, 0.0, 0.5)
    prepared = _prepare_jobs(
        jobs, settings, first, cancel, defer_ocr=True, reading=reading, alongside=alongside, begun=begun
    )
    waiting = [i for i, p in enumerate(prepared) if p.ocr_tasks]
    if waiting:
        tasks = [task for i in waiting for task in prepared[i].ocr_tasks]
        given_up = recognize_pages(
            tasks,
            settings.ocr_engine,
            settings.worker_count,
            slice_progress(progress, 0.5, 0.95),
            cancel,
            time_limit_s=settings.ocr_page_timeout_s,
            memory_mb=_memory_mb(settings),
        )
        unread = {
            prepared[i].doc.id: tuple(
                (t.page, given_up[t], t.path) for t in prepared[i].ocr_tasks if t in given_up
            )
            for i in waiting
        }
        again = _prepare_jobs(
            [jobs[i] for i in waiting], settings, slice_progress(progress, 0.95, 1.0), cancel, unread=unread
        )
        for i, done in zip(waiting, again, strict=True):
            prepared[i] = done
    return prepared


@functools.cache
def _one_blas_thread() -> None:
    """numpy's BLAS on one thread in a reading process: there is one such process a core already, and
    a BLAS pool in each (threads spinning as they wait) cost several times the SimHash's own work."""
    threadpool_limits(1, user_api="blas")  # the same sums either way: BLAS splits the 64 bits' votes


def read_job(
    job: Job, settings: Settings, defer_ocr: bool, unread: tuple[tuple[int, str, str], ...]
) -> Prepared | Pickled:
    """One file's per-document stages (in a worker process), and the identifiers the signals look for in
    it (remembered beside its cache entry: searched here, beside the other workers, not one file after
    another in the checking process). A document just stored in the cache comes back as its entry's
    bytes (``Pickled``: pickled once, not again to be sent)."""
    _one_blas_thread()
    prepared, stored = prepare_stored(
        job.path, job.doc_id, job.role, settings, defer_ocr=defer_ocr, unread=unread
    )
    if prepared.ready is not None and prepared.ready.source and settings.signals_enabled:
        remembered_identifiers(prepared.ready)
    return stored or prepared


def _largest_first(jobs: list[Job]) -> list[Job]:
    """The files in the order to read them: the largest first, so that the last files handed out are
    small ones and no worker is left reading a large file alone at the end."""

    return sorted(jobs, key=lambda job: source_size(job.path, SUPPORTED_SUFFIXES), reverse=True)


def _prepare_jobs(
    jobs: list[Job],
    settings: Settings,
    progress: ProgressFn,
    cancel: CancelFlag | None,
    defer_ocr: bool = False,
    unread: Unread | None = None,
    reading: Callable[[], None] = lambda: None,
    alongside: Alongside | None = None,
    begun: Callable[[], None] = lambda: None,
) -> list[Prepared]:
    """Read the files in worker processes, never in this one: a file that kills its process (out of
    memory, a crash in a library) becomes an error document, and the other files are read. Files already
    in the cache are taken from it here (nothing to send between processes); ``alongside`` works on
    them in a thread while the worker processes read the others (this process only waits for them).
    Once they hold their first files, this process does what they need not be forked with
    (``_beside_readers``, then ``begun``)."""
    known = _cached_jobs(jobs, settings, cancel)
    todo = _largest_first([job for job in jobs if job.doc_id not in known])
    done = len(known)
    if known:
        progress(done / len(jobs), f"从缓存读取 {done} 个文件")
    made = None
    if todo:
        reading()
        made = share_tables(settings)

    def finished(index: int, outcome: Prepared | Pickled | Lost) -> None:
        nonlocal done
        done += 1
        known[todo[index].doc_id] = _outcome(todo[index], outcome, settings)  # its bytes let go at once
        remember_read(known[todo[index].doc_id])
        progress(done / len(jobs), f"读取 {todo[index].path.name}")

    spare = workers_leave_a_core(min(settings.worker_count, len(todo)))
    try:
        with _beside(alongside if todo and known and spare else None, list(known.values())):
            run_tasks(
                read_job,
                [(job, settings, defer_ocr, (unread or {}).get(job.doc_id, ())) for job in todo],
                settings.worker_count,
                finished,
                cancel=cancel,
                memory_mb=_memory_mb(settings),
                time_limit_s=settings.read_timeout_s,  # a file past it: stopped, said unreadable
                ahead=1,  # each worker's next file waits in its pipe: it begins as soon as one ends
                started=functools.partial(_beside_readers, made, settings, cancel, begun),
            )
    finally:
        if made is not None:
            made.stop()
    return [known[job.doc_id] for job in jobs]


def share_tables(settings: Settings) -> Ahead[None] | None:
    """Load the tokenizer's dictionaries and the dictionary's word numbers here before the reading
    processes are forked, which then share them (each loaded its own; this process needs them later
    too). The IDF table, when this process has none yet, is made (or read) and stored in the cache by a
    forked process begun first, the two on two cores; returned, it is not waited for: the reading
    processes are forked beside it and read the stored table when their first file needs it (a few ms,
    after its extraction; made there when not stored yet), and this process then takes it
    (``_take_tables``)."""
    if not can_fork():
        return None
    made = (
        None
        if load_idf_table.cache_info().currsize
        else Ahead(functools.partial(_store_idf_table, settings.seed))
    )
    load_tokenizer()
    load_word_keys()
    return made


def take_tables(made: Ahead[None] | None, settings: Settings, cancel: CancelFlag | None) -> None:
    """The IDF table ``made`` in the cache, read back here (a few ms; made here where it could not be
    stored): the next reading processes forked, and the app's next check, share it."""
    if made is not None:
        made.result(cancel, lambda: None)
        load_tables(settings)


def _beside_readers(
    made: Ahead[None] | None, settings: Settings, cancel: CancelFlag | None, begun: Callable[[], None]
) -> None:
    """This process's work once the reading processes hold their first files, on the core they leave
    until their replies come: the IDF table taken, the later stages imported, then ``begun``."""
    take_tables(made, settings, cancel)
    import_later_stages()
    begun()


def _store_idf_table(seed: int) -> None:
    """Make the IDF table of ``seed`` and store it in the cache (in a forked process: nothing sent back)."""
    load_idf_table(seed)


def workers_leave_a_core(workers: int) -> bool:
    """Whether ``workers`` reading processes leave a core of this machine spare."""
    return workers < (os.cpu_count() or 1)


@contextlib.contextmanager
def _beside(work: Alongside | None, cached: list[Prepared]) -> Iterator[None]:
    """Run ``work`` on ``cached`` in a thread (with this check's context) while the body runs; then
    tell it to stop and wait for it."""
    if work is None:
        yield
        return
    stop = threading.Event()
    thread = threading.Thread(target=contextvars.copy_context().run, args=(work, cached, stop), daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _cached_jobs(jobs: list[Job], settings: Settings, cancel: CancelFlag | None) -> dict[str, Prepared]:
    """By document id: the files whose outcome the cache holds (``load_prepared``)."""
    known: dict[str, Prepared] = {}
    for job in jobs:
        check_cancel(cancel)
        found = load_prepared(job.path, job.doc_id, job.role, settings)
        if found is not None:
            known[job.doc_id] = found
    return known


def _outcome(job: Job, outcome: Prepared | Pickled | Lost, settings: Settings) -> Prepared:
    """What a reading process gave for a file, as a prepared document."""
    if isinstance(outcome, Lost):
        return _lost(job, outcome, settings)
    return outcome.take() if isinstance(outcome, Pickled) else outcome


def _lost(job: Job, lost: Lost, settings: Settings) -> Prepared:
    """The error document of a file whose reading process ended without a result."""
    message = OUT_OF_MEMORY if lost.reason == "memory" else READER_DIED
    if lost.reason == "timeout":
        limit = settings.read_timeout_s
        message = f"读取超过 {limit} 秒仍未完成，已停止（文件过于繁杂或已损坏；可在设置中放宽时限）"
    return Prepared(replace(error_document(job.path, job.doc_id, message), role=job.role))
