"""Detection quality on generated, labelled sections (bench/corpus.py).

For each section it runs ``bidcheck check`` and compares the result JSON with the truth:
character-level recall and precision of live passages (overall and per obfuscation kind), pair levels,
ranking AUC of colluding vs clean pairs, template/public text wrongly raised as evidence, and whether
each passage's page is right.

Usage: .venv/bin/python -m bench.quality [--seeds 101 102 ...] [--bids 8 12 ...] [--keep DIR]
       [--case CASE] [--no-tender | --both] [--own MIN MAX]   (cases: bench/corpus.py ``generate_section``)
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bench.corpus import CASES, generate_section
from bench.grammar import lexicon_paragraph, mixed_paragraph, paragraph
from bidcheck.cli import main as bidcheck_main
from bidcheck.config import Settings
from bidcheck.prepare import prepare_document
from bidcheck.text import CleanText, normalize

Span = tuple[int, int]
PROSE = {"grammar": paragraph, "lexicon": lexicon_paragraph, "mixed": mixed_paragraph}
_OWN_GRAM = 24  # a run this long a third bid holds is no pair's own (as `template_min_chars` for the tender)


@dataclass
class _Doc:
    clean: CleanText
    fmt: str
    page: np.ndarray  # truth page of every comparable character (0: unknown)
    kind: list[str]  # truth kind of every comparable character
    spans: dict[str, list[Span]] = field(default_factory=dict)  # paragraph text -> where it lies


@dataclass
class Tally:
    """Counts gathered over sections."""

    kind_found: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    kind_total: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    kind_live: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    kind_inside: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    own_found: float = 0.0  # planted characters no third bid holds word for word (``_OWN_GRAM``)
    own_total: float = 0.0
    live_chars: float = 0.0
    inside_chars: float = 0.0
    levels_right: int = 0
    levels: int = 0
    wrong_levels: list[str] = field(default_factory=list)
    auc: list[float] = field(default_factory=list)
    template_alarms: int = 0
    public_alarms: int = 0
    model_alarms: int = 0
    relation_levels: defaultdict[str, defaultdict[str, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    pages_right: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    pages: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    seconds: float = 0.0


def _truth_doc(path: Path, info: dict[str, Any]) -> _Doc:
    ready = prepare_document(path, "d", "bid", Settings()).ready
    assert ready is not None, f"{path.name} could not be read"
    norm = ready.clean.norm
    page = np.zeros(len(norm), dtype=np.int32)
    kind = ["?"] * len(norm)
    doc = _Doc(ready.clean, info["format"], page, kind)
    position = 0
    for para in info["paragraphs"]:
        target = normalize(para["text"])[0]
        found = norm.find(target, position) if target else -1
        if found < 0:
            continue
        page[found : found + len(target)] = para["page"]
        kind[found : found + len(target)] = [para["kind"]] * len(target)
        doc.spans.setdefault(para["text"], []).append((found, found + len(target)))
        position = found + len(target)
    return doc


def _norm_span(clean: CleanText, start: int, end: int) -> Span:
    lo = int(np.searchsorted(clean.norm_map, start, "left"))
    hi = int(np.searchsorted(clean.norm_map, end, "left"))
    return lo, hi


def _covered(span: Span, others: list[Span]) -> int:
    return sum(max(0, min(span[1], o[1]) - max(span[0], o[0])) for o in others)


def _auc(positive: list[float], negative: list[float]) -> float:
    if not positive or not negative:
        return 1.0
    wins = sum((p > n) + 0.5 * (p == n) for p in positive for n in negative)
    return wins / (len(positive) * len(negative))


def _run(
    section_dir: Path, workers: int | None, settings: Path | None, tender: bool = True
) -> tuple[dict[str, Any], float]:
    out = section_dir / "result.json"
    argv = ["check", str(section_dir / "bids"), "--json", str(out), "--quiet"]
    argv += ["--tender", str(section_dir / "tender" / "招标文件.docx")] if tender else []
    argv += ["--workers", str(workers)] if workers else []
    argv += ["--settings", str(settings)] if settings else []
    status = bidcheck_main(argv, io.StringIO(), io.StringIO())
    assert status == 0, f"bidcheck check exited {status}"
    result = json.loads(out.read_text(encoding="utf-8"))
    return result, float(result["elapsed_s"])


def _gram_holders(docs: dict[str, _Doc], grams: set[str]) -> dict[str, set[str]]:
    """For each of ``grams`` (``_OWN_GRAM`` characters of normalised text), the documents holding it."""
    holders: dict[str, set[str]] = {gram: set() for gram in grams}
    for name, doc in docs.items():
        norm = doc.clean.norm
        for start in range(len(norm) - _OWN_GRAM + 1):
            if (found := holders.get(norm[start : start + _OWN_GRAM])) is not None:
                found.add(name)
    return holders


def _own_mask(doc: _Doc, span: Span, pair: set[str], holders: dict[str, set[str]]) -> np.ndarray:
    """Which characters of a planted span no bid beyond the pair holds word for word (every
    ``_OWN_GRAM``-character window through them is the pair's alone)."""
    text = doc.clean.norm[span[0] : span[1]]
    own = np.ones(len(text), dtype=bool)
    for start in range(len(text) - _OWN_GRAM + 1):
        if holders.get(text[start : start + _OWN_GRAM], set()) - pair:
            own[start : start + _OWN_GRAM] = False
    return own


def _planted_grams(docs: dict[str, _Doc], truth: dict[str, Any]) -> set[str]:
    grams: set[str] = set()
    for spec in truth["pairs"]:
        for item in spec["planted"]:
            for side in ("a", "b"):
                for start, end in docs[spec[side]].spans.get(item[side]["text"], [])[:1]:
                    text = docs[spec[side]].clean.norm[start:end]
                    grams.update(text[i : i + _OWN_GRAM] for i in range(len(text) - _OWN_GRAM + 1))
    return grams


def _score_section(section_dir: Path, truth: dict[str, Any], result: dict[str, Any], tally: Tally) -> None:
    docs = {b["name"]: _truth_doc(section_dir / "bids" / b["name"], b) for b in truth["bids"]}
    names = {d["id"]: d["name"] for d in result["documents"]}
    planted: dict[frozenset[str], dict[str, Any]] = {frozenset((p["a"], p["b"])): p for p in truth["pairs"]}
    holders = _gram_holders(docs, _planted_grams(docs, truth))
    positives, negatives = [], []
    for pair in result["pairs"]:
        a, b = names[pair["a"]], names[pair["b"]]
        spec = planted.get(frozenset((a, b)))
        _score_pair(docs[a], docs[b], a, pair, spec, tally)
        if spec:
            _score_own(docs[a], docs[b], (a, b), pair, spec, holders, tally)
        expected = spec["expected"] if spec else "none"
        tally.levels += 1
        tally.relation_levels[spec["relation"] if spec else "clean"][pair["level"]] += 1
        if pair["level"] in (spec.get("accepted", [expected]) if spec else [expected]):
            tally.levels_right += 1
        else:
            tally.wrong_levels.append(
                f"seed {truth['seed']}: {a} ~ {b}: {pair['level']} (expected {expected})"
            )
        if not spec:
            negatives.append(pair["similarity"])
        elif spec["relation"] != "model":  # quoting a model document is no collusion, nor quite clean
            positives.append(pair["similarity"])
    tally.auc.append(_auc(positives, negatives))


def _planted_spans(
    doc_a: _Doc, doc_b: _Doc, name_a: str, spec: dict[str, Any]
) -> list[tuple[str, Span, Span]]:
    """Each planted passage as (kind, span in the pair's A document, span in its B document)."""
    out = []
    for item in spec["planted"]:
        first, second = (item["a"], item["b"]) if spec["a"] == name_a else (item["b"], item["a"])
        spans_a = doc_a.spans.get(first["text"], [])
        spans_b = doc_b.spans.get(second["text"], [])
        if spans_a and spans_b:
            out.append((item["kind"], spans_a[0], spans_b[0]))
    return out


def _score_pair(
    doc_a: _Doc, doc_b: _Doc, name_a: str, pair: dict[str, Any], spec: dict[str, Any] | None, tally: Tally
) -> None:
    live = [p for p in pair["passages"] if not p["template"] and not p["common"]]
    sides_a = [_norm_span(doc_a.clean, p["a"]["start"], p["a"]["end"]) for p in live]
    sides_b = [_norm_span(doc_b.clean, p["b"]["start"], p["b"]["end"]) for p in live]
    items = _planted_spans(doc_a, doc_b, name_a, spec) if spec else []
    for kind, span_a, span_b in items:
        tally.kind_total[kind] += (span_a[1] - span_a[0]) + (span_b[1] - span_b[0])
        tally.kind_found[kind] += _covered(span_a, sides_a) + _covered(span_b, sides_b)
    truth_a = [s for _, s, _ in items]
    truth_b = [s for _, _, s in items]
    for passage, span_a, span_b in zip(live, sides_a, sides_b, strict=True):
        chars = (span_a[1] - span_a[0]) + (span_b[1] - span_b[0])
        inside = _covered(span_a, truth_a) + _covered(span_b, truth_b)
        tally.live_chars += chars
        tally.inside_chars += inside
        kinds = [k for k, sa, _ in items if _covered(span_a, [sa])]
        if kinds:
            tally.kind_live[kinds[0]] += chars
            tally.kind_inside[kinds[0]] += inside
        _score_sources(doc_a, span_a, tally)
        _score_pages(doc_a, passage["a"]["page"], span_a, tally)
        _score_pages(doc_b, passage["b"]["page"], span_b, tally)


def _score_own(
    doc_a: _Doc,
    doc_b: _Doc,
    names: tuple[str, str],
    pair: dict[str, Any],
    spec: dict[str, Any],
    holders: dict[str, set[str]],
    tally: Tally,
) -> None:
    """Recall of the planted characters that are the pair's own: those no third bid holds word for word
    (long generated bids repeat some of the grammar's sentences by chance, and such text is no pair's)."""
    live = [p for p in pair["passages"] if not p["template"] and not p["common"]]
    for doc, side in ((doc_a, "a"), (doc_b, "b")):
        found = [_norm_span(doc.clean, p[side]["start"], p[side]["end"]) for p in live]
        for kind, span_a, span_b in _planted_spans(doc_a, doc_b, names[0], spec):
            if kind in SIGN_KINDS:
                continue
            span = span_a if side == "a" else span_b
            own = _own_mask(doc, span, set(names), holders)
            covered = np.zeros(len(own), dtype=bool)
            for lo, hi in found:
                covered[max(lo, span[0]) - span[0] : max(0, min(hi, span[1]) - span[0])] = True
            tally.own_total += int(own.sum())
            tally.own_found += int((own & covered).sum())


def _score_sources(doc: _Doc, span: Span, tally: Tally) -> None:
    """A live passage made mostly of tender text (or of public boilerplate) is a false alarm."""
    kinds = doc.kind[span[0] : span[1]]
    if not kinds:
        return
    if sum(k in ("tender", "letter") for k in kinds) > len(kinds) / 2:
        tally.template_alarms += 1
    if sum(k == "public" for k in kinds) > len(kinds) / 2:
        tally.public_alarms += 1
    if sum(k == "model" for k in kinds) > len(kinds) / 2:
        tally.model_alarms += 1


def _score_pages(doc: _Doc, page: int, span: Span, tally: Tally) -> None:
    expected = int(doc.page[span[0]]) if span[0] < len(doc.page) else 0
    if expected:
        tally.pages[doc.fmt] += 1
        tally.pages_right[doc.fmt] += int(page == expected)


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.3f}" if b else "  -  "


