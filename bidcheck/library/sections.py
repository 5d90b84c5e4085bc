"""Putting a checked section, or model documents, into the library."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bidcheck.config import Settings, settings_shaping
from bidcheck.fingerprint import build_simhash
from bidcheck.library.prints import BidPrint, band_keys, bid_print, bidder_name, ready_print, window_band_keys
from bidcheck.library.store import FileKey, Library, PendingBid, StoredBid
from bidcheck.memo import code_digest, file_digest
from bidcheck.model import CheckResult, Document
from bidcheck.prepare import cached_ready, prepare_document, prepared_shape
from bidcheck.signals import sign_keys
from bidcheck.text import build_clean_text

__all__ = ["add_templates", "pending_bid", "store_result", "stored_bid", "stored_shape"]

_NO_PRINT = BidPrint(np.zeros(0, np.int64), np.zeros(0, np.int32), np.zeros((0, 3), np.int32), 0)


def _digest(path: str) -> str:
    try:
        return file_digest(Path(path))
    except OSError:
        return ""


def distinct_section_name(library: Library, wanted: str, bids: Sequence[Path]) -> str:
    """``wanted``, or ``wanted（2）``, ``（3）``... when the stored section of that name holds none of
    ``bids`` (by content): a section that only shares a default name (another project's folder 投标文件,
    the first file's name, the app's 未命名标段) is another section, and is never replaced by this one."""
    digests = {_digest(str(path)) for path in bids} - {""}
    name, number = wanted, 1
    while True:
        files = library.section_files(name)
        if not files or digests & {digest for _n, _b, role, _c, digest in files if role == "bid"}:
            return name
        number += 1
        name = f"{wanted}（{number}）"


_LIBRARY_SETTINGS = settings_shaping("library")  # see ``SettingSpec.caches``


def stored_shape(settings: Settings) -> str:
    """What a stored bid's rows were made with: the settings and code that prepare a file, those of the
    library's band keys, whether texts are kept, and the library's own fingerprinting code."""
    library = [getattr(settings, name) for name in _LIBRARY_SETTINGS] + [settings.library_keep_texts]
    code = code_digest([Path(__file__), Path(__file__).parent / "prints.py"])
    text = f"{prepared_shape(settings)}|{library}|{code}"
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def _file_key(doc: Document, digest: str, shape: str) -> FileKey:
    bidder = bidder_name(doc.name) if doc.role == "bid" and doc.ok else ""
    metadata = json.dumps(dict(doc.metadata), ensure_ascii=False)
    return FileKey(doc.name, digest, bidder, doc.role, doc.chars, metadata, shape)


def stored_bid(doc: Document, settings: Settings, digest: str | None = None, shape: str = "") -> StoredBid:
    """A read document as the library keeps it: fingerprints for a bid, only its name for the others."""
    digest = _digest(doc.path) if digest is None else digest
    if doc.role != "bid" or not doc.ok:
        return StoredBid(
            doc.name, digest, "", doc.role, doc.chars, 0, dict(doc.metadata), _NO_PRINT, shape=shape
        )
    ready = cached_ready(Path(doc.path), settings)  # the check's own fingerprints, when cached
    if ready is not None:
        clean, simhash, bands = (
            ready.clean,
            ready.fingerprint.simhash,
            band_keys(ready.fingerprint.windows, settings),
        )
        bid = ready_print(ready)
    else:
        clean = build_clean_text(doc)
        simhash, bands = build_simhash(clean.norm, settings.seed), window_band_keys(clean.norm, settings)
        bid = bid_print(clean)
    text = clean.norm if settings.library_keep_texts else None
    metadata = dict(doc.metadata)
    name, role = doc.name, doc.role
    values = sign_keys(ready) if ready is not None else ()  # a bid read apart: its values not kept
    return StoredBid(
        name, digest, bidder_name(name), role, doc.chars, simhash, metadata, bid, text, bands, shape, values
    )


def pending_bid(doc: Document, settings: Settings, shape: str) -> PendingBid:
    """A read document for ``store_section``: its key now, its fingerprints only if the library needs them."""
    digest = _digest(doc.path)
    return PendingBid(_file_key(doc, digest, shape), lambda: stored_bid(doc, settings, digest, shape))


def store_result(library: Library, section: str, result: CheckResult, settings: Settings) -> None:
    """Store a checked section (replacing an earlier check of it; its unchanged files keep their rows):
    its files, its bids' fingerprints and its raised pairs (by bidder, so that a later section knows
    who was ``high`` together)."""
    names = {d.id: bidder_name(d.name) for d in result.documents}
    shape = stored_shape(settings)
    bids = [pending_bid(d, settings, shape) for d in result.documents if d.ok or d.role != "bid"]
    raised = [(names[p.a], names[p.b], p.level) for p in result.pairs if p.level != "none"]
    library.store_section(section, bids, raised)


def _blocks_json(doc: Document) -> str:
    rows = [(b.text, b.kind, b.page, b.paragraph) for b in doc.compared_blocks()]
    return json.dumps(rows, ensure_ascii=False)


def add_templates(library: Library, paths: Sequence[Path], name: str, settings: Settings) -> list[Document]:
    """Keep model documents in the library (their text: they are public); they act as templates in
    every later check. Returns the documents read (an unreadable one with its error)."""
    docs = [prepare_document(p, f"t{n}", "template", settings).doc for n, p in enumerate(paths, start=1)]
    kept = [
        StoredBid(
            d.name,
            _digest(d.path),
            "",
            "template",
            d.chars,
            0,
            dict(d.metadata),
            _NO_PRINT,
            _blocks_json(d),
        )
        for d in docs
        if d.ok
    ]
    if kept:
        library.store_section(name, kept, (), kind="templates")
    return docs
