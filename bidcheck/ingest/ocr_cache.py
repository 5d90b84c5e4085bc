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
import os
import sys
import tempfile
from pathlib import Path

from PIL import Image

from bidcheck.ingest.ocr import OcrLine

__all__ = ["CACHE_ENV", "cache_dirs", "file_digest", "image_key", "load_lines", "page_key", "store_lines"]

CACHE_ENV = "BIDCHECK_CACHE_DIR"
_FORMAT = 1


def _user_cache_root() -> Path:
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return (Path(local) if local else Path.home() / "AppData" / "Local") / "bidcheck" / "cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "bidcheck"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "bidcheck"


def cache_dirs() -> tuple[Path, Path]:
    """The OCR cache folder, and the fallback in the temporary directory."""
    return _user_cache_root() / "ocr", Path(tempfile.gettempdir()) / "bidcheck-cache" / "ocr"


def _digest(*parts: bytes) -> str:
    digest = hashlib.blake2b(digest_size=20)
    for part in parts:
        digest.update(part)
    return digest.hexdigest()


def image_key(engine_id: str, image: Image.Image) -> str:
    """The key of a page image's result: its pixels, size and mode, and the engine."""
    head = f"{_FORMAT}|{engine_id}|{image.mode}|{image.size}|".encode()
    return "i" + _digest(head, image.tobytes())


def file_digest(path: Path) -> str:
    """A hash of a file's bytes."""
    digest = hashlib.blake2b(digest_size=20)
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def page_key(engine_id: str, digest: str, page: int, dpi: int) -> str:
    """The key of a file page's result: the file's bytes, the page, the rendering and the engine."""
    return "p" + _digest(f"{_FORMAT}|{engine_id}|{digest}|{page}|{dpi}".encode())


def _path(folder: Path, key: str) -> Path:
    return folder / key[1:3] / f"{key}.json"


def load_lines(key: str) -> list[OcrLine] | None:
    """The cached result under ``key``, or ``None``."""
    for folder in cache_dirs():
        try:
            data = json.loads(_path(folder, key).read_text(encoding="utf-8"))
            return [OcrLine(t, tuple(c), (b[0], b[1], b[2], b[3])) for t, c, b in data["lines"]]
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            continue
    return None


def store_lines(keys: list[str], lines: list[OcrLine]) -> None:
    """Store a result under each key (written whole or not at all); failures are ignored."""
    rows = [[ln.text, [round(c, 4) for c in ln.confidences], [round(v, 1) for v in ln.box]] for ln in lines]
    payload = json.dumps({"format": _FORMAT, "lines": rows}, ensure_ascii=False)
    for key in keys:
        for folder in cache_dirs():
            if _write(_path(folder, key), payload):
                break


def _write(path: Path, payload: str) -> bool:
    """Write a file whole (a temporary file renamed into place) or not at all."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=path.parent, suffix=".part")
    except OSError:
        return False
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(payload)
        os.replace(temp, path)
        return True
    except OSError:
        Path(temp).unlink(missing_ok=True)
        return False
