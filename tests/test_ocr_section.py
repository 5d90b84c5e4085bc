"""A section whose bids were scanned finds what the text version finds; OCR progress and cancel.

The bids are text PDFs; their scanned twins are the same pages rendered to images with a little noise
and written back without a text layer. The check reads the twins by OCR, in the pipeline's OCR stage.
"""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bidcheck.config import Settings
from bidcheck.ingest import read_document
from bidcheck.ingest.ocr_batch import ocr_processes, recognize_pages, time_left
from bidcheck.ingest.scan import OcrNeeded, OcrOptions, OcrTask
from bidcheck.model import CheckResult
from bidcheck.pipeline import CheckInputs, check
from bidcheck.progress import Cancelled
from tests.builders import make_docx, make_pdf, paragraphs
from tests.test_ocr import page_images, scan_pdf


def _bids(root: Path, tender: list[str]) -> list[Path]:
    """Three bids of two pages: B copied three of A's paragraphs, C wrote its own."""
    own = {name: paragraphs(seed, 4, sentences=3) for name, seed in (("a", 51), ("b", 52), ("c", 53))}
    pages = {
        "01-甲": [tender[:1] + own["a"][:2], own["a"][2:]],
        "02-乙": [tender[:1] + own["a"][:1] + own["b"][:1], own["a"][2:] + own["b"][2:3]],
        "03-丙": [tender[1:2] + own["c"][:2], own["c"][2:]],
    }
    return [
        make_pdf(root / f"{name}.pdf", body, header=f"{name}公司投标文件") for name, body in pages.items()
    ]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    root = tmp_path_factory.mktemp("scanned-section")
    tender_text = paragraphs(50, 2, sentences=3)
    tender = make_docx(root / "招标文件.docx", [tender_text])
    (root / "text").mkdir()
    (root / "scan").mkdir()
    text_bids = _bids(root / "text", tender_text)
    scans = [scan_pdf(p, root / "scan" / p.name, seed=i) for i, p in enumerate(text_bids)]
    settings = Settings(workers=2)
    messages: list[tuple[float, str]] = []
    text = check(CheckInputs(text_bids, [tender]), settings)
    scanned = check(CheckInputs(scans, [tender]), settings, lambda f, m: messages.append((f, m)))
    return {"text": text, "scan": scanned, "messages": messages}


def _live(result: CheckResult) -> dict[tuple[str, str], list[tuple[int, int, int]]]:
    names = {d.id: d.name for d in result.documents}
    return {
        (names[p.a], names[p.b]): [(q.a.page, q.b.page, q.chars) for q in p.passages if q.live]
        for p in result.pairs
    }


def test_scanned_bids_are_read_by_ocr(results: dict[str, object]) -> None:
    scanned = results["scan"]
    assert isinstance(scanned, CheckResult)
    bids = scanned.bids
    assert all(d.ok and d.ocr_pages == 2 and d.pages == 2 for d in bids), [d.error for d in bids]


def test_scanned_section_finds_what_the_text_version_finds(results: dict[str, object]) -> None:
    text, scanned = results["text"], results["scan"]
    assert isinstance(text, CheckResult) and isinstance(scanned, CheckResult)
    levels = {(p.a, p.b): p.level for p in text.pairs}
    assert levels == {(p.a, p.b): p.level for p in scanned.pairs}
    assert sorted(levels.values()) == ["high", "none", "none"]
    want, got = _live(text), _live(scanned)
    for pair, passages in want.items():
        found = sum(c for *_, c in got[pair])
        assert found >= 0.95 * sum(c for *_, c in passages), (pair, passages, got[pair])
        assert {pages[:2] for pages in passages} <= {pages[:2] for pages in got[pair]}


def test_ocr_reports_progress_page_by_page(results: dict[str, object]) -> None:
    messages = results["messages"]
    assert isinstance(messages, list)
    ocr = [m for _, m in messages if "文字识别" in m]
    assert len(ocr) == 6 and all(re.search(r"\.pdf 第 [12]/2 页", m) for m in ocr), ocr
    done = [re.search(r"（OCR）(\d+)/6 页", m) for m in ocr]
    assert [int(m.group(1)) if m else 0 for m in done] == [1, 2, 3, 4, 5, 6], ocr
    assert all("剩余约" in m for m in ocr[:-1]) and "剩余" not in ocr[-1], ocr
    fractions = [f for f, _ in messages]
    assert fractions == sorted(fractions)


