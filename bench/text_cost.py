"""What each bid of a section costs after its text is extracted, step by step: CPU ms a bid.

Every bid of a ``bench.scale`` section is read once (``read_document``, not timed); then each step a
check's reading process takes after that is timed over all the bids, in this one process with numpy's
BLAS on one thread as in a reading process: cleaning (running lines, paragraphs, concealed text), the
total price, the clean text and its normalisation with the offset map, the window MinHashes, the cut,
the SimHash (its words counted, hashed and weighed), the words out of the dictionary, the k-gram hashes,
the whole fingerprint together, the identifiers the signals look for, and pickling the cache entry.
Each figure is the best of ``--rounds`` (``process_time``). Printed with the load average and the
command line.

Usage: .venv/bin/python -m bench.text_cost [--bids 100] [--rounds 3] [--folder DIR]
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from threadpoolctl import threadpool_limits

from bench.read_cost import section_bids
from bidcheck.config import Settings
from bidcheck.fingerprint import fingerprint_text, load_tables, window_minhashes, window_starts
from bidcheck.fingerprint.kgrams import kgram_hashes
from bidcheck.fingerprint.oddwords import odd_words
from bidcheck.fingerprint.simhash import build_simhash
from bidcheck.fingerprint.tokens import cut
from bidcheck.ingest import read_document
from bidcheck.ingest.scan import OcrOptions
from bidcheck.model import Document
from bidcheck.prepare import read_limits
from bidcheck.ready import Prepared, Ready
from bidcheck.signals.identifier import with_staff_tables
from bidcheck.text import build_clean_text, clean_document
from bidcheck.text.prices import read_price

T = TypeVar("T")
U = TypeVar("U")


def _step(name: str, work: Callable[[T], U], items: Sequence[T], rounds: int) -> list[U]:
    """``work`` of each item, timed ``rounds`` times; prints the best round's CPU ms an item."""
    best, out = float("inf"), []
    for _ in range(rounds):
        started = time.process_time()
        out = [work(item) for item in items]
        best = min(best, time.process_time() - started)
    print(f"{name:16}{1000 * best / max(len(items), 1):8.2f}")
    return out


def _read(files: list[Path], settings: Settings) -> list[Document]:
    """Each bid as its reader gives it (not timed)."""
    ocr, limits = OcrOptions(settings.ocr_engine, True), read_limits(settings)
    return [replace(read_document(f, f"d{i}", ocr, limits), role="bid") for i, f in enumerate(files)]


def measure(files: list[Path], rounds: int) -> None:
    """Print each step's CPU ms a bid over ``files``."""
    settings = Settings()
    load_tables(settings)
    docs = _read(files, settings)
    print(f"{'step':16}{'CPU ms a bid':>8}")
    cleaned = _step("clean", clean_document, docs, rounds)
    cleaned = [replace(d, chars=sum(len(b.text) for b in d.compared_blocks())) for d in cleaned]
    _step("price", lambda d: read_price(list(d.blocks)), cleaned, rounds)
    clean = _step("normalise", build_clean_text, cleaned, rounds)
    norms = [c.norm for c in clean]
    window, stride, k = settings.window_chars, settings.window_stride, settings.shingle_chars
    _step(
        "minhash",
        lambda n: window_minhashes(
            n, window_starts(len(n), window, stride), window, k, settings.num_perm, settings.seed
        ),
        norms,
        rounds,
    )
    words = _step("cut", cut, norms, rounds)
    _step("simhash", lambda i: build_simhash(norms[i], settings.seed, words[i]), range(len(norms)), rounds)
    _step("odd words", odd_words, words, rounds)
    _step("k-grams", lambda n: kgram_hashes(n, settings.seed_chars), norms, rounds)
    prints = _step("fingerprint", lambda n: fingerprint_text(n, settings), norms, rounds)
    ready = [Ready(d, c, f) for d, c, f in zip(cleaned, clean, prints, strict=True)]
    _step("identifiers", with_staff_tables, ready, rounds)
    _step("pickle", lambda r: pickle.dumps(Prepared(r.doc, r), pickle.HIGHEST_PROTOCOL), ready, rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bids", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "bidcheck-scale")
    args = parser.parse_args()
    files = section_bids(args.folder, args.bids)
    threadpool_limits(1, user_api="blas")  # as a reading process runs it
    with tempfile.TemporaryDirectory() as cache:
        os.environ["BIDCHECK_CACHE_DIR"] = cache  # the IDF table made here, not read from the user's cache
        measure(files, args.rounds)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"command: {Path(sys.executable).name} -m bench.text_cost {' '.join(sys.argv[1:])}")


if __name__ == "__main__":
    main()
