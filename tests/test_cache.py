"""The document cache: an unchanged file is not read again; adding a bid reads only that bid."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from bidcheck.config import Settings
from bidcheck.model import result_to_dict
from bidcheck.pipeline import CheckInputs, check
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
