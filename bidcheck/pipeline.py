"""The one entry point: ``check(inputs, settings, progress, cancel) -> CheckResult``."""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from bidcheck import overlaps, stage_memo
from bidcheck.cache import prune_cache
from bidcheck.config import Settings
from bidcheck.gcpause import collector_paused, collector_spares_later
from bidcheck.ingest import SUPPORTED_SUFFIXES
from bidcheck.ingest.folder import skipped_files
from bidcheck.memo import ReadMemo, memo_running
from bidcheck.model import (
    BillShare,
    CheckResult,
    Group,
    HistoryMatch,
    LibraryInfo,
    PairResult,
    PricePattern,
)
from bidcheck.prepare import forget_unread
from bidcheck.progress import CancelFlag, ProgressFn, check_cancel, no_progress, slice_progress
from bidcheck.reading import (
    Alongside,
    CheckInputs,
    Job,
    prepare_all,
    section_jobs,
)
from bidcheck.ready import Prepared, Ready
from bidcheck.signals import SectionInfo, SignalsFound, find_signals, price_patterns
from bidcheck.signals.bills import price_shares
from bidcheck.workers import Ahead

if TYPE_CHECKING:
    from bidcheck.compare import AlignInput
    from bidcheck.compare.candidates import WindowPairs
    from bidcheck.compare.kept import Section
    from bidcheck.compare.runner import PairFound
    from bidcheck.evidence.masks import SharedMasks
    from bidcheck.library.history import Consulted, LibraryReader, Prefetched
    from bidcheck.semantic import SectionSize, SemanticPassage

__all__ = ["CheckInputs", "ReadMemo", "check"]


def _usable(x: AlignInput, ready: Ready, settings: Settings) -> tuple[npt.NDArray[np.bool_], list[bool]]:
    """The k-grams and windows of a bid that may find candidates: k-grams outside its masked text and
    no stock phrase; windows mostly outside its masked text (stock phrases are part of any prose)."""
    from bidcheck.compare.candidates import mostly_open_windows

    unmasked = x.unmasked
    windows = mostly_open_windows(unmasked, ready.fingerprint.window_starts, settings.window_chars)
    return x.open, windows


@dataclass
class _Run:
    """One check as its stages fill it in: each stage reads what the ones before it left."""

    settings: Settings
    cancel: CancelFlag | None
    jobs: list[Job]
    duplicates: list[tuple[str, str]]  # files given again: each with why it is not read twice
    prepared: list[Prepared] = field(default_factory=list)
    bids: list[Ready] = field(default_factory=list)
    masks: SharedMasks | None = None
    aligned: list[AlignInput] = field(default_factory=list)
    candidates: WindowPairs = field(default_factory=dict)
    found: dict[tuple[int, int], PairFound] = field(default_factory=dict)
    signals: SignalsFound = field(default_factory=SignalsFound)
    rewritten: dict[tuple[int, int], list[SemanticPassage]] = field(default_factory=dict)
    pairs: list[PairResult] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    library: LibraryReader | None = None
    section: str = ""
    consulted: Consulted | None = None
    library_error: str | None = None
    history: dict[str, tuple[HistoryMatch, ...]] = field(default_factory=dict)
    prefetched: Prefetched | None = None  # the library's places of the cached bids' hashes, looked up ahead
    key: str = ""  # what the stages after reading start from, one key ("": not remembered; see stage_memo)
    price_patterns: tuple[PricePattern, ...] = ()
    bill_shares: tuple[BillShare, ...] = ()
    semantic_note: str = ""  # why the semantic layer did not run ("" when it ran)
    signals_ahead: Ahead[SignalsFound] | None = None  # see ``overlaps.signals_ahead``
    while_reading: Callable[[], None] = field(default=lambda: None)  # see ``check``


@dataclass(frozen=True)
class _Stage:
    """One line of the check: its name (the timings' key), its share of the progress bar, what the bar
    says as it starts, whether the cycle collector pauses (stages that make millions of small objects),
    whether what it makes stays to the check's end (``kept``: the collector pauses, then leaves it alone)."""

    name: str
    start: float
    end: float
    message: str
    run: Callable[[_Run, ProgressFn], None]
    paused: bool = True
    kept: bool = False


def _read(run: _Run, progress: ProgressFn) -> None:
    bid_paths = [job.path for job in run.jobs if job.role == "bid"]
    reading = functools.partial(overlaps.preload_beside_reading, run.settings, bid_paths)
    alongside = _prefetching(run) if run.library is not None else None
    run.prepared = prepare_all(
        run.jobs, run.settings, progress, run.cancel, reading, alongside, run.while_reading
    )
    forget_unread()  # documents the app's memo kept of another section go now, not after the check
    run.bids = [p.ready for p in run.prepared if p.ready is not None and p.ready.doc.role == "bid"]


