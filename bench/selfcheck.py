"""Self-check benchmark: what ``bidcheck selfcheck`` says of the generated, labelled sections of
``bench.corpus`` (bids of their own wording with copies planted between pairs and rings, a tender,
boilerplate most bids paste).

For each section it self-checks every bid alone against the tender (target: nothing found, since no
bid names another company or carries another's properties), and every pair of bids, the one as the
bid and the other as its reference (target: a colluding pair is raised at the level the section's
check expects of it, or one of the levels it accepts; a clean pair raises nothing shared), and every bid
against the folder of its section (the other bids as references at once). Two files alone cannot tell
boilerplate most bidders paste from a copy; the section's other bids can, so the counts of clean pairs
raised and of their passages lying mostly in the section's boilerplate are printed for both. It prints
the counts, every finding on a bid alone and every wrong pair, and the median time of one self-check.

Usage: .venv/bin/python -m bench.selfcheck [--seeds 201 202 203] [--bids 5] [--folder DIR]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.corpus import generate_section
from bidcheck.config import Settings
from bidcheck.findings import SelfCheckResult
from bidcheck.selfcheck import SelfCheckInputs, self_check
from bidcheck.text import normalize
from bidcheck.words import LEVEL_RANK


@dataclass
class Tally:
    """What the self-checks said, over all sections."""

    alone: int = 0
    alone_found: list[str] = field(default_factory=list)
    colluding: int = 0
    colluding_right: int = 0
    clean: int = 0
    clean_raised: int = 0
    clean_passages: int = 0
    clean_on_boilerplate: int = 0  # passages of raised clean pairs that lie in the section's boilerplate
    wrong: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    folder_colluding: int = 0  # each bid against the rest of its section (one folder of references)
    folder_right: int = 0
    folder_clean: int = 0
    folder_clean_raised: int = 0


def _timed(tally: Tally, inputs: SelfCheckInputs, settings: Settings) -> SelfCheckResult:
    started = time.perf_counter()
    result = self_check(inputs, settings)
    tally.seconds.append(time.perf_counter() - started)
    return result


def _shared_level(result: SelfCheckResult, reference: str) -> str:
    """The level the self-check gives the bid with one reference: its highest shared finding's."""
    levels = [f.level for f in result.findings if f.part == "shared" and f.reference == reference]
    return min(levels, key=LEVEL_RANK.__getitem__) if levels else "none"


def _on_boilerplate(result: SelfCheckResult, public: list[str], tally: Tally) -> None:
    """Count a clean pair's shared passages, and those lying in boilerplate most bids of the section
    paste (which a check of the whole section greys as common, and a check of two bids cannot)."""
    grams = {text[i : i + 10] for p in public for text in [normalize(p)[0]] for i in range(len(text) - 9)}
    for finding in result.findings:
        if finding.field == "passage":
            text = normalize(finding.value)[0]
            inside = sum(text[i : i + 10] in grams for i in range(len(text) - 9))
            tally.clean_passages += 1
            tally.clean_on_boilerplate += inside >= (len(text) - 9) / 2  # mostly boilerplate


def _expected(truth: dict[str, Any]) -> dict[frozenset[str], list[str]]:
    return {frozenset((p["a"], p["b"])): list(p["accepted"]) for p in truth["pairs"]}


def _section(folder: Path, seed: int, bids: int, settings: Settings, tally: Tally) -> None:
    section = generate_section(folder / f"s{seed}-{bids}", bids, seed)
    tender = (section.tender,)
    for bid in section.bids:
        tally.alone += 1
        result = _timed(tally, SelfCheckInputs(bid, tenders=tender), settings)
        tally.alone_found += [f"{seed}/{bid.name}: {f.detail}" for f in result.findings]
    expected = _expected(section.truth)
    for a, b in itertools.combinations(section.bids, 2):
        accepted = expected.get(frozenset((a.name, b.name)), ["none"])
        result = _timed(tally, SelfCheckInputs(a, (b,), tender), settings)
        level = _shared_level(result, b.name)
        if accepted != ["none"]:
            tally.colluding += 1
            tally.colluding_right += level in accepted
        else:
            tally.clean += 1
            tally.clean_raised += level != "none"
            _on_boilerplate(result, list(section.truth["public"]), tally)  # type: ignore[call-overload]
        if level not in accepted:
            tally.wrong.append(f"{seed}: {a.name} against {b.name}: {level}, expected {'/'.join(accepted)}")
    for bid in section.bids:
        _against_folder(section.folder / "bids", bid, tender, expected, settings, tally)


def _against_folder(
    folder: Path,
    bid: Path,
    tender: tuple[Path, ...],
    expected: dict[frozenset[str], list[str]],
    settings: Settings,
    tally: Tally,
) -> None:
    """A bid against every other bid of its section at once (``--against`` the folder)."""
    result = _timed(tally, SelfCheckInputs(bid, (folder,), tender), settings)
    for reference in result.references:
        accepted = expected.get(frozenset((bid.name, reference.name)), ["none"])
        level = _shared_level(result, reference.name)
        if accepted != ["none"]:
            tally.folder_colluding += 1
            tally.folder_right += level in accepted
        else:
            tally.folder_clean += 1
            tally.folder_clean_raised += level != "none"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[201, 202, 203])
    parser.add_argument("--bids", type=int, default=5)
    parser.add_argument("--folder", type=Path, help="keep the sections here (default: a temporary folder)")
    args = parser.parse_args(argv)
    settings, tally = Settings(workers=1), Tally()
    with tempfile.TemporaryDirectory() as temp:
        folder = args.folder or Path(temp)
        for seed in args.seeds:
            _section(folder, seed, args.bids, settings, tally)
    print(f"command: {' '.join([Path(sys.executable).name, '-m', 'bench.selfcheck', *sys.argv[1:]])}")
    print(f"bids alone:      {tally.alone} self-checked, {len(tally.alone_found)} findings")
    print(f"colluding pairs: {tally.colluding_right}/{tally.colluding} at an expected level")
    boilerplate = f"{tally.clean_on_boilerplate} mostly the section's boilerplate"
    passages = f"{tally.clean_passages} shared passages, {boilerplate}"
    print(f"clean pairs:     {tally.clean_raised}/{tally.clean} raised, on {passages}")
    print(
        f"against the folder of the rest: colluding {tally.folder_right}/{tally.folder_colluding} at an"
        f" expected level, clean {tally.folder_clean_raised}/{tally.folder_clean} raised"
    )
    print(f"one self-check:  median {statistics.median(tally.seconds):.2f} s over {len(tally.seconds)}")
    for line in tally.alone_found + tally.wrong:
        print("  " + line)


if __name__ == "__main__":
    main()
