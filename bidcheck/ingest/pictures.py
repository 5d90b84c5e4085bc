"""The pictures of a document, hashed twice for comparison: a digest of its decoded pixels (the same
picture put into two bids, whatever its file's compression or metadata) and a perceptual hash of how it
looks (``imagehash``'s dHash, 64 bits: the same photo re-encoded, resized or recompressed; dHash needs
no DCT, so no SciPy to load in every reading process), with a small thumbnail to show it by.

Decoding is most of the cost. A JPEG is decoded once, by DCT scaling, at the smallest of 1/1, 1/2, 1/4
or 1/8 of its size that keeps ``_DECODED`` pixels a side (a 12-megapixel phone photo at a sixteenth of
its pixels), and its digest is of those pixels: the same coefficients give them, whatever the file's
metadata or entropy coding, and a JPEG small enough to be decoded whole digests like the same pixels
saved as PNG. Any other picture is decoded whole. Both are then reduced by a whole factor for the rest.

A picture is *drawn* when a computer drew it — a screenshot of a web page, a chart, a logo, a form —
rather than a camera or a scanner taking it: at least ``_FLAT`` of its reduced pixels are the very colour
of their right-hand neighbour (on 24 screenshots, charts and drawings 0.57–0.91; on 21 photos, scans of
text and medical or astronomical images 0.01–0.31, their grain keeping neighbours apart). A bilevel
picture (a black-and-white scan, as fax and PDF scanners store pages) is never drawn: it is all flat.

Pictures smaller than ``MIN_SIDE`` pixels on a side (icons, rules, bullets) are left out, and so is any
image that cannot be decoded: a picture is a hint, never worth failing a file for. So is a picture that
is not a JPEG and holds more than ``MAX_DECODED_PIXELS`` (a 13,000 × 13,000 PNG of 257 KB decodes to
half a gigabyte; twelve of them held 2.1 GB): its size is read from its header, before any decoding.
"""

from __future__ import annotations

import contextlib
import io
import warnings
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import imagehash
import numpy as np
import pypdfium2 as pdfium
import xxhash
from PIL import Image

from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.limits import ReadLimits, open_package
from bidcheck.model import Picture

__all__ = [
    "MAX_DECODED_PIXELS",
    "MAX_PICTURES",
    "MIN_SIDE",
    "package_pictures",
    "pdf_page_pictures",
    "picture_from_bytes",
    "picture_from_image",
    "pixels_digest",
]

MIN_SIDE = 64
MAX_DECODED_PIXELS = 40_000_000  # a picture decoded whole (not a JPEG, decoded smaller) holds at most these
MAX_PICTURES = 400  # per document: a file of thousands of pictures is hashed no further
_THUMBNAIL = 128  # pixels on the longer side
_DECODED = 256  # a JPEG is decoded at a scale that keeps at least this many pixels a side
_LIGHT = 235  # grey level from which a pixel is paper
_PLAIN = 0.6  # a picture more than this share paper is a page of text or a drawing on white
_FLAT = 0.5  # a picture whose pixels are this often their right neighbour's colour is drawn


def pixels_digest(image: Image.Image, size: tuple[int, int]) -> str:
    """The digest of a decoded picture's pixels, with its size (``size``, and the size it was decoded
    at) and mode: a PNG re-saved with other compression or metadata, or a palette or opaque-alpha copy
    of the same colours, digests alike. Pixels are taken as RGB, or RGBA where some are transparent
    (XXH3, 128 bits: 0.03 ms for a picture of 900 × 600, where SHA-256 takes 0.8 ms)."""
    if image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGBA" if _has_alpha(image) else "RGB")
    if image.mode == "RGBA" and image.getchannel("A").getextrema()[0] == 255:
        image = image.convert("RGB")  # an alpha channel that hides nothing
    digest = xxhash.xxh3_128(f"{image.mode} {size[0]}x{size[1]} {image.width}x{image.height}\n".encode())
    digest.update(image.tobytes())
    return digest.hexdigest()


def _has_alpha(image: Image.Image) -> bool:
    return image.mode in ("LA", "PA", "La", "RGBa") or "transparency" in image.info


