"""The weight of evidence at the size and length of real sections: separate copies only two long bids
hold make the pair ``high`` though they are a small share of either, and a value many bids hold ties
none of them (it is listed as the section's instead)."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from openpyxl import load_workbook

from bench import grammar
from bench.model_text import MODEL_CLAUSES
from bidcheck import words
from bidcheck.compare.score import Score
from bidcheck.config import Settings
from bidcheck.judge import verdict
from bidcheck.model import CheckResult, PairResult, result_from_dict, result_to_dict
from bidcheck.pipeline import CheckInputs, check
from bidcheck.report.xlsx import write_xlsx
from tests.builders import make_docx, paragraphs, sentence

TENDER = paragraphs(700, 8, 5)
OWN = {name: paragraphs(seed, 400, 5) for seed, name in enumerate("ABCDEF", 31)}
COPIED = OWN["A"][40:320:40]  # seven separate paragraphs of A, some 140 characters each


def _long_section(folder: Path, third: int) -> CheckResult:
    """Six docx bids of about 56,000 characters, each quoting two tender paragraphs: B holds the seven
    ``COPIED`` paragraphs of A, one every fifty of its own; C holds the first ``third`` of them too.
    Signals are off: the random words of the copies make shared odd words, a sign of their own."""
    folder.mkdir(parents=True)
    texts = {name: [*TENDER[n : n + 2], *own] for n, (name, own) in enumerate(OWN.items())}
    for k, para in enumerate(COPIED):
        texts["B"].insert(30 + 50 * k, para)
    for k, para in enumerate(COPIED[:third]):
        texts["C"].insert(100 + 60 * k, para)
    for name, text in texts.items():
        make_docx(folder / f"{name}.docx", [text[:200], text[200:]])
    tender = make_docx(folder.parent / "tender.docx", [TENDER])
    return check(CheckInputs((folder,), (tender,)), Settings(workers=1, signals_enabled=False))


def _pair(result: CheckResult, a: str, b: str) -> PairResult:
    names = {d.id: d.name[0] for d in result.documents}
    return next(p for p in result.pairs if {names[p.a], names[p.b]} == {a, b})


def test_seven_separate_copies_two_long_bids_alone_hold_make_the_pair_high(tmp_path: Path) -> None:
    assert min(len(p) for p in COPIED) >= Settings().short_passage_chars
    result = _long_section(tmp_path / "bids", third=0)
    pair = _pair(result, "A", "B")
    assert pair.level == "high"
    assert pair.similarity < 0.05  # a small share of either bid: the share rule alone keeps it at watch
    assert pair.reason.startswith("一级预警：7 段共同文字（") and "字，其他投标文件均没有）" in pair.reason
    assert sum(q.live for q in pair.passages) == 7
    assert {p.level for p in result.pairs if p is not pair} == {"none"}


def test_copies_a_third_bid_holds_too_are_not_the_pairs_alone(tmp_path: Path) -> None:
    """C holds three of the seven (420 characters: too few for a ring): A and B hold four alone, under
    ``high_passages``; every pair among the three is watched."""
    result = _long_section(tmp_path / "bids", third=3)
    pair = _pair(result, "A", "B")
    assert pair.level == "watch"
    assert "字，其中 4 段其他投标文件没有）" in pair.reason
    assert _pair(result, "A", "C").level == _pair(result, "B", "C").level == "watch"
    assert not result.groups or all(len(g.members) == 3 for g in result.groups)


_STOCK_COMPANY = ("CD", "EF", "GH", "CE", "DG", "FH", "CH")


def test_copies_glued_to_stock_sentences_many_bids_hold_stay_evidence(tmp_path: Path) -> None:
    """Eight long bids: B holds seven paragraphs of A, each a stock block two of the other six bids hold
    too (about 200 characters: most of the passage; four holders, too few to make it the section's
    common text at eight bids, enough to make it text many bids hold) run on into some 135 characters of
    A's own: only the stock marks itself, so the copies stay live, separate copies the two alone hold
    (before, each passage was greyed whole as text many bids hold: A–B was none). The stock blocks tie
    no other pair."""
    stock, own = paragraphs(800, 7, 8), paragraphs(810, 7, 5)
    assert min(len(p) for p in own) >= Settings().short_passage_chars + 10
    folder = tmp_path / "bids"
    folder.mkdir()
    mine_of = {**OWN, "G": paragraphs(37, 400, 5), "H": paragraphs(38, 400, 5)}
    texts = {name: [*TENDER[n % 6 : n % 6 + 2], *mine] for n, (name, mine) in enumerate(mine_of.items())}
    for k, (block, mine) in enumerate(zip(stock, own, strict=True)):
        for name in "AB":
            texts[name].insert(30 + 50 * k, block + mine)
        for name in _STOCK_COMPANY[k]:  # in changing company: no ring's one draft
            texts[name].insert(40 + 45 * k, block)
    for name, text in texts.items():
        make_docx(folder / f"{name}.docx", [text[:200], text[200:]])
    tender = make_docx(tmp_path / "tender.docx", [TENDER])
    result = check(CheckInputs((folder,), (tender,)), Settings(workers=1, signals_enabled=False))
    pair = _pair(result, "A", "B")
    assert pair.level == "high" and "字，其他投标文件均没有）" in pair.reason, pair.reason
    assert sum(q.live for q in pair.passages) == 7
    assert {p.level for p in result.pairs if p is not pair} == {"none"}


def test_the_count_of_separate_copies_is_a_setting_of_the_verdict() -> None:
    score = Score(0.02, 0.02, 0.02, 900, 6, 0)
    assert verdict(score, None, {}, Settings(), apart=6)[0] == "high"
    assert verdict(score, None, {}, Settings(), apart=5)[0] == "watch"
    assert verdict(score, None, {}, Settings(high_passages=5), apart=5)[0] == "high"


PUBLIC = "13912345678"  # a project contact quoted from public documents
PRIVATE = "13787654321"  # a contact two bidders share


@pytest.fixture(scope="module")
def ten_bids(tmp_path_factory: pytest.TempPathFactory) -> CheckResult:
    """Ten bids: the public number in the first five (50%, under ``signal_common_share``), the private
    one in the fifth and sixth, a third number in the last four."""
    folder = tmp_path_factory.mktemp("public") / "bids"
    folder.mkdir()
    for n in range(10):
        lines = paragraphs(400 + n, 12)
        lines.insert(3, f"项目经理：{'张王李赵刘陈杨黄周吴'[n]}工，联系电话：1390000{n:04d}。")
        if n < 5:
            lines.insert(6, f"本项目建设单位咨询电话：{PUBLIC}（摘自公开的项目信息）。")
        if n in (4, 5):
            lines.insert(8, f"投标事宜联系人电话：{PRIVATE}。")
        if n in (6, 7, 8, 9):
            lines.insert(9, "材料供应商服务热线：13655556666。")
        (folder / f"{n:02d}-投标人{n}.txt").write_text("\n".join(lines), encoding="utf-8")
    return check(CheckInputs((folder,), ()), Settings(workers=1))


def test_a_number_many_bids_hold_ties_none_of_them_and_is_listed(ten_bids: CheckResult) -> None:
    names = {d.id: d.name[:2] for d in ten_bids.documents}
    raised = {(names[p.a], names[p.b]): p for p in ten_bids.pairs if p.level != "none"}
    assert set(raised) == {("04", "05"), ("06", "07"), ("06", "08"), ("06", "09"), ("07", "08"), ("07", "09"),
                           ("08", "09")}  # fmt: skip
    assert raised[("04", "05")].level == "high"  # two bidders' own contact
    four = raised[("07", "08")]
    assert four.level == "watch"  # a number four bids hold: a supporting sign at most
    assert [(s.value, s.strength, s.holders) for s in four.signals] == [("13655556666", "supporting", 4)]
    assert not any(s.value == PUBLIC for p in ten_bids.pairs for s in p.signals)
    assert [(v.field, v.value, v.holders) for v in ten_bids.public_values] == [("phone", PUBLIC, 5)]
    groups = [sorted(names[m] for m in g.members) for g in ten_bids.groups]
    assert sorted(groups) == [["04", "05"], ["06", "07", "08", "09"]]  # none chained through the public one


def test_the_values_many_hold_are_in_the_json_and_the_reports_summary(
    ten_bids: CheckResult, tmp_path: Path
) -> None:
    data = json.loads(json.dumps(result_to_dict(ten_bids), ensure_ascii=False))
    assert data["public_values"] == [
        {"kind": "identifier", "field": "phone", "value": PUBLIC, "holders": 5, "elsewhere": 0}
    ]
    assert result_from_dict(data).public_values == ten_bids.public_values
    signal = next(s for p in data["pairs"] for s in p["signals"] if s["value"] == PRIVATE)
    assert signal["holders"] == 2
    write_xlsx(ten_bids, tmp_path / "report.xlsx")
    summary = load_workbook(tmp_path / "report.xlsx")["概要"]
    rows = {row[0].value: row[1].value for row in summary.iter_rows() if row[0].value}
    assert rows["多家共有的值（不计为迹象）"] == (
        f"电话号码“{PUBLIC}”出现在 5 份投标文件中，视为公开信息，不计为迹象"
    )


def test_own_text_run_on_from_a_contract_sentence_is_evidence_and_the_clause_is_named(tmp_path: Path) -> None:
    """A and B share two lists of A's own plan items, each run on from a model contract sentence without
    a sentence end (as lists, table cells and OCR text run): the items are evidence (before, the run
    was masked whole: one list or both gone, the pair none), the contract sentences (every bid quotes
    them) are listed as 范本/合同条款语体, not as 多家共有."""
    rng = random.Random(12)
    lists = [
        clause.rstrip("。")
        + "："
        + "；".join(f"{n}．{sentence(rng).rstrip('。')}" for n in (1, 2, 3, 4))
        + "。"
        for clause in (MODEL_CLAUSES[2], MODEL_CLAUSES[12])
    ]
    folder = tmp_path / "bids"
    folder.mkdir()
    for n, name in enumerate("ABCDEF"):
        texts = [*paragraphs(800 + n, 30), MODEL_CLAUSES[2], MODEL_CLAUSES[12]]
        if name in "AB":
            texts[10:10], texts[20:20] = [lists[0]], [lists[1]]
        (folder / f"{name}.txt").write_text("\n".join(texts), encoding="utf-8")
    result = check(CheckInputs((folder,), ()), Settings(workers=1))
    pair = _pair(result, "A", "B")
    live = [q for q in pair.passages if q.live]
    assert pair.level == "watch" and len(live) == 2
    for q, listed in zip(live, lists, strict=True):
        assert q.a.text in listed and len(q.a.text) >= 60 and "：" not in q.a.text  # items, not the clause
    named = {words.passage_kind(q) for q in pair.passages if not q.live}
    assert "范本/合同条款语体" in named
    assert {p.level for p in result.pairs if p is not pair} == {"none"}


def _quoting_section(folder: Path) -> CheckResult:
    """Ten bids, no tender given: each of eight paragraphs of the tender quoted by its own half of the
    bidders, in the second half of their bids; B copied two paragraphs of A (text no one else has); G,
    H, I and J wrote the first half of theirs from one draft of six paragraphs (a draft that runs on
    into quoted clauses is taken for them: see ``evidence.company``)."""
    rng = random.Random(31)
    quoted = paragraphs(900, 8, 6)
    draft = paragraphs(950, 6, 5)
    texts = {name: paragraphs(960 + n, 30, 5) for n, name in enumerate("ABCDEFGHIJ")}
    for paragraph in quoted:
        for name in rng.sample(sorted(texts), 5):
            texts[name].insert(rng.randint(16, len(texts[name])), paragraph)  # the second half
    texts["B"][5:5] = [texts["A"][2], texts["A"][12]]
    for name in "GHIJ":
        texts[name][8:8] = draft
    folder.mkdir()
    for name, text in texts.items():
        (folder / f"{name}.txt").write_text("\n".join(text), encoding="utf-8")
    return check(CheckInputs((folder,), ()), Settings(workers=1, signals_enabled=False))


def test_tender_paragraphs_half_the_bids_quote_tie_no_pair_and_a_ring_stays_one(tmp_path: Path) -> None:
    """Text four or more bids hold is a ring's draft or the section's: the quoted paragraphs, each held
    by five bids in changing company, raise no pair (before, pairs sharing one were 二级观察 and three
    sharing three a ring); the copied pair is 二级观察, the ring's six pairs 一级预警."""
    result = _quoting_section(tmp_path / "bids")
    names = {d.id: d.name[0] for d in result.documents}
    raised = {"".join(sorted(names[p.a] + names[p.b])): p.level for p in result.pairs if p.level != "none"}
    ring = {"".join(x) for x in itertools.combinations("GHIJ", 2)}
    assert raised == {"AB": "watch", **dict.fromkeys(ring, "high")}
    quoting = _pair(result, "C", "D")
    assert all(not q.live for q in quoting.passages)


