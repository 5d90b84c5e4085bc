"""Whole-document groups (堆号): documents whose 64-bit SimHashes differ in at most ``hamming`` bits,
joined into connected groups.

Pigeonhole: split the 64 bits into ``hamming + 1`` bands; two hashes at most ``hamming`` bits apart agree
in at least one band. So the candidates are the documents that share a band value (one sort per band),
and each candidate pair is verified by its exact Hamming distance. The library keeps the group of every
stored bid (but those without a word SimHash could weigh: their SimHash is 0 and says nothing) and, with
the default ``hamming`` of 3 (four 16-bit bands, one SQLite index each), assigns a new section's bids to
groups without recomputing the others.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bidcheck.graph import components

__all__ = [
    "HAMMING",
    "assign_groups",
    "band_edges",
    "band_masks",
    "brute_force_labels",
    "components",
    "regroup",
    "simhash_labels",
    "stored_groups",
]

HAMMING = 3  # bits two SimHashes of near-identical documents may differ in
_U64 = np.uint64
_MASK64 = (1 << 64) - 1
_INDEXED = 4  # 16-bit bands with an index in the library (store.py, migration 2)
Ints = npt.NDArray[np.int64]


def band_masks(hamming: int) -> list[tuple[int, int]]:
    """(shift, mask) of each of ``hamming + 1`` bands that together cover the 64 bits."""
    count = hamming + 1
    edges = [round(64 * n / count) for n in range(count + 1)]
    return [(lo, (1 << (hi - lo)) - 1) for lo, hi in itertools.pairwise(edges)]


def _near_in_band(
    hashes: npt.NDArray[np.uint64], keys: npt.NDArray[np.uint64], hamming: int
) -> tuple[Ints, Ints]:
    """Pairs of positions with equal ``keys`` whose hashes are at most ``hamming`` bits apart, every
    such pair once: the hashes sorted by key, each compared with the next ones of its run of equal keys."""
    order = np.argsort(keys, kind="stable")
    ordered = hashes[order]
    bounds = np.flatnonzero(np.diff(keys[order])) + 1
    lengths = np.diff(np.concatenate([[0], bounds, [len(keys)]]))
    run_end = np.repeat(np.append(bounds, len(keys)), lengths)
    firsts, seconds = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
    step = 1
    live = np.flatnonzero(run_end - np.arange(len(keys)) > step)
    while len(live):
        hits = live[np.bitwise_count(ordered[live] ^ ordered[live + step]) <= hamming]
        firsts.append(order[hits].astype(np.int64))
        seconds.append(order[hits + step].astype(np.int64))
        step += 1
        live = live[run_end[live] - live > step]
    return np.concatenate(firsts), np.concatenate(seconds)


def band_edges(hashes: npt.NDArray[np.uint64], hamming: int = HAMMING) -> tuple[Ints, Ints]:
    """Pairs (i, j) of distinct hashes at most ``hamming`` bits apart (``hashes`` without repeats)."""
    found = [
        _near_in_band(hashes, (hashes >> _U64(shift)) & _U64(mask), hamming)
        for shift, mask in band_masks(hamming)
    ]
    return np.concatenate([a for a, _ in found]), np.concatenate([b for _, b in found])


def simhash_labels(hashes: npt.NDArray[np.uint64], hamming: int = HAMMING) -> Ints:
    """A label for each hash: hashes at most ``hamming`` bits apart, and so transitively, have equal
    labels (the index of one member of the group)."""
    unique, inverse = np.unique(hashes.astype(_U64), return_inverse=True)
    a, b = band_edges(unique, hamming)
    labels = components(len(unique), a, b)
    first = np.full(len(unique), len(hashes), dtype=np.int64)
    np.minimum.at(first, inverse.ravel(), np.arange(len(hashes)))
    return first[labels][inverse.ravel()]


def brute_force_labels(hashes: npt.NDArray[np.uint64], hamming: int = HAMMING) -> Ints:
    """The same groups as ``simhash_labels`` from every pair's Hamming distance (for checking it)."""
    hashes = hashes.astype(_U64)
    found_a, found_b = [], []
    for start in range(0, len(hashes), 1024):
        block = hashes[start : start + 1024]
        near = np.bitwise_count(block[:, None] ^ hashes[None, :]) <= hamming
        rows, columns = np.nonzero(near)
        found_a.append(rows + start)
        found_b.append(columns)
    a = np.concatenate(found_a) if found_a else np.zeros(0, np.int64)
    b = np.concatenate(found_b) if found_b else np.zeros(0, np.int64)
    return components(len(hashes), a.astype(np.int64), b.astype(np.int64))


# -- in the library --------------------------------------------------------------------------------------


def _unsigned(values: Sequence[int]) -> npt.NDArray[np.uint64]:
    return np.asarray(values, dtype=np.int64).view(_U64)


def _hamming(db: sqlite3.Connection) -> int:
    row = db.execute("SELECT value FROM meta WHERE key = 'group_hamming'").fetchone()
    return int(row[0]) if row else HAMMING


