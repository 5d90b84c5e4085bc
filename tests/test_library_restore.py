"""The library's part of a check costs what changed: hashes looked up in bulk give each hash's places
as one lookup per hash did (and so the same history, public text and answers), and a section stored
again keeps the rows of its unchanged files and is then the same library as one that stored it whole."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bidcheck.config import Settings
from bidcheck.library import consult, histories, history, open_library, store_result
from bidcheck.library.history import POSTINGS_LIMIT, Consulted, prefetch
from bidcheck.library.schema import _MIGRATIONS, SCHEMA_VERSION
from bidcheck.library.store import Library
from bidcheck.model import CheckResult
from bidcheck.pipeline import CheckInputs, check
from bidcheck.prepare import prepare_cached
from tests.test_library import prose, write_bid

_SETTINGS = Settings(workers=1)


def _section_texts(n: int, model: list[str], draft: list[str]) -> dict[str, list[str]]:
    """Six bids of section ``n``: three include a model text (public once enough sections hold it),
    two share a draft with section 1's, and one is a near copy of the first."""
    bids = {}
    for b in range(6):
        body = prose(n * 100 + b, 24)
        if b in (2, 3, 4):
            body = body[:2] + model + body[2:]
        if b == 1:
            body = body[:3] + draft + body[3:]
        bids[f"0{b + 1}-乙{n}{b}" if b else f"01-甲{n}"] = body
    bids[f"07-丙{n}"] = [*bids[f"01-甲{n}"][:-1], "补充说明一句。"]
    return bids


def _write_section(folder: Path, bids: dict[str, list[str]]) -> Path:
    for name, body in bids.items():
        write_bid(folder, name, body)
    return folder


