"""A bidder's folder: the files one bidder handed in (商务标, 技术标, the priced bill, a 报价 sheet), read
together into one document that is compared with the other bidders' as one bid.

A section folder's own files are one bid each; each of its sub-folders holding a supported file is one
bidder (``section_sources``). A bidder's files are read one by one and joined in the order of their
names: their pages follow each other (``Part`` says which pages each file took), their identities,
pictures and concealed text are kept, and a file that cannot be read leaves a note while the others
are compared.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.scan import OcrNeeded, OcrTask
from bidcheck.model import Block, Document, Part
from bidcheck.text.chars import decoded_name, replace_unsafe

__all__ = [
    "FOLDER_FORMAT",
    "REPORT_AUTHOR",
    "bidder_files",
    "is_report",
    "link_problem",
    "named_as_tender",
    "read_folder",
    "section_sources",
    "skipped_files",
    "source_size",
    "wanted",
]

FOLDER_FORMAT = "folder"
_SKIPPED = ("~$", ".")  # Office's lock files, hidden files and folders
REPORT_AUTHOR = "bidcheck"  # the author the reports carry
_REPORT_CREATOR = re.compile(rb"<dc:creator[^>]*>" + REPORT_AUTHOR.encode() + rb"</dc:creator>")
_CORE_BYTES = 1 << 16


TENDER_WORDS = ("招标文件", "招标控制价")  # a file so named is the tender's, in the app and the command line


_NUMBERING = re.compile(r"^[\d\s\-_.、（）()【】\[\]]*")  # 00-, 1.、（一）… before a file's name
_BIDDERS_WORDS = ("投标", "响应", "偏离", "应答")  # a bid answering the tender names it too


def named_as_tender(path: Path) -> bool:
    """Whether a file's name says it is the tender: it begins (after its numbering) with 招标文件 or
    招标控制价, and is no bidder's answer to it (投标, 响应, 偏离, 应答: ``招标文件响应表``)."""
    stem = _NUMBERING.sub("", path.stem)
    return stem.startswith(TENDER_WORDS) and not any(word in stem for word in _BIDDERS_WORDS)


def is_report(path: Path) -> bool:
    """Whether a file is a report this program wrote (its creator ``bidcheck``: the workbook, the Word
    dossier and its PDF): a report saved among a section's files is never read as a bid."""
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        return _pdf_author(path) == REPORT_AUTHOR
    if suffix not in (".xlsx", ".docx"):
        return False
    try:
        with zipfile.ZipFile(path) as package:
            core = package.read("docProps/core.xml")[:_CORE_BYTES]
    except (OSError, KeyError, zipfile.BadZipFile):
        return False
    return _REPORT_CREATOR.search(core) is not None


def _pdf_author(path: Path) -> str:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(str(path))
    except (pdfium.PdfiumError, OSError):
        return ""
    try:
        return str(pdf.get_metadata_dict(skip_empty=True).get("Author", ""))
    except pdfium.PdfiumError:
        return ""
    finally:
        pdf.close()


def wanted(path: Path, suffixes: frozenset[str], root: Path | None = None) -> bool:
    """Whether a file found in a folder is one of the section's: a supported file, not a report, and
    (a link) one that stays within ``root``, the folder it was found under."""
    if root is not None and link_problem(path, root):
        return False
    return path.is_file() and path.suffix.lower() in suffixes and not is_report(path)


def link_problem(path: Path, root: Path) -> str:
    """Why a link found under ``root`` is not followed, in a user's words; "" for a file that is no
    link, or a link to a regular file inside ``root`` (a link out of the folder given is never read
    unless given by itself: it may be a system file; a link to a folder may loop)."""
    if not path.is_symlink():
        return ""
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return "链接失效或成环（指向的文件不存在）"
    if target.is_dir():
        return "链接到文件夹，未跟随（可能成环或指向标段以外）"
    if not target.is_relative_to(root.resolve()):
        return f"链接指向所给文件夹以外的文件（{target}），未读取；如需比对请直接给出该文件"
    return "" if target.is_file() else "链接指向的不是普通文件（设备或管道）"