# Planted kinds found by a sign rather than as shared wording (a bill priced alike: ``table_fill``): their
# rows say how much of them shows as wording too, and they stay out of the overall recall.
SIGN_KINDS = frozenset({"prices"})


def report(tally: Tally, command: str) -> str:
    """The benchmark table."""
    lines = [f"command: {command}", "", f"{'kind':<16}{'recall':>8}{'precision':>11}{'chars':>9}"]
    for kind in sorted(tally.kind_total):
        lines.append(
            f"{kind:<16}{_ratio(tally.kind_found[kind], tally.kind_total[kind]):>8}"
            f"{_ratio(tally.kind_inside[kind], tally.kind_live[kind]):>11}{tally.kind_total[kind]:>9.0f}"
        )
    worded = [kind for kind in tally.kind_total if kind not in SIGN_KINDS]
    total_found = sum(tally.kind_found[k] for k in worded)
    total = sum(tally.kind_total[k] for k in worded)
    lines += [
        f"{'overall':<16}{_ratio(total_found, total):>8}{_ratio(tally.inside_chars, tally.live_chars):>11}"
        f"{total:>9.0f}",
        "",
        f"planted characters found: {total_found:.0f} of {total:.0f}; "
        f"evidence characters that were planted: {tally.inside_chars:.0f} of {tally.live_chars:.0f}",
        f"planted characters no third bid holds word for word: {tally.own_found:.0f} of "
        f"{tally.own_total:.0f} found (recall {_ratio(tally.own_found, tally.own_total)})",
        f"pair levels right: {tally.levels_right}/{tally.levels}",
        f"ranking AUC (colluding vs clean pairs): min {min(tally.auc):.3f}, mean {np.mean(tally.auc):.3f}",
        f"template text raised as evidence: {tally.template_alarms} passages; "
        f"public boilerplate raised: {tally.public_alarms}; model clauses raised: {tally.model_alarms}",
        "levels by relation: "
        + "; ".join(
            f"{relation} " + ", ".join(f"{level} {n}" for level, n in sorted(counts.items()))
            for relation, counts in sorted(tally.relation_levels.items())
        ),
    ]
    for fmt in sorted(tally.pages):
        lines.append(f"pages right ({fmt}): {tally.pages_right[fmt]}/{tally.pages[fmt]}")
    lines.append(f"check time: {tally.seconds:.1f} s in all")
    lines += [f"  wrong: {w}" for w in tally.wrong_levels[:20]]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[101, 102, 103, 104, 105])
    parser.add_argument("--bids", type=int, nargs="+", default=[8])
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--case", choices=sorted(CASES), default="planted", help="what the bids share")
    parser.add_argument("--no-tender", action="store_true", help="check without the tender document")
    parser.add_argument("--both", action="store_true", help="check every section with and without its tender")
    parser.add_argument("--keep", type=Path, help="keep the generated sections in this folder")
    parser.add_argument("--settings", type=Path, help="a settings file passed to bidcheck check")
    parser.add_argument(
        "--tables", action="store_true", help="the tender and every bid carry a bill and response tables"
    )
    parser.add_argument(
        "--halves",
        action="store_true",
        help="each of eight tender paragraphs quoted by its own half of the bids",
    )
    parser.add_argument(
        "--prose",
        choices=sorted(PROSE),
        default="grammar",
        help="how the bids' own paragraphs are written: the grammar's frames, the lexicon's words, or mixed "
        "(a grammar sentence and a lexicon sentence in turn: long bids whose own text is their own)",
    )
    parser.add_argument(
        "--own",
        type=int,
        nargs=2,
        default=(18, 24),
        help="each bid's own plan paragraphs (about 200 characters each): 250 270 gives 55,000 characters",
    )
    args = parser.parse_args()
    modes = [True, False] if args.both else [not args.no_tender]
    tallies = {mode: Tally() for mode in modes}
    with tempfile.TemporaryDirectory() as temp:
        root = args.keep or Path(temp)
        for bids in args.bids:
            for seed in args.seeds:
                folder = root / f"section-{bids}-{seed}"
                own = (args.own[0], args.own[1])
                section = generate_section(
                    folder,
                    bids,
                    seed,
                    own,
                    PROSE[args.prose],
                    case=args.case,
                    tables=args.tables,
                    halves=args.halves,
                )
                for mode, tally in tallies.items():
                    result, seconds = _run(folder, args.workers, args.settings, mode)
                    tally.seconds += seconds
                    _score_section(folder, section.truth, result, tally)
    command = " ".join([Path(sys.executable).name, "-m", "bench.quality", *sys.argv[1:]])
    for mode, tally in tallies.items():
        print(("with the tender" if mode else "without the tender") + "\n" if args.both else "", end="")
        print(report(tally, command) + ("\n" if args.both else ""))


if __name__ == "__main__":
    main()
