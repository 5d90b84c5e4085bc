"""Hostile files next to good bids: every case must end with the good bids compared and the report written.

Each case puts one kind of bad file (or a few variants of it) in a folder with three good bids of the
sample section, runs ``bidcheck check`` on it in a fresh process (an empty cache) and prints one row per
file: its status and message, the check's seconds and exit code, the peak memory of the whole process
tree (sampled from /proc every 20 ms), whether the good pair was compared, the JSON and workbook written,
and whether a traceback reached stderr. The hostile files are built here, streaming where they are large
(a 1 MB .docx that inflates to 600 MB costs about a second and no memory to write).

Usage: .venv/bin/python -m bench.robustness [--cases NAME ...] [--workers N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources" / "sample" / "bids"
GOOD = ("01-华东建设集团.docx", "02-恒信市政工程.pdf", "03-中联路桥.docx")  # 01 and 02 share a plan
# damaged copies are made of two other bids (copies of a good bid would make its text common to many)
DAMAGED = (SAMPLE / "05-清源水务工程.docx", SAMPLE / "04-宏远建工.pdf")
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
    'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/'
    'document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.'
    'main+xml"/></Types>'
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
    '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
    '2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'
)
_BODY_START = f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{W}"><w:body>'.encode()
_BODY_END = b"</w:body></w:document>"
PARAGRAPH = "项目部严格执行安全生产责任制，落实各级管理人员的安全职责，确保施工现场文明有序。" * 4


def _docx(path: Path, body: Callable[[zipfile.ZipFile], None], *, extra: int = 0) -> Path:
    """A minimal .docx whose ``word/document.xml`` ``body`` writes (streaming), plus ``extra`` empty parts."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", _CONTENT_TYPES)
        archive.writestr("_rels/.rels", _RELS)
        body(archive)
        for n in range(extra):
            archive.writestr(f"word/media/x{n}.xml", b"")
    return path


