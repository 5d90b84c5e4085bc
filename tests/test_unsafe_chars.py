"""Characters XML 1.0 cannot hold reach the workbook and the JSON as U+FFFD, one for one, offsets intact.

The section is described in ``tests/oddchars.py`` (why .txt bids and a PDF property, not a .docx).
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from openpyxl.cell.rich_text import CellRichText, TextBlock

from bidcheck.cli import ExitStatus, main
from bidcheck.ingest import read_document
from bidcheck.model import CheckResult, Document, PairResult, Passage, Side
from bidcheck.report import write_json, write_xlsx
from bidcheck.report.xlsx import NO_TENDER_WARNING
from bidcheck.text import build_clean_text, clean_document
from bidcheck.text.chars import REPLACEMENT, replace_unsafe, utf8
from tests.oddchars import AUTHOR, OddSection, make_odd_section

UNSAFE = "\x00\x01\x08\x0b\x0c\x0e\x1f\ud800\udcff\udfff\ufffe\uffff"
SAFE = "\t\n\r \x7f\x85\ufdd0\ufffd\U0001fffe\U0010ffff𠮷甲"


@dataclass(frozen=True)
class Reported:
    status: ExitStatus
    stdout: str
    json: dict[str, Any]
    xlsx: Path


@pytest.fixture(scope="module")
def odd(tmp_path_factory: pytest.TempPathFactory) -> OddSection:
    return make_odd_section(tmp_path_factory.mktemp("odd"))


@pytest.fixture(scope="module")
def reported(odd: OddSection, tmp_path_factory: pytest.TempPathFactory) -> Reported:
    """``bidcheck check`` on the section, with both reports."""
    out = tmp_path_factory.mktemp("out")
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = ["check", str(odd.bids), "--json", str(out / "r.json"), "--xlsx", str(out / "r.xlsx"), "--quiet"]
    status = main(argv, stdout, stderr)
    assert stderr.getvalue() == ""
    data = json.loads((out / "r.json").read_text(encoding="utf-8"))  # strict UTF-8
    return Reported(status, stdout.getvalue(), data, out / "r.xlsx")


def test_every_unsafe_character_becomes_one_replacement() -> None:
    for char in UNSAFE:
        assert replace_unsafe(f"甲{char}乙") == f"甲{REPLACEMENT}乙"
    assert replace_unsafe(SAFE) is SAFE
    assert utf8("a\udcffb") == "a\ufffdb".encode()
    assert utf8("a\x01\ufffe") == "a\x01\ufffe".encode()


def test_the_file_is_read_with_replacements(odd: OddSection) -> None:
    doc = read_document(odd.files["b"], "d2")
    assert doc.name == "02-乙\ufffd.txt" and doc.path == str(odd.files["b"])
    text = "\n".join(b.text for b in doc.blocks)
    assert replace_unsafe(odd.odd_part()) in text and "\x01" not in text
    assert read_document(odd.files["d"], "d4").metadata["author"] == replace_unsafe(AUTHOR)


def _names(report: Reported) -> dict[str, str]:
    return {d["id"]: d["name"] for d in report.json["documents"]}


def _copied_pair(report: Reported) -> dict[str, Any]:
    names = _names(report)
    return next(p for p in report.json["pairs"] if names[p["a"]] == "01-甲.txt")


def test_the_check_runs_and_warns_without_a_tender(reported: Reported) -> None:
    assert reported.status == ExitStatus.SUCCESS
    assert "01-甲.txt ↔ 02-乙\ufffd.txt" in reported.stdout
    assert NO_TENDER_WARNING in reported.stdout
    levels = {frozenset((p["a"], p["b"])): p["level"] for p in reported.json["pairs"]}
    assert levels[frozenset(("d1", "d2"))] == levels[frozenset(("d3", "d4"))] == "high"


def test_json_names_properties_and_paths(reported: Reported, odd: OddSection) -> None:
    docs = {d["id"]: d for d in reported.json["documents"]}
    assert docs["d2"]["name"] == "02-乙\ufffd.txt"
    assert docs["d2"]["path"] == str(odd.files["b"])  # JSON holds U+0001 (escaped): the file is found again
    assert docs["d3"]["name"] == "03-\ufffd\ufffd.txt"
    assert docs["d3"]["path"].endswith("03-\ufffd\ufffd.txt")  # UTF-8 cannot hold a lone surrogate
    assert docs["d4"]["metadata"]["author"] == "张\ufffd三\ufffd"


def test_json_passage_holds_the_replacements_at_the_documents_offsets(
    reported: Reported, odd: OddSection
) -> None:
    pair = _copied_pair(reported)
    (passage,) = pair["passages"]
    for side, key in (("a", "a"), ("b", "b")):
        found = passage[side]
        assert replace_unsafe(odd.odd_part()) in found["text"]
        assert found["end"] - found["start"] == len(found["text"])
        clean = build_clean_text(clean_document(read_document(odd.files[key], "d")))
        assert clean.text[found["start"] : found["end"]] == found["text"]


def _runs(value: CellRichText | str) -> tuple[str, set[int]]:
    """A rich-text cell's text and the positions of its bold (aligned) characters."""
    text, bold, position = "", set(), 0
    for part in [value] if isinstance(value, str) else value:
        piece = part.text if isinstance(part, TextBlock) else str(part)
        if isinstance(part, TextBlock) and part.font.b:
            bold.update(range(position, position + len(piece)))
        text, position = text + piece, position + len(piece)
    return text, bold


