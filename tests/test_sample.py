"""The bundled sample section gives the findings it was written to show (resources/sample/expected.json)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from openpyxl import load_workbook

from bidcheck.cli import ExitStatus, main
from installer.sample_check import EXPECTED, expected_levels


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    out = tmp_path_factory.mktemp("demo")
    stdout = io.StringIO()
    status = main(["demo", "--out", str(out), "--quiet"], stdout, io.StringIO())
    result = json.loads((out / "bidcheck-demo.json").read_text(encoding="utf-8"))
    return {
        "status": status,
        "result": result,
        "xlsx": out / "bidcheck-demo.xlsx",
        "stdout": stdout.getvalue(),
    }


def test_demo_writes_the_reports(demo: dict[str, object]) -> None:
    assert demo["status"] == ExitStatus.SUCCESS
    assert isinstance(demo["xlsx"], Path) and load_workbook(demo["xlsx"]).sheetnames[0] == "概要"
    from docx import Document as open_docx

    dossier = open_docx(str(demo["xlsx"].with_suffix(".docx")))
    assert (
        dossier.paragraphs[0].text == "围标串标检查报告"
        and "示例标段" in dossier.sections[0].header.paragraphs[0].text
    )


def test_every_pair_gets_its_expected_level(demo: dict[str, object]) -> None:
    result = demo["result"]
    assert isinstance(result, dict)
    names = {d["id"]: d["name"] for d in result["documents"]}
    got = {frozenset((names[p["a"]], names[p["b"]])): p["level"] for p in result["pairs"]}
    expected = expected_levels()
    assert set(got) == set(expected)
    wrong = {tuple(sorted(k)): (got[k], v) for k, v in expected.items() if got[k] not in v}
    assert wrong == {}


def test_the_shared_typos_are_the_planted_ones_and_true_typos(demo: dict[str, object]) -> None:
    """The sample's one planted typo (沉降观侧, 01's, copied into 02) is reported, and nothing else:
    03 and 04 share 已摊铺未压实 (laid, not yet compacted), which is right."""
    result = demo["result"]
    assert isinstance(result, dict)
    names = {d["id"]: d["name"] for d in result["documents"]}
    found = [
        {"a": names[p["a"]], "b": names[p["b"]], "error": s["value"], "right": _right_form(s["detail"])}
        for p in result["pairs"]
        for s in p["signals"]
        if s["kind"] == "shared_error"
    ]
    assert found == json.loads(EXPECTED.read_text(encoding="utf-8"))["shared_errors"]


def _right_form(detail: str) -> str:
    match = re.search(r"应为“(.+?)”", detail)
    assert match, detail
    return match.group(1)


def test_pairs_sharing_only_tender_text_show_it_flagged(demo: dict[str, object]) -> None:
    result = demo["result"]
    assert isinstance(result, dict)
    quiet = [p for p in result["pairs"] if p["level"] == "none"]
    assert quiet
    for pair in quiet:
        assert pair["passages"], (pair["a"], pair["b"])
        assert all(p["template"] or p["common"] for p in pair["passages"])


def test_heavy_pair_is_located_in_the_technical_chapter(demo: dict[str, object]) -> None:
    result = demo["result"]
    assert isinstance(result, dict)
    top = result["pairs"][0]
    live = [p for p in top["passages"] if not p["template"] and not p["common"]]
    assert top["level"] == "high" and top["similarity"] >= 0.5
    assert sum(p["chars"] for p in live) >= 2000
    assert all(p["a"]["page"] >= 2 and p["b"]["page"] >= 2 for p in live)
    names = {d["id"]: d["name"] for d in result["documents"]}
    assert {names[top["a"]], names[top["b"]]} == {"01-华东建设集团.docx", "02-恒信市政工程.pdf"}
