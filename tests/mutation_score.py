"""The mutation score of the last `make mutants` run, per module: run in the folder mutmut ran in.

    python tests/mutation_score.py [GLOB] [--survivors]

GLOB picks the mutants counted (as given to `mutmut run`; default all that were tried). A mutant is
*killed* when a test failed or ran out of time with it in place; the score is killed / tried, where
mutants no test reaches count as tried and not killed.
"""

from __future__ import annotations

import fnmatch
import json
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code

KILLED = {"killed", "timeout"}


def _results(pattern: str) -> dict[str, dict[str, str]]:
    """For each mutated module: mutant name -> status, for the mutants tried that match ``pattern``."""
    out: dict[str, dict[str, str]] = {}
    for meta in sorted(Path("mutants").rglob("*.py.meta")):
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        module = str(meta.relative_to("mutants"))[: -len(".meta")]
        statuses = {
            name: status_by_exit_code[code]
            for name, code in codes.items()
            if fnmatch.fnmatch(name, pattern) and code is not None
        }
        if statuses:
            out[module] = statuses
    return out


def main(argv: list[str]) -> int:
    pattern = next((a for a in argv if not a.startswith("--")), "*")
    results = _results(pattern)
    if not results:
        print(f"no mutants matching {pattern!r} were tried here", file=sys.stderr)
        return 1
    total: Counter[str] = Counter()
    for module, statuses in results.items():
        counts = Counter(statuses.values())
        total.update(counts)
        killed = sum(counts[s] for s in KILLED)
        print(f"{module:34} {killed:5} / {len(statuses):<5} {killed / len(statuses):6.1%}  {_others(counts)}")
    killed, tried = sum(total[s] for s in KILLED), sum(total.values())
    print(f"{'all':34} {killed:5} / {tried:<5} {killed / tried:6.1%}  {_others(total)}")
    if "--survivors" in argv:
        for statuses in results.values():
            print(*sorted(n for n, s in statuses.items() if s not in KILLED), sep="\n")
    return 0


def _others(counts: Counter[str]) -> str:
    return ", ".join(f"{s} {n}" for s, n in sorted(counts.items()) if s not in KILLED)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
