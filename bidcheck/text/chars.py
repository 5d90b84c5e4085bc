"""Characters every output can hold: text goes into XML (the workbook), UTF-8 (the JSON files) and Qt.

XML 1.0 cannot hold the C0 controls other than tab, newline and carriage return, nor U+FFFE and U+FFFF;
UTF-8 cannot hold a lone surrogate (Python's stand-in for a byte of a file name that is not UTF-8), and
Qt drops one. Such a character is replaced by U+FFFD (�), one character for one, never dropped: passage
offsets, marks and the evidence view's positions index into the text, and a replacement of the same
length keeps every one of them true (U+FFFD is one UTF-16 unit in Qt, as each replaced character is).
"""

from __future__ import annotations

import re

__all__ = ["REPLACEMENT", "decoded_name", "replace_unsafe", "utf8"]

REPLACEMENT = "\ufffd"
_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def replace_unsafe(text: str) -> str:
    """``text`` with every character XML 1.0 or UTF-8 cannot hold replaced by U+FFFD (same length)."""
    return _UNSAFE.sub(REPLACEMENT, text) if _UNSAFE.search(text) else text


def decoded_name(name: str) -> str:
    """A file's name as its owner wrote it: a name whose bytes were not UTF-8 (an archive from a Chinese
    Windows unpacked elsewhere: GBK bytes, held as lone surrogates) read as GB18030 when they are that;
    else the name as it is."""
    if not _SURROGATE.search(name):
        return name
    try:
        return name.encode("utf-8", "surrogateescape").decode("gb18030")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return name


def utf8(text: str) -> bytes:
    """``text`` as UTF-8, a lone surrogate written as U+FFFD (a file path can hold one)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(REPLACEMENT, text).encode("utf-8")
