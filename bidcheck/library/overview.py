"""What the library holds, read at once for a page that lists it: sections with their files and raised
pairs, bidders with their sections and past warnings, and the library's size."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from bidcheck.library.store import Library, SectionRow

__all__ = ["BidderRow", "LibraryOverview", "SectionFile", "bidder_rows", "read_overview"]


@dataclass(frozen=True)
class SectionFile:
    """A stored file of a section: name, bidder, role, characters, content hash."""

    name: str
    bidder: str
    role: str
    chars: int
    digest: str


@dataclass(frozen=True)
class BidderRow:
    """A bidder: the sections holding its bids, and the warnings it was part of (section, other
    bidder, level), oldest section first."""

    name: str
    sections: tuple[str, ...]
    warnings: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True)
class LibraryOverview:
    """The whole library, for listing: sections oldest first, each with its files and raised pairs."""

    path: Path
    sections: tuple[SectionRow, ...]
    files: dict[str, tuple[SectionFile, ...]] = field(default_factory=dict)
    pairs: dict[str, tuple[tuple[str, str, str], ...]] = field(default_factory=dict)
    bytes: int = 0
    kgrams: int = 0
    groups: int = 0

    @property
    def bids(self) -> int:
        """Bids stored in sections (model documents not counted)."""
        return sum(row.files for row in self.sections if row.kind == "section")


def read_overview(library: Library) -> LibraryOverview:
    """Everything a library page lists, read in one go (``LibraryError`` when the library fails)."""
    sections = tuple(library.sections())
    files = {row.name: tuple(SectionFile(*f) for f in library.section_files(row.name)) for row in sections}
    pairs = {row.name: tuple(library.section_pairs(row.name)) for row in sections}
    figures = library.size_figures()
    return LibraryOverview(
        library.path, sections, files, pairs, figures["bytes"], figures["kgrams"], len(library.groups())
    )


def bidder_rows(overview: LibraryOverview, search: str = "") -> list[BidderRow]:
    """The bidders of the stored sections whose names contain ``search``, by name."""
    sections: dict[str, list[str]] = defaultdict(list)
    warnings: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for row in overview.sections:
        for bidder in row.bidders:
            sections[bidder].append(row.name)
        for a, b, level in overview.pairs.get(row.name, ()):
            warnings[a].append((row.name, b, level))
            warnings[b].append((row.name, a, level))
    wanted = search.strip().casefold()
    return [
        BidderRow(name, tuple(sections[name]), tuple(warnings[name]))
        for name in sorted(sections)
        if wanted in name.casefold()
    ]
