"""A document as the stages after reading take it: read (``Prepared``: the document, and its text when it
could be read), and readable (``Ready``: its clean text and fingerprint, and the key of its cache entry)."""

from __future__ import annotations

from dataclasses import dataclass

from bidcheck.fingerprint import Fingerprint
from bidcheck.ingest.scan import OcrTask
from bidcheck.model import Document
from bidcheck.text import CleanText

__all__ = ["Prepared", "Ready"]


@dataclass(frozen=True, eq=False)
class Ready:
    """A readable document with its clean text and fingerprint; ``source`` is the key of the file's cache
    entry (its bytes, the settings that shape it, the code), "" when it was not read through the cache."""

    doc: Document
    clean: CleanText
    fingerprint: Fingerprint
    source: str = ""

    def memo_key(self) -> str | None:
        """The document in a key of what is computed of it (``bidcheck.memo.memoised``): its cache
        entry, which names what it says (its bytes, the settings that shape reading, the code), not
        where it stands in the section; ``None`` when it was read outside the cache."""
        return self.source or None


@dataclass(frozen=True, eq=False)
class Prepared:
    """The outcome of the per-document stages: a document, and its text when it could be read.

    ``ocr_tasks`` lists the pages a deferred read left for the OCR stage (the document is read again after).
    """

    doc: Document
    ready: Ready | None = None
    ocr_tasks: tuple[OcrTask, ...] = ()

    @property
    def memo_part(self) -> str | None:
        """The document as the stages after reading start from it, a part of their key: its id, name,
        path and role, and its cache entry (or why it could not be read); ``None`` when it was read
        outside the cache (nothing after reading is then remembered)."""
        if self.ready is not None and not self.ready.source:
            return None
        read = self.ready.source if self.ready else f"{self.doc.status}|{self.doc.error}"
        return f"{self.doc.id}|{self.doc.name}|{self.doc.path}|{self.doc.role}|{read}"
