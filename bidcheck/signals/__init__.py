"""Signs beyond shared wording (Article 40 of the 招标投标法实施条例), one module per sign.

Each finder is ``find(bids, section) -> [Linked | PublicValue]``: the pairs of bids sharing a sign,
with the signal, and the values it found too many bids holding to tie any two (``base.held_by_few``).
``_FINDERS`` is the table of them (the shape of ``bidcheck.ingest.registry``'s readers); a finder looks
at each bid once and pairs bids through a dict of values, never pair by pair. Every signal is weighed
here, once, by the number of bids holding its value (``base.weighed``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bidcheck.model import PublicValue, Signal
from bidcheck.progress import CancelFlag, check_cancel
from bidcheck.ready import Ready
from bidcheck.signals import (
    bills,
    concealed,
    cross_name,
    edit_session,
    identical,
    identifier,
    image,
    machine,
    metadata,
    prices,
    shared_error,
    table_fill,
    unit_prices,
)
from bidcheck.signals.base import Linked, SectionInfo, weighed
from bidcheck.signals.bidders import bidders_of
from bidcheck.signals.prices import price_patterns

__all__ = ["Linked", "SectionInfo", "SignalsFound", "find_signals", "price_patterns", "sign_keys"]

Finder = Callable[[Sequence[Ready], SectionInfo], Sequence[Linked | PublicValue]]
_FINDERS: dict[str, Finder] = {
    "identical": identical.find,
    "machine": machine.find,
    "bill": bills.find,
    "metadata": metadata.find,
    "cross_name": cross_name.find,
    "identifier": identifier.find,
    "edit_session": edit_session.find,
    "shared_error": shared_error.find,
    "table_fill": table_fill.find,
    "concealed": concealed.find,
    "image": image.find,
    "price": prices.find,
    "unit_price": unit_prices.find,
}


PairSignals = dict[tuple[str, str], tuple[Signal, ...]]


def sign_keys(doc: Ready) -> tuple[int, ...]:
    """The values of a bid's signs that the library keeps (hashed, ``base.value_key``): its identifiers,
    pictures, property names and listed misspellings, so that one many bidders elsewhere hold is known
    as public."""
    kept = (identifier.identifier_keys, image.picture_keys, metadata.metadata_keys, shared_error.error_keys)
    return tuple(sorted({key for keys in kept for key in keys(doc)}))


@dataclass(frozen=True)
class SignalsFound:
    """What the finders found: by pair of bid ids (in the bids' order), the signals the pair shares;
    and the values too many bids hold to count, most held first."""

    pairs: PairSignals = field(default_factory=dict)
    public: tuple[PublicValue, ...] = ()


def find_signals(
    bids: Sequence[Ready], section: SectionInfo, cancel: CancelFlag | None = None
) -> SignalsFound:
    """Every finder run on the section's bids (unless ``signals_enabled`` is off): each pair's signals,
    weighed by how many bids hold their values, strong ones first, then by kind, field, value; and the
    values many bids hold. Two files of one bidder (as their forms or names tell) are no pair."""
    if not section.settings.signals_enabled:
        return SignalsFound()
    order = {b.doc.id: n for n, b in enumerate(bids)}
    bidder = dict(zip(order, bidders_of(bids), strict=True))  # two files of one bidder share what they like
    found: dict[tuple[str, str], list[Signal]] = {}
    public: list[PublicValue] = []
    for find in _FINDERS.values():
        check_cancel(cancel)
        for item in find(bids, section):
            if isinstance(item, PublicValue):
                public.append(item)
                continue
            a, b, signal = item
            if bidder[a] == bidder[b]:
                continue
            key = (a, b) if order[a] < order[b] else (b, a)
            if (signal := weighed(signal)) not in found.setdefault(key, []):
                found[key].append(signal)
    pairs = {
        key: tuple(
            sorted(_said_once(signals), key=lambda s: (s.strength != "strong", s.kind, s.field, s.value))
        )
        for key, signals in sorted(found.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]]))
    }
    return SignalsFound(pairs, tuple(sorted(public, key=lambda v: (-v.holders, v.kind, v.field, v.value))))


def _said_once(signals: list[Signal]) -> list[Signal]:
    """A pair's signals less what another of them says already: the unit prices its tender tables
    filled alike say (the same rows of prices, told twice); and of the unit prices alike and its bills'
    prices alike (told item by item), the one that weighs more (the bills' where they weigh the same)."""
    if any(s.kind == "table_fill" for s in signals):
        return [s for s in signals if s.field != "unit_price"]
    alike = [s for s in signals if s.field == "same_prices"]
    rows = [s for s in signals if s.field == "unit_price"]
    if alike and rows:
        rows_weigh_more = any(s.strength == "strong" for s in rows) and all(
            s.strength != "strong" for s in alike
        )
        dropped = "same_prices" if rows_weigh_more else "unit_price"
        return [s for s in signals if s.field != dropped]
    return signals