def _check_and_store(library: Library, folder: Path, name: str) -> CheckResult:
    result = check(CheckInputs((folder,)), _SETTINGS, library=library, section=name)
    store_result(library, name, result, _SETTINGS)
    return result


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A library of four sections sharing a model text (public after three) and a draft."""
    tmp = tmp_path_factory.mktemp("restore")
    model, draft = prose(9000, 16), prose(9100, 24)
    library = open_library(tmp / "library.sqlite")
    for n in range(1, 5):
        _check_and_store(library, _write_section(tmp / f"S{n}", _section_texts(n, model, draft)), f"S{n}")
    new = _write_section(tmp / "S5", _section_texts(5, model, draft))
    return {"tmp": tmp, "library": library, "new": new}


class _OneQueryAHash:
    """The library read as before: one query per hash (its first places by the primary key), the
    places of the section checked again left for ``consult`` to drop."""

    def __init__(self, library: Library) -> None:
        self._library = library
        self.path = library.path
        self._db = sqlite3.connect(library.path)

    def postings(
        self, hashes: Sequence[int], limit: int, besides: str = ""
    ) -> dict[int, list[tuple[int, int]]]:
        out = {}
        for h in hashes:
            rows = self._db.execute(
                "SELECT file_id, pos FROM kgrams WHERE hash = ? LIMIT ?", (h, limit)
            ).fetchall()
            if rows:
                out[h] = rows
        return out

    def __getattr__(self, name: str) -> Any:
        return getattr(self._library, name)


def _bids(folder: Path) -> list[Any]:
    paths = sorted(folder.iterdir())
    return [prepare_cached(p, f"d{n}", "bid", _SETTINGS).ready for n, p in enumerate(paths, start=1)]


def _same_consulted(old: Consulted, new: Consulted) -> None:
    assert old.hits == new.hits
    assert all(np.array_equal(a, b) for a, b in zip(old.learned, new.learned, strict=True))
    assert old.files.keys() == new.files.keys()
    assert (old.sections, old.documents, old.high_together) == (
        new.sections,
        new.documents,
        new.high_together,
    )


@pytest.mark.parametrize("section", ["S5", "S2"])  # a new section, and one checked again
def test_bulk_lookup_gives_the_same_history_and_public_text(stored: dict[str, Any], section: str) -> None:
    library: Library = stored["library"]
    folder = stored["new"] if section == "S5" else stored["tmp"] / section
    bids = _bids(folder)
    old = consult(_OneQueryAHash(library), bids, section, _SETTINGS)  # type: ignore[arg-type]
    new = consult(library, bids, section, _SETTINGS)
    _same_consulted(old, new)
    masked = [np.zeros(len(b.clean.norm), dtype=bool) for b in bids]
    found = histories(new, bids, masked, _SETTINGS)
    assert found == histories(old, bids, masked, _SETTINGS)
    assert sum(len(m) for m in found.values()) >= 3  # the draft, in each other section
    assert any(mask.any() for mask in new.learned)  # the model text is public by now


def test_bulk_lookup_keeps_each_hashs_first_places(stored: dict[str, Any]) -> None:
    library: Library = stored["library"]
    bids = _bids(stored["new"])
    wanted = sorted({h for b in bids for h in consult_hashes(b)})
    reference = _OneQueryAHash(library)
    ids = {
        fid
        for (fid,) in reference._db.execute(
            "SELECT f.id FROM files f JOIN sections s ON s.id = f.section_id WHERE s.name = 'S3'"
        )
    }
    shared = 0
    for limit in (1, 2, 3, 5, POSTINGS_LIMIT):
        old = reference.postings(wanted, limit)
        assert library.postings(wanted, limit) == old
        left = {h: [p for p in places if p[0] not in ids] for h, places in old.items()}
        assert library.postings(wanted, limit, "S3") == {h: places for h, places in left.items() if places}
        shared = max(shared, max(len(places) for places in old.values()))
    assert shared > 5  # some hashes have more places than the smaller limits let through


class _StopAfter:
    """A stop flag that is set once it has been asked ``times`` times (the read ends meanwhile)."""

    def __init__(self, times: int) -> None:
        self._left = times

    def is_set(self) -> bool:
        self._left -= 1
        return self._left < 0


@pytest.mark.parametrize("section", ["S5", "S2"])
@pytest.mark.parametrize("stopped_after", [0, 2, 10_000])  # at once, midway, never
def test_lookups_made_ahead_give_what_consult_alone_gives(
    stored: dict[str, Any], section: str, stopped_after: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bids read from the cache looked up while the last is read, the lookup stopped when the read
    ends: consult answers as it does alone, looking up only what was not asked ahead."""
    monkeypatch.setattr(history, "_PREFETCH_CHUNK", 40)
    library: Library = stored["library"]
    bids = _bids(stored["new"] if section == "S5" else stored["tmp"] / section)
    ahead = prefetch(library, bids[:-1], section, _StopAfter(stopped_after))  # type: ignore[arg-type]
    wanted = {h for b in bids[:-1] for h in consult_hashes(b)}
    asked = set(ahead.asked.tolist())
    assert asked <= wanted and len(asked) == min(40 * stopped_after, len(wanted))
    assert ahead.postings.keys() <= asked
    _same_consulted(
        consult(library, bids, section, _SETTINGS), consult(library, bids, section, _SETTINGS, ahead)
    )


def consult_hashes(bid: Any) -> list[int]:
    from bidcheck.library.prints import ready_print

    return ready_print(bid).hashes.tolist()


def _contents(path: Path) -> dict[str, object]:
    """The library's tables, file ids, group numbers and times left out."""
    db = sqlite3.connect(path)
    files = "files f JOIN sections s ON s.id = f.section_id"
    columns = (
        "f.name, f.digest, f.bidder, f.role, f.chars, f.simhash, f.metadata, f.places, f.hashes, f.text, "
        "f.bands, f.shape"
    )
    groups: dict[int, set[tuple[str, str]]] = {}
    for grp, section, name in db.execute(
        f"SELECT f.grp, s.name, f.name FROM {files} WHERE f.grp IS NOT NULL"
    ):
        groups.setdefault(grp, set()).add((section, name))
    return {
        "sections": sorted(db.execute("SELECT name, kind FROM sections")),
        "files": sorted(db.execute(f"SELECT s.name, {columns} FROM {files}")),
        "kgrams": sorted(
            db.execute(
                f"SELECT s.name, f.name, k.hash, k.pos FROM kgrams k JOIN {files} AND f.id = k.file_id"
            )
        ),
        "pairs": sorted(
            db.execute(
                "SELECT s.name, bidder_a, bidder_b, level FROM pair_levels p "
                "JOIN sections s ON s.id = p.section_id"
            )
        ),
        "groups": sorted(sorted(g) for g in groups.values()),
        "orphans": db.execute(
            "SELECT count(*) FROM kgrams WHERE file_id NOT IN (SELECT id FROM files)"
        ).fetchone(),
    }


