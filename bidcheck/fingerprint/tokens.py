"""Word tokens for SimHash: jieba with the bid vocabulary in ``dicts/``, stopwords removed."""

from __future__ import annotations

import functools
import logging
from pathlib import Path

import jieba
import jieba.analyse

__all__ = ["DICTS", "idf_weights", "tokenize"]

DICTS = Path(__file__).resolve().parents[2] / "dicts"


@functools.cache
def _tokenizer() -> jieba.Tokenizer:
    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()
    user_dict = DICTS / "bid_words.txt"
    if user_dict.exists():
        tokenizer.load_userdict(str(user_dict))
    return tokenizer


@functools.cache
def _stopwords() -> frozenset[str]:
    path = DICTS / "stopwords.txt"
    if not path.exists():
        return frozenset()
    return frozenset(w.strip() for w in path.read_text(encoding="utf-8").splitlines() if w.strip())


@functools.cache
def idf_weights() -> tuple[dict[str, float], float]:
    """jieba's general-language IDF table and its median (the weight of unknown words)."""
    table = jieba.analyse.TFIDF()
    return dict(table.idf_freq), float(table.median_idf)


def tokenize(text: str) -> list[str]:
    """Words of a comparable text (HMM off, so the result depends only on the dictionaries)."""
    stop = _stopwords()
    return [w for w in _tokenizer().lcut(text, HMM=False) if len(w) > 1 and w not in stop and not w.isdigit()]
