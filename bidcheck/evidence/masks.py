"""Per-bid masks of the text that is no evidence: the tender's own text, and text most bids hold.

Both are known before any pair is compared, from the k-grams of all documents at once, so the
comparison of a pair looks for evidence only in the rest, and lists the masked text it shares apart.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import distinct
from bidcheck.config import Settings
from bidcheck.evidence.company import changing_company_masks
from bidcheck.evidence.flags import (
    bids_for_common,
    form_pieces,
    occurrences_mask,
    template_mask,
)
from bidcheck.evidence.frequent import Counted, frequent_masks
from bidcheck.evidence.tables import bids_frame, frame_masks, templates_frame
from bidcheck.memo import memoised, settings_key
from bidcheck.ready import Ready

__all__ = ["MANY_HOLDERS", "SharedMasks", "common_after_rings", "shared_masks"]

Mask = npt.NDArray[np.bool_]
_BLANK = re.compile(r"[_＿]{2,}|[ \u3000]{2,}|（\s*）|\(\s*\)")
_FORM_PIECE_CHARS = 4
_STOCK_MIN_BIDS = 20
# Text this many bids hold is a ring's draft or the section's, not a pair's: a ring is judged as a ring,
# and outside one such text is quoted in changing company (the clauses of a tender nobody gave)
MANY_HOLDERS = 4
_STOCK_SHARE = 0.5


@dataclass(frozen=True)
class SharedMasks:
    """For each bid, by comparable character: tender/template text, and text most bids hold."""

    template: list[Mask]
    common: list[Mask]
    stock: list[Mask]  # by k-gram: phrases of the trade too widespread to seed evidence (see ``_stock``)
    after_rings: bool = False  # common text is judged after rings are known (see ``common_after_rings``)
    public: list[Mask] | None = None  # a tender nobody gave, quoted in changing company (``company``)
    learned: list[Mask] | None = None  # text the library has learned is public (``bidcheck.library``)
    many: list[Mask] | None = None  # text ``MANY_HOLDERS`` bids or more hold word for word (``judge``)

    @functools.cached_property
    def _fixed(self) -> list[Mask]:
        fixed = self.template
        for extra in (self.public, self.learned):
            if extra is not None:
                fixed = [f | e for f, e in zip(fixed, extra, strict=True)]
        return fixed

    @functools.cached_property
    def _either(self) -> list[Mask]:
        return [f | c for f, c in zip(self._fixed, self.common, strict=True)]

    def __getstate__(self) -> dict[str, object]:
        """Pickled (a stage remembered on disk) with each mask's bits packed, an eighth of the bytes,
        and without the unions worked out of them."""
        return {f.name: _packed(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, _unpacked(value))

    def either(self, index: int) -> Mask:
        """Text of bid ``index`` that is no evidence of itself."""
        return self._either[index]

    def fixed(self, index: int) -> Mask:
        """Text of bid ``index`` that is no evidence whoever shares it: the tender's, and public text."""
        return self._fixed[index]

    def unaligned(self, index: int) -> Mask:
        """Text of bid ``index`` that verification leaves out: the tender's and public text, and common
        text unless it is judged after rings (then it is aligned like any text, so that a ring's draft
        is found whole)."""
        return self.fixed(index) if self.after_rings else self.either(index)


def _packed(value: object) -> object:
    """A list of masks as (packed bits, length) pairs; anything else as it is."""
    if isinstance(value, list):
        return [_PackedMask(np.packbits(m), len(m)) for m in value]
    return value


def _unpacked(value: object) -> object:
    if isinstance(value, list):
        return [np.unpackbits(m.bits, count=m.length).astype(bool) for m in value]
    return value


@dataclass(frozen=True)
class _PackedMask:
    bits: npt.NDArray[np.uint8]
    length: int


def _tender_pieces(templates: Sequence[Ready]) -> list[str]:
    """The pieces of every form in the tender and template documents (see ``form_pieces``)."""
    pieces: list[str] = []
    for t in templates:
        starts = [m.start() for m in _BLANK.finditer(t.clean.text)]
        blanks = np.searchsorted(t.clean.norm_map, starts).tolist()
        pieces += form_pieces(t.clean.norm, blanks, t.clean.sentence_starts.tolist(), _FORM_PIECE_CHARS)
    return sorted(set(pieces))