def _ids(library: Library, section: str) -> dict[str, int]:
    db = sqlite3.connect(library.path)
    rows = db.execute(
        "SELECT f.name, f.id FROM files f JOIN sections s ON s.id = f.section_id WHERE s.name = ?", (section,)
    )
    return dict(rows)


def test_storing_a_changed_section_again_rewrites_only_what_changed(tmp_path: Path) -> None:
    model, draft = prose(9200, 16), prose(9300, 24)
    texts = [_section_texts(n, model, draft) for n in range(1, 4)]
    routes = {}
    for route in ("again", "whole"):
        library = open_library(tmp_path / f"{route}.sqlite")
        for n, bids in enumerate(texts[:2], start=1):
            _check_and_store(library, _write_section(tmp_path / route / f"S{n}", bids), f"S{n}")
        folder = _write_section(tmp_path / route / "S3", texts[2])
        _check_and_store(library, folder, "S3")
        before = _ids(library, "S3")
        (folder / "02-乙31.txt").unlink()  # a bid withdrawn
        write_bid(folder, "03-乙32", prose(77, 24))  # a bid replaced by another file
        write_bid(folder, "08-丁3", texts[0]["02-乙11"])  # a late bid: a copy of section 1's
        if route == "whole":
            library.remove("S3")
        _check_and_store(library, folder, "S3")
        routes[route] = (library, before, _ids(library, "S3"))
    library, before, after = routes["again"]
    kept = {name for name, fid in after.items() if before.get(name) == fid}
    assert kept == set(before) - {"02-乙31.txt", "03-乙32.txt"}  # unchanged files keep their rows
    assert _contents(library.path) == _contents(routes["whole"][0].path)
    assert _contents(library.path)["orphans"] == (0,)
    changed = Settings(workers=1, library_keep_texts=True)  # other settings: every row made again
    result = check(CheckInputs((tmp_path / "again" / "S3",)), changed)
    store_result(library, "S3", result, changed)
    db = sqlite3.connect(library.path)
    rows = "FROM files f JOIN sections s ON s.id = f.section_id WHERE s.name = 'S3'"
    assert db.execute(f"SELECT count(*), count(f.text) {rows}").fetchone() == (7, 7)  # texts kept now


def test_rows_of_a_library_before_shapes_are_made_again(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    for migration in _MIGRATIONS[:2]:
        db.executescript(migration)
    db.execute("PRAGMA user_version = 2")
    db.close()
    library = open_library(path)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    assert sqlite3.connect(path).execute("SELECT count(*) FROM sign_values").fetchone() == (0,)
    folder = _write_section(tmp_path / "S1", _section_texts(1, prose(1, 8), prose(2, 8)))
    _check_and_store(library, folder, "S1")
    sqlite3.connect(path).execute("UPDATE files SET shape = ''").connection.commit()  # as migrated rows
    before = _ids(library, "S1")
    _check_and_store(library, folder, "S1")
    assert set(_ids(library, "S1")) == set(before)
    shapes = sqlite3.connect(path).execute("SELECT DISTINCT shape FROM files").fetchall()
    assert len(shapes) == 1 and shapes[0][0]  # every row made again, with its shape


def test_a_print_read_back_pickles_as_the_one_made(stored: dict[str, Any]) -> None:
    """A check's key of what the library said pickles the prints: one made now and one read back from
    the cache must give the same bytes, or the next check would redo the stages after the library."""
    import pickle

    from bidcheck.library.prints import bid_print

    bid = _bids(stored["new"])[0]
    made = bid_print(bid.clean)
    again = pickle.loads(pickle.dumps(made))
    assert pickle.dumps(again) == pickle.dumps(made)
    assert np.array_equal(again.hashes, made.hashes) and np.array_equal(again.places, made.places)
    assert again.place(made.chars - 1) == made.place(made.chars - 1) and again.chars == made.chars
