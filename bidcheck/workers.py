"""Worker processes that one file cannot take down with the check.

``run_tasks`` gives each worker process one task at a time, so it always knows which task a process
held: when a process dies (killed for memory by the system, a native crash in a PDF or OCR library) or
runs past the time limit, that task alone is reported ``Lost``, the process is replaced and the other
tasks go on. Each worker caps its own memory before it takes a task (``cap_memory``): on Linux the
data limit of ``setrlimit``, on Windows a job object; elsewhere no cap is set, and a process the system
kills is still only a lost task.
"""

from __future__ import annotations

import collections
import contextlib
import multiprocessing
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from typing import Any, Generic, Literal, TypeVar, cast

from bidcheck.process_limits import cap_memory, die_with_parent
from bidcheck.progress import CancelFlag, check_cancel, ignore_interrupt

__all__ = [
    "Ahead",
    "Lost",
    "can_fork",
    "run_tasks",
    "spawn_without_main",
]

R = TypeVar("R")
_POLL_S = 0.2  # how often the cancel flag and the time limits are looked at
_PREPARING = threading.Lock()  # a process of ``spawn_without_main`` is being started


@dataclass(frozen=True)
class Lost:
    """A task whose worker process ended without its result.

    ``reason``: ``died`` (the process ended: killed, or crashed), ``timeout`` (it ran past the time
    limit and was stopped) or ``memory`` (it ran out of the memory its cap allows).
    """

    reason: Literal["died", "timeout", "memory"]
    exitcode: int | None = None


def _serve(conn: Connection, parent_end: Connection, memory_mb: int, at_once: int) -> None:
    """A worker process: cap its memory, then run the tasks it is sent (``at_once`` at a time, each in a
    thread of its own when more than one) until told to stop (or until the main process is gone: its end
    of the pipe is closed here, so that the pipe then reads as ended). One task at a time, a task's reply
    is sent by a thread of its own while the next task runs (see ``_Replies``)."""
    parent_end.close()
    ignore_interrupt()
    die_with_parent()
    cap_memory(memory_mb)
    sending = threading.Lock()
    pool = ThreadPoolExecutor(at_once) if at_once > 1 else None
    replies = _Replies(conn, sending) if pool is None else None
    try:
        while True:
            try:
                task = conn.recv()
            except (EOFError, OSError):
                return
            if task is None:
                return
            if replies is not None:
                index, fn, args = task
                replies.send(index, _outcome(fn, args))
            elif pool is not None:
                pool.submit(_run, conn, sending, *task)
    finally:
        if replies is not None:
            replies.close()


class _Replies:
    """Sends a worker's replies in a thread: a reply of a megabyte (a document read) waits in the pipe
    until the main process takes it, and the worker begins its next task meanwhile instead (it held
    its next task already: ``run_tasks(..., ahead=1)``). One reply is in flight at a time: a worker
    holds at most the reply being sent and the task it runs."""

    def __init__(self, conn: Connection, sending: threading.Lock) -> None:
        self.conn, self.sending = conn, sending
        self.thread = ThreadPoolExecutor(1)
        self.flying: Future[None] | None = None

    def send(self, index: int, reply: tuple[str, Any]) -> None:
        """Send a reply once the one before has gone."""
        self.wait()
        self.flying = self.thread.submit(_send, self.conn, self.sending, index, reply)

    def wait(self) -> None:
        """Wait until the reply in flight has gone (or could not go: the main process has gone)."""
        if self.flying is not None:
            with contextlib.suppress(OSError):
                self.flying.result()
            self.flying = None

    def close(self) -> None:
        """Send what is in flight, then end the thread."""
        self.wait()
        self.thread.shutdown()


def _outcome(fn: Callable[..., Any], args: Any) -> tuple[str, Any]:
    """Run one task in a worker: its reply to the main process."""
    try:
        return ("ok", fn(*args))
    except MemoryError:
        return ("memory", None)
    except BaseException as exc:  # handed to the main process, which raises it
        return ("raised", exc)


