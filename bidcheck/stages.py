"""The loop that runs a check's stage table: each stage in order, on its slice of the progress bar,
with a cancel check before it, the cycle collector paused while it builds many objects, and its wall
time kept (the result's ``timings``). The table itself, what each stage reads and leaves, is the
pipeline's (``bidcheck.pipeline._STAGES``)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from bidcheck.gcpause import collector_paused, collector_spares_later
from bidcheck.progress import CancelFlag, ProgressFn, check_cancel, slice_progress

__all__ = ["Stage", "run_stages"]

S = TypeVar("S")


@dataclass(frozen=True)
class Stage(Generic[S]):
    """One line of the check: its name (the timings' key), its share of the progress bar, what the bar
    says as it starts, what it does to the check's state, whether the cycle collector pauses (stages
    that make millions of small objects), whether what it makes stays to the check's end (``kept``: the
    collector pauses, then leaves it alone)."""

    name: str
    start: float
    end: float
    message: str
    run: Callable[[S, ProgressFn], None]
    paused: bool = True
    kept: bool = False


def run_stages(
    stages: Sequence[Stage[S]],
    state: S,
    progress: ProgressFn,
    cancel: CancelFlag | None,
    said: Callable[[Stage[S]], bool] = lambda _stage: True,
) -> dict[str, float]:
    """Run ``stages`` on ``state`` in order; their wall times by name. A stage's message is shown as it
    starts where it has one and ``said`` allows (a stage with nothing to do says nothing)."""
    timings: dict[str, float] = {}
    with collector_spares_later() as spare:
        for stage in stages:
            if stage.paused:
                check_cancel(cancel)
            if stage.message and said(stage):
                progress(stage.start, stage.message)
            lap = time.perf_counter()
            with collector_paused() if stage.paused or stage.kept else contextlib.nullcontext():
                stage.run(state, slice_progress(progress, stage.start, stage.end))
                if stage.kept:  # frozen before the collector is back, or its first run walks them all
                    spare()
            timings[stage.name] = time.perf_counter() - lap
    return timings
