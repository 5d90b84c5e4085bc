"""The same phone, e-mail, ID number, credit code, bank account, certificate or staff member in the
bids of two bidders: the same person handling both bids' affairs, or one bid made from the other.

Every bid is searched once per kind; values are paired through a dict (``held_by_few``): values the
tender holds (the agency's phone and account, copied into every bid) and values most bids hold are
no sign. Numbers with a check digit count only when it is right. Identifiers are never logged.
Staff names count from the staff tables (项目经理, 技术负责人...), not from the signature lines (a
委托代理人 called 张伟 in two bids is as likely chance), and only as a supporting sign: written after
their post (``项目经理：吴海波``) or in a table's 姓名 column (``bidcheck.text.staff``), whose 证书编号 and
身份证号 columns give certificate and ID numbers too. A value from a table is located at its row. Chance
grows with the section: where more than ``base.CHANCE_PAIRS`` names are each shared by two bids alone,
a name two bids share is what chance gives there, and only names three or more bids share (a ring)
remain; the same person with the same certificate is the staff row's sign (``staff_row``).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from bidcheck.memo import memoised
from bidcheck.model import Document, Place, PublicValue, Signal, Strength
from bidcheck.ready import Ready
from bidcheck.signals.base import (
    CHANCE_PAIRS,
    Linked,
    SectionInfo,
    held_by_few,
    place_of,
    public_values,
    seen_elsewhere,
    value_key,
)
from bidcheck.text import CleanText, staff
from bidcheck.text.tables import TableRow
from bidcheck.words import SIGNAL_FIELDS

__all__ = [
    "PATTERNS",
    "cell_starts",
    "credit_code_ok",
    "find",
    "id_number_ok",
    "identifier_keys",
    "identifiers",
    "remembered_identifiers",
    "row_span",
    "staffed_identifiers",
    "with_staff_tables",
]

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"
_USCC_CHARS = "0123456789ABCDEFGHJKLMNPQRTUWXY"
_USCC_WEIGHTS = (1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28)


def id_number_ok(value: str) -> bool:
    """Whether an 18-character resident ID number has the right check character (GB 11643)."""
    if not re.fullmatch(r"\d{17}[\dX]", value):
        return False
    total = sum(int(c) * w for c, w in zip(value[:17], _ID_WEIGHTS, strict=True))
    return _ID_CHECK[total % 11] == value[17]


def credit_code_ok(value: str) -> bool:
    """Whether an 18-character unified social credit code has the right check character (GB 32100)."""
    if len(value) != 18 or any(c not in _USCC_CHARS for c in value):
        return False
    total = sum(_USCC_CHARS.index(c) * w for c, w in zip(value[:17], _USCC_WEIGHTS, strict=True))
    return _USCC_CHARS[(31 - total % 31) % 31] == value[17]


def _digits(value: str) -> str:
    return re.sub(r"[\s-]", "", value)


# field -> (pattern whose group 1 is the value, how the value is normalised or refused, strength). The
# numbers' patterns look behind them after their first character (``1(?<!\d1)``, not ``(?<!\d)1``): the
# same matches, but a pattern that begins with a character lets the regex engine skip to where one
# stands, where a look-behind first is tried at every character (0.8-1 ms a bid each, against 0.1-0.3).
Clean = Callable[[str], str | None]
PATTERNS: dict[str, tuple[re.Pattern[str], Clean, Strength]] = {
    "phone": (
        re.compile(r"((?:1(?<!\d1)[3-9]\d{9})|(?:0(?<!\d0)\d{2,3}[-－]?\d{7,8}))(?![\d])"),
        lambda v: _digits(v.replace("－", "-")),
        "strong",
    ),
    "email": (
        re.compile(r"(?<![\w.+-])([\w.+-]{1,64}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)"),
        lambda v: v.lower(),
        "strong",
    ),
    "id_number": (
        re.compile(r"(\d(?<![0-9A-Za-z]\d)\d{16}[\dXx])(?![0-9A-Za-z])"),
        lambda v: v.upper() if id_number_ok(v.upper()) else None,
        "strong",
    ),
    "credit_code": (
        re.compile(
            r"([0-9A-HJ-NPQRTUWXY](?<![0-9A-Za-z][0-9A-HJ-NPQRTUWXY])[0-9A-HJ-NPQRTUWXY]\d{6}"
            r"[0-9A-HJ-NPQRTUWXY]{10})(?![0-9A-Za-z])"
        ),
        lambda v: v if credit_code_ok(v) and not id_number_ok(v) else None,
        "strong",
    ),
    "bank_account": (
        re.compile(r"(?:账号|帐号|银行账户|账户号码|卡号)\s*[：:]?\s*(\d[\d\s-]{8,32}\d)"),
        lambda v: d if 10 <= len(d := _digits(v)) <= 25 else None,
        "strong",
    ),
    "certificate": (
        re.compile(
            r"(?:证书编号|注册编号|证书号|注册号|执业印章号|考核合格证号|资格证号|执业证号)\s*[：:]?\s*"
            r"([\u4e00-\u9fff]?[A-Za-z]{0,3}[0-9][0-9A-Za-z\-（）()]{5,29})"
        ),
        lambda v: v.upper(),
        "strong",
    ),
    "person": (
        re.compile(
            r"(?:项目经理|项目负责人|技术负责人|安全员|施工员|质检员)(?:姓名)?\s*[：:]\s*"
            r"([\u4e00-\u9fff]{2,3})(?![\u4e00-\u9fff])"
        ),
        lambda v: v,
        "supporting",
    ),
}


# Staff names, of which a section's bids share some by chance (a hundred bids name some 300 staff, and a
# common name such as 张伟 is held by a million people): see ``base.CHANCE_PAIRS``.
_NAMES = frozenset({"person"})
# a space a PDF's line break left inside a number or an address (``zb@ljzx.c n``)
_ROW_CHARS = 120  # the wording of a table row: its cells, at most this many characters
_GAP = re.compile(r"(?<=[A-Za-z0-9@._\-])[ \t]+(?=[A-Za-z0-9@._\-])")


@dataclass(frozen=True)
class _Squeezed:
    """A document's clean text less the spaces inside numbers and addresses, and the way back."""

    text: str
    cuts: tuple[int, ...]  # positions in ``text`` after which characters were left out
    shifts: tuple[int, ...]  # characters left out up to each cut

    @classmethod
    def of(cls, text: str, kept: frozenset[int] = frozenset()) -> _Squeezed:
        """``text`` squeezed, but for the gaps before the offsets ``kept`` (a table row's cells)."""
        pieces, cuts, shifts, at, removed = [], [0], [0], 0, 0
        for gap in _GAP.finditer(text):
            if gap.end() in kept:
                continue
            pieces.append(text[at : gap.start()])
            removed += gap.end() - gap.start()
            cuts.append(gap.start() - (removed - (gap.end() - gap.start())))
            shifts.append(removed)
            at = gap.end()
        pieces.append(text[at:])
        return cls("".join(pieces), tuple(cuts), tuple(shifts))

    def original(self, offset: int) -> int:
        return offset + self.shifts[bisect.bisect_right(self.cuts, offset) - 1]


