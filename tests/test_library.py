"""The library: the store, checks against it (history, earlier warnings, own templates, public text
learned), its verbs, and a library that is locked, damaged, newer, or written by two processes."""

from __future__ import annotations

import dataclasses
import io
import json
import multiprocessing
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bidcheck import library as lib
from bidcheck.cli import ExitStatus, main
from bidcheck.config import Settings
from bidcheck.fingerprint import window_starts
from bidcheck.library import default_library_path, open_library
from bidcheck.library.prints import bid_print, bidder_name, window_band_keys, winnow
from bidcheck.library.store import SCHEMA_VERSION, LibraryError
from bidcheck.model import Block, Document
from bidcheck.pipeline import CheckInputs, check
from bidcheck.text import build_clean_text
from tests.conftest import ReadOnly

_CHARS = "".join(chr(c) for c in range(0x4E00, 0x4E00 + 3000))


def prose(seed: int, sentences: int) -> list[str]:
    """Paragraphs of text no other seed shares (random characters in sentences of 12-30)."""
    rng = random.Random(seed)
    out = []
    for _ in range(max(1, sentences // 4)):
        out.append("".join("".join(rng.choices(_CHARS, k=rng.randint(12, 30))) + "。" for _ in range(4)))
    return out


def write_bid(folder: Path, name: str, paragraphs: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.txt"
    path.write_text("\n\n".join(paragraphs), encoding="utf-8")
    return path


def run(*argv: str) -> tuple[ExitStatus, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def check_section(tmp: Path, library: Path, name: str, *extra: str) -> tuple[ExitStatus, str, dict]:
    out = tmp / f"{name}.json"
    status, stdout, stderr = run(
        "check", str(tmp / name), "--library", str(library), "--section", name, "--json", str(out),
        "--quiet", "--workers", "1", *extra,
    )  # fmt: skip
    assert status in (ExitStatus.SUCCESS, ExitStatus.SOME_FILES_UNREADABLE, ExitStatus.LIBRARY_FAILED), stderr
    return status, stdout, json.loads(out.read_text(encoding="utf-8"))


def test_winnowing_keeps_the_smallest_hash_of_every_window() -> None:
    import numpy as np

    hashes = np.asarray([5, 3, 9, 1, 7, 8, 2, 6], dtype=np.uint64)
    assert winnow(hashes, 3).tolist() == [1, 3, 6]
    assert bidder_name("01-华东建设集团.docx") == "华东建设集团"
    assert bidder_name("华东.pdf") == "华东"


def test_store_is_wal_versioned_and_small(tmp_path: Path) -> None:
    library = open_library(tmp_path / "l.sqlite")
    conn = sqlite3.connect(tmp_path / "l.sqlite")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    text = "".join(prose(7, 2400))[:50_000]
    doc = Document("d1", "x/01-甲.txt", "01-甲.txt", "txt", blocks=(Block(text),))
    clean = build_clean_text(doc)
    bp, bands = bid_print(clean), window_band_keys(clean.norm, Settings())
    windows = window_starts(len(clean.norm), 300, 250)
    assert bands.shape == (len(windows), 51)  # 300-character windows every 250, the check's 51 LSH bands
    before = library.size_figures()["bytes"]
    bid = lib.store.StoredBid("01-甲.txt", "", "甲", "bid", len(text), 1, {}, bp, bands=bands)
    library.store_section("S", [bid])
    per_bid = library.size_figures()["bytes"] - before
    assert 20_000 <= per_bid <= 300_000, per_bid  # the budget for a 50,000-character bid
    library.close()


def test_a_stored_files_key_changes_with_each_thing_that_makes_it_stored_again() -> None:
    """A file stored again keeps its rows only when nothing it was stored with changed: its name, bytes,
    bidder, role, characters, properties (a new author is a new sign) and the shape of its prints."""
    doc = Document("d1", "x/01-甲.txt", "01-甲.txt", "txt", blocks=(Block("".join(prose(8, 40))),))
    bp = bid_print(build_clean_text(doc))
    bid = lib.store.StoredBid("01-甲.txt", "ab12", "甲", "bid", 900, 1, {"author": "张三"}, bp, shape="s1")
    assert bid.key() == dataclasses.replace(bid, simhash=2, text="…").key()  # not part of what it is
    for change in (
        {"name": "02-甲.txt"},
        {"digest": "cd34"},
        {"bidder": "乙"},
        {"role": "template"},
        {"chars": 901},
        {"metadata": {"author": "李四"}},
        {"shape": "s2"},
    ):
        assert dataclasses.replace(bid, **change).key() != bid.key(), change  # type: ignore[arg-type]


def test_a_stored_section_is_renamed_unless_the_name_is_taken_or_it_is_not_there(tmp_path: Path) -> None:
    doc = Document("d1", "x/01-甲.txt", "01-甲.txt", "txt", blocks=(Block("".join(prose(9, 40))),))
    bp = bid_print(build_clean_text(doc))
    library = open_library(tmp_path / "l.sqlite")
    for name in ("S1", "S2"):
        library.store_section(name, [lib.store.StoredBid("01-甲.txt", name, "甲", "bid", 900, 1, {}, bp)])
    assert library.rename("S1", "滨江二标段") == ""
    assert sorted(s.name for s in library.sections()) == ["S2", "滨江二标段"]
    assert library.rename("S2", "滨江二标段") == "资料库中已有标段 滨江二标段，请换一个名称"
    assert library.rename("S9", "T") == "资料库中没有标段 S9"
    assert library.rename("S2", "S2") == ""  # the same name again: nothing to do
    assert sorted(s.name for s in library.sections()) == ["S2", "滨江二标段"]
    library.close()


@pytest.fixture(scope="module")
def series(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Sections over time: a bidder's own template in every section, two bidders sharing a draft in
    two sections, a model text 3 bidders of each 8-bid section include (no template given)."""
    tmp = tmp_path_factory.mktemp("series")
    library = tmp / "library.sqlite"
    own = prose(1000, 24)
    model = prose(2000, 16)
    draft = prose(3000, 24)
    results = []
    for n in range(1, 7):
        folder = tmp / f"S{n}"
        for b in range(8):
            bidder = f"乙{n}{b}" if b else "甲公司"
            body = prose(n * 100 + b, 24)
            if b == 0:
                body = own[:16] + body
            if b in (3, 4, 5):
                body = body[:3] + model + body[3:]
            if n in (2, 5) and b in (1, 2):
                bidder = ("丙公司", "丁公司")[b - 1]
                body = body[:2] + draft + body[2:]
            write_bid(folder, f"0{b + 1}-{bidder}", body)
        results.append(check_section(tmp, library, f"S{n}"))
    return {"tmp": tmp, "library": library, "results": results}


def _pair(result: dict, a: str, b: str) -> dict:
    names = {d["id"]: Path(d["name"]).stem[3:] for d in result["documents"]}
    return next(p for p in result["pairs"] if {a, b} <= {names[p["a"]], names[p["b"]]})


def test_history_finds_earlier_sections_paragraph_by_paragraph(series: dict[str, object]) -> None:
    results = series["results"]
    assert isinstance(results, list)
    _, stdout, fifth = results[4]
    assert fifth["library"]["sections"] == 4 and fifth["library"]["error"] is None
    assert "S5" in stdout and "以往标段" in stdout
    ding = next(d for d in fifth["documents"] if "丁公司" in d["name"])
    found = [h for h in ding["history"] if h["bidder"] == "丙公司"]
    assert found and found[0]["section"] == "S2" and not found[0]["own_template"]
    draft = prose(3000, 24)  # at the same paragraphs of both bids (after two of their own)
    assert len(found[0]["passages"]) >= 5 and 400 <= found[0]["chars"] <= sum(map(len, draft))
    side = found[0]["passages"][0]
    assert set(side) == {"page", "paragraph", "text", "other_page", "other_paragraph", "other_text"}
    assert side["other_text"] is None  # texts are not kept unless asked
    assert (side["page"], side["paragraph"]) == (side["other_page"], side["other_paragraph"])
    assert side["paragraph"] >= 3 and any(side["text"][:30] in p for p in draft)
    assert "S2 同为一级预警" in _pair(fifth, "丙公司", "丁公司")["reason"]


def test_a_pair_raised_together_before_is_raised_again_on_less(tmp_path: Path) -> None:
    """甲 and 乙 shared a whole draft in S1 (一级预警); in S2 they share two paragraphs, which alone is
    二级观察: the library's earlier section makes it 一级预警, and the reason says why. A library that
    does not know them leaves the pair at 二级观察."""
    library = tmp_path / "library.sqlite"
    draft, again = prose(3000, 24), prose(3001, 8)
    for n in (1, 2):
        for b, bidder in enumerate(("甲公司", "乙公司", "丙公司", "戊公司")):
            body = prose(n * 100 + b, 40)
            if b < 2:
                body[3:3] = draft if n == 1 else again
            write_bid(tmp_path / f"S{n}", f"0{b + 1}-{bidder}", body)
    first = _pair(check_section(tmp_path, library, "S1")[2], "甲公司", "乙公司")
    assert first["level"] == "high"
    second = _pair(check_section(tmp_path, library, "S2")[2], "甲公司", "乙公司")
    assert second["level"] == "high"
    assert second["reason"].startswith(
        "一级预警：两家曾在标段 S1 同为一级预警，本标段再次出现关联；二级观察："
    )
    alone = _pair(check_section(tmp_path, tmp_path / "other.sqlite", "S2")[2], "甲公司", "乙公司")
    assert alone["level"] == "watch" and "S1" not in alone["reason"]


def test_a_number_bidders_of_many_sections_quote_is_public_and_ties_no_pair(tmp_path: Path) -> None:
    """A hotline two bidders of each of three earlier sections quote (six bidders): in a fourth section
    the two bidders quoting it share no sign, and the summary says why; a library that never saw it
    leaves them a strong sign. The library keeps the values hashed, never the numbers."""
    library, hotline = tmp_path / "library.sqlite", "13900001111"
    for n in range(1, 5):
        for b in range(4):
            body = prose(n * 100 + b, 16)
            if b < 2:
                body.insert(2, f"质量投诉服务热线：{hotline}，工作日受理。")
            write_bid(tmp_path / f"S{n}", f"0{b + 1}-{'甲乙丙丁'[b]}{n}公司", body)
        _, stdout, result = check_section(tmp_path, library, f"S{n}")
    first_two = _pair(result, "甲4公司", "乙4公司")
    assert not any(s["value"] == hotline for s in first_two["signals"]) and first_two["level"] == "none"
    assert result["public_values"] == [
        {"kind": "identifier", "field": "phone", "value": hotline, "holders": 2, "elsewhere": 6}
    ]
    assert "资料库中其他标段的 6 个投标人也有" in stdout
    alone = _pair(check_section(tmp_path, tmp_path / "new.sqlite", "S4")[2], "甲4公司", "乙4公司")
    assert [(s["value"], s["strength"]) for s in alone["signals"]] == [(hotline, "strong")]
    assert hotline.encode() not in library.read_bytes()


def test_a_picture_a_name_and_a_misspelling_bidders_of_many_sections_hold_are_public(tmp_path: Path) -> None:
    """A photo, a document author and a listed misspelling two bidders of each of three earlier sections
    have in their bids (a public site's photo, an unlisted preinstalled user name, a common slip): in a
    fourth section the two holding them share no sign and the summary lists each as the world's; a
    library that never saw them leaves them their signs."""
    from docx import Document as new_docx
    from docx.shared import Inches

    from bench.pictures import encoded, photo

    picture = encoded(photo(31))
    for n in range(1, 5):
        for b in range(4):
            document = new_docx()
            for text in prose(n * 100 + b, 16):
                document.add_paragraph(text)
            if b < 2:
                document.add_picture(io.BytesIO(picture), width=Inches(3))
                document.add_paragraph("垫层采用混泥土浇筑，振捣密实。")
                document.core_properties.author = "YLMF-2023QX"
            (tmp_path / f"S{n}").mkdir(exist_ok=True)
            document.save(str(tmp_path / f"S{n}" / f"0{b + 1}-{'甲乙丙丁'[b]}{n}公司.docx"))
        _, stdout, result = check_section(tmp_path, tmp_path / "library.sqlite", f"S{n}")
    assert _pair(result, "甲4公司", "乙4公司")["signals"] == []
    assert "出现在 2 份投标文件中，资料库中其他标段的 6 个投标人也有，视为公开信息" in stdout
    public = {(v["kind"], v["holders"], v["elsewhere"]) for v in result["public_values"]}
    assert public == {("image", 2, 6), ("metadata", 2, 6), ("shared_error", 2, 6)}
    assert {v["value"] for v in result["public_values"]} >= {"YLMF-2023QX", "混泥土"}
    alone = _pair(check_section(tmp_path, tmp_path / "new.sqlite", "S4")[2], "甲4公司", "乙4公司")
    kinds = sorted((s["kind"], s["field"]) for s in alone["signals"])
    assert kinds == [("image", "exact"), ("metadata", "author"), ("shared_error", "misspelling")]


def test_history_reads_back_from_the_json(series: dict[str, object]) -> None:
    from bidcheck.model import load_result, result_to_dict

    tmp = series["tmp"]
    assert isinstance(tmp, Path)
    result = load_result(tmp / "S5.json")
    assert result.library is not None and result.library.sections == 4
    assert any(m.bidder == "丙公司" for matches in result.history.values() for m in matches)
    written = json.loads((tmp / "S5.json").read_text(encoding="utf-8"))
    assert result_to_dict(result)["documents"][1]["history"] == written["documents"][1]["history"]


def test_own_template_is_shown_as_such(series: dict[str, object]) -> None:
    results = series["results"]
    assert isinstance(results, list)
    _, stdout, sixth = results[5]
    jia = next(d for d in sixth["documents"] if "甲公司" in d["name"])
    assert jia["history"] and all(h["own_template"] for h in jia["history"] if h["bidder"] == "甲公司")
    assert "自有模板" in stdout


def test_public_text_is_learned_across_sections(series: dict[str, object]) -> None:
    results = series["results"]
    assert isinstance(results, list)
    first, sixth = results[0][2], results[5][2]
    assert _pair(first, "乙13", "乙14")["level"] == "high"  # model text, not yet known as public
    pair = _pair(sixth, "乙63", "乙64")
    assert pair["level"] == "none", pair["reason"]
    assert any(p["public"] for p in pair["passages"]) and not any(
        p["public"] and (p["template"] or p["common"]) for p in pair["passages"]
    )


def test_recheck_replaces_and_remove_removes(series: dict[str, object]) -> None:
    tmp, library = series["tmp"], series["library"]
    assert isinstance(tmp, Path) and isinstance(library, Path)
    check_section(tmp, library, "S6")
    status, listed, _ = run("library", "--library", str(library), "list")
    assert status == ExitStatus.SUCCESS and listed.count("S6") == 1 and listed.count("标段") == 6
    status, shown, _ = run("library", "--library", str(library), "show", "S5")
    assert (
        "丙公司" in shown
        and "一级预警" in shown
        and "投标文件" in shown
        and "high" not in shown
        and "bid " not in shown
    )
    status, stats, _ = run("library", "--library", str(library), "stats")
    assert "6 个标段，48 份投标文件，0 组范本，" in stats and " 堆整份相同或几乎相同；" in stats
    copy = tmp / "copy.sqlite"
    assert run("library", "--library", str(library), "export", str(copy))[0] == ExitStatus.SUCCESS
    assert run("library", "--library", str(copy), "remove", "S6")[0] == ExitStatus.SUCCESS
    assert run("library", "--library", str(copy), "remove", "S6")[0] == ExitStatus.USAGE
    assert "S6" not in run("library", "--library", str(copy), "list")[1]
    assert run("library", "--library", str(copy), "import", str(library))[0] == ExitStatus.SUCCESS
    assert "6 个标段，48 份投标文件" in run("library", "--library", str(copy), "stats")[1]


def test_add_stores_a_section_without_a_report(tmp_path: Path) -> None:
    _two_bids(tmp_path)
    library = tmp_path / "l.sqlite"
    status, out, _ = run("library", "--library", str(library), "add", str(tmp_path / "R"), "--section", "R")
    assert status == ExitStatus.SUCCESS and "2 份投标文件" in out
    assert not list(tmp_path.glob("*.json")) and not list(tmp_path.glob("*.xlsx"))
    assert "R  2 份投标文件  乙、甲" in run("library", "--library", str(library), "list")[1]


def test_removed_text_is_gone_from_the_file(tmp_path: Path) -> None:
    marker = "".join(prose(4242, 8))
    write_bid(tmp_path / "K", "01-甲", [marker])
    write_bid(tmp_path / "K", "02-乙", prose(4343, 8))
    library = tmp_path / "l.sqlite"
    settings = tmp_path / "s.json"
    settings.write_text('{"library_keep_texts": true}', encoding="utf-8")
    check_section(tmp_path, library, "K", "--settings", str(settings))
    needle = marker[:10].encode()
    wal = library.with_name("l.sqlite-wal")

    def stored() -> bytes:
        return library.read_bytes() + (wal.read_bytes() if wal.exists() else b"")

    assert needle in stored()
    assert run("library", "--library", str(library), "remove", "K")[0] == ExitStatus.SUCCESS
    assert needle not in stored()


def test_model_documents_act_as_templates(tmp_path: Path) -> None:
    model = prose(5000, 24)
    write_bid(tmp_path / "forms", "示范文本", model)
    for b in range(3):
        write_bid(tmp_path / "T", f"0{b + 1}-投标人{b}", prose(5100 + b, 12) + model[: 4 + 2 * b])
    library = tmp_path / "l.sqlite"
    status, out, _ = run(
        "library", "--library", str(library), "add-template", str(tmp_path / "forms/示范文本.txt")
    )
    assert status == ExitStatus.SUCCESS and "已存入" in out
    _, _, result = check_section(tmp_path, library, "T")
    pair = _pair(result, "投标人0", "投标人1")
    assert pair["level"] == "none" and all(p["template"] for p in pair["passages"])


def _two_bids(tmp: Path) -> None:
    write_bid(tmp / "R", "01-甲", prose(1, 12))
    write_bid(tmp / "R", "02-乙", prose(2, 12))


@pytest.mark.parametrize("damage", ["corrupt", "newer"])
def test_an_unusable_library_never_stops_a_check(tmp_path: Path, damage: str) -> None:
    _two_bids(tmp_path)
    library = tmp_path / "l.sqlite"
    if damage == "corrupt":
        library.write_bytes(b"this is not a database" * 100)
    else:
        open_library(library).close()
        with sqlite3.connect(library) as conn:
            conn.execute("PRAGMA user_version = 99")
    status, stdout, result = check_section(tmp_path, library, "R")
    assert status == ExitStatus.LIBRARY_FAILED  # the check done and reported, the library said unusable
    assert result["library"]["error"] and "资料库不可用" in stdout
    assert len(result["pairs"]) == 1


def test_a_locked_library_never_stops_a_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _two_bids(tmp_path)
    library = tmp_path / "l.sqlite"
    open_library(library).close()
    monkeypatch.setattr(lib.store, "BUSY_TIMEOUT_S", 0.2)
    holder = sqlite3.connect(library, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        out, err = io.StringIO(), io.StringIO()
        args = ["check", str(tmp_path / "R"), "--library", str(library), "--section", "R", "--quiet"]
        assert main(args, out, err) == ExitStatus.LIBRARY_FAILED  # checked and reported, not stored
        assert "资料库" in err.getvalue() and "占用" in err.getvalue()
    finally:
        holder.execute("ROLLBACK")
        holder.close()


_WRITER = """
import sys
from pathlib import Path
from bidcheck.config import Settings
from bidcheck.fingerprint import window_starts
from bidcheck.library import open_library, store_result
from bidcheck.pipeline import CheckInputs, check

library = open_library(Path(sys.argv[1]))
folder, tag = Path(sys.argv[2]), sys.argv[3]
result = check(CheckInputs((folder,)), Settings(workers=1))
for n in range(8):
    store_result(library, f"{tag}-{n}", result, Settings())
library.close()
"""


def test_two_processes_writing_at_once(tmp_path: Path) -> None:
    _two_bids(tmp_path)
    library = tmp_path / "l.sqlite"
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(library), str(tmp_path / "R"), tag])
        for tag in ("cli", "app")
    ]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    with sqlite3.connect(library) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT count(*) FROM sections").fetchone()[0] == 16
    result = check(CheckInputs((tmp_path / "R",)), Settings(workers=1), library=open_library(library))
    assert result.library is not None and result.library.sections == 16


def _open_at_once(path: str, barrier: Any, failures: Any) -> None:
    barrier.wait()
    try:
        open_library(Path(path)).close()
    except LibraryError:
        with failures.get_lock():
            failures.value += 1


def test_processes_creating_one_library_at_once_all_open_it(tmp_path: Path) -> None:
    # Switching a new file to WAL while another process does the same gives "locked" without waiting.
    context = multiprocessing.get_context("fork")
    failures = context.Value("i", 0)
    for round_ in range(25):
        barrier = context.Barrier(4)
        path = str(tmp_path / f"l{round_}.sqlite")
        opening = [context.Process(target=_open_at_once, args=(path, barrier, failures)) for _ in range(4)]
        for process in opening:
            process.start()
        for process in opening:
            process.join(timeout=60)
        assert [process.exitcode for process in opening] == [0, 0, 0, 0]
    assert failures.value == 0


def test_a_bids_history_leaves_out_the_tenders_text(tmp_path: Path) -> None:
    """A bid of the second section holds a paragraph of a stored bid and the tender's paragraph that the
    stored bid held too: its history names the stored bid for the first only."""
    tender_text = prose(99, 8)
    (tmp_path / "t").mkdir()
    tender = tmp_path / "t" / "范本.txt"
    tender.write_text("\n\n".join(tender_text), encoding="utf-8")
    library = tmp_path / "lib.sqlite"
    own = prose(1, 16)
    write_bid(tmp_path / "一", "01-甲公司", own + tender_text)
    write_bid(tmp_path / "一", "02-乙公司", prose(2, 16))
    check_section(tmp_path, library, "一", "--tender", str(tender))
    write_bid(tmp_path / "二", "03-丙公司", own[:2] + prose(3, 12) + tender_text)
    write_bid(tmp_path / "二", "04-丁公司", prose(4, 16))
    _, _, result = check_section(tmp_path, library, "二", "--tender", str(tender))
    third = next(d for d in result["documents"] if d["name"] == "03-丙公司.txt")
    (match,) = [m for m in third["history"] if m["document"] == "01-甲公司.txt"]
    quoted = "".join(p["text"] for p in match["passages"])
    assert own[1][20:40] in quoted and not any(t[20:40] in quoted for t in tender_text)


def test_a_damaged_library_is_said_in_the_reports(tmp_path: Path) -> None:
    """The check goes on, and its workbook's summary says the library could not be used and why."""
    from openpyxl import load_workbook

    _two_bids(tmp_path)
    library = tmp_path / "l.sqlite"
    library.write_bytes(b"this is not a database" * 100)
    status, _stdout, _result = check_section(tmp_path, library, "R", "--xlsx", str(tmp_path / "r.xlsx"))
    assert status == ExitStatus.LIBRARY_FAILED
    summary = {r[0]: r[1] for r in load_workbook(tmp_path / "r.xlsx")["概要"].iter_rows(values_only=True)}
    assert summary["资料库"] == "资料库不可用，本次未对照以往标段：资料库文件已损坏"


def test_a_library_on_a_read_only_drive_is_listed(
    tmp_path: Path, read_only: Callable[[dict[str, bytes]], ReadOnly]
) -> None:
    """``library list``/``show`` open the library read-only: on a read-only drive they list it."""
    _two_bids(tmp_path)
    check_section(tmp_path, tmp_path / "l.sqlite", "R")
    drive = read_only({"l.sqlite": (tmp_path / "l.sqlite").read_bytes()})
    if not drive.mounted:
        pytest.skip("a read-only drive is a read-only mount, which needs root")
    status, listed, err = run("library", "list", "--library", str(drive.folder / "l.sqlite"))
    assert status == ExitStatus.SUCCESS and "标段  R  2 份投标文件" in listed, err
    status, shown, err = run("library", "show", "R", "--library", str(drive.folder / "l.sqlite"))
    assert status == ExitStatus.SUCCESS and "投标文件  01-甲" in shown, err


def test_the_default_library_is_in_the_users_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Under XDG_DATA_HOME (else ~/.local/share) on Linux, under LOCALAPPDATA (else ~\\AppData\\Local) on
    Windows: the user's own data, never the working folder."""
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_library_path() == tmp_path / "data" / "bidcheck" / "library.sqlite"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_library_path() == Path.home() / ".local" / "share" / "bidcheck" / "library.sqlite"
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "local"))
    assert default_library_path() == tmp_path / "local" / "bidcheck" / "library.sqlite"
    monkeypatch.delenv("LOCALAPPDATA")
    assert default_library_path() == Path.home() / "AppData" / "Local" / "bidcheck" / "library.sqlite"