def _listed(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if not p.name.startswith(_SKIPPED))
    except OSError:
        return []


def bidder_files(folder: Path, suffixes: frozenset[str], root: Path | None = None) -> list[Path]:
    """The files of a bidder's folder with one of ``suffixes``, sub-folders included, by their path;
    links only to files inside the bidder's folder (``root``, the folder first asked for)."""
    root = root or folder
    found: list[Path] = []
    for path in _listed(folder):
        if path.is_dir() and not path.is_symlink():
            found += bidder_files(path, suffixes, root)
        elif wanted(path, suffixes, root):
            found.append(path)
    return found


def section_sources(paths: Iterable[Path], suffixes: frozenset[str]) -> list[Path]:
    """The bids of a section as given: a file is one bid; a folder's files are one bid each and its
    sub-folders (with a supported file) one bidder each. A folder holding nothing but one sub-folder
    (a section unpacked into a folder of its own) is that sub-folder. Several folders given together,
    none with sub-folders, are a bidder each (the bidders' folders dropped in, not the section's)."""
    given = list(paths)
    folders = [p for p in given if p.is_dir()]
    if len(folders) > 1 and not any(_bidder_folders(f, suffixes) for f in folders):
        return [p for p in given if not p.is_dir()] + [f for f in folders if bidder_files(f, suffixes)]
    out: list[Path] = []
    for path in given:
        if not path.is_dir():
            out.append(path)
            continue
        files = [p for p in _listed(path) if wanted(p, suffixes, path)]
        bidders = _bidder_folders(path, suffixes)
        if not files and len(bidders) == 1:
            out += section_sources(bidders, suffixes)
            continue
        out += sorted(files + bidders)
    return out


def _bidder_folders(folder: Path, suffixes: frozenset[str]) -> list[Path]:
    """A folder's sub-folders holding a supported file."""
    return [p for p in _listed(folder) if p.is_dir() and not p.is_symlink() and bidder_files(p, suffixes)]


def skipped_files(paths: Iterable[Path], suffixes: frozenset[str]) -> list[tuple[Path, str]]:
    """The files of the folders given (and of their bidders' sub-folders) that are not read, each with
    why in a user's words: another format, a report this program wrote, an Office lock file. Hidden
    files are not listed."""
    out: list[tuple[Path, str]] = []
    for path in paths:
        if path.is_dir():
            out += _skipped_in(path, suffixes, path, top=True)
    return out


def _skipped_in(
    folder: Path, suffixes: frozenset[str], root: Path, top: bool = False
) -> list[tuple[Path, str]]:
    """What is not read under ``folder``; links judged against ``root`` (the section's folder for its own
    files, a bidder's folder for the bidder's), as the readers judge them."""
    try:
        entries = sorted(p for p in folder.iterdir() if not p.name.startswith("."))
    except OSError:
        return []
    out: list[tuple[Path, str]] = []
    for path in entries:
        if path.is_dir() and not path.is_symlink():
            out += _skipped_in(path, suffixes, path if top else root)
        elif path.name.startswith("~$"):
            out.append((path, "Office 打开文件时留下的临时文件"))
        elif problem := link_problem(path, root):
            out.append((path, problem))
        elif not path.is_file():
            out.append((path, "不是普通文件（设备或管道）"))
        elif path.suffix.lower() not in suffixes:
            out.append((path, f"不支持的文件类型（{path.suffix or '无扩展名'}）"))
        elif is_report(path):
            out.append((path, "本程序生成的检查报告，不作为投标文件"))
    return out


def source_size(path: Path, suffixes: frozenset[str]) -> int:
    """The bytes of a bid: its file's, or the files' of a bidder's folder (0 when it cannot be seen)."""
    try:
        if path.is_dir():
            return sum(p.stat().st_size for p in bidder_files(path, suffixes))
        return path.stat().st_size
    except OSError:
        return 0


