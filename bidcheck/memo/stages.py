"""What the stages after reading remember of a check: each stage's result kept on disk under one key
for everything they start from (every document as read, what the library said, the settings, the code),
so that a re-check of unchanged files costs what reading the cache costs."""

from __future__ import annotations

import contextlib
import hashlib
import pickle
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

from bidcheck import __version__
from bidcheck.config import Settings
from bidcheck.memo.keys import package_code, settings_key
from bidcheck.memo.store import has_blob, load_blob, store_blob

__all__ = ["STAGES_FORMAT", "inputs_key", "is_remembered", "library_said", "remembered"]

_T = TypeVar("_T")

# raise it when what a stage remembers changes shape: an installed build without sources keys its stages
# by its version alone (2: the verdicts are remembered before the rings, with their scores; 3: the signals
# with the values many bids hold, the masks with the text many bids hold, the scores with their spans)
STAGES_FORMAT = "stages 3"
_KIND = "stages"


def inputs_key(settings: Settings, documents: Sequence[str | None], library: str | None) -> str:
    """One key for what the stages after reading start from: every document as read (``documents``,
    each its ``Prepared.memo_part``), what the library said (``library_said``; ``None`` without one),
    the settings and the code; "" when a document was read outside the cache (``None``)."""
    parts = [__version__, STAGES_FORMAT, package_code(), settings_key(settings)]
    for document in documents:
        if document is None:
            return ""
        parts.append(document)
    if library is not None:
        parts.append(library)
    text = "\n".join(parts).encode("utf-8", "surrogatepass")  # a file name may hold lone surrogates
    return hashlib.blake2b(text, digest_size=20).hexdigest()


def library_said(consulted: object | None, error: str | None) -> str:
    """What the library said of the section (``library.history.Consulted``), hashed whole (equal bytes,
    equal answers; bytes that differ for equal answers only cost a cache miss)."""
    if consulted is None:
        return f"library not read|{error}"
    data = pickle.dumps(consulted, protocol=pickle.HIGHEST_PROTOCOL)
    return "library|" + hashlib.blake2b(data, digest_size=20).hexdigest()


def is_remembered(key: str, stage: str) -> bool:
    """Whether an earlier check from the same inputs (``key``) remembered the stage's result (not read
    here: the stage reads it when it runs)."""
    return bool(key) and has_blob(_KIND, _stage_key(key, stage))


def _stage_key(key: str, stage: str) -> str:
    return f"{stage[0]}{key}"


def remembered(
    key: str, stage: str, compute: Callable[[], _T], keep: bool | Callable[[_T], bool] = True
) -> _T:
    """What ``compute`` gives, or what it gave in an earlier check from the same inputs (``key``; ""
    remembers nothing). ``keep`` false (or false of the value): not remembered."""
    entry = _stage_key(key, stage)
    data = load_blob(_KIND, entry) if key else None
    if data is not None:
        with contextlib.suppress(Exception):  # damaged, or written by another version: compute again
            return cast(_T, pickle.loads(data))
    value = compute()
    if key and (keep(value) if callable(keep) else keep):
        store_blob(_KIND, entry, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    return value
