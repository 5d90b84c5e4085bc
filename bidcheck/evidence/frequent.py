"""The hashes most bids hold, counted so that the app's check with a bid more counts that bid alone.

``frequent_kgrams`` sorts every bid's hashes together (millions) on each check. In the app (a running
check with a memo, ``bidcheck.memo.memo_running``) the count is kept instead: every hash that at least
``floor`` bids hold, with how many hold it. A bid more adds its own count to those few thousand hashes;
the hashes that reach the section's threshold then are exactly those the sort would find, as long as
the threshold is at least ``floor`` plus the bids added (each bid added raises ``floor`` by one, since
a hash its predecessor did not keep may now be held once more). When that no longer holds, or bids were
taken away or changed, all bids are counted again. Each bid's places holding a counted hash are kept
too, and its mask with them: a bid whose frequent places did not change keeps its mask (both
remembered by their inputs in the running check's memory, ``memo.memoised_in_memory``).
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import distinct, is_member
from bidcheck.evidence.flags import (
    all_sorted,
    frequent_kgrams,
    held_by,
    long_gram_hashes,
    maybe_held,
    spans_mask,
)
from bidcheck.memo import keep_in_memo, kept_in_memo, key_of, memo_running, memoised_in_memory, parts_digest
from bidcheck.ready import Ready

__all__ = ["Counted", "Held", "frequent_masks"]

Hashes = npt.NDArray[np.uint64]
Places = npt.NDArray[np.intp]
Mask = npt.NDArray[np.bool_]
_SLACK = 8  # counted below the threshold by this many bids: about 16 bids added before all are counted again


@dataclass(frozen=True)
class Held:
    """Of the bids ``sources`` (each cache entry as often as it is given), every hash that at least
    ``floor`` of them hold (sorted) and how many hold it; ``base`` names the full count this one grew
    from, whose hashes (``base_hashes``) hold these: each bid's places are found among them."""

    sources: collections.Counter[str]
    floor: int
    hashes: Hashes
    counts: npt.NDArray[np.int64]
    base: str
    base_hashes: Hashes


def _counted(grams: Sequence[Hashes], floor: int) -> tuple[Hashes, npt.NDArray[np.int64]]:
    """Every hash at least ``floor`` (2 or more) of the documents hold, sorted, and how many hold it:
    found as ``frequent_kgrams`` finds them (one sort of those the sieve keeps, compared with itself
    shifted), then counted by where each begins and ends in the sort: the sieve keeps a hash in every
    document that holds it, or in none."""
    ordered = all_sorted(maybe_held(grams, floor))
    hashes = held_by(ordered, floor)
    ends = np.searchsorted(ordered, hashes, side="right")
    return hashes, (ends - np.searchsorted(ordered, hashes, side="left")).astype(np.int64)


def _full(sources: list[str], grams: Callable[[int], Hashes], needed: int, kind: str) -> Held:
    floor = max(2, needed - _SLACK)
    hashes, counts = _counted([grams(n) for n in range(len(sources))], floor)
    base = parts_digest(kind.encode(), hashes.tobytes()).hex()
    return Held(collections.Counter(sources), floor, hashes, counts, base, hashes)


def _grown(old: Held, sources: list[str], grams: Callable[[int], Hashes], needed: int) -> Held | None:
    """``old`` with the bids added since (``None``: bids taken away, or too many added to be exact)."""
    now = collections.Counter(sources)
    added = now - old.sources
    if old.sources - now:
        return None
    floor = old.floor + sum(added.values())
    if needed < floor:
        return None
    counts = old.counts.copy()
    first = {source: sources.index(source) for source in added}
    for source, times in added.items():
        counts += times * is_member(old.hashes, distinct(grams(first[source])))
    keep = counts >= floor
    return Held(now, floor, old.hashes[keep], counts[keep], old.base, old.base_hashes)


