"""The desktop bundle (``make installer`` -> dist/bidcheck/): what each part of the folder weighs, and how
long ``bidcheck --version`` takes to start, frozen (with a bare environment) and from the source install.

Usage: .venv/bin/python bench/frozen.py [--dist dist/bidcheck] [--runs N]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON_PARTS = {"base_library.zip", "python3.11", "lib-dynload"}  # Python's own library besides libpython


def _size(path: Path) -> int:
    """Bytes of a file or folder; links (to libraries elsewhere in the folder) count nothing."""
    if path.is_symlink() or path.is_file():
        return path.lstat().st_size if path.is_file() and not path.is_symlink() else 0
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _part(entry: Path, owners: dict[str, list[str]]) -> str:
    """The distribution a top-level entry of the folder belongs to, or what else it is."""
    name = entry.name
    top = name.removesuffix(".libs").split(".")[0]  # numpy.libs: the libraries auditwheel put in a wheel
    dists = {_normalised(dist): dist for names in owners.values() for dist in names}
    if name in PYTHON_PARTS or name.startswith("libpython"):
        return "Python"
    if top in owners:
        return owners[top][0]
    if _normalised(top) in dists:
        return dists[_normalised(top)]
    if name.endswith(".dist-info"):
        return "package metadata"
    return "system libraries" if ".so" in name or name.endswith(".dll") else name


def sizes(folder: Path) -> Counter[str]:
    """Bytes per part of the bundle (the programs themselves count as ``programs``)."""
    owners = importlib.metadata.packages_distributions()
    weights: Counter[str] = Counter()
    for entry in folder.iterdir():
        if entry.name == "_internal":
            for inner in entry.iterdir():
                weights[_part(inner, owners)] += _size(inner)
        else:
            weights["programs"] += _size(entry)
    return weights


def startup(command: list[str], env: dict[str, str] | None, runs: int) -> float:
    """Median seconds of ``command`` over ``runs`` runs (after one run to warm the disk cache)."""
    times = []
    for _ in range(runs + 1):
        started = time.perf_counter()
        subprocess.run(command, env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times[1:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist" / "bidcheck")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    weights = sizes(args.dist)
    mb = 1024 * 1024
    print(f"folder {args.dist}: {sum(weights.values()) / mb:.0f} MB")
    for part, size in weights.most_common():
        if size >= mb:
            print(f"  {part:28s} {size / mb:6.1f} MB")
    rest = sum(size for size in weights.values() if size < mb)
    print(f"  {'(parts under 1 MB)':28s} {rest / mb:6.1f} MB")
    with tempfile.TemporaryDirectory() as home:
        frozen = startup([str(args.dist / "bidcheck"), "--version"], {"HOME": home}, args.runs)
    source = startup([str(Path(sys.executable).with_name("bidcheck")), "--version"], None, args.runs)
    print(f"bidcheck --version, median of {args.runs}: frozen {frozen:.2f} s, source install {source:.2f} s")
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}")


if __name__ == "__main__":
    main()
