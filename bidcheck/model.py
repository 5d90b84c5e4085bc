"""Data passed between the stages of a check, and its JSON form (``bidcheck.result/1``)."""

from __future__ import annotations

import base64
import json
from collections.abc import Collection
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

__all__ = [
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
    "document_to_dict",
    "load_result",
    "pair_figures_to_dict",
    "passage_figures_to_dict",
    "result_from_dict",
    "result_to_dict",
    "shared_pictures",
    "side_to_dict",
    "signal_to_dict",
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


def document_to_dict(doc: Document, shown: Collection[str] = ()) -> dict[str, Any]:
    """A document as JSON (without its blocks; of its pictures, those whose digest is in ``shown``)."""
    return {
        "id": doc.id,
        "name": doc.name,
        "path": doc.path,
        "format": doc.format,
        "role": doc.role,
        "pages": doc.pages,
        "chars": doc.chars,
        "ocr_pages": doc.ocr_pages,
        "status": doc.status,
        "error": doc.error,
        "metadata": dict(doc.metadata),
        "concealed": [
            {"kind": c.kind, "page": c.page, "paragraph": c.paragraph, "text": c.text} for c in doc.concealed
        ],
        "price": asdict(doc.price) if doc.price else None,
        "price_error": doc.price_error,
        "pictures": [_picture_to_dict(p) for p in _unique_pictures(doc.pictures, shown)],
        "marks": [asdict(m) for m in doc.marks],
        "parts": [asdict(p) for p in doc.parts],
        "notes": list(doc.notes),
    }


def _unique_pictures(pictures: tuple[Picture, ...], shown: Collection[str]) -> list[Picture]:
    """The pictures whose digest is in ``shown``, each digest once (at its first page)."""
    first = {p.digest: p for p in reversed(pictures) if p.digest in shown}  # the first one stays
    return [p for p in pictures if first.get(p.digest) is p]


def _picture_to_dict(picture: Picture) -> dict[str, Any]:
    """A picture as JSON: its thumbnail as base64 PNG, its perceptual hash as 16 hex digits."""
    return {
        "page": picture.page,
        "digest": picture.digest,
        "phash": f"{picture.phash:016x}",
        "width": picture.width,
        "height": picture.height,
        "plain": picture.plain,
        "drawn": picture.drawn,
        "thumbnail": base64.b64encode(picture.thumbnail).decode("ascii"),
    }


def _picture_from_dict(data: dict[str, Any]) -> Picture:
    return Picture(
        int(data["page"]),
        str(data["digest"]),
        int(str(data.get("phash") or "0"), 16),
        int(data["width"]),
        int(data["height"]),
        base64.b64decode(str(data.get("thumbnail") or "")),
        bool(data.get("plain", False)),
        bool(data.get("drawn", False)),
    )


def shared_pictures(result: CheckResult) -> set[str]:
    """The digests of the pictures the result's picture signals name (a signal's value is one digest,
    or two joined by ``/`` for a near copy)."""
    return {d for p in result.pairs for s in p.signals if s.kind == "image" for d in s.value.split("/")}


def side_to_dict(side: Side) -> dict[str, Any]:
    """One side of a passage as JSON."""
    return {
        "page": side.page,
        "paragraph": side.paragraph,
        "start": side.start,
        "end": side.end,
        "text": side.text,
        "marks": side.marks,  # tuples: written as JSON arrays
    }


def passage_figures_to_dict(passage: Passage) -> dict[str, Any]:
    """A passage as JSON, less its two sides (``"a"`` and ``"b"``, which come first)."""
    return {
        "similarity": passage.similarity,
        "chars": passage.chars,
        "template": passage.template,
        "common": passage.common,
        "public": passage.public,
        "semantic": passage.semantic,
        "clause": passage.clause,
    }


def signal_to_dict(signal: Signal) -> dict[str, Any]:
    """A signal as JSON (its places ``null`` for facts of the file)."""
    return asdict(signal)


def pair_figures_to_dict(pair: PairResult) -> dict[str, Any]:
    """A pair as JSON, less its passages (``"passages"`` and ``"passages_omitted"``, which come last)."""
    return {
        "a": pair.a,
        "b": pair.b,
        "similarity": pair.similarity,
        "coverage_a": pair.coverage_a,
        "coverage_b": pair.coverage_b,
        "simhash_similarity": pair.simhash_similarity,
        "level": pair.level,
        "reason": pair.reason,
        "signals": [signal_to_dict(s) for s in pair.signals],
    }


def _pair_to_dict(pair: PairResult) -> dict[str, Any]:
    return {
        **pair_figures_to_dict(pair),
        "passages": [
            {"a": side_to_dict(p.a), "b": side_to_dict(p.b), **passage_figures_to_dict(p)}
            for p in pair.passages
        ],
        "passages_omitted": pair.passages_omitted,
    }


def _history_to_dict(match: HistoryMatch) -> dict[str, Any]:
    return {**asdict(match), "passages": [asdict(p) for p in match.passages]}


def _documents_to_dicts(result: CheckResult) -> list[dict[str, Any]]:
    """The documents; with a library, each bid with its ``history``."""
    out = []
    shown = shared_pictures(result)
    for doc in result.documents:
        data = document_to_dict(doc, shown)
        if result.library is not None and doc.role == "bid":
            data["history"] = [_history_to_dict(m) for m in result.history.get(doc.id, ())]
        out.append(data)
    return out


def result_to_dict(result: CheckResult, with_pairs: bool = True) -> dict[str, Any]:
    """The result as the ``bidcheck.result/1`` JSON object (``"pairs"`` left empty unless
    ``with_pairs``: for a writer that encodes them itself). ``library`` only when checked against one."""
    library = {"library": asdict(result.library)} if result.library is not None else {}
    note = {"semantic_note": result.semantic_note} if result.semantic_note else {}
    return {
        "schema": SCHEMA,
        "settings": result.settings,
        "elapsed_s": round(result.elapsed_s, 3),
        "timings": {stage: round(seconds, 3) for stage, seconds in result.timings.items()},
        **library,
        **note,
        "documents": _documents_to_dicts(result),
        "pairs": [_pair_to_dict(p) for p in result.pairs] if with_pairs else [],
        "groups": [
            {"members": list(g.members), "passages": g.passages, "chars": g.chars} for g in result.groups
        ],
        "price_patterns": [{**asdict(p), "members": list(p.members)} for p in result.price_patterns],
        "public_values": [asdict(v) for v in result.public_values],
        "bill_shares": [asdict(v) for v in result.bill_shares],
        "skipped": [{"path": path, "why": why} for path, why in result.skipped],
    }


def _side_from_dict(data: dict[str, Any]) -> Side:
    marks = tuple((int(s), int(e)) for s, e in data.get("marks", ()))
    return Side(
        int(data["page"]),
        int(data["paragraph"]),
        int(data["start"]),
        int(data["end"]),
        str(data["text"]),
        marks,
    )


def _place_from_dict(data: dict[str, Any] | None) -> Place | None:
    return None if data is None else Place(int(data["page"]), int(data["paragraph"]), str(data["text"]))


def _signal_from_dict(data: dict[str, Any]) -> Signal:
    return Signal(
        str(data["kind"]),
        data["strength"],
        str(data["field"]),
        str(data["value"]),
        str(data["detail"]),
        _place_from_dict(data.get("a")),
        _place_from_dict(data.get("b")),
        int(data.get("holders", 2)),
        tuple(BillRow(**r) for r in data.get("rows", ())),
    )


def _pair_from_dict(data: dict[str, Any]) -> PairResult:
    passages = tuple(
        Passage(
            _side_from_dict(p["a"]),
            _side_from_dict(p["b"]),
            float(p["similarity"]),
            int(p["chars"]),
            bool(p["template"]),
            bool(p["common"]),
            bool(p.get("public", False)),
            bool(p.get("semantic", False)),
            bool(p.get("clause", False)),
        )
        for p in data["passages"]
    )
    return PairResult(
        data["a"],
        data["b"],
        float(data["similarity"]),
        float(data["coverage_a"]),
        float(data["coverage_b"]),
        float(data["simhash_similarity"]),
        data["level"],
        str(data["reason"]),
        passages,
        int(data.get("passages_omitted", 0)),
        tuple(_signal_from_dict(s) for s in data.get("signals", ())),
    )


def _document_from_dict(data: dict[str, Any]) -> Document:
    return Document(
        id=data["id"],
        path=data["path"],
        name=data["name"],
        format=data["format"],
        pages=int(data["pages"]),
        chars=int(data.get("chars", 0)),
        metadata=dict(data.get("metadata") or {}),
        status=data["status"],
        error=data.get("error"),
        ocr_pages=int(data.get("ocr_pages", 0)),
        role=data.get("role", "bid"),
        concealed=tuple(
            Concealed(str(c["kind"]), int(c["page"]), int(c["paragraph"]), str(c["text"]))
            for c in data.get("concealed", ())
        ),
        price=Price(**data["price"]) if data.get("price") else None,
        price_error=data.get("price_error"),
        pictures=tuple(_picture_from_dict(p) for p in data.get("pictures", ())),
        marks=tuple(Mark(**m) for m in data.get("marks", ())),
        parts=tuple(Part(**{**p, "metadata": dict(p.get("metadata") or {})}) for p in data.get("parts", ())),
        notes=tuple(str(n) for n in data.get("notes", ())),
    )


def _history_from_dict(data: dict[str, Any]) -> HistoryMatch:
    passages = tuple(HistoryPassage(**p) for p in data.get("passages", ()))
    fields_ = {k: v for k, v in data.items() if k != "passages"}
    return HistoryMatch(**fields_, passages=passages)


def _library_from_dict(
    data: dict[str, Any],
) -> tuple[LibraryInfo | None, dict[str, tuple[HistoryMatch, ...]]]:
    if "library" not in data:
        return None, {}
    documents = data["documents"]
    history = {d["id"]: tuple(_history_from_dict(m) for m in d.get("history", ())) for d in documents}
    return LibraryInfo(**data["library"]), {k: v for k, v in history.items() if v}


def result_from_dict(data: dict[str, Any]) -> CheckResult:
    """Rebuild a result from its JSON object (documents come back without their blocks)."""
    if data.get("schema") != SCHEMA:
        raise ValueError(f"not a bidcheck result (schema {data.get('schema')!r}, expected {SCHEMA!r})")
    groups = tuple(Group(tuple(g["members"]), int(g["passages"]), int(g["chars"])) for g in data["groups"])
    return CheckResult(
        dict(data["settings"]),
        float(data["elapsed_s"]),
        tuple(_document_from_dict(d) for d in data["documents"]),
        tuple(_pair_from_dict(p) for p in data["pairs"]),
        groups,
        {str(k): float(v) for k, v in (data.get("timings") or {}).items()},
        *_library_from_dict(data),
        tuple(
            PricePattern(p["kind"], tuple(p["members"]), p["detail"], p.get("strength", "strong"))
            for p in data.get("price_patterns", ())
        ),
        str(data.get("semantic_note", "")),
        tuple(
            PublicValue(
                str(v["kind"]),
                str(v["field"]),
                str(v["value"]),
                int(v["holders"]),
                int(v.get("elsewhere", 0)),
            )
            for v in data.get("public_values", ())
        ),
        tuple(
            BillShare(str(v["a"]), str(v["b"]), int(v["same"]), int(v["common"]))
            for v in data.get("bill_shares", ())
        ),
        tuple((str(v["path"]), str(v["why"])) for v in data.get("skipped", ())),
    )


def load_result(path: Path) -> CheckResult:
    """Read a result JSON file written by ``bidcheck check --json``."""
    return result_from_dict(json.loads(path.read_text(encoding="utf-8")))
