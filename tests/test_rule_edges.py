"""Rules at their edges: each tried exactly at its threshold (or one past it), and where no other rule can
mask it — a test that passes with the rule broken notices nothing."""

from __future__ import annotations

import itertools
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
import pytest
from docx import Document as new_docx

from bench.bills import STANDARD, bill_items, copied_prices, make_pricing_xml, priced_around
from bench.pictures import add_pictures, encoded, photo
from bidcheck.compare.score import Score
from bidcheck.config import Settings
from bidcheck.evidence.clauses import clause_density, clause_like_spans
from bidcheck.judge import verdict
from bidcheck.model import CheckResult, PairResult, Signal
from bidcheck.pipeline import CheckInputs, check
from bidcheck.signals.base import SectionInfo, value_key
from bidcheck.signals.bill_shapes import derived_from, few_links, hugs, one_ratio_of_control
from bidcheck.signals.unit_prices import MIN_ROWS
from tests.builders import make_docx, make_pdf, paragraphs
from tests.test_rings import NAMES, SCORES, _pair, raise_rings

_NAMES = ("恒信市政", "华东建设", "中联路桥", "宏远建工", "东方路桥")


def _bid(path: Path, n: int, extra: list[str], hide: str | None = None) -> Path:
    document = new_docx()
    for text in [f"投标人：{_NAMES[n - 1]}有限公司（盖单位章）", *paragraphs(700 + n, 4), *extra]:
        document.add_paragraph(text)
    if hide:
        document.add_paragraph("施工部署如下。").add_run(hide).font.hidden = True
    document.save(str(path))
    return path


def _signals(result: CheckResult, kind: str) -> dict[tuple[str, str], list[Signal]]:
    found = {(p.a, p.b): [s for s in p.signals if s.kind == kind] for p in result.pairs}
    return {key: signals for key, signals in found.items() if signals}


def test_a_listed_misspelling_three_bids_hold_is_no_sign(tmp_path: Path) -> None:
    """混泥土 in three of five bids and not in the tender: a slip two writers share is a sign, one three
    share is the trade's habit (the tender holds none of it, so no other rule hides the count)."""
    typo = "基础采用C30混泥土浇筑，振捣密实。"
    bids = [_bid(tmp_path / f"0{n}.docx", n, [typo] if n <= 3 else []) for n in range(1, 6)]
    result = check(CheckInputs(tuple(bids)), Settings(workers=1))
    assert _signals(result, "shared_error") == {}
    two = [_bid(tmp_path / f"1{n}.docx", n, [typo] if n <= 2 else []) for n in range(1, 6)]
    pairs = _signals(check(CheckInputs(tuple(two)), Settings(workers=1)), "shared_error")
    assert [(key, [s.value for s in found]) for key, found in pairs.items()] == [(("d1", "d2"), ["混泥土"])]


def _priced(path: Path, n: int, prices: list[str]) -> Path:
    document = new_docx()
    document.add_paragraph(f"投标人：{_NAMES[n - 1]}有限公司（盖单位章）")
    table = document.add_table(rows=1, cols=4)
    for cell, head in zip(table.rows[0].cells, ("序号", "项目名称", "工程量", "综合单价（元）"), strict=True):
        cell.text = head
    for row, price in enumerate(prices, 1):
        values = (str(row), f"清单项目{row}", str(7 * row + n), price)
        for cell, value in zip(table.add_row().cells, values, strict=True):
            cell.text = value
    document.save(str(path))
    return path


def test_exactly_the_least_number_of_shared_unit_prices_is_a_sign_and_one_fewer_is_not(
    tmp_path: Path,
) -> None:
    shared = ["312.47", "88.15", "1045.62", "27.33", "564.08", "19.71"][:MIN_ROWS]
    own = [[f"{100 + 13.17 * n + k:.2f}" for k in range(MIN_ROWS)] for n in range(3)]
    for given, expected in ((shared, [f"{MIN_ROWS} 项"]), (shared[:-1], [])):
        folder = tmp_path / str(len(given))
        folder.mkdir()
        bids = [
            _priced(folder / "01.docx", 1, [*given, "401.11"]),
            _priced(folder / "02.docx", 2, [*given, "402.22"]),
            *(_priced(folder / f"0{n}.docx", n, own[n - 3]) for n in (3, 4, 5)),
        ]
        found = _signals(check(CheckInputs(tuple(bids)), Settings(workers=1)), "price")
        assert [s.value for s in found.get(("d1", "d2"), [])] == expected


