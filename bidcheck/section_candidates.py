"""The section's candidates, the candidate stage's work: the masks of text that is no evidence (the
tender's and templates', the library's public text, what most or many bids hold), and the window pairs
outside them that verification compares — taken from the running check's memo where an earlier check
of the same bids left them. The stages after reading are imported by the functions that use them
(``reading.LATER_STAGES``: beside the reading processes, not before they are forked)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from bidcheck.config import Settings
from bidcheck.ready import Ready

if TYPE_CHECKING:
    from bidcheck.compare import AlignInput
    from bidcheck.compare.candidates import WindowPairs
    from bidcheck.compare.kept import Section
    from bidcheck.evidence.masks import SharedMasks
    from bidcheck.library.history import Consulted

__all__ = ["find", "keep"]


def find(
    bids: Sequence[Ready], templates: Sequence[Ready], settings: Settings, consulted: Consulted | None
) -> tuple[SharedMasks, WindowPairs]:
    """The masks of text that is no evidence, and the candidate window pairs outside them."""
    from bidcheck.compare import align_inputs, candidate_window_pairs
    from bidcheck.compare.kept import kept_candidate_pairs
    from bidcheck.evidence.masks import shared_masks

    known, learned = list(templates), None
    if consulted is not None:
        known += consulted.templates
        learned = consulted.learned
    masks = shared_masks(list(bids), known, settings, learned)
    aligned = align_inputs(
        list(bids), [masks.unaligned(i) for i in range(len(bids))], masks.stock, settings.seed_chars
    )
    section, shape = _section(bids, aligned, settings), _shape(settings)
    kept = kept_candidate_pairs(section, *shape)
    if kept is None:
        kept = candidate_window_pairs(section.windows, section.kgrams, *shape, list(section.usable))
    return masks, kept


def keep(
    bids: Sequence[Ready], aligned: list[AlignInput], candidates: WindowPairs, settings: Settings
) -> None:
    """Keep the candidates in the running check's memo: the app's next check, a bid added, starts
    from them."""
    from bidcheck.compare.kept import keep_candidate_pairs

    keep_candidate_pairs(_section(bids, aligned, settings), candidates, *_shape(settings))


def _section(bids: Sequence[Ready], aligned: list[AlignInput], settings: Settings) -> Section:
    """What the candidates are found from: the bids' windows and k-grams, what of them is usable
    (outside the masks), their cache entries."""
    from bidcheck.compare.kept import Section

    usable = [_usable(x, b, settings) for x, b in zip(aligned, bids, strict=True)]
    return Section(bids, usable)


def _shape(settings: Settings) -> tuple[int, float, int]:
    return settings.window_stride, settings.lsh_threshold, settings.num_perm


def _usable(x: AlignInput, ready: Ready, settings: Settings) -> tuple[npt.NDArray[np.bool_], list[bool]]:
    """The k-grams and windows of a bid that may find candidates: k-grams outside its masked text and
    no stock phrase; windows mostly outside its masked text (stock phrases are part of any prose)."""
    from bidcheck.compare.candidates import mostly_open_windows

    windows = mostly_open_windows(x.unmasked, ready.fingerprint.window_starts, settings.window_chars)
    return x.open, windows