def picture_from_image(image: Image.Image, page: int, size: tuple[int, int] | None = None) -> Picture:
    """A decoded picture's hashes and thumbnail (``size``: its full size, when it was decoded smaller).
    The picture is reduced by a whole factor to between one and two thumbnails' size (averaging blocks
    of pixels: a fifth of the cost of resampling), and the perceptual hash (which looks at 9 × 8
    pixels) taken of that, so that a copy of the picture at another size hashes alike."""
    size = size or image.size
    digest = pixels_digest(image, size)
    factor = max(1, max(image.size) // _THUMBNAIL)
    small = (image if image.mode == "RGB" else image.convert("RGB")).reduce(factor)
    drawn = image.mode != "1" and _flat_share(small) >= _FLAT
    grey = small.convert("L")
    phash = int(str(imagehash.dhash(grey)), 16)
    light = sum(grey.histogram()[_LIGHT:]) / (grey.width * grey.height)
    small.thumbnail((_THUMBNAIL, _THUMBNAIL), Image.Resampling.BILINEAR)
    out = io.BytesIO()
    small.save(out, "PNG", compress_level=1)
    return Picture(page, digest, phash, size[0], size[1], out.getvalue(), light > _PLAIN, drawn)


def _flat_share(image: Image.Image) -> float:
    """The share of an RGB picture's pixels that are exactly the colour of their right-hand neighbour."""
    pixels = np.asarray(image, dtype=np.uint8)
    if pixels.shape[1] < 2:
        return 0.0
    return float(np.all(pixels[:, 1:] == pixels[:, :-1], axis=-1).mean())


def picture_from_bytes(data: bytes, page: int) -> Picture | None:
    """A stored picture (PNG, JPEG, GIF, BMP, TIFF...) hashed, or ``None`` when it is too small or
    cannot be decoded (a vector EMF/WMF drawing, a damaged file)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            size = image.size
            if min(size) < MIN_SIDE or (image.format != "JPEG" and size[0] * size[1] > MAX_DECODED_PIXELS):
                return None
            image.draft("RGB", (_DECODED, _DECODED))  # a JPEG decoded smaller; no other format
            image.load()
            return picture_from_image(image, page, size)
    except Exception:  # any undecodable picture is skipped, never fatal
        return None


def package_pictures(
    path: Path, limits: ReadLimits, placed: Iterable[tuple[str, int]]
) -> tuple[Picture, ...]:
    """The pictures of a zip package's parts (a docx's ``word/media``, an OFD's resources), each part
    once, at the first page that places it, at most ``MAX_PICTURES``, within ``limits`` (a budget of
    their own, apart from the text's); a part that cannot be read or decoded is left out."""
    found: list[Picture] = []
    seen: set[str] = set()
    try:
        with open_package(path, limits) as package:
            for part, page in placed:
                if part in seen or len(found) >= MAX_PICTURES:
                    continue
                seen.add(part)
                with contextlib.suppress(KeyError):
                    picture = picture_from_bytes(package.read(part), page)
                    found += [picture] if picture else []
    except (ReadError, OSError, zipfile.BadZipFile):
        pass  # the pictures read so far stand; a picture is never worth failing a file for
    return tuple(found)


def pdf_page_pictures(page: pdfium.PdfPage, images: Iterable[Any], number: int, limit: int) -> list[Picture]:
    """The image objects of a PDF page (``images``: pdfium's handles, as the page's walk found them; at
    most ``limit``), hashed: a JPEG stream decoded as a JPEG, any other through pdfium's decoded bitmap."""
    found: list[Picture] = []
    for handle in images:
        if len(found) >= limit:
            break
        picture = _pdf_picture(pdfium.PdfObject(handle, page=page, pdf=page.pdf), number)
        if picture is not None:
            found.append(picture)
    return found


def _pdf_picture(obj: pdfium.PdfImage, number: int) -> Picture | None:
    try:
        size = obj.get_px_size()
        if min(size) < MIN_SIDE:
            return None
        if obj.get_filters() == ["DCTDecode"]:
            return picture_from_bytes(bytes(obj.get_data(decode_simple=False)), number)
        if size[0] * size[1] > MAX_DECODED_PIXELS:
            return None  # decoded whole by pdfium: too large to be worth it
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = obj.get_bitmap(render=False).to_pil()
        return picture_from_image(image, number)
    except Exception:  # an image pdfium cannot decode is skipped, never fatal
        return None
