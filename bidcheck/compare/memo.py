"""Verified pairs remembered on disk: a re-check aligns only the pairs whose inputs changed.

A pair's passages depend on nothing but the two texts (comparable text, k-grams, sentences, windows),
its candidate windows, which k-grams near those windows may seed evidence (outside masked text, no stock
phrase: ``AlignInput.open``, read only at seeds, and seeds come only from the candidate regions), the
settings and the code. The key of an entry hashes exactly these, so an entry is found again only where
aligning anew would give the same passages. Adding a bid to a checked section changes the masks (text
becomes common when the new bid makes its holders enough): only the pairs whose candidate regions the
change reaches are aligned again, with the new pairs. The passages of masked text are listed for all
pairs at once, and remembered under the hash of every input. A cache that cannot be read or written only
costs time (``bidcheck.cache``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import pickle
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bidcheck import __version__
from bidcheck.cache import code_digest, load_blob, store_blob
from bidcheck.compare.inputs import AlignInput
from bidcheck.compare.passage import RawPassage
from bidcheck.compare.seeds import candidate_region
from bidcheck.config import Settings

__all__ = ["PairMemo", "input_digest", "text_digest"]

_KIND = "pairs"
_FORMAT = 2
Pair = tuple[int, int]
Job = tuple[int, int, list[tuple[int, int]]]
Found = dict[Pair, list[RawPassage]]


@functools.cache
def _code() -> str:
    """A hash of verification's code (an entry written by other code is never read)."""
    return code_digest(sorted(Path(__file__).resolve().parent.glob("*.py")))


def _hash(*parts: bytes) -> str:
    digest = hashlib.blake2b(digest_size=20)
    for part in parts:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.hexdigest()


def _bits(mask: np.ndarray | None) -> bytes:
    return b"-" if mask is None else np.packbits(mask).tobytes() + len(mask).to_bytes(8, "little")


def text_digest(x: AlignInput) -> bytes:
    """A hash of one document's text as verification reads it, its masks left out."""
    starts = np.asarray(x.window_starts, dtype=np.int64).tobytes()
    parts = (x.norm.encode("utf-8", "surrogatepass"), x.kgrams.tobytes(), x.sentence_starts.tobytes(), starts)
    return bytes.fromhex(_hash(*parts, str(x.k).encode()))


def input_digest(x: AlignInput) -> bytes:
    """A hash of what verification sees of one document: its text and its masks."""
    return bytes.fromhex(_hash(text_digest(x), _bits(x.masked), _bits(x.stock)))


def _open_near(x: AlignInput, windows: set[int], settings: Settings) -> bytes:
    """Which k-grams of the candidate regions of ``windows`` may seed evidence (``AlignInput.open``)."""
    region = candidate_region(len(x.kgrams), x.window_starts, windows, settings)
    return np.packbits(x.open[region]).tobytes()


class PairMemo:
    """The remembered verification of one section's documents under one set of settings."""

    def __init__(self, inputs: Sequence[AlignInput], settings: Settings) -> None:
        self._inputs = inputs
        self._settings = settings
        self._texts = [text_digest(x) for x in inputs]
        self._digests = [input_digest(x) for x in inputs]
        shape = json.dumps(settings.to_dict(), sort_keys=True, default=str)
        self._context = f"{_FORMAT}|{__version__}|{_code()}|{shape}".encode()

    def _pair_key(self, job: Job) -> str:
        """The pair's texts, its candidate windows and what may seed evidence near them (see the module)."""
        i, j, windows = job
        listed = np.asarray(windows, dtype=np.int64).tobytes()
        near_a = _open_near(self._inputs[i], {w for w, _ in windows}, self._settings)
        near_b = _open_near(self._inputs[j], {w for _, w in windows}, self._settings)
        return "v" + _hash(self._context, self._texts[i], self._texts[j], listed, near_a, near_b)

    def load_pairs(self, jobs: Sequence[Job]) -> Found:
        """The passages remembered for these pairs (those not remembered are left out)."""
        found: Found = {}
        for job in jobs:
            passages = _load(self._pair_key(job))
            if passages is not None:
                found[(job[0], job[1])] = passages
        return found

    def store_pairs(self, jobs: Sequence[Job], found: Found) -> None:
        """Remember the passages of the pairs verified now (a pair missing from ``found`` is not)."""
        for job in jobs:
            passages = found.get((job[0], job[1]))
            if passages is not None:
                _store(self._pair_key(job), passages)

    def _masked_key(self) -> str:
        return "m" + _hash(self._context, *self._digests)

    def load_masked(self) -> Found | None:
        """The passages of masked text of every pair, when remembered for exactly these documents."""
        found = _load_blob(self._masked_key())
        return found if isinstance(found, dict) else None

    def store_masked(self, found: Found) -> None:
        """Remember the passages of masked text of every pair."""
        store_blob(_KIND, self._masked_key(), pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL))


def _load_blob(key: str) -> object:
    data = load_blob(_KIND, key)
    if data is None:
        return None
    try:
        return pickle.loads(data)
    except Exception:  # damaged, or written by another version: verify again
        return None


def _load(key: str) -> list[RawPassage] | None:
    value = _load_blob(key)
    return value if isinstance(value, list) and all(isinstance(p, RawPassage) for p in value) else None


def _store(key: str, passages: list[RawPassage]) -> None:
    store_blob(_KIND, key, pickle.dumps(passages, protocol=pickle.HIGHEST_PROTOCOL))