class _TenderText:
    """What a bid's template mask is made of: the k-grams, the pieces of forms and the frame of the
    tables of every tender and template document, each worked out when a bid first needs it."""

    def __init__(self, templates: Sequence[Ready], settings: Settings) -> None:
        self.templates = templates
        self.settings = settings

    def memo_key(self) -> str | None:
        """What the masks are made from in a key (``bidcheck.memo.key_of``): every tender and template
        document's cache entry and every setting (``None`` when one was read outside the cache)."""
        return self._key

    @functools.cached_property
    def _key(self) -> str | None:  # once for the section, not once a bid
        if not all(t.source for t in self.templates):
            return None
        return "|".join([settings_key(self.settings), *(t.source for t in self.templates)])

    @functools.cached_property
    def _hashes(self) -> npt.NDArray[np.uint64]:
        hashes = [t.fingerprint.kgrams for t in self.templates]
        return distinct(np.concatenate(hashes)) if hashes else np.zeros(0, dtype=np.uint64)

    @functools.cached_property
    def _pieces(self) -> list[str]:
        return _tender_pieces(self.templates)

    @functools.cached_property
    def _frame(self) -> frozenset[str]:
        return templates_frame(self.templates)

    def mask(self, bid: Ready) -> Mask:
        """The bid's tender and template text, by comparable character."""
        k, min_chars = self.settings.seed_chars, self.settings.template_min_chars
        return (
            template_mask(bid.fingerprint.kgrams, self._hashes, len(bid.clean.norm), k, min_chars)
            | occurrences_mask(bid.clean.norm, self._pieces)
            | frame_masks([bid], self._frame)[0]
        )


@dataclass(frozen=True)
class _TemplateMaskInputs:
    """What one bid's template mask is made from: the bid, and the tender and template text."""

    bid: Ready
    tender: _TenderText


@memoised
def _template_mask(inputs: _TemplateMaskInputs) -> Mask:
    """A bid's template mask, remembered by the bid's and the tender documents' cache entries and the
    settings (``memoised``): a bid added to a checked section is the only one whose mask is worked out."""
    return inputs.tender.mask(inputs.bid)


def _template_masks(bids: Sequence[Ready], templates: Sequence[Ready], settings: Settings) -> list[Mask]:
    """Each bid's template mask (``_template_mask``)."""
    tender = _TenderText(templates, settings)
    return [_template_mask(_TemplateMaskInputs(b, tender)) for b in bids]


def _untendered_masks(bids: Sequence[Ready], common: list[Mask], settings: Settings) -> list[Mask]:
    """Without a tender: the tender text that changing company quotes, and the frame of the tables
    that most bids fill in (``bidcheck.evidence.tables``); neither is evidence whoever shares it."""
    quoted = changing_company_masks(bids, common, settings)
    frames = frame_masks(bids, bids_frame(bids, bids_for_common(len(bids), settings)))
    return [q | f for q, f in zip(quoted, frames, strict=True)]


def _common_masks(bids: Sequence[Ready], settings: Settings) -> list[Mask]:
    """Stretches of ``template_min_chars`` that at least ``common_min_bids`` and ``common_share`` of all
    bids hold word for word: public text nobody supplied as a template. Stock phrases of the trade
    are shorter, or not the same stretch in every bid."""
    return _held_word_for_word(bids, settings, bids_for_common(len(bids), settings), "common")


def _many_masks(bids: Sequence[Ready], settings: Settings) -> list[Mask]:
    """Stretches of ``template_min_chars`` that ``MANY_HOLDERS`` bids or more hold word for word: a
    ring's draft or the section's text, never one pair's (see ``judge``)."""
    return _held_word_for_word(bids, settings, MANY_HOLDERS, f"many {MANY_HOLDERS}")


def _held_word_for_word(bids: Sequence[Ready], settings: Settings, needed: int, kind: str) -> list[Mask]:
    """For each bid, its stretches of ``template_min_chars`` that at least ``needed`` bids hold word for
    word (counted as ``kind``, see ``frequent_masks``)."""
    counted = Counted(settings.template_min_chars, settings.seed_chars)
    return frequent_masks(bids, counted, kind, needed)


def _stock(bids: Sequence[Ready]) -> list[Mask]:
    """For each bid, which of its k-grams at least half the bids hold (and at least ``_STOCK_MIN_BIDS``).

    Such a k-gram is a phrase of the trade, no sign of copying by itself: it does not seed a passage,
    though it counts inside one found from rarer text. Smaller sections cannot tell a phrase of the
    trade from a shared draft this way, and keep every k-gram.
    """
    needed = max(_STOCK_MIN_BIDS, math.ceil(_STOCK_SHARE * len(bids)))
    return frequent_masks(bids, Counted(), "stock", needed)


def common_after_rings(bids: int, settings: Settings) -> bool:
    """Whether the bids that make text common are too few to be evidence that it is public: fewer than
    ``common_alone_bids`` could be a ring (three colluders are all of a three-bid section). Their text
    is then common only for the pairs outside any ring (see ``judge``)."""
    return bids_for_common(bids, settings) < settings.common_alone_bids


def shared_masks(
    bids: Sequence[Ready],
    templates: Sequence[Ready],
    settings: Settings,
    learned: list[Mask] | None = None,
) -> SharedMasks:
    """The template, common and stock masks of every bid; ``learned``: the library's public text."""
    common = _common_masks(bids, settings)
    public = None if templates else _untendered_masks(bids, common, settings)
    return SharedMasks(
        _template_masks(bids, templates, settings),
        common,
        _stock(bids),
        common_after_rings(len(bids), settings),
        public,
        learned,
        _many_masks(bids, settings),
    )