def _held(
    kind: str, sources: list[str], grams: Callable[[int], Hashes], needed: int, counted: Counted
) -> Held:
    """The count of the bids ``sources`` (their hashes as ``counted`` counts them), grown from the one the
    memo kept for ``kind`` when it can be."""
    key = "frequent|" + (key_of((kind, counted)) or b"").hex()
    old = kept_in_memo(key)
    held = _grown(old, sources, grams, needed) if isinstance(old, Held) else None
    held = held or _full(sources, grams, needed, kind)
    keep_in_memo(key, held)  # the value names the bids it counts: checked above, never taken blindly
    return held


@dataclass(frozen=True)
class Counted:
    """Which hashes of a bid are counted, and the mask its places holding frequent ones make: its
    k-grams (``span`` 0: the mask marks them), or the hashes of its stretches of ``span`` characters
    made of its k-grams of ``k`` characters (``long_gram_hashes``; the mask covers the stretches)."""

    span: int = 0
    k: int = 0

    def hashes(self, bid: Ready) -> Hashes:
        """The bid's hashes counted."""
        kgrams = bid.fingerprint.kgrams
        return long_gram_hashes(kgrams, self.k, self.span) if self.span else kgrams

    def mask(self, bid: Ready, places: Places) -> Mask:
        """The bid's mask of the hashes at ``places``."""
        marked = np.zeros(len(bid.fingerprint.kgrams), dtype=bool)
        marked[places] = True
        return spans_mask(marked, self.span, len(bid.clean.norm)) if self.span else marked


@dataclass(frozen=True, eq=False)
class _Hashed:
    """A bid's hashes as ``counted`` counts them (``values``), named in a key by the bid and ``counted``:
    made by ``_hashed`` alone."""

    bid: Ready
    counted: Counted
    values: Hashes

    def memo_key(self) -> str | None:
        digest = key_of((self.bid, self.counted))
        return None if digest is None else digest.hex()


def _hashed(bid: Ready, counted: Counted) -> _Hashed:
    return _Hashed(bid, counted, counted.hashes(bid))


@dataclass(frozen=True, eq=False)
class _Base:
    """The hashes of a full count (``Held.base_hashes``), named in a key by their digest (``Held.base``)."""

    name: str
    hashes: Hashes

    def memo_key(self) -> str:
        return self.name


@dataclass(frozen=True)
class _Placing:
    """Where a bid holds hashes of a full count."""

    base: _Base
    bid: _Hashed


@memoised_in_memory
def _places(inputs: _Placing) -> tuple[Places, Hashes]:
    """(positions, hashes) of one bid's hashes that the full count kept (a count grown from it keeps
    some of them)."""
    values = inputs.bid.values
    at = np.flatnonzero(is_member(values, inputs.base.hashes))
    return (at, values[at])


@dataclass(frozen=True)
class _Masking:
    """A bid's mask of its places holding frequent hashes: a bid whose places stay keeps its mask."""

    bid: Ready
    counted: Counted
    places: Places


@memoised_in_memory
def _mask(inputs: _Masking) -> Mask:
    return inputs.counted.mask(inputs.bid, inputs.places)


def frequent_masks(bids: Sequence[Ready], counted: Counted, kind: str, needed: int) -> list[Mask]:
    """For each bid, the mask (``Counted.mask``) of its hashes (``Counted.hashes``) that at least
    ``needed`` of the bids hold; ``kind`` names the count (one kept for each kind).

    In the app the count is kept from check to check (see the module); elsewhere all bids' hashes are
    sorted together (``frequent_kgrams``)."""
    hashed = [_hashed(b, counted) for b in bids]
    sources = [b.source for b in bids]
    if not memo_running() or not all(sources) or needed < 2 or needed > len(bids):
        frequent = frequent_kgrams([h.values for h in hashed], needed)
        return [counted.mask(h.bid, np.flatnonzero(is_member(h.values, frequent))) for h in hashed]
    held = _held(kind, sources, lambda n: hashed[n].values, needed, counted)
    frequent = held.hashes[held.counts >= needed]
    base = _Base(held.base, held.base_hashes)
    out = []
    for bid in hashed:
        at, values = _places(_Placing(base, bid))
        out.append(_mask(_Masking(bid.bid, counted, at[is_member(values, frequent)])))
    return out
