"""A parent for the orphan test: its worker processes write their pids, then work for a minute; the
test kills this process and looks whether they are gone."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path


def linger(folder: str, n: int) -> int:
    """A task that tells its process's pid, then works on far longer than the test waits."""
    (Path(folder) / f"{n}.pid").write_text(str(os.getpid()))
    time.sleep(60)
    return n


def main() -> None:
    from bidcheck.workers import run_tasks

    folder = sys.argv[1]
    run_tasks(linger, [(folder, 1), (folder, 2)], 2, lambda _i, _r: None)


if __name__ == "__main__":
    main()
