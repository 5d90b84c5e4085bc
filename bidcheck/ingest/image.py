"""Image files (``.png``, ``.jpg``, multi-page ``.tif``) as documents: one page per frame, read by OCR."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.scan import OcrOptions, PageOcr
from bidcheck.model import Block, Document

__all__ = ["read_image"]

_FORMATS = {"jpeg": "jpg", "tiff": "tif", "mpo": "jpg"}
_EXIF_FIELDS = {305: "application", 306: "modified", 315: "author"}  # Software, DateTime, Artist


def read_image(path: Path, doc_id: str, name: str, ocr: OcrOptions) -> Document:
    """Read an image file by OCR, each frame a page.

    Raises:
        ReadError: The image cannot be decoded, or the OCR engine is missing.
        OcrNeeded: ``ocr.defer`` is set and frames are not in the OCR cache yet.
    """
    frames, fmt, meta = _inspect(path)
    scanner = PageOcr(path, "image", frames, ocr)
    blocks: list[Block] = []
    empty_pages: list[int] = []
    for index in range(frames):
        page_blocks = scanner.blocks(index)
        if not page_blocks:
            empty_pages.append(index + 1)
        blocks.extend(page_blocks)
    scanner.finish()
    scanner.check_read(blocks)
    return Document(
        id=doc_id,
        path=str(path),
        name=name,
        format=fmt,
        pages=frames,
        blocks=tuple(blocks),
        metadata=meta,
        ocr_pages=scanner.done,
        pages_without_text=tuple(empty_pages),
        pictures=tuple(scanner.pictures),
    )


def _inspect(path: Path) -> tuple[int, str, dict[str, str]]:
    """The frame count, format name and EXIF properties of an image file."""
    try:
        with Image.open(path) as image:
            frames = int(getattr(image, "n_frames", 1))
            fmt = (image.format or path.suffix.lstrip(".")).lower()
            exif = image.getexif()
            image.load()  # decodes the first frame: a truncated or damaged file fails here
    except Image.DecompressionBombError as exc:
        raise ReadError("图片像素过多，无法识别") from exc
    except (OSError, ValueError, SyntaxError) as exc:
        raise ReadError("图片文件已损坏或无法解析") from exc
    meta = {
        key: str(exif[tag]).strip() for tag, key in _EXIF_FIELDS.items() if str(exif.get(tag, "")).strip()
    }
    return frames, _FORMATS.get(fmt, fmt), meta
