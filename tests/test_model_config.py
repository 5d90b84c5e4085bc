"""Settings validation and the result JSON round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bidcheck.config import Settings, SettingsError, load_settings
from bidcheck.model import (
    CheckResult,
    Document,
    Group,
    PairResult,
    Passage,
    Side,
    load_result,
    result_to_dict,
)
from bidcheck.report import write_json
from bidcheck.report.json import result_json


def test_defaults_are_valid_and_listed_with_a_version() -> None:
    data = Settings().to_dict()
    assert data["version"] == 1 and data["window_chars"] == 300 and data["window_stride"] == 250


@pytest.mark.parametrize(
    "change",
    [
        {"window_chars": 0},
        {"window_stride": 400},
        {"high_similarity": 1.5},
        {"watch_similarity": 0.5, "high_similarity": 0.4},
        {"workers": -1},
    ],
)
def test_out_of_range_values_are_rejected(change: dict[str, object]) -> None:
    with pytest.raises(SettingsError):
        Settings().with_changes(**change)


def test_settings_file_rejects_unknown_keys_and_wrong_types(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"high_similarity": 0.4, "workers": 2}), encoding="utf-8")
    assert load_settings(path).high_similarity == 0.4
    for bad in ({"no_such": 1}, {"workers": "two"}, {"high_chars": True}):
        path.write_text(json.dumps(bad), encoding="utf-8")
        with pytest.raises(SettingsError):
            load_settings(path)
    path.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(SettingsError):
        load_settings(path)


def test_result_json_round_trips(tmp_path: Path) -> None:
    side_a = Side(3, 12, 100, 160, "甲" * 60, ((0, 30), (35, 60)))
    side_b = Side(4, 20, 200, 258, "乙" * 58, ((0, 58),))
    pair = PairResult("d1", "d2", 0.4, 0.4, 0.3, 0.9, "high", "理由", (Passage(side_a, side_b, 0.93, 60),), 2)
    docs = (
        Document("d1", "/x/a.docx", "a.docx", "docx", pages=5, chars=900),
        Document("d2", "/x/b.pdf", "b.pdf", "pdf", status="error", error="文件为空"),
    )
    result = CheckResult(Settings().to_dict(), 1.5, docs, (pair,), (Group(("d1", "d2"), 1, 60),))
    write_json(result, tmp_path / "r.json")
    again = load_result(tmp_path / "r.json")
    assert result_to_dict(again) == result_to_dict(result)
    assert again.pairs[0].passages[0].a.marks == ((0, 30), (35, 60))
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_a_side_shared_by_many_pairs_is_written_whole_in_each() -> None:
    """A bid's copy of the tender's text is one ``Side`` in its pair with every other bid: the JSON
    encodes it once and writes it in each pair, equal to the object the contract describes."""
    copy = Side(2, 7, 50, 110, "招标文件的条款" * 8 + "“引号”\n换行", ((0, 60),))
    other = [Side(3, n, 10 * n, 10 * n + 60, f"第{n}份的文字" * 10, ((0, 20), (30, 60))) for n in range(3)]
    copied = [Passage(copy, other[n], 0.98, 60, True) for n in range(3)]
    pairs = (
        *(
            PairResult("d1", f"d{n + 2}", 0.0, 0.0, 0.0, 0.81, "none", "无", (copied[n],), n)
            for n in range(3)
        ),
        PairResult("d2", "d3", 0.0, 0.0, 0.0, 0.8, "none", "无", ()),
    )
    docs = tuple(Document(f"d{n}", f"/x/{n}.docx", f"{n}.docx", "docx") for n in range(1, 5))
    result = CheckResult(Settings().to_dict(), 0.5, docs, pairs, ())
    expected = json.loads(json.dumps(result_to_dict(result), ensure_ascii=False))
    assert json.loads(result_json(result)) == expected
    assert [p["passages"][0]["a"]["text"] for p in expected["pairs"][:3]] == [copy.text] * 3
    rows = result_json(result).splitlines()
    pair_rows = rows[rows.index(' "pairs": [') + 1 : rows.index(' "pairs": [') + 5]
    assert pair_rows == [  # one pair a line, each the compact form of its object
        f"  {json.dumps(pair, ensure_ascii=False)}{',' if n < 3 else ''}"
        for n, pair in enumerate(result_to_dict(result)["pairs"])
    ]
    assert expected["pairs"][3]["passages"] == [] and expected["pairs"][2]["passages_omitted"] == 2
