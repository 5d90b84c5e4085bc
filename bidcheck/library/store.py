"""The library's SQLite file: schema and migrations, opening it safely, reading and writing sections.

One file, no server (stdlib ``sqlite3``): write-ahead logging so that a check reads while another
process writes, a busy timeout so that two writers take turns, every write one transaction.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import distinct
from bidcheck.library.groups import HAMMING, assign_groups, regroup, stored_groups
from bidcheck.library.prints import BidPrint

__all__ = [
    "SCHEMA_VERSION",
    "FileKey",
    "Library",
    "LibraryError",
    "PendingBid",
    "SectionRow",
    "StoredBid",
    "StoredFile",
    "default_library_path",
    "open_library",
]

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
_VALUES_ASKED = 500  # hashed values asked at once (SQLite's bound parameters)
BUSY_TIMEOUT_S = 10.0


class LibraryError(Exception):
    """A library that cannot be used now: locked, damaged, or written by a newer bidcheck."""


def default_library_path() -> Path:
    """``~/.local/share/bidcheck/library.sqlite``; ``%LOCALAPPDATA%\\bidcheck\\library.sqlite`` on Windows."""
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return (Path(local) if local else Path.home() / "AppData" / "Local") / "bidcheck" / "library.sqlite"
    data = os.environ.get("XDG_DATA_HOME")
    return (Path(data) if data else Path.home() / ".local" / "share") / "bidcheck" / "library.sqlite"


@dataclass(frozen=True)
class StoredBid:
    """One file of a section as it goes into the library."""

    name: str
    digest: str
    bidder: str
    role: str
    chars: int
    simhash: int
    metadata: dict[str, str]
    print: BidPrint
    text: str | None = None
    bands: npt.NDArray[np.uint32] | None = None  # window MinHash band keys (prints.window_band_keys)
    shape: str = ""  # the settings and code its fingerprints were made with ("": not known)
    values: tuple[int, ...] = ()  # its signs' values, hashed (``signals.base.value_key``)

    def key(self) -> FileKey:
        """What tells this file unchanged when its section is stored again."""
        metadata = json.dumps(self.metadata, ensure_ascii=False)
        return FileKey(self.name, self.digest, self.bidder, self.role, self.chars, metadata, self.shape)


@dataclass(frozen=True)
class FileKey:
    """A stored file's name, bytes (digest), bidder, role, characters, metadata (JSON) and ``shape``:
    a file of a section stored again with an equal key keeps its rows. A ``shape`` of "" is never
    equal (the settings and code the rows were made with are not known)."""

    name: str
    digest: str
    bidder: str
    role: str
    chars: int
    metadata: str
    shape: str


@dataclass(frozen=True)
class PendingBid:
    """A file whose fingerprints are made (``make``) only when its section does not hold it unchanged."""

    key: FileKey
    make: Callable[[], StoredBid]


def _key(item: StoredBid | PendingBid) -> FileKey:
    return item.key if isinstance(item, PendingBid) else item.key()


def _kept_ids(stored: Sequence[tuple[int, FileKey]], wanted: Sequence[FileKey]) -> list[int | None]:
    """For each wanted file, the id of a stored file with its key (each stored file used once), or None."""
    free: dict[FileKey, list[int]] = {}
    for file_id, key in stored:
        if key.shape:
            free.setdefault(key, []).append(file_id)
    return [free[key].pop(0) if free.get(key) else None for key in wanted]


@dataclass(frozen=True)
class StoredFile:
    """One file of a stored section as the library gives it back."""

    id: int
    section: str
    name: str
    bidder: str
    role: str
    chars: int
    print: BidPrint
    text: str | None


@dataclass(frozen=True)
class SectionRow:
    """A stored section: name, kind, when it was checked, its files and bidders."""

    name: str
    kind: str
    checked: str
    files: int
    bidders: tuple[str, ...]


def _is_busy(exc: BaseException) -> bool:
    """Whether SQLite's error says another connection holds the file."""
    return "locked" in str(exc) or "busy" in str(exc)


def _words(exc: BaseException) -> str:
    text = str(exc)
    if _is_busy(exc):
        return "资料库正被另一个程序占用"
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return "资料库文件已损坏"
    return f"资料库无法使用（{text}）"


