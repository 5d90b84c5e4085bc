"""The one entry point: ``check(inputs, settings, progress, cancel) -> CheckResult``."""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

from bidcheck import overlaps, section_candidates
from bidcheck.config import Settings
from bidcheck.ingest import SUPPORTED_SUFFIXES
from bidcheck.ingest.folder import skipped_files
from bidcheck.library_stages import bid_histories, consult_library, earlier_highs, library_info, prefetching
from bidcheck.memo import ReadMemo, memo_running, prune_cache
from bidcheck.memo import stages as stage_memo
from bidcheck.model import CheckResult
from bidcheck.prepare import forget_unread
from bidcheck.progress import CancelFlag, ProgressFn, no_progress, slice_progress
from bidcheck.reading import CheckInputs, prepare_all, section_jobs
from bidcheck.signals import SectionInfo, find_signals, price_patterns
from bidcheck.signals.bills import price_shares
from bidcheck.stage_results import (
    Candidates,
    Given,
    LibrarySaid,
    Read,
    Rewritten,
    Run,
    Signs,
    Verdicts,
    Verified,
)
from bidcheck.stages import Stage, run_stages

if TYPE_CHECKING:
    from bidcheck.library.history import LibraryReader, Prefetched
    from bidcheck.semantic import EncodingAhead, SectionSize, SemanticPassage

__all__ = ["CheckInputs", "ReadMemo", "check"]


_T = TypeVar("_T")


def _made(value: _T | None) -> _T:
    """What an earlier stage made (the table runs them in order: it is there)."""
    assert value is not None, "a stage ran before the stage whose result it reads"
    return value


def _read(given: Given, progress: ProgressFn) -> Read:
    """Every file read (see ``reading.prepare_all``), the library's lookups begun meanwhile."""
    bid_paths = [job.path for job in given.jobs if job.role == "bid"]
    reading = functools.partial(overlaps.preload_beside_reading, given.settings, bid_paths)
    prefetched: list[Prefetched | None] = []
    alongside = prefetching(given, prefetched) if given.library is not None else None
    prepared = prepare_all(
        given.jobs, given.settings, progress, given.cancel, reading, alongside, given.while_reading
    )
    forget_unread()  # documents the app's memo kept of another section go now, not after the check
    readable = [p.ready for p in prepared if p.ready is not None]
    bids = [r for r in readable if r.doc.role == "bid"]
    templates = [r for r in readable if r.doc.role != "bid"]
    return Read(prepared, bids, templates, prefetched[-1] if prefetched else None)


def _candidates(given: Given, read: Read, library: LibrarySaid) -> Candidates:
    from bidcheck.compare import align_inputs

    settings, bids = given.settings, read.bids
    said = stage_memo.library_said(library.consulted, library.error) if given.library is not None else None
    key = stage_memo.inputs_key(settings, [p.memo_part for p in read.prepared], said)
    signals_remembered = stage_memo.is_remembered(key, "signals")
    ahead = overlaps.signals_ahead(bids, _section_info(given, read, library), signals_remembered)
    if ahead is not None:
        given.begun.append(ahead)
    if (
        not stage_memo.is_remembered(key, "rewritten")
        and not overlaps.shortlisted(settings, _bid_size(read))
        and not overlaps.enabled("vectors")
    ):
        # the reading had no core to spare, or read nothing afresh; with the sentences encoded ahead,
        # the encoder loads there instead, beside the verification's workers (here its pure-Python
        # tokenizer held the interpreter from the candidates: 0.4 s of the 10-bid section's 0.5 s)
        overlaps.preload_encoder(settings, len(bids))
    remembered = stage_memo.is_remembered(key, "candidates")
    masks, candidates = stage_memo.remembered(
        key,
        "candidates",
        lambda: section_candidates.find(bids, read.templates, settings, library.consulted),
    )
    aligned = align_inputs(
        bids, [masks.unaligned(i) for i in range(len(bids))], masks.stock, settings.seed_chars
    )
    if remembered and memo_running():  # the app's next check, a bid added, starts from these candidates
        section_candidates.keep(bids, aligned, candidates, settings)
    return Candidates(key, masks, candidates, aligned, ahead)


