"""A check's result as JSON (``bidcheck.result/1``) and back: what the command line writes, what a saved
check and a reopened result read."""

from __future__ import annotations

import base64
import json
from collections.abc import Collection
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bidcheck.model.data import (
    SCHEMA,
    BillRow,
    BillShare,
    CheckResult,
    Concealed,
    Document,
    Group,
    HistoryMatch,
    HistoryPassage,
    LibraryInfo,
    Mark,
    PairResult,
    Part,
    Passage,
    Picture,
    Place,
    Price,
    PricePattern,
    PublicValue,
    Side,
    Signal,
)

__all__ = [
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
