"""What a worker process sets up before it takes a task: a cap on the memory it may add (on Linux the
data limit of ``setrlimit``, on Windows a job object; elsewhere none), and an end when its parent ends.
``default_memory_mb`` is each worker's share of the PC's memory."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
from multiprocessing.connection import wait
from pathlib import Path

__all__ = ["ORPHANED", "cap_memory", "default_memory_mb", "die_with_parent", "physical_memory_mb"]

ORPHANED = 70  # the exit status of a worker whose parent has gone
_MIN_CAP_MB = 2048  # a worker reading a large scanned bid needs about a gigabyte; never cap below this
_MB = 1 << 20


def physical_memory_mb() -> int | None:
    """The PC's physical memory in MB, or ``None`` when it cannot be told."""
    if sys.platform == "win32":
        return _windows_memory_mb()
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // _MB
    except (ValueError, OSError, AttributeError):
        return None


def default_memory_mb(workers: int) -> int:
    """The memory each of ``workers`` processes may use: an equal share of the PC's memory, one share
    left for the rest (the app, the system), and never below 2 GB; 0 (no cap) when the size is unknown."""
    total = physical_memory_mb()
    return max(_MIN_CAP_MB, total // (workers + 1)) if total else 0


def cap_memory(megabytes: int) -> bool:
    """Cap the memory this process may add to what it holds now; whether a cap could be set.

    Past the cap an allocation fails: Python raises ``MemoryError``, a native library may crash the
    process (a lost task, never a lost check).
    """
    if megabytes <= 0:
        return False
    if sys.platform == "win32":
        return _cap_windows(megabytes * _MB)
    try:
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        limit = _data_now() + megabytes * _MB  # a forked worker starts with its parent's memory
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
    except (ImportError, ValueError, OSError):
        return False
    return True


def _data_now() -> int:
    """The data segment this process holds (Linux counts its limit against it), in bytes."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmData:"):
                return int(line.split()[1]) * 1024
    return 0


if sys.platform == "win32":
    import ctypes
    from ctypes import wintypes

    _JOBS: list[int] = []  # job handles stay open as long as the process lives

    class _Basic(ctypes.Structure):
        _fields_ = [
            ("PerProcessUserTimeLimit", ctypes.c_int64),
            ("PerJobUserTimeLimit", ctypes.c_int64),
            ("LimitFlags", wintypes.DWORD),
            ("MinimumWorkingSetSize", ctypes.c_size_t),
            ("MaximumWorkingSetSize", ctypes.c_size_t),
            ("ActiveProcessLimit", wintypes.DWORD),
            ("Affinity", ctypes.c_size_t),
            ("PriorityClass", wintypes.DWORD),
            ("SchedulingClass", wintypes.DWORD),
        ]

    class _Extended(ctypes.Structure):
        _fields_ = [
            ("BasicLimitInformation", _Basic),
            ("IoInfo", ctypes.c_ulonglong * 6),
            ("ProcessMemoryLimit", ctypes.c_size_t),
            ("JobMemoryLimit", ctypes.c_size_t),
            ("PeakProcessMemoryUsed", ctypes.c_size_t),
            ("PeakJobMemoryUsed", ctypes.c_size_t),
        ]

    class _MemoryStatus(ctypes.Structure):
        _fields_ = [
            ("dwLength", wintypes.DWORD),
            ("dwMemoryLoad", wintypes.DWORD),
            ("ullTotalPhys", ctypes.c_ulonglong),
            ("ullAvailPhys", ctypes.c_ulonglong),
            ("ullTotalPageFile", ctypes.c_ulonglong),
            ("ullAvailPageFile", ctypes.c_ulonglong),
            ("ullTotalVirtual", ctypes.c_ulonglong),
            ("ullAvailVirtual", ctypes.c_ulonglong),
            ("ullAvailExtendedVirtual", ctypes.c_ulonglong),
        ]

    def _cap_windows(limit: int) -> bool:
        """Put this process in a job object of its own whose per-process memory limit is ``limit``."""
        try:
            kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
            kernel32.CreateJobObjectW.restype = wintypes.HANDLE
            kernel32.GetCurrentProcess.restype = wintypes.HANDLE
            kernel32.SetInformationJobObject.argtypes = [
                wintypes.HANDLE,
                ctypes.c_int,
                ctypes.POINTER(_Extended),
                wintypes.DWORD,
            ]
            kernel32.AssignProcessToJobObject.argtypes = [wintypes.HANDLE, wintypes.HANDLE]
            job = kernel32.CreateJobObjectW(None, None)
            if not job:
                return False
            info = _Extended()
            info.BasicLimitInformation.LimitFlags = 0x100  # JOB_OBJECT_LIMIT_PROCESS_MEMORY
            info.ProcessMemoryLimit = limit
            extended_limits = 9  # JobObjectExtendedLimitInformation
            size = ctypes.sizeof(info)
            if not kernel32.SetInformationJobObject(job, extended_limits, ctypes.byref(info), size):
                return False
            if not kernel32.AssignProcessToJobObject(job, kernel32.GetCurrentProcess()):
                return False
            _JOBS.append(job)
            return True
        except (OSError, AttributeError, ValueError):
            return False

    def _windows_memory_mb() -> int | None:
        status = _MemoryStatus()
        status.dwLength = ctypes.sizeof(status)
        try:
            if ctypes.WinDLL("kernel32").GlobalMemoryStatusEx(ctypes.byref(status)):
                return int(status.ullTotalPhys) // _MB
        except (OSError, AttributeError):
            pass
        return None


def die_with_parent() -> None:
    """End this process (a worker) as soon as the process that started it has ended, killed or crashed:
    a thread waits on the parent's sentinel (a pipe whose other end the parent holds open), which
    becomes ready only when the parent is gone. A worker left alone would go on for nothing."""
    parent = multiprocessing.parent_process()
    sentinel = getattr(parent, "sentinel", None) if parent is not None else None
    if sentinel is None:
        return

    def watch() -> None:
        with contextlib.suppress(OSError, ValueError):
            wait([sentinel])
            os._exit(ORPHANED)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