def _run(conn: Connection, sending: threading.Lock, index: int, fn: Callable[..., Any], args: Any) -> None:
    """Run one task in a worker and send its reply."""
    _send(conn, sending, index, _outcome(fn, args))


def _send(conn: Connection, sending: threading.Lock, index: int, reply: tuple[str, Any]) -> None:
    """Send a task's reply (a pipe is sent on by one thread at a time)."""
    with sending:
        _reply(conn, index, reply)


def _reply(conn: Connection, index: int, reply: tuple[str, Any]) -> None:
    try:
        conn.send((index, *reply))
    except MemoryError:  # the result was too large to pickle within the cap
        conn.send((index, "memory", None))
    except Exception as exc:  # a result or exception that cannot be pickled
        conn.send((index, "raised", RuntimeError(f"{type(exc).__name__}: {exc}")))


class _Worker:
    """One worker process and the tasks it holds (by index, with the time each was given)."""

    def __init__(self, context: BaseContext, memory_mb: int, at_once: int) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(  # type: ignore[attr-defined]
            target=_serve, args=(child, self.conn, memory_mb, at_once)
        )
        self.process.start()
        child.close()
        self.tasks: dict[int, float] = {}

    def give(self, index: int, fn: Callable[..., Any], args: tuple[Any, ...]) -> bool:
        """Send a task; ``False`` when the process has gone (it died idle)."""
        try:
            self.conn.send((index, fn, args))
        except OSError:
            return False
        self.tasks[index] = time.monotonic()
        return True

    def reply(self) -> tuple[int | None, str, Any]:
        """A task's index and reply when one has come; ``(None, "lost", Lost)`` when the process ended."""
        try:
            return tuple(self.conn.recv())
        except (EOFError, OSError):
            self.process.join()
            return (None, "lost", Lost("died", self.process.exitcode))

    def next_begun(self) -> None:
        """A process running one task at a time has begun the next it holds (its time counts from now)."""
        now = time.monotonic()
        for index in self.tasks:
            self.tasks[index] = now

    def late(self, limit_s: float | None) -> int | None:
        """A task held past the time limit, if any."""
        now = time.monotonic()
        late = [i for i, since in self.tasks.items() if limit_s is not None and now - since > limit_s]
        return late[0] if late else None

    def stop(self, *, now: bool = False) -> None:
        """End the process: asked to stop, or at once (``now``), and wait for it."""
        if not now and self.process.is_alive():
            with contextlib.suppress(OSError):
                self.conn.send(None)
            self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


