"""Semantic benchmark: passages an AI rewriter reworded all through, next to bids on the same topics.

``--encoders``: each sentence encoder on the hand-written bank (``bench/rewrites.py``): the cosine of
each original sentence with its rewrite (paraphrase), with the closest sentence of the same-topic
paragraph (same topic), and with sentences of the other topics (unrelated); how often a rewrite
sentence beats the best same-topic sentence; sentences encoded per second.

Sections (the default): for each size and seed, bids of their own wording (``bench.corpus``'s
skeletons and grammar), then in one pair five of the bank's drafts — three as one block, two alone —
with the rewrite in the other bid, and in another pair four drafts as one block against the same-topic
paragraphs of the same topics in the same order (the hardest case for a topic-by-topic plan). Every
section is checked with its tender, with the layer and without it. It reports the rewritten paragraphs
found (half their characters inside a semantic passage of the right pair), semantic passages on the
same-topic pair and on clean pairs, any pair whose level differs with the layer, and the layer's time.
Targets: found ≥ 0.85; no semantic passage on same-topic or clean pairs; no other level changed.

``--long``: the same plants in bids of real length (about 42,000 characters of their own each, the
prose of ``bench.scale``), where the layer encodes only the sentences its shortlist picks.

Every check runs as a user runs it: ``bidcheck check`` in a fresh process with an empty cache (the
model's load included), with the layer and without; ``check s`` and ``cpu s`` are its wall and CPU
seconds (the process and its workers), ``semantic s`` the stage's wall time; ``chars read/guessed``
the bids' characters as read and as guessed before reading (``bidcheck.semantic.plan``), ``estimate s``
the layer's time the check announces (CPU seconds: compare it with ``cpu s`` on less off). The layer runs at
every size (``semantic_max_bids`` raised to the section's bids: it is off by default above 60).

Usage: .venv/bin/python -m bench.semantic [--sizes 5 12 20] [--seeds 1 2 3] [--long] [--encoders]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bench.corpus import Bid, Para, _bid_skeleton, _tender_document, _tender_texts, write_bids
from bench.grammar import lexicon_paragraph, paragraph
from bench.rewrites import REWRITES, Rewrite
from bidcheck.config import SEMANTIC_ENCODERS, Settings
from bidcheck.memo import CACHE_ENV
from bidcheck.model import CheckResult, PairResult, load_result
from bidcheck.prepare import prepare_document
from bidcheck.semantic.encoder import EncoderMissing, load_encoder
from bidcheck.semantic.plan import estimate_seconds, section_size
from bidcheck.text import CleanText, normalize

Span = tuple[int, int]


# ---------------------------------------------------------------- encoders


def _sentences(text: str) -> list[str]:
    return [s + "。" for s in re.split("。", text) if s]


def _encoder_row(name: str) -> str:
    try:
        encoder = load_encoder(name)
    except EncoderMissing as exc:
        return f"{name:<6} not installed ({exc})"
    originals = [_sentences(r.original) for r in REWRITES]
    rewrites = [_sentences(r.rewrite) for r in REWRITES]
    topics = [_sentences(r.same_topic) for r in REWRITES]
    texts = [s for group in (originals, rewrites, topics) for para in group for s in para]
    encoder.encode(texts[:8])  # load the model before timing
    started, cpu = time.perf_counter(), time.process_time()
    vectors = encoder.encode(texts)
    rate = len(texts) / (time.perf_counter() - started)
    char_rate = sum(map(len, texts)) / max(time.process_time() - cpu, 1e-9)
    rows = iter(vectors)
    o, r, t = ([[next(rows) for _ in para] for para in group] for group in (originals, rewrites, topics))
    para_cos, topic_best, unrelated, wins = [], [], [], 0
    for n in range(len(REWRITES)):
        others = [v for m in range(len(REWRITES)) if m != n for v in o[m]]
        for k, v in enumerate(o[n]):
            para = float(v @ r[n][k])
            best = max(float(v @ w) for w in t[n])
            para_cos.append(para)
            topic_best.append(best)
            unrelated.extend(float(v @ w) for w in others)
            wins += para > best
    return (
        f"{name:<6} {np.mean(para_cos):>10.3f} {np.percentile(para_cos, 10):>8.3f} "
        f"{np.mean(topic_best):>10.3f} {np.percentile(topic_best, 90):>8.3f} {np.mean(unrelated):>9.3f} "
        f"{wins / len(para_cos):>9.3f} {rate:>12.0f} {char_rate:>13.0f}"
    )


def compare_encoders() -> None:
    sentences = sum(len(_sentences(r.original)) for r in REWRITES)
    print(f"{len(REWRITES)} drafts, {sentences} sentences; cosine of each draft sentence with:")
    print(
        "encoder  paraphrase  para p10  same topic  topic p90  unrelated  para wins  sentences/s  chars/cpu s"
    )
    for name in SEMANTIC_ENCODERS:
        print(_encoder_row(name))


# ---------------------------------------------------------------- sections


@dataclass
class _Plants:
    rewrite_pair: tuple[int, int]
    topic_pair: tuple[int, int]
    rewrites: list[tuple[str, str]] = field(default_factory=list)  # (draft in A, rewrite in B)
    styles: list[str] = field(default_factory=list)  # each rewrite's style (``STYLES``; the plan)


def _reordered(text: str) -> str:
    """The rewrite with each two neighbouring sentences swapped (a rewriter changing the order of points
    inside a paragraph)."""
    units = _sentences(text)
    for n in range(0, len(units) - 1, 2):
        units[n], units[n + 1] = units[n + 1], units[n]
    return "".join(units)


def _merged(text: str) -> str:
    """The rewrite with each two sentences made one (its first full stop a comma)."""
    units = _sentences(text)
    return "".join(
        units[n].removesuffix("。") + "，" + units[n + 1] if n + 1 < len(units) else units[n]
        for n in range(0, len(units), 2)
    )


def _split(text: str) -> str:
    """The rewrite with each sentence split in two at its middle comma."""
    out = []
    for unit in _sentences(text):
        commas = [m.start() for m in re.finditer("，", unit)]
        cut = commas[len(commas) // 2] if commas else -1
        out.append(unit if cut < 0 else unit[:cut] + "。" + unit[cut + 1 :])
    return "".join(out)


# How the plan's rewrites are written: by hand as the bank holds them, and three changes of structure a
# rewriting tool makes besides the wording (the wording itself is the bank's, written by hand).
STYLES = {"as written": str, "reordered": _reordered, "merged": _merged, "split": _split}


def _block(bid: Bid, texts: list[str], rng: random.Random) -> None:
    body = bid.chapters[3]
    body[rng.randint(2, len(body)) : 0] = [Para(t, "planted") for t in texts]


def _plant(plans: list[Bid], bank: list[Rewrite], rng: random.Random) -> _Plants:
    a, b, c, d = rng.sample(range(len(plans)), 4) if len(plans) >= 4 else (0, 1, 2, 3)
    plants = _Plants((a, b), (c, d))
    drafts, topics = bank[:5], bank[5:9]
    _block(plans[a], [r.original for r in drafts[:3]], rng)
    _block(plans[b], [r.rewrite for r in drafts[:3]], rng)
    for r in drafts[3:]:
        _block(plans[a], [r.original], rng)
        _block(plans[b], [r.rewrite], rng)
    plants.rewrites = [(r.original, r.rewrite) for r in drafts]
    _block(plans[c], [r.original for r in topics], rng)
    _block(plans[d], [r.same_topic for r in topics], rng)
    return plants


def _plan(plans: list[Bid], bank: list[Rewrite], rng: random.Random) -> _Plants:
    """A technical plan written from one draft: ten of the bank's drafts one after another in A, their
    rewrites in B, the styles in turn; the other topics' drafts against their same-topic paragraphs, in
    the same order, in another pair."""
    a, b, c, d = rng.sample(range(len(plans)), 4) if len(plans) >= 4 else (0, 1, 2, 3)
    plants = _Plants((a, b), (c, d))
    drafts, topics = bank[:10], bank[10:]
    styles = [list(STYLES)[n % len(STYLES)] for n in range(len(drafts))]
    _block(plans[a], [r.original for r in drafts], rng)
    _block(plans[b], [STYLES[style](r.rewrite) for r, style in zip(drafts, styles, strict=True)], rng)
    plants.rewrites, plants.styles = [(r.original, r.rewrite) for r in drafts], styles
    _block(plans[c], [r.original for r in topics], rng)
    _block(plans[d], [r.same_topic for r in topics], rng)
    return plants


def write_section(
    folder: Path, size: int, seed: int, long: bool = False, half: str = "all", plan: bool = False
) -> tuple[Path, list[Path], _Plants]:
    """A section of ``size`` bids (at least 4) with the plants above; the tender and the bids' paths.
    ``long``: bids of real length (about 42,000 characters of their own, ``bench.scale``'s prose).
    ``half``: the bank's drafts it draws on (``tune``: the even ones, ``held``: the odd ones, ``all``).
    ``plan``: the plants of ``_plan`` instead."""
    rng = random.Random(seed)
    texts = _tender_texts(random.Random(seed * 7919 + 1))
    own, prose = ((250, 270), lexicon_paragraph) if long else ((18, 24), paragraph)
    plans = [_bid_skeleton(i, texts, random.Random(seed * 1000 + i), own, prose, True) for i in range(size)]
    bank = list({"all": REWRITES, "tune": REWRITES[0::2], "held": REWRITES[1::2]}[half])
    rng.shuffle(bank)
    plants = (_plan if plan else _plant)(plans, bank, rng)
    tender, paths = write_bids(folder, _tender_document(texts), plans)
    return tender, paths, plants


def _norm_span(clean: CleanText, start: int, end: int) -> Span:
    return (
        int(np.searchsorted(clean.norm_map, start, "left")),
        int(np.searchsorted(clean.norm_map, end, "left")),
    )


def _found(clean: CleanText, text: str, spans: list[Span]) -> bool:
    """Whether half the paragraph's characters lie inside the given comparable-text spans."""
    target = normalize(text)[0]
    at = clean.norm.find(target)
    if at < 0:
        return False
    inside = sum(max(0, min(at + len(target), e) - max(at, s)) for s, e in spans)
    return inside >= len(target) / 2


def _pair(result: CheckResult, paths: list[Path], a: int, b: int) -> tuple[PairResult, bool]:
    """The pair of bids ``a`` and ``b``, and whether ``a`` is its side A."""
    ids = {Path(d.path).name: d.id for d in result.documents}
    x, y = ids[paths[a].name], ids[paths[b].name]
    pair = next(p for p in result.pairs if {p.a, p.b} == {x, y})
    return pair, pair.a == x


@dataclass
class _Score:
    found: int = 0
    planted: int = 0
    topic_passages: int = 0
    clean_passages: int = 0
    changed: list[str] = field(default_factory=list)
    seconds: float = 0.0
    rewrite_level: str = ""
    by_style: dict[str, list[int]] = field(default_factory=dict)  # style: [found, planted]


def _score(on: CheckResult, off: CheckResult, paths: list[Path], plants: _Plants) -> _Score:
    score = _Score(seconds=on.timings.get("semantic", 0.0))
    pair, forward = _pair(on, paths, *plants.rewrite_pair)
    score.rewrite_level = pair.level
    side = plants.rewrite_pair[0]
    ready = prepare_document(paths[side], "d", "bid", Settings()).ready
    assert ready is not None
    spans = [
        _norm_span(ready.clean, (p.a if forward else p.b).start, (p.a if forward else p.b).end)
        for p in pair.passages
        if p.semantic
    ]
    score.planted = len(plants.rewrites)
    found = [_found(ready.clean, draft, spans) for draft, _ in plants.rewrites]
    score.found = sum(found)
    for style, hit in zip(plants.styles, found, strict=False):
        tally = score.by_style.setdefault(style, [0, 0])
        tally[0] += hit
        tally[1] += 1
    topic, _ = _pair(on, paths, *plants.topic_pair)
    score.topic_passages = sum(p.semantic for p in topic.passages)
    score.clean_passages = sum(p.semantic for q in on.pairs if q not in (pair, topic) for p in q.passages)
    levels = {(p.a, p.b): p.level for p in off.pairs}
    score.changed = [
        f"{p.a}~{p.b} {levels[(p.a, p.b)]}->{p.level}"
        for p in on.pairs
        if p is not pair and levels[(p.a, p.b)] != p.level
    ]
    return score


def _check(tender: Path, paths: list[Path], semantic: bool, temp: Path) -> tuple[CheckResult, float, float]:
    """``bidcheck check`` of the section in a fresh process with an empty cache, as a user runs it: the
    result, wall seconds and CPU seconds (the process and its workers)."""
    settings = temp / "settings.json"
    values = {"workers": 2, "semantic_enabled": semantic, "semantic_max_bids": max(60, len(paths))}
    settings.write_text(json.dumps(values), encoding="utf-8")  # the layer on at any size
    out, cache = temp / "r.json", Path(tempfile.mkdtemp(dir=temp))
    cmd = [sys.executable, "-m", "bidcheck.cli", "check", *map(str, paths), "--tender", str(tender)]
    cmd += ["--json", str(out), "--settings", str(settings), "--quiet"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(cmd, env={**os.environ, CACHE_ENV: str(cache)}, stdout=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    shutil.rmtree(cache, ignore_errors=True)
    return load_result(out), wall, cpu


def run_sections(
    sizes: list[int], seeds: list[int], folder: Path | None, long: bool, half: str = "all", plan: bool = False
) -> None:
    print(
        "bids  seed  rewrites found  rewrite pair  same-topic passages  clean passages  levels changed"
        "  semantic s  check s off/on  cpu s off/on  chars read/guessed  estimate s"
    )
    totals = [0, 0]
    by_style: dict[str, list[int]] = {}
    levels: list[str] = []
    with tempfile.TemporaryDirectory() as temp:
        for size in sizes:
            for seed in seeds:
                where = (folder or Path(temp)) / f"semantic-{size}-{seed}{'-long' if long else ''}"
                tender, paths, plants = write_section(where, size, seed * 100 + size, long, half, plan)
                off, wall_off, cpu_off = _check(tender, paths, False, Path(temp))
                on, wall_on, cpu_on = _check(tender, paths, True, Path(temp))
                s = _score(on, off, paths, plants)
                guessed = section_size(paths)
                read = sum(d.chars for d in on.documents if d.role == "bid")
                totals[0] += s.found
                totals[1] += s.planted
                levels.append(s.rewrite_level)
                for style, (hit, count) in s.by_style.items():
                    by_style.setdefault(style, [0, 0])[0] += hit
                    by_style[style][1] += count
                print(
                    f"{size:>4}  {seed:>4}  {s.found:>8} of {s.planted}  {s.rewrite_level:>12}  "
                    f"{s.topic_passages:>19}  {s.clean_passages:>14}  {len(s.changed):>14}"
                    f"  {s.seconds:>10.2f}  {wall_off:>6.1f} {wall_on:>6.1f}  {cpu_off:>5.1f} {cpu_on:>6.1f}"
                    f"  {read:>9} {guessed.total:>8}  {estimate_seconds(guessed):>10.1f}",
                    flush=True,
                )
                for line in s.changed:
                    print(f"      {line}")
                if on.semantic_note:
                    print(f"      {on.semantic_note}")
    print(f"rewritten paragraphs found: {totals[0]} of {totals[1]} ({totals[0] / max(totals[1], 1):.3f})")
    for style, (hit, count) in by_style.items():
        print(f"  {style}: {hit} of {count}")
    print(f"rewrite pair levels: {', '.join(levels)}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 12, 20])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--folder", type=Path)
    parser.add_argument("--encoders", action="store_true", help="compare the sentence encoders instead")
    parser.add_argument("--long", action="store_true", help="bids of real length (about 42,000 characters)")
    parser.add_argument(
        "--half", choices=("all", "tune", "held"), default="all", help="the bank's drafts: even, odd or all"
    )
    parser.add_argument("--plan", action="store_true", help="a technical plan written from one draft")
    args = parser.parse_args()
    print("command: .venv/bin/python -m bench.semantic " + " ".join(sys.argv[1:]))
    if args.encoders:
        compare_encoders()
    else:
        run_sections(args.sizes, args.seeds, args.folder, args.long, args.half, args.plan)


if __name__ == "__main__":
    main()
