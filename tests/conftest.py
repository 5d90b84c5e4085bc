"""Shared fixtures: real documents built once per session."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

from tests.builders import make_docx, make_pdf, paragraphs

# Property tests draw the same examples on every run (derandomised, no example database): a failure
# comes back when the test is run again, and a busy machine never fails an example on its time.
# HYPOTHESIS_PROFILE=thorough draws ten times as many, at random.
settings.register_profile("bidcheck", derandomize=True, database=None, deadline=None, max_examples=100)
settings.register_profile("thorough", database=None, deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "bidcheck"))


@pytest.fixture(scope="session", autouse=True)
def ocr_cache_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """OCR results are cached in a folder of the test session, never in the user's cache."""
    folder = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BIDCHECK_CACHE_DIR", str(folder))
        yield folder


@pytest.fixture(scope="session")
def section(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A small section: a tender, a copied pair (docx and pdf), and two bids sharing only tender text."""
    root = tmp_path_factory.mktemp("section")
    tender_text = paragraphs(100, 4)
    own = {name: paragraphs(seed, 8) for name, seed in (("a", 1), ("b", 2), ("c", 3), ("d", 4))}
    copied = own["a"][:5] + own["b"][5:]  # bidder B copied five paragraphs of A
    bids = root / "bids"
    bids.mkdir()
    files = {
        "tender": make_docx(root / "招标文件.docx", [tender_text]),
        "a": make_docx(
            bids / "01-甲.docx", [tender_text[:2], own["a"][:4], own["a"][4:]], header="甲公司投标文件"
        ),
        "b": make_pdf(bids / "02-乙.pdf", [tender_text[:2], copied[:4], copied[4:]], header="乙公司投标文件"),
        "c": make_docx(bids / "03-丙.docx", [tender_text[1:3], own["c"]]),
        "d": make_pdf(bids / "04-丁.pdf", [tender_text[2:4], own["d"]]),
    }
    files["bids"] = bids
    return files


@dataclass(frozen=True)
class ReadOnly:
    """A folder this process may not write into: held by its permissions, or (as root, whom permissions
    do not hold) a read-only mount, where writing fails as on a locked or read-only drive."""

    folder: Path
    mounted: bool


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Callable[[dict[str, bytes]], ReadOnly]]:
    """Makes a folder holding these files (name -> contents), then makes it and them read-only; skipped
    where neither permissions hold this process nor a bind mount can be made."""
    made: list[ReadOnly] = []

    def make(files: dict[str, bytes]) -> ReadOnly:
        source = tmp_path / f"ro{len(made)}"
        source.mkdir()
        for name, data in files.items():
            (source / name).write_bytes(data)
        if os.name == "nt" or os.geteuid() != 0:
            for path in (*source.iterdir(), source):
                path.chmod(0o444 if path.is_file() else 0o555)
            made.append(ReadOnly(source, mounted=False))
            return made[-1]
        folder = tmp_path / f"mounted{len(made)}"
        folder.mkdir()
        if subprocess.run(["mount", "--bind", str(source), str(folder)], capture_output=True).returncode:
            pytest.skip("a read-only folder as root needs a bind mount")
        made.append(ReadOnly(folder, mounted=True))
        subprocess.run(["mount", "-o", "remount,ro,bind", str(folder)], check=True, capture_output=True)
        return made[-1]

    yield make
    for each in made:
        if each.mounted:
            subprocess.run(["umount", str(each.folder)], capture_output=True)
        else:
            each.folder.chmod(0o755)
