"""OCR's image steps without OpenCV (bidcheck.ingest.raster, bidcheck.ingest.blobs), held to OpenCV's own.

OpenCV stays installed with rapidocr for the tests (the desktop bundle leaves it out), so each step is
compared with the OpenCV call it replaces, on random images and shapes.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bidcheck.ingest.blobs import find_blobs, min_area_rect
from bidcheck.ingest.raster import dilate, fill_convex, resize_linear, warp_quad


@pytest.mark.parametrize(
    ("source", "target"),
    [
        ((2339, 992), (960, 416)),
        ((40, 300), (48, 360)),
        ((33, 77), (48, 112)),
        ((60, 500), (48, 400)),
        ((9, 5), (48, 27)),
    ],
)
def test_bilinear_resize_gives_opencvs_pixels(source: tuple[int, int], target: tuple[int, int]) -> None:
    pixels = np.random.default_rng(sum(source)).integers(0, 256, source, dtype=np.uint8)
    height, width = target
    assert np.array_equal(resize_linear(pixels, width, height), cv2.resize(pixels, (width, height)))


def test_bilinear_resize_does_not_average_what_it_skips_as_pillow_does() -> None:
    stripes = np.zeros((8, 64), np.uint8)
    stripes[:, ::2] = 255  # every other column white: OpenCV samples between pairs, Pillow averages them
    assert np.array_equal(resize_linear(stripes, 16, 8), cv2.resize(stripes, (16, 8)))


@pytest.mark.parametrize("size", [2, 3])
def test_dilation_is_opencvs_with_its_anchor(size: int) -> None:
    mask = np.random.default_rng(size).random((50, 61)) > 0.9
    expected = cv2.dilate(mask.astype(np.uint8), np.ones((size, size), np.uint8)).astype(bool)
    assert np.array_equal(dilate(mask, size), expected)


def test_blobs_and_their_boxes_are_opencvs_components() -> None:
    rng = np.random.default_rng(1)
    mask = dilate(rng.random((300, 400)) > 0.97, 3)
    mask[100:140, 50:60] = True  # a blob with a hole and a diagonal touch
    mask[110:130, 53:57] = False
    mask[140, 60] = True
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    blobs = find_blobs(mask)
    assert blobs.count == count - 1 > 500
    # OpenCV numbers the blobs as it meets them two rows at a time; bidcheck in raster order
    assert sorted(map(tuple, blobs.boxes().tolist())) == sorted(map(tuple, stats[1:].tolist()))


def test_an_empty_image_has_no_blobs() -> None:
    blobs = find_blobs(np.zeros((10, 10), bool))
    assert blobs.count == 0 and blobs.end_points() == [] and blobs.boxes().shape == (0, 5)


def _area(corners: np.ndarray) -> float:
    xs, ys = corners[:, 0].astype(float), corners[:, 1].astype(float)
    return abs(float(np.dot(xs, np.roll(ys, -1)) - np.dot(ys, np.roll(xs, -1)))) / 2


def test_the_smallest_rectangle_around_a_blob_is_as_small_as_opencvs() -> None:
    rng = np.random.default_rng(2)
    mask = dilate(rng.random((200, 300)) > 0.985, 5)
    blobs = find_blobs(mask)
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert len(contours) == blobs.count > 100
    ours = sorted(round(_area(min_area_rect(points)[0]), 2) for points in blobs.end_points())
    theirs = sorted(round(_area(cv2.boxPoints(cv2.minAreaRect(c))), 2) for c in contours)
    assert np.allclose(ours, theirs, atol=0.01)


def test_a_filled_box_covers_opencvs_pixels_but_for_an_edge_pixel_here_and_there() -> None:
    rng = np.random.default_rng(3)
    differing = []
    for _ in range(100):
        centre, angle, (w, h) = rng.uniform(15, 45, 2), rng.uniform(0, np.pi), rng.uniform(2, 14, 2)
        u, v = np.array([np.cos(angle), np.sin(angle)]), np.array([-np.sin(angle), np.cos(angle)])
        corners = np.array([centre + a * w * u + b * h * v for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        corners = corners.astype(np.int32)
        expected = np.zeros((60, 60), np.uint8)
        cv2.fillPoly(expected, corners.reshape(1, -1, 2), 1)
        ours = fill_convex(corners, 60, 60)
        differing.append(int((ours != expected.astype(bool)).sum()) / max(1, int(expected.sum())))
    assert np.median(differing) <= 0.05 and max(differing) <= 0.2


def test_an_upright_line_is_cut_out_pixel_for_pixel() -> None:
    pixels = np.random.default_rng(4).integers(0, 256, (200, 300), dtype=np.uint8)
    corners = np.array([[20, 30], [220, 30], [220, 70], [20, 70]], np.float32)
    assert np.array_equal(warp_quad(pixels, corners, 200, 40), pixels[30:70, 20:220])


def test_a_tilted_line_is_straightened_as_opencv_straightens_it() -> None:
    rng = np.random.default_rng(5)
    pixels = rng.integers(0, 256, (200, 300), dtype=np.uint8)
    same = total = 0
    for _ in range(20):
        corners = np.array([[20, 30], [220, 40], [215, 80], [18, 70]], np.float32)
        corners += rng.uniform(-5, 5, (4, 2)).astype(np.float32)
        target = np.array([[0, 0], [200, 0], [200, 40], [0, 40]], np.float32)
        matrix = cv2.getPerspectiveTransform(corners, target)
        expected = cv2.warpPerspective(
            pixels, matrix, (200, 40), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE
        )
        ours = warp_quad(pixels, corners, 200, 40)
        assert np.abs(ours.astype(int) - expected).max() <= 1  # float sums added in another order
        same += int((ours == expected).sum())
        total += ours.size
    assert same / total >= 0.999


def test_the_blobs_of_ink_on_a_scanned_page_are_those_opencv_found() -> None:
    from bidcheck.ingest.regions import _GAP, _blobs

    rng = np.random.default_rng(6)
    ink = rng.random((150, 110)) > 0.995
    ink[40:90, 30:70] = rng.random((50, 40)) > 0.3  # a photo, speckled
    joined = cv2.dilate(ink.astype(np.uint8), np.ones((_GAP, _GAP), np.uint8))  # the former code
    _, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    rim = _GAP // 2
    expected = sorted(
        (y + rim, y + h - rim, x + rim, x + w - rim)
        for x, y, w, h, _ in stats[1:].tolist()
        if x > 0 and y > 0 and x + w < 110 and y + h < 150
    )
    found = sorted((r.start, r.stop, c.start, c.stop) for r, c in _blobs(ink))
    assert found == expected
    assert any(
        top <= 41 and bottom >= 89 and left <= 31 and right >= 69 for top, bottom, left, right in found
    )
