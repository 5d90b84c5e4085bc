"""What reading one file costs, stage by stage: CPU seconds (best of ``--runs``) and peak memory.

Each run reads the file as a check's worker does (``read_document``, cleaning, the total price of a bid,
normalisation, fingerprints), in this one process, timing each stage's CPU seconds (``process_time``:
steadier on a busy machine than wall time); the peak memory is the process's after the first run. Then,
apart, two parts of the fingerprints: jieba's cut and the words out of the dictionary found in it.
Without a path it reads the docx of 50,000 one-cell tables that ``bench.robustness`` builds (2 million
characters). The figures are printed with the command line.

Usage: .venv/bin/python -m bench.reading [PATH] [--runs N]
"""

from __future__ import annotations

import argparse
import resource
import shlex
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from bench.robustness import many_tables_docx
from bidcheck.config import Settings
from bidcheck.fingerprint import fingerprint_text
from bidcheck.fingerprint.oddwords import odd_words
from bidcheck.fingerprint.tokens import cut
from bidcheck.ingest import read_document
from bidcheck.ingest.scan import OcrOptions
from bidcheck.prepare import read_limits
from bidcheck.text.clean import clean_document
from bidcheck.text.normalize import build_clean_text
from bidcheck.text.prices import read_price

T = TypeVar("T")


def _timed(seconds: dict[str, float], stage: str, work: Callable[[], T]) -> T:
    started = time.process_time()
    value = work()
    spent = time.process_time() - started
    seconds[stage] = min(spent, seconds.get(stage, spent))
    return value


def read_once(path: Path, settings: Settings, seconds: dict[str, float]) -> str:
    """Read, clean, price, normalise and fingerprint ``path`` once, keeping each stage's least CPU time;
    returns the comparable text."""
    doc = _timed(
        seconds,
        "read",
        lambda: read_document(path, "d1", OcrOptions(settings.ocr_engine), read_limits(settings)),
    )
    doc = _timed(seconds, "clean", lambda: clean_document(doc))
    _timed(seconds, "price", lambda: read_price(list(doc.blocks)))
    clean = _timed(seconds, "normalise", lambda: build_clean_text(doc))
    _timed(seconds, "fingerprint", lambda: fingerprint_text(clean.norm, settings))
    return clean.norm


def time_words(norm: str, seconds: dict[str, float]) -> None:
    """Two parts of the fingerprints apart: jieba's cut and the out-of-dictionary words in it."""
    words = _timed(seconds, "(of which cut", lambda: cut(norm))
    _timed(seconds, "odd words)", lambda: odd_words(words))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, nargs="?", help="the file (default: the 50,000-table docx)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"command: {shlex.join(['.venv/bin/python', '-m', 'bench.reading', *sys.argv[1:]])}")
    with tempfile.TemporaryDirectory() as folder:
        path = args.path or many_tables_docx(Path(folder) / "tables.docx")
        seconds: dict[str, float] = {}
        norm = read_once(path, Settings(), seconds)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # the first reading's, alone
        for _ in range(args.runs - 1):
            norm = read_once(path, Settings(), seconds)
    for _ in range(args.runs):
        time_words(norm, seconds)
    print("  ".join(f"{stage} {value:.2f}" for stage, value in seconds.items()), end="  ")
    total = sum(v for stage, v in seconds.items() if "(" not in stage and ")" not in stage)
    print(f"total {total:.2f} CPU s (best of {args.runs})  peak {peak:.0f} MB")


if __name__ == "__main__":
    main()
