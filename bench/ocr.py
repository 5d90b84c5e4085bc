"""OCR speed and accuracy on dense scanned A4 pages, through bidcheck's own OCR stage and reader.

Usage: .venv/bin/python bench/ocr.py [--pages N] [--workers N] [--dpi N] [--noise SIGMA]
                                    [--runtime openvino|onnxruntime] [--models-compiled]
                                    [--at-once N]

It lays out the sample section's Chinese text as a bid (bench/writers.py: 11 pt, about 1,300 characters
on a full A4 page), scans it as a scanner would (pages rendered in grey at --dpi, Gaussian noise of
--noise grey levels, written back as an image-only PDF), and then, with an empty OCR cache:

* times the pipeline's OCR stage (``recognize_pages``: worker processes, one page each; the time
  includes starting the workers and loading the models) -> pages per second;
* reads the scanned PDF (from the cache, as the pipeline does) and compares every page with the text
  of the original PDF: character error rate = edit distance / characters of the original, over the text
  as bidcheck compares it (letters, digits, CJK) and over the raw text (punctuation kept, spaces removed);
* times the stage and the read once more, now answered by the cache.

The OCR cache starts empty, and so does the cache of the models OpenVINO compiled, as on the first check
after installing; ``--models-compiled`` compiles them into it first, as on a PC that has read scans before.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from PIL import Image
from rapidfuzz.distance import Levenshtein

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "resources" / "sample")]

import texts  # noqa: E402

from bench.writers import Chapter, write_pdf  # noqa: E402
from bidcheck.ingest import read_document  # noqa: E402
from bidcheck.ingest.ocr import RUNTIME_ENV, RapidOcrEngine, rapid_runtime  # noqa: E402
from bidcheck.ingest.ocr_batch import PAGES_AT_ONCE, recognize_pages  # noqa: E402
from bidcheck.ingest.scan import UNSURE, OcrOptions, OcrTask  # noqa: E402
from bidcheck.model import Document  # noqa: E402
from bidcheck.text import clean_document  # noqa: E402
from bidcheck.text.normalize import normalize  # noqa: E402


def sample_paragraphs() -> list[str]:
    """Every paragraph of the sample section's texts, in a fixed order."""
    out: list[str] = []
    for name in sorted(dir(texts)):
        value = getattr(texts, name)
        if not isinstance(value, tuple):
            continue
        for item in value:
            if isinstance(item, str) and len(item) > 40:
                out.append(item)
            elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], tuple):
                out.extend(p for p in item[1] if isinstance(p, str))
    return out


def dense_pdf(path: Path, pages: int) -> list[int]:
    """A text PDF; returns the indexes of ``pages`` full pages (the cover and the last page left out)."""
    paragraphs = sample_paragraphs()
    while sum(map(len, paragraphs)) < pages * 1500 + 3000:
        paragraphs = paragraphs + paragraphs
    write_pdf(
        path,
        title="施工组织设计",
        header="某某建设集团有限公司投标文件",
        chapters=[Chapter("施工组织设计", tuple(paragraphs))],
    )
    return list(range(1, pages + 1))


def scan(source: Path, target: Path, indexes: list[int], dpi: int, noise: float, seed: int = 1) -> None:
    """Render the chosen pages in grey with noise drawn from ``seed`` and write them as an image-only PDF
    (two documents scanned apart need seeds of their own: no two real scans are the same pixels)."""
    rng = np.random.default_rng(seed)
    pdf = pdfium.PdfDocument(source)
    images = []
    for index in indexes:
        gray = np.asarray(pdf[index].render(scale=dpi / 72, grayscale=True).to_pil().convert("L"), np.float32)
        images.append(
            Image.fromarray(np.clip(gray + rng.normal(0, noise, gray.shape), 0, 255).astype(np.uint8))
        )
    pdf.close()
    images[0].save(target, save_all=True, append_images=images[1:], resolution=dpi)


def page_texts(doc: Document) -> dict[int, str]:
    """The compared text of each page (running headers and page numbers removed), spaces dropped."""
    out: dict[int, str] = {}
    for block in clean_document(doc).compared_blocks():
        out[block.page] = out.get(block.page, "") + "".join(block.text.split())
    return out


