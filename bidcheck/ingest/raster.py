"""Image steps of OCR in numpy, computed as OpenCV computes them (without OpenCV's 150 MB in the bundle).

The PP-OCR models were trained on images prepared by OpenCV, and rapidocr prepares them so: the page
scaled for the detector and each line scaled to the recogniser's height by OpenCV's bilinear resize
(which, unlike Pillow's, does not average over the pixels it skips when it shrinks), and each text line
cut out of the page by a perspective warp with bicubic interpolation. These functions give the same
pixels, in OpenCV's fixed-point arithmetic (``tests/test_raster.py`` holds them to OpenCV's own).
Images are 2-D ``uint8`` arrays (one grey channel: bidcheck reads pages in grey).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["dilate", "fill_convex", "resize_linear", "warp_quad"]

Pixels = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.bool_]

_RESIZE_ONE = 2048  # OpenCV's fixed-point 1 of a bilinear weight (INTER_RESIZE_COEF_SCALE)
_CUBIC_A = -0.75  # OpenCV's bicubic kernel


def _linear_weights(
    source: int, target: int, clamp: bool
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """For each target pixel, the two source pixels and their fixed-point weights. Across (``clamp``), a
    target pixel beyond the outer source pixels' centres takes the outer pixel whole; down, OpenCV keeps
    the weights and repeats the outer row."""
    scale = 1.0 / (target / source)
    exact = ((np.arange(target) + 0.5) * scale - 0.5).astype(np.float32)
    first = np.floor(exact).astype(np.intp)
    fraction = (exact - first).astype(np.float32)
    if clamp:
        fraction[(first < 0) | (first >= source - 1)] = 0
        first = np.clip(first, 0, source - 1)
    weight_first = np.rint((1 - fraction) * _RESIZE_ONE).astype(np.int32)
    weight_second = np.rint(fraction * _RESIZE_ONE).astype(np.int32)
    second = np.clip(first + 1, 0, source - 1)
    return np.clip(first, 0, source - 1), second, weight_first, weight_second


def resize_linear(pixels: Pixels, width: int, height: int) -> Pixels:
    """``pixels`` scaled to ``width`` x ``height`` as ``cv2.resize(..., INTER_LINEAR)`` scales them."""
    rows_a, rows_b, down_a, down_b = _linear_weights(pixels.shape[0], height, clamp=False)
    cols_a, cols_b, across_a, across_b = _linear_weights(pixels.shape[1], width, clamp=True)

    def across(rows: npt.NDArray[np.intp]) -> npt.NDArray[np.int32]:
        # int32 holds every step: 255 x 2048 across, then 2048 x 32,640 down (2^31 is 2.1 billion)
        picked = pixels[rows].astype(np.int32)
        return (picked[:, cols_a] * across_a + picked[:, cols_b] * across_b) >> 4

    top, bottom = across(rows_a), across(rows_b)
    out = (((down_a[:, None] * top) >> 16) + ((down_b[:, None] * bottom) >> 16) + 2) >> 2
    scaled: Pixels = np.clip(out, 0, 255).astype(np.uint8)
    return scaled


def dilate(mask: Mask, size: int) -> Mask:
    """``cv2.dilate`` with a ``size`` x ``size`` square of ones: each pixel becomes the maximum of the
    square whose centre (OpenCV's anchor, ``size // 2``) it is; outside the image counts nothing."""
    out = mask.copy()
    height, width = mask.shape
    for dy in range(-(size // 2), size - size // 2):
        for dx in range(-(size // 2), size - size // 2):
            if dx == dy == 0:
                continue
            target = out[max(0, -dy) : height - max(0, dy), max(0, -dx) : width - max(0, dx)]
            target |= mask[max(0, dy) : height + min(0, dy), max(0, dx) : width + min(0, dx)]
    return out


def _outline(corners: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The pixels (x, y) of a closed polygon's edges drawn as 8-connected lines."""
    xs, ys = [], []
    for (x0, y0), (x1, y1) in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        t = np.arange(steps + 1)
        xs.append(x0 + np.ceil((x1 - x0) * t / steps - 0.5).astype(np.int64))
        ys.append(y0 + np.ceil((y1 - y0) * t / steps - 0.5).astype(np.int64))
    return np.concatenate(xs), np.concatenate(ys)


def fill_convex(corners: npt.NDArray[np.int32], height: int, width: int) -> Mask:
    """The pixels of a ``height`` x ``width`` image inside a convex polygon of whole-pixel ``corners``
    (x, y), its edges drawn too, as ``cv2.fillPoly`` fills it."""
    mask = np.zeros((height, width), np.bool_)
    xs, ys = _outline(corners.astype(np.int64))
    inside = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
    mask[ys[inside], xs[inside]] = True
    for row in np.unique(ys[inside]):
        columns = xs[ys == row]
        mask[row, max(0, columns.min()) : min(width - 1, columns.max()) + 1] = True
    return mask


def _cubic(fraction: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """OpenCV's four bicubic weights (float32) of each sub-pixel position, one row per position."""
    a, x = np.float32(_CUBIC_A), fraction.astype(np.float32)
    one = np.float32(1)
    w0 = ((a * (x + one) - np.float32(5) * a) * (x + one) + np.float32(8) * a) * (x + one) - np.float32(4) * a
    w1 = ((a + np.float32(2)) * x - (a + np.float32(3))) * x * x + one
    w2 = ((a + np.float32(2)) * (one - x) - (a + np.float32(3))) * (one - x) * (one - x) + one
    return np.stack([w0, w1, w2, one - w0 - w1 - w2], axis=1).astype(np.float32)


def _source_positions(
    inverse: npt.NDArray[np.float64], width: int, height: int
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Where each target pixel comes from in the source (float32, as OpenCV 5 computes it)."""
    xs, ys = np.meshgrid(np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64))
    w = inverse[2, 0] * xs + inverse[2, 1] * ys + inverse[2, 2]
    w = np.divide(1.0, w, out=np.zeros_like(w), where=w != 0)
    fx = (inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2]) * w
    fy = (inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2]) * w
    return fx.astype(np.float32), fy.astype(np.float32)


def perspective(source: npt.NDArray[np.float32], target: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """The 3 x 3 matrix taking four ``source`` points to four ``target`` points
    (``cv2.getPerspectiveTransform``)."""
    a = np.zeros((8, 8))
    b = np.zeros(8)
    for i, ((x, y), (u, v)) in enumerate(
        zip(source.astype(np.float64), target.astype(np.float64), strict=True)
    ):
        a[i] = [x, y, 1, 0, 0, 0, -x * u, -y * u]
        a[i + 4] = [0, 0, 0, x, y, 1, -x * v, -y * v]
        b[i], b[i + 4] = u, v
    return np.append(np.linalg.solve(a, b), 1.0).reshape(3, 3)


def _whole_shift(
    inverse: npt.NDArray[np.float64], shape: tuple[int, ...], width: int, height: int
) -> tuple[int, int] | None:
    """The whole-pixel shift (x, y) that ``inverse`` is, when it is one that keeps inside the image."""
    dx, dy = round(float(inverse[0, 2])), round(float(inverse[1, 2]))
    shift = np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1]], np.float64)
    inside = dx >= 0 and dx + width <= shape[1] and dy >= 0 and dy + height <= shape[0]
    return (dx, dy) if inside and np.abs(inverse - shift).max() < 1e-9 else None


def warp_quad(pixels: Pixels, corners: npt.NDArray[np.float32], width: int, height: int) -> Pixels:
    """The quadrilateral ``corners`` (top-left, top-right, bottom-right, bottom-left) of ``pixels``
    straightened to ``width`` x ``height``: ``cv2.warpPerspective`` with bicubic interpolation and the
    border repeated, as rapidocr cuts out a text line."""
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    inverse = np.asarray(np.linalg.inv(perspective(corners, target)), np.float64)
    moved = _whole_shift(inverse, pixels.shape, width, height)
    if moved is not None:  # an upright box of the right size: the weights are 0, 1, 0, 0
        return pixels[moved[1] : moved[1] + height, moved[0] : moved[0] + width].copy()
    fx, fy = _source_positions(inverse, width, height)
    left, top = np.floor(fx), np.floor(fy)
    across = _cubic((fx - left).ravel()).reshape(height, width, 4)
    down = _cubic((fy - top).ravel()).reshape(height, width, 4)
    x0, y0 = left.astype(np.intp) - 1, top.astype(np.intp) - 1
    total = np.zeros((height, width), np.float32)
    for k1 in range(4):
        rows = np.clip(y0 + k1, 0, pixels.shape[0] - 1)
        row = np.zeros((height, width), np.float32)
        for k2 in range(4):
            row += across[..., k2] * pixels[rows, np.clip(x0 + k2, 0, pixels.shape[1] - 1)]
        total += down[..., k1] * row
    return np.clip(np.rint(total), 0, 255).astype(np.uint8)