def test_cancel_stops_between_ocr_pages(tmp_path: Path) -> None:
    bids = [
        scan_pdf(make_pdf(tmp_path / f"{n}.pdf", [paragraphs(60 + n, 1, 1)] * 3), tmp_path / f"s{n}.pdf")
        for n in range(3)
    ]
    cancel = threading.Event()
    seen: list[str] = []

    def progress(fraction: float, message: str) -> None:
        seen.append(message)
        if "文字识别" in message:
            cancel.set()

    with pytest.raises(Cancelled):
        check(CheckInputs(bids), Settings(workers=2), progress, cancel)
    assert sum("文字识别" in m for m in seen) < 9


def test_a_page_image_in_several_files_is_recognised_once(tmp_path: Path) -> None:
    source = make_pdf(tmp_path / "text.pdf", [paragraphs(n, 1, 1) for n in (71, 72, 73)], numbers=False)
    certificate, own_a, own_b = page_images(source)
    files = {"a": [certificate, own_a], "b": [own_b, certificate]}  # the same scan in both bids
    paths = [tmp_path / f"{name}.pdf" for name in files]
    for path, (first, second) in zip(paths, files.values(), strict=True):
        first.save(path, save_all=True, append_images=[second], resolution=150)
    tasks: list[OcrTask] = []
    for path in paths:
        with pytest.raises(OcrNeeded) as needed:
            read_document(path, "d1", OcrOptions(defer=True))
        tasks += needed.value.tasks
    assert len(tasks) == 4 and len({t.image for t in tasks}) == 3
    seen: list[str] = []
    assert recognize_pages(tasks, "rapidocr", 1, lambda _f, m: seen.append(m)) == {}
    done = [int(re.search(r"（OCR）(\d+)/4 页", m).group(1)) for m in seen]  # type: ignore[union-attr]
    steps = [after - before for before, after in itertools.pairwise([0, *done])]
    assert sorted(steps) == [1, 1, 2], seen  # three images recognised, the shared one counting twice
    a, b = (read_document(path, f"d{n}", OcrOptions(defer=True)) for n, path in enumerate(paths))
    assert a.ocr_pages == b.ocr_pages == 2
    page_a = [x.text for x in a.blocks if x.page == 1]
    assert page_a and page_a == [x.text for x in b.blocks if x.page == 2]


def test_time_left_reads_as_an_estimate() -> None:
    assert [time_left(s) for s in (0.4, 12, 59, 61, 3599, 3660, 4 * 3600 + 20 * 60)] == [
        "约 5 秒",
        "约 10 秒",
        "约 1 分钟",
        "约 1 分钟",
        "约 1 小时",
        "约 1 小时 1 分钟",
        "约 4 小时 20 分钟",
    ]


def test_ocr_runs_two_cores_to_a_process() -> None:
    # one process on all cores of a 2-core PC; past that, processes of two threads each
    assert [ocr_processes(n) for n in (1, 2, 3, 4, 9)] == [(1, 0), (1, 0), (1, 0), (2, 2), (4, 2)]


_FREED_KEPT = """
import sys
from pathlib import Path
from bidcheck.ingest.ocr_batch import keep_freed_memory
def resident_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * 4096 / 2**20
kept = keep_freed_memory() if sys.argv[1] == "keep" else False
before = resident_mb()
block = bytearray(24 << 20)  # zeroed: every page touched
block = None
print(kept, round(resident_mb() - before))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_an_ocr_worker_keeps_the_memory_it_frees() -> None:
    # a page's arrays come and go; touching memory the system hands out anew is slow on a VM
    def after_free(mode: str) -> tuple[str, int]:
        run = subprocess.run([sys.executable, "-c", _FREED_KEPT, mode], capture_output=True, text=True)
        kept, grown = run.stdout.split()
        return kept, int(grown)

    kept, grown = after_free("keep")
    assert kept == "True" and grown >= 20
    kept, grown = after_free("plain")
    assert kept == "False" and grown < 4  # glibc's default: a block this large goes back at once
