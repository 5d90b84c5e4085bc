"""The workbook's two sheets on the inputs: 文件清单 (every file found: its role, pages, characters, OCR,
status or error, the bid's total price and where it was read, a bidder's folder's files, the path, and
each file skipped and why) and 文件属性 (what each file says of itself: author, times, producing
program, identities, hidden text, the machine records). Two sheets, so that each prints one page wide."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from openpyxl.styles import Font
from openpyxl.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from bidcheck.model import Document
from bidcheck.report.sheets import append_row, finish_table, sheet_header
from bidcheck.text.chars import decoded_name, replace_unsafe
from bidcheck.words import PRICE_UNREAD, concealed_summary, parts_summary, price_place, property_time

__all__ = ["YUAN", "write_file_sheets"]

YUAN = "#,##0.00"
_ROLES = {"bid": "投标", "tender": "招标文件", "template": "模板"}
_FILES = (
    ("编号", 5),
    ("文件名", 18),
    ("角色", 6),
    ("格式", 5),
    ("页数", 5),
    ("字数", 7),
    ("OCR页数", 6),
    ("状态", 6),
    ("错误", 24),
    ("投标总价（元）", 14),
    ("总价出处或未读出的原因", 20),
    ("文件夹中的文件（页码）与说明", 26),
    ("路径", 30),
)
_PROPERTIES = (
    ("编号", 5),
    ("文件名", 18),
    ("作者", 12),
    ("最后修改者", 12),
    ("单位", 14),
    ("创建时间", 17),
    ("修改时间", 17),
    ("生成程序", 14),
    ("文档标识（XMP）", 14),
    ("隐藏文字数", 6),
    ("隐藏或伪装的文字", 24),
    ("电脑、加密锁与账号记录", 28),
)
_TOTAL_COLUMN = 10


def write_file_sheets(
    book: Workbook, documents: Sequence[Document], skipped: Sequence[tuple[str, str]]
) -> None:
    """Add 文件清单 and 文件属性 to ``book``: a row a document (and, in the first, a row a file skipped)."""
    _file_list(book.create_sheet("文件清单"), documents, skipped)
    _properties(book.create_sheet("文件属性"), documents)


def _price_cells(doc: Document) -> tuple[object, str]:
    """A bid's total (a number) and where it was read, or ``价格未能读出`` and why; nothing for the
    tender and templates, whose prices are not read."""
    if doc.price is not None:
        return doc.price.total, price_place(doc.price)
    return (PRICE_UNREAD, doc.price_error) if doc.price_error else ("", "")


def _file_list(sheet: Worksheet, documents: Sequence[Document], skipped: Sequence[tuple[str, str]]) -> None:
    sheet_header(sheet, [t for t, _ in _FILES], [w for _, w in _FILES])
    for doc in documents:
        append_row(
            sheet,
            [
                doc.id,
                doc.name,
                _ROLES[doc.role],
                doc.format,
                doc.pages,
                doc.chars,
                doc.ocr_pages,
                "正常" if doc.ok else "错误",
                doc.error or "",
                *_price_cells(doc),
                parts_summary(doc),
                doc.path,
            ],
        )
        row = sheet.max_row
        sheet.cell(row=row, column=_TOTAL_COLUMN).number_format = YUAN
        if not doc.ok:
            sheet.cell(row=row, column=8).font = Font(color="C00000", bold=True)
    for path, why in skipped:  # every file found is listed, with what became of it
        name = replace_unsafe(decoded_name(Path(path).name))
        append_row(
            sheet, ["", name, "", Path(path).suffix.lstrip("."), "", "", "", "跳过", why, "", "", "", path]
        )
    finish_table(sheet)


def _properties(sheet: Worksheet, documents: Sequence[Document]) -> None:
    sheet_header(sheet, [t for t, _ in _PROPERTIES], [w for _, w in _PROPERTIES])
    for doc in documents:
        meta = doc.metadata
        append_row(
            sheet,
            [
                doc.id,
                doc.name,
                meta.get("author", ""),
                meta.get("last_modified_by", ""),
                meta.get("company", ""),
                property_time(meta.get("created", "")),
                property_time(meta.get("modified", "")),
                meta.get("application", meta.get("producer", "")),
                meta.get("xmp_document_id", ""),
                len(doc.concealed) if doc.ok else "",
                concealed_summary(doc.concealed),
                "；".join(f"{m.file}：{m.record or m.value}" for m in doc.marks if m.field != "pdf_version"),
            ],
        )
    finish_table(sheet)
