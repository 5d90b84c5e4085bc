"""OCR: scanned PDF pages, mixed PDFs, image files, unsure characters, the cache, the engine choice.

The scans are made as a scanner makes them: text PDF pages rendered to grey images, mild noise added,
written back as image-only PDFs. OCR runs for real; pages are kept short so that the tests stay quick.
"""

from __future__ import annotations

import json
import locale
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image
from rapidfuzz.distance import Levenshtein

from bidcheck.config import Settings, SettingsError
from bidcheck.ingest import read_document
from bidcheck.ingest.ocr import (
    RUNTIME_ENV,
    OcrLine,
    OcrUnavailable,
    RapidOcrEngine,
    bundled_models,
    engine_cache_id,
    get_engine,
    paddle_model_dirs,
    rapid_runtime,
)
from bidcheck.ingest.ocr_batch import PAGES_AT_ONCE
from bidcheck.ingest.ocr_cache import file_digest, page_key
from bidcheck.ingest.ocr_detect import TextDetector
from bidcheck.ingest.ocr_lines import LineRecognizer, RecognizedLine
from bidcheck.ingest.scan import (
    RENDER_DPI,
    UNSURE,
    OcrNeeded,
    OcrOptions,
    OcrTask,
    mask_unsure,
    recognize_task,
)
from bidcheck.memo import load_blob, store_blob
from bidcheck.model import Document
from bidcheck.text import clean_document
from bidcheck.text.normalize import normalize
from tests.builders import make_pdf, paragraphs


def page_images(source: Path, dpi: int = 150, noise: float = 8.0, seed: int = 0) -> list[Image.Image]:
    """The pages of a PDF as a scanner sees them: grey images at ``dpi`` with a little noise."""
    rng = np.random.default_rng(seed)
    pdf = pdfium.PdfDocument(source)
    images = []
    for index in range(len(pdf)):
        gray = np.asarray(pdf[index].render(scale=dpi / 72, grayscale=True).to_pil().convert("L"), np.float32)
        noisy = gray + rng.normal(0.0, noise, gray.shape)
        images.append(Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8)))
    pdf.close()
    return images


def scan_pdf(source: Path, target: Path, dpi: int = 150, seed: int = 0) -> Path:
    """An image-only copy of a text PDF (no text layer left), as a scanned bid is."""
    images = page_images(source, dpi, seed=seed)
    images[0].save(target, save_all=True, append_images=images[1:], resolution=dpi)
    return target


# OCR confuses a look-alike character now and then (洒 read as 酒): one or two on a line of 45 is OCR,
# not a fault of the reading around it, so the tests allow 5% (two characters of 45).
OCR_ERROR = 0.05


def wrong_chars(got: str, want: str) -> int:
    """Characters inserted, deleted or replaced between two texts as they are compared (normalised)."""
    return Levenshtein.distance(normalize(want)[0], normalize(got)[0])


def error_rate(got: str, want: str) -> float:
    """Character error rate between two texts as they are compared (normalised)."""
    return wrong_chars(got, want) / max(len(normalize(want)[0]), 1)


def compared_texts(doc: Document) -> list[tuple[int, str]]:
    return [(b.page, b.text) for b in clean_document(doc).compared_blocks()]


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return paragraphs(21, 4, sentences=2)


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory, texts: list[str]) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("scans")
    source = make_pdf(root / "text.pdf", [texts[:2], texts[2:]], header="甲公司投标文件")
    return {"text": source, "scan": scan_pdf(source, root / "scan.pdf")}


def test_unsure_characters_are_masked_and_left_out_of_the_comparison() -> None:
    text = "投标报价为12.5万元"
    confidences = (0.99, 0.99, 0.3, 0.99, 0.99, 0.4, 0.99, 0.2, 0.99, 0.99, 0.99)
    masked = mask_unsure(OcrLine(text, confidences, (0, 0, 100, 10)))
    assert (
        masked == f"投标{UNSURE}价为{UNSURE}2.5万元"
    )  # the unsure "." is punctuation: never compared anyway
    norm, offsets, _ = normalize(masked)
    assert norm == "投标价为25万元"
    assert [masked[i] for i in offsets] == list(norm)  # offsets into the shown text stay valid


