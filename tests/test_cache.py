"""The document cache: an unchanged file is not read again; adding a bid reads only that bid."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

from bidcheck.config import Settings
from bidcheck.memo import of_document, per_key_of_document
from bidcheck.model import result_to_dict
from bidcheck.pipeline import CheckInputs, check
from bidcheck.prepare import prepare_cached
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


def test_what_a_stage_computes_of_one_document_is_remembered_with_its_entry(
    section: dict[str, Path],
) -> None:
    ready, code = _ready(section["a"]), (Path(__file__),)
    assert of_document(ready, "words", code, lambda: ["甲", "乙"]) == ["甲", "乙"]
    assert of_document(ready, "words", code, lambda: ["computed again"]) == ["甲", "乙"]
    assert of_document(ready, "other words", code, lambda: ["丙"]) == ["丙"]
    assert of_document(_ready(section["c"]), "words", code, lambda: ["丁"]) == ["丁"]  # another file
    unread = replace(ready, source="")  # read outside the cache: nothing to remember it by
    assert of_document(unread, "words", code, lambda: ["戊"]) == ["戊"]
    assert of_document(unread, "words", code, lambda: ["己"]) == ["己"]


def test_a_damaged_entry_of_a_stage_is_computed_again(section: dict[str, Path]) -> None:
    ready, code = _ready(section["b"]), (Path(__file__),)
    root = Path(os.environ["BIDCHECK_CACHE_DIR"]) / "derived"
    before = set(root.rglob("*.bin"))
    of_document(ready, "damaged", code, lambda: 1)
    (entry,) = set(root.rglob("*.bin")) - before
    entry.write_bytes(b"not a pickle")
    assert of_document(ready, "damaged", code, lambda: 2) == 2
    assert of_document(ready, "damaged", code, lambda: 3) == 2  # written whole again


def test_values_asked_by_key_are_computed_once_each(section: dict[str, Path]) -> None:
    ready, code, asked = _ready(section["d"]), (Path(__file__),), []

    def length(words: set[str]) -> dict[str, int]:
        asked.extend(words)
        return {w: len(w) for w in words}

    assert per_key_of_document(ready, "lengths", code, ["甲", "乙丙"], length) == {"甲": 1, "乙丙": 2}
    assert per_key_of_document(ready, "lengths", code, {"乙丙", "丁戊己"}, length) == {"乙丙": 2, "丁戊己": 3}
    assert sorted(asked) == sorted(["甲", "乙丙", "丁戊己"])  # 乙丙 was remembered
    assert per_key_of_document(ready, "lengths", code, ["甲", "丁戊己"], length) == {"甲": 1, "丁戊己": 3}
    assert len(asked) == 3
