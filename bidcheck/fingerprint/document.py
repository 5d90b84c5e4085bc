"""Everything computed once per document and reused by every pair it is in."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from bidcheck.config import Settings
from bidcheck.fingerprint.kgrams import kgram_hashes
from bidcheck.fingerprint.minhash import WindowMinHash, window_minhashes, window_starts
from bidcheck.fingerprint.oddwords import OddWords, odd_words_and_keys
from bidcheck.fingerprint.simhash import build_simhash, load_idf_table
from bidcheck.fingerprint.tokens import cut, load_tokenizer
from bidcheck.fingerprint.wordkeys import load_word_keys

__all__ = ["Fingerprint", "fingerprint_text", "load_tables"]


@dataclass(frozen=True, eq=False)
class Fingerprint:
    """A document's SimHash, window MinHashes (with their start offsets) and seed k-gram hashes."""

    simhash: int
    window_starts: tuple[int, ...]
    windows: tuple[WindowMinHash, ...]
    kgrams: npt.NDArray[np.uint64]
    odd_words: OddWords = ()  # out-of-dictionary candidates, see ``oddwords``
    # the odd words' numbers (``oddwords.odd_words_and_keys``), in their order
    odd_keys: npt.NDArray[np.uint64] = field(default_factory=lambda: np.zeros(0, dtype=np.uint64))


def fingerprint_text(norm: str, settings: Settings) -> Fingerprint:
    """Fingerprint a comparable text with the sizes from the settings."""
    starts = window_starts(len(norm), settings.window_chars, settings.window_stride)
    windows = window_minhashes(
        norm, starts, settings.window_chars, settings.shingle_chars, settings.num_perm, settings.seed
    )
    words = cut(norm)  # 1.6 million words for a bid of 2 million characters: let go before the k-grams
    simhash, (odd, keys) = build_simhash(norm, settings.seed, words), odd_words_and_keys(words)
    del words
    kgrams = kgram_hashes(norm, settings.seed_chars)
    return Fingerprint(simhash, tuple(starts), tuple(windows), kgrams, odd, keys)


def load_tables(settings: Settings) -> None:
    """Load the tables fingerprinting needs (the tokenizer's dictionaries, the IDF table by hashes, the
    dictionary's short words by number: about 0.25 s), once a process: before reading processes are
    forked, they share them."""
    load_tokenizer()
    load_idf_table(settings.seed)
    load_word_keys()