def _verify(given: Given, read: Read, candidates: Candidates, progress: ProgressFn) -> Verified:
    """Every pair with candidates verified: remembered whole for a re-check of the same files, else pair
    by pair (``bidcheck.compare.memo``: after a bid is added, the pairs whose evidence did not change)."""
    from bidcheck.compare import compare_pairs

    encoding: list[EncodingAhead] = []

    def encode_ahead() -> None:
        """The sentences the semantic stage will encode, begun beside the verification's workers."""
        if not stage_memo.is_remembered(candidates.key, "rewritten"):
            masked = [candidates.masks.either(n) for n in range(len(read.bids))]
            ahead = overlaps.encode_ahead(read.bids, masked, given.settings, given.cancel)
            if ahead is not None:
                given.begun.append(ahead)
                encoding.append(ahead)

    found = stage_memo.remembered(
        candidates.key,
        "verify",
        lambda: compare_pairs(
            candidates.aligned, candidates.candidates, given.settings, progress, given.cancel, encode_ahead
        ),
        keep=lambda found: not any(pair.failed for pair in found.values()),  # such pairs are tried again
    )
    return Verified(found, encoding[-1] if encoding else None)


def _semantic(
    given: Given, read: Read, candidates: Candidates, verified: Verified, progress: ProgressFn
) -> Rewritten:
    """Passages reworded all through (see ``bidcheck.semantic``), in sections it applies to; where it
    does not run, the note says why."""
    from bidcheck.semantic import EncoderMissing, find_semantic, skip_reason

    settings, bids = given.settings, read.bids
    reason = skip_reason(settings, _bid_size(read))
    if reason:
        return Rewritten(note=f"语义比对未运行：{reason}")
    if not stage_memo.is_remembered(candidates.key, "rewritten"):
        overlaps.preload_encoder(settings, len(bids))  # beside the shortlist, when there is one
    masked = [candidates.masks.either(n) for n in range(len(bids))]
    copied = {pair: found.live for pair, found in verified.found.items()}
    failed = any(found.failed for found in verified.found.values())
    ahead = verified.encoding_ahead

    def found() -> dict[tuple[int, int], list[SemanticPassage]]:
        encoded = ahead.taken(slice_progress(progress, 0.0, 0.9), given.cancel) if ahead else None
        return find_semantic(bids, masked, copied, settings, progress, given.cancel, encoded)

    try:  # a build without the model checks wording alone
        # a re-check of the same files loads no model at all; "rewritten", not "semantic": the key's
        # first letter is that of "signals"
        return Rewritten(stage_memo.remembered(candidates.key, "rewritten", found, keep=not failed))
    except EncoderMissing as exc:
        return Rewritten(note=f"语义比对未运行：{exc}")


def _section_info(given: Given, read: Read, library: LibrarySaid) -> SectionInfo:
    seen = library.consulted.seen if library.consulted is not None else {}
    return SectionInfo(read.templates, given.settings, seen)


def _bid_size(read: Read) -> SectionSize:
    from bidcheck.semantic import SectionSize

    return SectionSize(tuple(b.doc.chars for b in read.bids))


def _signals(given: Given, read: Read, library: LibrarySaid, candidates: Candidates) -> Signs:
    """The signs beyond shared wording each pair of bids shares (see ``bidcheck.signals``)."""
    section = _section_info(given, read, library)
    here = functools.partial(find_signals, read.bids, section, given.cancel)
    ahead = candidates.signals_ahead
    signals = stage_memo.remembered(
        candidates.key, "signals", lambda: ahead.result(given.cancel, here) if ahead else here()
    )
    if not given.settings.signals_enabled:
        return Signs(signals)
    return Signs(signals, price_patterns([b.doc for b in read.bids]), price_shares(read.bids, section))


def _judge(
    given: Given,
    read: Read,
    library: LibrarySaid,
    candidates: Candidates,
    verified: Verified,
    rewritten: Rewritten,
    signs: Signs,
) -> Verdicts:
    """Every pair judged on its own evidence (remembered whole for a re-check of the same files), then
    with the section's rings and the library's earlier sections, ranked; the rings' groups."""
    from bidcheck.evidence import find_groups
    from bidcheck.judge import Judging, judged_pairs, keep_judged, ranked

    bids, masks, found, settings = read.bids, candidates.masks, verified.found, given.settings
    failed = any(pair.failed for pair in found.values())  # such pairs are tried again next time
    inputs = Judging(bids, masks, found, settings, signs.signals.pairs, rewritten.rewritten)
    remembered = stage_memo.is_remembered(candidates.key, "judge")
    judged = stage_memo.remembered(candidates.key, "judge", lambda: judged_pairs(inputs), keep=not failed)
    if remembered and not failed:  # the app's next check, a bid added, judges only what changed
        keep_judged(judged, inputs)  # (nothing without a memo; a pair failed now is judged again then)
    pairs = ranked(judged, bids, settings, earlier_highs(library.consulted, bids), masks.many)
    return Verdicts(pairs, find_groups(pairs))


