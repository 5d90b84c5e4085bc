"""The on-disk cache: what was computed for a file once is read back, not computed again.

The folder is ``$BIDCHECK_CACHE_DIR`` when that variable is set, else the user's cache folder
(``~/.cache/bidcheck``, ``%LOCALAPPDATA%\\bidcheck\\cache``, ``~/Library/Caches/bidcheck``); when it cannot be
written, a folder in the temporary directory. Entries are written whole or not at all, and a cache that
cannot be read or written only costs time. Reading an entry sets its access time, and ``prune_cache``
removes the entries least recently used first when the cache outgrows its size limit.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import tempfile
import time
from pathlib import Path

__all__ = [
    "CACHE_ENV",
    "cache_folders",
    "cache_roots",
    "code_digest",
    "file_digest",
    "load_blob",
    "prune_cache",
    "store_blob",
]

CACHE_ENV = "BIDCHECK_CACHE_DIR"
_PRUNED_TO = 0.9  # a cache over its limit is pruned to this share of it, not pruned again at every check


def _user_cache_root() -> Path:
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return (Path(local) if local else Path.home() / "AppData" / "Local") / "bidcheck" / "cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "bidcheck"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "bidcheck"


def cache_roots() -> tuple[Path, Path]:
    """The cache folder, and its fallback in the temporary directory."""
    return _user_cache_root(), Path(tempfile.gettempdir()) / "bidcheck-cache"


def cache_folders(kind: str) -> tuple[Path, Path]:
    """The cache folder for one kind of entry, and its fallback in the temporary directory."""
    user, fallback = cache_roots()
    return user / kind, fallback / kind


def file_digest(path: Path) -> str:
    """A hash of a file's bytes."""
    digest = hashlib.blake2b(digest_size=20)
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def code_digest(sources: list[Path]) -> str:
    """A hash of the source files whose code made an entry, so that a changed program never reuses entries
    an older one wrote (an installed build without sources relies on its version number)."""
    digest = hashlib.blake2b(digest_size=12)
    for source in sources:
        with contextlib.suppress(OSError):
            digest.update(source.read_bytes())
    return digest.hexdigest()


def _entry(folder: Path, key: str, suffix: str) -> Path:
    return folder / key[1:3] / f"{key}{suffix}"


def load_blob(kind: str, key: str, suffix: str = ".bin") -> bytes | None:
    """The bytes stored under ``key``, or ``None``."""
    for folder in cache_folders(kind):
        path = _entry(folder, key, suffix)
        try:
            data = path.read_bytes()
        except OSError:
            continue
        _mark_used(path)
        return data
    return None


def _mark_used(path: Path) -> None:
    """Set an entry's access time to now (its modification time stays: when it was written), whatever
    the file system does with access times by itself: ``prune_cache`` keeps the entries used last."""
    with contextlib.suppress(OSError):
        os.utime(path, ns=(time.time_ns(), path.stat().st_mtime_ns))


def store_blob(kind: str, key: str, data: bytes, suffix: str = ".bin") -> None:
    """Store bytes under ``key`` (in the first folder that can be written); failures are ignored."""
    for folder in cache_folders(kind):
        if _write(_entry(folder, key, suffix), data):
            return


def _write(path: Path, data: bytes) -> bool:
    """Write a file whole (a temporary file renamed into place) or not at all."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=path.parent, suffix=".part")
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temp, path)
        return True
    except OSError:
        Path(temp).unlink(missing_ok=True)
        return False


def _entries(root: Path) -> list[tuple[int, int, str]]:
    """(access time, size, path) of every entry under a cache folder (``root/kind/ab/key.suffix``)."""
    found: list[tuple[int, int, str]] = []
    for kind in _folders(root):
        for shard in _folders(kind):
            with contextlib.suppress(OSError), os.scandir(shard) as listed:
                for entry in listed:
                    if entry.is_file() and not entry.name.endswith(".part"):  # .part: being written
                        stat = entry.stat()
                        found.append((stat.st_atime_ns, stat.st_size, entry.path))
    return found


def _folders(path: Path | str) -> list[str]:
    with contextlib.suppress(OSError), os.scandir(path) as listed:
        return [entry.path for entry in listed if entry.is_dir(follow_symlinks=False)]
    return []


def prune_cache(max_bytes: int) -> int:
    """Remove the entries least recently used first until the cache holds at most 90% of ``max_bytes``,
    when it holds more than ``max_bytes``; the bytes removed. An entry removed is only computed again."""
    entries = sorted(entry for root in cache_roots() for entry in _entries(root))
    total = sum(size for _, size, _ in entries)
    if total <= max_bytes:
        return 0
    removed = 0
    for _, size, path in entries:
        if total - removed <= max_bytes * _PRUNED_TO:
            break
        with contextlib.suppress(OSError):
            os.remove(path)
            removed += size
    return removed
