"""Scanned pages: page images of PDFs and image files, recognised by OCR into located paragraphs.

A reader asks ``PageOcr`` for the blocks of each page that needs OCR. Results come from the cache when
they are there; otherwise the page is recognised at once, or, when the options say ``defer``, the reader
finishes and raises ``OcrNeeded`` with the pages still to do, so that the pipeline can recognise the pages
of every file together, spread over the cores, with progress per page and cancel between pages
(``bidcheck.ingest.ocr_batch``), and then read the file again from the cache.

Characters recognised with a confidence below ``LOW_CONFIDENCE`` are replaced by U+FFFD in the block
text: the text keeps its length (offsets stay valid) and shows where OCR was unsure, and normalisation
drops the character, so OCR noise never makes a match.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pypdfium2 as pdfium
from PIL import Image

from bidcheck.ingest import ocr_cache
from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.layout import Line, page_blocks
from bidcheck.ingest.ocr import OcrLine, OcrUnavailable, engine_cache_id, engine_problem, get_engine
from bidcheck.ingest.pictures import MAX_PICTURES
from bidcheck.ingest.regions import region_pictures
from bidcheck.model import Block, Picture

__all__ = [
    "LOW_CONFIDENCE",
    "MAX_PAGE_PIXELS",
    "MIN_RENDER_DPI",
    "RENDER_DPI",
    "UNSURE",
    "OcrNeeded",
    "OcrOptions",
    "OcrTask",
    "PageOcr",
    "blocks_from_lines",
    "load_engine_soon",
    "load_task_image",
    "mask_unsure",
    "recognize_task",
    "render_pdf_page",
    "render_scale",
    "unread_message",
]

RENDER_DPI = 200
# The largest page image made for OCR (one grey byte a pixel): an A0 drawing is rendered at about 160 dpi
# instead of 200, and a page that would need less than MIN_RENDER_DPI to fit (more than ten A0 sheets,
# such as a drawing saved with a wrong page size) is not read by OCR at all. The engine itself looks at
# no more than 2,400 pixels a side (``bidcheck.ingest.ocr``), so the larger bitmap would buy nothing.
MAX_PAGE_PIXELS = 40_000_000
MIN_RENDER_DPI = 50
LOW_CONFIDENCE = 0.5
UNSURE = "\ufffd"
_COMPARED = re.compile(r"[^\W_]")  # the characters normalisation keeps (bidcheck.text.normalize)
SourceKind = Literal["pdf", "image"]
_LOADING = threading.Lock()
# PDFium may not be called from two threads at once, not even on two documents (pypdfium2's docs): the
# OCR stage's pages, rendered in threads of one process, take turns
_PDFIUM = threading.Lock()


@dataclass(frozen=True)
class OcrOptions:
    """How readers treat pages that need OCR.

    Attributes:
        engine: ``"rapidocr"`` or ``"paddleocr"``.
        defer: Raise ``OcrNeeded`` for pages not in the cache instead of recognising them in the reader.
        threads: Threads for one recognition in the reader (0: every core).
        unread: Pages (0-based) not to recognise, each with the reason in a user's words (the OCR stage
            gave up on them) and the file it is a page of (``""``: the file read); they are read as pages
            without text. A bidder's folder reads several files with one set of options.
    """

    engine: str = "rapidocr"
    defer: bool = False
    threads: int = 0
    unread: tuple[tuple[int, str, str], ...] = ()


@dataclass(frozen=True)
class OcrTask:
    """One page to recognise: a PDF page or an image frame (0-based), and its file's page count.

    ``digest`` is the hash of the file's bytes and ``image`` the cache key of the page image, when the
    reader that deferred the page knew them (``""`` otherwise): the OCR stage hashes no file again, and
    recognises a page image found in several files once.
    """

    path: str
    kind: SourceKind
    page: int
    pages: int
    digest: str = ""
    image: str = ""


class OcrNeeded(Exception):
    """A deferred read: these pages must be recognised first (see the module docstring)."""

    def __init__(self, tasks: tuple[OcrTask, ...]) -> None:
        super().__init__(f"{len(tasks)} pages need OCR")
        self.tasks = tasks


def render_scale(width_pt: float, height_pt: float) -> float | None:
    """Pixels per point to render a page of this size at for OCR: ``RENDER_DPI``, or less so that the image
    holds at most ``MAX_PAGE_PIXELS``; ``None`` when even ``MIN_RENDER_DPI`` would make it larger."""
    fit = math.sqrt(MAX_PAGE_PIXELS / max(width_pt * height_pt, 1.0)) * 0.999  # pixels are rounded up
    scale = min(RENDER_DPI / 72, fit)
    return scale if scale * 72 >= MIN_RENDER_DPI else None


def unread_message(page: int, width_pt: float, height_pt: float) -> str:
    """Why a page (1-based) is too large to read by OCR, in a user's words."""
    width_mm, height_mm = (round(v * 25.4 / 72) for v in (width_pt, height_pt))
    return f"第 {page} 页尺寸过大（{width_mm} × {height_mm} 毫米），超出文字识别能处理的大小"


