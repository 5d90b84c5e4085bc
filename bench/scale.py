"""Speed at section scale: ``bidcheck check`` on 10 to 200 bids of about 55,000 characters, against the
plain-text floor (reading the same files with pypdfium2 and python-docx and doing nothing else).

For each size it prints the floor (read by as many processes as the check uses, and by one), the whole
check as a user runs it (a fresh process, an empty cache), its stages, the ratio to each floor, the peak
memory of the process tree, a re-check with the cache filled (its result must equal the first, times and
paths aside), and the check after adding one bid (all bids but the last checked first, with their own
cache; its result must equal the first check's): by the command line in a fresh process, and in the app
(``bench/app_add_one.py``: the window's check in the process that checked the other bids, without the
library and with it); each also in CPU seconds (user + system of the process and its workers: on a
shared machine the wall time grows with the load, the CPU time hardly); then how the check time grows
from one size to the next.
With ``--repeat N`` every size is timed N times, the sizes in turn (10, 30, …, 10, 30, …), so that a
drift in the machine's speed reaches all of them alike; the summary shows each size's fastest check
(peak memory: the highest of the runs). On a shared 2-core machine one run can be 10% off.
Sections are generated once into ``--folder`` and reused. bidcheck's modules are compiled to bytecode
first, as an installed program has them (``bench/installed.py``).

``--settings FILE`` passes a settings file to every check (e.g. ``{"semantic_max_bids": 200}`` to time
the semantic layer on sections it skips by default).

Usage: .venv/bin/python -m bench.scale [--sizes 10 30 100 200] [--workers N] [--folder DIR] [--repeat N]
       [--settings FILE]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pypdfium2 as pdfium
from docx import Document as open_docx

from bench.corpus import generate_section
from bench.grammar import lexicon_paragraph
from bench.installed import compile_bytecode

ROOT = Path(__file__).resolve().parents[1]


def _read_plain(path: Path) -> int:
    """The floor's work for one file: its text, and nothing else."""
    if path.suffix == ".pdf":
        pdf = pdfium.PdfDocument(path)
        chars = sum(len(pdf[i].get_textpage().get_text_range()) for i in range(len(pdf)))
        pdf.close()
        return chars
    doc = open_docx(str(path))
    cells = sum(len(c.text) for t in doc.tables for r in t.rows for c in r.cells)
    return sum(len(p.text) for p in doc.paragraphs) + cells


def floor_seconds(files: list[Path], workers: int) -> float:
    """Wall time to read every file's text with the same number of processes as the check."""
    started = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_read_plain, files, chunksize=4))
    return time.perf_counter() - started


def process_tree(root: int) -> dict[int, int]:
    """A process and all its descendants, from /proc: each one's resident memory (bytes)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(stat[1]), []).append(int(entry.name))
            rss[int(entry.name)] = int(stat[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    found, stack = {}, [root]
    while stack:
        pid = stack.pop()
        found[pid] = rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return found


def _tree_rss(root: int) -> int:
    """Resident memory (bytes) of a process and all its descendants."""
    return sum(process_tree(root).values())


_ROLLUP = {"Rss:": 0, "Pss:": 1}


def rss_and_pss(pid: int) -> tuple[int, int]:
    """A process's resident and proportional memory in kB (0, 0 once it has ended): a page shared by
    forked processes counts whole in each one's RSS, a share of it in each one's PSS."""
    values = [0, 0]
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
            for line in rollup:
                field = line.split(maxsplit=1)[0]
                if field in _ROLLUP:
                    values[_ROLLUP[field]] = int(line.split()[1])
    except (OSError, IndexError, ValueError):
        pass
    return values[0], values[1]


def tree_pss(root: int) -> int:
    """Proportional memory (bytes) of a process and all its descendants: the memory they hold."""
    return sum(rss_and_pss(pid)[1] for pid in process_tree(root)) << 10


SETTINGS: list[str] = []  # extra arguments of every check (``--settings FILE``)


def _children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes of this one."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def check_command(section: Path, out: Path, workers: int, bids: list[Path] | None = None) -> list[str]:
    """The command line of the timed check: the section's bids (or those given), its tender, both
    reports written into ``out``."""
    return [
        sys.executable,
        "-m",
        "bidcheck.cli",
        "check",
        *[str(p) for p in bids or [section / "bids"]],
        "--tender",
        str(section / "tender" / "招标文件.docx"),
        "--json",
        str(out / "r.json"),
        "--xlsx",
        str(out / "r.xlsx"),
        "--quiet",
        "--workers",
        str(workers),
        *SETTINGS,
    ]


def run_check(
    section: Path, out: Path, cache: Path, workers: int, bids: list[Path] | None = None
) -> tuple[float, tuple[int, int], dict[str, object], float]:
    """Run ``bidcheck check`` in a fresh process on the section's bids (or those given): (wall seconds,
    peak tree memory as RSS and as PSS, result JSON, CPU seconds of the process and its workers).
    RSS is sampled every 0.1 s; PSS, which walks each process's page tables, every 0.5 s."""
    cmd = check_command(section, out, workers, bids)
    env = {**os.environ, "BIDCHECK_CACHE_DIR": str(cache)}
    started, cpu = time.perf_counter(), _children_cpu()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    peak = [0, 0]

    def sample() -> None:
        count = 0
        while proc.poll() is None:
            peak[0] = max(peak[0], _tree_rss(proc.pid))
            if count % 5 == 0:
                peak[1] = max(peak[1], tree_pss(proc.pid))
            count += 1
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    wall = time.perf_counter() - started
    sampler.join()
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"bidcheck check failed ({proc.returncode}): {err.decode()[-2000:]}")
    cpu = _children_cpu() - cpu
    return wall, (peak[0], peak[1]), json.loads((out / "r.json").read_text(encoding="utf-8")), cpu


