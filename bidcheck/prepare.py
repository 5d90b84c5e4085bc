"""The per-document stages: read, clean, normalise and fingerprint one file, never raising; each file's
outcome kept in the on-disk cache (``bidcheck.memo``), so that an unchanged file is read once."""

from __future__ import annotations

import functools
import hashlib
import pickle
import stat
from dataclasses import dataclass, replace
from pathlib import Path
from typing import cast

from bidcheck import __version__
from bidcheck.config import SETTINGS_VERSION, Settings, settings_shaping
from bidcheck.fingerprint import fingerprint_text
from bidcheck.ingest import SUPPORTED_SUFFIXES, read_document
from bidcheck.ingest.errors import OUT_OF_MEMORY
from bidcheck.ingest.folder import bidder_files
from bidcheck.ingest.limits import ReadLimits
from bidcheck.ingest.registry import document_name, error_document
from bidcheck.ingest.scan import OcrNeeded, OcrOptions
from bidcheck.memo import code_digest, file_digest, forget_unused, load_entry, put_entry, store_entry
from bidcheck.model import Role
from bidcheck.ready import Prepared, Ready
from bidcheck.text import build_clean_text, clean_document
from bidcheck.text.bills import bill_from_tables
from bidcheck.text.prices import read_price

__all__ = [
    "CACHE_VERSION",
    "Pickled",
    "cached_ready",
    "forget_unread",
    "load_prepared",
    "prepare_cached",
    "prepare_document",
    "prepare_stored",
    "prepared_shape",
    "read_limits",
    "remember_read",
]


def _too_large(path: Path, settings: Settings) -> str | None:
    """Why a file (or a file of a bidder's folder) is too large to read, or ``None``."""
    files = bidder_files(path, SUPPORTED_SUFFIXES) if path.is_dir() else [path]
    for file in files:
        try:
            size_mb = file.stat().st_size / (1 << 20)
        except OSError:
            continue  # the reader reports why the file cannot be read
        if size_mb > settings.max_file_mb:
            name = f"{file.name} " if file != path else ""
            return f"文件{name}过大（{size_mb:.0f} MB，上限 {settings.max_file_mb} MB）"
    return None


def read_limits(settings: Settings) -> ReadLimits:
    """What one file may cost to read, from the settings."""
    return ReadLimits(
        unpacked_bytes=settings.max_unpacked_mb << 20,
        zip_ratio=settings.max_zip_ratio,
        zip_entries=settings.max_zip_entries,
        chars=settings.max_chars,
    )


def prepare_document(
    path: Path,
    doc_id: str,
    role: Role,
    settings: Settings,
    *,
    defer_ocr: bool = False,
    unread: tuple[tuple[int, str, str], ...] = (),
) -> Prepared:
    """Read, clean, normalise and fingerprint one file; a failure becomes an error document.

    With ``defer_ocr``, scanned pages not yet in the OCR cache are not recognised here: the result lists
    them in ``ocr_tasks`` instead (see ``bidcheck.ingest.ocr_batch``). ``unread`` lists pages the OCR
    stage gave up on, with the reason (``OcrOptions.unread``).
    """
    message = _too_large(path, settings)
    if message:
        return Prepared(replace(error_document(path, doc_id, message), role=role))
    ocr = OcrOptions(settings.ocr_engine, defer_ocr, unread=unread)
    try:
        doc = replace(read_document(path, doc_id, ocr, read_limits(settings)), role=role)
    except OcrNeeded as needed:
        return Prepared(replace(error_document(path, doc_id, "等待文字识别"), role=role), None, needed.tasks)
    if not doc.ok:
        return Prepared(doc)
    try:
        doc = clean_document(doc)
        doc = replace(doc, chars=sum(len(b.text) for b in doc.compared_blocks()))
        if not doc.bill and not doc.resources:  # a Word or PDF bid's, from its tables (XML and Excel: read)
            bill, resources = bill_from_tables(doc.compared_blocks(), doc.name)
            doc = replace(doc, bill=tuple(bill), resources=tuple(resources))
        if role == "bid":
            price, why = read_price(list(doc.blocks))
            doc = replace(doc, price=price, price_error=why)
        clean = build_clean_text(doc)
        if len(clean.norm) < settings.seed_chars:
            return Prepared(replace(doc, status="error", error="文件中没有可比较的文字", blocks=()))
        return Prepared(doc, Ready(doc, clean, fingerprint_text(clean.norm, settings)))
    except MemoryError:
        return Prepared(replace(doc, status="error", error=OUT_OF_MEMORY, blocks=()))
    except Exception as exc:  # one unexpected file must not stop the batch
        return Prepared(
            replace(doc, status="error", error=f"处理文件时出错（{type(exc).__name__}）", blocks=())
        )


CACHE_VERSION = 17  # raise it when reading, cleaning or fingerprinting changes what they produce
_CACHE_KIND = "documents"
_PREPARE_SETTINGS = settings_shaping("documents")  # see ``SettingSpec.caches``


# The code reading can run: this stage and every layer below it in the import contract (pyproject.toml's
# layers; ``tests/test_cache.py`` holds this list to them), modules and packages.
READ_CODE = (
    "prepare.py",
    "ready.py",
    "fingerprint",
    "ingest",
    "review.py",
    "text",
    "words.py",
    "findings.py",
    "memo",
    "workers.py",
    "gcpause.py",
    "config",
    "progress.py",
    "model",
    "graph.py",
    "arrays.py",
    "process_limits.py",
)


