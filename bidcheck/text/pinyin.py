"""Chinese characters' pinyin readings, without tones, from pypinyin's table of single characters; and
the ways a person's name is written in Latin letters (a Windows account ``zhangjg`` for 张建国)."""

from __future__ import annotations

import functools
import importlib.util
import itertools
import json
import re
import unicodedata
from pathlib import Path

__all__ = ["latin_forms", "letters", "reading_table", "readings", "toneless"]


@functools.cache
def reading_table() -> dict[int, str]:
    """pypinyin's readings of each character (``"zhù,zhú"``), read from its data file without loading
    its phrase tables (a second's work that only whole-phrase readings need)."""
    spec = importlib.util.find_spec("pypinyin")
    folder = Path(next(iter(spec.submodule_search_locations or ()))) if spec else None
    if folder is None or not (folder / "pinyin_dict.json").is_file():
        from pypinyin.pinyin_dict import pinyin_dict  # the same table, through the package

        return dict(pinyin_dict)
    data = json.loads((folder / "pinyin_dict.json").read_text("utf-8"))
    return {int(code): readings for code, readings in data.items()}


@functools.cache
def readings(char: str) -> frozenset[str]:
    """The readings of a character, without tones."""
    return frozenset(r for r in toneless(reading_table().get(ord(char), "")).split(",") if r)


def toneless(readings: str) -> str:
    """Readings less their tone marks (and the diaeresis: ``lǜ`` is ``lu``)."""
    return readings.translate(_tone_marks())


@functools.cache
def _tone_marks() -> dict[int, str]:
    """Each character of pypinyin's readings that decomposes, to its letters less the combining marks
    (for ``str.translate``: one pass a reading rather than a normalisation)."""
    chars = set(itertools.chain.from_iterable(reading_table().values()))
    plain = {
        c: "".join(x for x in unicodedata.normalize("NFD", c) if not unicodedata.combining(x)) for c in chars
    }
    return {ord(c): p for c, p in plain.items() if p != c}


def latin_forms(name: str) -> frozenset[str]:
    """How a name of Chinese characters is written in Latin letters as an account or a signature: whole
    (``zhangjianguo``), the surname whole and the given name's initials (``zhangjg``), the initials
    (``zjg``), the given name first (``jianguozhang``); each character by any of its readings."""
    if not 2 <= len(name) <= 4 or not all("\u4e00" <= c <= "\u9fff" for c in name):
        return frozenset()
    options = [sorted(readings(c)) or [""] for c in name]
    forms: set[str] = set()
    for spelled in itertools.islice(itertools.product(*options), 64):
        surname, given = spelled[0], spelled[1:]
        forms |= {
            "".join(spelled),
            surname + "".join(g[:1] for g in given),
            "".join(s[:1] for s in spelled),
            "".join(given) + surname,
        }
    return frozenset(f for f in forms if len(f) >= 2)


def letters(value: str) -> str:
    """A value's Latin letters alone, lower-cased (``Zhang.JG`` → ``zhangjg``)."""
    return re.sub(r"[^a-z]", "", value.casefold())