def _cold_and_warm(
    section: Path, workers: int
) -> tuple[tuple[float, float], tuple[int, int], dict[str, object], tuple[float, float]]:
    """A check with an empty cache (wall and CPU seconds, peak memory as RSS and PSS, result) and the same
    check again from the cache (wall and CPU seconds)."""
    with tempfile.TemporaryDirectory() as temp:
        cold_wall, peak, result, cold_cpu = run_check(section, Path(temp), Path(temp) / "cache", workers)
        warm_wall, _, warm_result, warm_cpu = run_check(section, Path(temp), Path(temp) / "cache", workers)
    if _normalised(warm_result) != _normalised(result):
        raise RuntimeError("the re-check from the cache gave another result than the first check")
    return (cold_wall, cold_cpu), peak, result, (warm_wall, warm_cpu)


def add_one_seconds(section: Path, workers: int, cold: dict[str, object]) -> dict[str, float]:
    """A check of all bids but the last (its cache then filled), then of all of them: the second's wall
    and CPU seconds, as when a late bid is added to a checked section; and the same in the app
    (``app_seconds``), each from a copy of that cache. Every result (with the library, less what the
    library adds) must be the ``cold`` check's of all the bids."""
    bids = sorted((section / "bids").iterdir())
    with tempfile.TemporaryDirectory() as temp:
        cache = Path(temp) / "cache"
        run_check(section, Path(temp), cache, workers, bids[:-1])
        app = app_seconds(section, workers, cache, cold, library=False)
        app_lib = app_seconds(section, workers, cache, cold, library=True)
        wall, _, result, cpu = run_check(section, Path(temp), cache, workers, bids)
    if _normalised(result) != _normalised(cold):
        raise RuntimeError("the check after adding a bid gave another result than a fresh check")
    return {
        "wall": wall,
        "cpu": cpu,
        "app": app[0],
        "app_cpu": app[1],
        "lib": app_lib[0],
        "lib_cpu": app_lib[1],
    }


def app_seconds(
    section: Path, workers: int, cache: Path, cold: dict[str, object], library: bool
) -> tuple[float, float]:
    """Adding the last bid in the app (``bench.app_add_one``: one process checks the other bids, then
    all of them, as the window does, with a new library or none), from a copy of ``cache``: the
    second check's wall and CPU seconds. Its result, less what the library adds, must be ``cold``."""
    with tempfile.TemporaryDirectory() as temp:
        shutil.copytree(cache, Path(temp) / "cache")
        out = Path(temp) / "r.json"
        cmd = [sys.executable, "-m", "bench.app_add_one", str(section), "--workers", str(workers)]
        cmd += [*SETTINGS, "--json", str(out), *(["--library"] if library else [])]
        env = {**os.environ, "BIDCHECK_CACHE_DIR": str(Path(temp) / "cache")}
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=ROOT, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"bench.app_add_one failed ({done.returncode}): {done.stderr[-2000:]}")
        if _normalised(_without_library(json.loads(out.read_text(encoding="utf-8")))) != _normalised(cold):
            raise RuntimeError("adding a bid in the app gave another result than a fresh check")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    return float(figures["wall"]), float(figures["cpu"])


