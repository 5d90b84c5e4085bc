"""The library's rows written on one connection inside a transaction: a section's files with their
hashes and sign values, added, removed, or copied from another library file."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

import numpy as np

from bidcheck.library.groups import assign_groups, regroup
from bidcheck.library.records import FileKey, StoredBid

__all__ = ["copy_sections", "insert_file", "remove_files", "remove_section", "section_for", "stored_keys"]


def _int64(value: int) -> int:
    """A 64-bit SimHash as SQLite's signed integer."""
    return value - (1 << 64) if value >= 1 << 63 else value


def stored_keys(db: sqlite3.Connection, name: str, kind: str) -> list[tuple[int, FileKey]]:
    """(id, key) of the files of the stored section of this name and kind."""
    rows = db.execute(
        "SELECT f.id, f.name, f.digest, f.bidder, f.role, f.chars, f.metadata, f.shape FROM files f "
        "JOIN sections s ON s.id = f.section_id WHERE s.name = ? AND s.kind = ? ORDER BY f.id",
        (name, kind),
    ).fetchall()
    return [(int(r[0]), FileKey(*r[1:])) for r in rows]


def section_for(
    db: sqlite3.Connection, name: str, kind: str, checked: str
) -> tuple[int, list[tuple[int, FileKey]]]:
    """The section's id and its stored files' keys: the stored section of this name brought to
    ``checked`` (one of another kind removed first), or a new one."""
    row = db.execute("SELECT id, kind FROM sections WHERE name = ?", (name,)).fetchone()
    if row is not None and row[1] == kind:
        db.execute("UPDATE sections SET checked = ? WHERE id = ?", (checked, row[0]))
        return int(row[0]), stored_keys(db, name, kind)
    remove_section(db, name)
    section = db.execute(
        "INSERT INTO sections (name, kind, checked) VALUES (?, ?, ?)", (name, kind, checked)
    ).lastrowid
    return int(section or 0), []


def insert_file(db: sqlite3.Connection, section: int, bid: StoredBid) -> int:
    """Add a file of a section with its hashes and sign values: its id."""
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


def remove_section(db: sqlite3.Connection, name: str) -> bool:
    """Remove the section of this name and its files: whether it was there."""
    row = db.execute("SELECT id FROM sections WHERE name = ?", (name,)).fetchone()
    if row is None:
        return False
    remove_files(db, [fid for (fid,) in db.execute("SELECT id FROM files WHERE section_id = ?", row)])
    db.execute("DELETE FROM sections WHERE id = ?", row)
    return True


def remove_files(db: sqlite3.Connection, file_ids: Sequence[int]) -> None:
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


def copy_sections(db: sqlite3.Connection) -> list[str]:
    """Copy every section of the attached library ``other`` into this one (one of the same name replaced):
    their names."""
    db.execute("CREATE TEMP TABLE IF NOT EXISTS file_map (old INTEGER PRIMARY KEY, new INTEGER)")
    db.execute("DELETE FROM file_map")
    names = []
    columns = "name, digest, bidder, role, chars, simhash, metadata, places, hashes, text, bands, shape"
    for old, name, kind, checked in db.execute("SELECT id, name, kind, checked FROM other.sections"):
        remove_section(db, name)
        new = db.execute(
            "INSERT INTO sections (name, kind, checked) VALUES (?, ?, ?)", (name, kind, checked)
        ).lastrowid
        for (file_id,) in db.execute("SELECT id FROM other.files WHERE section_id = ?", (old,)).fetchall():
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