def render_pdf_page(pdf: pdfium.PdfDocument, index: int) -> Image.Image:
    """A PDF page as a grey image at ``RENDER_DPI`` (or less, see ``render_scale``).

    Raises:
        ReadError: The page is too large to render for OCR at all.
    """
    page = pdf[index]
    try:
        width, height = page.get_size()
        scale = render_scale(width, height)
        if scale is None:
            raise ReadError(unread_message(index + 1, width, height))
        bitmap = page.render(scale=scale, grayscale=True)
        try:
            image: Image.Image = bitmap.to_pil()
            return image.convert("L")
        finally:
            bitmap.close()
    finally:
        page.close()


def load_task_image(task: OcrTask) -> Image.Image:
    """The page image of a task: a PDF page rendered, or an image file's frame, in grey, at most
    ``MAX_PAGE_PIXELS`` large."""
    if task.kind == "pdf":
        with _PDFIUM:
            pdf = pdfium.PdfDocument(task.path)
            try:
                return render_pdf_page(pdf, task.page)
            finally:
                pdf.close()
    with Image.open(task.path) as image:
        image.seek(task.page)
        width, height = image.size
        if width * height > MAX_PAGE_PIXELS:
            shrink = math.sqrt(MAX_PAGE_PIXELS / (width * height)) * 0.999
            size = (max(1, int(width * shrink)), max(1, int(height * shrink)))
            image.draft("L", size)  # a JPEG is decoded at the smaller size right away
            return image.convert("L").resize(size, Image.Resampling.BOX)
        return image.convert("L")


def recognize_task(task: OcrTask, engine_name: str, threads: int = 0) -> None:
    """Recognise one page into the cache (the work of ``bidcheck.ingest.ocr_batch``).

    The engine begins to load while the first page renders (``load_engine_soon``). The page's paragraphs
    and pictures are left to the reader, which reads the page from the cache afterwards.
    """
    load_engine_soon(engine_name, threads)
    options = OcrOptions(engine_name, threads=threads)
    PageOcr(Path(task.path), task.kind, task.pages, options, _digest=task.digest or None).lines(task.page)


@functools.cache
def load_engine_soon(name: str, threads: int = 0) -> None:
    """Begin loading the engine in a thread, once a process: an OCR worker renders its first pages while
    the models load. An engine that cannot load is left to the page that asks for it, which reports why."""
    # not a daemon: a process that ends while ONNX Runtime loads would abort (as ``preload_encoder``)
    threading.Thread(target=_load_engine, args=(name, threads), name="ocr-engine").start()


def _load_engine(name: str, threads: int) -> None:
    with contextlib.suppress(Exception), _LOADING:
        get_engine(name, threads)