def _without_library(result: dict[str, object]) -> dict[str, object]:
    """A result checked against a library that holds only this section, less what the library adds
    (its figures and each bid's empty history): a fresh check's result."""
    data = {k: v for k, v in result.items() if k != "library"}
    data["documents"] = [
        {k: v for k, v in d.items() if k != "history"}
        for d in result["documents"]  # type: ignore[attr-defined]
    ]
    return data


def _normalised(result: dict[str, object]) -> str:
    """The result JSON without times and paths (what a re-check must give byte for byte)."""
    data = {k: v for k, v in result.items() if k not in ("elapsed_s", "timings")}
    data["documents"] = [
        {k: v for k, v in d.items() if k != "path"}
        for d in result["documents"]  # type: ignore[attr-defined]
    ]
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def scale_section(size: int, folder: Path) -> Path:
    """The section of ``size`` bids under ``folder`` (generated when missing)."""
    section = folder / f"section-{size}"
    if not (section / "truth.json").exists():
        generate_section(section, size, seed=size, own=(250, 270), prose=lexicon_paragraph, alternate=True)
    return section


def measure(size: int, folder: Path, workers: int) -> dict[str, object]:
    """One timing of a size: its floor, a check with an empty cache and one from the cache."""
    section = scale_section(size, folder)
    files = [*sorted((section / "bids").iterdir()), section / "tender" / "招标文件.docx"]
    floor = floor_seconds(files, workers)
    floor_one = floor_seconds(files, 1) if workers > 1 else floor
    (cold_wall, cold_cpu), peak, result, (warm_wall, warm_cpu) = _cold_and_warm(section, workers)
    add_one = add_one_seconds(section, workers, result)
    timings = dict(result["timings"])  # type: ignore[arg-type]
    timings["start+report"] = cold_wall - float(result["elapsed_s"])  # type: ignore[arg-type]
    chars = sum(int(d["chars"]) for d in result["documents"])  # type: ignore[union-attr]
    return {
        "bids": size,
        "chars": chars,
        "floor": floor,
        "floor_one": floor_one,
        "check": cold_wall,
        "check_cpu": cold_cpu,
        "ratio": cold_wall / floor,
        "ratio_one": cold_wall / floor_one,
        "stages": timings,
        "peak_mb": peak[0] / 2**20,
        "pss_mb": peak[1] / 2**20,
        "warm": warm_wall,
        "warm_cpu": warm_cpu,
        "add_one": add_one["wall"],
        "add_one_cpu": add_one["cpu"],
        "app": add_one["app"],
        "app_cpu": add_one["app_cpu"],
        "app_lib": add_one["lib"],
        "app_lib_cpu": add_one["lib_cpu"],
        "raised": _raised(section, result),
    }  # type: ignore[union-attr]


def fastest(runs: list[dict[str, object]]) -> dict[str, object]:
    """The runs of one size as one row: the fastest check with its stages, the fastest floor and
    re-check, the highest peak memory."""
    row = dict(min(runs, key=lambda run: float(run["check"])))  # type: ignore[arg-type]
    for key in (
        "floor",
        "floor_one",
        "check_cpu",
        "warm",
        "warm_cpu",
        "add_one",
        "add_one_cpu",
        "app",
        "app_cpu",
        "app_lib",
        "app_lib_cpu",
    ):
        row[key] = min(float(run[key]) for run in runs)  # type: ignore[arg-type]
    row["peak_mb"] = max(float(run["peak_mb"]) for run in runs)  # type: ignore[arg-type]
    row["pss_mb"] = max(float(run["pss_mb"]) for run in runs)  # type: ignore[arg-type]
    row["ratio"] = float(row["check"]) / float(row["floor"])  # type: ignore[arg-type]
    row["ratio_one"] = float(row["check"]) / float(row["floor_one"])  # type: ignore[arg-type]
    return row


def _raised(section: Path, result: dict[str, object]) -> str:
    """'planted raised / planted, others raised': the pairs at watch or high, against the truth."""
    truth = json.loads((section / "truth.json").read_text(encoding="utf-8"))
    planted = {frozenset((p["a"], p["b"])) for p in truth["pairs"]}
    names = {d["id"]: d["name"] for d in result["documents"]}  # type: ignore[attr-defined]
    raised = {
        frozenset((names[p["a"]], names[p["b"]]))
        for p in result["pairs"]  # type: ignore[attr-defined]
        if p["level"] != "none"
    }
    return f"{len(raised & planted)}/{len(planted)},{len(raised - planted)}"


