"""Bidders as folders with the machine proof planted: each bid of a generated section moved into a folder
of its own with the priced bill's XML beside it, as agencies receive them.

Every bidder's XML carries the tenderer's 招标控制价 record first (the tender's dongle and PC, imported
with the control price) and a record of its own; every docx bid carries the tender's Word docId (bids
written into the tender's own file) and a WPS hardware id and account of its own. Planted, each in its
own pair: the same dongle (b's record names a's dongle, b's PC), the same computer (CPU, MAC, disk:
b's record names a's PC, b's dongle), the same WPS hdid, the same WPS account, a Word docId of a's in
b's docx (b saved from a's file), a PDF of a's edited in b's folder (its permanent /ID kept), and five
of a's Word paragraph ids (w14:paraId) in b's docx. Every docx has paragraph ids of its own. With
``public_pc`` three clean bidders also saved their bills on the agency's public PC (开标室电脑), which
``machine_whitelist`` lists.
"""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from bench.bills import bill_items, make_pricing_xml
from bench.writers import add_para_ids, set_pdf_id, with_office_identity

__all__ = ["MACHINE_PLANTS", "PUBLIC_PC", "Folders", "to_folders"]

MACHINE_PLANTS = ("dongle", "cpu_mac_disk", "wps_hdid", "wps_user", "doc_id", "pdf_id", "para_id")
TENDER_DOC_ID = "0D1F6C3A-5B7E-4A21-9C44-2F8E1B6A7D90"
_TENDER_RECORD = {
    "time": "2025-04-01 09:00:00",
    "dongle": "ZB-0000-0001",
    "cpu": "BFEBFBFF000906EA",
    "mac": "00-E0-4C-68-00-01",
    "disk": "WD-WCC4M0000001",
    "software": "新点清单造价 V10",
}
PUBLIC_PC = {"cpu": "BFEBFBFF000A0671", "mac": "00-E0-4C-68-99-99", "disk": "S4EVNF0M999999"}


@dataclass
class Folders:
    """The section as folders: the bidders' folders (in the bids' order), the tender's control-price
    XML, the machine plants (field, bid a, bid b) and the bids holding the public PC's record."""

    bidders: list[Path]
    tender_xml: Path
    tender_pdf: Path  # the tender as the agency also publishes it
    plants: list[tuple[str, str, int, int]]  # (kind, field, bid a, bid b)
    public_pc: list[int] = field(default_factory=list)


def _record(rng: random.Random, day: int) -> dict[str, str]:
    return {
        "time": f"2025-04-{day:02d} {rng.randint(8, 20):02d}:{rng.randint(0, 59):02d}:00",
        "dongle": f"{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}",
        "cpu": f"BFEBFBFF{rng.getrandbits(32):08X}",
        "mac": "-".join(f"{rng.getrandbits(8):02X}" for _ in range(6)),
        "disk": f"WD-WCC{rng.getrandbits(40):010X}",
        "software": "新点清单造价 V10",
    }


def _hex(rng: random.Random) -> str:
    return f"{rng.getrandbits(128):032X}"


_WORD_PLANTS = frozenset({"wps_hdid", "wps_user", "doc_id", "para_id"})  # planted in docx bids


def _pairs(paths: list[Path], rng: random.Random) -> list[tuple[int, int]]:
    """A pair of bids per plant (docx bids for Word's and WPS's), each bid in one plant at most while
    there are bids enough."""
    free = rng.sample(range(len(paths)), len(paths))
    pairs = []
    for plant in MACHINE_PLANTS:
        fits = [n for n in range(len(paths)) if plant not in _WORD_PLANTS or paths[n].suffix == ".docx"]
        unused = [n for n in free if n in fits]
        a, b = unused[:2] if len(unused) >= 2 else rng.sample(fits, 2)
        free = [n for n in free if n not in (a, b)]
        pairs.append((a, b))
    return pairs


