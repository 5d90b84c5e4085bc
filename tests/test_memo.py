"""What a check remembers is keyed by all it was computed from: a remembered computation takes one
frozen inputs value, and the key is derived from every field of it."""

from __future__ import annotations

import dataclasses
import inspect
import typing
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pytest

import bidcheck.compare.kept
import bidcheck.evidence.frequent
import bidcheck.evidence.masks
import bidcheck.library.prints
import bidcheck.signals.identifier
import bidcheck.signals.shared_error
from bidcheck.config import Settings
from bidcheck.memo import COMPUTATIONS, key_of
from bidcheck.prepare import prepare_cached

MODULES = (
    bidcheck.compare.kept,
    bidcheck.evidence.frequent,
    bidcheck.evidence.masks,
    bidcheck.library.prints,
    bidcheck.signals.identifier,
    bidcheck.signals.shared_error,
)


@dataclass(frozen=True)
class _Inner:
    words: tuple[str, ...]
    weights: dict[str, float]


@dataclass(frozen=True)
class _Inputs:
    count: int
    share: float
    name: str
    flag: bool
    path: Path
    data: bytes
    values: np.ndarray
    inner: _Inner
    settings: Settings
    chosen: frozenset[str]
    missing: None = None


def _inputs() -> _Inputs:
    inner = _Inner(("甲", "乙"), {"a": 0.5, "b": 1.0})
    values = np.arange(6, dtype=np.int64)
    return _Inputs(3, 0.25, "名", True, Path("a/b"), b"xy", values, inner, Settings(), frozenset({"x", "y"}))


def _changed(inputs: _Inputs) -> list[_Inputs]:
    """``inputs`` with each field changed in turn, some deep inside."""
    inner = inputs.inner
    return [
        replace(inputs, count=4),
        replace(inputs, share=0.26),
        replace(inputs, name="名字"),
        replace(inputs, flag=False),
        replace(inputs, path=Path("a/c")),
        replace(inputs, data=b"xz"),
        replace(inputs, values=np.arange(1, 7, dtype=np.int64)),
        replace(inputs, values=inputs.values.view(np.float64)),  # the same bytes, another type
        replace(inputs, values=np.arange(6, dtype=np.int64).reshape(2, 3)),
        replace(inputs, inner=replace(inner, words=("甲",))),
        replace(inputs, inner=replace(inner, words=("甲乙",))),  # not the same as ("甲", "乙") joined
        replace(inputs, inner=replace(inner, weights={"a": 0.5, "b": 1.5})),
        replace(inputs, settings=Settings(ring_min_chars=400)),
        replace(inputs, chosen=frozenset({"x"})),
    ]


def test_every_field_of_the_inputs_is_in_the_key() -> None:
    inputs = _inputs()
    key = key_of(inputs)
    assert key is not None and key == key_of(_inputs())  # equal values, other objects: the same key
    keys = [key_of(changed) for changed in _changed(inputs)]
    assert len(set(keys)) == len(keys) and key not in keys


def test_inputs_that_name_nothing_are_not_keyed_and_other_values_are_refused(
    section: dict[str, Path],
) -> None:
    ready = prepare_cached(section["a"], "d1", "bid", Settings(workers=1)).ready
    assert ready is not None and ready.source
    again = prepare_cached(section["a"], "d9", "bid", Settings(workers=1)).ready
    other = prepare_cached(section["c"], "d1", "bid", Settings(workers=1)).ready
    assert key_of(ready) == key_of(again) != key_of(other)  # what the document says, not its place
    assert key_of((ready, 1)) is not None and key_of((replace(ready, source=""), 1)) is None
    with pytest.raises(TypeError):
        key_of({"a": object()})


def _inputs_type(compute: typing.Callable[..., object]) -> type:
    hints = typing.get_type_hints(compute, vars(inspect.getmodule(compute)))
    (name,) = inspect.signature(compute).parameters
    return typing.cast(type, hints[name])


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_each_remembered_computation_is_a_function_of_one_frozen_inputs_value(module: object) -> None:
    """One parameter, no default, no closure, no other argument: what it reads comes in its inputs, a
    frozen dataclass whose every field the key holds (``key_of``)."""
    found = [c for c in COMPUTATIONS if c.__module__ == getattr(module, "__name__", "")]
    assert found, "the module remembers nothing through memoised"
    for compute in found:
        parameters = list(inspect.signature(compute).parameters.values())
        assert len(parameters) == 1 and parameters[0].default is inspect.Parameter.empty, compute
        assert compute.__closure__ is None and compute.__defaults__ is None, compute
        kind = _inputs_type(compute)
        assert dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen, compute  # type: ignore[attr-defined]
