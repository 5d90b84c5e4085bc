"""Fingerprints computed once per document: SimHash, window MinHash and seed k-gram hashes."""

from bidcheck.fingerprint.document import Fingerprint, fingerprint_text, load_tables
from bidcheck.fingerprint.minhash import window_minhashes, window_starts
from bidcheck.fingerprint.simhash import build_simhash, simhash_similarity

__all__ = [
    "Fingerprint",
    "build_simhash",
    "fingerprint_text",
    "load_tables",
    "simhash_similarity",
    "window_minhashes",
    "window_starts",
]