class _Pool(Generic[R]):
    """The state of one ``run_tasks`` call.

    A worker holds up to ``at_once`` tasks that it runs and ``ahead`` more waiting in its pipe. When a
    process holding several dies, it cannot be told which of them killed it: each is given again, alone
    in its process (``alone``), and only a task that kills its process alone is lost.
    """

    def __init__(
        self,
        fn: Callable[..., R],
        tasks: Sequence[tuple[Any, ...]],
        make: Callable[[], _Worker],
        at_once: int,
        ahead: int = 0,
    ) -> None:
        self.fn, self.tasks, self.make, self.at_once = fn, tasks, make, at_once
        self.held = at_once + ahead  # tasks a worker holds: those it runs, and those waiting in its pipe
        self.queue = collections.deque(range(len(tasks)))
        self.workers: list[_Worker] = []
        self.alone: set[int] = set()

    def feed(self) -> None:
        """Give every worker with room the next tasks."""
        for slot in range(len(self.workers)):
            while self.queue and self._has_room(self.workers[slot], self.queue[0]):
                index = self.queue[0]
                if self.workers[slot].give(index, self.fn, self.tasks[index]):
                    self.queue.popleft()
                else:
                    self._replace(slot)

    def _has_room(self, worker: _Worker, index: int) -> bool:
        held = worker.tasks
        if not held:
            return True
        return len(held) < self.held and index not in self.alone and not self.alone & held.keys()

    def _replace(self, slot: int) -> None:
        """Stop the worker of ``slot`` and start another; the tasks it held go back to the queue's front."""
        worker = self.workers[slot]
        worker.stop(now=True)
        self.queue.extendleft(sorted(worker.tasks, reverse=True))
        worker.tasks.clear()
        self.workers[slot] = self.make()

    def outcome(self, slot: int, ready: list[Any], limit_s: float | None) -> tuple[int, R | Lost] | None:
        """A finished task of worker ``slot``, if one finished; the worker is replaced when it ended."""
        worker = self.workers[slot]
        if not worker.tasks:
            return None
        if worker.conn in ready or worker.process.sentinel in ready:
            index, kind, value = worker.reply()
        else:
            index, kind, value = worker.late(limit_s), "lost", Lost("timeout")
            if index is None:
                return None
        if index is None:  # the process died: which of its tasks killed it is known only when it held one
            if len(worker.tasks) > 1:
                self.alone |= worker.tasks.keys()
                self._replace(slot)
                return None
            index = next(iter(worker.tasks))
        del worker.tasks[index]
        if self.at_once == 1:
            worker.next_begun()
        if kind == "raised":
            raise value
        if kind != "ok":
            self._replace(slot)
        return index, value if kind in ("ok", "lost") else Lost("memory")

    def next(self, cancel: CancelFlag | None, limit_s: float | None) -> tuple[int, R | Lost]:
        """Wait for the next task to end."""
        while True:
            check_cancel(cancel)
            self.feed()
            busy = [w for w in self.workers if w.tasks]
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy], _POLL_S)
            for slot in range(len(self.workers)):
                done = self.outcome(slot, list(ready), limit_s)
                if done is not None:
                    return done


def run_tasks(
    fn: Callable[..., R],
    tasks: Sequence[tuple[Any, ...]],
    workers: int,
    on_done: Callable[[int, R | Lost], None],
    *,
    cancel: CancelFlag | None = None,
    context: BaseContext | None = None,
    memory_mb: int = 0,
    time_limit_s: float | None = None,
    at_once: int = 1,
    ahead: int = 0,
    started: Callable[[], None] = lambda: None,
) -> list[R | Lost]:
    """Run ``fn(*task)`` for every task in ``workers`` processes, one task per process at a time.

    Args:
        fn: A module-level function (it is sent to the processes by name).
        tasks: The arguments of each call.
        workers: How many processes (no more than there are tasks).
        on_done: Called in this process as each task ends, with its index and result (or ``Lost``).
        cancel: Checked every 0.2 s; when set, the processes are stopped and ``Cancelled`` is raised.
        context: The multiprocessing context (default: the platform's).
        memory_mb: Memory each process may add to what it starts with (``cap_memory``); 0: no cap.
        time_limit_s: A task running longer is stopped with its process and reported ``Lost`` (its time
            counts from when its process was given it).
        at_once: Tasks a process holds at a time, each run in a thread of its own when more than one
            (the OCR stage's pages: one page's serial steps run while another's lines are recognised).
        ahead: Tasks a process is sent beyond those it runs: waiting in its pipe, the next one begins as
            soon as one ends, not after its result has reached this process and the next task has come
            back (a process killed holding several has each given again alone, see ``_Pool``).
        started: Called in this process once the processes hold their first tasks, before any result
            is taken: this process's own work beside them (they are forked without what it does).

    Returns:
        Each task's result, or ``Lost`` for a task whose process ended without one. An exception ``fn``
        raised is raised here (after the processes are stopped).
    """
    results: list[R | Lost | None] = [None] * len(tasks)
    if not tasks:
        return []
    ctx = context or multiprocessing.get_context()
    pool: _Pool[R] = _Pool(
        fn, tasks, lambda: _Worker(ctx, memory_mb, at_once), max(1, at_once), max(0, ahead)
    )
    finished = False
    try:
        for _ in range(max(1, min(workers, len(tasks)))):
            pool.workers.append(pool.make())
        pool.feed()
        started()
        for _ in range(len(tasks)):
            index, result = pool.next(cancel, time_limit_s)
            results[index] = result
            on_done(index, result)
        finished = True
    finally:
        for worker in pool.workers:
            worker.stop(now=not finished)
    return cast(list[R | Lost], results)


