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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

__all__ = [
    "CACHE_ENV",
    "cache_folders",
    "cache_roots",
    "code_digest",
    "file_digest",
    "has_blob",
    "load_blob",
    "parts_digest",
    "prune_cache",
    "source_key",
    "store_blob",
    "stored_table",
]

CACHE_ENV = "BIDCHECK_CACHE_DIR"
_PRUNED_TO = 0.9  # a cache over its limit is pruned to this share of it, not pruned again at every check
_RECORD = "size.txt"  # in each cache folder: when its entries were last walked, and their bytes then
_WRITTEN = "stored.txt"  # the sizes of the entries stored since, one a line
_WALK_AT_LEAST_S = 3600.0


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


def parts_digest(*parts: bytes) -> bytes:
    """A 20-byte hash of several byte strings, each with its length (no two lists of parts hash alike
    by their joins): the keys of entries made of several inputs."""
    digest = hashlib.blake2b(digest_size=20)
    for part in parts:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.digest()


def code_digest(sources: list[Path]) -> str:
    """A hash of the source files whose code made an entry, so that a changed program never reuses entries
    an older one wrote (an installed build without sources relies on its version number)."""
    digest = hashlib.blake2b(digest_size=12)
    for source in sources:
        with contextlib.suppress(OSError):
            digest.update(source.read_bytes())
    return digest.hexdigest()


def source_key(prefix: str, source: Callable[[], Path], parts: Sequence[str], code: list[Path]) -> str | None:
    """The key of what ``code`` makes of the file ``source()`` (and of ``parts``, e.g. a seed): the
    file's hash and the code's; ``None`` when the file cannot be found (``RuntimeError``) or read."""
    try:
        digest = file_digest(source())
    except (OSError, RuntimeError):
        return None
    text = "|".join([*parts, digest, code_digest(code)])
    return prefix + hashlib.blake2b(text.encode(), digest_size=20).hexdigest()


_T = TypeVar("_T")


def stored_table(
    kind: str,
    key: str | None,
    parse: Callable[[bytes], _T | None],
    build: Callable[[], _T],
    dump: Callable[[_T], bytes],
) -> _T:
    """A table kept under ``key``: its stored bytes ``parse``d, or (none stored, or bytes ``parse`` does
    not take) ``build``t and stored as ``dump`` gives it; built and not stored when ``key`` is ``None``."""
    stored = load_blob(kind, key) if key else None
    table = parse(stored) if stored is not None else None
    if table is None:
        table = build()
        if key:
            store_blob(kind, key, dump(table))
    return table


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


def has_blob(kind: str, key: str, suffix: str = ".bin") -> bool:
    """Whether bytes are stored under ``key`` (without reading them)."""
    return any(_entry(folder, key, suffix).is_file() for folder in cache_folders(kind))


def _mark_used(path: Path) -> None:
    """Set an entry's access time to now (its modification time stays: when it was written), whatever
    the file system does with access times by itself: ``prune_cache`` keeps the entries used last."""
    with contextlib.suppress(OSError):
        os.utime(path, ns=(time.time_ns(), path.stat().st_mtime_ns))


def store_blob(kind: str, key: str, data: bytes, suffix: str = ".bin") -> None:
    """Store bytes under ``key`` (in the first folder that can be written, its size noted for
    ``prune_cache``); failures are ignored."""
    for root in cache_roots():
        if _write(_entry(root / kind, key, suffix), data):
            with contextlib.suppress(OSError), (root / _WRITTEN).open("a", encoding="ascii") as log:
                log.write(f"{len(data)}\n")  # one short append: whole, also from several processes
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


def _recorded(root: Path) -> int | None:
    """The bytes under a cache folder by its last walk (``prune_cache``) and the entries stored since;
    ``None`` when not known, or walked longer than ``_WALK_AT_LEAST_S`` ago (entries that others
    wrote, such as compiled OCR models, or removed, are then counted again)."""
    if not root.is_dir():
        return 0
    try:
        walked, total = (root / _RECORD).read_text(encoding="ascii").split()
        written = (root / _WRITTEN).read_text(encoding="ascii") if (root / _WRITTEN).exists() else ""
        if time.time() - float(walked) > _WALK_AT_LEAST_S:
            return None
        return int(total) + sum(int(size) for size in written.split())
    except (OSError, ValueError):
        return None


def _record(root: Path, total: int) -> None:
    """Note what a walk found under a cache folder; the sizes noted before it are counted in it."""
    if root.is_dir():
        with contextlib.suppress(OSError):
            (root / _WRITTEN).unlink(missing_ok=True)
            (root / _RECORD).write_text(f"{time.time()} {total}", encoding="ascii")


def prune_cache(max_bytes: int) -> int:
    """Remove the entries least recently used first until the cache holds at most 90% of ``max_bytes``,
    when it holds more than ``max_bytes``; the bytes removed. An entry removed is only computed again.
    The entries are walked only when the size recorded at the last walk, with the entries stored
    since, passes the limit (walking 23,000 entries costs a check about 0.14 s), and at least hourly."""
    roots = cache_roots()
    known = [_recorded(root) for root in roots]
    if all(size is not None for size in known) and sum(size or 0 for size in known) <= max_bytes:
        return 0
    found = {root: _entries(root) for root in roots}
    entries = sorted(entry for listed in found.values() for entry in listed)
    total, removed, gone = sum(size for _, size, _ in entries), 0, set()
    for _, size, path in entries if total > max_bytes else []:
        if total - removed <= max_bytes * _PRUNED_TO:
            break
        with contextlib.suppress(OSError):
            os.remove(path)
            removed += size
            gone.add(path)
    for root, listed in found.items():
        _record(root, sum(size for _, size, path in listed if path not in gone))
    return removed
