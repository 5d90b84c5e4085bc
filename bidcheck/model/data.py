"""Data passed between the stages of a check: frozen dataclasses, from a document's blocks to the
result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "COMPARED_KINDS",
    "SCHEMA",
    "BillItem",
    "BillRow",
    "BillShare",
    "Block",
    "BlockKind",
    "CheckResult",
    "Concealed",
    "Document",
    "Group",
    "HistoryMatch",
    "HistoryPassage",
    "Level",
    "LibraryInfo",
    "Mark",
    "PairResult",
    "Part",
    "Passage",
    "Picture",
    "Place",
    "Price",
    "PricePattern",
    "PublicValue",
    "Role",
    "Side",
    "Signal",
    "Strength",
]

SCHEMA = "bidcheck.result/1"
BlockKind = Literal["body", "table", "textbox", "header", "footer"]
Level = Literal["high", "watch", "none"]
Role = Literal["bid", "tender", "template"]
Strength = Literal["strong", "supporting"]
COMPARED_KINDS: frozenset[str] = frozenset({"body", "table", "textbox"})


@dataclass(frozen=True)
class Block:
    """One paragraph, table cell, text box or header/footer line of a document.

    A block of a table row has ``row`` (numbered from 1 through the document; 0 outside tables). A Word
    table gives a block per paragraph of a cell, ``cell`` its column; a row read from a page's text line
    is one block whose further cells start at the offsets ``cuts`` (see ``bidcheck.text.tables``).
    """

    text: str
    kind: BlockKind = "body"
    page: int = 1
    paragraph: int = 0
    row: int = 0
    cell: int = 0
    cuts: tuple[int, ...] = ()


@dataclass(frozen=True)
class Concealed:
    """Text a reader of the printed bid would not see, or characters disguised to beat a checker.

    ``kind``: ``hidden`` (Word's hidden text), ``white`` (white or near-white on a white page), ``tiny``
    (2 pt or less), ``invisible`` (a PDF's invisible render mode, not over a scan), ``off_page`` (PDF text
    outside the page), ``zero_width`` (zero-width characters inside words), ``homoglyph`` (look-alike
    letters of another script inside words), ``comment`` and ``deleted`` (a Word file's comments and text
    deleted with changes tracked, see ``bidcheck.ingest.docx_marks``). ``block``: the index in the
    document's blocks while it is read (``-1`` when none), resolved into ``paragraph`` when the document
    is cleaned."""

    kind: str
    page: int
    paragraph: int
    text: str
    block: int = -1


@dataclass(frozen=True)
class Picture:
    """A picture of a document (see ``bidcheck.ingest.pictures``): its page, a digest of its decoded
    pixels, its perceptual hash (64-bit dHash), its size in pixels, a small PNG of it, whether it is
    mostly paper (a scanned page of text, a drawing on white: its look hashes like any other such), and
    whether it is drawn by a computer (a screenshot, chart, logo or form: flat colours, where a photo or
    a scan has grain; such pictures are often public, see ``bidcheck.signals.image``)."""

    page: int
    digest: str
    phash: int
    width: int
    height: int
    thumbnail: bytes = b""
    plain: bool = False
    drawn: bool = False


@dataclass(frozen=True)
class Price:
    """A bid's total price in yuan (see ``bidcheck.text.prices``) and where it stands."""

    total: float
    page: int
    paragraph: int


@dataclass(frozen=True)
class PricePattern:
    """Totals of three or more bids in a pattern (``arithmetic``: equal steps; ``ratio``: equal
    ratios; ``close``: within a hair of each other): its members (bid ids) and the panel's sentence."""

    kind: str
    members: tuple[str, ...]
    detail: str
    strength: Strength = "strong"


@dataclass(frozen=True)
class BillItem:
    """One item of a priced bill of quantities (已标价工程量清单): its 项目编码, name, unit, quantity,
    综合单价 and 合价 (``None`` where the bill leaves them out), its build-up (定额编号 and 含量 of each
    quota it is priced from), the file it stands in and its 项目特征 (the wording the tender's bill
    gives the item, which a bid copies). A 人材机 (labour, material, machine) of a bill's price list is
    one too: its code, name and spec, unit, quantity and unit price (市场价)."""

    code: str
    name: str = ""
    unit: str = ""
    quantity: float | None = None
    unit_price: float | None = None
    total: float | None = None
    buildup: tuple[tuple[str, str], ...] = ()
    file: str = ""
    features: str = ""


@dataclass(frozen=True)
class BillRow:
    """One item of two bidders' bills side by side (the evidence of a ``bill`` signal): its code, name and
    unit, both unit prices, and the control price where the tender's bill gives it."""

    code: str
    name: str
    unit: str
    a: float | None
    b: float | None
    control: float | None = None
    text: str = ""  # the wording both share where the sign is wording (项目特征), with the tender's


@dataclass(frozen=True)
class BillShare:
    """Two bidders' priced bills: the items both priced (``common``) and those priced alike to the fen
    (``same``: none round, the control price or many bids'), for the section's matrix of shares."""

    a: str
    b: str
    same: int
    common: int


@dataclass(frozen=True)
class Mark:
    """An identity of the machine, the program account or the file that saved a file, as the file
    records it (see ``bidcheck.ingest.identity`` and ``bidcheck.ingest.pricing_xml``).

    ``field``: ``dongle`` (a pricing program's dongle serial), ``cpu_mac_disk`` (a PC's CPU, network card
    and disk serials together), ``wps_hdid`` and ``wps_user`` (the WPS hardware id and account),
    ``wps_icv``/``wps_build`` (WPS's installation ids, supporting at most), ``doc_id`` (Word's
    ``w15:docId``), ``pdf_id`` (a PDF's permanent ``/ID``). ``file`` names the file of a bidder's folder
    that carries it, ``time`` the record's time where it has one, ``record`` the record as a panel reads
    it (every field of it, for the two records side by side)."""

    field: str
    value: str
    file: str = ""
    time: str = ""
    record: str = ""


@dataclass(frozen=True)
class Part:
    """One file of a bidder's folder, read into the bidder's document: its name, format, the pages it
    took (``first_page`` to ``first_page + pages - 1`` of the document), its properties, and why it
    could not be read, if it could not."""

    name: str
    format: str
    first_page: int = 1
    pages: int = 0
    metadata: dict[str, str] = field(default_factory=dict)
    error: str | None = None


@dataclass(frozen=True)
class Document:
    """A file of the section as read: its blocks, metadata and whether it could be read."""

    id: str
    path: str
    name: str
    format: str
    pages: int = 0
    chars: int = 0
    blocks: tuple[Block, ...] = ()
    metadata: dict[str, str] = field(default_factory=dict)
    status: Literal["ok", "error"] = "ok"
    error: str | None = None
    ocr_pages: int = 0
    pages_without_text: tuple[int, ...] = ()
    role: Role = "bid"
    rsids: tuple[str, ...] = ()  # Word's editing-session ids (settings.xml); not in the result JSON
    rsid_texts: tuple[tuple[str, str], ...] = ()  # (rsid, the start of the first paragraph it marks)
    para_ids: tuple[tuple[str, str], ...] = ()  # Word's w14:paraId of each paragraph, with its start
    concealed: tuple[Concealed, ...] = ()  # see ``bidcheck.text.concealed``
    pictures: tuple[Picture, ...] = ()  # in the result JSON only those a signal names, with thumbnails
    price: Price | None = None  # a bid's total price, when it could be read
    price_error: str | None = None  # why a bid's total price could not be read
    marks: tuple[Mark, ...] = ()  # machine, account and file identities (``Mark``)
    parts: tuple[Part, ...] = ()  # a bidder's folder: its files, in the order read (see ``Part``)
    notes: tuple[str, ...] = ()  # what a reader could not take from a file that was read all the same
    bill: tuple[BillItem, ...] = ()  # the priced bill's items (XML, .xlsx); not in the result JSON
    resources: tuple[BillItem, ...] = ()  # the bill's 人材机 and their prices; not in the result JSON

    @property
    def ok(self) -> bool:
        """Whether the document was read and has text to compare."""
        return self.status == "ok"

    def compared_blocks(self) -> list[Block]:
        """The blocks whose text is compared (body, tables, text boxes)."""
        return [b for b in self.blocks if b.kind in COMPARED_KINDS]

    def file_metadata(self) -> list[tuple[str, dict[str, str]]]:
        """The format and properties of each file the document was read from: its parts' (a bidder's
        folder), or its own."""
        if self.parts:
            return [(p.format, p.metadata) for p in self.parts if p.error is None]
        return [(self.format, self.metadata)]

    def page_of_file(self, page: int) -> tuple[str, int]:
        """A page of the document as the file it stands in and that file's page (``("", page)``
        outside a bidder's folder)."""
        for part in reversed(self.parts):
            if part.error is None and part.pages and part.first_page <= page:
                return part.name, page - part.first_page + 1
        return "", page


@dataclass(frozen=True)
class Side:
    """One side of a passage, located in its document's cleaned text."""

    page: int
    paragraph: int
    start: int
    end: int
    text: str
    marks: tuple[tuple[int, int], ...] = ()  # matched sub-spans, offsets relative to ``start``


@dataclass(frozen=True)
class Passage:
    """Text shared by two documents."""

    a: Side
    b: Side
    similarity: float
    chars: int
    template: bool = False
    common: bool = False
    public: bool = False  # text the library has learned is public (see ``bidcheck.library``)
    semantic: bool = False  # reworded all through (``bidcheck.semantic``): ``similarity`` is a cosine
    clause: bool = (
        False  # common text in the register of model documents and contracts (``evidence.clauses``)
    )

    @property
    def live(self) -> bool:
        """Whether the passage counts as evidence (neither template, common nor public text)."""
        return not (self.template or self.common or self.public)


@dataclass(frozen=True)
class Place:
    """Where a signal's value stands in one bid: page, paragraph and the paragraph's wording."""

    page: int
    paragraph: int
    text: str


@dataclass(frozen=True)
class Signal:
    """A sign beyond shared wording that two bids have in common (see ``bidcheck.signals``).

    ``kind`` names the sign (``metadata``, ``cross_name``, ``identifier``...), ``field`` what was compared
    (``author``, ``phone``...), ``value`` the shared value, ``detail`` the sentence a panel reads;
    ``a``/``b`` where it stands in each bid, ``None`` for facts of the file (its properties);
    ``holders`` how many bids of the section hold the value (a value more bids hold weighs less: see
    ``bidcheck.signals.weighed``).
    """

    kind: str
    strength: Strength
    field: str
    value: str
    detail: str
    a: Place | None = None
    b: Place | None = None
    holders: int = 2
    rows: tuple[BillRow, ...] = ()  # a bill signal's items side by side


@dataclass(frozen=True)
class PublicValue:
    """A value a sign's finder found in too many bids to tie any two of them (``signal_max_holders``), or
    in the bids of as many bidders of other sections as make text public (``elsewhere``): the
    section's, or the world's, such as a project contact every third bidder quotes. Listed in the
    summary, never counted."""

    kind: str
    field: str
    value: str
    holders: int
    elsewhere: int = 0  # bidders of the library's other sections holding it, when that made it public


@dataclass(frozen=True)
class PairResult:
    """The judgement on one pair of documents."""

    a: str
    b: str
    similarity: float
    coverage_a: float
    coverage_b: float
    simhash_similarity: float
    level: Level
    reason: str
    passages: tuple[Passage, ...] = ()
    passages_omitted: int = 0
    signals: tuple[Signal, ...] = ()


@dataclass(frozen=True)
class Group:
    """Bidders linked by shared live passages: a suspected ring."""

    members: tuple[str, ...]
    passages: int
    chars: int


@dataclass(frozen=True)
class HistoryPassage:
    """A stretch of a bid found in a bid of an earlier section: where it is here and there."""

    page: int
    paragraph: int
    text: str
    other_page: int
    other_paragraph: int
    other_text: str | None = None  # only when the library keeps texts


@dataclass(frozen=True)
class HistoryMatch:
    """An earlier section's bid holding text of this bid. ``own_template``: the same bidder's own
    earlier bid (its own template, no warning)."""

    section: str
    document: str
    bidder: str
    chars: int
    similarity: float
    own_template: bool
    passages: tuple[HistoryPassage, ...] = ()


@dataclass(frozen=True)
class LibraryInfo:
    """The library a check was compared against: where, how many sections and bids it held, and why
    it could not be used (``error``) when it could not."""

    path: str
    sections: int = 0
    documents: int = 0
    error: str | None = None


@dataclass(frozen=True)
class CheckResult:
    """Everything one check found."""

    settings: dict[str, Any]
    elapsed_s: float
    documents: tuple[Document, ...]
    pairs: tuple[PairResult, ...]
    groups: tuple[Group, ...] = ()
    timings: dict[str, float] = field(default_factory=dict)  # wall seconds of each stage
    library: LibraryInfo | None = None  # set when the check was compared against a library
    history: dict[str, tuple[HistoryMatch, ...]] = field(default_factory=dict)  # by bid id
    price_patterns: tuple[PricePattern, ...] = ()
    semantic_note: str = ""  # why the semantic layer did not run (``语义比对未运行：…``); "" when it ran
    public_values: tuple[
        PublicValue, ...
    ] = ()  # values too many bids hold to be a sign (see ``PublicValue``)
    bill_shares: tuple[BillShare, ...] = ()  # pairs of priced bills: unit prices alike of those common
    skipped: tuple[tuple[str, str], ...] = ()  # files found in the folders given and not read: (path, why)

    def document(self, doc_id: str) -> Document:
        """The document with this id."""
        return next(d for d in self.documents if d.id == doc_id)

    @property
    def bids(self) -> list[Document]:
        """The bid documents (not the tender or templates)."""
        return [d for d in self.documents if d.role == "bid"]

    @property
    def has_tender(self) -> bool:
        """Whether a tender or template file was read: without one, the text every bidder took from the
        tender cannot be told apart from the text one bidder took from another."""
        return any(d.ok and d.role != "bid" for d in self.documents)