def to_folders(folder: Path, tender: Path, paths: list[Path], seed: int, public_pc: bool = False) -> Folders:
    """Move each bid into ``folder/bidders/<its name>/`` with a priced bill's XML, plant the machine
    signs, and write the tender's control-price XML (the tender document gets the tender's docId)."""
    rng = random.Random(seed)
    items = bill_items(40, seed)
    tender_xml = make_pricing_xml(tender.parent / "招标控制价.xml", [_TENDER_RECORD], items)
    tender_pdf = tender.parent / "招标文件.pdf"
    _quote_pdf(tender_pdf, -1, _hex(rng), _hex(rng))
    with_office_identity(tender, doc_id=TENDER_DOC_ID)
    size = len(paths)
    records = [_record(rng, 5 + n % 20) for n in range(size)]
    wps = [{"hdid": _hex(rng).lower(), "user": str(rng.randint(10**8, 10**9))} for _ in range(size)]
    doc_ids = dict.fromkeys(range(size), TENDER_DOC_ID)
    pdf_ids: dict[int, tuple[str, str]] = {}
    paras = {n: [f"{rng.getrandbits(31):08X}" for _ in range(8)] for n in range(size)}
    pairs = _pairs(paths, rng)
    for plant, (a, b) in zip(MACHINE_PLANTS, pairs, strict=True):
        if plant == "dongle":
            records[b]["dongle"] = records[a]["dongle"]
        elif plant == "cpu_mac_disk":
            records[b].update({k: records[a][k] for k in ("cpu", "mac", "disk")})
        elif plant == "wps_hdid":
            wps[b]["hdid"] = wps[a]["hdid"]
        elif plant == "wps_user":
            wps[b]["user"] = wps[a]["user"]
        elif plant == "doc_id":
            doc_ids[a] = doc_ids[b] = f"{rng.getrandbits(32):08X}-5A1B-4C2D-8E3F-{rng.getrandbits(48):012X}"
        elif plant == "para_id":  # b saved from a's file: five of a's paragraphs keep their ids
            paras[a] = [f"{rng.getrandbits(31):08X}" for _ in range(8)]
            paras[b] = paras[a][:5] + paras[b][5:]
        else:
            first = _hex(rng)
            pdf_ids[a], pdf_ids[b] = (first, first), (first, _hex(rng))
    planted = {k for pair in pairs for k in pair}
    public = [n for n in range(size) if n not in planted][:3] if public_pc else []
    bidders = []
    for n, path in enumerate(paths):
        bidder = folder / "bidders" / path.stem
        bidder.mkdir(parents=True, exist_ok=True)
        moved = Path(shutil.move(str(path), bidder / f"投标文件{path.suffix}"))
        if moved.suffix == ".docx":
            with_office_identity(moved, hdid=wps[n]["hdid"], user=wps[n]["user"], doc_id=doc_ids[n])
            add_para_ids(moved, paras[n])
        own = [records[n]] + (
            [{**records[n], **PUBLIC_PC, "time": "2025-04-28 15:00:00"}] if n in public else []
        )
        priced = [
            {**item, "unit_price": f"{float(item['unit_price']) * rng.uniform(0.85, 1.05):.2f}"}
            for item in items
        ]
        make_pricing_xml(bidder / "造价.xml", [_TENDER_RECORD, *own], priced, nested=n % 2 == 0)
        if n in pdf_ids:
            _quote_pdf(bidder / "报价说明.pdf", n, *pdf_ids[n])
        bidders.append(bidder)
    plants = [
        ("edit_session" if plant == "para_id" else "machine", plant, a, b)
        for plant, (a, b) in zip(MACHINE_PLANTS, pairs, strict=True)
    ]
    return Folders(bidders, tender_xml, tender_pdf, plants, public)


def _priced(items: list[dict[str, str]], rng: random.Random) -> list[dict[str, str]]:
    """The control price's items priced by one bidder: its own unit prices."""
    return [
        {**item, "unit_price": f"{float(item['unit_price']) * rng.uniform(0.85, 1.05):.2f}"} for item in items
    ]


def _quote_pdf(path: Path, n: int, first: str, second: str) -> None:
    """A one-page PDF of a bidder's own wording whose trailer ids are given."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    from bench.corpus import FONT

    canvas = Canvas(str(path), pagesize=A4)  # not invariant: a file of its own time
    canvas.setFont(FONT, 11)
    canvas.drawString(72, 760, f"报价说明：第 {n + 1} 号投标人的报价已含全部税费及措施费用。")
    canvas.showPage()
    canvas.save()
    set_pdf_id(path, first, second)