_SURNAMES = "赵钱孙李周吴郑王冯陈褚卫"


def _staff_form(n: int, region: str, rng: random.Random) -> list[str]:
    """A bid's 项目管理机构 form, filled in with its own people and numbers: the staff of one region
    share the first digits of their ID numbers, the bank's accounts of one branch begin alike."""

    def digits(count: int) -> str:
        return "".join(str(rng.randint(0, 9)) for _ in range(count))

    return [
        "第四章 项目管理机构",
        f"项目经理：{_SURNAMES[n]}国{'栋梁才俊杰豪伟强明亮华军'[n]}，注册编号：浙133{region[:4]}{digits(4)}，"
        f"身份证号：{region}19{70 + n % 3}{digits(8)}，联系电话：138{region[2:6]}{digits(4)}，"
        f"电子邮箱：bid{n:02d}@example{n}.com。",
        f"统一社会信用代码：913301{digits(4)}MA{digits(6)}X。开户银行：某银行临江支行，账号："
        f"{digits(4)} {region[:4]} {digits(4)} {digits(4)} 453。",
        "拟投入本项目主要人员表",
        f"序号 职务 姓名 证书编号\n1 技术负责人 {_SURNAMES[(n + 5) % 12]}轩{'浩宇'[n % 2]} "
        f"苏{region[:3]}{digits(8)}\n2 安全员 {_SURNAMES[(n + 7) % 12]}妍一",
        *(["本项目建设单位咨询电话：13091835252（摘自公开的项目信息）。"] if n % 3 == 0 else []),
    ]


