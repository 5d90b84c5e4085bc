"""What goes into the library and comes back out of it: a section's files, their keys, its rows."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.library.prints import BidPrint

__all__ = [
    "FileKey",
    "PendingBid",
    "SectionRow",
    "StoredBid",
    "StoredFile",
    "file_key",
    "kept_ids",
    "made_bid",
]


@dataclass(frozen=True)
class StoredBid:
    """One file of a section as it goes into the library."""

    name: str
    digest: str
    bidder: str
    role: str
    chars: int
    simhash: int
    metadata: dict[str, str]
    print: BidPrint
    text: str | None = None
    bands: npt.NDArray[np.uint32] | None = None  # window MinHash band keys (prints.window_band_keys)
    shape: str = ""  # the settings and code its fingerprints were made with ("": not known)
    values: tuple[int, ...] = ()  # its signs' values, hashed (``signals.base.value_key``)

    def key(self) -> FileKey:
        """What tells this file unchanged when its section is stored again."""
        metadata = json.dumps(self.metadata, ensure_ascii=False)
        return FileKey(self.name, self.digest, self.bidder, self.role, self.chars, metadata, self.shape)


@dataclass(frozen=True)
class FileKey:
    """A stored file's name, bytes (digest), bidder, role, characters, metadata (JSON) and ``shape``:
    a file of a section stored again with an equal key keeps its rows. A ``shape`` of "" is never
    equal (the settings and code the rows were made with are not known)."""

    name: str
    digest: str
    bidder: str
    role: str
    chars: int
    metadata: str
    shape: str


@dataclass(frozen=True)
class PendingBid:
    """A file whose fingerprints are made (``make``) only when its section does not hold it unchanged."""

    key: FileKey
    make: Callable[[], StoredBid]


def file_key(item: StoredBid | PendingBid) -> FileKey:
    """The key of a file made or still to be made."""
    return item.key if isinstance(item, PendingBid) else item.key()


def kept_ids(stored: Sequence[tuple[int, FileKey]], wanted: Sequence[FileKey]) -> list[int | None]:
    """For each wanted file, the id of a stored file with its key (each stored file used once), or None."""
    free: dict[FileKey, list[int]] = {}
    for file_id, key in stored:
        if key.shape:
            free.setdefault(key, []).append(file_id)
    return [free[key].pop(0) if free.get(key) else None for key in wanted]


@dataclass(frozen=True)
class StoredFile:
    """One file of a stored section as the library gives it back."""

    id: int
    section: str
    name: str
    bidder: str
    role: str
    chars: int
    print: BidPrint
    text: str | None


@dataclass(frozen=True)
class SectionRow:
    """A stored section: name, kind, when it was checked, its files and bidders."""

    name: str
    kind: str
    checked: str
    files: int
    bidders: tuple[str, ...]


def made_bid(bid: StoredBid | PendingBid) -> StoredBid:
    """The file's fingerprints, made now where they were pending."""
    return bid.make() if isinstance(bid, PendingBid) else bid
