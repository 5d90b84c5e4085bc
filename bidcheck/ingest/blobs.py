"""Blobs of a binary image: 8-connected components found as runs of pixels joined across rows, their
boxes, and the smallest rotated rectangle around each (what OCR's text detector and the search for
pictures on scanned pages need of OpenCV's ``findContours``, ``connectedComponentsWithStats`` and
``minAreaRect``).

Each row's runs of set pixels are found with numpy; a run touches a run of the next row when their
columns overlap or meet at a corner (8-connectivity), and those pairs are joined by union-find over the
runs. A blob's convex hull is the hull of its runs' end pixels (the hull of its outline, which OpenCV
traces), and its smallest rectangle is found by OpenCV's rotating calipers, computed as OpenCV computes
them, in float32.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bidcheck.graph import components

__all__ = ["Blobs", "find_blobs", "min_area_rect"]

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Blobs:
    """The runs of a binary image and the blob each belongs to.

    ``rows``, ``starts`` and ``stops`` give each run (its pixels are ``starts`` to ``stops - 1`` of its row),
    in raster order; ``labels`` numbers the blobs 0, 1, ... in the raster order of their first pixel.
    """

    rows: Ints
    starts: Ints
    stops: Ints
    labels: Ints

    @property
    def count(self) -> int:
        """How many blobs there are."""
        return int(self.labels.max()) + 1 if len(self.labels) else 0

    def boxes(self) -> Ints:
        """Each blob's left, top, width, height and pixel count (``connectedComponentsWithStats``)."""
        if not self.count:
            return np.zeros((0, 5), np.int64)
        order = np.argsort(self.labels, kind="stable")
        firsts = np.searchsorted(self.labels[order], np.arange(self.count))
        rows, starts, stops = self.rows[order], self.starts[order], self.stops[order]
        left = np.minimum.reduceat(starts, firsts)
        top = np.minimum.reduceat(rows, firsts)
        right = np.maximum.reduceat(stops, firsts)
        bottom = np.maximum.reduceat(rows, firsts) + 1
        area = np.add.reduceat(stops - starts, firsts)
        return np.stack([left, top, right - left, bottom - top, area], axis=1)

    def end_points(self) -> list[npt.NDArray[np.float64]]:
        """For each blob, the (x, y) of the first and last pixel of each of its runs."""
        if not self.count:
            return []
        order = np.argsort(self.labels, kind="stable")
        cuts = np.searchsorted(self.labels[order], np.arange(1, self.count))
        firsts = np.stack([self.starts, self.rows], axis=1)[order]
        lasts = np.stack([self.stops - 1, self.rows], axis=1)[order]
        return [
            np.concatenate([a, b]).astype(np.float64)
            for a, b in zip(np.split(firsts, cuts), np.split(lasts, cuts), strict=True)
        ]


def _runs(mask: npt.NDArray[np.bool_]) -> tuple[Ints, Ints, Ints]:
    """The rows, first columns and stop columns (one past the last) of the runs of set pixels."""
    height, width = mask.shape
    padded = np.zeros((height, width + 2), np.int8)
    padded[:, 1:-1] = mask
    edges = np.diff(padded, axis=1).ravel()
    rises, falls = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return rises // (width + 1), rises % (width + 1), falls % (width + 1)


def _touching(rows: Ints, starts: Ints, stops: Ints, width: int) -> tuple[Ints, Ints]:
    """Pairs of runs (a, b) with b in the row below a, overlapping it or meeting it at a corner."""
    span = width + 2  # row keys: a run's columns never reach the next row's key
    start_keys, stop_keys = rows * span + starts, rows * span + stops
    below = (rows + 1) * span
    first = np.searchsorted(stop_keys, below + starts, side="left")
    after = np.searchsorted(start_keys, below + stops, side="right")
    counts = np.maximum(after - first, 0)
    a = np.repeat(np.arange(len(rows)), counts)
    b = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts) + np.repeat(first, counts)
    return a, b


