"""New documents against stored ones: which stored documents each nearly duplicates, by filter and verify.

A document is reduced to the set of its winnowed 8-character k-gram hashes (``prints.winnow``: the same
text keeps the same hashes anywhere). The filter is an inverted index of those hashes (the library's
``kgrams`` table, or ``NearIndex`` in memory for a folder): it names the stored documents that share any
hash with the new one, and how many. Where the stored document's text can be read again (a folder's
files), the candidates whose hash sets come near ``minimum`` (within ``SLACK``) are verified on the full
sets of the two texts' 8-grams (``exact_scores``); the library keeps no texts, so there the winnowed sets
are compared exactly. ``containment`` is the share of the new document's set the stored one holds,
``score`` the share of the larger of the two sets that both hold (shared / the larger): each document
holds at least that share of the other's. A re-submitted copy — another company's name, a few words
re-typed, a paragraph dropped, a sentence added, in the other format — keeps some 93% of both sets (its
Jaccard index falls to 0.89, below 0.9); a document reusing half of a stored bid scores about 0.5.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import distinct
from bidcheck.config import Settings
from bidcheck.fingerprint.kgrams import kgram_hashes
from bidcheck.ingest import read_document
from bidcheck.ingest.scan import OcrOptions
from bidcheck.library.prints import K, winnow
from bidcheck.library.store import Library
from bidcheck.prepare import read_limits
from bidcheck.text import build_clean_text, clean_document

__all__ = [
    "NearIndex",
    "NearMatch",
    "NearResult",
    "comparable_text",
    "exact_scores",
    "library_near",
    "near_hashes",
]

Hashes = npt.NDArray[np.int64]
_CANDIDATES = 64  # stored documents verified per new document, those sharing the most hashes
_POSTINGS = 4096  # stored places read per hash from the library
SLACK = 0.15  # how far below ``minimum`` a winnowed estimate may fall and still be verified on full sets


@dataclass(frozen=True)
class NearMatch:
    """A stored document a new one nearly duplicates."""

    section: str
    document: str
    score: float  # the share of the larger of the two hash sets that both hold
    containment: float  # share of the new document's hashes the stored one holds


@dataclass(frozen=True)
class NearResult:
    """A new document and the stored documents it nearly duplicates, best first (or why it was not read)."""

    document: str
    matches: tuple[NearMatch, ...] = ()
    error: str | None = None


def near_hashes(norm: str) -> Hashes:
    """The sorted set of a comparable text's winnowed k-gram hashes."""
    if len(norm) < K:
        return np.zeros(0, dtype=np.int64)
    hashes = kgram_hashes(norm, K)
    return distinct(hashes[winnow(hashes)].view(np.int64))


def exact_scores(mine: str, other: str) -> tuple[float, float]:
    """The score (the share of the larger set both hold) and the containment (of ``mine`` in ``other``)
    of two texts' full 8-gram sets."""
    a, b = distinct(kgram_hashes(mine, K)), distinct(kgram_hashes(other, K))
    shared = len(np.intersect1d(a, b, assume_unique=True))
    return shared / max(len(a), len(b), 1), shared / max(len(a), 1)


def comparable_text(path: Path, settings: Settings) -> tuple[str, str | None]:
    """A file's comparable text (any format bidcheck reads, plain notes too), or why it has none."""
    doc = read_document(path, "n1", OcrOptions(settings.ocr_engine), read_limits(settings))
    if not doc.ok:
        return "", doc.error
    try:
        norm = build_clean_text(clean_document(doc)).norm
    except Exception as exc:  # one unexpected file must not stop the others
        return "", f"处理文件时出错（{type(exc).__name__}）"
    return (norm, None) if len(norm) >= K else ("", "文件中没有可比较的文字")


def _scores(
    mine: Hashes, shared: npt.NDArray[np.int64], sizes: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The scores (shared over the larger set) and containments from the shared counts and the stored
    sets' sizes."""
    larger = np.maximum(np.maximum(sizes, len(mine)), 1)
    return shared / larger, shared / max(len(mine), 1)


class NearIndex:
    """Many documents' hash sets in one sorted array (the filter), with their sizes (for the scores)."""

    def __init__(self, keys: Sequence[tuple[str, str]], sets: Sequence[Hashes]) -> None:
        self.keys = list(keys)
        lengths = np.asarray([len(s) for s in sets], dtype=np.int64)
        flat = np.concatenate(list(sets)) if sets else np.zeros(0, dtype=np.int64)
        owners = np.repeat(np.arange(len(sets), dtype=np.int64), lengths)
        order = np.argsort(flat, kind="stable")
        self._hashes, self._owners, self._sizes = flat[order], owners[order], lengths

    def __len__(self) -> int:
        return len(self.keys)

    def shared_counts(self, mine: Hashes) -> npt.NDArray[np.int64]:
        """For each indexed document, how many of ``mine`` it holds (each set has no repeats, so this is
        the exact size of the intersection)."""
        low = np.searchsorted(self._hashes, mine, "left")
        high = np.searchsorted(self._hashes, mine, "right")
        counts = high - low
        if not counts.sum():
            return np.zeros(len(self.keys), dtype=np.int64)
        starts = np.repeat(low - np.cumsum(counts) + counts, counts)
        places = starts + np.arange(int(counts.sum()))
        return np.bincount(self._owners[places], minlength=len(self.keys)).astype(np.int64)

    def query(self, mine: Hashes, minimum: float) -> tuple[NearMatch, ...]:
        """The indexed documents whose score with ``mine`` is at least ``minimum``, best first."""
        shared = self.shared_counts(mine)
        score, containment = _scores(mine, shared, self._sizes)
        found = np.flatnonzero((score >= minimum) & (shared > 0))
        found = found[np.lexsort((found, -score[found]))]
        return tuple(
            NearMatch(*self.keys[n], round(float(score[n]), 4), round(float(containment[n]), 4))
            for n in found.tolist()
        )


def library_near(library: Library, mine: Hashes, minimum: float) -> tuple[NearMatch, ...]:
    """The library's stored bids whose score with ``mine`` is at least ``minimum``: the bids sharing most
    hashes by the library's k-gram index, then each one's stored hash set compared."""
    postings = library.postings(mine.tolist(), _POSTINGS)
    counts = Counter(f for places in postings.values() for f in {f for f, _ in places})
    needed = minimum * len(mine)  # a score of ``minimum`` needs this many shared hashes at least
    candidates = [f for f, n in counts.most_common(_CANDIDATES) if n >= needed]
    matches = []
    for section, name, stored in library.hash_sets(candidates):
        shared = np.intersect1d(mine, stored, assume_unique=True)
        score, containment = _scores(mine, np.asarray([len(shared)]), np.asarray([len(stored)]))
        if score[0] >= minimum and len(shared):
            matches.append(
                NearMatch(section, name, round(float(score[0]), 4), round(float(containment[0]), 4))
            )
    return tuple(sorted(matches, key=lambda m: (-m.score, m.section, m.document)))
