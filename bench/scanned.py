"""A section of scanned bids checked whole: pages recognised a second, and the levels found.

Usage: .venv/bin/python -m bench.scanned [--bids 6] [--seed 1] [--own 30 36] [--workers 2] [--folder DIR]

``bench/ocr.py`` times the OCR stage alone on dense pages; here the whole ``bidcheck check`` runs (a fresh
process, an empty cache, JSON and Excel written) on a labelled section (``bench.corpus``) whose every bid
was printed and scanned: each bid's paragraphs typeset as a PDF (``bench.writers``), its pages rendered in
grey at 200 dpi with noise of 10 grey levels, drawn for each bid apart (two bids' identical cover pages
are not the same pixels), and written back as an image-only PDF (``bench.ocr.scan``).
The tender stays a Word file. Printed: the pages, the check's wall and CPU seconds, pages a second over
the whole check, its stages, and the planted pairs raised against the other pairs raised.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium

from bench.corpus import generate_section
from bench.installed import compile_bytecode
from bench.ocr import scan
from bench.scale import run_check
from bench.writers import Chapter, write_pdf

_DPI, _NOISE = 200, 10.0


def scanned_section(folder: Path, bids: int, seed: int, own: tuple[int, int]) -> Path:
    """The labelled section with every bid scanned (made once per size, seed and length, then reused)."""
    section = folder / f"scanned-{bids}-{seed}-{own[0]}-{own[1]}"
    if (section / "truth.json").is_file():
        return section
    source = folder / "source"
    generate_section(source, bids, seed, own=own)
    truth = json.loads((source / "truth.json").read_text(encoding="utf-8"))
    (section / "bids").mkdir(parents=True, exist_ok=True)
    for number, bid in enumerate(truth["bids"], 1):
        stem = Path(bid["name"]).stem
        typeset = source / f"{stem}-typeset.pdf"
        paragraphs = tuple(p["text"] for p in bid["paragraphs"])
        write_pdf(typeset, title=paragraphs[0], header=None, chapters=[Chapter("", paragraphs[1:])])
        pages = len(pdfium.PdfDocument(typeset))
        scan(typeset, section / "bids" / f"{stem}.pdf", list(range(pages)), _DPI, _NOISE, seed=number)
    (section / "tender").mkdir(exist_ok=True)
    tender = source / truth["tender"]
    (section / "tender" / tender.name).write_bytes(tender.read_bytes())
    pairs = [{**p, "a": Path(p["a"]).stem, "b": Path(p["b"]).stem} for p in truth["pairs"]]
    (section / "truth.json").write_text(json.dumps({"pairs": pairs}, ensure_ascii=False), encoding="utf-8")
    return section


def raised(section: Path, result: dict[str, object]) -> str:
    """'planted raised / planted, others raised': the pairs at watch or high, against the truth."""
    truth = json.loads((section / "truth.json").read_text(encoding="utf-8"))
    planted = {frozenset((p["a"], p["b"])) for p in truth["pairs"]}
    names = {d["id"]: Path(d["name"]).stem for d in result["documents"]}  # type: ignore[attr-defined]
    found = {
        frozenset((names[p["a"]], names[p["b"]]))
        for p in result["pairs"]  # type: ignore[attr-defined]
        if p["level"] != "none"
    }
    return f"{len(found & planted)}/{len(planted)},{len(found - planted)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bids", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--own", type=int, nargs=2, default=(30, 36), help="own paragraphs a bid, range")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "bidcheck-scanned")
    args = parser.parse_args()
    compiled = compile_bytecode()
    section = scanned_section(args.folder, args.bids, args.seed, tuple(args.own))
    with tempfile.TemporaryDirectory() as temp:
        wall, _, result, cpu = run_check(section, Path(temp), Path(temp) / "cache", args.workers)
    documents = result["documents"]
    assert isinstance(documents, list)
    pages = sum(int(d["ocr_pages"]) for d in documents)
    stages = "  ".join(f"{k} {v:.1f}" for k, v in result["timings"].items() if v)  # type: ignore[union-attr]
    chars = sum(int(d["chars"]) for d in documents)
    print(f"{args.bids} scanned bids: {pages} pages recognised, {chars:,} characters")
    print(f"  the whole check: {wall:.1f} s wall, {cpu:.1f} CPU s -> {pages / wall:.2f} pages/s")
    print(f"  stages (wall s): {stages}")
    print(f"  raised (planted pairs at watch or high / planted, others raised): {raised(section, result)}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end; {os.cpu_count()} cores, {args.workers} workers")
    print(compiled)
    print(f"command: python -m bench.scanned {' '.join(sys.argv[1:])}")


if __name__ == "__main__":
    main()