def test_hidden_text_three_of_five_bids_hold_counts_its_owner_and_is_no_sign(tmp_path: Path) -> None:
    """01 hides a paragraph that 02 and 03 show: three holders of five (owner included) is more than a
    five-bid section lets a value tie (``most_holders``: 2); 01 hiding what 02 alone shows is a sign."""
    text = paragraphs(790, 1)[0]
    bids = [
        _bid(tmp_path / "01.docx", 1, [], hide=text),
        *(_bid(tmp_path / f"0{n}.docx", n, [text] if n <= 3 else []) for n in range(2, 6)),
    ]
    assert _signals(check(CheckInputs(tuple(bids)), Settings(workers=1)), "concealed") == {}
    alone = [_bid(tmp_path / "11.docx", 1, [], hide=text), _bid(tmp_path / "12.docx", 2, [text])]
    alone += [_bid(tmp_path / f"1{n}.docx", n, []) for n in range(3, 6)]
    assert list(_signals(check(CheckInputs(tuple(alone)), Settings(workers=1)), "concealed")) == [
        ("d1", "d2")
    ]


def test_a_tender_picture_only_two_bids_hold_is_no_sign(tmp_path: Path) -> None:
    """The agency's picture in the tender and in two of five bids only: no other rule (the count of
    holders) excludes it, the tender's does. Two bids' own site photo is a sign."""
    tender = _bid(tmp_path / "tender.docx", 5, ["投标须知：" + paragraphs(791, 1)[0]])
    logo, site = encoded(photo(41, (300, 200))), encoded(photo(42, (640, 480)))
    add_pictures(tender, [logo])
    bids = [_bid(tmp_path / f"0{n}.docx", n, []) for n in range(1, 6)]
    add_pictures(bids[0], [logo])
    add_pictures(bids[1], [logo])
    add_pictures(bids[2], [site])
    add_pictures(bids[3], [site])
    found = _signals(check(CheckInputs(tuple(bids), (tender,)), Settings(workers=1)), "image")
    assert list(found) == [("d3", "d4")]


def test_a_pair_sharing_nothing_inside_a_ring_of_four_keeps_its_level() -> None:
    """Rings of three that share two members merge into one of four; a pair of it with no evidence of
    its own (d1-d4 share nothing) is not raised: only a pair at watch inside a ring is."""
    draft = ((100, 800), (50, 750))
    pairs = [
        _pair("d1", "d2", "watch", [draft]),
        _pair("d1", "d3", "watch", [draft]),
        _pair("d2", "d3", "watch", [draft]),
        _pair("d2", "d4", "watch", [draft]),
        _pair("d3", "d4", "watch", [draft]),
        _pair("d1", "d4", "none", []),
    ]
    raised = {(p.a, p.b): p.level for p in raise_rings(pairs, NAMES, 500)}
    assert raised[("d1", "d4")] == "none"
    assert all(level == "high" for key, level in raised.items() if key != ("d1", "d4"))
    assert verdict(SCORES["none"], None, NAMES, Settings())[0] == "none"


def test_the_clause_density_threshold_is_fifteen_percent_of_the_letters() -> None:
    """Two sentences either side of the threshold, two characters apart: register words 15.6% of the
    letters read as a clause, 14.7% do not (a test that compares with the constant notices no change)."""
    clause = "承包人应当把钢筋按规格分类堆放，底部垫木离地三十厘米，上盖彩条布防雨。"
    plain = "承包人应当把钢筋按规格分类堆放，底部垫木离地三十厘米，上盖彩条布防雨防锈。"
    assert round(clause_density(clause), 3) == 0.156 and round(clause_density(plain), 3) == 0.147
    assert clause_like_spans(clause) == [(0, len(clause))] and clause_like_spans(plain) == []


def test_a_strong_signal_alone_makes_high_and_a_supporting_one_alone_watch() -> None:
    quiet = Score(0.0, 0.0, 0.0, 0, 0, 0)
    strong = Signal("identifier", "strong", "phone", "13912345678", "…")
    assert verdict(quiet, None, {}, Settings(), signals=(strong,))[0] == "high"
    supporting = Signal("identifier", "supporting", "person", "吴海波", "…")
    assert verdict(quiet, None, {}, Settings(), signals=(supporting,))[0] == "watch"


def test_two_pdfs_made_in_the_same_minute_by_two_bidders_are_no_sign(tmp_path: Path) -> None:
    """A PDF's creation time is when it was exported or scanned (one scanner makes a pile of files in a
    minute): two bidders' PDFs made within 14:03 share no sign, where two Word files would."""
    pdfs = [
        make_pdf(tmp_path / f"0{n}.pdf", [paragraphs(720 + n, 4)], created=f"D:2025052014{minute}+08'00'")
        for n, minute in ((1, "0307"), (2, "0341"), (3, "2210"), (4, "4155"), (5, "5902"))
    ]
    result = check(CheckInputs(tuple(pdfs)), Settings(workers=1))
    assert {d.metadata.get("created", "")[:14] for d in result.documents[:2]} == {"D:202505201403"}
    assert _signals(result, "metadata") == {}


