"""What the GUI keeps without Qt: saved checks, whole-document texts, and the English table."""

from __future__ import annotations

import ast
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from bidcheck.config import SETTING_PROBLEMS
from bidcheck.findings import PARTS
from bidcheck.gui import (
    evidence_view,
    files_view,
    history_view,
    library_page,
    menus,
    results_view,
    selfcheck_view,
    settings_dialog,
)
from bidcheck.gui.store import SavedCheck, SectionFile, load_check, save_check
from bidcheck.gui.strings import ENGLISH
from bidcheck.gui.texts import texts_from_files, texts_from_result
from bidcheck.model import CheckResult, result_to_dict
from bidcheck.pipeline import CheckInputs, check
from bidcheck.report.xlsx import LEVEL_NAMES, NO_TENDER_WARNING

GUI = Path(files_view.__file__).parent


@dataclass(frozen=True)
class Copied:
    root: Path
    bids: Path
    tender: Path
    result: CheckResult


@pytest.fixture(scope="module")
def copied(section: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Copied:
    """The shared test section copied to a folder of its own, checked."""
    root = tmp_path_factory.mktemp("copied")
    bids = shutil.copytree(section["bids"], root / "bids")
    tender = Path(shutil.copy(section["tender"], root / "招标文件.docx"))
    return Copied(root, bids, tender, check(CheckInputs((bids,), (tender,))))


def test_texts_from_the_result_hold_every_passage_at_its_offsets(copied: Copied) -> None:
    result = copied.result
    texts = texts_from_result(result)
    assert set(texts) == {d.id for d in result.bids if d.ok}
    pair = result.pairs[0]
    passage = pair.passages[0]
    assert texts[pair.a].text[passage.a.start : passage.a.end] == passage.a.text
    assert texts[pair.a].locate(passage.a.start) == (passage.a.page, passage.a.paragraph)


def test_texts_are_read_again_from_files_unless_changed(copied: Copied) -> None:
    result = copied.result
    fresh = texts_from_result(result)
    again = texts_from_files(result)
    assert again == fresh
    changed = next(p for p in copied.bids.iterdir() if p.suffix == ".docx")
    backup = changed.read_bytes()
    try:
        shutil.copy(copied.tender, changed)
        after = texts_from_files(result)
    finally:
        changed.write_bytes(backup)
    doc_id = next(d.id for d in result.documents if Path(d.path).name == changed.name)
    assert doc_id not in after and len(after) == len(fresh) - 1


def test_a_saved_check_round_trips_with_relative_paths(copied: Copied, tmp_path: Path) -> None:
    result = copied.result
    root = copied.root
    files = tuple(SectionFile(Path(d.path), d.role) for d in result.documents)
    saved = SavedCheck("第二标段", files, result, texts_from_result(result))
    save_check(saved, root / "check.bidcheck")
    moved = shutil.copytree(root, tmp_path / "moved")  # the section's folder moved, check file and all
    shutil.rmtree(root / "bids")
    try:
        back = load_check(moved / "check.bidcheck")
    finally:
        shutil.copytree(moved / "bids", root / "bids")
    assert back.name == "第二标段"
    bids = [f.path for f in back.files if f.role == "bid"]
    assert bids == [(moved / f.path.relative_to(root)).resolve() for f in files if f.role == "bid"]
    assert [f.path for f in back.files if f.role == "tender"] == [copied.tender]  # still where it was
    assert result_to_dict(back.result) == result_to_dict(result)
    assert back.texts == saved.texts


def test_a_result_json_opens_as_a_check(copied: Copied, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(result_to_dict(copied.result)), encoding="utf-8")
    opened = load_check(path)
    assert opened.result is not None and opened.texts == {}
    assert [f.role for f in opened.files].count("tender") == 1


@pytest.mark.parametrize(
    "content", ["not json", "[1, 2]", '{"schema": "other/1"}', '{"schema": "bidcheck.check/1"}']
)
def test_a_wrong_file_gives_a_plain_message(tmp_path: Path, content: str) -> None:
    path = tmp_path / "x.bidcheck"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=r"x\.bidcheck|bidcheck 的检查"):
        load_check(path)


def _passed_literals(path: Path) -> set[str]:
    """The literals a module passes to ``tr`` (directly, or as an action's text)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            position = {"tr": 0, "_action": 1}.get(node.func.id)
            if position is not None and len(node.args) > position:
                arg = node.args[position]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
    return found


def _interface_strings() -> set[str]:
    """Every literal the GUI passes to ``tr`` (directly, or as an action's text), and its tables."""
    found: set[str] = set()
    for path in GUI.glob("*.py"):
        found |= _passed_literals(path)
    tables = (
        *files_view.ROLE_NAMES.values(),
        *files_view.COLUMNS,
        *results_view.COLUMNS,
        *results_view.LEVEL_FILTERS,
        *selfcheck_view.FINDING_COLUMNS,
        *PARTS.values(),
        *evidence_view.PASSAGE_COLUMNS,
        *library_page.SECTION_COLUMNS,
        *library_page.BIDDER_COLUMNS,
        *history_view.COLUMNS,
        *(title for title, _ in settings_dialog.GROUPS),
        *SETTING_PROBLEMS.values(),
        *(title for title, _ in settings_dialog.PAGES),
        *LEVEL_NAMES.values(),
        NO_TENDER_WARNING,
        "其他",
    )
    return found | set(tables)


def test_every_interface_string_has_english() -> None:
    strings = _interface_strings()
    assert len(strings) > 100
    assert sorted(s for s in strings if s not in ENGLISH) == []
    assert {"新建检查", "打开检查…"} <= _passed_literals(Path(menus.__file__))  # actions' texts are scanned
    for chinese, english in ENGLISH.items():
        assert set(_fields(chinese)) == set(_fields(english)), chinese


def _fields(text: str) -> list[str]:
    return [part.split("}")[0].split(":")[0] for part in text.split("{")[1:]]
