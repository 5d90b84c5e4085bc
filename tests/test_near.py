"""New documents against stored ones (``bidcheck near``): the index's counts against set arithmetic, a
folder indexed once and then only what changed, the library's bids, the JSON, bad input."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import numpy as np

from bidcheck.cli import ExitStatus
from bidcheck.config import Settings
from bidcheck.library.near import NearIndex, comparable_text, exact_scores, near_hashes
from bidcheck.library.vault import CACHE_NAME, index_vault
from tests.builders import make_docx
from tests.test_library import prose, run, write_bid


def test_the_index_counts_are_the_exact_intersections() -> None:
    rng = np.random.default_rng(3)
    sets = [
        np.unique(rng.integers(0, 400, size=int(rng.integers(1, 120)))).astype(np.int64) for _ in range(60)
    ]
    index = NearIndex([("S", f"d{n}") for n in range(len(sets))], sets)
    for mine in [*sets[:10], np.asarray([7, 9, 401], dtype=np.int64), np.zeros(0, dtype=np.int64)]:
        counts = index.shared_counts(mine)
        assert counts.tolist() == [len(set(mine.tolist()) & set(s.tolist())) for s in sets]
        for match in index.query(mine, 0.2):
            other = set(sets[int(match.document[1:])].tolist())
            larger = max(len(other), len(set(mine.tolist())))  # the score: shared over the larger set
            assert abs(match.score - len(other & set(mine.tolist())) / larger) < 1e-4 and match.score >= 0.2


def test_equal_text_gives_equal_hashes_wherever_it_stands() -> None:
    text = "".join(prose(5, 12))
    assert near_hashes(text).tolist() == near_hashes(text).tolist()
    inner = set(near_hashes("前言" * 20 + text + "结语" * 20).tolist())
    assert len(set(near_hashes(text).tolist()) - inner) <= 2  # only hashes of the two ends may differ
    assert near_hashes("短").tolist() == []


def near_copy(words: str, changes: int, seed: int) -> str:
    rng = random.Random(seed)
    chars = list(words)
    for n in rng.sample(range(len(chars)), changes):
        chars[n] = "改"
    return "".join(chars)


def make_vault(folder: Path) -> dict[str, str]:
    texts = {f"sub/note{n}.{'md' if n % 2 else 'txt'}": "\n\n".join(prose(100 + n, 80)) for n in range(12)}
    for name, text in texts.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    make_docx(folder / "合同范本.docx", [prose(300, 24)])
    (folder / ".hidden.txt").write_text(texts["sub/note1.md"], encoding="utf-8")  # hidden: left out
    return texts


def test_a_folder_is_indexed_once_and_then_only_what_changed(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    texts = make_vault(vault)
    settings = Settings()
    index, figures = index_vault(vault, settings)
    assert (figures.files, figures.read, figures.unreadable) == (13, 13, 0)
    assert figures.cache == vault / CACHE_NAME and len(index) == 13
    (tmp_path / "copy.txt").write_text(near_copy(texts["sub/note3.md"], 3, 1), encoding="utf-8")
    copy = near_hashes(comparable_text(tmp_path / "copy.txt", settings)[0])
    found = index.query(copy, 0.9)
    assert [m.document for m in found] == ["sub/note3.md"] and found[0].section == "vault"
    assert 0.9 <= found[0].score < 1.0 and found[0].containment >= found[0].score
    assert index.query(near_hashes("".join(prose(999, 24))), 0.9) == ()
    _index, again = index_vault(vault, settings)
    assert again.read == 0
    (vault / "sub/note0.txt").write_text("".join(prose(555, 24)), encoding="utf-8")  # changed
    os.utime(vault / "sub/note2.txt", (1, 1))  # touched, the same content
    (vault / "sub/note4.txt").unlink()
    (vault / "坏文件.docx").write_bytes(b"PK\x03\x04 not really a docx")
    index, changed = index_vault(vault, settings)
    assert (changed.files, changed.read, changed.unreadable) == (13, 2, 1)
    assert len(index) == 12 and ("vault", "sub/note4.txt") not in index.keys


def test_near_against_a_folder_writes_json(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    texts = make_vault(vault)
    new = tmp_path / "new"
    new.mkdir()
    (new / "a.md").write_text(near_copy(texts["sub/note5.md"], 2, 2), encoding="utf-8")
    (new / "b.txt").write_text("".join(prose(777, 24)), encoding="utf-8")
    out = tmp_path / "near.json"
    status, stdout, stderr = run(
        "near", str(new), str(tmp_path / "不存在.txt"), "--vault", str(vault), "--json", str(out)
    )
    assert status == ExitStatus.SOME_FILES_UNREADABLE
    assert "13 个文件（本次读取 13 个）" in stderr
    assert "a.md  ≈  vault / sub/note5.md  相似度 " in stdout and "b.txt：没有近似重复" in stdout
    results = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert [r["document"] for r in results] == ["a.md", "b.txt", "不存在.txt"]
    assert results[0]["matches"][0]["document"] == "sub/note5.md" and results[0]["matches"][0]["score"] >= 0.9
    assert set(results[0]["matches"][0]) == {"section", "document", "score", "containment"}
    assert results[1]["matches"] == [] and results[2]["error"] == "找不到文件"
    status, _out, stderr = run("near", str(new), "--vault", str(vault), "--min", "0")
    assert status == ExitStatus.USAGE and "--min" in stderr


def test_near_against_the_library(tmp_path: Path) -> None:
    library = tmp_path / "library.sqlite"
    bodies = [prose(40 + n, 24) for n in range(3)]
    for n, body in enumerate(bodies):
        write_bid(tmp_path / "S1", f"0{n}-乙{n}", body)
    status, _out, _err = run(
        "library", "--library", str(library), "add", str(tmp_path / "S1"), "--section", "S1"
    )
    assert status == 0
    make_docx(tmp_path / "new.docx", [bodies[1]])
    write_bid(tmp_path, "half", bodies[2][:3] + prose(88, 12))
    out = tmp_path / "near.json"
    status, stdout, _err = run(
        "near",
        str(tmp_path / "new.docx"),
        str(tmp_path / "half.txt"),
        "--library",
        str(library),
        "--json",
        str(out),
    )
    assert status == ExitStatus.SUCCESS, stdout
    results = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert [(m["section"], m["document"]) for m in results[0]["matches"]] == [("S1", "01-乙1.txt")]
    assert results[0]["matches"][0]["score"] >= 0.95
    assert results[1]["matches"] == []  # a quarter of a bid: far below 0.9
    status, stdout, _err = run("near", str(tmp_path / "half.txt"), "--library", str(library), "--min", "0.1")
    assert "S1 / 02-乙2.txt" in stdout


def test_resubmitted_copies_are_found_and_half_reuse_is_not(tmp_path: Path) -> None:
    """Copies of stored bids under another name, lightly edited, half of them as PDFs, score above 0.9
    (their Jaccard index falls just under it); half a stored bid reused, or a fresh bid, does not."""
    import io
    import json

    from bench.near import write_cases
    from bidcheck.cli import main

    kinds = write_cases(tmp_path, stored=4, copies=4, seed=3)
    out = tmp_path / "near.json"
    argv = ["near", str(tmp_path / "ask"), "--vault", str(tmp_path / "vault"), "--json", str(out)]
    assert main(argv, io.StringIO(), io.StringIO()) == 0
    listed = {d["document"]: d["matches"] for d in json.loads(out.read_text(encoding="utf-8"))["results"]}
    assert sorted(n for n, m in listed.items() if m) == sorted(n for n, k in kinds.items() if k == "copy")
    for name, kind in kinds.items():
        if kind == "copy":
            (match,) = listed[name]
            assert match["score"] >= 0.9 and match["containment"] >= 0.95


def test_the_exact_score_is_of_the_larger_set_and_the_containment_of_mine() -> None:
    """Half of a text against the whole: the score is a half (the larger set's share both hold), the
    containment of the half in the whole all of it, and of the whole in the half a half."""
    whole = "".join(prose(150, 40))
    half = whole[: len(whole) // 2]
    score, contained = exact_scores(half, whole)
    assert abs(score - 0.5) < 0.02 and contained == 1.0
    score, contained = exact_scores(whole, half)
    assert abs(score - 0.5) < 0.02 and abs(contained - 0.5) < 0.02
    assert exact_scores("", whole) == (0.0, 0.0)