_DOMAIN_RUN = re.compile(r"[A-Za-z0-9.-]*")
_LOCAL_MAX = 64  # an address's characters before its ``@``, at most (the e-mail pattern's)


def _emails(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for the e-mail pattern, searched only near each ``@``: a match holds
    one, at most 64 characters after its start, and ends within the run of domain characters after it
    (the pattern tried at every word character of a bid cost 1.1 ms)."""
    pos = 0
    while (at := text.find("@", pos)) >= 0:
        end = _DOMAIN_RUN.match(text, at + 1).end()  # type: ignore[union-attr]  # * always matches
        match = pattern.search(text, max(pos, at - _LOCAL_MAX), end)
        if match is not None:
            yield match
        pos = match.end() if match is not None else at + 1


def _matches(field: str, text: str) -> Iterator[re.Match[str]]:
    """The matches of a field's pattern in ``text``, in order."""
    pattern = PATTERNS[field][0]
    return _emails(pattern, text) if field == "email" else pattern.finditer(text)


def _values(clean: CleanText, field: str, squeezed: _Squeezed) -> dict[str, tuple[int, int]]:
    """A document's values of one field, each with the span (in its clean text) where it first stands."""
    normalised = PATTERNS[field][1]
    found: dict[str, tuple[int, int]] = {}
    for match in _matches(field, squeezed.text):
        value = normalised(match.group(1))
        if value and value not in found:
            start, end = match.span(1)
            found[value] = (squeezed.original(start), squeezed.original(end - 1) + 1)
    return found


def identifiers(
    clean: CleanText, cells: frozenset[int] = frozenset()
) -> dict[str, dict[str, tuple[int, int]]]:
    """A document's identifiers: by field, each value with the span (in its clean text) where it first
    stands. ``cells``: where the cells of its page-laid table rows start (``cell_starts``), never run
    together with the cell before (a certificate number, then a mobile)."""
    squeezed = _Squeezed.of(clean.text, cells)
    return {field: _values(clean, field, squeezed) for field in PATTERNS}


def cell_starts(doc: Document, clean: CleanText) -> frozenset[int]:
    """Where, in its clean text, the cells of a document's table rows read from a page (a PDF's, an OFD's,
    a scan's: one block a row, its cells at its ``cuts``) start."""
    blocks = doc.compared_blocks()
    return frozenset(clean.block_starts[n] + cut for n, block in enumerate(blocks) for cut in block.cuts)


def row_span(clean: CleanText, row: TableRow) -> tuple[int, int]:
    """The span of a table row (its first cell to its last) in the clean text."""
    first, last = row.cells[0], row.cells[-1]
    return clean.block_starts[first.first] + first.start, clean.block_starts[last.last] + last.end


def with_staff_tables(ready: Ready) -> dict[str, dict[str, tuple[int, int]]]:
    """A document's ``identifiers`` and the staff of its tables laid out as columns (see
    ``staffed_identifiers``)."""
    return staffed_identifiers(ready.doc, ready.clean)


def staffed_identifiers(doc: Document, clean: CleanText) -> dict[str, dict[str, tuple[int, int]]]:
    """A document's ``identifiers`` and the staff of its tables laid out as columns, each in the span of
    its row (a value written both ways keeps the place where it first stands in the text)."""
    found = identifiers(clean, cell_starts(doc, clean))
    for field, raw, row in staff.staff_values(doc.compared_blocks()):
        value = PATTERNS[field][1](raw)
        if value:
            span = row_span(clean, row)
            held = found[field]
            if value not in held or span[0] < held[value][0]:
                held[value] = span
    return found


def _place(clean: CleanText, start: int, end: int) -> Place:
    """Where a value stands: its paragraph's wording, or a table row's cells joined by `` | ``."""
    place = place_of(clean, start, end)
    if "\n" not in clean.text[start:end]:
        return place
    cells = " | ".join(c.strip() for c in clean.text[start:end].split("\n"))
    return Place(place.page, place.paragraph, cells[:_ROW_CHARS])


def _signal(field: str, value: str, places: tuple[Place, Place], holders: int) -> Signal:
    here, there = places
    where = f"第 {here.page} 页 / 第 {there.page} 页"
    detail = f"两份文件出现相同的{SIGNAL_FIELDS[field]}“{value}”（{where}）"
    return Signal("identifier", PATTERNS[field][2], field, value, detail, here, there, holders)


def identifier_keys(doc: Ready) -> tuple[int, ...]:
    """A document's identifiers as the library keeps them (``value_key``: hashed, never the values)."""
    found = remembered_identifiers(doc)
    return tuple(sorted({value_key(field, value) for field, values in found.items() for value in values}))


@memoised
def remembered_identifiers(doc: Ready) -> dict[str, dict[str, tuple[int, int]]]:
    """A document's ``identifiers`` (``with_staff_tables``), remembered by its cache entry
    (``memoised``): a bid added to a checked section is the only one searched; a check's reading
    processes search each file they read."""
    return with_staff_tables(doc)


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked | PublicValue]:
    """Pairs of bids holding the same identifier of some kind, located on both sides; and the
    identifiers too many bids hold (a public contact)."""
    out: list[Linked | PublicValue] = []
    held = [remembered_identifiers(b) for b in bids]
    tenders = [remembered_identifiers(t) for t in section.tenders]
    for field in PATTERNS:
        values = [found[field] for found in held]
        excluded = {v for found in tenders for v in found[field]}
        few, many = held_by_few(values, excluded, section.settings)
        few, world = seen_elsewhere("identifier", field, few, section)  # a hotline quoted everywhere
        out += world
        if field in _NAMES and sum(len(docs) == 2 for docs in few.values()) > CHANCE_PAIRS:
            few = {value: docs for value, docs in few.items() if len(docs) > 2}  # names alike by chance
        for value, docs in few.items():
            for i, j in itertools.combinations(docs, 2):
                places = (_place(bids[i].clean, *values[i][value]), _place(bids[j].clean, *values[j][value]))
                out.append(Linked(bids[i].doc.id, bids[j].doc.id, _signal(field, value, places, len(docs))))
        out += public_values("identifier", field, many)
    return out
