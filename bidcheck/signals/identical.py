"""The same file in two bidders' bids, byte for byte: the strongest sign there is (one file handed in
twice under two names), said as such beside the shared text it also gives.

Two documents read through the cache from the same bytes carry the same cache key (``Ready.source``:
the bytes' digest and what shapes their reading); a bidder's folder's key is that of all its files.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from bidcheck.model import Signal
from bidcheck.ready import Ready
from bidcheck.signals.base import Linked, SectionInfo

__all__ = ["find"]


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked]:
    """Pairs of bids read from the very same bytes (none of them the tender's)."""
    tender = {t.source for t in section.tenders if t.source}
    by_source: dict[str, list[int]] = {}
    for n, bid in enumerate(bids):
        if bid.source and bid.source not in tender:
            by_source.setdefault(bid.source, []).append(n)
    out = []
    for docs in by_source.values():
        for i, j in itertools.combinations(docs, 2):
            detail = "两家的投标文件逐字节完全相同：同一个文件以两家的名义递交"
            signal = Signal("identical", "strong", "same_file", bids[i].doc.name, detail, holders=len(docs))
            out.append(Linked(bids[i].doc.id, bids[j].doc.id, signal))
    return out