def test_ctc_decoding_drops_blanks_and_repeats_and_gives_each_character_its_own_confidence() -> None:
    def top1(batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        steps = np.array([[0, 1, 1, 0, 1, 3, 0, 2, 2]] * len(batch))  # blank 甲 甲 blank 甲 space blank 乙 乙
        probs = np.array([[0.99, 0.9, 0.7, 0.99, 0.8, 0.95, 0.99, 0.3, 0.6]] * len(batch))
        return steps, probs

    read = LineRecognizer(top1, ["甲", "乙"])
    crops = [np.zeros((30, width), np.uint8) for width in (300, 90)]  # grey line images
    assert read(crops) == [RecognizedLine("甲甲 乙", (0.9, 0.8, 1.0, 0.3), 0.7375)] * 2


def test_batch_widths_are_rounded_up_to_the_width_step_and_each_line_keeps_its_own_width() -> None:
    seen: list[np.ndarray] = []

    def top1(batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        seen.append(batch)
        return np.ones((len(batch), 4), np.int64), np.ones((len(batch), 4), np.float32)

    crops = [np.zeros((30, width), np.uint8) for width in (300, 301, 302, 1000, 1003)]  # black lines
    for step, widths in ((1, [480, 481, 483, 1600, 1604]), (8, [480, 488, 488, 1600, 1608])):
        seen.clear()
        assert len(LineRecognizer(top1, ["甲"], batch=1, width_step=step)(crops)) == 5
        assert [batch.shape[3] for batch in seen] == widths  # 48 pixels high: rapidocr's width, rounded up
        inked = [int((batch[0, 0] < 0).any(axis=0).sum()) for batch in seen]
        lines = [480, 482, 484, 1600, 1605]  # each line scaled to its own width (rounded up), padded after it
        assert inked == [min(line, width) for line, width in zip(lines, widths, strict=True)]


def test_scanned_pdf_is_read_by_ocr_and_located_by_page(scanned: dict[str, Path], texts: list[str]) -> None:
    doc = read_document(scanned["scan"], "d1")
    assert doc.ok and doc.format == "pdf" and doc.pages == 2
    assert doc.ocr_pages == 2 and doc.pages_without_text == ()
    cleaned = clean_document(doc)
    kinds = {b.kind for b in cleaned.blocks if "公司投标文件" in b.text}
    assert kinds == {"header"}
    got = compared_texts(doc)
    assert [page for page, _ in got] == [1, 1, 2, 2]
    for (_, ocr_text), want in zip(got, texts, strict=True):
        assert error_rate(ocr_text, want) <= OCR_ERROR, ocr_text


def _forget_engines() -> None:
    for cached in (rapid_runtime, engine_cache_id, get_engine):
        cached.cache_clear()


@pytest.mark.parametrize("runtime", ["openvino", "onnxruntime"])
def test_both_runtimes_read_a_scanned_page(
    runtime: str, scanned: dict[str, Path], texts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(RUNTIME_ENV, runtime)
    _forget_engines()
    try:
        assert rapid_runtime() == runtime and f"-{runtime}-" in engine_cache_id("rapidocr")
        [image] = page_images(scanned["text"])[:1]
        lines = get_engine("rapidocr", 1).recognize(image)
        got = "".join(line.text for line in lines)
        want = "甲公司投标文件" + "".join(texts[:2]) + "第1页共2页"  # the running header and page number too
        assert error_rate(got, want) <= OCR_ERROR, got
    finally:
        monkeypatch.delenv(RUNTIME_ENV)
        _forget_engines()


@pytest.mark.parametrize("runtime", ["openvino", "onnxruntime"])
def test_lines_read_the_same_as_by_rapidocrs_own_recogniser(runtime: str, scanned: dict[str, Path]) -> None:
    from rapidocr import RapidOCR
    from rapidocr.utils.typings import EngineType

    [image] = page_images(scanned["text"])[:1]
    # rapidocr's batch widths, and the model as shipped (rapidocr does not round its convolutions)
    ours = RapidOcrEngine(1, runtime, squeeze=0.6, width_step=1, int8=False).recognize(image)
    engine = EngineType.OPENVINO if runtime == "openvino" else EngineType.ONNXRUNTIME
    rapid = RapidOCR(
        params={
            "Global.log_level": "critical",
            "Global.use_cls": False,
            "Det.limit_type": "max",
            "Det.limit_side_len": 960,
            "Det.engine_type": engine,
            "Rec.engine_type": engine,
            "EngineConfig.openvino.inference_num_threads": 1,
            "EngineConfig.onnxruntime.intra_op_num_threads": 1,
        }
    )
    narrow = image.resize((round(image.width * 0.6), image.height), Image.Resampling.BOX).convert("RGB")
    theirs = rapid(np.asarray(narrow))
    assert len(ours) > 5
    assert [line.text for line in ours] == list(getattr(theirs, "txts", None) or ())
    rounded = RapidOcrEngine(1, runtime, squeeze=0.6, int8=False).recognize(
        image
    )  # OpenVINO: widths in steps of 8
    assert [line.text for line in rounded] == [line.text for line in ours]


@pytest.mark.parametrize("runtime", ["openvino", "onnxruntime"])
def test_lines_are_found_and_cut_out_as_by_rapidocrs_own_detector(
    runtime: str, scanned: dict[str, Path]
) -> None:
    from bench.ocr_detect import rapid_detector, rapid_lines

    [image] = page_images(scanned["text"])[:1]
    page = np.asarray(
        image.convert("L").resize((round(image.width * 0.6), image.height), Image.Resampling.BOX)
    )
    models = bundled_models()
    assert models is not None
    crops, boxes = TextDetector(models[0], runtime, 1, 960)(page)
    their_crops, their_boxes = rapid_lines(rapid_detector(runtime), page)
    assert len(boxes) > 5
    assert np.array_equal(np.array(boxes), np.array(their_boxes, np.float32))
    assert [c.shape for c in crops] == [c.shape for c in their_crops]
    differ = [np.abs(a.astype(int) - b) for a, b in zip(crops, their_crops, strict=True)]
    assert max(int(d.max()) for d in differ) <= 1  # a tilted line's bicubic sums, added in another order
    assert sum(int((d > 0).sum()) for d in differ) <= 0.001 * sum(c.size for c in crops)


def test_a_page_wider_than_the_detector_takes_and_a_lone_line_are_read_as_rapidocr_reads_them(
    scanned: dict[str, Path],
) -> None:
    from bench.ocr_detect import rapid_detector, rapid_lines

    page = np.asarray(page_images(scanned["text"], dpi=200)[0].convert("L"))
    models = bundled_models()
    assert models is not None
    detect, rapid = TextDetector(models[0], "onnxruntime", 1, 960), rapid_detector("onnxruntime")
    _, boxes = detect(page)
    top, bottom = int(boxes[1][0][1]) - 5, int(boxes[1][2][1]) + 5
    wide = np.ascontiguousarray(np.tile(page, (1, 2)))  # over 2,400 pixels: scaled down first
    strip = np.ascontiguousarray(page[top:bottom])  # one line, 30 times wider than tall: padded
    for image in (wide, strip):
        ours, theirs = detect(image)[1], rapid_lines(rapid, image)[1]
        assert len(ours) >= 1 and np.array_equal(np.array(ours), np.array(theirs, np.float32))


@pytest.mark.parametrize("runtime", ["openvino", "onnxruntime"])
def test_a_pages_lines_recognised_two_batches_at_once_read_as_one_after_the_other(
    runtime: str, scanned: dict[str, Path]
) -> None:
    [image] = page_images(scanned["text"], dpi=200)[:1]
    one = RapidOcrEngine(1, runtime).recognize(image)
    two = RapidOcrEngine(2, runtime).recognize(image)
    assert len(one) > 5 and two == one  # text, every character's confidence and the boxes


@pytest.mark.parametrize("runtime", ["openvino", "onnxruntime"])
def test_pages_recognised_at_once_in_threads_read_as_one_after_the_other(
    runtime: str, scanned: dict[str, Path]
) -> None:
    # as a worker of the OCR stage recognises them (PAGES_AT_ONCE): their batches share the streams
    images = page_images(scanned["text"], dpi=200) * 2
    engine = RapidOcrEngine(2, runtime)
    alone = [engine.recognize(image) for image in images]
    with ThreadPoolExecutor(PAGES_AT_ONCE) as pool:
        together = list(pool.map(engine.recognize, images))
    assert all(len(lines) > 5 for lines in alone) and together == alone  # text, confidences, boxes


def test_characters_outside_the_shortlist_are_read_as_the_whole_last_layer_reads_them(tmp_path: Path) -> None:
    # names in uncommon characters (none of them in GB 2312) and words in GB 2312's second level (砼,
    # 鑫, 晟...): the recogniser's last layer runs over the first level first, and a step that none of
    # its characters wins surely is scored over all of them
    names = "项目经理王堃与技术负责人李喆、施工员周珺、资料员孙玥共同负责，地址为昇平路，联系人吴彧与郑翀。"
    second = (
        "浙江鑫晟建设有限公司承建溧阳至泸州段，C30砼浇筑由杨琨、张淼负责，氩弧焊由赵钰、陈璐完成，"
        "监理单位为衢州瑾瑜工程咨询有限公司，楠木与榕树移栽至鄞州区。"
    )
    pages = [[names], [second]]
    images = page_images(make_pdf(tmp_path / "names.pdf", pages, numbers=False))
    for image, wanted in zip(images, ("堃喆珺玥昇彧翀", "鑫晟溧泸砼琨淼氩钰璐衢瑾瑜楠榕鄞"), strict=True):
        shortlist = RapidOcrEngine(1, "openvino").recognize(image)
        whole = RapidOcrEngine(1, "openvino", shortlist=False).recognize(image)
        read = "".join(line.text for line in shortlist)
        assert all(c in read for c in wanted), read
        assert [line.text for line in shortlist] == [line.text for line in whole]


def test_openvino_keeps_the_models_it_compiled_in_the_cache_and_loads_them_next_time(
    scanned: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(tmp_path))
    [image] = page_images(scanned["text"])[:1]
    first = RapidOcrEngine(1, "openvino").recognize(image)
    folder = tmp_path / "models" / "openvino"
    compiled = {path: path.stat().st_mtime_ns for path in folder.glob("*.blob")}
    assert len(compiled) == 2  # the detector and the recogniser
    assert RapidOcrEngine(1, "openvino").recognize(image) == first
    assert {path: path.stat().st_mtime_ns for path in folder.glob("*.blob")} == compiled  # loaded, not made


def test_loading_the_engine_leaves_the_locale_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the recogniser loads in a thread beside the detector; two compiles at once left LC_CTYPE "C", and
    # a text subprocess read later in the process failed on its UTF-8
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(tmp_path))
    before = locale.setlocale(locale.LC_CTYPE)
    for _ in range(3):  # made, then loaded from the cache folder
        assert RapidOcrEngine(1, "openvino").recognize(Image.new("L", (400, 200), 255)) == []
        assert locale.setlocale(locale.LC_CTYPE) == before


def test_pages_of_odd_shapes_give_no_lines_and_no_error() -> None:
    models = bundled_models()
    assert models is not None
    detect = TextDetector(models[0], "onnxruntime", 1, 960)
    for width, height in [
        (2500, 10),
        (5, 5000),
        (1, 1),
        (3, 40),
        (4000, 40),
    ]:  # too thin to scale, tiny, wide
        assert detect(np.full((height, width), 255, np.uint8)) == ([], [])


def test_a_rerun_reads_the_cache(scanned: dict[str, Path], ocr_cache_in_tmp: Path) -> None:
    first = read_document(scanned["scan"], "d1")
    key = page_key(engine_cache_id("rapidocr"), file_digest(scanned["scan"]), 0, RENDER_DPI)
    assert list(ocr_cache_in_tmp.rglob(f"{key}.json"))
    data = json.loads(load_blob("ocr", key, ".json") or b"")
    data["lines"] = [["缓存中的文字", [1.0] * 6, [100, 100, 400, 130]]]
    store_blob("ocr", key, json.dumps(data, ensure_ascii=False).encode(), ".json")
    again = read_document(scanned["scan"], "d1")
    assert [b.text for b in again.blocks if b.page == 1] == ["缓存中的文字"]
    assert [b for b in again.blocks if b.page == 2] == [b for b in first.blocks if b.page == 2]


def test_the_ocr_stages_pages_are_read_from_the_cache_afterwards(tmp_path: Path, texts: list[str]) -> None:
    # a worker's work on a page: the engine loads in a thread while the page renders, the lines go to
    # the cache, and the reader finds the paragraphs there
    source = make_pdf(tmp_path / "text.pdf", [texts[:2], texts[2:]], numbers=False)
    scan = scan_pdf(source, tmp_path / "scan.pdf", seed=7)
    with pytest.raises(OcrNeeded) as needed:
        read_document(scan, "d1", OcrOptions(defer=True))
    assert len(needed.value.tasks) == 2
    for task in needed.value.tasks:
        recognize_task(task, "rapidocr")
    doc = read_document(scan, "d1", OcrOptions(defer=True))  # would defer again were a page missing
    assert doc.ocr_pages == 2
    for page, want in ((1, texts[:2]), (2, texts[2:])):
        got = "".join(text for number, text in compared_texts(doc) if number == page)
        assert error_rate(got, "".join(want)) < OCR_ERROR, got


def test_an_ocr_engine_that_cannot_load_is_reported_by_the_page(tmp_path: Path) -> None:
    # the worker's engine loads in a thread of its own; its failure reaches the page, not the thread
    Image.new("L", (600, 800), 255).save(tmp_path / "page.png")
    with pytest.raises(OcrUnavailable, match="未知的 OCR 引擎"):
        recognize_task(OcrTask(str(tmp_path / "page.png"), "image", 0, 1), "tesseract")


def test_mixed_pdf_is_read_page_by_page(tmp_path: Path, texts: list[str]) -> None:
    text_part = make_pdf(tmp_path / "a.pdf", [texts[:1], texts[2:3]], numbers=False)
    scan_part = scan_pdf(make_pdf(tmp_path / "b.pdf", [texts[1:2]], numbers=False), tmp_path / "b-scan.pdf")
    mixed = pdfium.PdfDocument.new()
    mixed.import_pages(pdfium.PdfDocument(text_part), [0])
    mixed.import_pages(pdfium.PdfDocument(scan_part))
    mixed.import_pages(pdfium.PdfDocument(text_part), [1])
    mixed.save(tmp_path / "mixed.pdf")
    doc = read_document(tmp_path / "mixed.pdf", "d1")
    assert doc.ok and doc.pages == 3 and doc.ocr_pages == 1
    got = compared_texts(doc)
    assert [page for page, _ in got] == [1, 2, 3]
    assert got[0][1] == texts[0] and got[2][1] == texts[2]
    assert error_rate(got[1][1], texts[1]) <= OCR_ERROR


def test_images_are_documents_and_a_tiff_has_pages(tmp_path: Path, texts: list[str]) -> None:
    source = make_pdf(tmp_path / "t.pdf", [texts[2:3], texts[3:4]], numbers=False)
    first, second = page_images(source, dpi=150, seed=3)
    first.save(tmp_path / "scan.tif", save_all=True, append_images=[second], compression="tiff_lzw")
    first.save(tmp_path / "page1.png")  # the same pixels as the TIFF's first frame: found in the cache
    second.convert("RGB").save(tmp_path / "page2.jpg", quality=90)
    tiff = read_document(tmp_path / "scan.tif", "d1")
    assert tiff.ok and tiff.format == "tif" and tiff.pages == 2 and tiff.ocr_pages == 2
    assert [page for page, _ in compared_texts(tiff)] == [1, 2]
    png, jpg = read_document(tmp_path / "page1.png", "d2"), read_document(tmp_path / "page2.jpg", "d3")
    assert (png.format, png.pages, jpg.format, jpg.pages) == ("png", 1, "jpg", 1)
    assert compared_texts(png) == compared_texts(tiff)[:1]
    assert error_rate(compared_texts(jpg)[0][1], texts[3]) <= OCR_ERROR


def test_a_page_scanned_upside_down_is_turned(tmp_path: Path, texts: list[str]) -> None:
    [page] = page_images(make_pdf(tmp_path / "t.pdf", [texts[:1]], numbers=False), seed=5)
    page.save(tmp_path / "upright.png")
    page.rotate(180).save(tmp_path / "upside-down.png")
    [(_, upright)] = compared_texts(read_document(tmp_path / "upright.png", "d1"))
    [(_, turned)] = compared_texts(read_document(tmp_path / "upside-down.png", "d2"))
    assert error_rate(turned, texts[0]) <= OCR_ERROR, turned  # read upside down, it would be nonsense
    assert wrong_chars(turned, upright) <= 1, (turned, upright)  # turned back, it reads as the upright page


def test_a_blank_scan_and_a_broken_image_say_so(tmp_path: Path) -> None:
    Image.new("L", (600, 800), 255).save(tmp_path / "blank.png")
    blank = read_document(tmp_path / "blank.png", "d1")
    assert blank.status == "error" and "OCR" in (blank.error or "") and blank.pages_without_text == (1,)
    data = (tmp_path / "blank.png").read_bytes()
    (tmp_path / "broken.png").write_bytes(data[: len(data) // 2])
    broken = read_document(tmp_path / "broken.png", "d2")
    assert broken.status == "error" and "图片" in (broken.error or "")


def test_paddleocr_without_its_package_says_what_is_missing(tmp_path: Path) -> None:
    Image.new("L", (600, 800), 255).save(tmp_path / "page.png")
    doc = read_document(tmp_path / "page.png", "d1", OcrOptions("paddleocr"))
    assert doc.status == "error"
    assert "PaddleOCR" in (doc.error or "") and "pip install paddleocr" in (doc.error or "")
    assert "rapidocr" in (doc.error or "")  # and what to choose instead


def test_paddleocr_model_folders_are_found_on_disk(tmp_path: Path) -> None:
    assert paddle_model_dirs(tmp_path) is None
    for name in ("PP-OCRv5_mobile_det", "PP-OCRv5_server_rec_infer"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "inference.pdiparams").write_bytes(b"weights")
    assert paddle_model_dirs(tmp_path) == (
        tmp_path / "PP-OCRv5_mobile_det",
        tmp_path / "PP-OCRv5_server_rec_infer",
    )


def test_the_ocr_engine_is_a_validated_setting() -> None:
    assert Settings().ocr_engine == "rapidocr"
    assert Settings.from_dict({"ocr_engine": "paddleocr"}).ocr_engine == "paddleocr"
    for bad in ({"ocr_engine": "tesseract"}, {"ocr_engine": 1}):
        with pytest.raises(SettingsError):
            Settings.from_dict(bad)
