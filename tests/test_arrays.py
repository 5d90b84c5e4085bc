"""The shared numpy helpers."""

from __future__ import annotations

import numpy as np
import pytest

from bidcheck.arrays import code_points, distinct


@pytest.mark.parametrize(
    "values",
    [
        np.random.default_rng(7).integers(0, 2**63, 50_000, dtype=np.int64).astype(np.uint64),
        np.random.default_rng(8).integers(-3, 4, 1_000),
        np.asarray([5, 5, 5], dtype=np.int32),
        np.asarray([9], dtype=np.int64),
        np.zeros(0, dtype=np.uint64),
        np.asarray([[4, 1], [1, 2]], dtype=np.int64),
    ],
)
def test_distinct_is_numpy_unique(values: np.ndarray) -> None:
    found = distinct(values)
    assert found.dtype == values.dtype
    assert np.array_equal(found, np.unique(values))


def test_distinct_keeps_every_value_once_in_order() -> None:
    values = np.asarray([3, 1, 3, 2, 1, 3], dtype=np.uint64)
    assert distinct(values).tolist() == [1, 2, 3]


@pytest.mark.parametrize("text", ["", "投标文件 A-1", "𠀋堃\U0010ffff", "前\ud800后", "\x00\ufffe"])
def test_code_points_are_each_characters_number(text: str) -> None:
    """Every character's code point, in order, also beyond the basic plane and for a lone surrogate
    (which UTF-32 cannot encode strictly)."""
    points = code_points(text)
    assert points.dtype == np.uint32
    assert points.tolist() == [ord(c) for c in text]
