"""The whole pipeline on built sections: common text vs rings, groups, cancel, determinism, progress."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from threadpoolctl import threadpool_info

from bidcheck.config import Settings
from bidcheck.memo import CACHE_ENV, load_blob
from bidcheck.model import CheckResult, result_to_dict
from bidcheck.pipeline import CheckInputs, check
from bidcheck.prepare import Pickled, prepare_document
from bidcheck.progress import Cancelled
from bidcheck.reading import Job, _largest_first, _outcome, read_job
from bidcheck.ready import Prepared
from bidcheck.report.json import result_json
from bidcheck.workers import run_tasks
from tests.builders import make_docx, make_pdf, paragraphs

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def ring_section(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eight bids: six carry the same public boilerplate; bids 1, 4 and 7 all edit one shared draft."""
    root = tmp_path_factory.mktemp("ring")
    boilerplate = paragraphs(500, 3)
    draft = paragraphs(600, 6)
    for n in range(1, 9):
        own = paragraphs(700 + n, 10)
        body = own[:5] + (boilerplate if n <= 6 else []) + own[5:]
        if n in (1, 4, 7):
            body = body[:3] + draft + body[3:]
        maker = make_docx if n % 2 else make_pdf
        maker(root / f"{n:02d}-投标人{n}.{'docx' if n % 2 else 'pdf'}", [body[:8], body[8:]])
    return root


@pytest.fixture(scope="module")
def ring_result(ring_section: Path) -> CheckResult:
    return check(CheckInputs((ring_section,)), Settings(workers=2))


def _by_names(result: CheckResult) -> dict[frozenset[str], object]:
    names = {d.id: d.name[:2] for d in result.documents}
    return {frozenset((names[p.a], names[p.b])): p for p in result.pairs}


def test_text_most_bids_share_is_common_and_does_not_count(ring_result: CheckResult) -> None:
    pairs = _by_names(ring_result)
    pair = pairs[frozenset(("02", "03"))]
    assert pair.passages and all(p.common and not p.template for p in pair.passages)  # type: ignore[attr-defined]
    assert pair.level == "none" and pair.similarity == 0.0  # type: ignore[attr-defined]


def test_a_ring_of_three_in_eight_is_not_common_but_high(ring_result: CheckResult) -> None:
    pairs = _by_names(ring_result)
    for a, b in (("01", "04"), ("01", "07"), ("04", "07")):
        pair = pairs[frozenset((a, b))]
        assert pair.level == "high", (a, b, pair.reason)  # type: ignore[attr-defined]
        assert any(p.live for p in pair.passages)  # type: ignore[attr-defined]
    names = {d.id: d.name[:2] for d in ring_result.documents}
    assert [sorted(names[m] for m in g.members) for g in ring_result.groups] == [["01", "04", "07"]]


def test_every_pair_of_readable_bids_is_present(ring_result: CheckResult) -> None:
    assert len(ring_result.pairs) == 28
    for pair in ring_result.pairs:
        assert 0.0 <= pair.coverage_a <= 1.0 and 0.0 <= pair.coverage_b <= 1.0
        assert pair.similarity == max(pair.coverage_a, pair.coverage_b)


def test_same_input_gives_the_same_json(ring_section: Path, ring_result: CheckResult) -> None:
    again = check(CheckInputs((ring_section,)), Settings(workers=1))

    def stable(result: CheckResult) -> str:
        data = result_to_dict(result)
        data["elapsed_s"], data["timings"] = 0, {}
        data["settings"]["workers"] = 0
        return str(data)

    assert stable(again) == stable(ring_result)
    assert result_json(ring_result).startswith('{\n "schema": "bidcheck.result/1"')


def test_progress_rises_to_one_and_cancel_stops_the_check(ring_section: Path) -> None:
    seen: list[float] = []
    cancel = threading.Event()

    def progress(fraction: float, message: str) -> None:
        seen.append(fraction)
        if fraction > 0.15:  # reading takes 0-0.3 of the bar when no page needs OCR
            cancel.set()

    with pytest.raises(Cancelled):
        check(CheckInputs((ring_section,)), Settings(workers=1), progress, cancel)
    assert seen == sorted(seen) and max(seen) < 0.6
    fractions: list[float] = []
    check(CheckInputs((ring_section,)), Settings(workers=2), lambda f, m: fractions.append(f))
    assert fractions == sorted(fractions) and fractions[-1] == 1.0


def test_a_file_over_the_size_limit_is_refused_and_the_rest_compared(tmp_path: Path) -> None:
    """``max_file_mb`` is the largest file read: one byte more and the file is an error document."""
    text = "\n".join(paragraphs(900, 5)).encode("utf-8")
    limit = 1 << 20
    (tmp_path / "a.txt").write_bytes(text + b" " * (limit - len(text)))  # exactly at the limit
    (tmp_path / "b.txt").write_bytes(text + b" " * (limit + 1 - len(text)))
    (tmp_path / "c.txt").write_bytes(text)
    result = check(CheckInputs((tmp_path,)), Settings(workers=1, max_file_mb=1))
    documents = {d.name: d for d in result.documents}
    assert documents["a.txt"].ok and documents["c.txt"].ok
    assert documents["b.txt"].status == "error" and "1 MB" in str(documents["b.txt"].error)
    assert [p.level for p in result.pairs] == ["high"]


