"""The semantic layer's time, said before the check: from the text the bids hold, not from their count."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bidcheck.config import Settings
from bidcheck.ingest.registry import read_document
from bidcheck.semantic import SectionSize, estimate_seconds, plan_line, section_size
from bidcheck.semantic.plan import guess_chars
from tests.builders import make_docx, make_pdf, paragraphs

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources" / "sample" / "bids"


def _section(folder: Path, pages: int) -> list[Path]:
    """Four bids of ``pages`` pages of six paragraphs of their own: two .docx, two text PDFs."""
    folder.mkdir()
    paths = []
    for n in range(4):
        text = paragraphs(40 * pages + n, 6 * pages)
        book = [text[k : k + 6] for k in range(0, len(text), 6)]
        make = make_docx if n % 2 else make_pdf
        paths.append(make(folder / f"0{n}-投标人.{'docx' if n % 2 else 'pdf'}", book))
    return paths


def _read_chars(path: Path) -> int:
    """The characters the check compares in the file, as its reader finds them."""
    return sum(len(b.text) for b in read_document(path, "d").compared_blocks())


@pytest.mark.parametrize("pages", [2, 20])
def test_the_guess_before_reading_is_near_the_text_the_files_hold(tmp_path: Path, pages: int) -> None:
    for path in _section(tmp_path / "section", pages):
        guessed, read = guess_chars(path), _read_chars(path)
        assert 0.6 * read <= guessed <= 1.7 * read, (path.name, guessed, read)


def test_two_sections_of_as_many_bids_are_estimated_by_their_length(tmp_path: Path) -> None:
    """Four bids of 2 pages and four of 20: the estimate follows the text, and the guess before reading
    gives about what the text as read gives."""
    short, long = _section(tmp_path / "short", 2), _section(tmp_path / "long", 20)
    estimates = []
    for paths in (short, long):
        guessed = estimate_seconds(section_size(paths))
        read = estimate_seconds(SectionSize(tuple(_read_chars(p) for p in paths)))
        assert 0.7 * read <= guessed <= 1.4 * read, (guessed, read)
        estimates.append(read)
    assert estimates[1] > 2 * estimates[0]
    line = plan_line(Settings(), section_size(long))
    assert line.startswith("语义比对约需 ") and "（4 份投标文件，约 " in line, line


def test_the_sample_section_is_said_to_take_a_second_or_two() -> None:
    """The sample's six short bids (about 27,000 characters): the layer takes about 1.3 CPU seconds
    (0.8 the model's load), less with its sentences encoded in two threads (its stage: 1.0 s on 2
    cores), and the plan said 5 when it counted bids of real length."""
    size = section_size(sorted(SAMPLE.iterdir()))
    assert size.bids == 6 and 20_000 <= size.total <= 45_000
    assert 1 <= estimate_seconds(size) <= 2.5
    assert 1 <= estimate_seconds(size, threads=2) < estimate_seconds(size)
    assert plan_line(Settings(workers=1), size).startswith("语义比对约需 2 秒（6 份投标文件，约 3.8 万字；")


def test_many_bids_of_real_length_cost_the_shortlist_about_as_their_characters() -> None:
    """Above ``semantic_max_sentences`` sentences only the shortlist's picks are encoded. The shortlist
    compares every pair of bids up to about 14 bids of real length, and finds each sentence's closest
    by groups above: 12 bids take seconds, 100 about ten (bench.scale's: 9.5 s), 300 about three times
    as long, not nine."""
    twelve, hundred, three_hundred = (estimate_seconds(SectionSize((42_000,) * n)) for n in (12, 100, 300))
    assert 2 < twelve < 10 and 6 < hundred < 20 and 2.5 < three_hundred / hundred < 3.5
    one_large = SectionSize((2_000_000, 4_500, 4_800, 4_600))  # bench.robustness's 50,000 tables
    assert estimate_seconds(one_large) < estimate_seconds(SectionSize((2_013_900 // 4,) * 4))


def test_a_file_that_cannot_be_opened_is_guessed_empty(tmp_path: Path) -> None:
    (tmp_path / "random.pdf").write_bytes(random.Random(3).randbytes(5_000))
    (tmp_path / "not-a-zip.docx").write_bytes(b"PK\x03\x04 broken")
    (tmp_path / "empty.docx").write_bytes(b"")
    names = ("random.pdf", "not-a-zip.docx", "empty.docx", "gone.pdf")
    assert [guess_chars(tmp_path / n) for n in names] == [0, 0, 0, 0]
    assert section_size([tmp_path / n for n in names]) == SectionSize((0, 0, 0, 0))


_LOADS = """
import sys
from pathlib import Path
from bidcheck.config import Settings
from bidcheck.pipeline import CheckInputs, check
from bidcheck.semantic import encoder
result = check(CheckInputs([Path(sys.argv[1])]), Settings(workers=1, min_passage_chars=int(sys.argv[2])))
print(sorted(encoder._BEGUN), sorted(name for name, _ in encoder._LOADED), len(result.pairs))
"""


def _loads(folder: Path, cache: Path, min_chars: int) -> str:
    env = {**os.environ, "BIDCHECK_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", _LOADS, str(folder), str(min_chars)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    return done.stdout.strip()


def test_the_model_loads_beside_reading_and_a_recheck_loads_none(tmp_path: Path) -> None:
    """A first check begins loading the model as it hands the files to be read; checking the same
    files again (a fresh process, the cache filled) loads no model at all; with other settings, the
    files come from the cache and the model is loaded again, beside finding the copies."""
    folder = tmp_path / "bids"
    folder.mkdir()
    for name in sorted(SAMPLE.iterdir())[:3]:
        shutil.copy(name, folder / name.name)
    first = _loads(folder, tmp_path / "cache", 50)
    assert first == "['use'] ['use'] 3", first
    assert _loads(folder, tmp_path / "cache", 50) == "[] [] 3"
    assert _loads(folder, tmp_path / "cache", 60) == "['use'] ['use'] 3"


_WHEN = """
import sys
from pathlib import Path
from bidcheck.config import Settings
from bidcheck.pipeline import CheckInputs, check
from bidcheck.semantic import encoder
seen = {}
def progress(fraction, message):
    stage = "verify" if 0.62 <= fraction < 0.9 else "semantic" if 0.9 <= fraction < 0.94 else ""
    seen.setdefault(stage, "use" in encoder._BEGUN)
settings = Settings(workers=1, semantic_max_sentences=int(sys.argv[2]))
check(CheckInputs([Path(sys.argv[1])]), settings, progress)
print(seen["verify"], "use" in encoder._LOADED.__repr__())
"""


@pytest.mark.parametrize(("max_sentences", "loading_while_verifying"), [(6000, True), (60, False)])
def test_a_shortlisted_sections_model_loads_beside_its_shortlist_not_before(
    tmp_path: Path, max_sentences: int, loading_while_verifying: bool
) -> None:
    """Where every sentence is encoded, the model loads while the copies are found and verified; where
    the shortlist picks them, beside the shortlist (loaded before, it was held through the shortlist's
    peak of memory, and the verifying workers were forked with it)."""
    folder = tmp_path / "bids"
    folder.mkdir()
    for name in sorted(SAMPLE.iterdir())[:3]:
        shutil.copy(name, folder / name.name)
    env = {**os.environ, "BIDCHECK_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", _WHEN, str(folder), str(max_sentences)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    assert done.stdout.split() == [str(loading_while_verifying), "True"], done.stdout
