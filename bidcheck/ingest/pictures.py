"""The pictures of a document, hashed twice for comparison: a digest of the stored image (the same file
put into two bids) and a perceptual hash of how it looks (``imagehash``'s dHash, 64 bits: the same photo
re-encoded, resized or recompressed; dHash needs no DCT, so no SciPy to load in every reading process),
with a small thumbnail to show it by.

Pictures smaller than ``MIN_SIDE`` pixels on a side (icons, rules, bullets) are left out, and so is any
image that cannot be decoded: a picture is a hint, never worth failing a file for.
"""

from __future__ import annotations

import hashlib
import io
import warnings

import imagehash
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from bidcheck.model import Picture

__all__ = ["MAX_PICTURES", "MIN_SIDE", "pdf_page_pictures", "picture_from_bytes", "picture_from_image"]

MIN_SIDE = 64
MAX_PICTURES = 400  # per document: a file of thousands of pictures is hashed no further
_THUMBNAIL = 128  # pixels on the longer side
_LIGHT = 235  # grey level from which a pixel is paper
_PLAIN = 0.6  # a picture more than this share paper is a page of text or a drawing on white
_HASHED = 256  # pictures are brought down to this size first (JPEGs decoded so by DCT scaling)


def digest_of(data: bytes) -> str:
    """The digest of a picture's stored bytes."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def picture_from_image(image: Image.Image, page: int, digest: str, size: tuple[int, int]) -> Picture:
    """A decoded picture's hashes and thumbnail (``size``: its full size in pixels). The picture is
    first brought down to ``_HASHED`` pixels (the hash looks at 9 × 8 of them), which also makes any
    copy of it at another size hash alike."""
    image.thumbnail((_HASHED, _HASHED), Image.Resampling.BILINEAR, reducing_gap=2.0)
    image = image.convert("RGB")
    phash = int(str(imagehash.dhash(image)), 16)
    light = sum(image.convert("L").histogram()[_LIGHT:]) / (image.width * image.height)
    image.thumbnail((_THUMBNAIL, _THUMBNAIL), Image.Resampling.BILINEAR)
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=1)
    return Picture(page, digest, phash, size[0], size[1], out.getvalue(), light > _PLAIN)


def picture_from_bytes(data: bytes, page: int) -> Picture | None:
    """A stored picture (PNG, JPEG, GIF, BMP, TIFF...) hashed, or ``None`` when it is too small or
    cannot be decoded (a vector EMF/WMF drawing, a damaged file)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            size = image.size
            if min(size) < MIN_SIDE:
                return None
            image.draft("RGB", (_HASHED, _HASHED))
            image.load()
            return picture_from_image(image, page, digest_of(data), size)
    except Exception:  # any undecodable picture is skipped, never fatal
        return None


def pdf_page_pictures(page: pdfium.PdfPage, number: int, limit: int) -> list[Picture]:
    """The image objects of a PDF page (at most ``limit``), hashed: a JPEG stream decoded as a JPEG, any
    other through pdfium's decoded bitmap; the digest is of the stream as stored."""
    found: list[Picture] = []
    for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=3):
        if len(found) >= limit:
            break
        picture = _pdf_picture(obj, number)
        if picture is not None:
            found.append(picture)
    return found


def _pdf_picture(obj: pdfium.PdfImage, number: int) -> Picture | None:
    try:
        size = obj.get_px_size()
        if min(size) < MIN_SIDE:
            return None
        data = bytes(obj.get_data(decode_simple=False))
        if obj.get_filters() == ["DCTDecode"]:
            return picture_from_bytes(data, number)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = obj.get_bitmap(render=False).to_pil()
        return picture_from_image(image, number, digest_of(data), size)
    except Exception:  # an image pdfium cannot decode is skipped, never fatal
        return None