def test_a_bid_priced_like_more_than_a_rings_other_members_links_no_pair() -> None:
    """Of 100 bids a ring is four: a bid whose bill is tied so to three others keeps its links, one tied
    to four (or five) shows the section's way of pricing and keeps none."""
    section = SectionInfo((), Settings())
    ring = dict.fromkeys(itertools.combinations(range(4), 2), "same")
    four = {(10, j): "same" for j in range(11, 15)}
    five = {(20, j): "same" for j in range(21, 26)}
    kept = few_links({**ring, **four, **five}, 100, section)
    assert kept == ring


def test_a_value_is_public_from_exactly_the_least_bidders_in_the_least_sections() -> None:
    settings = Settings()
    least = (settings.public_min_bidders, settings.public_min_sections)
    key = value_key("phone", "13912345678")
    for seen, public in (
        (least, settings.public_min_bidders),
        ((least[0] - 1, least[1]), 0),
        ((least[0], least[1] - 1), 0),
    ):
        assert SectionInfo((), settings, {key: seen}).seen_by_many("phone", "13912345678") == public
    assert SectionInfo((), settings).seen_by_many("phone", "13912345678") == 0


def test_a_bill_hugs_its_control_prices_from_98_to_100_percent_both_included() -> None:
    """A price at its control price exactly, or at 98% of it, hugs it; just over or under does not."""
    for ratio, expected in ((1.0, True), (0.98, True), (1.0005, False), (0.9795, False)):
        assert hugs(np.full(10, ratio), 10, 1.0) is expected, ratio
    assert not hugs(np.full(9, 1.0), 10, 1.0)  # fewer items than the least asked for


def test_a_bill_at_one_ratio_of_the_control_prices_counts_from_the_least_items() -> None:
    control = np.linspace(100.0, 1000.0, 12)
    row = np.round(control * 0.93, 2)
    assert derived_from(row, control) == ("derived_ratio", pytest.approx(0.93, abs=1e-3))
    assert derived_from(control + 3.5, control) == ("derived_offset", pytest.approx(3.5))
    assert derived_from(control * np.linspace(0.9, 1.1, 12), control) is None
    assert one_ratio_of_control(row[None, :8], control[:8], 8) == [True]  # exactly the least number of items
    assert one_ratio_of_control(row[None, :7], control[:7], 8) == [False]


def _bill_signs(pair: PairResult) -> list[tuple[str, str, str]]:
    return [(s.field, s.strength, s.value) for s in pair.signals if s.kind == "bill"]


def _uniformly(items: list[dict[str, str]], ratio: str) -> list[dict[str, str]]:
    """Every item at one ratio of its control price, to the fen: a discount on the whole control price."""
    out = []
    for item in items:
        price = (Decimal(item["unit_price"]) * Decimal(ratio)).quantize(Decimal("0.01"), ROUND_HALF_UP)
        out.append({**item, "unit_price": str(price), "total": str(price * Decimal(item["quantity"]))})
    return out


def test_bills_at_the_least_share_of_equal_prices_are_strong_and_uniform_discounts_no_sign(
    tmp_path: Path,
) -> None:
    """Of 20 comparable items, 16 equal unit prices (80%, the setting) make a strong sign, 15 a supporting
    one; two bills each at one ratio of the control prices (0.93 and 0.95: ratios of each other, as any two
    such bills are) are no sign at all."""
    items = [{**item, "buildup": STANDARD} for item in bill_items(20, 21)]
    make_pricing_xml(tmp_path / "招标控制价.xml", [], items)
    bills = {n: priced_around(items, 300 + n) for n in range(1, 5)}
    bills[2] = copied_prices(bills[1], bills[2], 16)
    bills[4] = copied_prices(bills[3], bills[4], 15)
    bills[5], bills[6] = _uniformly(items, "0.93"), _uniformly(items, "0.95")
    for n, bill in bills.items():
        folder = tmp_path / "bids" / f"0{n}-投标人{n}"
        folder.mkdir(parents=True)
        make_docx(folder / "投标文件.docx", [paragraphs(40 + n, 4)])
        make_pricing_xml(folder / "造价.xml", [], bill)
    result = check(CheckInputs((tmp_path / "bids",), (tmp_path / "招标控制价.xml",)), Settings(workers=1))
    names = {d.id: d.name[:2] for d in result.documents}
    signs = {frozenset((names[p.a], names[p.b])): _bill_signs(p) for p in result.pairs}
    assert ("same_prices", "strong", "80%") in signs.pop(frozenset(("01", "02")))
    assert ("same_prices", "supporting", "75%") in signs.pop(frozenset(("03", "04")))
    assert not any(signs.values()), {k: v for k, v in signs.items() if v}
