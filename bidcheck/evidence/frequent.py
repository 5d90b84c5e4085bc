"""The hashes most bids hold, counted so that the app's check with a bid more counts that bid alone.

``frequent_kgrams`` sorts every bid's hashes together (millions) on each check. In the app (a running
check with a memo, ``bidcheck.memo.memo_running``) the count is kept instead: every hash that at least
``floor`` bids hold, with how many hold it. A bid more adds its own count to those few thousand hashes;
the hashes that reach the section's threshold then are exactly those the sort would find, as long as
the threshold is at least ``floor`` plus the bids added (each bid added raises ``floor`` by one, since
a hash its predecessor did not keep may now be held once more). When that no longer holds, or bids were
taken away or changed, all bids are counted again. Each bid's places holding a counted hash are kept
too, and its mask with them: a bid whose frequent places did not change keeps its mask.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import distinct, is_member
from bidcheck.evidence.flags import all_sorted, frequent_kgrams, held_by, maybe_held
from bidcheck.memo import keep_in_memo, kept_in_memo, kept_or_made, memo_running, parts_digest
from bidcheck.ready import Ready

__all__ = ["Held", "frequent_masks"]

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


def _held(kind: str, sources: list[str], grams: Callable[[int], Hashes], needed: int) -> Held:
    """The count of the bids ``sources``, grown from the one the memo kept when it can be."""
    key = f"frequent|{kind}"
    old = kept_in_memo(key)
    held = _grown(old, sources, grams, needed) if isinstance(old, Held) else None
    held = held or _full(sources, grams, needed, kind)
    keep_in_memo(key, held)  # the value names the bids it counts: checked above, never taken blindly
    return held


def _places(held: Held, kind: str, source: str, grams: Callable[[], Hashes]) -> tuple[Places, Hashes]:
    """(positions, hashes) of one bid's hashes that the full count ``held.base`` kept (a count grown
    from it keeps some of them)."""

    def made() -> tuple[Places, Hashes]:
        values = grams()
        at = np.flatnonzero(is_member(values, held.base_hashes))
        return (at, values[at])

    return kept_or_made(f"frequent-places|{kind}|{held.base}|{source}", tuple, made)


def _mask(kind: str, source: str, hits: Places, make: Callable[[Places], Mask]) -> Mask:
    """``make(hits)``, kept by the bid and its frequent places: a bid whose places stay keeps its mask."""
    key = f"frequent-mask|{kind}|{source}|{parts_digest(hits.astype(np.int64).tobytes()).hex()}"
    return kept_or_made(key, np.ndarray, lambda: make(hits))


def frequent_masks(
    bids: Sequence[Ready],
    kind: str,
    grams: Callable[[int], Hashes],
    needed: int,
    make: Callable[[int, Places], Mask],
) -> list[Mask]:
    """For each bid ``n``, ``make(n, positions)``: the positions of its ``grams(n)`` (hashes named by
    ``kind`` with all they depend on but the bid) that at least ``needed`` of the bids hold.

    In the app the count is kept from check to check (see the module); elsewhere all bids' hashes are
    sorted together (``frequent_kgrams``)."""
    sources = [b.source for b in bids]
    if not memo_running() or not all(sources) or needed < 2 or needed > len(bids):
        every = [grams(n) for n in range(len(bids))]
        frequent = frequent_kgrams(every, needed)
        return [make(n, np.flatnonzero(is_member(g, frequent))) for n, g in enumerate(every)]
    held = _held(kind, sources, grams, needed)
    frequent = held.hashes[held.counts >= needed]
    return [_bid_mask(held, frequent, kind, n, source, grams, make) for n, source in enumerate(sources)]


def _bid_mask(
    held: Held,
    frequent: Hashes,
    kind: str,
    n: int,
    source: str,
    grams: Callable[[int], Hashes],
    make: Callable[[int, Places], Mask],
) -> Mask:
    """Bid ``n``'s mask from its places in the count (kept, or found now)."""
    at, values = _places(held, kind, source, lambda: grams(n))
    return _mask(kind, source, at[is_member(values, frequent)], lambda hits: make(n, hits))
