"""Word tokens for SimHash, with the bid vocabulary in ``dicts/`` and stopwords removed.

Tokens come from rjieba (jieba's dictionary and algorithm in Rust) with HMM off: on the sample section
it gives exactly jieba's tokens at about 15 times the speed and starts in a tenth of the time
(``bench/tokenizers.py``). Term weights use jieba's general-language IDF table.
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from rjieba import Jieba

__all__ = [
    "DICTS",
    "are_words",
    "cut",
    "dictionary_path",
    "idf_path",
    "idf_weights",
    "is_word",
    "load_tokenizer",
    "stopwords",
    "token_counts",
    "user_words",
]

DICTS = Path(__file__).resolve().parents[2] / "dicts"


def user_words() -> list[tuple[str, int, str]]:
    """The bid vocabulary: (word, frequency, tag) from ``dicts/bid_words.txt``."""
    path = DICTS / "bid_words.txt"
    if not path.exists():
        return []
    rows = [line.split() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(r[0], int(r[1]) if len(r) > 1 else 100, r[2] if len(r) > 2 else "n") for r in rows]


def _jieba_class() -> type[Jieba]:
    """rjieba's tokenizer class, from its compiled module alone: importing the package builds a default
    tokenizer of jieba's dictionary (0.1 CPU s, 0.2 s wall on a busy machine) that is never used here.
    The package is imported where the module cannot be found on its own (e.g. inside an installer)."""
    module = sys.modules.get("rjieba.rjieba")
    if module is None:
        module = _load_compiled("rjieba.rjieba")
    if module is None:
        import rjieba

        return rjieba.Jieba
    return cast("type[Jieba]", module.Jieba)


def _load_compiled(name: str) -> ModuleType | None:
    """The compiled module ``name`` of a package, loaded without running the package's ``__init__``;
    ``None`` when it is not a file beside the package's own."""
    package, _, leaf = name.rpartition(".")
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return None
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = Path(spec.origin).with_name(leaf + suffix)
        if path.is_file():
            loader = importlib.machinery.ExtensionFileLoader(name, str(path))
            found = importlib.util.spec_from_file_location(name, path, loader=loader)
            if found is None:
                return None
            module = importlib.util.module_from_spec(found)
            loader.exec_module(module)
            sys.modules[name] = module
            return module
    return None


@functools.cache
def _tokenizer() -> Jieba:
    tokenizer = _jieba_class()()
    for word, freq, tag in user_words():
        tokenizer.add_word(word, freq, tag)
    return tokenizer


@functools.cache
def stopwords() -> frozenset[str]:
    """The words the SimHash leaves out (``dicts/stopwords.txt``)."""
    path = DICTS / "stopwords.txt"
    if not path.exists():
        return frozenset()
    return frozenset(w.strip() for w in path.read_text(encoding="utf-8").splitlines() if w.strip())


def idf_path() -> Path:
    """jieba's general-language IDF table (a text file of its package)."""
    return _jieba_folder() / "analyse" / "idf.txt"


def dictionary_path() -> Path:
    """jieba's dictionary (a text file of its package: a word, its frequency and its tag a line), the
    words rjieba holds besides the bid vocabulary."""
    return _jieba_folder() / "dict.txt"


def _jieba_folder() -> Path:
    spec = importlib.util.find_spec("jieba")
    if spec is None or spec.origin is None:
        raise RuntimeError("the jieba package (its IDF table and dictionary) is not installed")
    return Path(spec.origin).parent


@functools.cache
def idf_weights() -> tuple[dict[str, float], float]:
    """jieba's general-language IDF table and its median (the weight of unknown words)."""
    table: dict[str, float] = {}
    for line in idf_path().read_text(encoding="utf-8").splitlines():
        word, _, value = line.partition(" ")
        if value:
            table[word] = float(value)
    values = sorted(table.values())
    return table, values[len(values) // 2] if values else 1.0


def load_tokenizer() -> None:
    """Load the tokenizer's dictionaries (jieba's and the bid vocabulary), once a process."""
    _tokenizer()


def cut(text: str) -> list[str]:
    """A text cut into the dictionaries' words, single characters where none fits (HMM off)."""
    return list(_tokenizer().cut(text, False))


def is_word(text: str) -> bool:
    """Whether jieba's dictionary or the bid vocabulary holds ``text`` as a word."""
    return bool(_tokenizer().has_word(text))


def are_words(texts: list[str]) -> list[bool]:
    """``is_word`` of each text (the dictionary's own call on each, with no Python step of its own)."""
    return list(map(bool, map(_tokenizer().has_word, texts)))


def token_counts(words: list[str]) -> dict[str, int]:
    """The SimHash's tokens of a cut text (HMM off, so they depend only on the dictionaries): how often
    each word occurs, less stopwords, single characters and numbers, in order of first occurrence (all
    words counted first, so that each distinct word is tested once)."""
    stop = stopwords()
    return {w: n for w, n in Counter(words).items() if len(w) > 1 and w not in stop and not w.isdigit()}