_COLUMNS = (
    ("bids", 5),
    ("chars", 11),
    ("floor s", 9),
    ("check s", 9),
    ("cpu", 6),
    ("ratio", 7),
    ("floor1", 8),
    ("ratio1", 8),
    ("read", 7),
    ("cand", 7),
    ("verify", 8),
    ("sem", 6),
    ("judge", 7),
    ("st+rep", 8),
    ("peak MB", 9),
    ("PSS MB", 8),
    ("re-check", 9),
    ("cpu", 6),
    ("add one", 8),
    ("cpu", 6),
    ("app", 6),
    ("cpu", 6),
    ("app+lib", 8),
    ("cpu", 6),
    ("raised", 9),
)


def table(rows: list[dict[str, object]]) -> str:
    """The benchmark table: one row per section size."""
    lines = ["".join(f"{name:>{width}}" for name, width in _COLUMNS)]
    for r in rows:
        s = r["stages"]
        assert isinstance(s, dict)
        values = (
            f"{r['bids']}",
            f"{r['chars']:,}",
            f"{r['floor']:.1f}",
            f"{r['check']:.1f}",
            f"{r['check_cpu']:.1f}",
            f"{r['ratio']:.1f}",
            f"{r['floor_one']:.1f}",
            f"{r['ratio_one']:.1f}",
            f"{s.get('read', 0):.1f}",
            f"{s.get('candidates', 0):.1f}",
            f"{s.get('verify', 0):.1f}",
            f"{s.get('semantic', 0):.1f}",
            f"{s.get('judge', 0):.1f}",
            f"{s.get('start+report', 0):.1f}",
            f"{r['peak_mb']:.0f}",
            f"{r['pss_mb']:.0f}",
            f"{r['warm']:.1f}",
            f"{r['warm_cpu']:.1f}",
            f"{r['add_one']:.1f}",
            f"{r['add_one_cpu']:.1f}",
            f"{r['app']:.1f}",
            f"{r['app_cpu']:.1f}",
            f"{r['app_lib']:.1f}",
            f"{r['app_lib_cpu']:.1f}",
            f"{r['raised']}",
        )
        lines.append("".join(f"{v:>{w}}" for v, (_, w) in zip(values, _COLUMNS, strict=True)))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 30, 100, 200])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "bidcheck-scale")
    parser.add_argument(
        "--repeat", type=int, default=1, help="time every size this many times, in turn; keep the fastest"
    )
    parser.add_argument("--settings", type=Path, help="a settings file for every check")
    args = parser.parse_args()
    if args.settings:
        SETTINGS.extend(["--settings", str(args.settings.resolve())])
    compiled = compile_bytecode()
    runs: dict[int, list[dict[str, object]]] = {size: [] for size in args.sizes}
    for round_ in range(args.repeat):  # sizes taken in turn: a drift in the machine's speed hits all alike
        for size in args.sizes:
            runs[size].append(measure(size, args.folder, args.workers))
            lines = table([runs[size][-1]]).splitlines()
            print("\n".join(lines if size == args.sizes[0] and round_ == 0 else lines[1:]), flush=True)
    rows = [fastest(runs[size]) for size in args.sizes]
    print(f"\ncommand: {Path(sys.executable).name} -m bench.scale {' '.join(sys.argv[1:])}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(compiled)
    print(
        f"machine: {os.cpu_count()} cores; stages are wall seconds inside the check;"
        " 'st+rep' is process start, imports and writing the JSON and Excel reports;"
        " 'floor1', 'ratio1': the floor read by one process, and the check's time against it;"
        " 'cpu' after 'check s': the check's CPU seconds (user + system, workers included);"
        " 'peak MB': the highest resident memory of the check's processes added up (a page forked processes"
        " share counts once in each), 'PSS MB': the same counted once (the memory the machine gives them);"
        " 're-check': the same check again, every file cached; 'add one': the check after one bid is added"
        " to the others, checked before (bidcheck check in a fresh process, JSON and Excel written);"
        " 'app': adding that bid in the app, the window's check in the process that checked the others"
        " before (pipeline.check, then the bids' texts for the evidence view; no report, no library);"
        " 'app+lib': the same with the library on, as the app starts (checked against a new library"
        " holding the section's other bids, and stored there again); each with its CPU seconds"
        " (user + system, workers included);"
        " 'raised' is planted pairs at watch or high / planted pairs, and other pairs raised"
    )
    print(table(rows))
    for small, large in itertools.pairwise(rows):
        growth = float(large["check"]) / float(small["check"])  # type: ignore[arg-type]
        print(f"{large['bids']} bids / {small['bids']} bids: {growth:.2f}× the time")


if __name__ == "__main__":
    main()
