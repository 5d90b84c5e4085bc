"""The running check's memory: entries of the on-disk cache read through it (``ReadMemo``: the app
checks a section again when a file is added, and the other files' entries are then not read from disk
again), and values kept in that memory only (``keep_in_memo``). A computation of one frozen inputs value is
remembered by ``bidcheck.memo.inputs``."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import cast

from bidcheck.memo.store import load_blob, store_blob

__all__ = [
    "ReadMemo",
    "forget_unused",
    "keep_in_memo",
    "kept_in_memo",
    "load_entry",
    "memo_running",
    "put_entry",
    "store_entry",
]


class ReadMemo:
    """Entries of the cache (documents as read, what was derived of them, verified pairs) kept in
    memory from one check to the next of the same process: the app checks a section again when a file
    is added, and the other files' entries are then not read from disk and unpickled again. It holds
    the entries the last check used (``during``), no more; an entry is the very value the disk holds,
    and a key names what made it, so a value found here is the one the disk would give. Some values
    are kept in memory only (``keep_in_memo``: pairs judged), under keys that name what made them too.
    Values are shared between checks: nothing may change one in place."""

    def __init__(self) -> None:
        self._kept: dict[str, object] = {}
        self._used: dict[str, object] = {}

    def get(self, key: str) -> object | None:
        """The value kept under ``key`` (then kept for the next check too), or ``None``."""
        value = self._used.get(key)
        if value is None and (value := self._kept.get(key)) is not None:
            self._used[key] = value
        return value

    def put(self, key: str, value: object) -> None:
        """Keep a value read from disk, or stored there, during this check."""
        self._used[key] = value

    def forget_unused(self, kind: str) -> None:
        """Let go of the entries of a kind that the last check used and this one has not (the files
        read: a check that reads another section holds one section's documents, not two)."""
        prefix = f"{kind}/"
        self._kept = {k: v for k, v in self._kept.items() if not k.startswith(prefix) or k in self._used}

    @contextmanager
    def during(self) -> Iterator[None]:
        """Use this memo for the cache entries read in this thread (a check); after, keep what it used."""
        if _MEMO.get() is self:  # already in use (the check inside a check and store)
            yield
            return
        token = _MEMO.set(self)
        try:
            yield
        finally:
            _MEMO.reset(token)
            self._kept, self._used = self._used, {}


_MEMO: ContextVar[ReadMemo | None] = ContextVar("read_memo", default=None)


def load_entry(kind: str, key: str) -> object | None:
    """The unpickled entry ``key`` of a kind: from the memo of the running check, else from disk."""
    memo = _MEMO.get()
    found = memo.get(f"{kind}/{key}") if memo is not None else None
    if found is not None:
        return found
    data = load_blob(kind, key)
    if data is None:
        return None
    try:
        value = pickle.loads(data)
    except Exception:  # an entry from another version, or damaged: computed again
        return None
    if memo is not None:
        memo.put(f"{kind}/{key}", value)
    return cast(object, value)


def store_entry(kind: str, key: str, value: object) -> bytes:
    """Store an entry on disk, and in the memo of the running check; the entry's bytes."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    store_blob(kind, key, data)
    if (memo := _MEMO.get()) is not None:
        memo.put(f"{kind}/{key}", value)
    return data


def memo_running() -> bool:
    """Whether the running check has a memo (the app's: see ``ReadMemo``)."""
    return _MEMO.get() is not None


def kept_in_memo(key: str) -> object | None:
    """A value the running check's memo holds under ``key`` (see ``keep_in_memo``), or ``None``."""
    memo = _MEMO.get()
    return memo.get(key) if memo is not None else None


def keep_in_memo(key: str, value: object) -> None:
    """Keep a value worked out in this process in the running check's memo, for the next check with it
    (memory only: ``key`` must name everything the value depends on, as a cache key does)."""
    if (memo := _MEMO.get()) is not None:
        memo.put(key, value)


def put_entry(kind: str, key: str, value: object) -> None:
    """Keep in the running check's memo an entry stored on disk elsewhere (a reading process's)."""
    if (memo := _MEMO.get()) is not None:
        memo.put(f"{kind}/{key}", value)


def forget_unused(kind: str) -> None:
    """In the running check's memo, let go of the entries of a kind the last check used and this one
    has not (see ``ReadMemo.forget_unused``)."""
    if (memo := _MEMO.get()) is not None:
        memo.forget_unused(kind)