def _library(run: _Run, _progress: ProgressFn) -> None:
    """The bids looked up in the library (when there is one): public text, history, model documents.
    A library that fails now is left out, and the check goes on without it."""
    from bidcheck.library.history import consult
    from bidcheck.library.store import LibraryError

    if run.library is None:
        return
    try:
        run.consulted = consult(run.library, run.bids, run.section, run.settings, run.prefetched)
    except LibraryError as exc:
        run.library_error = str(exc)


def _candidates(run: _Run, _progress: ProgressFn) -> None:
    from bidcheck.compare import align_inputs

    said = stage_memo.library_said(run.consulted, run.library_error) if run.library is not None else None
    run.key = stage_memo.inputs_key(run.settings, run.prepared, said)
    signals_remembered = stage_memo.is_remembered(run.key, "signals")
    run.signals_ahead = overlaps.signals_ahead(run.bids, _section_info(run), signals_remembered)
    if not stage_memo.is_remembered(run.key, "rewritten") and not overlaps.shortlisted(
        run.settings, _bid_size(run)
    ):
        # the reading had no core to spare, or read nothing afresh
        overlaps.preload_encoder(run.settings, len(run.bids))
    remembered = stage_memo.is_remembered(run.key, "candidates")
    run.masks, run.candidates = stage_memo.remembered(run.key, "candidates", lambda: _find_candidates(run))
    run.aligned = align_inputs(
        run.bids,
        [run.masks.unaligned(i) for i in range(len(run.bids))],
        run.masks.stock,
        run.settings.seed_chars,
    )
    if remembered and memo_running():  # the app's next check, a bid added, starts from these candidates
        from bidcheck.compare.kept import keep_candidate_pairs

        keep_candidate_pairs(_candidate_section(run, run.aligned), run.candidates, *_candidate_shape(run))


def _find_candidates(run: _Run) -> tuple[SharedMasks, WindowPairs]:
    """The masks of text that is no evidence, and the candidate window pairs outside them."""
    from bidcheck.compare import align_inputs, candidate_window_pairs
    from bidcheck.compare.kept import kept_candidate_pairs
    from bidcheck.evidence.masks import shared_masks

    templates = [p.ready for p in run.prepared if p.ready is not None and p.ready.doc.role != "bid"]
    learned = None
    if run.consulted is not None:
        templates += run.consulted.templates
        learned = run.consulted.learned
    masks = shared_masks(run.bids, templates, run.settings, learned)
    aligned = align_inputs(
        run.bids, [masks.unaligned(i) for i in range(len(run.bids))], masks.stock, run.settings.seed_chars
    )
    section, shape = _candidate_section(run, aligned), _candidate_shape(run)
    kept = kept_candidate_pairs(section, *shape)
    if kept is None:
        kept = candidate_window_pairs(section.windows, section.kgrams, *shape, list(section.usable))
    return masks, kept


def _candidate_section(run: _Run, aligned: list[AlignInput]) -> Section:
    """What the candidates are found from: the bids' windows and k-grams, what of them is usable
    (outside the masks), their cache entries."""
    from bidcheck.compare.kept import Section

    windows, kgrams = [b.fingerprint.windows for b in run.bids], [b.fingerprint.kgrams for b in run.bids]
    usable = [_usable(x, b, run.settings) for x, b in zip(aligned, run.bids, strict=True)]
    return Section(windows, kgrams, usable, [b.source for b in run.bids])


def _candidate_shape(run: _Run) -> tuple[int, float, int]:
    return run.settings.window_stride, run.settings.lsh_threshold, run.settings.num_perm


def _verify(run: _Run, progress: ProgressFn) -> None:
    """Every pair with candidates verified: remembered whole for a re-check of the same files, else pair
    by pair (``bidcheck.compare.memo``: after a bid is added, the pairs whose evidence did not change)."""
    from bidcheck.compare import compare_pairs

    run.found = stage_memo.remembered(
        run.key,
        "verify",
        lambda: compare_pairs(run.aligned, run.candidates, run.settings, progress, run.cancel),
        keep=lambda found: not any(pair.failed for pair in found.values()),  # such pairs are tried again
    )


