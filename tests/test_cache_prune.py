"""The on-disk cache stays within its size limit: the entries used least recently go first."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bidcheck.config import Settings, SettingsError
from bidcheck.memo import ENTRY_OVERHEAD, cache_folders, load_blob, prune_cache, store_blob
from bidcheck.pipeline import CheckInputs, check
from tests.builders import make_docx, paragraphs

_HOUR_NS = 3600 * 10**9


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(folder))
    return folder


def _entry(kind: str, key: str) -> Path:
    return next(cache_folders(kind)[0].rglob(f"{key}.bin"))


def _store_aged(kind: str, keys: list[str], size: int) -> None:
    """Entries of ``size`` bytes, last used one hour apart, the first the longest ago."""
    for age, key in enumerate(reversed(keys), start=1):
        store_blob(kind, key, bytes(size))
        path = _entry(kind, key)
        os.utime(path, ns=(path.stat().st_atime_ns - age * _HOUR_NS, path.stat().st_mtime_ns))


def test_the_least_recently_used_entries_are_removed_first(cache: Path) -> None:
    _store_aged("stages", ["xa", "xb", "xc"], 1000)
    _store_aged("pairs", ["vd"], 1000)  # every kind counts toward the one limit
    assert load_blob("stages", "xa") == bytes(1000)  # read now: the oldest entry becomes the newest
    assert prune_cache(3000) == 2 * (1000 + ENTRY_OVERHEAD)  # 4 entries past 3000 bytes: to 2700 at most
    assert load_blob("stages", "xb") is None and load_blob("stages", "xc") is None
    assert load_blob("stages", "xa") == bytes(1000) and load_blob("pairs", "vd") == bytes(1000)


def test_a_cache_within_its_limit_is_left_whole(cache: Path) -> None:
    _store_aged("stages", ["xa", "xb"], 1000)
    assert prune_cache(2 * (1000 + ENTRY_OVERHEAD)) == 0
    assert load_blob("stages", "xa") is not None and load_blob("stages", "xb") is not None
    assert prune_cache(10**9) == 0  # also with no cache folder at all below: nothing to do


def test_reading_an_entry_keeps_when_it_was_written(cache: Path) -> None:
    store_blob("stages", "xa", b"1")
    path = _entry("stages", "xa")
    written = path.stat().st_mtime_ns
    os.utime(path, ns=(written - _HOUR_NS, written))
    load_blob("stages", "xa")
    assert path.stat().st_mtime_ns == written
    assert path.stat().st_atime_ns > written - _HOUR_NS


def test_a_check_prunes_the_cache_to_its_setting(cache: Path, tmp_path: Path) -> None:
    _store_aged("stages", [f"x{n:02d}" for n in range(12)], 200_000)  # 2.4 MB of old entries
    bids = [make_docx(tmp_path / f"0{n}-投标{n}.docx", [paragraphs(30 + n, 6)]) for n in range(1, 4)]
    first = check(CheckInputs(bids), Settings(workers=1, cache_max_mb=1))
    sizes = [p.stat().st_size for p in cache.rglob("*.bin")]
    assert sum(sizes) <= 0.9 * (1 << 20)
    assert load_blob("stages", "x00") is None  # the oldest went first ...
    assert list((cache / "documents").rglob("*.bin")), "... the check's own entries, used last, stay"
    again = check(CheckInputs(bids), Settings(workers=1, cache_max_mb=1))
    assert [(p.a, p.b, p.level, p.similarity) for p in again.pairs] == [
        (p.a, p.b, p.level, p.similarity) for p in first.pairs
    ]


def test_the_cache_limit_must_be_at_least_one_megabyte() -> None:
    with pytest.raises(SettingsError, match="cache_max_mb"):
        Settings(cache_max_mb=0)


def test_the_entries_are_walked_again_only_when_the_recorded_size_passes_the_limit(cache: Path) -> None:
    """A walk records the cache's size; entries stored since add theirs, and the next prune walks the
    entries only when that sum passes the limit: an entry put in by hand (not stored) is first found then."""
    _store_aged("stages", ["xa", "xb"], 1000)
    assert prune_cache(10_000) == 0  # walked: 2000 bytes recorded
    _store_aged("stages", ["xc"], 1000)
    by_hand = cache / "stages" / "zz" / "xzz.bin"
    by_hand.parent.mkdir()
    by_hand.write_bytes(bytes(7000))
    os.utime(by_hand, ns=(1, by_hand.stat().st_mtime_ns))  # used longest ago: the first to go
    assert prune_cache(9000) == 0  # 3000 recorded: not walked (a walk finds 10,000 and prunes)
    assert by_hand.exists()
    _store_aged("stages", ["xd"], 7000)  # 10,000 recorded now: the walk finds 17,000 and prunes
    assert prune_cache(9000) == 9000 + 2 * ENTRY_OVERHEAD  # to 8100 at most: by hand, then xa and xb
    assert not by_hand.exists() and load_blob("stages", "xa") is None
    assert load_blob("stages", "xc") is not None and load_blob("stages", "xd") is not None
    assert prune_cache(9000) == 0  # 8000 recorded by that walk


def test_a_record_older_than_an_hour_is_walked_again(cache: Path) -> None:
    _store_aged("stages", ["xa"], 1000)
    assert prune_cache(10_000) == 0
    extra = cache / "stages" / "zz" / "xzz.bin"
    extra.parent.mkdir()
    extra.write_bytes(bytes(20_000))
    os.utime(extra, ns=(1, extra.stat().st_mtime_ns))
    record = cache / "size.txt"
    record.write_text(record.read_text().replace(record.read_text().split()[0], "0"))  # walked in 1970
    assert prune_cache(10_000) == 20_000
