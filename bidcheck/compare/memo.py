"""Verified pairs remembered on disk: a re-check aligns only the pairs whose inputs changed.

A pair's passages depend on nothing but the two texts (comparable text, k-grams, sentences, windows),
its candidate windows, which k-grams near those windows may seed evidence (outside masked text, no stock
phrase: ``AlignInput.open``, read only at seeds, and seeds come only from the candidate regions), the
settings and the code (the whole package's: what verification reads reaches beyond its own
modules). The key of a pair hashes exactly these, so a pair is found again only where
aligning anew would give the same passages. Adding a bid to a checked section changes the masks (text
becomes common when the new bid makes its holders enough): only the pairs whose candidate regions the
change reaches are aligned again, with the new pairs. The pairs are kept in rows, one entry per bid (by
its text), not one file a pair: writing a thousand small files cost a cold check of 100 bids about 1 CPU
s, as much as aligning its pairs; a pair is in the row of whichever of its bids had more pairs aligned
with it (a late bid's row holds its pairs with the others). The passages of masked text two bids share are
built from nothing but the k-grams each holds once in its masked text: they are remembered by pair of
those, one entry per bid: a pair is in the entry of whichever of its bids missed more pairs when it was
listed, so a bid added to a checked section lists its own pairs only and stores them in one entry. A
cache that cannot be read or written only costs time (``bidcheck.memo``).
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Sequence

import numpy as np

from bidcheck import __version__
from bidcheck.compare.inputs import AlignInput
from bidcheck.compare.passage import RawPassage
from bidcheck.compare.seeds import candidate_region
from bidcheck.config import Settings
from bidcheck.memo import load_entry, package_code, parts_digest, settings_key, store_entry

__all__ = ["PairMemo", "text_digest"]

_KIND = "pairs"
_FORMAT = 4  # 3: a row holds pairs on either side of its bid (``_AS_A``, ``_AS_B``); 4: pairs in rows
_PAIRS_IN_ROW = 2_000  # a row written again keeps at most this many pairs, the ones stored last
_AS_A, _AS_B = b"A", b"B"  # after the other bid's digest in a row: the row's bid is side A, or B
Pair = tuple[int, int]
Job = tuple[int, int, list[tuple[int, int]]]
Found = dict[Pair, list[RawPassage]]


def _hash(*parts: bytes) -> str:
    return parts_digest(*parts).hex()


def text_digest(x: AlignInput) -> bytes:
    """A hash of one document's text as verification reads it, its masks left out. A document read
    through the cache is hashed once a process: its entry's key names its text (a check with one bid
    more hashes that bid's text, not 100 bids' texts and k-grams again)."""
    if not x.source:
        return _text_hash(x)
    key = (x.source, x.k)
    with _TEXT_DIGESTS_LOCK:
        found = _TEXT_DIGESTS.pop(key, None)
    found = found or _text_hash(x)
    with _TEXT_DIGESTS_LOCK:
        _TEXT_DIGESTS[key] = found  # the last used at the end
        while len(_TEXT_DIGESTS) > _TEXT_DIGESTS_KEPT:
            del _TEXT_DIGESTS[next(iter(_TEXT_DIGESTS))]
    return found


_TEXT_DIGESTS: dict[tuple[str, int], bytes] = {}  # by cache entry key and k, the used last at the end
_TEXT_DIGESTS_KEPT = 10_000
_TEXT_DIGESTS_LOCK = threading.Lock()


def _text_hash(x: AlignInput) -> bytes:
    starts = np.asarray(x.window_starts, dtype=np.int64).tobytes()
    parts = (x.norm.encode("utf-8", "surrogatepass"), x.kgrams.tobytes(), x.sentence_starts.tobytes(), starts)
    return bytes.fromhex(_hash(*parts, str(x.k).encode()))


def _singles_digest(x: AlignInput) -> bytes:
    """A hash of what the passages of masked text are built from: the k-grams of one document's masked
    text held there once, with their positions (``AlignInput.masked_in_order``)."""
    hashes, positions = x.masked_in_order
    return bytes.fromhex(_hash(hashes.tobytes(), positions.astype(np.int64).tobytes(), str(x.k).encode()))


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
        self._singles = [_singles_digest(x) for x in inputs]
        self._rows: list[dict[bytes, list[RawPassage]]] = [{} for _ in inputs]
        self._keys: dict[Pair, str] = {}  # worked out once a pair: looked up, then stored under it
        shape = settings_key(settings)
        self._context = f"{_FORMAT}|{__version__}|{package_code()}|{shape}".encode()
        self._pair_row_keys = ["p" + _hash(self._context, text) for text in self._texts]
        self._pair_rows: dict[str, dict[str, list[RawPassage]]] | None = None  # by row key, once read

    def pair_key(self, job: Job) -> str:
        """The key of a pair in its row (``store_pairs``): its texts, its candidate windows and what may
        seed evidence near them (see the module)."""
        key = self._keys.get((job[0], job[1]))
        if key is None:
            key = self._keys[(job[0], job[1])] = self._new_key(job)
        return key

    def _new_key(self, job: Job) -> str:
        i, j, windows = job
        listed = np.asarray(windows, dtype=np.int64).tobytes()
        near_a = _open_near(self._inputs[i], {w for w, _ in windows}, self._settings)
        near_b = _open_near(self._inputs[j], {w for _, w in windows}, self._settings)
        return "v" + _hash(self._context, self._texts[i], self._texts[j], listed, near_a, near_b)

    def read_pair_rows(self) -> None:
        """Read the rows of verified pairs of every bid (a worker process forked after this looks its
        pairs up in them: ``known``)."""
        self._pair_rows = {key: _pair_row(_load_blob(key)) for key in dict.fromkeys(self._pair_row_keys)}

    def known(self, job: Job) -> list[RawPassage] | None:
        """A pair's passages remembered in either bid's row (``read_pair_rows`` first), or ``None``."""
        assert self._pair_rows is not None, "the rows of verified pairs were not read"
        key = self.pair_key(job)
        for side in job[0], job[1]:
            found = self._pair_rows[self._pair_row_keys[side]].get(key)
            if isinstance(found, list) and all(isinstance(p, RawPassage) for p in found):
                return found
        return None

    def load_pairs(self, jobs: Sequence[Job]) -> Found:
        """The passages remembered for these pairs (those not remembered are left out)."""
        if self._pair_rows is None:
            self.read_pair_rows()
        found: Found = {}
        for job in jobs:
            passages = self.known(job)
            if passages is not None:
                found[(job[0], job[1])] = passages
        return found

    def store_pairs(self, jobs: Sequence[Job], found: Found, keys: dict[Pair, str] | None = None) -> None:
        """Remember the passages of the pairs verified now (a pair missing from ``found`` is not), each in
        the row of whichever of its bids has more pairs here (``keys``: pair keys already worked out, in
        a worker process). A row written again keeps what it held (the oldest left out past
        ``_PAIRS_IN_ROW``)."""
        self._keys.update(keys or {})
        stored = [(job, passages) for job in jobs if (passages := found.get((job[0], job[1]))) is not None]
        counts = collections.Counter(x for job, _ in stored for x in job[:2])
        if self._pair_rows is None:
            self.read_pair_rows()
        assert self._pair_rows is not None
        rows: dict[str, dict[str, list[RawPassage]]] = {}
        for job, passages in stored:
            owner = job[0] if counts[job[0]] >= counts[job[1]] else job[1]
            key = self._pair_row_keys[owner]
            rows.setdefault(key, dict(self._pair_rows[key]))[self.pair_key(job)] = passages
        for key, row in rows.items():
            kept = dict(list(row.items())[-_PAIRS_IN_ROW:])
            store_entry(_KIND, key, kept)
            self._pair_rows[key] = kept

    def _row_key(self, i: int) -> str:
        return "m" + _hash(self._context, self._singles[i])

    def _known(self, i: int, j: int) -> list[RawPassage] | None:
        """The masked passages of pair ``(i, j)`` (``i`` the A side) in either bid's row, or ``None``."""
        known = self._rows[i].get(self._singles[j] + _AS_A)
        return known if known is not None else self._rows[j].get(self._singles[i] + _AS_B)

    def load_masked(self) -> tuple[Found, dict[int, list[int]]]:
        """The passages of masked text of the pairs remembered (pairs sharing none left out), and by bid
        the later bids whose pair with it is not remembered."""
        found: Found = {}
        missing: dict[int, list[int]] = {}
        self._rows = [_row(_load_blob(self._row_key(i))) for i in range(len(self._singles))]
        for i in range(len(self._singles)):
            for j in range(i + 1, len(self._singles)):
                known = self._known(i, j)
                if known is None:
                    missing.setdefault(i, []).append(j)
                elif known:
                    found[(i, j)] = known
        return found, missing

    def store_masked(self, missing: dict[int, list[int]], found: Found) -> None:
        """Remember the passages of masked text of the pairs ``load_masked`` found missing (``found``
        holds those that share some). Each pair goes into the row of whichever of its bids misses more
        pairs: a bid added to a checked section holds its pairs with all the others in its own row, and
        the other bids' rows are not written again (``_AS_A``, ``_AS_B``: which side the row's bid is)."""
        pairs = [(i, j) for i, later in missing.items() for j in later]
        counts = collections.Counter(x for pair in pairs for x in pair)
        added: dict[int, dict[bytes, list[RawPassage]]] = {}
        for i, j in pairs:
            passages = found.get((i, j), [])
            if counts[i] >= counts[j]:
                added.setdefault(i, {})[self._singles[j] + _AS_A] = passages
            else:
                added.setdefault(j, {})[self._singles[i] + _AS_B] = passages
        rows: dict[str, dict[bytes, list[RawPassage]]] = {}  # bids of equal masked text share a row
        for bid, entries in sorted(added.items()):
            rows.setdefault(self._row_key(bid), dict(self._rows[bid])).update(entries)
        for key, row in rows.items():
            store_entry(_KIND, key, row)


def _row(value: object) -> dict[bytes, list[RawPassage]]:
    """A remembered row of masked passages (by the digest of the other bid's masked text and the row's
    side), or none."""
    return value if isinstance(value, dict) else {}


def _pair_row(value: object) -> dict[str, list[RawPassage]]:
    """A remembered row of verified pairs (their passages by pair key), or none."""
    return value if isinstance(value, dict) else {}


def _load_blob(key: str) -> object:
    return load_entry(_KIND, key)  # damaged, or written by another version: ``None``, verified again
