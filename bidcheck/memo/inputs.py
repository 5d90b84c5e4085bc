"""A computation remembered by its inputs: it takes one frozen value as its only argument, and the key
of what it gives is derived from all of that value (``key_of``), never written beside it by hand.

``memoised`` wraps such a computation: called with its inputs, it gives what an earlier call with equal
inputs stored, else computes and stores. ``memoised_per_key`` wraps one that gives a value for each of the
keys its inputs ask for (``keys``): the values are remembered in one entry under the rest of the inputs,
which grows with the keys asked (a check asks of a document what earlier checks asked, and a few more).
The key names the computation, every field of its inputs and the package's code; a document in the
inputs is named by its cache entry (``memo_key``), the settings by every setting. A field added to an
inputs value is part of the key at once, so a key cannot miss what the computation reads as long as it
reads nothing else: a computation is a function of its inputs alone (no closure, no default, one
parameter; ``tests/test_memo.py`` holds each registered one to it).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

import numpy as np

from bidcheck import __version__
from bidcheck.memo.keys import package_code, parts_digest
from bidcheck.memo.running import keep_in_memo, kept_in_memo, load_entry, memo_running, store_entry

__all__ = ["COMPUTATIONS", "Keyed", "PerKey", "key_of", "memoised", "memoised_in_memory", "memoised_per_key"]

_I = TypeVar("_I")
_T = TypeVar("_T")
_K = TypeVar("_K", bound=Hashable)
_KIND = "derived"
COMPUTATIONS: list[Callable[..., object]] = []  # every computation ``memoised`` wraps, for the tests


@runtime_checkable
class Keyed(Protocol):
    """A value that names itself in a key: a document read names its cache entry (``None``: read
    outside the cache, so nothing holding it is remembered)."""

    def memo_key(self) -> str | None: ...


class _Unkeyed(Exception):
    """The inputs hold a value that names nothing (a document read outside the cache)."""


def key_of(inputs: object) -> bytes | None:
    """A digest of a frozen inputs value, all of it: dataclasses field by field, ``Keyed`` values by
    their ``memo_key``, text, numbers, bytes, paths, numpy arrays (type, shape and bytes), tuples, lists,
    sets and mappings of these; ``None`` when a value names nothing. Another type is a ``TypeError``:
    it would have to be keyed by hand."""
    parts: list[bytes] = []
    try:
        _encode(inputs, parts)
    except _Unkeyed:
        return None
    return parts_digest(*parts)


def _encode(value: object, out: list[bytes]) -> None:
    if isinstance(value, Keyed):
        key = value.memo_key()
        if key is None:
            raise _Unkeyed
        out += [b"K", key.encode("utf-8", "surrogatepass")]
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        out += [b"D", type(value).__qualname__.encode()]
        for field in dataclasses.fields(value):
            out.append(field.name.encode())
            _encode(getattr(value, field.name), out)
    elif isinstance(value, np.ndarray):
        out += [
            b"A",
            value.dtype.str.encode(),
            repr(value.shape).encode(),
            np.ascontiguousarray(value).tobytes(),
        ]
    else:
        _encode_plain(value, out)


def _encode_plain(value: object, out: list[bytes]) -> None:
    if value is None or isinstance(value, bool | int | float):
        out += [b"N", repr(value).encode()]
    elif isinstance(value, str | Path):
        out += [b"S", str(value).encode("utf-8", "surrogatepass")]
    elif isinstance(value, bytes):
        out += [b"B", value]
    elif isinstance(value, tuple | list):
        out += [b"L", str(len(value)).encode()]
        for item in value:
            _encode(item, out)
    elif isinstance(value, dict):
        out += [b"M", str(len(value)).encode()]
        for name in sorted(value, key=repr):
            _encode(name, out)
            _encode(value[name], out)
    elif isinstance(value, frozenset | set):
        _encode(sorted(value, key=repr), out)
    else:
        raise TypeError(f"a {type(value).__name__} cannot be part of a memo key")


def _entry_key(compute: Callable[..., object], digest: bytes) -> str:
    name = f"{compute.__module__}.{compute.__qualname__}|{__version__}|{package_code()}"
    return "y" + hashlib.blake2b(name.encode() + digest, digest_size=20).hexdigest()


def memoised(compute: Callable[[_I], _T]) -> Callable[[_I], _T]:
    """``compute``, remembered by its inputs (see the module): a call with inputs equal to an earlier
    call's (in this check, an earlier one, or the app's previous check of the section) gives what that
    one stored; inputs that name nothing (``key_of``) are computed each time."""
    return _remembering(compute, functools.partial(load_entry, _KIND), functools.partial(store_entry, _KIND))


def memoised_in_memory(compute: Callable[[_I], _T]) -> Callable[[_I], _T]:
    """``compute``, remembered by its inputs as ``memoised`` remembers, in the running check's memory
    only (the app's: a check with a bid more finds what the check before made of the others); without
    one it is computed each time. For values cheaper to make again than to read from disk."""
    return _remembering(compute, kept_in_memo, keep_in_memo, memo_running)


def _remembering(
    compute: Callable[[_I], _T],
    load: Callable[[str], object | None],
    store: Callable[[str, object], object],
    active: Callable[[], bool] = lambda: True,
) -> Callable[[_I], _T]:
    """``compute`` registered, and remembered by its inputs' key where ``active()``: ``load(key)`` gives
    what was stored (``None``: nothing), ``store(key, value)`` stores it."""
    COMPUTATIONS.append(compute)

    @functools.wraps(compute)
    def remembered(inputs: _I) -> _T:
        digest = key_of(inputs) if active() else None
        if digest is None:
            return compute(inputs)
        key = _entry_key(compute, digest)
        found = load(key)
        if found is not None:
            return cast(_T, found)
        value = compute(inputs)
        store(key, value)
        return value

    return remembered


class PerKey(Protocol):
    """The inputs of a computation ``memoised_per_key`` wraps: a frozen dataclass whose field ``keys``
    names what is asked for."""

    @property
    def keys(self) -> frozenset[Any]: ...


_P = TypeVar("_P", bound=PerKey)


def memoised_per_key(compute: Callable[[_P], Mapping[_K, _T]]) -> Callable[[_P], dict[_K, _T]]:
    """``compute``, a value for each of its inputs' ``keys``, remembered by the rest of its inputs in one
    entry that grows with the keys asked (see the module): the keys no call asked before are computed
    together. Inputs that name nothing (``key_of``) are computed each time."""
    COMPUTATIONS.append(compute)

    @functools.wraps(compute)
    def remembered(inputs: _P) -> dict[_K, _T]:
        wanted = inputs.keys
        digest = key_of(dataclasses.replace(cast(Any, inputs), keys=frozenset()))
        if digest is None:
            return dict(compute(inputs))
        entry = _entry_key(compute, digest)
        known = load_entry(_KIND, entry)
        values: dict[_K, _T] = dict(known) if isinstance(known, dict) else {}
        missing = wanted.difference(values)
        if missing:
            values.update(compute(dataclasses.replace(cast(Any, inputs), keys=frozenset(missing))))
            store_entry(_KIND, entry, values)
        return {k: values[k] for k in wanted}

    return remembered
