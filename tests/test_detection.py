"""Detection on built documents: the same document twice, public phrasing, and the invariants of a result."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from pathlib import Path

import pytest

from bench.corpus import generate_section
from bench.grammar import paragraph
from bench.writers import Chapter, write_docx, write_pdf
from bidcheck.config import Settings
from bidcheck.model import CheckResult, result_to_dict
from bidcheck.pipeline import CheckInputs, check
from bidcheck.report.json import result_json
from bidcheck.text import normalize


def _chapters(seed: int, count: int = 24) -> list[Chapter]:
    rng = random.Random(seed)
    paras = [paragraph(rng) for _ in range(count)]
    return [
        Chapter("第一章 施工部署", tuple(paras[: count // 2])),
        Chapter("第二章 质量保证", tuple(paras[count // 2 :])),
    ]


def _pair(result: CheckResult) -> tuple[float, str, int]:
    (pair,) = result.pairs
    return pair.similarity, pair.level, len([p for p in pair.passages if p.live])


def test_a_docx_and_its_pdf_export_are_the_same_document(tmp_path: Path) -> None:
    chapters = _chapters(1)
    write_docx(tmp_path / "a.docx", title="施工组织设计", header="投标文件", chapters=chapters)
    write_pdf(tmp_path / "a.pdf", title="施工组织设计", header="投标文件", chapters=chapters)
    similarity, level, _ = _pair(check(CheckInputs((tmp_path,)), Settings(workers=1)))
    assert level == "high" and similarity >= 0.9


def test_two_saved_versions_of_one_file_are_high_as_one_long_passage(tmp_path: Path) -> None:
    paras = list(sum((c.paragraphs for c in _chapters(2, count=40)), ()))
    revised = [p.replace("，", "；", 1) if i % 7 == 3 else p for i, p in enumerate(paras)]
    revised[10] = revised[10].replace("确保", "保证")
    write_docx(
        tmp_path / "v1.docx", title="施工组织设计", header=None, chapters=[Chapter("正文", tuple(paras))]
    )
    write_docx(
        tmp_path / "v2.docx", title="施工组织设计", header=None, chapters=[Chapter("正文", tuple(revised))]
    )
    result = check(CheckInputs((tmp_path,)), Settings(workers=1))
    similarity, level, live = _pair(result)
    assert level == "high" and similarity >= 0.9
    longest = max(p.chars for p in result.pairs[0].passages)
    assert longest >= 0.9 * len(normalize("".join(paras))[0])
    assert live <= 2


def test_different_bidders_sharing_only_public_phrasing_are_not_high(tmp_path: Path) -> None:
    """Same trade, same stock phrases and sentence frames (the grammar), different authors."""
    for n, seed in enumerate((11, 12, 13)):
        write_pdf(tmp_path / f"{n}.pdf", title="施工组织设计", header="投标文件", chapters=_chapters(seed))
    result = check(CheckInputs((tmp_path,)), Settings(workers=1))
    assert {p.level for p in result.pairs} == {"none"}
    assert all(p.similarity < 0.05 for p in result.pairs)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CheckResult, dict[str, object]]:
    folder = tmp_path_factory.mktemp("generated")
    section = generate_section(folder, bids=8, seed=7)
    result = check(CheckInputs((folder / "bids",), (section.tender,)), Settings(workers=2))
    return folder, result, section.truth


def test_generated_section_levels_and_ring(generated: tuple[Path, CheckResult, dict[str, object]]) -> None:
    _, result, truth = generated
    names = {d.id: d.name for d in result.documents}
    expected = {frozenset((p["a"], p["b"])): p["expected"] for p in truth["pairs"]}  # type: ignore[index]
    got = {frozenset((names[p.a], names[p.b])): p.level for p in result.pairs}
    assert {k: v for k, v in got.items() if v != expected.get(k, "none")} == {}
    ring = {m for p in truth["pairs"] if p["relation"] == "ring" for m in (p["a"], p["b"])}  # type: ignore[index]
    assert {frozenset(names[m] for m in g.members) for g in result.groups} >= {frozenset(ring)}


def test_invariants_of_a_result(generated: tuple[Path, CheckResult, dict[str, object]]) -> None:
    _, result, _ = generated
    settings = Settings()
    texts = {d.id: d for d in result.documents}
    assert texts
    for pair in result.pairs:
        assert 0.0 <= pair.similarity <= 1.0
        assert 0.0 <= pair.coverage_a <= 1.0 and 0.0 <= pair.coverage_b <= 1.0
        for side in ("a", "b"):
            spans = sorted((getattr(p, side).start, getattr(p, side).end) for p in pair.passages)
            assert all(x[1] <= y[0] for x, y in itertools.pairwise(spans)), "passages overlap"
        for passage in pair.passages:
            _assert_aligned(passage.a.text, passage.b.text, passage.a.marks, passage.b.marks, settings)


def _assert_aligned(
    text_a: str,
    text_b: str,
    marks_a: tuple[tuple[int, int], ...],
    marks_b: tuple[tuple[int, int], ...],
    settings: Settings,
) -> None:
    """The marked characters really agree on both sides, and they make the passage's similarity."""
    shared_a = normalize("".join(text_a[s:e] for s, e in marks_a))[0]
    shared_b = normalize("".join(text_b[s:e] for s, e in marks_b))[0]
    assert sorted(shared_a) == sorted(shared_b)
    length_a, length_b = len(normalize(text_a)[0]), len(normalize(text_b)[0])
    assert 2 * len(shared_a) / (length_a + length_b) >= settings.min_passage_similarity - 0.02


def test_same_input_gives_the_same_json_byte_for_byte(
    generated: tuple[Path, CheckResult, dict[str, object]],
) -> None:
    folder, result, _ = generated
    again = check(
        CheckInputs((folder / "bids",), (folder / "tender" / "招标文件.docx",)), Settings(workers=1)
    )

    def stable(r: CheckResult) -> str:
        data = result_to_dict(r)
        data["elapsed_s"], data["settings"]["workers"], data["timings"] = 0, 0, {}
        return json.dumps(data, ensure_ascii=False, indent=1)

    def written(r: CheckResult) -> str:
        """The JSON file's text, the run's time and worker count left out."""
        settings = {**r.settings, "workers": 0}
        return result_json(dataclasses.replace(r, elapsed_s=0.0, settings=settings, timings={}))

    assert stable(again) == stable(result)
    assert written(again) == written(result)