def find_blobs(mask: npt.NDArray[np.bool_]) -> Blobs:
    """The 8-connected blobs of the set pixels of ``mask``."""
    rows, starts, stops = _runs(mask)
    roots = components(len(rows), *_touching(rows, starts, stops, mask.shape[1]))
    _, labels = np.unique(roots, return_inverse=True)
    return Blobs(rows, starts, stops, labels.astype(np.int64))


def _hull(points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The convex hull of points (x, y), counter-clockwise without collinear points (monotone chain)."""
    ordered = sorted(set(map(tuple, points.tolist())))
    if len(ordered) < 3:
        return np.array(ordered, np.float64)

    def chain(sequence: list[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in sequence:
            while len(out) >= 2 and (
                (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])
                <= 0
            ):
                out.pop()
            out.append(p)
        return out

    lower, upper = chain(ordered), chain(ordered[::-1])
    return np.array(lower[:-1] + upper[:-1], np.float64)


def _clockwise_hull(points: npt.NDArray[np.float64]) -> list[tuple[np.float32, np.float32]]:
    """The hull as ``cv2.convexHull(..., clockwise=True)`` gives it: from the topmost (then leftmost)
    vertex, clockwise on the image, in float32."""
    hull = _hull(points)
    clockwise = np.concatenate([hull[:1], hull[1:][::-1]])
    first = int(np.lexsort((clockwise[:, 0], clockwise[:, 1]))[0])
    return [(np.float32(x), np.float32(y)) for x, y in np.roll(clockwise, -first, axis=0)]


def _edges(
    hull: list[tuple[np.float32, np.float32]],
) -> tuple[list[tuple[np.float32, np.float32, np.float32]], list[int]]:
    """Each hull edge (dx, dy, 1 / length), and the bottom, right, top and left vertices (first met)."""
    n = len(hull)
    edges = []
    extremes = [0, 0, 0, 0]
    for i, (x, y) in enumerate(hull):
        lowest, rightmost, highest, leftmost = (hull[k] for k in extremes)
        if y < lowest[1]:
            extremes[0] = i
        if x > rightmost[0]:
            extremes[1] = i
        if y > highest[1]:
            extremes[2] = i
        if x < leftmost[0]:
            extremes[3] = i
        nx, ny = hull[(i + 1) % n]
        dx, dy = float(nx) - float(x), float(ny) - float(y)
        edges.append((np.float32(dx), np.float32(dy), np.float32(1.0 / math.sqrt(dx * dx + dy * dy))))
    return edges, extremes


def _orientation(edges: list[tuple[np.float32, np.float32, np.float32]]) -> np.float32:
    """1 or -1: which way the hull turns (the first non-zero cross product of consecutive edges)."""
    ax, ay = float(edges[-1][0]), float(edges[-1][1])
    for bx, by, _ in edges:
        turn = ax * float(by) - ay * float(bx)
        if turn != 0:
            return np.float32(1.0 if turn > 0 else -1.0)
        ax, ay = float(bx), float(by)
    return np.float32(1.0)


def _calipers(hull: list[tuple[np.float32, np.float32]]) -> tuple[tuple[np.float32, ...], ...]:
    """OpenCV's rotating calipers (``minAreaRect``), step for step in float32 so that the corners come
    out as OpenCV's do to the last bit (the text detector truncates them to whole pixels): a corner of
    the rectangle, and its two sides as vectors."""
    edges, seq = _edges(hull)
    base_a, base_b = _orientation(edges), np.float32(0)
    best: tuple[Any, ...] = ()
    smallest = np.float32(np.finfo(np.float32).max)
    for _ in hull:
        dots = (
            base_a * edges[seq[0]][0] + base_b * edges[seq[0]][1],
            -base_b * edges[seq[1]][0] + base_a * edges[seq[1]][1],
            -base_a * edges[seq[2]][0] - base_b * edges[seq[2]][1],
            base_b * edges[seq[3]][0] - base_a * edges[seq[3]][1],
        )
        turn, most = 0, dots[0] * edges[seq[0]][2]
        for k in (1, 2, 3):
            if dots[k] * edges[seq[k]][2] > most:
                turn, most = k, dots[k] * edges[seq[k]][2]
        dx, dy, inverse = edges[seq[turn]]
        lead_x, lead_y = dx * inverse, dy * inverse
        base_a, base_b = ((lead_x, lead_y), (lead_y, -lead_x), (-lead_x, -lead_y), (-lead_y, lead_x))[turn]
        seq[turn] = (seq[turn] + 1) % len(hull)
        width = (hull[seq[1]][0] - hull[seq[3]][0]) * base_a + (hull[seq[1]][1] - hull[seq[3]][1]) * base_b
        height = -(hull[seq[2]][0] - hull[seq[0]][0]) * base_b + (hull[seq[2]][1] - hull[seq[0]][1]) * base_a
        if width * height <= smallest:
            smallest, best = width * height, (seq[3], base_a, width, base_b, height, seq[0])
    left, a1, width, b1, height, bottom = best
    a2, b2 = -b1, a1
    c1 = a1 * hull[left][0] + hull[left][1] * b1
    c2 = a2 * hull[bottom][0] + hull[bottom][1] * b2
    idet = np.float32(1) / (a1 * b2 - a2 * b1)
    corner = ((c1 * b2 - c2 * b1) * idet, (a1 * c2 - a2 * c1) * idet)
    return corner, (a1 * width, b1 * width), (a2 * height, b2 * height)


def _box_points(
    center: tuple[np.float32, np.float32], size: tuple[np.float32, np.float32], degrees: np.float32
) -> npt.NDArray[np.float32]:
    """The rectangle's corners as ``cv2.boxPoints`` computes them from its centre, size and angle."""
    radians = float(degrees) * math.pi / 180.0
    b, a = np.float32(math.cos(radians)) * np.float32(0.5), np.float32(math.sin(radians)) * np.float32(0.5)
    (cx, cy), (w, h) = center, size
    p0 = (cx - a * h - b * w, cy + b * h - a * w)
    p1 = (cx + a * h - b * w, cy - b * h - a * w)
    two = np.float32(2)
    return np.array(
        [p0, p1, (two * cx - p0[0], two * cy - p0[1]), (two * cx - p1[0], two * cy - p1[1])], np.float32
    )


def min_area_rect(points: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float32], float, float]:
    """The four corners (float32) of the smallest rectangle around ``points`` and its two sides, as
    ``cv2.boxPoints(cv2.minAreaRect(points))`` gives them."""
    hull = _clockwise_hull(points)
    if len(hull) < 3:
        (x0, y0), (x1, y1) = hull[0], hull[-1]
        center = ((x0 + x1) * np.float32(0.5), (y0 + y1) * np.float32(0.5))
        dx, dy = float(x1) - float(x0), float(y1) - float(y0)
        length = np.float32(math.hypot(dx, dy))
        degrees = np.float32(float(np.float32(math.atan2(dy, dx))) * 180 / math.pi)
        return _box_points(center, (length, np.float32(0)), degrees), float(length), 0.0
    corner, side_a, side_b = _calipers(hull)
    half = np.float32(0.5)
    center = (corner[0] + (side_a[0] + side_b[0]) * half, corner[1] + (side_a[1] + side_b[1]) * half)
    width = np.float32(math.sqrt(float(side_a[0]) ** 2 + float(side_a[1]) ** 2))
    height = np.float32(math.sqrt(float(side_b[0]) ** 2 + float(side_b[1]) ** 2))
    degrees = np.float32(float(np.float32(math.atan2(float(side_a[1]), float(side_a[0])))) * 180 / math.pi)
    return _box_points(center, (width, height), degrees), float(width), float(height)