def test_a_form_every_bid_fills_in_ties_no_pair_and_edited_copies_stay(tmp_path: Path) -> None:
    """Twelve bids, no tender, each with the staff form filled in (the labels every bid has, numbers
    of their own that agree in places by chance): no pair is raised by it (before, all 66 pairs were
    二级观察 on one 170–230-character passage of labels and digits); it is listed as text many bids
    hold. A and B share one paragraph of A's own besides, with a word changed every 15–20 characters
    (no exact run of 24): that stays evidence. Signals are off: this is about the text."""
    copied = paragraphs(950, 1, 12)[0]
    edited = "".join(ch if k % 17 != 16 else "改" for k, ch in enumerate(copied))
    folder = tmp_path / "bids"
    folder.mkdir()
    for n, name in enumerate("ABCDEFGHIJKL"):
        lines = paragraphs(900 + n, 20)
        lines[10:10] = _staff_form(n, "330106" if n in (0, 3) else f"3{n:02d}1{n:02d}", random.Random(n))
        lines.insert(3, {"A": copied, "B": edited}.get(name, ""))
        (folder / f"{name}.txt").write_text("\n".join(lines), encoding="utf-8")
    result = check(CheckInputs((folder,), ()), Settings(workers=1, signals_enabled=False))
    pair = _pair(result, "A", "B")
    live = [q.a.text for q in pair.passages if q.live]
    assert pair.level == "watch" and len(live) == 1, live
    assert live[0] in copied and len(live[0]) > 0.9 * len(copied), (live, copied)
    assert any(q.common and "项目经理" in q.a.text for q in pair.passages)
    assert {p.level for p in result.pairs if p is not pair} == {"none"}


