"""Whole-document texts for the evidence view (no Qt here).

A passage side holds ``start``/``end`` offsets into its document's *clean text*. The evidence view shows
that whole text with the passages highlighted, so it needs the clean text of every bid:

* after a check, from the ``Document`` blocks the ``CheckResult`` carries (``join_blocks``, the join
  ``build_clean_text`` makes in the pipeline, so the offsets agree by construction);
* for a reopened result JSON (no blocks), by reading the files again when they are still there.

Either way a text is kept only when every passage's wording is found at its offsets: a file changed since
the check (or a reader that changed) never shows highlights in the wrong place. A document without a
verified text is shown as its passages only.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bidcheck.ingest import read_document
from bidcheck.ingest.scan import OcrOptions
from bidcheck.model import CheckResult, Document
from bidcheck.progress import CancelFlag, ProgressFn, check_cancel, no_progress
from bidcheck.text import clean_document
from bidcheck.text.normalize import join_blocks

__all__ = ["DocText", "doc_text_from_dict", "doc_text_to_dict", "texts_from_files", "texts_from_result"]


@dataclass(frozen=True)
class DocText:
    """A document's clean text and where each of its paragraphs starts (page and paragraph number)."""

    text: str
    block_starts: tuple[int, ...] = ()
    pages: tuple[int, ...] = ()
    paragraphs: tuple[int, ...] = ()

    def locate(self, offset: int) -> tuple[int, int]:
        """The (page, paragraph) holding a clean-text offset; (0, 0) when unknown."""
        if not self.block_starts:
            return (0, 0)
        index = max(bisect.bisect_right(self.block_starts, offset) - 1, 0)
        return self.pages[index], self.paragraphs[index]


def _doc_text(doc: Document) -> DocText:
    """The clean text as the check joined it (``join_blocks``, which ``build_clean_text`` uses: the
    offsets agree by construction; the comparable form is not needed here)."""
    joined = join_blocks(doc)
    return DocText(joined.text, joined.block_starts, joined.block_pages, joined.block_paragraphs)


Side = tuple[int, int, str]  # a passage side: start, end, text


def _all_sides(result: CheckResult) -> dict[str, list[Side]]:
    """By document id, every passage side of the document, in one pass over the pairs."""
    out: dict[str, list[Side]] = {}
    for pair in result.pairs:
        for passage in pair.passages:
            out.setdefault(pair.a, []).append((passage.a.start, passage.a.end, passage.a.text))
            out.setdefault(pair.b, []).append((passage.b.start, passage.b.end, passage.b.text))
    return out


def _found_at(sides: list[Side], text: DocText) -> bool:
    return all(text.text[start:end] == wording for start, end, wording in sides)


def agrees(result: CheckResult, doc_id: str, text: DocText) -> bool:
    """Whether every passage of the document is found at its offsets in ``text``."""
    return _found_at(_all_sides(result).get(doc_id, []), text)


def texts_from_result(result: CheckResult) -> dict[str, DocText]:
    """The clean texts of the bids whose blocks the result carries (a result fresh from ``check``)."""
    out = {}
    sides = _all_sides(result)
    for doc in result.bids:
        if doc.ok and doc.blocks:
            text = _doc_text(doc)
            if _found_at(sides.get(doc.id, []), text):
                out[doc.id] = text
    return out


def texts_from_files(
    result: CheckResult,
    known: Mapping[str, DocText] | None = None,
    progress: ProgressFn = no_progress,
    cancel: CancelFlag | None = None,
) -> dict[str, DocText]:
    """Read the bids of a reopened result again for their clean texts; missing or changed files are left out.

    Args:
        result: the result whose bids to read.
        known: texts already at hand (kept, not read again).
        progress: ``progress(fraction, message)``.
        cancel: a flag checked once per document.
    """
    out = dict(known or {})
    wanted = [d for d in result.bids if d.ok and d.id not in out]
    sides = _all_sides(result)
    for done, doc in enumerate(wanted, start=1):
        check_cancel(cancel)
        text = _read_text(doc, OcrOptions(str(result.settings.get("ocr_engine", "rapidocr"))))
        if text is not None and _found_at(sides.get(doc.id, []), text):
            out[doc.id] = text
        progress(done / len(wanted), f"读取 {doc.name}")
    return out


def _read_text(doc: Document, ocr: OcrOptions) -> DocText | None:
    """Read a file again, scanned pages with the engine the check used (its cache answers at once)."""
    path = Path(doc.path)
    if not path.is_file():
        return None
    try:
        read = read_document(path, doc.id, ocr)
        return _doc_text(clean_document(read)) if read.ok else None
    except Exception:  # a file that no longer reads shows its passages only
        return None


def doc_text_to_dict(text: DocText) -> dict[str, Any]:
    """A text as JSON (for a saved check)."""
    return {
        "text": text.text,
        "block_starts": list(text.block_starts),
        "pages": list(text.pages),
        "paragraphs": list(text.paragraphs),
    }


def doc_text_from_dict(data: Mapping[str, Any]) -> DocText:
    """A text from its JSON form."""
    starts, pages, paragraphs = (
        tuple(int(v) for v in data[k]) for k in ("block_starts", "pages", "paragraphs")
    )
    if not len(starts) == len(pages) == len(paragraphs):
        raise ValueError("block_starts, pages and paragraphs differ in length")
    return DocText(str(data["text"]), starts, pages, paragraphs)
