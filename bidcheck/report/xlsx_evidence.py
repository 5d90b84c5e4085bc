"""The workbook's sheets of evidence: 共同段落 (each listed passage of each pair side by side, the matched
characters marked), 串标迹象 (each signal of each pair, with both pictures of a picture signal) and
报价规律 (the totals in a pattern)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.drawing.image import Image as XlImage
from openpyxl.styles import Font
from openpyxl.worksheet.worksheet import Worksheet

from bidcheck.model import CheckResult, Document, PairResult, Passage, Place, PricePattern, Side
from bidcheck.report.file_sheets import YUAN
from bidcheck.report.sheets import (
    WRAP,
    append_row,
    finish_table,
    safe,
    sheet_header,
    text_height,
)
from bidcheck.report.xlsx_cells import Styles, filled
from bidcheck.text.chars import replace_unsafe
from bidcheck.words import (
    LEVEL_FILLS,
    LEVEL_NAMES,
    PRICE_PATTERN_KINDS,
    PRICE_UNREAD,
    SEMANTIC_FILL,
    SEMANTIC_MARK,
    SIGNAL_FIELDS,
    SIGNAL_KINDS,
    STRENGTH_NAMES,
    passage_kind,
    picture_thumbnails,
    price_place,
)

__all__ = ["listed_passages", "passages_sheet", "price_patterns_sheet", "signals_sheet"]

_GREY = Font(color="808080")
_MARK = InlineFont(color="C00000", b=True)
_PLAIN = InlineFont()
_GREY_INLINE = InlineFont(color="808080")
_SEMANTIC_INLINE = InlineFont(color=SEMANTIC_MARK)
_THUMB_PX = 120  # the longer side of a picture's thumbnail in the workbook
_CELL_LIMIT = 32000
_PASSAGE_WIDTH = 44  # the passages' columns of 共同段落


def _place(place: Place | None) -> tuple[str, str]:
    if place is None:
        return "文件属性", ""
    if not place.page:  # a record of the file (a pricing file's machine): both records side by side
        return "文件记录", place.text
    paragraph = f" 第 {place.paragraph} 段" if place.paragraph else ""  # a picture stands on a page
    return f"第 {place.page} 页{paragraph}", place.text


def signals_sheet(sheet: Worksheet, result: CheckResult, names: dict[str, str]) -> None:
    """One row a signal: the pair, the sign, its value and where it stands on both sides (a picture
    signal with both pictures' thumbnails in the wording columns)."""
    pairs = result.pairs
    sheet_header(
        sheet,
        ("文件A", "文件B", "等级", "迹象", "强度", "项目", "值", "说明", "A位置", "A原文", "B位置", "B原文"),
        (16, 16, 9, 9, 5, 10, 16, 28, 10, 28, 10, 28),
    )
    styles = Styles()
    row = sheet.max_row  # counted from here: max_row looks at every cell, each time it is asked
    for pair in pairs:
        for signal in pair.signals:
            row += 1
            append_row(
                sheet,
                [
                    names[pair.a],
                    names[pair.b],
                    LEVEL_NAMES[pair.level],
                    SIGNAL_KINDS.get(signal.kind, signal.kind),
                    STRENGTH_NAMES[signal.strength],
                    SIGNAL_FIELDS.get(signal.field, signal.field),
                    signal.value,
                    signal.detail,
                    *_place(signal.a),
                    *_place(signal.b),
                ],
            )
            level = sheet.cell(row=row, column=3)
            styles.apply(level, ("level", pair.level), filled(LEVEL_FILLS[pair.level]))
            for column in (8, 10, 12):
                sheet.cell(row=row, column=column).alignment = WRAP
            thumbnails = picture_thumbnails(result, signal)
            if thumbnails:
                _thumbnails(sheet, row, thumbnails)
    finish_table(sheet)


def _thumbnails(sheet: Worksheet, row: int, thumbnails: tuple[bytes, bytes]) -> None:
    """Both pictures of a signal, small, in its row's wording columns (A原文 and B原文)."""
    tallest = 0
    for column, data in zip(("J", "L"), thumbnails, strict=True):
        picture = XlImage(io.BytesIO(data))
        scale = min(1.0, _THUMB_PX / max(picture.width, picture.height))
        picture.width, picture.height = int(picture.width * scale), int(picture.height * scale)
        tallest = max(tallest, picture.height)
        sheet.add_image(picture, f"{column}{row}")
    sheet.row_dimensions[row].height = tallest * 0.75 + 6  # points from pixels, and a margin


def _rich(side: Side, grey: bool, mark: InlineFont = _MARK) -> CellRichText | str:
    """The passage text with its aligned characters highlighted in ``mark`` (greyed for template/common
    text)."""
    text = replace_unsafe(side.text[:_CELL_LIMIT])  # one for one: the marks' offsets hold
    if grey or not side.marks:
        return CellRichText([TextBlock(_GREY_INLINE if grey else _PLAIN, text)]) if text else ""
    parts: list[str | TextBlock] = []
    position = 0
    for start, end in side.marks:
        start, end = min(start, len(text)), min(end, len(text))
        if start > position:
            parts.append(TextBlock(_PLAIN, text[position:start]))
        if end > start:
            parts.append(TextBlock(mark, text[start:end]))
        position = max(position, end)
    if position < len(text):
        parts.append(TextBlock(_PLAIN, text[position:]))
    return CellRichText(parts)


def listed_passages(pair: PairResult) -> list[tuple[int, Passage]]:
    """The passages a pair lists: all of them when it reached a level, else its evidence only (the tender
    text every pair of a large section shares would bury the evidence in thousands of grey rows)."""
    numbered = list(enumerate(pair.passages, start=1))
    return numbered if pair.level != "none" else [(n, p) for n, p in numbered if p.live]


def passages_sheet(sheet: Worksheet, pairs: Sequence[PairResult], names: dict[str, str]) -> int:
    """Write the passages sheet; returns how many template/common passages of quiet pairs were left out."""
    sheet_header(
        sheet,
        (
            "文件A",
            "文件B",
            "序号",
            "类别",
            "相似度",
            "字数",
            "A页",
            "A段",
            "A原文",
            "B页",
            "B段",
            "B原文",
            "语义改写",
        ),
        (16, 16, 5, 9, 7, 6, 5, 5, _PASSAGE_WIDTH, 5, 5, _PASSAGE_WIDTH, 8),
    )
    row, left_out = 1, 0
    for pair in pairs:
        listed = listed_passages(pair)
        left_out += len(pair.passages) - len(listed)
        for number, passage in listed:
            row += 1
            _passage_row(sheet, row, names[pair.a], names[pair.b], number, passage)
    finish_table(sheet)
    return left_out


def _passage_row(sheet: Worksheet, row: int, name_a: str, name_b: str, number: int, passage: Passage) -> None:
    grey = not passage.live
    mark = _SEMANTIC_INLINE if passage.semantic else _MARK
    values = (
        name_a,
        name_b,
        number,
        passage_kind(passage),
        passage.similarity,
        passage.chars,
        passage.a.page,
        passage.a.paragraph,
        _rich(passage.a, grey, mark),
        passage.b.page,
        passage.b.paragraph,
        _rich(passage.b, grey, mark),
        "是" if passage.semantic else "",
    )
    for col, value in enumerate(values, start=1):
        cell = sheet.cell(row=row, column=col, value=safe(value))
        cell.alignment = WRAP
        if grey and col not in (9, 12):
            cell.font = _GREY
    sheet.cell(row=row, column=5).number_format = "0.0%"
    if passage.semantic:  # the app's colour for a rewritten passage (its similarity is a cosine)
        for col in (4, 13):
            filled(SEMANTIC_FILL)(sheet.cell(row=row, column=col))
    longer = max(passage.a.text, passage.b.text, key=len)
    sheet.row_dimensions[row].height = text_height(longer[:_CELL_LIMIT], _PASSAGE_WIDTH)


def price_patterns_sheet(sheet: Worksheet, result: CheckResult) -> None:
    """One row a member of each price pattern: the pattern (its kind, strength and sentence), the bid,
    its total and where the total was read; a sentence when the section has none."""
    sheet_header(
        sheet,
        ("规律", "类型", "强度", "说明", "文件", "投标总价（元）", "总价出处"),
        (6, 14, 6, 60, 28, 18, 18),
    )
    for number, pattern in enumerate(result.price_patterns, start=1):
        for member in pattern.members:
            _pattern_row(sheet, number, pattern, result.document(member))
    if not result.price_patterns:
        read = sum(1 for d in result.bids if d.price is not None)
        unread = sum(1 for d in result.bids if d.ok and d.price is None)
        append_row(
            sheet,
            [
                "",
                "无",
                "",
                f"读出投标总价的 {read} 家中没有三家以上成规律；{unread} 家{PRICE_UNREAD}（见文件清单）",
            ],
        )
    finish_table(sheet)


def _pattern_row(sheet: Worksheet, number: int, pattern: PricePattern, doc: Document) -> None:
    kind = PRICE_PATTERN_KINDS.get(pattern.kind, pattern.kind)
    total, place = (doc.price.total, price_place(doc.price)) if doc.price else ("", "")
    append_row(
        sheet, [number, kind, STRENGTH_NAMES[pattern.strength], pattern.detail, doc.name, total, place]
    )
    sheet.cell(row=sheet.max_row, column=4).alignment = WRAP
    sheet.cell(row=sheet.max_row, column=6).number_format = YUAN
