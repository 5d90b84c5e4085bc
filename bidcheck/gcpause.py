"""Pausing Python's cycle collector while a stage builds many objects that all stay alive.

The collector runs every few hundred new objects and then walks every live object of the older
generations; building a 200-bid result (tens of thousands of passages) or a workbook of 20,000 rows,
it spends a sixth of the time walking objects none of which is garbage. Those stages make no
reference cycles worth collecting early, and the collector runs again as soon as they end.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator

__all__ = ["collector_paused", "collector_spares_later"]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with the cycle collector off (left off if it was off already)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextlib.contextmanager
def collector_spares_later() -> Iterator[Callable[[], None]]:
    """Run the block with a function that moves every object alive then out of the collector's reach
    (``gc.freeze``) until the block ends: a check's documents, read once and kept to the end, are not
    walked again by every later collection (each walk of a 100-bid section's objects costs tenths of a
    second). They go back to the oldest generation as the block ends."""
    frozen = False

    def freeze() -> None:
        nonlocal frozen
        gc.freeze()
        frozen = True

    try:
        yield freeze
    finally:
        if frozen:
            gc.unfreeze()