def error_rates(truth: dict[int, str], got: dict[int, str]) -> tuple[float, float, int]:
    """(compared-text CER, raw CER, characters) over all pages."""
    raw_errors = norm_errors = raw_chars = norm_chars = 0
    for page, want in truth.items():
        have = got.get(page, "")
        raw_errors += Levenshtein.distance(want, have)
        raw_chars += len(want)
        a, b = normalize(want)[0], normalize(have)[0]
        norm_errors += Levenshtein.distance(a, b)
        norm_chars += len(a)
    return norm_errors / max(norm_chars, 1), raw_errors / max(raw_chars, 1), norm_chars


def _cpu_seconds() -> tuple[float, float]:
    """CPU time of this process and of its finished children (the OCR workers): in all, and of it the
    time spent in the system (most of it memory touched for the first time)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    system = own.ru_stime + children.ru_stime
    return own.ru_utime + children.ru_utime + system, system


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=int, default=16)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--dpi", type=int, default=200)
    parser.add_argument("--noise", type=float, default=10.0)
    parser.add_argument("--runtime", choices=("openvino", "onnxruntime"), help="default: bidcheck's choice")
    parser.add_argument("--models-compiled", action="store_true", help="compiled models cached before")
    parser.add_argument("--at-once", type=int, default=PAGES_AT_ONCE, help="pages a worker holds at once")
    args = parser.parse_args()
    if args.runtime:
        os.environ[RUNTIME_ENV] = args.runtime  # the workers inherit it
    with tempfile.TemporaryDirectory() as temp:
        os.environ["BIDCHECK_CACHE_DIR"] = str(Path(temp) / "cache")
        if args.models_compiled:
            RapidOcrEngine()  # OpenVINO keeps what it compiled in the cache
        text_pdf, scan_pdf = Path(temp) / "text.pdf", Path(temp) / "scan.pdf"
        indexes = dense_pdf(text_pdf, args.pages)
        scan(text_pdf, scan_pdf, indexes, args.dpi, args.noise)
        original = read_document(text_pdf, "d1")
        truth_by_index = page_texts(original)
        truth = {n: truth_by_index[i + 1] for n, i in enumerate(indexes, start=1)}
        tasks = [OcrTask(str(scan_pdf), "pdf", i, len(indexes)) for i in range(len(indexes))]
        load = os.getloadavg()[0]
        started, cpu = time.perf_counter(), _cpu_seconds()
        recognize_pages(tasks, "rapidocr", args.workers, at_once=args.at_once)
        ocr_s = time.perf_counter() - started
        ocr_cpu, ocr_system = (after - before for after, before in zip(_cpu_seconds(), cpu, strict=True))
        started = time.perf_counter()
        doc = read_document(scan_pdf, "d2")
        read_s = time.perf_counter() - started
        started = time.perf_counter()
        read_document(scan_pdf, "d2", OcrOptions(defer=True))  # as the pipeline's first pass: all cached
        again_s = time.perf_counter() - started
    cer, raw_cer, chars = error_rates(truth, page_texts(doc))
    unsure = sum(b.text.count(UNSURE) for b in doc.blocks)
    print(f"command: .venv/bin/python {' '.join(sys.argv)}")
    print(
        f"{len(indexes)} dense A4 pages ({chars / len(indexes):.0f} compared characters each), "
        f"{args.dpi} dpi, noise {args.noise:g}, {args.workers} workers on {os.cpu_count()} cores, "
        f"{args.at_once} pages at once a process, "
        f"rapidocr on {rapid_runtime()}" + (", compiled models cached" if args.models_compiled else "")
    )
    print(f"  load average before the run: {load:.1f}")
    print(
        f"  OCR stage: {ocr_s:.1f} s -> {len(indexes) / ocr_s:.2f} pages/s "
        "(start-up and model loading included)"
    )
    idle_rate = (os.cpu_count() or 1) * len(indexes) / ocr_cpu
    print(
        f"  CPU time {ocr_cpu / len(indexes):.2f} s per page (system {ocr_system / len(indexes):.2f}) "
        f"-> {idle_rate:.2f} pages/s on idle cores"
    )
    print(f"  reading the scan from the cache afterwards: {read_s:.2f} s")
    print(f"  character error rate: {cer:.3%} of compared text, {raw_cer:.3%} raw (punctuation kept)")
    print(f"  characters masked as unsure (U+FFFD): {unsure} ({unsure / max(chars, 1):.2%})")
    print(f"  re-run (the pipeline's first reading finds every page in the cache): {again_s:.2f} s")


if __name__ == "__main__":
    main()
