"""What writing the Excel workbook costs: CPU seconds to build its sheets and to save them, per result.

Each result JSON (``bidcheck check … --json``) is read back, then its workbook is written as the command
line writes it (``report.xlsx.save_xlsx``: the collector paused), ``--rounds`` times in turn over the
results; the sheets' building (openpyxl cells and styles; the matrix and pairs as rows of values) and
the saving (``report.sheetxml``: the cells as text, the rest by openpyxl with lxml, the zip) are timed
apart with ``process_time``. Printed a result: its bids, pairs and cells, the median CPU seconds of
building, saving and both, the workbook's size, then the load average and the command line.

``--bids N`` widens each result to a section of N bids, as a folder of thousands of files is: its first
bid's record copied under new names, every new pair at 无 with a similarity drawn at random (the result's
own pairs kept), and prints the peak memory of the process too.

Usage: .venv/bin/python -m bench.xlsx_write RESULT.json [RESULT.json …] [--rounds 3] [--bids N]
(e.g. the results of ``bidcheck check /tmp/bidcheck-scale/section-100/bids --tender
/tmp/bidcheck-scale/section-100/tender/招标文件.docx --json r100.json`` and of section-200)
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bidcheck.gcpause import collector_paused
from bidcheck.model import CheckResult, PairResult, load_result
from bidcheck.report.sheetxml import cell_count, save_workbook
from bidcheck.report.xlsx import _workbook
from bidcheck.words import LEVEL_RANK


def _write_once(result: CheckResult, target: Path) -> tuple[float, float, int]:
    """CPU seconds to build and to save the workbook, and its cells."""
    with collector_paused():
        started = time.process_time()
        book = _workbook(result, "bench")
        built = time.process_time()
        save_workbook(book, target)
        saved = time.process_time()
    return built - started, saved - built, sum(cell_count(sheet) for sheet in book.worksheets)


_WIDTHS = (5, 6, 8, 8, 7, 6, 6)


def widened(result: CheckResult, bids: int, seed: int = 1) -> CheckResult:
    """``result`` as a section of ``bids`` bids: its first bid copied under new ids and names, each new
    pair at 无 with a drawn similarity below the watch level."""
    first = result.bids[0]
    rng = random.Random(seed)
    added = [
        dataclasses.replace(first, id=f"w{n}", name=f"{n:04d}-投标人{n}.docx", path=f"/w/{n:04d}.docx")
        for n in range(len(result.bids), bids)
    ]
    ids = [d.id for d in (*result.bids, *added)]
    own = {(p.a, p.b) for p in result.pairs}
    quiet = [
        PairResult(
            a, b, round(rng.random() * 0.2, 4), 0.0, 0.0, rng.random(), "none", "未发现非招标文件的共同文字"
        )
        for a, b in itertools.combinations(ids, 2)
        if (a, b) not in own
    ]
    pairs = sorted([*result.pairs, *quiet], key=lambda p: (LEVEL_RANK[p.level], -p.similarity))  # ranked
    return dataclasses.replace(result, documents=(*result.documents, *added), pairs=tuple(pairs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", type=Path, help="result JSON files written by bidcheck check")
    parser.add_argument("--rounds", type=int, default=3, help="workbooks written per result, in turns")
    parser.add_argument("--bids", type=int, default=0, help="widen each result to this many bids")
    args = parser.parse_args()
    results = [load_result(path) for path in args.results]
    if args.bids:
        results = [widened(result, args.bids) for result in results]
    times: list[list[tuple[float, float]]] = [[] for _ in results]
    cells, sizes = [0] * len(results), [0] * len(results)
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.rounds):
            for index, result in enumerate(results):
                target = Path(folder, f"{index}.xlsx")
                build, save, cells[index] = _write_once(result, target)
                times[index].append((build, save))
                sizes[index] = target.stat().st_size
    heads = ("bids", "pairs", "cells", "build s", "save s", "CPU s", "MB")
    print(f"{'result':24} " + " ".join(f"{h:>{w}}" for h, w in zip(heads, _WIDTHS, strict=True)))
    for path, result, runs, count, size in zip(args.results, results, times, cells, sizes, strict=True):
        build = statistics.median(b for b, _ in runs)
        save = statistics.median(s for _, s in runs)
        total = statistics.median(b + s for b, s in runs)
        print(
            f"{path.name[:24]:24} {len(result.bids):5} {len(result.pairs):6} {count:8} "
            f"{build:8.3f} {save:7.3f} {total:6.3f} {size / 1e6:6.2f}"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"medians of {args.rounds} rounds; peak memory {peak:,.0f} MB; load average {os.getloadavg()[0]:.2f}"
    )
    print(f"command: {Path(sys.executable).name} -m bench.xlsx_write {' '.join(sys.argv[1:])}")


if __name__ == "__main__":
    main()
