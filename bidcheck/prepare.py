"""The per-document stages: read, clean, normalise and fingerprint one file, never raising."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from bidcheck.compare.align import AlignInput
from bidcheck.config import Settings
from bidcheck.fingerprint import Fingerprint, fingerprint_text
from bidcheck.ingest import read_document
from bidcheck.ingest.registry import error_document
from bidcheck.ingest.scan import OcrNeeded, OcrOptions, OcrTask
from bidcheck.model import Document, Role
from bidcheck.text import CleanText, build_clean_text, clean_document

__all__ = ["Prepared", "Ready", "prepare_document"]


@dataclass(frozen=True, eq=False)
class Ready:
    """A readable document with its clean text and fingerprint."""

    doc: Document
    clean: CleanText
    fingerprint: Fingerprint

    def align_input(self) -> AlignInput:
        """What verification needs of this document."""
        return AlignInput(
            self.clean.norm,
            self.fingerprint.kgrams,
            self.clean.sentence_starts,
            self.fingerprint.window_starts,
        )


@dataclass(frozen=True, eq=False)
class Prepared:
    """The outcome of the per-document stages: a document, and its text when it could be read.

    ``ocr_tasks`` lists the pages a deferred read left for the OCR stage (the document is read again after).
    """

    doc: Document
    ready: Ready | None = None
    ocr_tasks: tuple[OcrTask, ...] = ()


def _too_large(path: Path, settings: Settings) -> str | None:
    try:
        size_mb = path.stat().st_size / (1 << 20)
    except OSError:
        return None  # the reader reports why the file cannot be read
    if size_mb > settings.max_file_mb:
        return f"文件过大（{size_mb:.0f} MB，上限 {settings.max_file_mb} MB）"
    return None


def prepare_document(
    path: Path, doc_id: str, role: Role, settings: Settings, *, defer_ocr: bool = False
) -> Prepared:
    """Read, clean, normalise and fingerprint one file; a failure becomes an error document.

    With ``defer_ocr``, scanned pages not yet in the OCR cache are not recognised here: the result lists
    them in ``ocr_tasks`` instead (see ``bidcheck.ingest.ocr_batch``).
    """
    message = _too_large(path, settings)
    if message:
        return Prepared(replace(error_document(path, doc_id, message), role=role))
    try:
        doc = replace(read_document(path, doc_id, OcrOptions(settings.ocr_engine, defer_ocr)), role=role)
    except OcrNeeded as needed:
        return Prepared(replace(error_document(path, doc_id, "等待文字识别"), role=role), None, needed.tasks)
    if not doc.ok:
        return Prepared(doc)
    try:
        doc = clean_document(doc)
        doc = replace(doc, chars=sum(len(b.text) for b in doc.compared_blocks()))
        clean = build_clean_text(doc)
        if len(clean.norm) < settings.seed_chars:
            return Prepared(replace(doc, status="error", error="文件中没有可比较的文字", blocks=()))
        return Prepared(doc, Ready(doc, clean, fingerprint_text(clean.norm, settings)))
    except Exception as exc:  # one unexpected file must not stop the batch
        return Prepared(
            replace(doc, status="error", error=f"处理文件时出错（{type(exc).__name__}）", blocks=())
        )