def _next_group(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT coalesce(max(grp), 0) + 1 FROM files").fetchone()[0])


def _write_labels(db: sqlite3.Connection, ids: Sequence[int], labels: Ints, keep: Sequence[int]) -> None:
    """Number the groups of ``ids`` (by ``labels``): the first groups take the numbers in ``keep``, the
    others new ones."""
    numbers: dict[int, int] = {}
    spare = list(keep)
    fresh = _next_group(db)
    for label in labels.tolist():
        if label in numbers:
            continue
        if spare:
            numbers[label] = spare.pop(0)
        else:
            numbers[label], fresh = fresh, fresh + 1
    db.executemany(
        "UPDATE files SET grp = ? WHERE id = ?",
        [(numbers[label], fid) for fid, label in zip(ids, labels.tolist(), strict=True)],
    )


def regroup(db: sqlite3.Connection, hamming: int | None = None, groups: Sequence[int] | None = None) -> None:
    """Compute the groups again: of every stored bid (and remember ``hamming``), or only of the bids in
    ``groups`` (after some of their members were removed), which keep their numbers where they can."""
    if groups is None:
        hamming = HAMMING if hamming is None else hamming
        db.execute("INSERT OR REPLACE INTO meta VALUES ('group_hamming', ?)", (str(hamming),))
        db.execute("UPDATE files SET grp = NULL")
        rows = db.execute(
            "SELECT id, simhash FROM files WHERE role = 'bid' AND simhash != 0 ORDER BY id"
        ).fetchall()
        keep: list[int] = []
    else:
        hamming = _hamming(db)
        marks = ",".join("?" * len(groups))
        rows = db.execute(
            f"SELECT id, simhash FROM files WHERE role = 'bid' AND grp IN ({marks}) ORDER BY id", groups
        ).fetchall()
        keep = sorted(groups)
    if rows:
        ids = [r[0] for r in rows]
        _write_labels(db, ids, simhash_labels(_unsigned([r[1] for r in rows]), hamming), keep)


# the expressions of the library's band indexes (store.py, migration 2), written as there so SQLite uses them
_BAND_SQL = (
    "simhash & 65535",
    "(simhash >> 16) & 65535",
    "(simhash >> 32) & 65535",
    "(simhash >> 48) & 65535",
)
_NEIGHBOURS_SQL = " UNION ".join(
    f"SELECT id, simhash, grp FROM files WHERE role = 'bid' AND {band} = ?" for band in _BAND_SQL
)


def _neighbours(db: sqlite3.Connection, simhash: int, hamming: int) -> list[tuple[int, int | None]]:
    """(id, group) of the stored bids at most ``hamming`` bits from ``simhash``, through the band indexes."""
    rows = db.execute(_NEIGHBOURS_SQL, [(simhash >> (16 * n)) & 65535 for n in range(_INDEXED)]).fetchall()
    mine = simhash & _MASK64
    return [(fid, grp) for fid, other, grp in rows if (mine ^ (other & _MASK64)).bit_count() <= hamming]


def assign_groups(db: sqlite3.Connection, file_ids: Sequence[int]) -> None:
    """Put newly stored bids into the groups of the stored bids near them (joining groups a new bid
    bridges), or into new groups: the other bids keep their groups."""
    hamming = _hamming(db)
    if hamming > _INDEXED - 1:  # more bands than the library indexes: the whole index is rebuilt
        regroup(db, hamming)
        return
    for fid in file_ids:
        row = db.execute(
            "SELECT simhash FROM files WHERE id = ? AND role = 'bid' AND simhash != 0", (fid,)
        ).fetchone()
        if row is None:
            continue
        found = {grp for _fid, grp in _neighbours(db, int(row[0]), hamming) if grp is not None}
        target = min(found) if found else _next_group(db)
        if len(found) > 1:
            marks = ",".join("?" * len(found))
            db.execute(f"UPDATE files SET grp = ? WHERE grp IN ({marks})", (target, *sorted(found)))
        db.execute("UPDATE files SET grp = ? WHERE id = ?", (target, fid))


def stored_groups(db: sqlite3.Connection) -> list[tuple[int, list[tuple[str, str]]]]:
    """The library's groups of two or more bids: (group, [(section, document)]), by group number."""
    rows = db.execute(
        "SELECT f.grp, s.name, f.name FROM files f JOIN sections s ON s.id = f.section_id "
        "WHERE f.role = 'bid' AND f.grp IN (SELECT grp FROM files WHERE role = 'bid' AND grp IS NOT NULL "
        "GROUP BY grp HAVING count(*) > 1) ORDER BY f.grp, f.id"
    ).fetchall()
    out: list[tuple[int, list[tuple[str, str]]]] = []
    for grp, section, name in rows:
        if not out or out[-1][0] != grp:
            out.append((int(grp), []))
        out[-1][1].append((str(section), str(name)))
    return out
