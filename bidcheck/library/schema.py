"""The library's SQLite file: its schema and migrations, and a connection to it opened safely.

One file, no server (stdlib ``sqlite3``): write-ahead logging so that a check reads while another
process writes, a busy timeout so that two writers take turns.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from pathlib import Path

__all__ = ["SCHEMA_VERSION", "LibraryError", "connect", "default_library_path", "error_words"]

_MIGRATIONS = (
    """
    CREATE TABLE sections (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL DEFAULT 'section',  -- 'section', or 'templates' for kept model documents
        checked TEXT NOT NULL
    );
    CREATE TABLE files (
        id INTEGER PRIMARY KEY,
        section_id INTEGER NOT NULL REFERENCES sections(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        digest TEXT NOT NULL,
        bidder TEXT NOT NULL,
        role TEXT NOT NULL,
        chars INTEGER NOT NULL,
        simhash INTEGER NOT NULL,
        metadata TEXT NOT NULL,
        places BLOB NOT NULL,
        hashes BLOB NOT NULL,  -- the winnowed hashes again, so that removing a bid finds its rows
        text TEXT  -- only with "keep texts", and for model documents (which are public)
    );
    CREATE INDEX files_section ON files(section_id);
    CREATE INDEX files_bidder ON files(bidder);
    CREATE TABLE kgrams (
        hash INTEGER NOT NULL,
        file_id INTEGER NOT NULL,
        pos INTEGER NOT NULL,
        PRIMARY KEY (hash, file_id, pos)
    ) WITHOUT ROWID;
    CREATE TABLE pair_levels (
        section_id INTEGER NOT NULL REFERENCES sections(id) ON DELETE CASCADE,
        bidder_a TEXT NOT NULL,
        bidder_b TEXT NOT NULL,
        level TEXT NOT NULL
    );
    CREATE INDEX pair_levels_section ON pair_levels(section_id);
    """,
    """
    ALTER TABLE files ADD COLUMN bands BLOB;  -- window MinHash band keys, uint32 (windows x bands)
    ALTER TABLE files ADD COLUMN grp INTEGER;  -- whole-document group (堆号), see groups.py
    CREATE INDEX files_grp ON files(grp);
    CREATE INDEX files_sim0 ON files(simhash & 65535) WHERE role = 'bid';
    CREATE INDEX files_sim1 ON files((simhash >> 16) & 65535) WHERE role = 'bid';
    CREATE INDEX files_sim2 ON files((simhash >> 32) & 65535) WHERE role = 'bid';
    CREATE INDEX files_sim3 ON files((simhash >> 48) & 65535) WHERE role = 'bid';
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    """
    -- the settings and code a file's fingerprints were made with ('': not known): a section checked
    -- again keeps the rows of its files that have not changed (store_section)
    ALTER TABLE files ADD COLUMN shape TEXT NOT NULL DEFAULT '';
    """,
    """
    -- the signs' values a bid holds (phones, e-mails, ID numbers...), hashed by signals.base.value_key
    -- (the values themselves are never kept): a value many bidders of other sections hold is public
    CREATE TABLE sign_values (
        hash INTEGER NOT NULL,
        file_id INTEGER NOT NULL,
        PRIMARY KEY (hash, file_id)
    ) WITHOUT ROWID;
    CREATE INDEX sign_values_file ON sign_values(file_id);
    """,
)
SCHEMA_VERSION = len(_MIGRATIONS)


class LibraryError(Exception):
    """A library that cannot be used now: locked, damaged, or written by a newer bidcheck."""


def default_library_path() -> Path:
    """``~/.local/share/bidcheck/library.sqlite``; ``%LOCALAPPDATA%\\bidcheck\\library.sqlite`` on Windows."""
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return (Path(local) if local else Path.home() / "AppData" / "Local") / "bidcheck" / "library.sqlite"
    data = os.environ.get("XDG_DATA_HOME")
    return (Path(data) if data else Path.home() / ".local" / "share") / "bidcheck" / "library.sqlite"


def _is_busy(exc: BaseException) -> bool:
    """Whether SQLite's error says another connection holds the file."""
    return "locked" in str(exc) or "busy" in str(exc)


def error_words(exc: BaseException) -> str:
    """What went wrong with the library, as the user reads it."""
    text = str(exc)
    if _is_busy(exc):
        return "资料库正被另一个程序占用"
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return "资料库文件已损坏"
    return f"资料库无法使用（{text}）"


def connect(path: Path, busy_timeout_s: float, read_only: bool) -> sqlite3.Connection:
    """A connection to the library at ``path``, created or brought up to date; ``LibraryError`` when
    it cannot be used: locked beyond ``busy_timeout_s``, not a database, or of a newer schema.
    ``read_only``: for reading alone, as it is (on a read-only drive too), never changed."""
    if path.is_dir():
        raise LibraryError(f"无法打开资料库 {path}：这是一个文件夹，请给出资料库文件名")
    if read_only:
        return _open_read_only(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False)
    except (OSError, sqlite3.Error) as exc:
        raise LibraryError(f"无法打开资料库 {path}：{exc}") from exc
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
        _switch_to_wal(conn, busy_timeout_s)
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA secure_delete = ON")  # a removed section's pages are overwritten, not left
        # A stored section's postings land on pages all over the hash index: copying them from the log into
        # the file takes as long again as writing them, so it is done once, when the library is closed.
        conn.execute("PRAGMA synchronous = NORMAL")  # WAL: a crash may lose the last write, never the file
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        _migrate(conn)
    except sqlite3.Error as exc:
        conn.close()
        raise LibraryError(error_words(exc)) from exc
    except LibraryError:
        conn.close()
        raise
    return conn


def _open_read_only(path: Path) -> sqlite3.Connection:
    """The library opened for reading: as a read-only file, else (on read-only media, where SQLite cannot
    make the log's shared-memory file) as immutable."""
    problem: BaseException | None = None
    for mode in ("mode=ro", "immutable=1"):
        try:
            uri = f"{path.absolute().as_uri()}?{mode}"
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            problem = exc
            continue
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as exc:
            conn.close()
            problem = exc
            continue
        if version != SCHEMA_VERSION:
            conn.close()
            raise LibraryError(
                f"资料库的结构版本为 {version}，本程序为 {SCHEMA_VERSION}：请在可写的位置打开一次"
            )
        return conn
    raise LibraryError(error_words(problem) if problem is not None else f"无法打开资料库 {path}")


def _switch_to_wal(conn: sqlite3.Connection, busy_timeout_s: float) -> None:
    """Put the library in WAL mode. Two processes creating a library at once may find it locked while
    the other switches: SQLite does not wait on its busy handler there, so the switch is tried again
    until the busy timeout."""
    deadline = time.monotonic() + busy_timeout_s
    delay = 0.01
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.2)


def _migrate(conn: sqlite3.Connection) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise LibraryError(
            f"资料库由较新版本的 bidcheck 建立（结构版本 {version}），本程序只认识到 {SCHEMA_VERSION}"
        )
    if version == SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may have done it
        for number in range(version, SCHEMA_VERSION):
            for statement in _MIGRATIONS[number].split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