# The stages' lines of the table: each reads the stages' results it names and keeps its own.
def _read_stage(run: Run, progress: ProgressFn) -> None:
    run.read = _read(run.given, progress)


def _library_stage(run: Run, _progress: ProgressFn) -> None:
    run.library = consult_library(run.given, _made(run.read))


def _candidates_stage(run: Run, _progress: ProgressFn) -> None:
    run.candidates = _candidates(run.given, _made(run.read), run.library)


def _verify_stage(run: Run, progress: ProgressFn) -> None:
    run.verified = _verify(run.given, _made(run.read), _made(run.candidates), progress)


def _semantic_stage(run: Run, progress: ProgressFn) -> None:
    read, candidates, verified = _made(run.read), _made(run.candidates), _made(run.verified)
    run.rewritten = _semantic(run.given, read, candidates, verified, progress)


def _signals_stage(run: Run, _progress: ProgressFn) -> None:
    run.signs = _signals(run.given, _made(run.read), run.library, _made(run.candidates))


def _judge_stage(run: Run, _progress: ProgressFn) -> None:
    made = _made(run.read), run.library, _made(run.candidates), _made(run.verified)
    run.verdicts = _judge(run.given, *made, run.rewritten, _made(run.signs))


def _history_stage(run: Run, _progress: ProgressFn) -> None:
    run.history = bid_histories(run.given, _made(run.read), run.library, _made(run.candidates))


# The check, stage by stage: a new layer is a function of the results it reads, a line here, a field
# of ``Run`` and of ``CheckResult``.
_STAGES = (
    Stage("read", 0.0, 0.6, "", _read_stage, paused=False, kept=True),
    Stage("library", 0.6, 0.61, "对照资料库", _library_stage),
    Stage("candidates", 0.61, 0.62, "建立候选索引", _candidates_stage),
    Stage("verify", 0.62, 0.9, "", _verify_stage),
    Stage("semantic", 0.9, 0.94, "语义比对", _semantic_stage),
    Stage("signals", 0.94, 0.95, "查找串标迹象", _signals_stage),
    Stage("judge", 0.95, 0.99, "判定与分组", _judge_stage),
    Stage("history", 0.99, 1.0, "", _history_stage),
)


@contextlib.contextmanager
def _stopped_at_end(given: Given) -> Iterator[None]:
    """A process begun ahead is ended with the check (cancelled, failed) if its stage did not take it."""
    try:
        yield
    finally:
        for begun in given.begun:
            begun.stop()


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
    jobs, duplicates = section_jobs(inputs)
    given = Given(settings, cancel, jobs, duplicates, library, section, while_reading)
    run = Run(given)
    with _stopped_at_end(given):
        timings = run_stages(
            _STAGES, run, progress, cancel, lambda stage: stage.name != "library" or library is not None
        )
    read, signs, verdicts = _made(run.read), _made(run.signs), _made(run.verdicts)
    documents = sorted([p.doc for p in read.prepared], key=lambda d: int(d.id[1:]))
    prune_cache(settings.cache_max_mb << 20)  # the entries used least recently go first
    progress(1.0, "完成")
    return CheckResult(
        settings.to_dict(),
        time.perf_counter() - started,
        tuple(documents),
        tuple(verdicts.pairs),
        tuple(verdicts.groups),
        timings,
        library_info(library, run.library),
        run.history,
        signs.price_patterns,
        run.rewritten.note,
        signs.signals.public,
        signs.bill_shares,
        tuple(duplicates) + _skipped(inputs),
    )


def _skipped(inputs: CheckInputs) -> tuple[tuple[str, str], ...]:
    """The files of the folders given that are not read, each with why (nothing found is dropped unsaid)."""
    found = skipped_files(
        [*inputs.bids, *inputs.bidders, *inputs.tenders, *inputs.templates], SUPPORTED_SUFFIXES
    )
    return tuple((str(path), why) for path, why in found)
