"""OCR results cached on disk, so that a page is recognised once: a re-run reads them back at once.

A result is stored under the hash of the page image (the same scan in another file is found too) and,
for pages of a file, under the hash of the file's bytes and the page number, so that a re-run finds it
without rendering the page. Keys include the engine's ``cache_id``. The folder is
``$BIDCHECK_CACHE_DIR/ocr`` when that variable is set, else the user's cache folder
(``~/.cache/bidcheck/ocr``, ``%LOCALAPPDATA%\\bidcheck\\cache\\ocr``); when it cannot be written, a folder
in the temporary directory is used. A cache that cannot be read or written only costs time.
"""

from __future__ import annotations

import hashlib
import json

from PIL import Image

from bidcheck.ingest.ocr import OcrLine
from bidcheck.memo import CACHE_ENV, file_digest, load_blob, store_blob

__all__ = ["CACHE_ENV", "file_digest", "image_key", "load_lines", "page_key", "store_lines"]

_FORMAT = 1
_KIND = "ocr"


def _digest(*parts: bytes) -> str:
    digest = hashlib.blake2b(digest_size=20)
    for part in parts:
        digest.update(part)
    return digest.hexdigest()


def image_key(engine_id: str, image: Image.Image) -> str:
    """The key of a page image's result: its pixels, size and mode, and the engine."""
    head = f"{_FORMAT}|{engine_id}|{image.mode}|{image.size}|".encode()
    return "i" + _digest(head, image.tobytes())


def page_key(engine_id: str, digest: str, page: int, dpi: int) -> str:
    """The key of a file page's result: the file's bytes, the page, the rendering and the engine."""
    return "p" + _digest(f"{_FORMAT}|{engine_id}|{digest}|{page}|{dpi}".encode())


def load_lines(key: str) -> list[OcrLine] | None:
    """The cached result under ``key``, or ``None``."""
    data = load_blob(_KIND, key, ".json")
    if data is None:
        return None
    try:
        rows = json.loads(data.decode("utf-8"))["lines"]
        return [OcrLine(t, tuple(c), (b[0], b[1], b[2], b[3])) for t, c, b in rows]
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def store_lines(keys: list[str], lines: list[OcrLine]) -> None:
    """Store a result under each key (written whole or not at all); failures are ignored."""
    rows = [[ln.text, [round(c, 4) for c in ln.confidences], [round(v, 1) for v in ln.box]] for ln in lines]
    payload = json.dumps({"format": _FORMAT, "lines": rows}, ensure_ascii=False).encode("utf-8")
    for key in keys:
        store_blob(_KIND, key, payload, ".json")
