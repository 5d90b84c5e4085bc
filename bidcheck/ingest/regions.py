"""Pictures on scanned pages: the regions of a page image that are dark but hold no text.

OCR's detection boxes say where a page's text is (a box taller than a twentieth of the page, 15 mm
on A4, is no line of text: the detector also boxes a photo's texture and reads a letter or two in
it). What else on the page is solidly dark — a photo, a
chart in colour — is a picture, cropped and hashed like any embedded one. The page is looked at reduced
``_SCALE`` times: pixels clearly darker than its paper, outside the text boxes (widened a little),
joined into blobs across small gaps. A blob is a picture when its box is at least ``MIN_SIDE`` pixels
a side (at the page's resolution), is mostly dark (a stamp, a table's rules, a signature or text OCR
missed is mostly paper: every one looks alike at the perceptual hash's 9 × 8, and two scans never give
the same pixels), keeps off the page's edge (a scanner's shadow) and covers at most ``_MAX_SHARE`` of
the page (a grey photocopy's background; a page that is one picture is hashed as the PDF's image
object). At most ``MAX_REGIONS`` a page, the largest first.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from PIL import Image

from bidcheck.ingest.blobs import find_blobs
from bidcheck.ingest.pictures import MIN_SIDE, picture_from_image
from bidcheck.ingest.raster import dilate
from bidcheck.model import Picture

__all__ = ["MAX_REGIONS", "picture_regions", "region_pictures"]

Box = tuple[float, float, float, float]  # left, top, right, bottom in page pixels

MAX_REGIONS = 3
_SCALE = 4  # the page is searched at a quarter of its resolution (50 dpi for a 200-dpi page)
_DARKER = 48  # grey levels below the paper from which a pixel is ink
_GAP = 3  # cells (of _SCALE pixels): ink this close belongs to one region
_WIDEN = 2  # cells each text box is widened by (descenders, a character's halo)
_DARK_SHARE = 0.5  # a picture's box is at least this share ink
_MAX_SHARE = 0.5  # of the page's area
_TALLEST_LINE = 1 / 20  # of the page's height


def _ink(page: Image.Image, text: Sequence[Box]) -> npt.NDArray[np.bool_]:
    """The cells clearly darker than the paper (the page's 90th-percentile grey), text boxes cleared."""
    pixels = np.asarray(page.convert("L").reduce(_SCALE), dtype=np.int16)
    ink: npt.NDArray[np.bool_] = pixels < np.percentile(pixels, 90) - _DARKER
    tallest = page.height * _TALLEST_LINE
    for left, top, right, bottom in (box for box in text if box[3] - box[1] <= tallest):
        rows = slice(max(0, int(top) // _SCALE - _WIDEN), int(bottom) // _SCALE + _WIDEN + 1)
        ink[rows, max(0, int(left) // _SCALE - _WIDEN) : int(right) // _SCALE + _WIDEN + 1] = False
    return ink


def _is_picture(ink: npt.NDArray[np.bool_], rows: slice, columns: slice) -> bool:
    height, width = rows.stop - rows.start, columns.stop - columns.start
    return (
        min(height, width) * _SCALE >= MIN_SIDE
        and height * width <= _MAX_SHARE * ink.size
        and float(ink[rows, columns].mean()) >= _DARK_SHARE
    )


def _blobs(ink: npt.NDArray[np.bool_]) -> list[tuple[slice, slice]]:
    """The boxes (rows, columns) of the ink of each blob (ink joined across ``_GAP`` cells) that keeps
    off the edge."""
    stats = find_blobs(dilate(ink, _GAP)).boxes()
    rim, (height, width) = _GAP // 2, ink.shape  # the dilation widened each blob by ``rim`` a side
    return [
        (slice(int(y) + rim, int(y + h) - rim), slice(int(x) + rim, int(x + w) - rim))
        for x, y, w, h, _ in stats
        if x > 0 and y > 0 and x + w < width and y + h < height
    ]


def picture_regions(page: Image.Image, text: Sequence[Box]) -> list[Box]:
    """The boxes (page pixels, whole numbers) of the pictures on a page image whose text lies in
    ``text``, the largest first, at most ``MAX_REGIONS``."""
    ink = _ink(page, text)
    found = [(rows, columns) for rows, columns in _blobs(ink) if _is_picture(ink, rows, columns)]
    found.sort(key=lambda box: -(box[0].stop - box[0].start) * (box[1].stop - box[1].start))
    return [
        (c.start * _SCALE, r.start * _SCALE, c.stop * _SCALE, r.stop * _SCALE) for r, c in found[:MAX_REGIONS]
    ]


def region_pictures(page: Image.Image, text: Sequence[Box], number: int) -> list[Picture]:
    """The pictures on a scanned page (``number``, 1-based), cropped from ``page`` and hashed; those
    that turn out mostly paper at full resolution are left out."""
    pictures = [picture_from_image(page.crop(box), number) for box in picture_regions(page, text)]
    return [p for p in pictures if not p.plain]
