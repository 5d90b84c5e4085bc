"""The cache is the user's alone and checked: an entry someone planted is never unpickled, an entry a
byte of which changed is computed again (never a different answer), and the fallback folder in the
temporary directory is used only while it is the user's own and no one else may write in it."""

from __future__ import annotations

import os
import pickle
import shutil
import stat
import tempfile
from pathlib import Path

import pytest

from bidcheck.config import Settings
from bidcheck.memo import load_blob, store, store_blob
from bidcheck.model import result_to_dict
from bidcheck.pipeline import CheckInputs, check


class _Planted:
    """What another user would plant: unpickled, it makes a file (it could run anything)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Path.touch, (str(self.marker),))  # type: ignore[return-value]


def _stable(result: object) -> dict[str, object]:
    data = result_to_dict(result)  # type: ignore[arg-type]
    data["elapsed_s"], data["timings"] = 0, {}
    return data


def _entries() -> list[Path]:
    return sorted(Path(os.environ["BIDCHECK_CACHE_DIR"]).rglob("*.bin"))


@pytest.fixture
def inputs(section: dict[str, Path], tmp_path: Path) -> CheckInputs:
    folder = tmp_path / "bids"
    shutil.copytree(section["bids"], folder)
    return CheckInputs((folder,), (section["tender"],))


def test_planted_entries_are_never_unpickled(inputs: CheckInputs, tmp_path: Path) -> None:
    first = check(inputs, Settings(workers=1))
    entries = _entries()
    assert len(entries) >= 10
    marker = tmp_path / "ran"
    for entry in entries:  # every entry replaced by a pickle that would run code
        entry.write_bytes(pickle.dumps(_Planted(marker)))
    again = check(inputs, Settings(workers=1))
    assert not marker.exists()
    assert _stable(again) == _stable(first)
    planted = [e for e in entries if e.exists() and e.read_bytes() == pickle.dumps(_Planted(marker))]
    assert all(load_blob(e.parent.parent.name, e.stem) is None and not e.exists() for e in planted)
    assert not marker.exists()


def test_an_entry_with_a_byte_changed_is_computed_again(inputs: CheckInputs) -> None:
    first = check(inputs, Settings(workers=1))
    for entry in _entries():  # one byte of each entry's stored bytes flipped
        data = bytearray(entry.read_bytes())
        data[len(data) // 2 + 20] ^= 0x01
        entry.write_bytes(bytes(data))
    assert _stable(check(inputs, Settings(workers=1))) == _stable(first)
    assert _stable(check(inputs, Settings(workers=1))) == _stable(first)  # stored whole again


def test_an_entry_is_bound_to_its_key() -> None:
    store_blob("stages", "xa", b"answer of a")
    store_blob("stages", "xb", b"answer of b")
    root = Path(os.environ["BIDCHECK_CACHE_DIR"]) / "stages"
    (a,), (b,) = root.rglob("xa.bin"), root.rglob("xb.bin")
    a.write_bytes(b.read_bytes())  # b's entry, valid as b's, put under a's key
    assert load_blob("stages", "xa") is None and load_blob("stages", "xb") == b"answer of b"
    secret = Path(os.environ["BIDCHECK_CACHE_DIR"]) / "secret"
    if hasattr(os, "getuid"):
        assert stat.S_IMODE(secret.stat().st_mode) == 0o600


def _fallback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's cache folder unusable (a file stands where it would be), the temporary folder here."""
    blocked = tmp_path / "blocked"
    blocked.write_text("not a folder")
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(blocked / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    store._private_folder.cache_clear()
    return tmp_path / "tmp" / f"bidcheck-cache-{os.getuid()}"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owners and modes")
def test_the_fallback_folder_is_the_users_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    private = _fallback(tmp_path, monkeypatch)
    store_blob("stages", "xa", b"kept")
    assert load_blob("stages", "xa") == b"kept"
    assert stat.S_IMODE(private.stat().st_mode) == 0o700 and list(private.rglob("xa.bin"))
    store._private_folder.cache_clear()


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owners and modes")
def test_a_fallback_folder_others_may_write_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    private = _fallback(tmp_path, monkeypatch)
    private.mkdir()
    private.chmod(0o777)  # made by someone else's hand: world-writable
    (private / "stages").mkdir()
    store_blob("stages", "xa", b"not kept")
    assert load_blob("stages", "xa") is None and not list(private.rglob("*.bin"))
    store._private_folder.cache_clear()
