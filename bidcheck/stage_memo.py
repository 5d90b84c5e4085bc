"""What the stages after reading remember of a check: each stage's result kept on disk under one key
for everything they start from (every document as read, what the library said, the settings, the code),
so that a re-check of unchanged files costs what reading the cache costs."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import pickle
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from bidcheck import __version__
from bidcheck.cache import code_digest, has_blob, load_blob, store_blob
from bidcheck.config import Settings
from bidcheck.ready import Prepared

if TYPE_CHECKING:
    from bidcheck.library.history import Consulted

__all__ = ["STAGES_FORMAT", "inputs_key", "is_remembered", "library_said", "remembered"]

_T = TypeVar("_T")

# raise it when what a stage remembers changes shape: an installed build without sources keys its stages
# by its version alone (2: the verdicts are remembered before the rings, with their scores; 3: the signals
# with the values many bids hold, the masks with the text many bids hold, the scores with their spans)
STAGES_FORMAT = "stages 3"
_KIND = "stages"


@functools.cache
def _code() -> str:
    return code_digest(sorted(Path(__file__).resolve().parent.rglob("*.py")))


def inputs_key(settings: Settings, prepared: Sequence[Prepared], library: str | None) -> str:
    """One key for what the stages after reading start from: every document as read (its cache entry)
    under its id, name, path and role, what the library said (``library_said``; ``None`` without one),
    the settings and the code; "" when a document was read outside the cache."""
    parts = [__version__, STAGES_FORMAT, _code(), json.dumps(settings.to_dict(), sort_keys=True, default=str)]
    for p in prepared:
        if p.ready is not None and not p.ready.source:
            return ""
        read = p.ready.source if p.ready else f"{p.doc.status}|{p.doc.error}"
        parts.append(f"{p.doc.id}|{p.doc.name}|{p.doc.path}|{p.doc.role}|{read}")
    if library is not None:
        parts.append(library)
    text = "\n".join(parts).encode("utf-8", "surrogatepass")  # a file name may hold lone surrogates
    return hashlib.blake2b(text, digest_size=20).hexdigest()


def library_said(consulted: Consulted | None, error: str | None) -> str:
    """What the library said of the section, hashed whole (equal bytes, equal answers; bytes that differ
    for equal answers only cost a cache miss)."""
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