def _semantic(run: _Run, progress: ProgressFn) -> None:
    """Passages reworded all through (see ``bidcheck.semantic``), in sections it applies to; where it
    does not run, ``semantic_note`` says why."""
    from bidcheck.semantic import EncoderMissing, find_semantic, skip_reason

    if run.masks is None:
        return
    reason = skip_reason(run.settings, _bid_size(run))
    if reason:
        run.semantic_note = f"语义比对未运行：{reason}"
        return
    if not stage_memo.is_remembered(run.key, "rewritten"):
        overlaps.preload_encoder(run.settings, len(run.bids))  # beside the shortlist, when there is one
    masked = [run.masks.either(n) for n in range(len(run.bids))]
    copied = {pair: found.live for pair, found in run.found.items()}
    failed = any(found.failed for found in run.found.values())
    try:  # a build without the model checks wording alone
        run.rewritten = stage_memo.remembered(  # a re-check of the same files loads no model at all
            run.key,
            "rewritten",  # not "semantic": the key's first letter is that of "signals"
            lambda: find_semantic(run.bids, masked, copied, run.settings, progress, run.cancel),
            keep=not failed,
        )
    except EncoderMissing as exc:
        run.semantic_note = f"语义比对未运行：{exc}"


def _section_info(run: _Run) -> SectionInfo:
    tenders = [p.ready for p in run.prepared if p.ready is not None and p.ready.doc.role != "bid"]
    return SectionInfo(tenders, run.settings, run.consulted.seen if run.consulted is not None else {})


def _bid_size(run: _Run) -> SectionSize:
    from bidcheck.semantic import SectionSize

    return SectionSize(tuple(b.doc.chars for b in run.bids))


def _prefetching(run: _Run) -> Alongside:
    """The library's lookups of the cached bids, begun while the other files are read."""

    def prefetch(cached: list[Prepared], stop: threading.Event) -> None:
        if run.library is not None:
            run.prefetched = overlaps.prefetch_library(run.library, run.section, cached, stop)

    return prefetch


def _signals(run: _Run, _progress: ProgressFn) -> None:
    """The signs beyond shared wording each pair of bids shares (see ``bidcheck.signals``)."""
    here = functools.partial(find_signals, run.bids, _section_info(run), run.cancel)
    ahead = run.signals_ahead
    run.signals = stage_memo.remembered(
        run.key, "signals", lambda: ahead.result(run.cancel, here) if ahead else here()
    )
    if run.settings.signals_enabled:
        run.price_patterns = price_patterns([b.doc for b in run.bids])
        run.bill_shares = price_shares(run.bids, _section_info(run))


def _earlier(run: _Run) -> dict[tuple[str, str], list[str]]:
    """By pair of bid ids (in id order): the library's sections where the two were ``high`` together."""
    from bidcheck.library.prints import bidder_name

    if run.consulted is None:
        return {}
    ids = [(b.doc.id, bidder_name(b.doc.name)) for b in run.bids]
    return {
        (a, b): sections
        for n, (a, x) in enumerate(ids)
        for b, y in ids[n + 1 :]
        if (sections := run.consulted.high_together.get(frozenset((x, y)), [])) and x != y
    }


def _judge(run: _Run, _progress: ProgressFn) -> None:
    """Every pair judged on its own evidence (remembered whole for a re-check of the same files), then
    with the section's rings and the library's earlier sections, ranked; the rings' groups."""
    from bidcheck.evidence import find_groups
    from bidcheck.judge import Judging, judged_pairs, keep_judged, ranked

    masks = run.masks
    assert masks is not None
    failed = any(found.failed for found in run.found.values())  # such pairs are tried again next time
    inputs = Judging(run.bids, masks, run.found, run.settings, run.signals.pairs, run.rewritten)
    remembered = stage_memo.is_remembered(run.key, "judge")
    judged = stage_memo.remembered(run.key, "judge", lambda: judged_pairs(inputs), keep=not failed)
    if remembered and not failed:  # the app's next check, a bid added, judges only what changed
        keep_judged(judged, inputs)  # (nothing without a memo; a pair failed now is judged again then)
    run.pairs = ranked(judged, run.bids, run.settings, _earlier(run), masks.many)
    run.groups = find_groups(run.pairs)


def _history(run: _Run, _progress: ProgressFn) -> None:
    from bidcheck.library.history import histories

    if run.consulted is not None and run.masks is not None:
        masked = [run.masks.fixed(i) for i in range(len(run.bids))]
        run.history = histories(run.consulted, run.bids, masked, run.settings)


