"""The on-disk cache: what was computed for a file once is read back, not computed again.

The folder is ``$BIDCHECK_CACHE_DIR`` when that variable is set, else the user's cache folder
(``~/.cache/bidcheck``, ``%LOCALAPPDATA%\\bidcheck\\cache``, ``~/Library/Caches/bidcheck``); when it cannot be
written, the user's own folder in the temporary directory (``bidcheck-cache-<user>``, made 0700 and used
only while it is a folder the user owns that no one else may write). Entries are written whole or not at
all, and a cache that cannot be read or written only costs time.

Every entry carries a keyed hash (BLAKE2b) of its kind, key and bytes under a secret of its folder
(``secret``, 0600, made once): an entry another user planted, or one a damaged disk changed by a byte, does
not verify, is removed and computed again, and is never unpickled. Reading an entry sets its access time,
and ``prune_cache`` removes the entries least recently used first when the cache outgrows its size limit.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import os
import secrets
import stat
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from bidcheck.memo.keys import parts_digest

__all__ = [
    "CACHE_ENV",
    "ENTRY_OVERHEAD",
    "cache_folders",
    "cache_roots",
    "has_blob",
    "load_blob",
    "prune_cache",
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


def cache_roots() -> tuple[Path, ...]:
    """The cache folder, and its fallback in the temporary directory where that is the user's own."""
    fallback = _private_folder(str(Path(tempfile.gettempdir()) / f"bidcheck-cache-{_user_name()}"))
    return (_user_cache_root(),) + ((fallback,) if fallback is not None else ())


def cache_folders(kind: str) -> tuple[Path, ...]:
    """The cache folders for one kind of entry (see ``cache_roots``)."""
    return tuple(root / kind for root in cache_roots())


def _user_name() -> str:
    """The user's number on POSIX (names may hold anything), else the login name, for folder names."""
    if hasattr(os, "getuid"):
        return str(os.getuid())
    with contextlib.suppress(Exception):
        return "".join(c for c in os.getlogin() if c.isalnum()) or "user"
    return "user"


@functools.cache
def _private_folder(path: str) -> Path | None:
    """``path`` made (0700) if need be, when it is a folder of the user's own that no one else may write;
    ``None`` otherwise (another user's, a link, a file). On Windows the temporary folder is the user's."""
    folder = Path(path)
    with contextlib.suppress(OSError):
        folder.mkdir(mode=0o700, exist_ok=True)
    try:
        found = folder.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(found.st_mode):
        return None
    if hasattr(os, "getuid") and (found.st_uid != os.getuid() or found.st_mode & 0o022):
        return None
    return folder


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


_MAGIC = b"BCC1"  # an entry: these, its keyed hash, its bytes
_TAG = 32
ENTRY_OVERHEAD = len(_MAGIC) + _TAG  # bytes an entry holds beyond the bytes stored
_SECRET = "secret"  # in each cache folder: the key of its entries' hashes


_SECRETS: dict[tuple[str, int, int], bytes] = {}  # by folder and the secret file's inode and time


def _secret(root: str) -> bytes | None:
    """The secret of a cache folder, made the first time (0600; a damaged one is made again, and the
    entries hashed under it are then computed again); ``None`` when it can be neither read nor made.
    Read once a process while its file stays the same file."""
    path = Path(root) / _SECRET
    with contextlib.suppress(OSError):
        found = path.stat()
        known = _SECRETS.get((root, found.st_ino, found.st_mtime_ns))
        if known is not None:
            return known
        secret = path.read_bytes()
        if len(secret) == _TAG:
            _SECRETS[(root, found.st_ino, found.st_mtime_ns)] = secret
            return secret
    return _made_secret(path)


def _made_secret(path: Path) -> bytes | None:
    """A new secret at ``path`` (another process's, where one made it meanwhile)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=path.parent, suffix=".part")  # 0600
        with os.fdopen(handle, "wb") as out:
            out.write(secrets.token_bytes(_TAG))
        if path.exists() and len(path.read_bytes()) != _TAG:
            path.unlink()  # damaged: replaced
        try:
            os.link(temp, path)  # never over one another process made meanwhile: theirs is kept
        except FileExistsError:
            pass
        except OSError:  # a file system without links
            if not path.exists():
                os.replace(temp, path)
        Path(temp).unlink(missing_ok=True)
        found = path.read_bytes()
    except OSError:
        return None
    return found if len(found) == _TAG else None


def _tag(secret: bytes, kind: str, key: str, data: bytes) -> bytes:
    name = f"{kind}/{key}".encode()
    return hashlib.blake2b(parts_digest(name, data), key=secret, digest_size=_TAG).digest()


def _verified(secret: bytes, kind: str, key: str, stored: bytes) -> bytes | None:
    """An entry's bytes when its hash holds under the folder's secret, else ``None``."""
    head = ENTRY_OVERHEAD
    if len(stored) < head or not stored.startswith(_MAGIC):
        return None
    data = stored[head:]
    return data if hmac.compare_digest(stored[len(_MAGIC) : head], _tag(secret, kind, key, data)) else None


def load_blob(kind: str, key: str, suffix: str = ".bin") -> bytes | None:
    """The bytes stored under ``key``, or ``None`` (an entry that does not verify is removed)."""
    for root in cache_roots():
        secret = _secret(str(root))
        path = _entry(root / kind, key, suffix)
        try:
            stored = path.read_bytes()
        except OSError:
            continue
        data = _verified(secret, kind, key, stored) if secret is not None else None
        if data is None:
            with contextlib.suppress(OSError):
                path.unlink()  # planted, damaged or of an older format: computed again
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
        secret = _secret(str(root))
        entry = _MAGIC + _tag(secret, kind, key, data) + data if secret is not None else b""
        if entry and _write(_entry(root / kind, key, suffix), entry):
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
