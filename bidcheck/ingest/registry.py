"""Sniffs a file's real format from its bytes and dispatches to the reader for it."""

from __future__ import annotations

import stat
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from bidcheck.ingest.docx import read_docx
from bidcheck.ingest.errors import OUT_OF_MEMORY, ReadError
from bidcheck.ingest.folder import read_folder, section_sources, wanted
from bidcheck.ingest.image import read_image
from bidcheck.ingest.limits import ReadLimits, open_package
from bidcheck.ingest.ofd import read_ofd
from bidcheck.ingest.office import read_office
from bidcheck.ingest.pdf import read_pdf
from bidcheck.ingest.plain import read_plain
from bidcheck.ingest.pricing_xml import looks_like_pricing_xml, read_pricing_xml
from bidcheck.ingest.scan import OcrNeeded, OcrOptions
from bidcheck.ingest.xlsx import read_xlsx
from bidcheck.ingest.zipped import read_zip, zip_holds
from bidcheck.model import Document
from bidcheck.text.chars import decoded_name, replace_unsafe

__all__ = [
    "SUPPORTED_SUFFIXES",
    "collect_paths",
    "collect_sources",
    "document_name",
    "read_document",
    "sniff_format",
]

SUPPORTED_SUFFIXES = frozenset(
    {
        ".docx",
        ".pdf",
        ".txt",
        ".md",
        ".doc",
        ".wps",
        ".rtf",
        ".ofd",
        ".xml",
        ".xlsx",
        ".zip",
        ".png",
        ".jpg",
        ".jpeg",
        ".tif",
        ".tiff",
    }
)
Reader = Callable[[Path, str, str, OcrOptions, ReadLimits], Document]
_READERS: dict[str, Reader] = {
    "docx": lambda path, doc_id, name, _ocr, limits: read_docx(path, doc_id, name, limits),
    "pdf": read_pdf,
    "txt": lambda path, doc_id, name, _ocr, limits: read_plain(path, doc_id, name, limits),
    "image": lambda path, doc_id, name, ocr, _limits: read_image(path, doc_id, name, ocr),
    "ofd": lambda path, doc_id, name, _ocr, limits: read_ofd(path, doc_id, name, limits),
    "doc": lambda path, doc_id, name, _ocr, limits: read_office(
        path, doc_id, name, _office_format(path), limits
    ),
    "rtf": lambda path, doc_id, name, _ocr, limits: read_office(path, doc_id, name, "rtf", limits),
    "xml": lambda path, doc_id, name, _ocr, limits: read_pricing_xml(path, doc_id, name, limits),
    "xlsx": lambda path, doc_id, name, _ocr, limits: read_xlsx(path, doc_id, name, limits),
}
_UNSUPPORTED = {
    "zip": "压缩包或未知的 Office 文件，无法识别其中的文档",
    "binary": "无法识别的文件类型",
}
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\xd0\xcf\x11\xe0", "doc"),
    (b"{\\rtf", "rtf"),
    (b"\x89PNG", "image"),
    (b"\xff\xd8\xff", "image"),
    (b"II*\x00", "image"),
    (b"MM\x00*", "image"),
    (b"GIF8", "image"),
    (b"BM", "image"),
)


def sniff_format(path: Path, head: bytes, limits: ReadLimits | None = None) -> str:
    """The format of a file judged from its first bytes (the suffix is only a tie-breaker).

    Raises:
        ReadError: A zip file whose directory lists more entries than ``limits`` allow.
    """
    if b"%PDF-" in head[:1024]:
        return "pdf"
    if head.startswith(b"PK\x03\x04"):
        return _sniff_zip(path, limits or ReadLimits())
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    if path.suffix.lower() == ".xml" and looks_like_pricing_xml(head):
        return "xml"  # a pricing program's bill (a page of XML in a .txt stays text)
    return "txt" if _looks_like_text(head) else "binary"


def _sniff_zip(path: Path, limits: ReadLimits) -> str:
    try:
        with open_package(path, limits) as package:
            names = set(package.names())
    except (zipfile.BadZipFile, OSError):
        return "docx" if path.suffix.lower() == ".docx" else "zip"
    if "word/document.xml" in names:
        return "docx"
    if "xl/workbook.xml" in names:
        return "xlsx"
    return "ofd" if "OFD.xml" in names else "zip"


def _looks_like_text(head: bytes) -> bool:
    if not head or b"\x00" in head:
        return False
    for encoding in ("utf-8", "gb18030"):
        try:
            head.decode(encoding)
            return True
        except UnicodeDecodeError as exc:
            if encoding == "utf-8" and exc.start >= len(head) - 3:
                return True  # a multi-byte character cut off by the sniff window
    return False


def _reader_in_zip(ocr: OcrOptions | None, limits: ReadLimits) -> Callable[[Path, str], Document]:
    """How a zip's files are read: as any file, their scanned pages recognised at once (the unpacked
    files are gone before the OCR stage would come to them)."""
    options = replace(ocr, defer=False) if ocr is not None else None
    return lambda file, part_id: read_document(file, part_id, options, limits)


def _office_format(path: Path) -> str:
    """The format to report for an OLE word-processing file: ``wps`` when so named, else ``doc``."""
    return "wps" if path.suffix.lower() == ".wps" else "doc"


