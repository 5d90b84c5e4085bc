"""The document cache: an unchanged file is not read again; adding a bid reads only that bid."""

from __future__ import annotations

import os
import shutil
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from bidcheck.config import Settings
from bidcheck.memo import memoised, memoised_per_key
from bidcheck.model import result_to_dict
from bidcheck.pipeline import CheckInputs, check
from bidcheck.prepare import READ_CODE, prepare_cached
from bidcheck.ready import Ready
from tests.builders import make_docx, paragraphs


def _entries() -> set[Path]:
    root = Path(os.environ["BIDCHECK_CACHE_DIR"]) / "documents"
    return set(root.rglob("*.bin")) if root.exists() else set()


def _written(entries: set[Path]) -> dict[Path, tuple[int, int]]:
    """Each entry's file identity and modification time: an entry written again is a new file."""
    return {path: (path.stat().st_ino, path.stat().st_mtime_ns) for path in entries}


def _stable(result: object) -> dict[str, object]:
    data = result_to_dict(result)  # type: ignore[arg-type]
    data["elapsed_s"], data["timings"] = 0, {}
    return data


def test_a_recheck_reads_from_the_cache_and_adding_a_bid_reads_only_it(
    section: dict[str, Path], tmp_path: Path
) -> None:
    folder = tmp_path / "bids"
    shutil.copytree(section["bids"], folder)
    before = _entries()
    first = check(CheckInputs((folder,), (section["tender"],)), Settings(workers=1))
    stored = _entries() - before
    assert len(stored) <= 5  # four bids and the tender (fewer when another test cached them already)
    written = _written(_entries())
    again = check(CheckInputs((folder,), (section["tender"],)), Settings(workers=1))
    assert _written(_entries()) == written  # read back, none written again
    assert _stable(again) == _stable(first)
    make_docx(folder / "05-新增.docx", [paragraphs(77, 6)])
    third = check(CheckInputs((folder,), (section["tender"],)), Settings(workers=1))
    assert len(_entries() - before - stored) == 1
    assert len(third.pairs) == 10


def test_changed_fingerprint_settings_do_not_reuse_entries(section: dict[str, Path]) -> None:
    before = _entries()
    check(CheckInputs((section["bids"],)), Settings(workers=1, seed_chars=6))
    assert len(_entries() - before) == 4


def _ready(path: Path) -> Ready:
    ready = prepare_cached(path, "d1", "bid", Settings(workers=1)).ready
    assert ready is not None and ready.source
    return ready


@dataclass(frozen=True)
class _Asked:
    """A test computation's inputs: a document and a word."""

    bid: Ready
    word: str


COMPUTED: list[str] = []  # the words ``_looked_up`` was computed for


@memoised
def _looked_up(asked: _Asked) -> list[str]:
    COMPUTED.append(asked.word)
    return [asked.word, asked.bid.clean.norm[:2]]


def test_what_is_computed_of_a_document_is_remembered_by_its_inputs(section: dict[str, Path]) -> None:
    ready = _ready(section["a"])
    COMPUTED.clear()
    first = _looked_up(_Asked(ready, "甲"))
    assert _looked_up(_Asked(_ready(section["a"]), "甲")) == first and COMPUTED == ["甲"]  # read back
    _looked_up(_Asked(ready, "乙"))  # another word: other inputs
    _looked_up(_Asked(_ready(section["c"]), "甲"))  # another file
    assert COMPUTED == ["甲", "乙", "甲"]
    unread = replace(ready, source="")  # read outside the cache: nothing to remember it by
    assert _looked_up(_Asked(unread, "甲")) == first
    assert _looked_up(_Asked(unread, "甲")) == first and COMPUTED[3:] == ["甲", "甲"]


def test_a_damaged_entry_of_a_stage_is_computed_again(section: dict[str, Path]) -> None:
    ready = _ready(section["b"])
    root = Path(os.environ["BIDCHECK_CACHE_DIR"]) / "derived"
    before = set(root.rglob("*.bin"))
    COMPUTED.clear()
    _looked_up(_Asked(ready, "丙"))
    (entry,) = set(root.rglob("*.bin")) - before
    entry.write_bytes(b"not a pickle")
    _looked_up(_Asked(ready, "丙"))
    _looked_up(_Asked(ready, "丙"))  # written whole again
    assert COMPUTED == ["丙", "丙"]


@dataclass(frozen=True)
class _Words:
    """A test computation's inputs: a document and the words asked of it."""

    bid: Ready
    keys: frozenset[str]


ASKED: list[str] = []  # the words ``_lengths`` was computed for


@memoised_per_key
def _lengths(words: _Words) -> dict[str, int]:
    ASKED.extend(words.keys)
    return {w: len(w) + words.bid.clean.norm.count(w) for w in words.keys}


def test_values_asked_by_key_are_computed_once_each(section: dict[str, Path]) -> None:
    ready = _ready(section["d"])
    ASKED.clear()

    def asked(*words: str) -> dict[str, int]:
        return _lengths(_Words(ready, frozenset(words)))

    assert asked("甲", "乙丙") == {"甲": 1, "乙丙": 2}
    assert asked("乙丙", "丁戊己") == {"乙丙": 2, "丁戊己": 3}
    assert sorted(ASKED) == sorted(["甲", "乙丙", "丁戊己"])  # 乙丙 was remembered
    assert asked("甲", "丁戊己") == {"甲": 1, "丁戊己": 3} and len(ASKED) == 3
    other = _lengths(_Words(_ready(section["c"]), frozenset({"甲"})))  # another document: its own entry
    assert other == {"甲": 1} and ASKED[3:] == ["甲"]
    unread = _Words(replace(ready, source=""), frozenset({"甲"}))  # read outside the cache: computed
    assert _lengths(unread) == {"甲": 1} and _lengths(unread) == {"甲": 1} and ASKED[4:] == ["甲", "甲"]


def test_the_document_caches_code_is_the_read_stage_and_every_layer_below_it() -> None:
    """A document entry is keyed by the code reading can run: the read stage and every layer below it in
    the import contract, which ``lint-imports`` holds reading to. A module added to those layers, or a
    layer added, changes the contract and must change ``READ_CODE``."""
    contracts = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [c["layers"] for c in contracts["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    below = layers[next(n for n, layer in enumerate(layers) if layer == "prepare") :]
    names = {name.strip().strip("()") for layer in below for name in layer.split("|")}
    assert names == {name.removesuffix(".py") for name in READ_CODE}
    package = Path(__file__).parent.parent / "bidcheck"
    assert all((package / name).exists() for name in READ_CODE)
