"""Adding one bid in the app: the section's bids but the last checked in this process, then all of them,
as the window's check does it (``gui/window.py`` ``run_check``: ``pipeline.check`` in its own process,
with the library or without, then the bids' clean texts for the evidence view, no report written). Prints
the second check's wall and CPU seconds (user + system of this process and its workers), each stage's
wall seconds and the first check's wall seconds (``first_wall``) as JSON.

``bench/scale.py`` runs it in a fresh process with an empty cache (``$BIDCHECK_CACHE_DIR``); the first
check fills the cache, as the user's check of the section before the late bid did.

Usage: .venv/bin/python -m bench.app_add_one SECTION [--workers N] [--library] [--settings FILE] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from pathlib import Path

from bidcheck.config import Settings, load_settings
from bidcheck.gui.texts import texts_from_result
from bidcheck.model import CheckResult
from bidcheck.pipeline import CheckInputs, ReadMemo, check
from bidcheck.report.json import write_json
from bidcheck.session import check_with_library


def _cpu() -> float:
    """CPU seconds (user + system) of this process and its finished children."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _window_check(
    inputs: CheckInputs, settings: Settings, library: Path | None, memo: ReadMemo
) -> CheckResult:
    """What the window's check job does: the check (against the library and stored there, when it is
    on) with the window's memo of the files read before, then the clean texts of the bids."""
    if library is None:
        result = check(inputs, settings, memo=memo)
    else:
        result, _ = check_with_library(inputs, settings, library, "scale", memo=memo)
    texts_from_result(result)
    return result


def add_one(
    section: Path, settings: Settings, library: Path | None
) -> tuple[float, float, CheckResult, float]:
    """The window's check of all the bids but the last, then of all: the second's wall and CPU seconds,
    its result, and the first's wall seconds."""
    bids = sorted((section / "bids").iterdir())
    tenders = [section / "tender" / "招标文件.docx"]
    memo = ReadMemo()  # the window's, kept from one check to the next
    started = time.perf_counter()
    _window_check(CheckInputs(bids[:-1], tenders), settings, library, memo)
    first = time.perf_counter() - started
    started, cpu = time.perf_counter(), _cpu()
    result = _window_check(CheckInputs(bids, tenders), settings, library, memo)
    return time.perf_counter() - started, _cpu() - cpu, result, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("section", type=Path)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--library", action="store_true", help="check against a new library, as by default")
    parser.add_argument("--settings", type=Path, help="a settings file")
    parser.add_argument("--json", type=Path, help="write the second check's result JSON here")
    args = parser.parse_args()
    settings = load_settings(args.settings) if args.settings else Settings()
    settings = Settings.from_dict({**settings.to_dict(), "workers": args.workers})
    with tempfile.TemporaryDirectory() as temp:
        library = Path(temp) / "library.sqlite" if args.library else None
        wall, cpu, result, first = add_one(args.section, settings, library)
    if args.json:
        write_json(result, args.json)
    stages = {name: round(seconds, 3) for name, seconds in result.timings.items()}
    print(json.dumps({"wall": wall, "cpu": cpu, "stages": stages, "first_wall": first}))


if __name__ == "__main__":
    main()