def read_document(
    path: Path, doc_id: str, ocr: OcrOptions | None = None, limits: ReadLimits | None = None
) -> Document:
    """Read one file; any failure becomes a document with ``status="error"`` and a plain message.

    Args:
        path: The file.
        doc_id: The document's id.
        ocr: How scanned pages and images are read (default: rapidocr, recognised here and now).
        limits: What the file may cost to read (default: ``ReadLimits()``).

    Raises:
        OcrNeeded: Only when ``ocr.defer`` is set: pages wait for the OCR stage.
    """
    name = document_name(path)
    try:
        if path.is_dir():
            doc = read_folder(path, doc_id, SUPPORTED_SUFFIXES, lambda f, i: read_document(f, i, ocr, limits))
            return _with_text(doc)
        head = _read_head(path)
        limits = limits or ReadLimits()
        kind = sniff_format(path, head, limits)
        if kind == "doc" and _is_encrypted_office(path):
            raise ReadError("Office 文件已加密，需要密码才能打开")
        if kind == "zip" and zip_holds(path, SUPPORTED_SUFFIXES, limits):  # a bidder's files, zipped
            doc = read_zip(path, doc_id, name, SUPPORTED_SUFFIXES, limits, _reader_in_zip(ocr, limits))
            return _with_text(doc)
        reader = _READERS.get(kind)
        if reader is None:
            raise ReadError(_UNSUPPORTED[kind])
        doc = reader(path, doc_id, name, ocr or OcrOptions(), limits)
    except OcrNeeded:
        raise
    except ReadError as exc:
        return error_document(path, doc_id, str(exc))
    except MemoryError:  # the reading process's memory cap (bidcheck.workers) was reached
        return error_document(path, doc_id, OUT_OF_MEMORY)
    except Exception as exc:  # a reader library failing on a malformed file must not stop the batch
        return error_document(path, doc_id, f"文件已损坏或格式无法解析（{type(exc).__name__}）")
    return _with_text(_printable(doc))  # a folder's or a zip's files were each made printable as read


def document_name(path: Path) -> str:
    """The name a file's document goes by: its file name (GBK bytes read as such), characters no output
    can hold replaced."""
    return replace_unsafe(decoded_name(path.name))


def _printable(doc: Document) -> Document:
    """The document with characters no output can hold replaced one for one (see ``text.chars``), here
    where text enters: every later stage, report and view then sees the same text at the same offsets."""
    blocks = tuple(
        replace(b, text=safe) if (safe := replace_unsafe(b.text)) is not b.text else b for b in doc.blocks
    )
    metadata = {key: replace_unsafe(value) for key, value in doc.metadata.items()}
    return replace(doc, blocks=blocks, metadata=metadata)


def _is_encrypted_office(path: Path) -> bool:
    """An encrypted .docx/.xlsx is an OLE container holding an ``EncryptedPackage`` stream."""
    with path.open("rb") as handle:
        data = handle.read(8 << 20)
    return "EncryptedPackage".encode("utf-16-le") in data


def _read_head(path: Path) -> bytes:
    try:
        if path.exists() and not stat.S_ISREG(path.stat().st_mode):  # a pipe would wait, a device not end
            raise ReadError("这不是普通文件（设备、管道或套接字），不予读取")
        with path.open("rb") as handle:
            head = handle.read(4096)
    except FileNotFoundError as exc:
        raise ReadError("文件不存在") from exc
    except IsADirectoryError as exc:
        raise ReadError("这是一个文件夹，不是文件") from exc
    except PermissionError as exc:
        raise ReadError("没有读取该文件的权限") from exc
    except OSError as exc:
        raise ReadError(f"无法读取文件：{exc.strerror or exc}") from exc
    if not head:
        raise ReadError("文件为空（0 字节）")
    return head


def _with_text(doc: Document) -> Document:
    """The document as read, or, when it has no text to compare, an error document saying why."""
    return doc if any(b.text.strip() for b in doc.compared_blocks()) else _without_text(doc)


def _without_text(doc: Document) -> Document:
    if doc.ocr_pages:
        message = f"经 OCR 识别仍没有文字（共 {doc.ocr_pages} 页图像，可能是空白页或图片质量太差）"
    elif doc.pages_without_text:
        message = f"没有文字层（共 {len(doc.pages_without_text)} 页为空白页或扫描图像）"
    else:
        message = "文件中没有可比较的文字"
    return Document(
        id=doc.id,
        path=doc.path,
        name=doc.name,
        format=doc.format,
        pages=doc.pages,
        metadata=doc.metadata,
        status="error",
        error=message,
        ocr_pages=doc.ocr_pages,
        pages_without_text=doc.pages_without_text,
    )


def error_document(path: Path, doc_id: str, message: str) -> Document:
    """A document that could not be read, carrying a message a user understands."""
    fmt = path.suffix.lower().lstrip(".") or "unknown"
    return Document(
        id=doc_id,
        path=str(path),
        name=document_name(path),
        format=replace_unsafe(fmt),
        status="error",
        error=replace_unsafe(message),
    )


def collect_paths(paths: Iterable[Path]) -> list[Path]:
    """Expand folders into the supported files inside them (sorted); files are kept as given."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if wanted(p, SUPPORTED_SUFFIXES, path) and not p.name.startswith(("~$", "."))
                )
            )
        else:
            out.append(path)
    return out


def collect_sources(paths: Iterable[Path]) -> list[Path]:
    """The bids of a section: files given, a folder's files, and its sub-folders, one bidder each (see
    ``bidcheck.ingest.folder``)."""
    return section_sources(paths, SUPPORTED_SUFFIXES)


def collect_bids(paths: Iterable[Path], named: Iterable[Path]) -> list[Path]:
    """The files of ``paths`` (folders expanded) less those ``named`` otherwise (the tender, templates):
    a tender kept in the section's folder and named as the tender is the tender, not one more bid."""
    others = {p.resolve() for p in collect_paths(named)}
    return [p for p in collect_paths(paths) if p.resolve() not in others]