@functools.cache
def _code_digest() -> str:
    """A hash of the code that reads, cleans and fingerprints (``READ_CODE``), so that a changed program
    never reuses entries an older one wrote (an installed build without sources relies on its version
    number)."""
    package = Path(__file__).resolve().parent
    sources: list[Path] = []
    for name in READ_CODE:
        path = package / name
        sources += [path] if name.endswith(".py") else sorted(path.glob("*.py"))
    return code_digest(sources)


def _source_digest(path: Path) -> str:
    """A hash of a file's bytes, or of the names and bytes of a bidder's folder's files.

    Raises:
        OSError: A file cannot be read.
    """
    if not path.is_dir():
        if not stat.S_ISREG(path.stat().st_mode):
            raise OSError(f"not a regular file: {path}")  # a pipe would wait: read as no cache entry
        return file_digest(path)
    files = bidder_files(path, SUPPORTED_SUFFIXES)
    named = "|".join(f"{f.relative_to(path).as_posix()}={file_digest(f)}" for f in files)
    return "folder:" + hashlib.blake2b(named.encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()


def _cache_key(path: Path, settings: Settings) -> str | None:
    """The file's bytes (a folder's files'), the settings that shape its fingerprints, and the versions:
    one cache entry."""
    try:
        digest = _source_digest(path)
    except OSError:
        return None
    return "d" + hashlib.blake2b(f"{prepared_shape(settings)}|{digest}".encode(), digest_size=20).hexdigest()


def prepared_shape(settings: Settings) -> str:
    """The versions and settings that shape what is prepared of a file (its cache key less its bytes)."""
    shape = {name: getattr(settings, name) for name in _PREPARE_SETTINGS}
    return f"{CACHE_VERSION}|{__version__}|{_code_digest()}|{SETTINGS_VERSION}|{sorted(shape.items())}"


def _rebound(prepared: Prepared, path: Path, doc_id: str, role: Role) -> Prepared:
    """A cached document under this check's id, path and role."""
    doc = replace(prepared.doc, id=doc_id, path=str(path), name=document_name(path), role=role)
    ready = prepared.ready
    return Prepared(doc, Ready(doc, ready.clean, ready.fingerprint, ready.source) if ready else None)


def remember_read(prepared: Prepared) -> None:
    """Keep a document read in a worker process (and stored in the cache there) in the memo of the
    running check, as a later lookup of its cache entry would find it."""
    if prepared.ready is not None and prepared.ready.source:
        put_entry(_CACHE_KIND, prepared.ready.source, prepared)


def forget_unread() -> None:
    """In the memo of the running check, let go of the documents the last check read and this one did
    not (call once every file is read)."""
    forget_unused(_CACHE_KIND)


def _load_cached(key: str) -> Prepared | None:
    value = load_entry(_CACHE_KIND, key)  # an entry from another version, or damaged: read again
    return value if isinstance(value, Prepared) else None


def _lookup(path: Path, settings: Settings) -> Prepared | None:
    key = _cache_key(path, settings)
    return _load_cached(key) if key else None


def cached_ready(path: Path, settings: Settings) -> Ready | None:
    """What a check prepared of this file (clean text, fingerprints), from the on-disk cache; ``None``
    when it is not there."""
    cached = _lookup(path, settings)
    return cached.ready if cached is not None else None


def load_prepared(path: Path, doc_id: str, role: Role, settings: Settings) -> Prepared | None:
    """What ``prepare_cached`` would find in the cache for a regular file, or ``None``. Safe to call in
    the checking process itself: it only hashes the file's bytes (a pipe or device is never opened)."""
    try:
        mode = path.stat().st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            return None
    except OSError:
        return None
    cached = _lookup(path, settings)
    return _rebound(cached, path, doc_id, role) if cached is not None else None


def prepare_cached(path: Path, doc_id: str, role: Role, settings: Settings) -> Prepared:
    """``prepare_document`` through the on-disk cache: an unchanged file is read from the cache at once
    (``prepare_stored``, where deferred OCR and pages given up on are told apart)."""
    return prepare_stored(path, doc_id, role, settings)[0]


@dataclass
class Pickled:
    """A prepared document as the bytes of the cache entry just written for it: a reading process sends
    these bytes as they are instead of pickling the document a second time (about 1 MB a bid)."""

    data: bytes

    def take(self) -> Prepared:
        """The prepared document, letting the bytes go: a section's reading holds every file's outcome
        until its last file is read, and 100 bids' bytes held that long cost the check about 130 MB."""
        prepared = cast(Prepared, pickle.loads(self.data))
        self.data = b""
        return prepared


def prepare_stored(
    path: Path,
    doc_id: str,
    role: Role,
    settings: Settings,
    *,
    defer_ocr: bool = False,
    unread: tuple[tuple[int, str, str], ...] = (),
) -> tuple[Prepared, Pickled | None]:
    """``prepare_document`` through the on-disk cache, and the bytes of the entry it stored (``None``
    when it stored none): an unchanged file is read from the cache at once.

    Only readable documents are cached, and not those with pages the OCR stage gave up on (they are tried
    again next time); re-checking a section after adding one bid reads only that bid.
    """
    key = _cache_key(path, settings)
    cached = _load_cached(key) if key else None
    if cached is not None:
        return _rebound(cached, path, doc_id, role), None
    prepared = prepare_document(path, doc_id, role, settings, defer_ocr=defer_ocr, unread=unread)
    if key and prepared.ready is not None and not prepared.ocr_tasks and not unread:
        prepared = replace(prepared, ready=replace(prepared.ready, source=key))
        return prepared, Pickled(store_entry(_CACHE_KIND, key, prepared))
    return prepared, None