@dataclass
class PageOcr:
    """The OCR of one file's pages, from the cache or the engine, as the options say."""

    path: Path
    kind: SourceKind
    pages: int
    options: OcrOptions
    pending: list[OcrTask] = field(default_factory=list)
    done: int = 0
    unread: list[str] = field(default_factory=list)  # why pages were not read, in a user's words
    pictures: list[Picture] = field(default_factory=list)  # on the pages read (bidcheck.ingest.regions)
    _digest: str | None = None

    def blocks(self, index: int) -> list[Block]:
        """The paragraphs of page ``index`` (0-based); ``[]`` while it waits for deferred OCR, or when the
        OCR stage gave up on it (``OcrOptions.unread``).

        The page image is loaded (rendered) only when its result is not in the cache.
        """
        mine = ("", str(self.path))
        reason = next(
            (why for page, why, path in self.options.unread if page == index and path in mine), None
        )
        if reason is not None:
            self.unread.append(f"第 {index + 1} 页{reason}")
            return []
        lines, image = self.lines(index)
        if lines is None:
            return []
        self.done += 1
        self._find_pictures(index, lines, image)
        return blocks_from_lines(lines, index + 1)

    def lines(self, index: int) -> tuple[list[OcrLine] | None, Image.Image | None]:
        """The OCR lines of page ``index`` (0-based), from the cache or recognised now (``None`` while it
        waits for deferred OCR), and the page image when it was loaded to recognise it."""
        lines = self._cached(index)
        if lines is not None:
            return lines, None
        image = load_task_image(self._task(index))
        return self._recognize(index, image), image

    def _find_pictures(self, index: int, lines: list[OcrLine], image: Image.Image | None) -> None:
        """Add the pictures among the page's text (``bidcheck.ingest.regions``), the page image loaded
        again when it came from the cache; a page whose pictures cannot be found keeps its text."""
        if len(self.pictures) >= MAX_PICTURES:
            return
        try:
            page = image or load_task_image(self._task(index))
            found = region_pictures(page, [line.box for line in lines], index + 1)
        except Exception:  # a picture is never worth failing a page for
            return
        self.pictures += found[: MAX_PICTURES - len(self.pictures)]

    def finish(self) -> None:
        """Raise ``OcrNeeded`` when pages were deferred."""
        if self.pending:
            raise OcrNeeded(tuple(self.pending))

    def skip(self, message: str) -> None:
        """Note a page the reader did not ask for because it cannot be read (``message`` says why)."""
        self.unread.append(message)

    def check_read(self, blocks: list[Block]) -> None:
        """Raise ``ReadError`` naming the pages not read when the document gave no text at all."""
        if self.unread and not blocks:
            more = f"（共 {len(self.unread)} 页未能读取）" if len(self.unread) > 1 else ""
            raise ReadError(f"{self.unread[0]}，未能读取{more}，文件中没有其他可比较的文字")

    def _cached(self, index: int) -> list[OcrLine] | None:
        problem = engine_problem(self.options.engine)
        if problem:
            raise OcrUnavailable(problem)
        if self._digest is None:
            self._digest = ocr_cache.file_digest(self.path)
        return ocr_cache.load_lines(self._page_key(index))

    def _page_key(self, index: int) -> str:
        return ocr_cache.page_key(engine_cache_id(self.options.engine), self._digest or "", index, RENDER_DPI)

    def _recognize(self, index: int, image: Image.Image) -> list[OcrLine] | None:
        by_image = ocr_cache.image_key(engine_cache_id(self.options.engine), image)
        lines = ocr_cache.load_lines(by_image)
        if lines is not None:
            ocr_cache.store_lines([self._page_key(index)], lines)
            return lines
        if self.options.defer:
            self.pending.append(self._task(index, by_image))
            return None
        with _LOADING:  # pages recognised at once in threads (the OCR stage) share one engine
            engine = get_engine(self.options.engine, self.options.threads)
        lines = engine.recognize(image)
        ocr_cache.store_lines([self._page_key(index), by_image], lines)
        return lines

    def _task(self, index: int, image: str = "") -> OcrTask:
        return OcrTask(str(self.path), self.kind, index, self.pages, self._digest or "", image)


def mask_unsure(line: OcrLine, threshold: float = LOW_CONFIDENCE) -> str:
    """The line's text with every compared character below ``threshold`` confidence replaced by U+FFFD.

    Only letters, digits and CJK characters are masked: punctuation and spaces never reach the comparison.
    """
    masked = [
        UNSURE if conf < threshold and _COMPARED.match(char) else char
        for char, conf in zip(line.text, line.confidences, strict=False)
    ]
    return "".join(masked) + line.text[len(masked) :]


Box = tuple[float, float, float, float]


def _join_row(row: list[OcrLine]) -> tuple[str, Box]:
    """The boxes of one text row (the detector may split a row at a wide gap), left to right."""
    row = sorted(row, key=lambda ln: ln.box[0])
    text = mask_unsure(row[0])
    for prev, line in itertools.pairwise(row):
        wide_gap = line.box[0] - prev.box[2] > line.box[3] - line.box[1]
        text += (" " if wide_gap else "") + mask_unsure(line)
    box = (row[0].box[0], min(ln.box[1] for ln in row), row[-1].box[2], max(ln.box[3] for ln in row))
    return text, box


def _rows(lines: list[OcrLine]) -> list[tuple[str, Box]]:
    """Lines grouped into rows (a line whose middle lies within the row's height joins it), top down."""
    rows: list[list[OcrLine]] = []
    for line in sorted(lines, key=lambda ln: (ln.box[1] + ln.box[3]) / 2):
        middle = (line.box[1] + line.box[3]) / 2
        if rows and min(ln.box[1] for ln in rows[-1]) <= middle <= max(ln.box[3] for ln in rows[-1]):
            rows[-1].append(line)
        else:
            rows.append([line])
    return [_join_row(row) for row in rows]


def blocks_from_lines(lines: list[OcrLine], page: int) -> list[Block]:
    """Paragraph blocks of one page from its OCR lines, unsure characters masked.

    ``page_blocks`` judges gaps and indents against the line height, so pixels serve as well as
    points; ``top`` is measured downwards as a negative number, as it looks only at differences.
    """
    located = [
        Line(text, box[0], box[2], -box[1], box[3] - box[1])
        for text, box in _rows([ln for ln in lines if ln.text.strip()])
    ]
    return page_blocks(located, page)