def _read_in_worker(path: Path) -> tuple[int, list[int]]:
    """A bid read as the check reads it in a worker process: its SimHash, and that process's BLAS threads."""
    job = Job(path, "d1", "bid")
    prepared = _outcome(job, read_job(job, Settings(), False, ()), Settings())
    assert prepared.ready is not None
    return prepared.ready.fingerprint.simhash, [
        i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"
    ]


def test_a_reading_process_runs_blas_on_one_thread_and_searches_the_identifiers(
    ring_section: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its fingerprints are those read in this process; the identifiers the signals look for are
    searched there too and remembered beside the file's cache entry (one entry a bid)."""
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(tmp_path))  # read, not taken from an earlier check's cache
    bids = sorted(ring_section.iterdir())[:2]
    read = run_tasks(_read_in_worker, [(path,) for path in bids], 2, lambda i, r: None)
    here = [prepare_document(path, "d1", "bid", Settings()).ready for path in bids]
    assert [simhash for simhash, _ in read] == [r.fingerprint.simhash for r in here if r is not None]
    assert all(threads == [1] * len(threads) and threads for _, threads in read)
    assert len(list((tmp_path / "derived").rglob("*.bin"))) == len(bids)


def test_a_file_read_afresh_comes_back_as_the_bytes_of_its_cache_entry(
    ring_section: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read with an empty cache, a file comes back from its reading process as the very bytes stored
    in its entry (pickled once), which give the document read in this process; found in the cache, it
    comes back as the document."""
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(tmp_path))
    path = sorted(ring_section.iterdir())[0]
    job = Job(path, "d1", "bid")
    (sent,) = run_tasks(read_job, [(job, Settings(), False, ())], 1, lambda i, r: None)
    assert isinstance(sent, Pickled)
    (entry,) = (tmp_path / "documents").rglob("*.bin")
    assert sent.data == load_blob("documents", entry.stem) and entry.read_bytes().endswith(sent.data)
    read, here = _outcome(job, sent, Settings()).ready, prepare_document(path, "d1", "bid", Settings()).ready
    assert read is not None and here is not None
    assert (read.clean.norm, read.fingerprint.simhash) == (here.clean.norm, here.fingerprint.simhash)
    assert read.fingerprint.kgrams.tobytes() == here.fingerprint.kgrams.tobytes()
    again = read_job(job, Settings(), False, ())
    assert isinstance(again, Prepared) and again.ready is not None and again.ready.source == read.source


def test_the_largest_files_are_read_first(tmp_path: Path) -> None:
    sizes = {"a.txt": 10, "b.txt": 300, "c.txt": 20, "d.txt": 300}
    for name, size in sizes.items():
        (tmp_path / name).write_bytes(b"x" * size)
    jobs = [Job(tmp_path / name, f"d{n}", "bid") for n, name in enumerate([*sizes, "gone.txt"])]
    assert [job.path.name for job in _largest_first(jobs)] == ["b.txt", "d.txt", "c.txt", "a.txt", "gone.txt"]


def test_the_collector_pauses_while_reading_and_then_leaves_the_documents_alone(
    ring_section: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While files are read the cycle collector is off; from then to the check's end what the reading
    made is frozen out of its reach; after the check nothing is frozen and the collector is on."""
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(tmp_path))  # read, not taken from an earlier check's cache
    seen: dict[str, tuple[bool, int]] = {}
    before = gc.get_freeze_count()
    check(
        CheckInputs((ring_section,)),
        Settings(workers=2),
        lambda _f, message: seen.setdefault(message[:2], (gc.isenabled(), gc.get_freeze_count())),
    )
    assert seen["读取"][0] is False
    assert seen["建立"][1] > before + 10_000  # the eight bids' blocks, texts and fingerprints
    assert gc.isenabled() and gc.get_freeze_count() == before


_TABLES = """
import hashlib, multiprocessing, sys
from bidcheck.config import Settings
from bidcheck.fingerprint.simhash import load_idf_table
from bidcheck.fingerprint.tokens import _tokenizer
from bidcheck.reading import share_tables, take_tables
from bidcheck.workers import run_tasks

def loaded():
    return _tokenizer.cache_info().currsize, load_idf_table.cache_info().currsize

def idf_digest():
    table = load_idf_table(Settings().seed)
    data = table.hashes.tobytes() + table.values.tobytes() + repr(table.median).encode()
    return hashlib.sha256(data).hexdigest()

def run(fn):
    return run_tasks(fn, [()] * 2, 2, lambda i, r: None)

if __name__ == "__main__":
    multiprocessing.set_start_method("fork")
    print(run(loaded))
    made = share_tables(Settings())
    print(run(loaded))
    forked_before = run(idf_digest)  # the table read from the cache, or made there when not stored yet
    take_tables(made, Settings(), None)
    print(run(loaded))
    print(forked_before == [idf_digest()] * 2)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="Windows has no fork")
def test_reading_processes_forked_after_the_tables_loaded_share_them(tmp_path: Path) -> None:
    """Forked before ``_share_tables``, a reading process has no table yet (it loads its own); forked
    after it, the tokenizer, while the IDF table is made beside them (from an empty cache) and each
    loads it when it needs it, the same table; forked after ``_take_tables``, both."""
    script = tmp_path / "tables.py"
    script.write_text(_TABLES, encoding="utf-8")
    env = {**os.environ, CACHE_ENV: str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=120,
        env=env,
    )
    assert done.stdout.split("\n")[:4] == ["[(0, 0), (0, 0)]", "[(1, 0), (1, 0)]", "[(1, 1), (1, 1)]", "True"]
