"""A folder of documents (a vault of notes, an archive of past bids) indexed for near-duplicate queries.

The hash set of every readable file (``near.near_hashes``) is cached in one SQLite file in the folder
(``.bidcheck-vault.sqlite``; in the user's data folder when the vault is read-only). Indexing again reads
only what changed: a file of the same size and modification time is taken as it was, one whose content
hash is unchanged only has its time updated, removed files leave the index.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bidcheck.config import Settings
from bidcheck.ingest import SUPPORTED_SUFFIXES
from bidcheck.library.near import SLACK, NearIndex, NearMatch, comparable_text, exact_scores, near_hashes
from bidcheck.library.store import LibraryError, default_library_path
from bidcheck.memo import file_digest
from bidcheck.progress import CancelFlag, ProgressFn, check_cancel, no_progress

__all__ = ["CACHE_NAME", "VaultFigures", "index_vault", "vault_near"]

CACHE_NAME = ".bidcheck-vault.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS docs (
    path TEXT PRIMARY KEY,  -- relative to the vault, with forward slashes
    size INTEGER NOT NULL,
    mtime INTEGER NOT NULL,  -- nanoseconds
    digest TEXT NOT NULL,
    hashes BLOB NOT NULL,  -- sorted winnowed k-gram hashes, int64
    error TEXT
)
"""


@dataclass(frozen=True)
class VaultFigures:
    """What indexing a vault did: files in it, read now, unreadable, and where the cache is."""

    files: int
    read: int
    unreadable: int
    cache: Path


def _cache_path(folder: Path) -> Path:
    """The cache in the vault; in the user's data folder when the vault cannot take a file."""
    inside = folder / CACHE_NAME
    try:
        with open(inside, "ab"):
            pass
        return inside
    except OSError:
        name = hashlib.sha256(str(folder.resolve()).encode("utf-8")).hexdigest()[:16]
        outside = default_library_path().parent / "vaults" / f"{name}.sqlite"
        outside.parent.mkdir(parents=True, exist_ok=True)
        return outside


def _files(folder: Path) -> Iterator[tuple[str, Path]]:
    """Every file bidcheck reads in the vault (recursively, hidden names left out), by relative path."""
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if any(part.startswith(".") for part in relative.parts):
            continue
        if path.suffix.lower() in SUPPORTED_SUFFIXES and path.is_file():
            yield relative.as_posix(), path


def _read(path: Path, settings: Settings) -> tuple[bytes, str | None]:
    norm, error = comparable_text(path, settings)
    return near_hashes(norm).tobytes(), error


def _update(
    db: sqlite3.Connection, folder: Path, settings: Settings, progress: ProgressFn, cancel: CancelFlag | None
) -> tuple[int, int]:
    """Bring the cache up to date with the folder; how many files were read and how many are there."""
    known = {row[0]: row[1:] for row in db.execute("SELECT path, size, mtime, digest FROM docs")}
    files = list(_files(folder))
    read = 0
    for n, (name, path) in enumerate(files):
        check_cancel(cancel)
        stat = path.stat()
        old = known.pop(name, None)
        if old is not None and old[:2] == (stat.st_size, stat.st_mtime_ns):
            continue
        digest = file_digest(path)
        if old is not None and old[2] == digest:
            db.execute(
                "UPDATE docs SET size = ?, mtime = ? WHERE path = ?", (stat.st_size, stat.st_mtime_ns, name)
            )
            continue
        hashes, error = _read(path, settings)
        db.execute(
            "INSERT OR REPLACE INTO docs VALUES (?, ?, ?, ?, ?, ?)",
            (name, stat.st_size, stat.st_mtime_ns, digest, hashes, error),
        )
        read += 1
        if read % 100 == 0:
            db.commit()  # a long first indexing keeps what it has read when stopped
        progress((n + 1) / len(files), f"索引 {name}")
    db.executemany("DELETE FROM docs WHERE path = ?", [(name,) for name in known])
    db.commit()
    return read, len(files)


def index_vault(
    folder: Path, settings: Settings, progress: ProgressFn = no_progress, cancel: CancelFlag | None = None
) -> tuple[NearIndex, VaultFigures]:
    """The near-duplicate index of a folder, read from its cache and brought up to date first."""
    if not folder.is_dir():
        raise LibraryError(f"找不到文件夹：{folder}")
    cache = _cache_path(folder)
    try:
        with closing(sqlite3.connect(cache, timeout=10.0)) as db:
            db.execute(_SCHEMA)
            read, files = _update(db, folder, settings, progress, cancel)
            rows = db.execute("SELECT path, hashes, error FROM docs ORDER BY path").fetchall()
    except sqlite3.Error as exc:
        raise LibraryError(f"无法使用文件夹索引 {cache}：{exc}") from exc
    ok = [(name, hashes) for name, hashes, error in rows if error is None]
    keys = [(folder.resolve().name, name) for name, _ in ok]
    index = NearIndex(keys, [np.frombuffer(h, dtype=np.int64) for _, h in ok])
    return index, VaultFigures(files, read, len(rows) - len(ok), cache)


def vault_near(
    index: NearIndex, folder: Path, norm: str, minimum: float, settings: Settings
) -> tuple[NearMatch, ...]:
    """The vault's files a text nearly duplicates: the index's candidates (hash sets within ``SLACK`` of
    ``minimum``), each verified on the full 8-gram sets of the two texts (the file read again)."""
    matches = []
    for candidate in index.query(near_hashes(norm), max(minimum - SLACK, 0.0)):
        other, error = comparable_text(folder / candidate.document, settings)
        if error is not None:  # changed or gone since it was indexed: its indexed figures stand
            score, containment = candidate.score, candidate.containment
        else:
            score, containment = exact_scores(norm, other)
        if score >= minimum:
            matches.append(
                NearMatch(candidate.section, candidate.document, round(score, 4), round(containment, 4))
            )
    return tuple(sorted(matches, key=lambda m: (-m.score, m.document)))