def _library_info(run: _Run) -> LibraryInfo | None:
    if run.library is None:
        return None
    if run.consulted is None:
        return LibraryInfo(str(run.library.path), error=run.library_error)
    return LibraryInfo(str(run.library.path), run.consulted.sections, run.consulted.documents)


# The check, stage by stage: a new layer is one line here and one field of ``_Run`` and ``CheckResult``.
_STAGES = (
    _Stage("read", 0.0, 0.6, "", _read, paused=False, kept=True),
    _Stage("library", 0.6, 0.61, "对照资料库", _library),
    _Stage("candidates", 0.61, 0.62, "建立候选索引", _candidates),
    _Stage("verify", 0.62, 0.9, "", _verify),
    _Stage("semantic", 0.9, 0.94, "语义比对", _semantic),
    _Stage("signals", 0.94, 0.95, "查找串标迹象", _signals),
    _Stage("judge", 0.95, 0.99, "判定与分组", _judge),
    _Stage("history", 0.99, 1.0, "", _history),
)


@contextlib.contextmanager
def _stopped_at_end(run: _Run) -> Iterator[None]:
    """A process begun ahead is ended with the check (cancelled, failed) if its stage did not take it."""
    try:
        yield
    finally:
        if run.signals_ahead is not None:
            run.signals_ahead.stop()


def check(
    inputs: CheckInputs,
    settings: Settings | None = None,
    progress: ProgressFn = no_progress,
    cancel: CancelFlag | None = None,
    library: LibraryReader | None = None,
    section: str = "",
    memo: ReadMemo | None = None,
    while_reading: Callable[[], None] = lambda: None,
) -> CheckResult:
    """Check one tender section: read every file, compare every pair of bids, judge and group them.

    The stages (``_STAGES``) run in order, each on its slice of the progress bar, with a cancel check
    before each and its wall time kept in the result's ``timings``. With a ``library`` (read only:
    storing the section is the caller's, see ``bidcheck.library.store_result``), each bid is also
    compared with the bids of its earlier sections (other than ``section``). The on-disk cache is kept
    within ``cache_max_mb`` (``bidcheck.cache.prune_cache``). A ``memo`` keeps the cache entries this
    check reads in memory for the next check with it (the app's: see ``ReadMemo``). ``while_reading``
    is the caller's work that can wait until the reading processes hold their first files (then done
    in this process beside them; not at all when no file is read afresh): the command line imports its
    reports then, and the reading begins sooner.
    """
    with memo.during() if memo is not None else contextlib.nullcontext():
        return _check(inputs, settings or Settings(), progress, cancel, library, section, while_reading)


def _check(
    inputs: CheckInputs,
    settings: Settings,
    progress: ProgressFn,
    cancel: CancelFlag | None,
    library: LibraryReader | None,
    section: str,
    while_reading: Callable[[], None],
) -> CheckResult:
    started = time.perf_counter()
    run = _Run(
        settings, cancel, *section_jobs(inputs), library=library, section=section, while_reading=while_reading
    )
    timings: dict[str, float] = {}
    with collector_spares_later() as spare, _stopped_at_end(run):
        for stage in _STAGES:
            if stage.paused:
                check_cancel(cancel)
            if stage.message and (stage.name != "library" or run.library is not None):
                progress(stage.start, stage.message)
            lap = time.perf_counter()
            with collector_paused() if stage.paused or stage.kept else contextlib.nullcontext():
                stage.run(run, slice_progress(progress, stage.start, stage.end))
                if stage.kept:  # frozen before the collector is back, or its first run walks them all
                    spare()
            timings[stage.name] = time.perf_counter() - lap
    documents = sorted([p.doc for p in run.prepared], key=lambda d: int(d.id[1:]))
    prune_cache(settings.cache_max_mb << 20)  # the entries used least recently go first
    progress(1.0, "完成")
    return CheckResult(
        settings.to_dict(),
        time.perf_counter() - started,
        tuple(documents),
        tuple(run.pairs),
        tuple(run.groups),
        timings,
        _library_info(run),
        run.history,
        run.price_patterns,
        run.semantic_note,
        run.signals.public,
        run.bill_shares,
        tuple(run.duplicates) + _skipped(inputs),
    )


def _skipped(inputs: CheckInputs) -> tuple[tuple[str, str], ...]:
    """The files of the folders given that are not read, each with why (nothing found is dropped unsaid)."""
    found = skipped_files(
        [*inputs.bids, *inputs.bidders, *inputs.tenders, *inputs.templates], SUPPORTED_SUFFIXES
    )
    return tuple((str(path), why) for path, why in found)
