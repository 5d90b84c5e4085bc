"""Connected components of a graph given by its edges, in numpy: the library's whole-document groups and
the blobs of a scanned page's pixels (OCR's text detector, pictures on scanned pages) join through it."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["components"]

Ints = npt.NDArray[np.int64]


def components(count: int, a: Ints, b: Ints) -> Ints:
    """Connected components of ``count`` nodes joined by edges (a[i], b[i]), each node labelled by the
    smallest node of its component: roots hooked onto the smaller root of every edge, then every path
    compressed, until each edge's two ends carry one label."""
    labels = np.arange(count, dtype=np.int64)
    while True:
        la, lb = labels[a], labels[b]
        if np.array_equal(la, lb):
            return labels
        low = np.minimum(la, lb)
        np.minimum.at(labels, la, low)
        np.minimum.at(labels, lb, low)
        while not np.array_equal(jumped := labels[labels], labels):
            labels = jumped