def _marked(side: dict[str, Any]) -> set[int]:
    return {i for start, end in side["marks"] for i in range(start, min(end, len(side["text"])))}


def test_workbook_holds_the_passage_text_and_its_marks(reported: Reported) -> None:
    book = load_workbook(reported.xlsx, rich_text=True)
    pair = _copied_pair(reported)
    rows = [r for r in book["共同段落"].iter_rows(min_row=2, values_only=True) if r[0] == "01-甲.txt"]
    assert [r[1] for r in rows] == ["02-乙\ufffd.txt"]
    (passage,) = pair["passages"]
    for column, side in ((8, passage["a"]), (11, passage["b"])):
        text, bold = _runs(rows[0][column])
        assert text == side["text"] and REPLACEMENT in text
        assert bold == _marked(side) and bold


def test_workbook_names_properties_and_warning(reported: Reported) -> None:
    book = load_workbook(reported.xlsx)
    files = {r[1]: r for r in book["文件清单"].iter_rows(min_row=2, values_only=True)}
    properties = {r[1]: r for r in book["文件属性"].iter_rows(min_row=2, values_only=True)}
    names = {"01-甲.txt", "02-乙\ufffd.txt", "03-\ufffd\ufffd.txt", "04-丁.pdf"}
    assert set(files) == set(properties) == names
    assert properties["04-丁.pdf"][2] == "张\ufffd三\ufffd"
    assert str(files["02-乙\ufffd.txt"][12]).endswith("02-乙\ufffd.txt")
    summary = {r[0]: r[1] for r in book["概要"].iter_rows(min_row=2, values_only=True)}
    assert summary["注意"] == NO_TENDER_WARNING
    assert book["相似度矩阵"]["A3"].value == "02-乙\ufffd.txt"


def _side(text: str) -> Side:
    return Side(1, 1, 0, len(text), text, ((0, 2), (3, 6)))


def test_writers_take_a_vertical_tab_and_a_lone_surrogate_in_a_passage(tmp_path: Path) -> None:
    """U+000B and lone surrogates cannot come from a .txt passage (see oddchars); the writers take them."""
    text = "甲\x0b乙\ud800丙丁\ufffe戊\x01己"
    docs = tuple(Document(f"d{n}", f"/x/{n}\udcff.txt", f"{n}\x0b.txt", "txt", 1, 9) for n in (1, 2))
    passage = Passage(_side(text), _side(text), 1.0, 9)
    pair = PairResult("d1", "d2", 0.5, 0.5, 0.5, 0.9, "high", "理由\x0c", (passage,))
    result = CheckResult({"note": "设置\x01"}, 0.1, docs, (pair,))
    write_xlsx(result, tmp_path / "r.xlsx", "标段\ufffe")
    write_json(result, tmp_path / "r.json")
    row = next(
        load_workbook(tmp_path / "r.xlsx", rich_text=True)["共同段落"].iter_rows(min_row=2, values_only=True)
    )
    assert _runs(row[8]) == (replace_unsafe(text), {0, 1, 3, 4, 5})
    assert row[0] == "1\ufffd.txt"
    side = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["pairs"][0]["passages"][0]["a"]
    assert side["text"] == "甲\x0b乙\ufffd丙丁\ufffe戊\x01己"  # JSON holds all but the lone surrogate
