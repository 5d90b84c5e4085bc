"""A comparison worker that dies (killed for memory, a native crash) loses no pair and no check."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import shutil
import signal
import sys
from pathlib import Path

import pytest

from bidcheck.compare import runner
from bidcheck.compare.score import Score
from bidcheck.config import Settings
from bidcheck.judge import verdict
from bidcheck.memo import load_blob
from bidcheck.model import CheckResult
from bidcheck.pipeline import CheckInputs, check
from tests.builders import paragraphs

SETTINGS = Settings(workers=2)


def _section(folder: Path) -> Path:
    """Six bids that each paste the same draft among text of their own: fifteen pairs to verify."""
    draft = paragraphs(500, 6)
    for n in range(6):
        own = paragraphs(600 + n, 8)
        (folder / f"{n + 1:02d}.txt").write_text("\n".join(own[:4] + draft + own[4:]), encoding="utf-8")
    return folder


def _levels(result: CheckResult) -> list[tuple[str, str, str, int]]:
    return [(p.a, p.b, p.level, len(p.passages)) for p in result.pairs]


@pytest.mark.skipif(sys.platform == "win32", reason="kills a worker with SIGKILL")
def test_a_comparison_worker_killed_mid_check_loses_no_pair(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = CheckInputs((_section(tmp_path),))
    expected = check(inputs, SETTINGS)
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(tmp_path / "empty"))  # verified anew, not from the cache
    monkeypatch.setattr(runner, "_POOL_MIN_WINDOWS", 1)  # so few windows are aligned without workers
    killed: list[int] = []

    def kill_a_worker(_fraction: float, message: str) -> None:
        if message == "比对文件对" and not killed:
            child = multiprocessing.active_children()[0]
            killed.append(child.pid or 0)
            os.kill(child.pid or 0, signal.SIGKILL)

    result = check(inputs, SETTINGS, kill_a_worker)
    assert killed and len(result.pairs) == 15
    assert _levels(result) == _levels(expected)
    assert {p.level for p in result.pairs} == {"high"}


def test_a_pair_that_could_not_be_compared_is_watched_with_the_reason() -> None:
    level, reason = verdict(Score(0.0, 0.0, 0.0, 0, 0, 0, failed=True), None, {}, Settings())
    assert level == "watch" and reason.startswith("二级观察：比对进程异常退出，这一对未能比对完，请人工核对")
    level, _ = verdict(Score(0.5, 0.5, 0.4, 2000, 3, 0, failed=True), None, {}, Settings())
    assert level == "high"


def _rows(cache: Path) -> dict[Path, int]:
    return {path: path.stat().st_mtime_ns for path in (cache / "pairs").rglob("p*.bin")}


def _pair_keys(rows: dict[Path, int]) -> set[str]:
    return {key for path in rows for key in pickle.loads(load_blob("pairs", path.stem) or b"")}


def test_pairs_aligned_by_workers_are_remembered_and_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pairs the workers align come back with their keys and are stored in rows, one entry a bid (not
    a file a pair): a check whose stages are not remembered reads every pair back and writes no row
    again."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(cache))
    monkeypatch.setattr(runner, "_POOL_MIN_WINDOWS", 1)  # so few windows are aligned by workers
    (tmp_path / "s").mkdir()
    inputs = CheckInputs((_section(tmp_path / "s"),))
    first = check(inputs, SETTINGS)
    stored = _rows(cache)
    assert len(_pair_keys(stored)) == 15  # every pair, all of them sharing the draft
    assert len(stored) == 5  # each pair in its first bid's row: all bids have as many pairs
    shutil.rmtree(cache / "stages")  # else the whole verification is read back at once
    again = check(inputs, SETTINGS)
    assert _rows(cache) == stored
    assert _levels(again) == _levels(first) and {p.level for p in again.pairs} == {"high"}
