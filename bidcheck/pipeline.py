"""The one entry point: ``check(inputs, settings, progress, cancel) -> CheckResult``."""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bidcheck import overlaps, section_candidates
from bidcheck.config import Settings
from bidcheck.ingest import SUPPORTED_SUFFIXES
from bidcheck.ingest.folder import skipped_files
from bidcheck.memo import ReadMemo, memo_running, prune_cache
from bidcheck.memo import stages as stage_memo
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
from bidcheck.progress import CancelFlag, ProgressFn, no_progress, slice_progress
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
from bidcheck.stages import Stage, run_stages
from bidcheck.workers import Ahead

if TYPE_CHECKING:
    from bidcheck.compare import AlignInput
    from bidcheck.compare.candidates import WindowPairs
    from bidcheck.compare.runner import PairFound
    from bidcheck.evidence.masks import SharedMasks
    from bidcheck.library.history import Consulted, LibraryReader, Prefetched
    from bidcheck.semantic import EncodingAhead, SectionSize, SemanticPassage

__all__ = ["CheckInputs", "ReadMemo", "check"]


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
    key: str = ""  # what the stages after reading start from, one key ("": not remembered; see memo.stages)
    price_patterns: tuple[PricePattern, ...] = ()
    bill_shares: tuple[BillShare, ...] = ()
    semantic_note: str = ""  # why the semantic layer did not run ("" when it ran)
    signals_ahead: Ahead[SignalsFound] | None = None  # see ``overlaps.signals_ahead``
    encoding_ahead: EncodingAhead | None = None  # see ``overlaps.encode_ahead``
    while_reading: Callable[[], None] = field(default=lambda: None)  # see ``check``


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
    run.key = stage_memo.inputs_key(run.settings, [p.memo_part for p in run.prepared], said)
    signals_remembered = stage_memo.is_remembered(run.key, "signals")
    run.signals_ahead = overlaps.signals_ahead(run.bids, _section_info(run), signals_remembered)
    if (
        not stage_memo.is_remembered(run.key, "rewritten")
        and not overlaps.shortlisted(run.settings, _bid_size(run))
        and not overlaps.enabled("vectors")
    ):
        # the reading had no core to spare, or read nothing afresh; with the sentences encoded ahead,
        # the encoder loads there instead, beside the verification's workers (here its pure-Python
        # tokenizer held the interpreter from the candidates: 0.4 s of the 10-bid section's 0.5 s)
        overlaps.preload_encoder(run.settings, len(run.bids))
    remembered = stage_memo.is_remembered(run.key, "candidates")
    templates = [p.ready for p in run.prepared if p.ready is not None and p.ready.doc.role != "bid"]
    run.masks, run.candidates = stage_memo.remembered(
        run.key,
        "candidates",
        lambda: section_candidates.find(run.bids, templates, run.settings, run.consulted),
    )
    run.aligned = align_inputs(
        run.bids,
        [run.masks.unaligned(i) for i in range(len(run.bids))],
        run.masks.stock,
        run.settings.seed_chars,
    )
    if remembered and memo_running():  # the app's next check, a bid added, starts from these candidates
        section_candidates.keep(run.bids, run.aligned, run.candidates, run.settings)


def _verify(run: _Run, progress: ProgressFn) -> None:
    """Every pair with candidates verified: remembered whole for a re-check of the same files, else pair
    by pair (``bidcheck.compare.memo``: after a bid is added, the pairs whose evidence did not change)."""
    from bidcheck.compare import compare_pairs

    run.found = stage_memo.remembered(
        run.key,
        "verify",
        lambda: compare_pairs(
            run.aligned, run.candidates, run.settings, progress, run.cancel, lambda: _encode_ahead(run)
        ),
        keep=lambda found: not any(pair.failed for pair in found.values()),  # such pairs are tried again
    )


def _encode_ahead(run: _Run) -> None:
    """The sentences the semantic stage will encode, begun beside the verification's workers."""
    if run.masks is not None and not stage_memo.is_remembered(run.key, "rewritten"):
        masked = [run.masks.either(n) for n in range(len(run.bids))]
        run.encoding_ahead = overlaps.encode_ahead(run.bids, masked, run.settings, run.cancel)


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
    ahead = run.encoding_ahead

    def found() -> dict[tuple[int, int], list[SemanticPassage]]:
        encoded = ahead.taken(slice_progress(progress, 0.0, 0.9), run.cancel) if ahead else None
        return find_semantic(run.bids, masked, copied, run.settings, progress, run.cancel, encoded)

    try:  # a build without the model checks wording alone
        run.rewritten = stage_memo.remembered(  # a re-check of the same files loads no model at all
            run.key,
            "rewritten",  # not "semantic": the key's first letter is that of "signals"
            found,
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


def _earlier(consulted: Consulted | None, bids: Sequence[Ready]) -> dict[tuple[str, str], list[str]]:
    from bidcheck.library.history import high_before

    return high_before(consulted, bids) if consulted is not None else {}


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
    run.pairs = ranked(judged, run.bids, run.settings, _earlier(run.consulted, run.bids), masks.many)
    run.groups = find_groups(run.pairs)


def _history(run: _Run, _progress: ProgressFn) -> None:
    from bidcheck.library.history import histories

    if run.consulted is not None and run.masks is not None:
        masked = [run.masks.fixed(i) for i in range(len(run.bids))]
        run.history = histories(run.consulted, run.bids, masked, run.settings)


def _library_info(
    library: LibraryReader | None, consulted: Consulted | None, error: str | None
) -> LibraryInfo | None:
    if library is None:
        return None
    if consulted is None:
        return LibraryInfo(str(library.path), error=error)
    return LibraryInfo(str(library.path), consulted.sections, consulted.documents)


# The check, stage by stage: a new layer is one line here and one field of ``_Run`` and ``CheckResult``.
_STAGES = (
    Stage("read", 0.0, 0.6, "", _read, paused=False, kept=True),
    Stage("library", 0.6, 0.61, "对照资料库", _library),
    Stage("candidates", 0.61, 0.62, "建立候选索引", _candidates),
    Stage("verify", 0.62, 0.9, "", _verify),
    Stage("semantic", 0.9, 0.94, "语义比对", _semantic),
    Stage("signals", 0.94, 0.95, "查找串标迹象", _signals),
    Stage("judge", 0.95, 0.99, "判定与分组", _judge),
    Stage("history", 0.99, 1.0, "", _history),
)


@contextlib.contextmanager
def _stopped_at_end(run: _Run) -> Iterator[None]:
    """A process begun ahead is ended with the check (cancelled, failed) if its stage did not take it."""
    try:
        yield
    finally:
        if run.signals_ahead is not None:
            run.signals_ahead.stop()
        if run.encoding_ahead is not None:
            run.encoding_ahead.stop()


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
    within ``cache_max_mb`` (``bidcheck.memo.prune_cache``). A ``memo`` keeps the cache entries this
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
    with _stopped_at_end(run):
        timings = run_stages(
            _STAGES, run, progress, cancel, lambda stage: stage.name != "library" or run.library is not None
        )
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
        _library_info(run.library, run.consulted, run.library_error),
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
