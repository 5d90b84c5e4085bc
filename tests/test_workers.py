"""Worker processes: a task whose process dies, runs too long or runs out of memory is lost alone."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bidcheck.process_limits import cap_memory, default_memory_mb
from bidcheck.progress import Cancelled
from bidcheck.workers import Ahead, Lost, can_fork, run_tasks


def _square(n: int) -> int:
    return n * n


def _exit_on(n: int, fatal: int) -> int:
    if n == fatal:
        os._exit(70)  # the process ends at once, as one killed by the system or crashed in native code
    return n * n


def _exit_late_on(n: int, fatal: int) -> int:
    time.sleep(0.2 if n == fatal else 0.6)  # the fatal task ends its process while the other still runs
    return _exit_on(n, fatal)


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _allocate(megabytes: int) -> int:
    return len(bytearray(megabytes << 20))


def _capped_allocate(cap_mb: int, megabytes: int) -> int:
    assert cap_memory(cap_mb)
    return _allocate(megabytes)


def _raise(message: str) -> None:
    raise ValueError(message)


_MEETING = threading.Barrier(2)


def _meet(n: int) -> int:
    """Waits for a second task in the same process (``BrokenBarrierError`` if none comes within 20 s)."""
    _MEETING.wait(20)
    return n


def test_results_come_back_in_order_and_each_end_is_reported() -> None:
    seen: list[int] = []
    results = run_tasks(_square, [(n,) for n in range(7)], 3, lambda i, _: seen.append(i))
    assert results == [n * n for n in range(7)]
    assert sorted(seen) == list(range(7))


def test_a_task_whose_process_dies_is_lost_alone() -> None:
    results = run_tasks(_exit_on, [(n, 2) for n in range(6)], 2, lambda i, r: None)
    assert results[2] == Lost("died", 70)
    assert [r for i, r in enumerate(results) if i != 2] == [0, 1, 9, 16, 25]


def test_a_process_runs_as_many_tasks_at_once_as_it_is_given() -> None:
    assert run_tasks(_meet, [(n,) for n in range(4)], 1, lambda i, r: None, at_once=2) == [0, 1, 2, 3]


def test_a_task_that_kills_its_process_beside_another_is_tried_alone_and_lost_alone() -> None:
    # task 3 ends its process while task 2, given first, still runs: only 3 is lost
    results = run_tasks(_exit_late_on, [(n, 3) for n in range(6)], 1, lambda i, r: None, at_once=2)
    assert results[3] == Lost("died", 70)
    assert [r for i, r in enumerate(results) if i != 3] == [0, 1, 4, 16, 25]


def test_a_task_past_the_time_limit_beside_others_is_stopped_and_the_others_done() -> None:
    tasks = [(30.0,), (0.0,), (0.1,), (0.0,)]
    results = run_tasks(_sleep, tasks, 1, lambda i, r: None, time_limit_s=1.0, at_once=2)
    assert results == [Lost("timeout"), 0.0, 0.1, 0.0]


def test_a_task_past_the_time_limit_is_stopped() -> None:
    started = time.monotonic()
    results = run_tasks(_sleep, [(30.0,), (0.0,), (0.1,)], 2, lambda i, r: None, time_limit_s=1.0)
    assert results == [Lost("timeout"), 0.0, 0.1]
    assert time.monotonic() - started < 10


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the data limit is enforced on Linux")
def test_a_task_beyond_the_memory_cap_is_lost_as_out_of_memory() -> None:
    results = run_tasks(_allocate, [(1024,), (10,)], 1, lambda i, r: None, memory_mb=256)
    assert results == [Lost("memory"), 10 << 20]
    assert run_tasks(_capped_allocate, [(256, 64)], 1, lambda i, r: None) == [64 << 20]


def test_an_exception_of_the_task_is_raised_here() -> None:
    with pytest.raises(ValueError, match="broken"):
        run_tasks(_raise, [("broken",)], 1, lambda i, r: None)


def test_cancel_stops_the_workers_at_once() -> None:
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    started = time.monotonic()
    with pytest.raises(Cancelled):
        run_tasks(_sleep, [(30.0,)] * 3, 2, lambda i, r: None, cancel=cancel)
    assert time.monotonic() - started < 10


def test_the_default_cap_is_a_share_of_the_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """A PC of 24,000 MB (the system's page count faked): two workers take a third each, one a half, a
    share left for the rest; never below 2 GB; no cap where the size cannot be told."""
    pages = {"SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": 24_000 * 256}
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(os, "sysconf", lambda name: pages[name])
    assert [default_memory_mb(n) for n in (1, 2, 5, 23)] == [12_000, 8_000, 4_000, 2_048]
    monkeypatch.setattr(os, "sysconf", _unknown)
    assert default_memory_mb(2) == 0


def _unknown(name: str) -> int:
    raise ValueError(f"sysconf: {name} cannot be told")


forked_only = pytest.mark.skipif(not can_fork(), reason="processes are forked on Linux only")


@forked_only
def test_work_ahead_sees_this_processes_memory_and_its_value_comes_back() -> None:
    """Nothing is sent to the forked copy (a lambda cannot be pickled): what this process holds is seen
    there; the process ends with the result."""
    numbers = list(range(1000))
    parent = os.getpid()
    ahead = Ahead(lambda: sum(numbers) + (os.getpid() != parent))
    assert ahead.result(None, lambda: -1) == 499500 + 1  # computed in another process
    assert not ahead._process.is_alive()


@forked_only
def test_work_ahead_raises_here_what_it_raised_and_is_done_here_when_its_process_dies() -> None:
    with pytest.raises(ValueError, match="bad input"):
        Ahead(lambda: _raise("bad input")).result(None, lambda: 0)
    assert Ahead(lambda: _exit_on(2, 2)).result(None, lambda: 42) == 42


@forked_only
def test_cancelling_the_wait_for_work_ahead_ends_its_process() -> None:
    cancel = threading.Event()
    ahead = Ahead(lambda: _sleep(60))
    threading.Timer(0.3, cancel.set).start()
    started = time.monotonic()
    with pytest.raises(Cancelled):
        ahead.result(cancel, lambda: 0.0)
    assert time.monotonic() - started < 10 and not ahead._process.is_alive()


def _now(_: int) -> float:
    return time.time()


def test_a_task_sent_ahead_begins_as_soon_as_the_one_before_ends() -> None:
    """Task 1 waits in its process's pipe: it begins while this process still takes task 0's result
    (here a slow ``on_done``); not sent ahead, it begins only after."""
    for ahead in (1, 0):
        ended: dict[int, float] = {}

        def done(index: int, _result: object, ended: dict[int, float] = ended) -> None:
            time.sleep(0.5 if index == 0 else 0.0)
            ended[index] = time.time()

        results = run_tasks(_now, [(0,), (1,)], 1, done, ahead=ahead)
        assert (results[1] < ended[0]) == bool(ahead)


def test_a_task_that_kills_its_process_with_one_waiting_is_lost_alone() -> None:
    results = run_tasks(_exit_on, [(n, 2) for n in range(6)], 1, lambda i, r: None, ahead=1)
    assert results[2] == Lost("died", 70)
    assert [r for i, r in enumerate(results) if i != 2] == [0, 1, 9, 16, 25]


def test_a_task_sent_ahead_has_its_time_counted_from_when_it_begins() -> None:
    # each task alone stays within the limit; the second, sent ahead, waited 0.8 s before it began
    results = run_tasks(_sleep, [(0.8,), (0.8,), (0.0,)], 1, lambda i, r: None, time_limit_s=1.2, ahead=1)
    assert results == [0.8, 0.8, 0.0]


def _now_or_large(kind: str, flag: str) -> float | bytes:
    """The time now; or, once ``flag`` exists, a reply far larger than a pipe holds (4 MB)."""
    if kind == "now":
        return time.time()
    deadline = time.time() + 20
    while not os.path.exists(flag) and time.time() < deadline:
        time.sleep(0.01)
    return bytes(4 << 20)


def test_a_process_begins_its_next_task_while_its_large_reply_waits_to_be_taken(tmp_path: Path) -> None:
    """Task 2's reply (4 MB) is ready while this process is busy with task 0's (a slow ``on_done``, in
    the other worker): the worker holding task 3 begins it at once instead of waiting, blocked on the
    full pipe, until this process takes the reply."""
    flag = str(tmp_path / "busy")
    ended: dict[int, float] = {}

    def done(index: int, _result: object) -> None:
        if index == 0:
            Path(flag).touch()
            time.sleep(1.0)
        ended[index] = time.time()

    tasks = [("now", flag), ("now", flag), ("large", flag), ("now", flag)]  # tasks 0, 1 in one process
    results = run_tasks(_now_or_large, tasks, 2, done, ahead=1)
    assert results[2] == bytes(4 << 20)
    assert isinstance(results[3], float) and results[3] < ended[0] - 0.5


_MAIN_SCRIPT = """
import os, sys
from pathlib import Path
marker = Path(sys.argv[1])
with marker.open("a") as out:
    out.write(f"{os.getpid()}\\n")  # each process that imports this script adds a line
if __name__ == "__main__":
    import multiprocessing
    from bidcheck.workers import run_tasks, spawn_without_main
    context = spawn_without_main() if sys.argv[2] == "lean" else multiprocessing.get_context("spawn")
    print(run_tasks(os.getpid, [()], 1, lambda *_: None, context=context)[0] != os.getpid())
"""


@pytest.mark.parametrize(("method", "imports"), [("plain", 2), ("lean", 1)])
def test_a_worker_spawned_without_main_does_not_import_the_apps_script(
    tmp_path: Path, method: str, imports: int
) -> None:
    # the desktop app's script imports the whole window: a plain spawned worker imports it again
    script, marker = tmp_path / "app_script.py", tmp_path / "imported.txt"
    script.write_text(_MAIN_SCRIPT, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    command = [sys.executable, str(script), str(marker), method]
    run = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "True"  # the task ran in another process
    assert len(marker.read_text().splitlines()) == imports


def _begin_then_wait(index: int, folder: str) -> int:
    """Say this task has begun (a file of its index), then wait until this process is told to go on."""
    Path(folder, str(index)).touch()
    deadline = time.time() + 20
    while not Path(folder, "go").exists() and time.time() < deadline:
        time.sleep(0.01)
    return index


def test_started_runs_here_once_the_processes_run_their_first_tasks_and_before_a_result(
    tmp_path: Path,
) -> None:
    """``started`` is this process's work beside the workers: called once, when each of them holds and
    runs its first task (their tasks wait for it here), before any result is taken."""
    calls: list[tuple[set[str], int]] = []
    done: list[int] = []

    def started() -> None:
        deadline = time.time() + 20
        while not {"0", "2"} <= {p.name for p in tmp_path.iterdir()} and time.time() < deadline:
            time.sleep(0.01)
        calls.append(({p.name for p in tmp_path.iterdir()}, len(done)))
        (tmp_path / "go").touch()

    tasks = [(n, str(tmp_path)) for n in range(5)]
    results = run_tasks(_begin_then_wait, tasks, 2, lambda i, _: done.append(i), ahead=1, started=started)
    assert results == [0, 1, 2, 3, 4]
    assert calls == [({"0", "2"}, 0)]  # one process holds tasks 0 and 1, the other 2 and 3 (sent ahead)
