"""Whole-document groups by SimHash: the pigeonhole bands against every pair, the library's incremental
groups against a full regrouping, a removed bridge splitting its group, ``library groups``; and the
library's window band keys and the check's progress without a library."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bidcheck.config import Settings
from bidcheck.library import open_library
from bidcheck.library.groups import brute_force_labels, simhash_labels
from bidcheck.library.prints import BidPrint, window_band_keys
from bidcheck.library.store import StoredBid
from bidcheck.pipeline import CheckInputs, check
from tests.builders import paragraphs
from tests.test_library import prose, run, write_bid

_EMPTY = BidPrint(np.zeros(0, np.int64), np.zeros(0, np.int32), np.zeros((0, 3), np.int32), 0)


def partition(labels: np.ndarray) -> set[frozenset[int]]:
    """The groups a labelling makes, as sets of positions."""
    out: dict[int, set[int]] = {}
    for n, label in enumerate(labels.tolist()):
        out.setdefault(label, set()).add(n)
    return {frozenset(g) for g in out.values()}


def flip(value: int, *bits: int) -> int:
    for bit in bits:
        value ^= 1 << bit
    return value


def clustered(seed: int, count: int, flips: int) -> np.ndarray:
    """Random 64-bit hashes and near copies of them (``flips`` random bits changed, chains of copies)."""
    rng = np.random.default_rng(seed)
    hashes = list(rng.integers(0, 2**64 - 1, size=count // 2, dtype=np.uint64).tolist())
    while len(hashes) < count:
        source = hashes[int(rng.integers(0, len(hashes)))]
        hashes.append(flip(source, *rng.integers(0, 64, size=flips).tolist()))
    return np.asarray(hashes, dtype=np.uint64)


def test_pigeonhole_groups_are_those_of_every_pair() -> None:
    for seed, hamming, flips in ((1, 3, 2), (2, 3, 3), (3, 1, 1), (4, 5, 4), (5, 0, 0)):
        hashes = clustered(seed, 3000, flips)
        ours = partition(simhash_labels(hashes, hamming))
        assert ours == partition(brute_force_labels(hashes, hamming)), (seed, hamming)
        assert sum(len(g) > 1 for g in ours) > 100  # near copies were planted and found


def test_a_chain_joins_and_four_bits_do_not() -> None:
    a = 0x0123_4567_89AB_CDEF
    b = flip(a, 0, 17, 40)  # 3 bits from a
    c = flip(b, 5, 33, 60)  # 3 from b, 6 from a: in a's group through b
    d = flip(a, 1, 18, 34, 50)  # 4 bits from a, one in each 16-bit band: no band equal
    labels = simhash_labels(np.asarray([a, b, c, d, a], dtype=np.uint64))
    assert partition(labels) == {frozenset({0, 1, 2, 4}), frozenset({3})}


def stored(name: str, simhash: int) -> StoredBid:
    return StoredBid(name, "", name.split(".")[0], "bid", 100, simhash, {}, _EMPTY)


def test_the_library_groups_new_sections_incrementally(tmp_path: Path) -> None:
    library = open_library(tmp_path / "l.sqlite")
    a = 0x7123_4567_89AB_CDEF
    far = 0x0F0F_0F0F_0F0F_0F0F
    library.store_section("S0", [stored("blank1.txt", 0), stored("blank2.txt", 0)])  # no words: no group
    library.store_section("S1", [stored("a.txt", a), stored("far.txt", far)])
    library.store_section(
        "S2", [stored("c.txt", flip(a, 1, 20, 63)), stored("e.txt", flip(a, 2, 3, 4, 5, 6))]
    )
    assert library.groups() == [(1, [("S1", "a.txt"), ("S2", "c.txt")])]  # far and e alone
    e = flip(a, 2, 3, 4, 5, 6)
    library.store_section("S3", [stored("bridge.txt", flip(e, 4, 5, 6))])  # 3 bits from e, 2 from a
    grouped = library.groups()
    assert len(grouped) == 1 and len(grouped[0][1]) == 4  # the bridge joined e's group to a's
    incremental = {frozenset(m) for _n, m in grouped}
    library.regroup()
    assert {frozenset(m) for _n, m in library.groups()} == incremental  # the same as from scratch
    assert library.remove("S3")  # without the bridge, e is alone again
    assert [members for _n, members in library.groups()] == [[("S1", "a.txt"), ("S2", "c.txt")]]
    library.close()


def test_library_groups_command_writes_json(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    library = open_library(path)
    a, b = 0x1111_2222_3333_4444, 0x5555_6666_7777_0000
    library.store_section("S1", [stored("a1.txt", a), stored("b1.txt", b)])
    library.store_section("S2", [stored("a2.txt", flip(a, 9, 30, 31, 32)), stored("b2.txt", flip(b, 63))])
    library.close()
    out = tmp_path / "groups.json"
    status, stdout, _err = run("library", "--library", str(path), "groups", "--json", str(out))
    assert status == 0
    assert "1 堆整份相同或几乎相同" in stdout  # a2 is 4 bits from a1
    assert json.loads(out.read_text(encoding="utf-8")) == {
        "groups": [
            {
                "group": 2,
                "documents": [
                    {"section": "S1", "document": "b1.txt"},
                    {"section": "S2", "document": "b2.txt"},
                ],
            }
        ]
    }
    status, stdout, _err = run(
        "library", "--library", str(path), "groups", "--hamming", "4", "--json", str(out)
    )
    assert "2 堆" in stdout and len(json.loads(out.read_text(encoding="utf-8"))["groups"]) == 2
    library = open_library(path)  # a later section is grouped with the remembered 4 bits
    library.store_section("S3", [stored("a3.txt", flip(a, 0, 16, 32, 48))])
    assert [len(m) for _n, m in library.groups()] == [3, 2]
    library.close()


def test_window_band_keys_are_fixed_and_shared_by_equal_windows() -> None:
    settings = Settings()
    text = "".join(prose(11, 60))
    keys = window_band_keys(text, settings)
    again = window_band_keys("前言" * 150 + text, settings)
    assert keys.dtype == np.uint32 and keys.shape[1] == 51
    assert keys[:2, :4].tolist() == window_band_keys(text, settings)[:2, :4].tolist()
    shared = np.isin(keys[3], again).mean()  # the same text shifted: most bands of a window found again
    assert shared > 0.3
    assert window_band_keys("", settings).shape == (0, 51)


@pytest.mark.parametrize("with_library", [False, True])
def test_the_library_step_shows_only_with_a_library(tmp_path: Path, with_library: bool) -> None:
    for n in range(2):
        write_bid(tmp_path / "S", f"0{n}-乙{n}", prose(n, 8))
    messages: list[str] = []
    library = open_library(tmp_path / "l.sqlite") if with_library else None
    try:
        check(
            CheckInputs((tmp_path / "S",)),
            Settings(workers=1),
            lambda _f, m: messages.append(m),
            None,
            library,
        )
    finally:
        if library is not None:
            library.close()
    assert ("对照资料库" in messages) is with_library
    assert "判定与分组" in messages


def test_a_new_bids_neighbours_are_found_through_the_band_indexes(tmp_path: Path) -> None:
    import sqlite3

    from bidcheck.library.groups import _NEIGHBOURS_SQL

    open_library(tmp_path / "l.sqlite").close()
    db = sqlite3.connect(tmp_path / "l.sqlite")
    plan = " ".join(row[3] for row in db.execute("EXPLAIN QUERY PLAN " + _NEIGHBOURS_SQL, [1, 2, 3, 4]))
    db.close()
    assert all(f"USING INDEX files_sim{n}" in plan for n in range(4)), plan  # no scan of every bid


def test_a_checked_bid_is_stored_from_the_checks_own_fingerprints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bidcheck.library.sections import stored_bid
    from bidcheck.prepare import cached_ready

    for n in range(2):
        write_bid(tmp_path / "S", f"0{n}-乙{n}", paragraphs(20 + n, 12))  # words SimHash can weigh
    settings = Settings(workers=1)
    result = check(CheckInputs((tmp_path / "S",)), settings)
    doc = result.bids[0]
    assert cached_ready(Path(doc.path), settings) is not None  # the check left its fingerprints
    cached = stored_bid(doc, settings)
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(tmp_path / "empty-cache"))
    assert cached_ready(Path(doc.path), settings) is None
    computed = stored_bid(doc, settings)  # no cache: everything computed from the document
    assert cached.simhash == computed.simhash != 0
    assert cached.bands is not None and computed.bands is not None
    assert cached.bands.tolist() == computed.bands.tolist() and len(cached.bands) > 1
    assert cached.print.hashes.tolist() == computed.print.hashes.tolist()
    assert cached.print.places.tolist() == computed.print.places.tolist()