def open_library(path: Path, busy_timeout_s: float | None = None, read_only: bool = False) -> Library:
    """Open (and create, or bring up to date) the library at ``path``; ``LibraryError`` when it cannot
    be used: locked beyond the busy timeout (``BUSY_TIMEOUT_S``), not a database, or of a newer schema.
    ``read_only``: open it for reading alone, as it is (on a read-only drive too), never changed."""
    busy_timeout_s = BUSY_TIMEOUT_S if busy_timeout_s is None else busy_timeout_s
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
        raise LibraryError(_words(exc)) from exc
    except LibraryError:
        conn.close()
        raise
    return Library(path, conn)


def _open_read_only(path: Path) -> Library:
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
        return Library(path, conn)
    raise LibraryError(_words(problem) if problem is not None else f"无法打开资料库 {path}")


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


_TERMS = 50  # hashes looked up by one query (a compound SELECT: SQLite allows 500 terms)


@functools.cache
def _postings_sql(terms: int, leave_out: bool) -> str:
    """One query of ``terms`` hashes: each hash's first places by the primary key's order, as one
    lookup of that hash alone gives them, then those of the files in ``left_out`` dropped."""
    where = " WHERE file_id NOT IN left_out" if leave_out else ""
    term = (
        "SELECT * FROM (SELECT ? AS hash, file_id, pos FROM kgrams WHERE hash = ? "
        f"ORDER BY file_id, pos LIMIT ?){where}"
    )
    return " UNION ALL ".join([term] * terms)


def _postings_args(hashes: Sequence[int], limit: int) -> list[int]:
    return [value for h in hashes for value in (h, h, limit)]


def _made(bid: StoredBid | PendingBid) -> StoredBid:
    return bid.make() if isinstance(bid, PendingBid) else bid


def _int64(value: int) -> int:
    """A 64-bit SimHash as SQLite's signed integer."""
    return value - (1 << 64) if value >= 1 << 63 else value


