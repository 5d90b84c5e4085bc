"""Near-duplicates benchmark: re-submitted copies of stored bids found by ``bidcheck near``, partial reuse
and fresh documents not.

A vault folder holds ``--stored`` bids (Word files of their own wording, each naming its bidder a dozen
times). Asked about: ``--copies`` re-submitted copies of stored bids, each under another company's name,
a few words re-typed (synonyms), punctuation changed, one paragraph dropped and one sentence added, every
other one exported as a PDF (the other format); as many documents reusing about half of a stored bid
with new text for the rest; and as many fresh documents. It runs ``bidcheck near FILES --vault DIR
--min M --json`` in-process and prints, for each ``--min``, the copies found (recall), the partial and
fresh documents listed (false alarms), and each copy's score and containment.

Usage: .venv/bin/python -m bench.near [--stored 12] [--copies 8] [--min 0.8 0.85 0.9] [--seed 3]
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
import tempfile
from pathlib import Path

from bench.grammar import paragraph
from bench.writers import Chapter, write_docx, write_pdf
from bidcheck.cli import main

_COMPANIES = ("华东建设", "恒信市政", "中联路桥", "宏远建工", "清源水务", "金石城建", "广厦建设", "天衡路桥")


def _bid(rng: random.Random, company: str, paragraphs: int = 24) -> list[str]:
    """A bid's paragraphs, its company named in every other one."""
    out = []
    for n in range(paragraphs):
        text = paragraph(rng)
        out.append(f"{company}有限公司承诺：{text}" if n % 2 == 0 else text)
    return out


def _write(path: Path, paras: list[str], pdf: bool = False) -> Path:
    chapters = [Chapter(f"第{n + 1}章", tuple(paras[n * 6 : n * 6 + 6])) for n in range(-(-len(paras) // 6))]
    (write_pdf if pdf else write_docx)(path, title="投标文件", header=None, chapters=chapters)
    return path


def _copy(paras: list[str], company: str, other: str, rng: random.Random) -> list[str]:
    """A re-submitted copy: another company's name, a few words re-typed, punctuation changed, one paragraph
    dropped, one sentence added."""
    out = [p.replace(company, other) for p in paras]
    for n in rng.sample(range(len(out)), 3):  # a few words re-typed
        words = out[n]
        at = rng.randrange(max(1, len(words) - 4))
        out[n] = words[:at] + "及" + words[at + 2 :]
    for n in rng.sample(range(len(out)), 4):
        out[n] = out[n].replace("，", ",", 2)
    del out[rng.randrange(len(out))]
    out.insert(rng.randrange(len(out)), "本单位将严格履行合同约定的各项义务。")
    return out


def write_cases(folder: Path, stored: int, copies: int, seed: int) -> dict[str, str]:
    """The vault and the documents asked about (``ask/``), each with what it is: ``copy``, ``partial`` or
    ``fresh``."""
    rng = random.Random(seed)
    vault, ask = folder / "vault", folder / "ask"
    vault.mkdir(parents=True)
    ask.mkdir()
    bids = []
    for n in range(stored):
        company = f"{_COMPANIES[n % len(_COMPANIES)]}{n}"
        paras = _bid(random.Random(seed * 100 + n), company)
        _write(vault / f"{n:02d}-{company}.docx", paras)
        bids.append((company, paras))
    kinds: dict[str, str] = {}
    for n in range(copies):
        company, paras = bids[n % stored]
        pdf = n % 2 == 1
        name = f"copy{n:02d}.{'pdf' if pdf else 'docx'}"
        _write(ask / name, _copy(paras, company, f"新公司{n}", rng), pdf)
        kinds[name] = "copy"
    for n in range(copies):
        company, paras = bids[(n + 3) % stored]
        half = (
            paras[: len(paras) // 2] + _bid(random.Random(seed * 1000 + n), f"新公司{n}")[len(paras) // 2 :]
        )
        _write(ask / f"partial{n:02d}.docx", half)
        kinds[f"partial{n:02d}.docx"] = "partial"
        _write(ask / f"fresh{n:02d}.docx", _bid(random.Random(seed * 5000 + n), f"新公司{n}"))
        kinds[f"fresh{n:02d}.docx"] = "fresh"
    return kinds


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stored", type=int, default=12)
    parser.add_argument("--copies", type=int, default=8)
    parser.add_argument("--min", type=float, nargs="+", default=[0.8, 0.85, 0.9], dest="minimums")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    print(f"command: {' '.join([Path(sys.executable).name, '-m', 'bench.near', *sys.argv[1:]])}")
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        kinds = write_cases(folder, args.stored, args.copies, args.seed)
        print("min    copies found  partial listed  fresh listed")
        scores: dict[str, tuple[float, float]] = {}
        for minimum in args.minimums:
            out = folder / f"near-{minimum}.json"
            argv = ["near", str(folder / "ask"), "--vault", str(folder / "vault"), "--min", str(minimum)]
            main([*argv, "--json", str(out)], io.StringIO(), io.StringIO())
            found = json.loads(out.read_text(encoding="utf-8"))["results"]
            listed = {d["document"] for d in found if d.get("matches")}
            for d in found:
                if d.get("matches"):
                    best = d["matches"][0]
                    scores[d["document"]] = (best["score"], best["containment"])
            counts = {
                k: sum(1 for n, kind in kinds.items() if kind == k and n in listed) for k in kinds.values()
            }
            total = sum(1 for kind in kinds.values() if kind == "copy")
            copies, partial, fresh = (counts.get(k, 0) for k in ("copy", "partial", "fresh"))
            print(f"{minimum:<6} {copies:>3}/{total:<9} {partial:>3}/{total:<11} {fresh:>3}/{total}")
        for name in sorted(n for n, kind in kinds.items() if kind == "copy"):
            score, containment = scores.get(name, (0.0, 0.0))
            print(f"  {name}: score {score:.3f}, containment {containment:.3f}")


if __name__ == "__main__":
    main_bench()
