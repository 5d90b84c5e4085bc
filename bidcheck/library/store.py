"""The library: reading and writing its sections in one SQLite file (``schema``), every write one
transaction.
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import distinct
from bidcheck.library.groups import HAMMING, assign_groups, regroup, stored_groups
from bidcheck.library.prints import BidPrint
from bidcheck.library.records import (
    FileKey,
    PendingBid,
    SectionRow,
    StoredBid,
    StoredFile,
    file_key,
    kept_ids,
    made_bid,
)
from bidcheck.library.rows import (
    copy_sections,
    insert_file,
    remove_files,
    remove_section,
    section_for,
    stored_keys,
)
from bidcheck.library.schema import SCHEMA_VERSION, LibraryError, connect, default_library_path, error_words

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

_VALUES_ASKED = 500  # hashed values asked at once (SQLite's bound parameters)
BUSY_TIMEOUT_S = 10.0


def open_library(path: Path, busy_timeout_s: float | None = None, read_only: bool = False) -> Library:
    """Open (and create, or bring up to date) the library at ``path``; ``LibraryError`` when it cannot
    be used: locked beyond the busy timeout (``BUSY_TIMEOUT_S``), not a database, or of a newer schema.
    ``read_only``: open it for reading alone, as it is (on a read-only drive too), never changed."""
    timeout = BUSY_TIMEOUT_S if busy_timeout_s is None else busy_timeout_s
    return Library(path, connect(path, timeout, read_only))


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
            raise LibraryError(error_words(exc)) from exc

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (``BEGIN IMMEDIATE``: a second writer waits its turn)."""
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise LibraryError(error_words(exc)) from exc
        try:
            yield self._conn
            self._conn.execute("COMMIT")
        except BaseException as exc:
            self._conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise LibraryError(error_words(exc)) from exc
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
        keys = [file_key(bid) for bid in bids]
        made = self._make_missing(name, kind, bids, keys)  # before the write lock: it takes a while
        with self._writing() as db:
            section, stored = section_for(db, name, kind, checked)
            kept = kept_ids(stored, keys)
            remove_files(db, sorted(set(fid for fid, _ in stored) - set(kept)))
            ids = [
                insert_file(db, section, made.get(n) or made_bid(bids[n]))
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
            stored = stored_keys(db, name, kind)
        kept = kept_ids(stored, keys)
        return {
            n: made_bid(bids[n])
            for n, fid in enumerate(kept)
            if fid is None and isinstance(bids[n], PendingBid)
        }

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
            found = remove_section(db, name)
        with self._reading() as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return found

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
            raise LibraryError(error_words(exc)) from exc
        try:
            with self._writing() as db:
                return copy_sections(db)
        finally:
            self._conn.execute("DETACH DATABASE other")