class Library:
    """An open library. Every method may raise ``LibraryError``; writes are one transaction each."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn

    def close(self) -> None:
        """Copy what this connection wrote from the log into the file, and close (the file stays)."""
        with contextlib.suppress(sqlite3.Error):  # another reader holds the log: a later close copies it
            self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        self._conn.close()

    def set_cache_mb(self, megabytes: int) -> None:
        """Let this connection cache this much of the file (a bulk build goes faster)."""
        self._conn.execute(f"PRAGMA cache_size = {-1000 * int(megabytes)}")

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        try:
            yield self._conn
        except sqlite3.Error as exc:
            raise LibraryError(_words(exc)) from exc

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (``BEGIN IMMEDIATE``: a second writer waits its turn)."""
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise LibraryError(_words(exc)) from exc
        try:
            yield self._conn
            self._conn.execute("COMMIT")
        except BaseException as exc:
            self._conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise LibraryError(_words(exc)) from exc
            raise

    # reading

    def counts(self, kind: str = "section", besides: str = "") -> tuple[int, int]:
        """How many sections of a kind (other than ``besides``), and how many bids they hold."""
        with self._reading() as db:
            sections = db.execute(
                "SELECT count(*) FROM sections WHERE kind = ? AND name != ?", (kind, besides)
            ).fetchone()[0]
            bids = db.execute(
                "SELECT count(*) FROM files JOIN sections s ON s.id = section_id "
                "WHERE s.kind = ? AND s.name != ? AND role = 'bid'",
                (kind, besides),
            ).fetchone()[0]
        return int(sections), int(bids)

    def postings(
        self, hashes: Iterable[int], limit: int, besides: str = ""
    ) -> dict[int, list[tuple[int, int]]]:
        """For each hash, of the first ``limit`` (file id, position) where stored bids hold it (by file
        id and position), those not of the section ``besides``. Looked up ``_TERMS`` hashes a query:
        one query each spent most of a 100-bid section's lookup in Python and SQLite's calls."""
        wanted = list(hashes)
        out: dict[int, list[tuple[int, int]]] = {}
        with self._reading() as db:
            leave_out = self._leave_out(db, besides)
            for n in range(0, len(wanted), _TERMS):
                chunk = wanted[n : n + _TERMS]
                for h, file_id, pos in db.execute(
                    _postings_sql(len(chunk), leave_out), _postings_args(chunk, limit)
                ):
                    out.setdefault(h, []).append((file_id, pos))
        return out

    @staticmethod
    def _leave_out(db: sqlite3.Connection, name: str) -> bool:
        """Put the ids of a section's files in the temporary table ``left_out``; whether there are any."""
        rows = db.execute(
            "SELECT f.id FROM files f JOIN sections s ON s.id = f.section_id WHERE s.name = ?", (name,)
        ).fetchall()
        db.execute("CREATE TEMP TABLE IF NOT EXISTS left_out (id INTEGER PRIMARY KEY)")
        db.execute("DELETE FROM left_out")
        db.executemany("INSERT INTO left_out VALUES (?)", rows)
        return bool(rows)

    def files(self, ids: Iterable[int]) -> dict[int, StoredFile]:
        """The stored files with these ids."""
        wanted = sorted(set(ids))
        out: dict[int, StoredFile] = {}
        with self._reading() as db:
            for n in range(0, len(wanted), 500):
                chunk = wanted[n : n + 500]
                marks = ",".join("?" * len(chunk))
                rows = db.execute(
                    "SELECT f.id, s.name, f.name, f.bidder, f.role, f.chars, f.places, f.text "
                    f"FROM files f JOIN sections s ON s.id = f.section_id WHERE f.id IN ({marks})",
                    chunk,
                ).fetchall()
                for fid, section, name, bidder, role, chars, places, text in rows:
                    table = np.frombuffer(places, dtype=np.int32).reshape(-1, 3)
                    empty = np.zeros(0, dtype=np.int64)
                    bp = BidPrint(empty, empty.astype(np.int32), table, chars)
                    out[fid] = StoredFile(fid, section, name, bidder, role, chars, bp, text)
        return out

    def hash_sets(self, ids: Iterable[int]) -> list[tuple[str, str, npt.NDArray[np.int64]]]:
        """For each stored bid of these ids: its section, its name and the set of its winnowed hashes."""
        wanted = sorted(set(ids))
        marks = ",".join("?" * len(wanted))
        with self._reading() as db:
            rows = db.execute(
                "SELECT s.name, f.name, f.hashes FROM files f JOIN sections s ON s.id = f.section_id "
                f"WHERE f.id IN ({marks}) AND f.role = 'bid' ORDER BY f.id",
                wanted,
            ).fetchall()
        return [(str(sec), str(name), distinct(np.frombuffer(h, dtype=np.int64))) for sec, name, h in rows]

    def owners(self, file_ids: Iterable[int]) -> dict[int, tuple[str, str]]:
        """For each stored bid of these ids: its section's name and its bidder."""
        out: dict[int, tuple[str, str]] = {}
        wanted = sorted(set(file_ids))
        with self._reading() as db:
            for n in range(0, len(wanted), 500):
                chunk = wanted[n : n + 500]
                marks = ",".join("?" * len(chunk))
                for fid, section, bidder in db.execute(
                    "SELECT f.id, s.name, f.bidder FROM files f JOIN sections s ON s.id = f.section_id "
                    f"WHERE f.id IN ({marks}) AND f.role = 'bid'",
                    chunk,
                ):
                    out[fid] = (str(section), str(bidder))
        return out

    def high_together(self, bidders: Sequence[str], besides: str) -> dict[frozenset[str], list[str]]:
        """For each two of these bidders found ``high`` together in a stored section (other than
        ``besides``), the names of those sections."""
        out: dict[frozenset[str], list[str]] = {}
        if not bidders:
            return out
        marks = ",".join("?" * len(bidders))
        with self._reading() as db:
            rows = db.execute(
                "SELECT s.name, p.bidder_a, p.bidder_b FROM pair_levels p "
                "JOIN sections s ON s.id = p.section_id WHERE p.level = 'high' AND s.name != ? "
                f"AND p.bidder_a IN ({marks}) AND p.bidder_b IN ({marks}) "
                "ORDER BY s.checked, s.name",
                (besides, *bidders, *bidders),
            ).fetchall()
        for section, a, b in rows:
            names = out.setdefault(frozenset((a, b)), [])
            if section not in names:
                names.append(section)
        return out

    def value_holders(self, values: Sequence[int], besides: str) -> dict[int, tuple[int, int]]:
        """For each of the hashed sign values that bids of other sections (than ``besides``) hold: how
        many bidders and how many sections."""
        out: dict[int, tuple[int, int]] = {}
        with self._reading() as db:
            for start in range(0, len(values), _VALUES_ASKED):
                chunk = list(values[start : start + _VALUES_ASKED])
                marks = ",".join("?" * len(chunk))
                rows = db.execute(
                    "SELECT v.hash, COUNT(DISTINCT f.bidder), COUNT(DISTINCT f.section_id) "
                    "FROM sign_values v JOIN files f ON f.id = v.file_id "
                    "JOIN sections s ON s.id = f.section_id "
                    f"WHERE v.hash IN ({marks}) AND s.name != ? AND s.kind = 'section' "
                    "AND f.role = 'bid' GROUP BY v.hash",
                    [*chunk, besides],
                ).fetchall()
                out.update({int(h): (int(b), int(n)) for h, b, n in rows})
        return out

    def template_texts(self) -> list[tuple[str, str]]:
        """The model documents kept in the library: (name, blocks as JSON)."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT f.name, f.text FROM files f JOIN sections s ON s.id = f.section_id "
                "WHERE s.kind = 'templates' AND f.text IS NOT NULL ORDER BY f.id"
            ).fetchall()
        return [(str(name), str(text)) for name, text in rows]

    def sections(self) -> list[SectionRow]:
        """Every stored section, oldest first."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT s.name, s.kind, s.checked, count(f.id), group_concat(f.bidder, char(31)) "
                "FROM sections s LEFT JOIN files f ON f.section_id = s.id "
                "AND f.role = CASE s.kind WHEN 'templates' THEN 'template' ELSE 'bid' END "
                "GROUP BY s.id ORDER BY s.checked, s.id"
            ).fetchall()
        return [
            SectionRow(name, kind, checked, files, tuple(sorted(set((bidders or "").split("\x1f")) - {""})))
            for name, kind, checked, files, bidders in rows
        ]

    def section_files(self, name: str) -> list[tuple[str, str, str, int, str]]:
        """The files of one section: (name, bidder, role, chars, digest)."""
        with self._reading() as db:
            return db.execute(
                "SELECT f.name, f.bidder, f.role, f.chars, f.digest FROM files f JOIN sections s "
                "ON s.id = f.section_id WHERE s.name = ? ORDER BY f.id",
                (name,),
            ).fetchall()

    def section_pairs(self, name: str) -> list[tuple[str, str, str]]:
        """The raised pairs of one section: (bidder, bidder, level)."""
        with self._reading() as db:
            return db.execute(
                "SELECT p.bidder_a, p.bidder_b, p.level FROM pair_levels p JOIN sections s "
                "ON s.id = p.section_id WHERE s.name = ? ORDER BY p.rowid",
                (name,),
            ).fetchall()

    def groups(self) -> list[tuple[int, list[tuple[str, str]]]]:
        """The whole-document groups of two or more stored bids: (group, [(section, document)])."""
        with self._reading() as db:
            return stored_groups(db)

    def size_figures(self) -> dict[str, int]:
        """Rows and bytes: for ``library stats``."""
        with self._reading() as db:
            kgrams = db.execute("SELECT count(*) FROM kgrams").fetchone()[0]
            pages = db.execute("PRAGMA page_count").fetchone()[0]
            page_size = db.execute("PRAGMA page_size").fetchone()[0]
            free = db.execute("PRAGMA freelist_count").fetchone()[0]
        return {"kgrams": int(kgrams), "bytes": int((pages - free) * page_size)}

    # writing

    def store_section(
        self,
        name: str,
        bids: Sequence[StoredBid | PendingBid],
        pair_levels: Sequence[tuple[str, str, str]] = (),
        kind: str = "section",
    ) -> None:
        """Store a section (replacing any section of that name): its files, fingerprints and raised pairs.

        A section stored again keeps the rows of its files whose key (``FileKey``) is unchanged, removes
        those of files gone or changed and adds the others: the same library as removing the section
        and storing it whole, at the cost of what changed (file ids and group numbers aside)."""
        checked = time.strftime("%Y-%m-%d %H:%M:%S")
        keys = [_key(bid) for bid in bids]
        made = self._make_missing(name, kind, bids, keys)  # before the write lock: it takes a while
        with self._writing() as db:
            section, stored = self._section_for(db, name, kind, checked)
            kept = _kept_ids(stored, keys)
            self._remove_files(db, sorted(set(fid for fid, _ in stored) - set(kept)))
            ids = [
                self._insert_file(db, section, made.get(n) or _made(bids[n]))
                for n, fid in enumerate(kept)
                if fid is None
            ]
            assign_groups(db, ids)
            db.execute("DELETE FROM pair_levels WHERE section_id = ?", (section,))
            db.executemany(
                "INSERT INTO pair_levels (section_id, bidder_a, bidder_b, level) VALUES (?, ?, ?, ?)",
                [(section, a, b, level) for a, b, level in pair_levels],
            )

    def _make_missing(
        self, name: str, kind: str, bids: Sequence[StoredBid | PendingBid], keys: Sequence[FileKey]
    ) -> dict[int, StoredBid]:
        """The pending files (by position) that the stored section does not hold unchanged, made."""
        with self._reading() as db:
            stored = self._stored_keys(db, name, kind)
        kept = _kept_ids(stored, keys)
        return {
            n: _made(bids[n]) for n, fid in enumerate(kept) if fid is None and isinstance(bids[n], PendingBid)
        }

    @staticmethod
    def _stored_keys(db: sqlite3.Connection, name: str, kind: str) -> list[tuple[int, FileKey]]:
        """(id, key) of the files of the stored section of this name and kind."""
        rows = db.execute(
            "SELECT f.id, f.name, f.digest, f.bidder, f.role, f.chars, f.metadata, f.shape FROM files f "
            "JOIN sections s ON s.id = f.section_id WHERE s.name = ? AND s.kind = ? ORDER BY f.id",
            (name, kind),
        ).fetchall()
        return [(int(r[0]), FileKey(*r[1:])) for r in rows]

    def _section_for(
        self, db: sqlite3.Connection, name: str, kind: str, checked: str
    ) -> tuple[int, list[tuple[int, FileKey]]]:
        """The section's id and its stored files' keys: the stored section of this name brought to
        ``checked`` (one of another kind removed first), or a new one."""
        row = db.execute("SELECT id, kind FROM sections WHERE name = ?", (name,)).fetchone()
        if row is not None and row[1] == kind:
            db.execute("UPDATE sections SET checked = ? WHERE id = ?", (checked, row[0]))
            return int(row[0]), self._stored_keys(db, name, kind)
        self._remove(db, name)
        section = db.execute(
            "INSERT INTO sections (name, kind, checked) VALUES (?, ?, ?)", (name, kind, checked)
        ).lastrowid
        return int(section or 0), []

    @staticmethod
    def _insert_file(db: sqlite3.Connection, section: int, bid: StoredBid) -> int:
        p = bid.print
        file_id = db.execute(
            "INSERT INTO files (section_id, name, digest, bidder, role, chars, simhash, metadata, places, "
            "hashes, text, bands, shape) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                section,
                bid.name,
                bid.digest,
                bid.bidder,
                bid.role,
                bid.chars,
                _int64(bid.simhash),
                json.dumps(bid.metadata, ensure_ascii=False),
                p.places.astype(np.int32).tobytes(),
                p.hashes.astype(np.int64).tobytes(),
                bid.text,
                None if bid.bands is None else bid.bands.astype(np.uint32).tobytes(),
                bid.shape,
            ),
        ).lastrowid
        rows = zip(p.hashes.tolist(), [file_id] * len(p.hashes), p.positions.tolist(), strict=True)
        db.executemany("INSERT OR IGNORE INTO kgrams (hash, file_id, pos) VALUES (?, ?, ?)", rows)
        values = [(value, file_id) for value in sorted(set(bid.values))]
        db.executemany("INSERT OR IGNORE INTO sign_values (hash, file_id) VALUES (?, ?)", values)
        return int(file_id or 0)

    def regroup(self, hamming: int = HAMMING) -> None:
        """Group every stored bid again, SimHashes at most ``hamming`` bits apart (kept for later ones)."""
        with self._writing() as db:
            regroup(db, hamming)

    def rename(self, name: str, new: str) -> str:
        """Give a stored section a new name: "" when done, else why not (no such section, or the new
        name another section's)."""
        with self._writing() as db:
            if db.execute("SELECT 1 FROM sections WHERE name = ?", (name,)).fetchone() is None:
                return f"资料库中没有标段 {name}"
            if new != name and db.execute("SELECT 1 FROM sections WHERE name = ?", (new,)).fetchone():
                return f"资料库中已有标段 {new}，请换一个名称"
            db.execute("UPDATE sections SET name = ? WHERE name = ?", (new, name))
        return ""

    def remove(self, name: str) -> bool:
        """Remove a section and every trace of it (its pages overwritten); whether it was there."""
        with self._writing() as db:
            found = self._remove(db, name)
        with self._reading() as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return found

    @classmethod
    def _remove(cls, db: sqlite3.Connection, name: str) -> bool:
        row = db.execute("SELECT id FROM sections WHERE name = ?", (name,)).fetchone()
        if row is None:
            return False
        cls._remove_files(
            db, [fid for (fid,) in db.execute("SELECT id FROM files WHERE section_id = ?", row)]
        )
        db.execute("DELETE FROM sections WHERE id = ?", row)
        return True

    @staticmethod
    def _remove_files(db: sqlite3.Connection, file_ids: Sequence[int]) -> None:
        """Remove files and their hashes; the groups they were in are grouped again."""
        touched: set[int] = set()
        for file_id in file_ids:
            hashes, grp = db.execute("SELECT hashes, grp FROM files WHERE id = ?", (file_id,)).fetchone()
            rows = [(h, file_id) for h in np.frombuffer(hashes, dtype=np.int64).tolist()]
            db.executemany("DELETE FROM kgrams WHERE hash = ? AND file_id = ?", rows)
            db.execute("DELETE FROM sign_values WHERE file_id = ?", (file_id,))
            db.execute("DELETE FROM files WHERE id = ?", (file_id,))
            if grp is not None:
                touched.add(int(grp))
        if touched:  # a removed bid may have joined its group's others: they are grouped again
            regroup(db, groups=sorted(touched))

    def export(self, target: Path) -> None:
        """Write a consistent copy of the whole library to ``target`` (replaced if there)."""
        temp = target.with_name(f".{target.name}.part")
        temp.unlink(missing_ok=True)
        try:
            copy = sqlite3.connect(temp)
            try:
                self._conn.backup(copy)
            finally:
                copy.close()
            temp.replace(target)
        except (OSError, sqlite3.Error) as exc:
            temp.unlink(missing_ok=True)
            raise LibraryError(f"无法导出到 {target}：{exc}") from exc

    def import_from(self, source: Path) -> list[str]:
        """Add the sections of another library file (a section of the same name is replaced)."""
        try:
            open_library(source).close()  # a library of a schema this program reads, brought up to date
        except LibraryError as exc:  # said of the file imported, not of this library
            raise LibraryError(f"无法导入 {source}：{exc}") from exc
        try:
            self._conn.execute("ATTACH DATABASE ? AS other", (str(source),))
        except sqlite3.Error as exc:
            raise LibraryError(_words(exc)) from exc
        try:
            with self._writing() as db:
                return self._copy_sections(db)
        finally:
            self._conn.execute("DETACH DATABASE other")

    def _copy_sections(self, db: sqlite3.Connection) -> list[str]:
        db.execute("CREATE TEMP TABLE IF NOT EXISTS file_map (old INTEGER PRIMARY KEY, new INTEGER)")
        db.execute("DELETE FROM file_map")
        names = []
        columns = "name, digest, bidder, role, chars, simhash, metadata, places, hashes, text, bands, shape"
        for old, name, kind, checked in db.execute("SELECT id, name, kind, checked FROM other.sections"):
            self._remove(db, name)
            new = db.execute(
                "INSERT INTO sections (name, kind, checked) VALUES (?, ?, ?)", (name, kind, checked)
            ).lastrowid
            for (file_id,) in db.execute(
                "SELECT id FROM other.files WHERE section_id = ?", (old,)
            ).fetchall():
                copied = db.execute(
                    f"INSERT INTO files (section_id, {columns}) "
                    f"SELECT ?, {columns} FROM other.files WHERE id = ?",
                    (new, file_id),
                ).lastrowid
                db.execute("INSERT INTO file_map VALUES (?, ?)", (file_id, copied))
            db.execute(
                "INSERT INTO pair_levels (section_id, bidder_a, bidder_b, level) "
                "SELECT ?, bidder_a, bidder_b, level FROM other.pair_levels WHERE section_id = ?",
                (new, old),
            )
            names.append(str(name))
        db.execute(
            "INSERT OR IGNORE INTO kgrams (hash, file_id, pos) "
            "SELECT k.hash, m.new, k.pos FROM other.kgrams k JOIN file_map m ON m.old = k.file_id"
        )
        db.execute(
            "INSERT OR IGNORE INTO sign_values (hash, file_id) "
            "SELECT v.hash, m.new FROM other.sign_values v JOIN file_map m ON m.old = v.file_id"
        )
        assign_groups(db, [new for (new,) in db.execute("SELECT new FROM file_map ORDER BY new")])
        return names