def test_a_rewording_of_stock_phrases_two_bids_alone_share_stays_evidence(tmp_path: Path) -> None:
    """Twelve bids written from one trade's stock phrases (``bench.grammar``: four bids or more hold
    most of their 5-character phrases), each with the staff form filled in, no tender. B rewords three
    paragraphs of A with a third of their words swapped for synonyms, so that beyond the stock phrases
    they match only in short pieces, as the form does. The form is every bid's and ties no pair; the
    rewording is these two's alone, in an order of their own, and stays evidence (before, all three
    were greyed as text many bids hold and the pair was 无)."""
    rng = random.Random(51)
    own = {name: [grammar.paragraph(rng) for _ in range(20)] for name in "ABCDEFGHIJKL"}
    reworded = grammar.edit_block(own["A"][4:7], "synonyms-30", rng)[1]
    own["B"][12:12] = reworded
    folder = tmp_path / "bids"
    folder.mkdir()
    for n, (name, lines) in enumerate(own.items()):
        intro = f"本公司第{n + 1}号文件之附件，由{_SURNAMES[n]}经办。"  # the form last: its k-grams end early
        lines += [intro, *_staff_form(n, f"3{n:02d}1{n:02d}", random.Random(n))]
        (folder / f"{name}.txt").write_text("\n".join(lines), encoding="utf-8")
    result = check(CheckInputs((folder,), ()), Settings(workers=1, signals_enabled=False))
    pair = _pair(result, "A", "B")
    live = [q.b.text for q in pair.passages if q.live]
    assert pair.level == "watch"
    assert sum(len(t) for t in live) > 0.9 * sum(len(t) for t in reworded), (live, reworded)
    assert any(q.common and "项目经理" in q.a.text for q in pair.passages)
    assert {p.level for p in result.pairs if p is not pair} == {"none"}
