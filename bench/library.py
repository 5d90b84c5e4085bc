"""The library at scale, and what it shows over time.

1. Speed: a library of ``--sections`` sections × ``--bids`` bids of ``--chars`` characters, then a new
   section of as many bids checked with and without it (the extra seconds), and stored (seconds).
   The stored sections are fingerprinted directly from generated text (no files are written or read:
   reading 10,000 files would take hours and measures nothing of the library); the new section is
   written as text files and checked as a user would. The generated text is random words of a
   3,000-word vocabulary (no two bids share a passage by chance), so hash lookups find few stored places:
   real bids, sharing more stock phrasing, read more of them (at most ``POSTINGS_LIMIT`` per hash).
2. Over time: six sections of eight bids, a bidder's own template in every section, two bidders sharing
   a draft in section 2 (18 paragraphs) and again in section 5 (two paragraphs: a lead alone), a model
   text three bidders of each section include without a template: the levels of the model-text pairs
   section by section, the colluders' level and history paragraph by paragraph (in section 5 also
   their level checked without the library: the repeat is what raises them), and the own template.

Usage: .venv/bin/python -m bench.library [--sections 1000] [--bids 10] [--chars 50000] [--folder DIR]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bidcheck.config import Settings
from bidcheck.fingerprint import build_simhash
from bidcheck.library import open_library, store_result
from bidcheck.library.prints import bid_print, window_band_keys
from bidcheck.library.store import Library, StoredBid
from bidcheck.model import Block, CheckResult, Document
from bidcheck.pipeline import CheckInputs, check
from bidcheck.text import build_clean_text

_RNG = random.Random(17)
_VOCABULARY = ["".join(_RNG.choices([chr(c) for c in range(0x4E00, 0x9FA5)], k=2)) for _ in range(3000)]


def paragraphs(seed: int, chars: int) -> list[str]:
    """Generated prose of about ``chars`` characters in paragraphs of about 200."""
    rng = random.Random(seed)
    out, total = [], 0
    while total < chars:
        sentences = ["".join(rng.choices(_VOCABULARY, k=rng.randint(6, 14))) + "。" for _ in range(8)]
        out.append("".join(sentences))
        total += len(out[-1])
    return out


def _stored(name: str, blocks: list[str]) -> StoredBid:
    doc = Document("d", name, name, "txt", blocks=tuple(Block(t, paragraph=n) for n, t in enumerate(blocks)))
    clean = build_clean_text(doc)
    settings = Settings()
    return StoredBid(
        name,
        "",
        name.split("-", 1)[-1],
        "bid",
        len(clean.text),
        build_simhash(clean.norm, settings.seed),
        {},
        bid_print(clean),
        bands=window_band_keys(clean.norm, settings),
    )


def write_section(folder: Path, bids: int, chars: int, seed: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for b in range(bids):
        text = "\n\n".join(paragraphs(seed + b, chars))
        (folder / f"{b + 1:02d}-新投标人{b}.txt").write_text(text, encoding="utf-8")
    return folder


def speed(folder: Path, sections: int, bids: int, chars: int) -> None:
    path = folder / "library.sqlite"
    library = open_library(path)
    have, _ = library.counts()
    if have < sections:
        print(f"building {sections - have} sections × {bids} bids of {chars:,} characters …", flush=True)
        library.close()
        library = open_library(path)
        library.set_cache_mb(1000)  # a bulk build
        seconds = build(library, have, sections, bids, chars)
        print(f"built in {seconds:.0f} s")
    new = write_section(folder / "new", bids, chars, 9_000_000)
    settings = Settings(workers=1)
    check(CheckInputs((new,)), settings)  # fills the document cache: both timings read from it
    times = []
    for with_library in (False, True, False, True):
        started, cpu = time.perf_counter(), time.process_time()
        used = library if with_library else None
        result = check(CheckInputs((new,)), settings, library=used, section="新标段")
        times.append((with_library, time.perf_counter() - started, time.process_time() - cpu, result))
    plain, plain_cpu = min((t, c) for w, t, c, _ in times if not w)
    against, against_cpu = min((t, c) for w, t, c, _ in times if w)
    last: CheckResult = times[-1][3]
    started, cpu = time.perf_counter(), time.process_time()
    store_result(library, "新标段", last, settings)
    stored, stored_cpu = time.perf_counter() - started, time.process_time() - cpu
    library.close()  # the log copied into the file
    closed = time.perf_counter() - started - stored
    library = open_library(path)
    started, cpu = time.perf_counter(), time.process_time()
    store_result(library, "新标段", last, settings)  # checked again: replaces what was stored
    replaced, replaced_cpu = time.perf_counter() - started, time.process_time() - cpu
    figures = library.size_figures()
    stored_sections, stored_bids = library.counts()
    print(
        f"library: {stored_sections} sections, {stored_bids} bids, {figures['bytes'] / 1e6:.0f} MB "
        f"({figures['bytes'] / max(stored_bids, 1) / 1e3:.0f} KB per bid of {chars:,} characters)"
    )
    lookup, history = last.timings.get("library", 0.0), last.timings.get("history", 0.0)
    stages = f"library stage {lookup:.2f} s, history {history:.2f} s"
    print(
        f"check of {bids} new bids: {plain:.2f} s without the library, {against:.2f} s with it "
        f"(+{against - plain:.2f} s; {stages}); CPU {plain_cpu:.2f} and {against_cpu:.2f} s "
        f"(+{against_cpu - plain_cpu:.2f} s)"
    )
    print(
        f"storing the new section: {stored:.2f} s (CPU {stored_cpu:.2f} s), "
        f"then {closed:.2f} s copying it from the log at close"
    )
    print(f"storing it again (a re-check replaces it): {replaced:.2f} s (CPU {replaced_cpu:.2f} s)")
    library.remove("新标段")
    library.close()


def _generated(s: int, bids: int, chars: int) -> list[StoredBid]:
    return [_stored(f"{b:02d}-投标人{s}-{b}", paragraphs(s * 1000 + b, chars)) for b in range(bids)]


def build(library: Library, have: int, sections: int, bids: int, chars: int) -> float:
    """Add generated sections ``have`` … ``sections - 1`` (text generated on every core); the seconds."""
    started = time.perf_counter()
    numbers = range(have, sections)
    with ProcessPoolExecutor() as pool:
        made = pool.map(_generated, numbers, [bids] * len(numbers), [chars] * len(numbers), chunksize=4)
        for s, stored in zip(numbers, made, strict=True):
            library.store_section(f"历史标段{s:04d}", stored)
            if (s + 1) % 50 == 0:
                print(f"  {s + 1} sections stored, {time.perf_counter() - started:.0f} s", flush=True)
    return time.perf_counter() - started


def _series_bid(n: int, b: int, own: list[str], model: list[str], draft: list[str]) -> tuple[str, list[str]]:
    """Bid ``b`` of section ``n`` of the series: its bidder and paragraphs."""
    body = paragraphs(n * 100 + b + 500_000, 8000)
    bidder = "甲公司" if b == 0 else f"乙{n}{b}"
    if b == 0:
        body = own + body
    if b in (3, 4, 5):
        body = body[:3] + model + body[3:]
    if n in (2, 5) and b in (1, 2):
        bidder = ("丙公司", "丁公司")[b - 1]
        body = body[:2] + (draft if n == 2 else draft[:2]) + body[2:]
    return bidder, body


def series(folder: Path) -> None:
    """Six sections over time (see the module's docstring)."""
    library = open_library(folder / "series.sqlite")
    own, model, draft = paragraphs(1, 3000), paragraphs(2, 2000), paragraphs(3, 3000)
    settings = Settings(workers=1)
    print("section  model-text pairs (levels)          colluders            own template")
    for n in range(1, 7):
        section = folder / f"S{n}"
        section.mkdir(parents=True, exist_ok=True)
        for b in range(8):
            bidder, body = _series_bid(n, b, own, model, draft)
            (section / f"{b + 1:02d}-{bidder}.txt").write_text("\n\n".join(body), encoding="utf-8")
        result = check(CheckInputs((section,)), settings, library=library, section=f"S{n}")
        store_result(library, f"S{n}", result, settings)
        print(f"S{n}       {_model_levels(result):<34} {_colluders(result):<20} {_own(result)}")
        if n == 5:
            alone = check(CheckInputs((section,)), settings)
            print(f"S5 without the library: colluders {_colluders(alone)}")
    library.close()


def _names(result: CheckResult) -> dict[str, str]:
    return {d.id: d.name[3:-4] for d in result.documents}


def _model_levels(result: CheckResult) -> str:
    names = _names(result)
    holders = {f"乙{n}{b}" for n in range(1, 7) for b in (3, 4, 5)}
    levels = [p.level for p in result.pairs if {names[p.a], names[p.b]} <= holders]
    public = sum(1 for p in result.pairs if any(x.public for x in p.passages))
    return " ".join(levels) + f" (public in {public})"


def _colluders(result: CheckResult) -> str:
    names = _names(result)
    ids = {v: k for k, v in names.items()}
    if "丁公司" not in ids:
        return "-"
    found = [m for m in result.history.get(ids["丁公司"], ()) if m.bidder == "丙公司"]
    pair = next((p for p in result.pairs if {names[p.a], names[p.b]} == {"丙公司", "丁公司"}), None)
    told = "; told" if pair is not None and "同为一级预警" in pair.reason else ""
    if not found:
        return (pair.level if pair else "-") + told
    return f"{pair.level if pair else '-'}; {found[0].section}: {len(found[0].passages)} paragraphs{told}"


def _own(result: CheckResult) -> str:
    ids = {v: k for k, v in _names(result).items()}
    own = [m for m in result.history.get(ids["甲公司"], ()) if m.own_template]
    return f"{len(own)} earlier bids, {own[0].chars} chars" if own else "-"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sections", type=int, default=1000)
    parser.add_argument("--bids", type=int, default=10)
    parser.add_argument("--chars", type=int, default=50_000)
    parser.add_argument("--folder", type=Path, default=None)
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-series", action="store_true")
    args = parser.parse_args()
    print("command:", " ".join([Path(sys.executable).name, "-m", "bench.library", *sys.argv[1:]]))
    folder = args.folder or Path(tempfile.mkdtemp(prefix="bidcheck-library-"))
    folder.mkdir(parents=True, exist_ok=True)
    if not args.skip_series:
        series(Path(tempfile.mkdtemp(prefix="bidcheck-series-")))
    if not args.skip_speed:
        speed(folder, args.sections, args.bids, args.chars)


if __name__ == "__main__":
    main()