def _stream_body(
    chunk: bytes, total_bytes: int, head: bytes = _BODY_START
) -> Callable[[zipfile.ZipFile], None]:
    """Writes ``head``, then ``chunk`` repeated up to ``total_bytes``, then the end of the body."""

    def write(archive: zipfile.ZipFile) -> None:
        with archive.open("word/document.xml", "w", force_zip64=True) as part:
            part.write(head)
            for _ in range(max(1, total_bytes // len(chunk))):
                part.write(chunk)
            part.write(_BODY_END)

    return write


def zip_bomb_docx(path: Path, inflated_mb: int = 600) -> Path:
    """A .docx of about 2 MB whose document.xml inflates to ``inflated_mb`` MB, every bit of it valid
    paragraphs (a decompression bomb)."""
    chunk = (f"<w:p><w:r><w:t>{PARAGRAPH}</w:t></w:r></w:p>" * 200).encode()
    return _docx(path, _stream_body(chunk, inflated_mb << 20))


def many_runs_docx(path: Path, runs: int = 5_000_000) -> Path:
    """A .docx whose one paragraph is ``runs`` one-character runs (about 13 MB; 130 MB of XML)."""
    rng = random.Random(9)

    def write(archive: zipfile.ZipFile) -> None:
        with archive.open("word/document.xml", "w", force_zip64=True) as part:
            part.write(_BODY_START + b"<w:p>")
            for _ in range(runs // 1000):
                chars = (chr(0x4E00 + rng.randrange(3000)) for _ in range(1000))
                part.write("".join(f"<w:r><w:t>{c}</w:t></w:r>" for c in chars).encode())
            part.write(b"</w:p>" + _BODY_END)

    return _docx(path, write)


def huge_pictures_docx(path: Path, pictures: int = 12, side: int = 13_000) -> Path:
    """A .docx of ``pictures`` PNGs of ``side`` × ``side`` pixels each (a few hundred KB in all: each
    decodes to about 170 MB)."""
    import io

    from docx import Document as new_docx
    from docx.shared import Inches
    from PIL import Image, ImageDraw

    image = Image.new("L", (side, side), 255)
    document = new_docx()
    for n in range(pictures):  # each a line more: a picture of its own
        ImageDraw.Draw(image).line((0, n * 100, side - 1, side - 1 - n * 100), fill=0, width=5)
        data = io.BytesIO()
        image.save(data, "PNG", compress_level=1)
        document.add_paragraph(f"附图 {n + 1}")
        document.add_picture(io.BytesIO(data.getvalue()), width=Inches(2))
    document.save(str(path))
    return path


def spaced_ofd(path: Path) -> Path:
    """A 1 KB OFD whose one line's glyph spacing repeats a step 200 million times (``g 200000000 1``)."""
    ns = 'xmlns:ofd="http://www.ofdspec.org/2016"'
    text = PARAGRAPH[:30]
    page = (
        f'<?xml version="1.0" encoding="UTF-8"?><ofd:Page {ns}><ofd:Content><ofd:Layer ID="5">'
        '<ofd:TextObject ID="100" Boundary="20 30 170 6" Size="3.5">'
        f'<ofd:TextCode X="0" Y="4" DeltaX="g 200000000 1">{text}</ofd:TextCode></ofd:TextObject>'
        "</ofd:Layer></ofd:Content></ofd:Page>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(
            "OFD.xml",
            f'<?xml version="1.0" encoding="UTF-8"?><ofd:OFD {ns} Version="1.0" DocType="OFD"><ofd:DocBody>'
            "<ofd:DocRoot>Doc_0/Document.xml</ofd:DocRoot></ofd:DocBody></ofd:OFD>",
        )
        archive.writestr(
            "Doc_0/Document.xml",
            f'<?xml version="1.0" encoding="UTF-8"?><ofd:Document {ns}><ofd:CommonData><ofd:PageArea>'
            "<ofd:PhysicalBox>0 0 210 297</ofd:PhysicalBox></ofd:PageArea></ofd:CommonData><ofd:Pages>"
            '<ofd:Page ID="10" BaseLoc="Pages/Page_0/Content.xml"/></ofd:Pages></ofd:Document>',
        )
        archive.writestr("Doc_0/Pages/Page_0/Content.xml", page)
    return path


def many_tables_docx(path: Path, tables: int = 50_000) -> Path:
    """A .docx with ``tables`` one-cell tables, each a different short sentence (about 12 MB of XML)."""
    rng = random.Random(5)

    def write(archive: zipfile.ZipFile) -> None:
        with archive.open("word/document.xml", "w", force_zip64=True) as part:
            part.write(_BODY_START)
            for _ in range(tables):
                text = "".join(rng.choice(PARAGRAPH) for _ in range(40))
                part.write(
                    f"<w:tbl><w:tr><w:tc><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:tc></w:tr></w:tbl>".encode()
                )
            part.write(_BODY_END)

    return _docx(path, write)


def billion_laughs_docx(path: Path) -> Path:
    """A .docx whose document.xml defines nested entities that would expand to gigabytes."""
    levels = "".join(f'<!ENTITY l{n} "{f"&l{n - 1};" * 10}">' for n in range(1, 10))
    head = f'<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY l0 "哈哈哈哈">{levels}]>'
    body = f'<w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>&l9;</w:t></w:r></w:p></w:body></w:document>'
    return _docx(path, lambda archive: archive.writestr("word/document.xml", head + body))


def many_entries_docx(path: Path, entries: int = 20_000) -> Path:
    """A valid small .docx with ``entries`` empty parts besides (a zip directory bomb in miniature)."""
    paragraph = f"<w:p><w:r><w:t>{PARAGRAPH}</w:t></w:r></w:p>".encode()
    return _docx(path, _stream_body(paragraph, len(paragraph)), extra=entries)


def pdf_file(path: Path, size: tuple[float, float], contents: list[bytes]) -> Path:
    """A PDF written by hand: one page per content stream, of ``size`` points, Helvetica as font F1."""
    pages = len(contents)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Count %d /Kids [%s] >>"
        % (pages, b" ".join(b"%d 0 R" % (4 + 2 * n) for n in range(pages))),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for n, content in enumerate(contents):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] /Resources << /Font << /F1 3 0 R >> >> "
            b"/Contents %d 0 R >>" % (size[0], size[1], 5 + 2 * n)
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def giant_page_pdf(path: Path, inches: float = 200) -> Path:
    """A one-page PDF of ``inches`` × ``inches`` with a drawing and no text: a scan to be read by OCR
    (a drawing saved with a wrong page size)."""
    side = inches * 72
    return pdf_file(path, (side, side), [b"0.5 g 100 100 %g %g re f" % (side / 3, side / 3)])


def blank_pages_pdf(path: Path, pages: int = 3000) -> Path:
    """A PDF of ``pages`` blank A4 pages."""
    return pdf_file(path, (595, 842), [b""] * pages)


def tiny_text_pdf(path: Path, objects: int = 100_000) -> Path:
    """One A4 page holding ``objects`` text objects of one tiny letter each."""
    rng = random.Random(7)
    content = b"\n".join(
        b"BT /F1 1 Tf %.1f %.1f Td (%s) Tj ET"
        % (rng.uniform(20, 570), rng.uniform(20, 820), bytes([97 + n % 26]))
        for n in range(objects)
    )
    return pdf_file(path, (595, 842), [content])


def absurd_png(path: Path, side: int = 100_000) -> Path:
    """A 70-byte PNG that declares ``side`` × ``side`` pixels."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)))
    return path


def damaged(source: Path, folder: Path, count: int, *, flip: bool) -> list[Path]:
    """Copies of ``source`` with one byte flipped (or cut short) at ``count`` offsets spread over it."""
    data = source.read_bytes()
    out = []
    for n in range(count):
        at = len(data) * (n + 1) // (count + 1)
        body = data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :] if flip else data[:at]
        target = folder / f"{source.stem}-{'flip' if flip else 'cut'}{n:02d}{source.suffix}"
        target.write_bytes(body)
        out.append(target)
    return out


def huge_text(path: Path, chars: int = 6_000_000) -> Path:
    """A UTF-8 text file of ``chars`` characters of bid prose."""
    line = PARAGRAPH + "\n"
    path.write_text(line * (chars // len(line) + 1), encoding="utf-8")
    return path


def named_pipe(path: Path) -> Path:
    """A named pipe: a reader that opened it would wait for ever (it is refused unopened)."""
    os.mkfifo(path)
    return path


def zero_link(path: Path) -> Path:
    """A link to ``/dev/zero``: a reader would fill its memory (it is refused unread)."""
    path.symlink_to("/dev/zero")
    return path


def system_link(path: Path) -> Path:
    """A link in the section's folder to a system file outside it."""
    path.symlink_to("/etc/passwd")
    return path


def long_pdf(path: Path, pages: int = 4000) -> Path:
    """A PDF of thousands of short pages: its reader holds it open for seconds, long enough to be seen
    reading it (a named pipe would be refused unread: only regular files are read)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(path), pagesize=A4, invariant=1)
    for n in range(pages):
        canvas.drawString(72, 760, f"page {n + 1} of a long appendix")
        canvas.showPage()
    canvas.save()
    return path


@dataclass
class Case:
    """One kind of hostile input: ``build`` writes it into the folder and returns the files to list."""

    name: str
    build: Callable[[Path], list[Path]]
    given: bool = False  # passed on the command line itself
    during: Callable[[subprocess.Popen[bytes], list[Path]], None] | None = None
    cache: Callable[[Path], None] | None = None  # done to the cache after a first check, before the one run


class _Planted:
    """A pickle another user would plant in a cache: unpickled, it makes the file ``ran`` beside the cache."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Path.touch, (self.marker,))


def plant_pickles(cache: Path) -> None:
    """Every entry of the cache replaced by a pickle that makes a file when it is unpickled."""
    for entry in cache.rglob("*.bin"):
        entry.write_bytes(pickle.dumps(_Planted(str(cache.parent / "ran"))))


def flip_bytes(cache: Path) -> None:
    """One byte of every entry of the cache flipped, past its head."""
    for entry in cache.rglob("*.bin"):
        data = bytearray(entry.read_bytes())
        data[min(len(data) - 1, len(data) // 2 + 20)] ^= 0x01
        entry.write_bytes(bytes(data))


def _tree(root: int) -> dict[int, int]:
    """Each process of the tree under ``root`` (``root`` included) with its resident memory in bytes."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            children.setdefault(int(stat[1]), []).append(int(entry.name))
            rss[int(entry.name)] = int(stat[21]) * os.sysconf("SC_PAGE_SIZE")
    out, stack = {}, [root]
    while stack:
        pid = stack.pop()
        out[pid] = rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return out


def kill_reader(proc: subprocess.Popen[bytes], files: list[Path]) -> None:
    """SIGKILL every worker process that holds one of ``files`` open, as the system kills a process out of
    memory each time it reads such a file: a worker killed holding other tasks too has each given again
    alone, and the file's second reader is killed as the first was. ``files`` take their readers long to
    read (``long_pdf``), so that a reader is seen holding one."""
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        _kill_holders(proc, {str(f) for f in files})
        time.sleep(0.02)


def _kill_holders(proc: subprocess.Popen[bytes], targets: set[str]) -> None:
    """SIGKILL each process under ``proc`` (not ``proc`` itself) that holds one of ``targets`` open."""
    for pid in _tree(proc.pid):
        try:
            held = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
        except OSError:
            continue
        if pid != proc.pid and held & targets:
            os.kill(pid, signal.SIGKILL)


def _single(build: Callable[[Path], Path], name: str) -> Callable[[Path], list[Path]]:
    return lambda folder: [build(folder / name)]


CASES: dict[str, Case] = {
    c.name: c
    for c in (
        Case("zip bomb docx (600 MB)", _single(zip_bomb_docx, "bomb.docx")),
        Case("giant page pdf (200 in)", _single(giant_page_pdf, "drawing.pdf")),
        Case("billion laughs docx", _single(billion_laughs_docx, "laughs.docx")),
        Case("20,000 entries docx", _single(many_entries_docx, "entries.docx")),
        Case("absurd png (100,000 px)", _single(absurd_png, "absurd.png")),
        Case("6 M chars txt", _single(huge_text, "huge.txt")),
        Case("50,000 tables docx", _single(many_tables_docx, "tables.docx")),
        Case("5 M one-character runs docx", _single(many_runs_docx, "runs.docx")),
        Case("12 pictures of 13,000 px docx", _single(huge_pictures_docx, "pictures.docx")),
        Case("OFD glyph spacing g 200000000", _single(spaced_ofd, "spaced.ofd")),
        Case("100,000 text objects pdf", _single(tiny_text_pdf, "tiny.pdf")),
        Case("3,000 blank pages pdf", _single(blank_pages_pdf, "blank.pdf")),
        Case("flipped docx", lambda f: damaged(DAMAGED[0], f, 8, flip=True)),
        Case("truncated docx", lambda f: damaged(DAMAGED[0], f, 8, flip=False)),
        Case("flipped pdf", lambda f: damaged(DAMAGED[1], f, 8, flip=True)),
        Case("truncated pdf", lambda f: damaged(DAMAGED[1], f, 8, flip=False)),
        Case("empty and random", lambda f: _empty_and_random(f)),
        Case("symlink loop", lambda f: _symlink_loop(f)),
        Case("missing file", lambda f: [f / "gone.docx"], given=True),
        Case("worker killed", _single(long_pdf, "stuck.pdf"), given=True, during=kill_reader),
        Case("named pipe as a bid", _single(named_pipe, "pipe.pdf"), given=True),
        Case("link to /dev/zero", _single(zero_link, "zero.docx"), given=True),
        Case("link to /etc/passwd in the folder", _single(system_link, "passwd.txt")),
        Case("planted cache pickles", lambda f: [], cache=plant_pickles),
        Case("a byte of each cache entry", lambda f: [], cache=flip_bytes),
    )
}
FAST = (
    "zip bomb docx (600 MB)",
    "giant page pdf (200 in)",
    "billion laughs docx",
    "20,000 entries docx",
    "absurd png (100,000 px)",
    "6 M chars txt",
)


def _empty_and_random(folder: Path) -> list[Path]:
    (folder / "empty.docx").write_bytes(b"")
    (folder / "random.pdf").write_bytes(random.Random(3).randbytes(100_000))
    return [folder / "empty.docx", folder / "random.pdf"]


def _symlink_loop(folder: Path) -> list[Path]:
    (folder / "loop").mkdir()
    (folder / "loop" / "up").symlink_to("..", target_is_directory=True)
    return []


@dataclass
class Run:
    """What one check on a folder did."""

    exit_code: int
    seconds: float
    peak_mb: float
    stderr: str
    documents: list[dict[str, object]] = field(default_factory=list)
    pairs: list[dict[str, object]] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)  # files found and not read, and why
    xlsx_written: bool = False

    def good_pair_level(self) -> str | None:
        """The level of the pair of good bids that share a plan (01 and 02), if it was compared."""
        ids = {d["name"]: d["id"] for d in self.documents}
        want = {ids.get(GOOD[0]), ids.get(GOOD[1])}
        return next((str(p["level"]) for p in self.pairs if {p["a"], p["b"]} == want), None)


def run_check(
    paths: list[Path],
    out: Path,
    *,
    workers: int = 2,
    during: Callable[..., None] | None = None,
    given: list[Path] | None = None,
    memory_limit_mb: int = 0,
) -> Run:
    """``bidcheck check`` on ``paths`` in a fresh process with an empty cache, its process tree's memory
    sampled; ``during`` runs meanwhile (with the process and ``given``). ``memory_limit_mb`` caps the
    address space of the whole check (a guard for trying old code on these files)."""
    out.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "bidcheck.cli",
        "check",
        *map(str, paths),
        "--json",
        str(out / "r.json"),
        "--xlsx",
        str(out / "r.xlsx"),
        "--quiet",
        "--workers",
        str(workers),
    ]
    env = {**os.environ, "BIDCHECK_CACHE_DIR": str(out / "cache"), "PYTHONPATH": str(ROOT)}
    limit = memory_limit_mb << 20

    def guard() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    started = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        preexec_fn=guard if limit else None,
    )
    peak = [0]

    def sample() -> None:
        while proc.poll() is None:
            peak[0] = max(peak[0], sum(_tree(proc.pid).values()))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    if during is not None:
        threading.Thread(target=during, args=(proc, given or []), daemon=True).start()
    _, err = proc.communicate(timeout=600)
    seconds = time.perf_counter() - started
    sampler.join()
    run = Run(proc.returncode, seconds, peak[0] / 2**20, err.decode("utf-8", "replace"))
    if (out / "r.json").is_file():
        whole = json.loads((out / "r.json").read_text(encoding="utf-8"))
        run.documents, run.pairs = whole["documents"], whole["pairs"]
        run.skipped = whole.get("skipped", [])
    run.xlsx_written = (out / "r.xlsx").is_file()
    return run


def prepare_folder(folder: Path, cases: list[Case]) -> tuple[list[Path], list[Path]]:
    """The good bids and ``cases``' files in ``folder``: the paths to check, and the files given apart."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in GOOD:
        shutil.copy(SAMPLE / name, folder / name)
    given: list[Path] = []
    for case in cases:
        made = case.build(folder)
        if case.given:
            given.extend(made)
    return [folder, *given], given


def _row(case: str, docs: list[dict[str, object]], run: Run) -> str:
    """One line per case: what became of its files (counted by status and message), then the check."""
    read = "read" if len(docs) > 1 else f"read, {docs[0]['chars'] if docs else 0} 字"
    outcomes = Counter((str(d["status"]), str(d.get("error") or read)) for d in docs)
    status = "/".join(sorted({s for s, _ in outcomes})) or "-"
    message = "; ".join(f"{n} × {m}" if len(docs) > 1 else m for (_, m), n in sorted(outcomes.items()))
    message += "".join(
        f"{'; ' if message else ''}skipped {Path(v['path']).name}: {v['why']}" for v in run.skipped
    )
    return (
        f"{case:<26} {status:<8} {run.exit_code:>4} {run.seconds:>6.1f} {run.peak_mb:>7.0f} "
        f"{run.good_pair_level() or 'MISSING':<6} {'yes' if run.xlsx_written else 'NO':<4} "
        f"{'YES' if 'Traceback' in run.stderr else 'no':<4} {message or '(no file listed)'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--cases", nargs="*", default=list(CASES), choices=list(CASES), help="case names (default: all)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="build the folders here and keep them")
    args = parser.parse_args()
    print(f"command: {shlex.join(['.venv/bin/python', '-m', 'bench.robustness', *sys.argv[1:]])}")
    print(
        f"{'case':<26} {'status':<8} {'exit':>4} {'s':>6} {'peak MB':>7} {'01↔02':<6} {'xlsx':<4} "
        f"{'tb':<4} message"
    )
    with tempfile.TemporaryDirectory() as temp:
        base = args.keep or Path(temp)
        for name in args.cases:
            case = CASES[name]
            folder = base / name.replace(" ", "_").replace(",", "")
            paths, given = prepare_folder(folder / "in", [case])
            first = None
            if case.cache is not None:  # a first check fills the cache, which is then tampered with
                first = run_check(paths, folder / "out", workers=args.workers)
                case.cache(folder / "out" / "cache")
            run = run_check(paths, folder / "out", workers=args.workers, during=case.during, given=given)
            row = _row(name, [d for d in run.documents if d["name"] not in GOOD], run)
            if first is not None:
                same = [(p["a"], p["b"], p["level"], p["similarity"]) for p in run.pairs] == [
                    (p["a"], p["b"], p["level"], p["similarity"]) for p in first.pairs
                ]
                ran = (folder / "out" / "ran").exists()
                row += f"; planted code ran: {'YES' if ran else 'no'}"
                row += f"; result as before: {'yes' if same else 'NO'}"
            print(row, flush=True)


if __name__ == "__main__":
    main()