ReadOne = Callable[[Path, str], Document]


def read_folder(folder: Path, doc_id: str, suffixes: frozenset[str], read_one: ReadOne) -> Document:
    """Every file of a bidder's folder read (``read_one(path, part_id)``) and joined into one document.

    Raises:
        OcrNeeded: Some files' scanned pages wait for the OCR stage (the tasks of them all).
        ReadError: The folder has no supported file, or none of its files could be read.
    """
    files = bidder_files(folder, suffixes)
    if not files:
        raise ReadError("文件夹中没有可读取的文件")
    docs: list[Document] = []
    waiting: list[OcrTask] = []
    for n, path in enumerate(files, 1):
        try:
            docs.append(read_one(path, f"{doc_id}.{n}"))
        except OcrNeeded as needed:
            waiting += needed.tasks
    if waiting:
        raise OcrNeeded(tuple(waiting))
    if not any(d.ok for d in docs):
        raise ReadError("文件夹中的文件都无法读取：" + "；".join(f"{d.name}（{d.error}）" for d in docs))
    return joined(folder, doc_id, [_named_in(d, folder) for d in docs])


def _named_in(doc: Document, folder: Path) -> Document:
    """A file of a folder named by its path inside the folder (``技术标/施工组织设计.docx``)."""
    try:
        name = replace_unsafe(decoded_name(Path(doc.path).relative_to(folder).as_posix()))
    except ValueError:
        return doc
    return replace(doc, name=name, marks=tuple(replace(m, file=name) for m in doc.marks))


def joined(folder: Path, doc_id: str, docs: Sequence[Document]) -> Document:
    """The documents of a bidder's files as one: pages, rows and blocks one after the other."""
    blocks: list[Block] = []
    parts: list[Part] = []
    name = replace_unsafe(decoded_name(folder.name))
    joined_doc = Document(id=doc_id, path=str(folder), name=name, format=FOLDER_FORMAT)
    for doc in docs:
        if not doc.ok:
            parts.append(Part(doc.name, doc.format, error=doc.error))
            continue
        page = sum(p.pages for p in parts)
        parts.append(Part(doc.name, doc.format, page + 1, max(doc.pages, 1), dict(doc.metadata)))
        joined_doc = _with_file(joined_doc, doc, page, len(blocks))
        rows = max((b.row for b in blocks), default=0)
        blocks += [replace(b, page=b.page + page, row=b.row + rows if b.row else 0) for b in doc.blocks]
    largest = max((d for d in docs if d.ok), key=lambda d: len(d.blocks))
    notes = [f"{p.name}：{p.error}" for p in parts if p.error] + list(joined_doc.notes)
    return replace(
        joined_doc,
        pages=sum(p.pages for p in parts),
        blocks=tuple(blocks),
        metadata=dict(largest.metadata),
        parts=tuple(parts),
        notes=tuple(notes),
    )


def _with_file(into: Document, doc: Document, page: int, first_block: int) -> Document:
    """What a file adds to its bidder's document besides its blocks, moved by the pages before it."""
    return replace(
        into,
        ocr_pages=into.ocr_pages + doc.ocr_pages,
        pages_without_text=into.pages_without_text + tuple(p + page for p in doc.pages_without_text),
        rsids=tuple(sorted({*into.rsids, *doc.rsids})),
        rsid_texts=into.rsid_texts + doc.rsid_texts,
        para_ids=into.para_ids + doc.para_ids,
        concealed=into.concealed
        + tuple(
            replace(c, page=c.page + page, block=c.block + first_block if c.block >= 0 else -1)
            for c in doc.concealed
        ),
        pictures=into.pictures + tuple(replace(p, page=p.page + page) for p in doc.pictures),
        marks=into.marks + doc.marks,
        bill=into.bill + doc.bill,
        resources=into.resources + doc.resources,
        notes=into.notes + tuple(f"{doc.name}：{n}" for n in doc.notes),
    )
