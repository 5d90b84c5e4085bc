"""jieba vs rjieba (HMM off, bid vocabulary added) on the sample section: same tokens? how fast?

Usage: .venv/bin/python bench/tokenizers.py [--repeat N]
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import jieba
import rjieba

from bidcheck.config import Settings
from bidcheck.fingerprint.tokens import DICTS, user_words
from bidcheck.prepare import prepare_document

T = TypeVar("T")
SAMPLE = Path(__file__).resolve().parents[1] / "resources" / "sample"


def _sample_text() -> str:
    texts = []
    for path in sorted((SAMPLE / "bids").iterdir()):
        ready = prepare_document(path, "d", "bid", Settings()).ready
        if ready is not None:
            texts.append(ready.clean.norm)
    return "".join(texts)


def _timed(action: Callable[[], T]) -> tuple[T, float]:
    started = time.perf_counter()
    value = action()
    return value, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="copies of the sample text to cut")
    args = parser.parse_args()
    text = _sample_text() * args.repeat
    jieba.setLogLevel(logging.WARNING)
    slow, slow_init = _timed(lambda: jieba.Tokenizer())
    _, slow_init2 = _timed(slow.initialize)
    slow.load_userdict(str(DICTS / "bid_words.txt"))
    fast, fast_init = _timed(rjieba.Jieba)
    for word, freq, tag in user_words():
        fast.add_word(word, freq, tag)
    a, slow_cut = _timed(lambda: slow.lcut(text, HMM=False))
    b, fast_cut = _timed(lambda: fast.cut(text, False))
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    print(f"text: {len(text):,} characters ({args.repeat} x the sample section's bids)")
    print(f"jieba : start {slow_init + slow_init2:.3f} s, cut {slow_cut:.3f} s, {len(a):,} tokens")
    print(f"rjieba: start {fast_init:.3f} s, cut {fast_cut:.3f} s, {len(b):,} tokens")
    print(f"same tokens: {a == b}; rjieba is {slow_cut / fast_cut:.1f}x faster at cutting")


if __name__ == "__main__":
    main()
