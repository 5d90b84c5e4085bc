"""A section whose files hold characters XML cannot hold: in a copied passage, a property and file names.

A .docx cannot carry these characters: XML 1.0 forbids them, python-docx (lxml) refuses to write them
("All strings must be XML compatible") and lxml refuses to read a part holding one. So the copied passage
is in .txt bids (U+0001, U+FFFE, U+FFFF; a .txt line ends at U+000B, so that one never reaches a passage
from a file and is tested at the writers), the property is a PDF's Author, and the lone surrogates come
from a file name that is not UTF-8 (Python reads its bytes as ``\\udcff`` and the like).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tests.builders import make_pdf, paragraphs

AUTHOR = "张\x01三\ufffe"


@dataclass(frozen=True)
class OddSection:
    """The section's folder, its files by key, and the copied passage as written."""

    bids: Path
    files: dict[str, Path]
    copied: str

    def odd_part(self) -> str:
        """The part of the copied passage that holds its three odd characters."""
        return self.copied[20:100]


def _copied() -> str:
    first, second = paragraphs(35, 2)
    return first[:30] + "\x01" + first[30:60] + "\ufffe" + first[60:90] + "\uffff" + first[90:] + second


def make_odd_section(root: Path) -> OddSection:
    """Four bids: 01 and 02 (named with U+0001) share a passage with U+0001, U+FFFE and U+FFFF; 03 (named
    in bytes that are not UTF-8) and 04 (a PDF whose author holds U+0001 and U+FFFE) share another."""
    bids = root / "bids"
    bids.mkdir()
    own = {key: paragraphs(seed, 6) for key, seed in (("a", 31), ("b", 32), ("c", 33), ("d", 34))}
    copied, other = _copied(), "".join(paragraphs(36, 2))
    files = {
        "a": bids / "01-甲.txt",
        "b": bids / "02-乙\x01.txt",
        "c": bids / os.fsdecode(b"03-\xff\xfe.txt"),
        "d": bids / "04-丁.pdf",
    }
    files["a"].write_text("\n".join([*own["a"][:3], copied, *own["a"][3:]]), encoding="utf-8")
    files["b"].write_text("\n".join([*own["b"][:2], copied, *own["b"][2:]]), encoding="utf-8")
    files["c"].write_text("\n".join([*own["c"][:3], other, *own["c"][3:]]), encoding="utf-8")
    make_pdf(files["d"], [[*own["d"][:3], other], own["d"][3:]], author=AUTHOR)
    return OddSection(bids, files, copied)