def spawn_without_main() -> BaseContext:
    """Python's spawn start method, its processes not importing the main module of this one.

    A spawned process imports the parent's main module first, for functions defined there: the desktop
    app's script imports the whole window (Qt: about 1.2 CPU s and 100 MB a process), a bench script what
    it measures with. Functions run by bidcheck's workers live in its modules, which the process imports
    as it unpickles them. While such a process starts, one started by another thread with the plain
    spawn method does not import the main module either.
    """
    return _SpawnWithoutMain()


class _ProcessWithoutMain(multiprocessing.context.SpawnProcess):
    @staticmethod
    def _Popen(process_obj: Any) -> Any:
        from multiprocessing import spawn

        prepare = spawn.get_preparation_data

        def without_main(name: str) -> dict[str, Any]:
            data = prepare(name)
            data.pop("init_main_from_path", None)
            data.pop("init_main_from_name", None)
            return data

        with _PREPARING:
            spawn.get_preparation_data = without_main
            try:
                return multiprocessing.context.SpawnProcess._Popen(process_obj)
            finally:
                spawn.get_preparation_data = prepare


class _SpawnWithoutMain(multiprocessing.context.SpawnContext):
    Process = _ProcessWithoutMain


def can_fork() -> bool:
    """Whether processes start by forking here (Linux; a forked copy sees this process's memory). Not on
    macOS, where fork is possible but unsafe once system frameworks are loaded, nor on Windows."""
    return multiprocessing.get_start_method() == "fork"


class Ahead(Generic[R]):
    """``fn()`` computed in a forked copy of this process (nothing is sent there: the copy sees this
    process's memory as it was) while this process does other work; ``result`` waits for its value.

    Only where ``can_fork``. A process that ends without a value (killed, out of memory) costs only
    time: ``result`` then computes the value here.
    """

    def __init__(self, fn: Callable[[], R]) -> None:
        context = multiprocessing.get_context("fork")
        self._conn, child = context.Pipe(duplex=False)
        self._process = context.Process(target=_ahead, args=(fn, child), daemon=True)
        self._process.start()
        child.close()

    def result(self, cancel: CancelFlag | None, again: Callable[[], R]) -> R:
        """The value computed (an exception ``fn`` raised is raised here), or ``again()`` when the process
        ended without one. Cancelling stops the process and raises ``Cancelled``."""
        try:
            while not self._conn.poll(_POLL_S):
                check_cancel(cancel)
            kind, value = self._conn.recv()
        except (EOFError, OSError):
            return again()
        finally:
            self.stop()
        if kind == "raised":
            raise value
        return cast(R, value)

    def stop(self) -> None:
        """End the process (at once, when it is still at work) and wait for it."""
        if self._process.is_alive():
            self._process.kill()
        self._process.join()
        self._conn.close()


def _ahead(fn: Callable[[], Any], conn: Connection) -> None:
    """The forked process of an ``Ahead``: compute, send the value (or the exception) back."""
    ignore_interrupt()
    die_with_parent()
    try:
        reply: tuple[str, Any] = ("ok", fn())
    except BaseException as exc:  # handed to the main process, which raises it
        reply = ("raised", exc)
    _reply_whole(conn, reply)


def _reply_whole(conn: Connection, reply: tuple[str, Any]) -> None:
    try:
        conn.send(reply)
    except Exception as exc:  # a value or exception that cannot be pickled
        conn.send(("raised", RuntimeError(f"{type(exc).__name__}: {exc}")))
