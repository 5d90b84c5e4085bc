"""Labelled tender sections for the detection benchmark.

``generate_section(folder, bids=N, seed=S)`` writes a tender and N bids (docx and text PDF, alternating
at random) and ``truth.json``: for every pair of bids its relation (heavy copy, light copy, ring, none),
the level it should get, and each planted passage's text on both sides with its page. Pages are
exact: both writers lay text out with the same pagination (PDF by drawing it, docx by explicit page
breaks or, for some bids, Word's ``lastRenderedPageBreak`` markers).

Usage: .venv/bin/python -m bench.corpus OUT_DIR [--bids N] [--seed S]
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from docx import Document as new_docx
from docx.enum.text import WD_BREAK
from docx.oxml import parse_xml
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen.canvas import Canvas

from bench.grammar import EDITS, edit_block, mixed_paragraph, paragraph, sentence
from bench.model_text import MODEL_CLAUSES, PUBLIC_COMMITMENTS
from bench.tables import Forms, filled_forms, tender_forms, unit_prices

Prose = Callable[[random.Random], str]

__all__ = ["Para", "Section", "generate_section", "write_bids"]

FONT, SIZE, LEADING, GAP = "STSong-Light", 11.0, 16.0, 8.0
LEFT, WIDTH, TOP, BOTTOM = 72.0, 451.0, 770.0, 70.0
pdfmetrics.registerFont(UnicodeCIDFont(FONT))
W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
PROJECT = "某市临江新区市政道路及综合管网工程施工第三标段"
_COMPANIES = (
    "华东建设",
    "恒信市政",
    "中联路桥",
    "宏远建工",
    "清源水务",
    "金石城建",
    "广厦建设",
    "天衡路桥",
    "盛达市政",
    "永安建工",
    "新城建设",
    "海川水利",
    "远景工程",
    "利民建设",
    "安泰市政",
    "正和路桥",
    "鼎力建工",
    "同济城建",
    "长河工程",
    "明远建设",
    "北辰市政",
    "东方路桥",
    "万通建工",
    "嘉禾建设",
    "瑞丰工程",
    "华夏城建",
    "星海市政",
    "泰山路桥",
    "锦程建设",
    "联创工程",
)


@dataclass
class Para:
    """One paragraph of a generated document, what it is, and (after layout) its page."""

    text: str
    kind: str  # heading, own, tender, letter, public, model, planted, table
    page: int = 0
    first_in_chapter: bool = False
    rows: list[list[str]] | None = None  # a table (kind "table"): its rows of cells; ``text`` joins them
    joined: bool = False  # written on from the paragraph before: one paragraph, no break between them


def table_para(rows: list[list[str]]) -> Para:
    """A table as one paragraph of the layout; its text is what a reader finds of it, cells in order."""
    return Para("".join(cell for row in rows for cell in row), "table", rows=rows)


@dataclass
class Bid:
    name: str
    company: str
    fmt: str
    breaks: str  # explicit | rendered
    chapters: list[list[Para]] = field(default_factory=list)
    ruled: bool = False  # its PDF tables have ruling lines


@dataclass
class Section:
    """Where a generated section lies and what it contains."""

    folder: Path
    tender: Path
    bids: list[Path]
    truth: dict[str, object]


# ---------------------------------------------------------------- layout and writers


@functools.cache
def _char_width(char: str) -> float:
    return float(pdfmetrics.stringWidth(char, FONT, SIZE))


def _wrap(text: str, indent: float) -> list[str]:
    lines, current, used, width = [], "", 0.0, WIDTH - indent
    for char in text:
        step = _char_width(char)
        if used + step > width:
            lines.append(current)
            current, used, width = char, step, WIDTH
        else:
            current, used = current + char, used + step
    return [*lines, current] if current else lines


def _height(para: Para, text: str) -> float:
    if para.rows is not None:
        return len(para.rows) * LEADING + GAP
    return len(_wrap(text, _indent(para))) * LEADING + GAP


def _written(paras: list[Para]) -> list[tuple[Para, str]]:
    """The paragraphs as written: each with its text and that of the paragraphs joined on to it."""
    out: list[tuple[Para, str]] = []
    for para in paras:
        if para.joined and out:
            out[-1] = (out[-1][0], out[-1][1] + para.text)
        else:
            out.append((para, para.text))
    return out


def _indent(para: Para) -> float:
    return 2 * SIZE if para.kind not in ("heading", "table") else 0.0


def paginate(chapters: list[list[Para]]) -> int:
    """Give every paragraph its page (each chapter starts a page; a paragraph never splits, nor do the
    paragraphs joined on to it)."""
    page, room = 0, 0.0
    for chapter in chapters:
        page, room = page + 1, TOP - BOTTOM
        for index, para in enumerate(chapter):
            if para.joined and index:
                para.page, para.first_in_chapter = chapter[index - 1].page, False
                continue
            need = _height(para, _written(chapter[index:])[0][1])
            if need > room and index:
                page, room = page + 1, TOP - BOTTOM
            para.page, para.first_in_chapter = page, index == 0
            room -= need
    return page


def write_pdf(path: Path, bid: Bid, header: str, pages: int) -> None:
    canvas = Canvas(str(path), pagesize=A4, invariant=1)
    canvas.setAuthor(f"{bid.company}经营部")
    canvas.setTitle(f"{PROJECT}投标文件")
    paras = _written([p for chapter in bid.chapters for p in chapter])
    for number in range(1, pages + 1):
        canvas.setFont(FONT, 9)
        canvas.drawString(LEFT, 805, header)
        canvas.drawCentredString(LEFT + WIDTH / 2, 40, f"第 {number} 页 共 {pages} 页")
        canvas.setFont(FONT, SIZE)
        y = TOP
        for para, text in ((p, t) for p, t in paras if p.page == number):
            if para.rows is not None:
                y = _draw_table(canvas, para.rows, y, bid.ruled)
                continue
            for index, line in enumerate(_wrap(text, _indent(para))):
                canvas.drawString(LEFT + (_indent(para) if index == 0 else 0.0), y, line)
                y -= LEADING
            y -= GAP
        canvas.showPage()
    canvas.save()


def _columns(rows: list[list[str]]) -> list[float]:
    """Where each column starts: as wide as its widest cell plus a gap, squeezed into the text width."""
    columns = range(len(rows[0]))
    widths = [max(pdfmetrics.stringWidth(r[c], FONT, SIZE) for r in rows) + SIZE * 1.5 for c in columns]
    scale = min(1.0, WIDTH / sum(widths))
    return list(itertools.accumulate([LEFT] + [w * scale for w in widths[:-1]]))


def _draw_table(canvas: Canvas, rows: list[list[str]], y: float, ruled: bool) -> float:
    """Draw a table cell by cell (with ruling lines when ``ruled``); return the next line's height."""
    starts = _columns(rows)
    for row in rows:
        for x, cell in zip(starts, row, strict=True):
            canvas.drawString(x + 2, y, cell)
        if ruled:
            canvas.line(LEFT, y - 4, LEFT + WIDTH, y - 4)
        y -= LEADING
    if ruled:
        for x in [*starts, LEFT + WIDTH]:
            canvas.line(x, y + LEADING - 4, x, y + LEADING * (len(rows) + 1) - 4)
    return y - GAP


def write_docx(path: Path, bid: Bid, header: str) -> None:
    document = new_docx()
    page = 1
    for chapter in bid.chapters:
        for para, text in _written(chapter):
            out = document.add_paragraph()
            if para.page != page:
                if bid.breaks == "explicit" or para.first_in_chapter:
                    out.add_run().add_break(WD_BREAK.PAGE)
                else:
                    out._p.append(parse_xml(f"<w:r {W_NS}><w:lastRenderedPageBreak/></w:r>"))
                page = para.page
            if para.rows is None:
                out.add_run(text)
                continue
            table = document.add_table(rows=len(para.rows), cols=len(para.rows[0]))
            table.style = "Table Grid"
            for cells, row in zip(table.rows, para.rows, strict=True):
                for cell, text in zip(cells.cells, row, strict=True):
                    cell.text = text
    document.sections[0].header.paragraphs[0].text = header
    document.sections[0].footer.paragraphs[0].text = f"{bid.company} 投标文件"
    document.core_properties.author = f"{bid.company}经营部"
    document.save(str(path))


# ---------------------------------------------------------------- content


def _tender_texts(rng: random.Random) -> dict[str, list[str]]:
    requirements = [f"{n}．{sentence(rng)}{sentence(rng)}" for n in range(1, 13)]
    letter = (
        "致：临江新区城市建设投资有限公司（招标人）。我方已仔细研究了" + PROJECT + "招标文件的全部内容，"
        "愿意以人民币（大写）{price}的投标总报价，工期{days}日历天，按合同约定实施和完成承包工程，修补工程中"
        "的任何缺陷，工程质量达到合格标准。我方承诺在招标文件规定的投标有效期内不修改、撤销投标文件。随同本投"
        "标函提交投标保证金一份，金额为人民币（大写）捌拾万元整。如我方中标，我方承诺在收到中标通知书后，在中"
        "标通知书规定的期限内与你方签订合同，并按照招标文件规定向你方递交履约担保。投标人：{company}有限公司"
        "（盖单位章），法定代表人或其委托代理人：{person}（签字），日期：{date}。"
    )
    rules = [paragraph(rng, (3, 5)) for _ in range(5)]
    scoring = [paragraph(rng, (3, 4)) for _ in range(3)]
    return {"requirements": requirements, "letter": [letter], "rules": rules, "scoring": scoring}


def _tender_document(texts: dict[str, list[str]]) -> Bid:
    blank = texts["letter"][0].format(
        price="________元", days="____", company="________", person="________", date="____年__月__日"
    )
    chapters = [
        [Para(PROJECT, "heading"), Para("招标文件", "heading")],
        [Para("第一章 投标人须知", "heading"), *(Para(t, "tender") for t in texts["rules"])],
        [Para("第二章 技术要求", "heading"), *(Para(t, "tender") for t in texts["requirements"])],
        [Para("第三章 投标函格式", "heading"), Para(blank, "tender")],
        [Para("第四章 评标办法", "heading"), *(Para(t, "tender") for t in texts["scoring"])],
    ]
    return Bid("招标文件.docx", "招标人", "docx", "explicit", chapters)


def _letter(texts: dict[str, list[str]], company: str, rng: random.Random) -> str:
    price = f"{rng.randint(3000, 5000)}万{rng.randint(100, 999)}元"
    return texts["letter"][0].format(
        price=price,
        days=rng.choice((300, 330, 365)),
        company=company,
        person=rng.choice("张王李赵刘陈杨黄周吴") + rng.choice("伟芳敏静强磊洋勇军杰"),
        date=f"2025年{rng.randint(3, 9)}月{rng.randint(1, 28)}日",
    )


def _bid_skeleton(
    index: int,
    texts: dict[str, list[str]],
    rng: random.Random,
    own: tuple[int, int],
    prose: Prose,
    alternate: bool = False,
) -> Bid:
    company = _COMPANIES[index % len(_COMPANIES)] + ("" if index < len(_COMPANIES) else str(index))
    drawn = rng.choice(("docx", "pdf"))  # drawn either way, so the rest of the bid does not change
    fmt = ("docx", "pdf")[index % 2] if alternate else drawn
    bid = Bid(f"{index + 1:02d}-{company}.{fmt}", company, fmt, rng.choice(("explicit", "rendered")))
    quoted = sorted(rng.sample(range(len(texts["requirements"])), rng.randint(4, 6)))
    response = [Para("第二章 技术响应", "heading"), Para(f"{company}对招标文件技术要求逐条响应如下。", "own")]
    for q in quoted:
        response += [
            Para(texts["requirements"][q], "tender"),
            Para(rng.choice(("我方完全响应。", "响应，无偏离。")), "own"),
        ]
    bid.chapters = [
        [
            Para(PROJECT, "heading"),
            Para("投标文件", "heading"),
            Para(f"投标人：{company}有限公司", "heading"),
        ],
        [Para("第一章 投标函", "heading"), Para(_letter(texts, company, rng), "letter")],
        response,
        [
            Para("第三章 施工组织设计", "heading"),
            *(Para(prose(rng), "own") for _ in range(rng.randint(*own))),
        ],
    ]
    return bid


def _insert_block(bid: Bid, paras: list[Para], rng: random.Random) -> None:
    body = bid.chapters[3]
    body[rng.randint(2, len(body)) : 0] = paras


@dataclass
class _Pair:
    a: int
    b: int
    relation: str
    expected: str
    planted: list[dict[str, object]] = field(default_factory=list)
    accepted: tuple[str, ...] = ()  # other levels that are right too


def _copy_block(src: Bid, dst: Bid, block: list[Para], kind: str, pair: _Pair, rng: random.Random) -> None:
    """The destination copies a block of the source's own paragraphs, disguised by ``kind``."""
    original, copy = edit_block([p.text for p in block], kind, rng)
    for para, text in zip(block, original, strict=True):
        para.text, para.kind = text, "planted"
    copies = [Para(t, "planted") for t in copy]
    _insert_block(dst, copies, rng)
    for para, twin in zip(block, _in_original_order(original, copy, copies, kind), strict=True):
        pair.planted.append({"kind": kind, "a": para, "b": twin})


def _in_original_order(original: list[str], copy: list[str], paras: list[Para], kind: str) -> list[Para]:
    """The copied paragraphs in the order of the originals they came from (only reordering moves them)."""
    if kind != "paragraph_order":
        return paras
    return [paras[copy.index(text)] for text in original]


def _heavy(bids: list[Bid], a: int, b: int, kinds: list[str], rng: random.Random) -> _Pair:
    pair = _Pair(a, b, "heavy", "high")
    own = [p for p in bids[a].chapters[3] if p.kind == "own"]
    position = 0
    for kind in kinds:
        size = 3 if kind == "paragraph_order" else rng.randint(1, 2)
        block = own[position : position + size]
        if len(block) < size:
            break
        _copy_block(bids[a], bids[b], block, kind, pair, rng)
        position += size
    return pair


def _light(bids: list[Bid], a: int, b: int, kind: str, rng: random.Random) -> _Pair:
    pair = _Pair(a, b, "light", "watch")
    own = [p for p in bids[a].chapters[3] if p.kind == "own"]
    start = rng.randint(0, len(own) - 3)
    _copy_block(
        bids[a], bids[b], own[start : start + 3 if kind == "paragraph_order" else start + 2], kind, pair, rng
    )
    return pair


def _ring(
    bids: list[Bid],
    members: list[int],
    rng: random.Random,
    size: tuple[int, int] = (9, 11),
    edited: bool = True,
) -> list[_Pair]:
    """Members all edit one draft of ``size`` paragraphs: member 0 keeps it as drafted, the others
    disguise it each their way (or, not ``edited``, copy it as it is). A draft of six paragraphs or
    more is pasted in two places."""
    draft = [paragraph(rng) for _ in range(rng.randint(*size))]
    kinds = ["verbatim", *rng.sample([k for k in EDITS if k != "typo"], len(members) - 1)]
    kinds = kinds if edited else ["verbatim"] * len(members)
    versions: list[list[Para]] = []
    for member, kind in zip(members, kinds, strict=True):
        _, edited = edit_block(draft, kind, rng)
        paras = [Para(t, "planted") for t in edited]
        versions.append(_in_original_order(draft, edited, paras, kind))
        cut = rng.randint(3, len(paras) - 3) if len(paras) >= 6 else len(paras)
        _insert_block(bids[member], paras[:cut], rng)
        if paras[cut:]:
            _insert_block(bids[member], paras[cut:], rng)
    pairs = []
    for x in range(len(members)):
        for y in range(x + 1, len(members)):
            kind = kinds[y] if kinds[x] == "verbatim" else "ring, both edited"
            pair = _Pair(members[x], members[y], "ring", "high")
            pair.planted = [
                {"kind": kind, "a": pa, "b": pb} for pa, pb in zip(versions[x], versions[y], strict=True)
            ]
            pairs.append(pair)
    return pairs


def _public(bids: list[Bid], rng: random.Random) -> list[str]:
    """Boilerplate most bidders paste from public sources (no one supplied it as a template)."""
    texts = [paragraph(rng, (3, 4)) for _ in range(2)]
    holders = [i for i in range(len(bids)) if rng.random() < 0.85]
    if len(holders) < max(3, -(-len(bids) * 6 // 10)):
        return []
    for i in holders:
        _insert_block(bids[i], [Para(t, "public") for t in texts], rng)
    return texts


def _model_text(bids: list[Bid], rng: random.Random) -> list[_Pair]:
    """Three bidders quote 6–8 clauses of one model document (not the tender), numbered as it numbers
    them, in a chapter of their own; nothing else is shared. Such pairs may be ``watch``, never ``high``."""
    holders = sorted(rng.sample(range(len(bids)), 3))
    picked = sorted(rng.sample(range(len(MODEL_CLAUSES)), rng.randint(6, 8)))
    clauses = [f"2.{n} {MODEL_CLAUSES[i]}" for n, i in enumerate(picked, 1)]
    for i in holders:
        bids[i].chapters.append(
            [Para("第四章 商务条款及承诺", "heading"), *(Para(t, "model") for t in clauses)]
        )
    return [_Pair(a, b, "model", "none", accepted=("watch",)) for a, b in itertools.combinations(holders, 2)]


def _thin_ring(bids: list[Bid], rng: random.Random) -> list[_Pair]:
    """A ring of three to five whose shared draft is four or five paragraphs (about a tenth of a
    bid): each pair alone is ``watch``, and the ring makes every pair ``high``."""
    members = sorted(rng.sample(range(len(bids)), min(len(bids), rng.randint(3, 5))))
    return _ring(bids, members, rng, (4, 5))


def _full_ring(bids: list[Bid], rng: random.Random) -> list[_Pair]:
    """Every bid of a small section is written from one eight-paragraph draft, each disguised its own
    way (陪标: one company and its companions); nothing else is shared."""
    return _ring(bids, list(range(len(bids))), rng, (8, 8))


def _full_ring_verbatim(bids: list[Bid], rng: random.Random) -> list[_Pair]:
    """As ``_full_ring``, the draft copied word for word."""
    return _ring(bids, list(range(len(bids))), rng, (8, 8), edited=False)


def _ring_and_one(bids: list[Bid], rng: random.Random) -> list[_Pair]:
    """All bids but one are written from one eight-paragraph draft; the other bid is independent."""
    members = sorted(rng.sample(range(len(bids)), len(bids) - 1))
    return _ring(bids, members, rng, (8, 8))


def _glued(bids: list[Bid], rng: random.Random) -> list[_Pair]:
    """Five bidders quote clauses of one model document in a commitments chapter, two clauses an item;
    two of them have the same three passages of a plan (about 120 characters each) written in between
    the two clauses of three of their items, all run on with semicolons (a numbered list run together,
    as a table cell or a scan reads it): one run of text with the clauses around it, no sentence end in
    it, mostly their wording. The clauses are the model's, the plan the two's: the pair is ``watch``
    (``high`` is right too), every other pair ``none``."""
    a, b, *others = rng.sample(range(len(bids)), min(len(bids), 5))
    picked = rng.sample(range(len(MODEL_CLAUSES)), 8)
    # the plan in the bidder's own words (the grammar's frames alone repeat across bids), no stop in it
    draft = ["；".join(mixed_paragraph(rng, (3, 3)).split("。")[:3]) + "；" for _ in range(3)]
    pair = _Pair(a, b, "glued", "watch", accepted=("high",))
    copies: dict[int, list[Para]] = {}
    for holder in (a, b, *others):
        items: list[Para] = [Para("第五章 商务条款及承诺", "heading")]
        for n in range(4):
            first, second = (MODEL_CLAUSES[i].rstrip("。") for i in picked[2 * n : 2 * n + 2])
            items.append(Para(f"{n + 1}．{first}；", "model"))
            if holder in (a, b) and n < len(draft):
                items.append(Para(draft[n], "planted", joined=True))
                copies.setdefault(holder, []).append(items[-1])
            items.append(Para(f"{second}。", "model", joined=True))
        bids[holder].chapters.append(items)
    pair.planted = [{"kind": "verbatim", "a": x, "b": y} for x, y in zip(copies[a], copies[b], strict=True)]
    return [pair]


def _commitments(bids: list[Bid], rng: random.Random) -> list[_Pair]:
    """Every bidder pastes its own selection of public commitments and safety rules (see
    ``PUBLIC_COMMITMENTS``) into a chapter of its bid; nothing else is shared. Every pair is ``none``."""
    for bid in bids:
        picked = sorted(rng.sample(range(len(PUBLIC_COMMITMENTS)), rng.randint(3, 6)))
        texts = [PUBLIC_COMMITMENTS[i] for i in picked]
        bid.chapters.append([Para("第五章 承诺书", "heading"), *(Para(t, "public") for t in texts)])
    return []


def _scattered(bids: list[Bid], rng: random.Random) -> list[_Pair]:
    """One bidder copies 10-11 separate paragraphs of another's plan into its own, one at a time in
    different places, word for word or lightly disguised (punctuation, a tenth of the words swapped):
    in long bids a small share of either, yet ten copies that no other bid holds. Nothing else is
    shared. The pair is ``high``."""
    a, b = rng.sample(range(len(bids)), 2)
    own = [p for p in bids[a].chapters[3] if p.kind == "own"]
    pair = _Pair(a, b, "scattered", "high")
    for para in sorted(rng.sample(own, min(len(own), rng.randint(10, 11))), key=own.index):
        _copy_block(
            bids[a], bids[b], [para], rng.choice(("verbatim", "punctuation", "synonyms-10")), pair, rng
        )
    return [pair]


def _plan(bids: list[Bid], rng: random.Random) -> list[_Pair]:
    n = len(bids)
    order = rng.sample(range(n), n)
    pairs: list[_Pair] = []
    kinds = list(EDITS)
    rng.shuffle(kinds)
    if n >= 2:
        pairs.append(_heavy(bids, order[0], order[1], kinds, rng))
    if n >= 4:
        pairs.append(_light(bids, order[2], order[3], rng.choice(EDITS), rng))
    if n >= 7:
        size = min(5, max(3, n // 4))
        pairs += _ring(bids, sorted(order[4 : 4 + size]), rng)
    if n >= 12:
        pairs.append(_light(bids, order[9], order[10], rng.choice(EDITS), rng))
    return pairs


CASES: dict[str, Callable[[list[Bid], random.Random], list[_Pair]]] = {
    "planted": _plan,
    "model": _model_text,
    "thin-ring": _thin_ring,
    "full-ring": _full_ring,
    "full-ring-verbatim": _full_ring_verbatim,
    "ring-and-one": _ring_and_one,
    "commitments": _commitments,
    "glued": _glued,
    "scattered": _scattered,
}


def _quote_halves(bids: list[Bid], texts: dict[str, list[str]], rng: random.Random) -> None:
    """Each of the tender's rules and scoring paragraphs (150-250 characters) quoted by its own half of
    the bidders, at random: what bids hold of a tender nobody gave the check."""
    for text in texts["rules"] + texts["scoring"]:
        for bid in rng.sample(bids, max(2, len(bids) // 2)):
            _insert_block(bid, [Para(text, "tender")], rng)


def _truth(bids: list[Bid], pairs: list[_Pair], public: list[str], seed: int) -> dict[str, object]:
    def para(p: Para) -> dict[str, object]:
        return {"text": p.text, "kind": p.kind, "page": p.page}

    return {
        "seed": seed,
        "tender": "tender/招标文件.docx",
        "bids": [
            {
                "name": b.name,
                "format": b.fmt,
                "breaks": b.breaks,
                "paragraphs": [para(p) for c in b.chapters for p in c],
            }
            for b in bids
        ],
        "pairs": [
            {
                "a": bids[p.a].name,
                "b": bids[p.b].name,
                "relation": p.relation,
                "expected": p.expected,
                "accepted": [p.expected, *p.accepted],
                "planted": [
                    {"kind": x["kind"], "a": para(x["a"]), "b": para(x["b"])}  # type: ignore[arg-type]
                    for x in p.planted
                ],
            }
            for p in pairs
        ],
        "public": public,
    }


def _fill_tables(tender: Bid, bids: list[Bid], pairs: list[_Pair], seed: int) -> list[_Pair]:
    """Add the tender's tables to it and the filled ones to every bid (each bid's PDF ruled or not in
    turn); the first pair of bids not related otherwise gets the same unit prices: a ``prices`` pair."""
    forms, quantities = tender_forms(PROJECT, seed)
    tender.chapters.append([Para("第五章 工程量清单及投标文件格式", "heading"), *_form_paras(forms)])
    rng = random.Random(seed * 7 + 3)
    prices = [unit_prices(rng) for _ in bids]
    related = {frozenset((p.a, p.b)) for p in pairs}
    everyone = itertools.combinations(range(len(bids)), 2)
    free = [(a, b) for a, b in everyone if frozenset((a, b)) not in related]
    same = [_Pair(*free[0], "prices", "high")] if free else []
    for pair in same:
        prices[pair.b] = prices[pair.a]
    bills: list[Para] = []
    for index, bid in enumerate(bids):
        person = rng.choice("张王李赵刘陈杨黄周吴") + rng.choice("伟芳敏静强磊洋勇军杰")
        filled, _ = filled_forms(forms, quantities, prices[index], person, rng)
        bid.ruled = index % 2 == 1
        paras = _form_paras(filled)
        bills.append(paras[1])
        bid.chapters.append([Para("第四章 已标价工程量清单及响应表", "heading"), *paras])
    for pair in same:  # the shared prices are the evidence of that pair (frame cells in between)
        pair.planted.append({"kind": "prices", "a": bills[pair.a], "b": bills[pair.b]})
    return same


def _form_paras(forms: Forms) -> list[Para]:
    return [
        Para("工程量清单", "heading"),
        table_para(forms.bill),
        Para("开标一览表", "heading"),
        table_para(forms.summary),
        Para("技术偏离表", "heading"),
        table_para(forms.deviation),
    ]


def generate_section(
    folder: Path,
    bids: int = 8,
    seed: int = 1,
    own: tuple[int, int] = (18, 24),
    prose: Prose = paragraph,
    alternate: bool = False,
    case: str = "planted",
    tables: bool = False,
    halves: bool = False,
) -> Section:
    """Write a labelled section of ``bids`` bids into ``folder``; return where everything is.

    ``own`` is the range of each bid's count of its own construction-plan paragraphs (about 200
    characters each): the default makes bids of about 6,000 characters, (250, 270) about 55,000.
    ``prose`` writes those paragraphs: the grammar (default), or ``lexicon_paragraph`` for long bids
    whose text is as varied as real prose. With ``alternate``, bids are docx and PDF in turn instead of
    at random, so that sections of different sizes hold the two formats in the same proportion.
    ``case`` is what the bids share: ``planted`` copies of every kind and public boilerplate, or
    one of the other ``CASES``: ``model`` (clauses of a model document three bidders quote), ``thin-ring``
    (a ring sharing a short draft), ``full-ring``, ``full-ring-verbatim`` and ``ring-and-one`` (small
    sections written from one draft), ``commitments`` (public commitments in changing selections),
    ``scattered`` (ten separate paragraphs one bidder copied from another), ``glued`` (a plan two
    bidders wrote straight on from clauses of a model document, with no sentence end between).
    With ``tables`` the tender carries a bill of quantities, an 开标一览表 and a 偏离表 that every bid
    fills in (``bench.tables``), and one pair otherwise unrelated prices its bill with the same unit prices.
    With ``halves`` each of the tender's eight rules and scoring paragraphs is quoted by its own half of
    the bidders (``_quote_halves``).
    """
    rng = random.Random(seed)
    texts = _tender_texts(random.Random(seed * 7919 + 1))
    plans = [
        _bid_skeleton(i, texts, random.Random(seed * 1000 + i), own, prose, alternate) for i in range(bids)
    ]
    pairs = CASES[case](plans, rng)
    public = _public(plans, rng) if case == "planted" else []
    if halves:
        _quote_halves(plans, texts, random.Random(seed * 13 + 5))
    tender = _tender_document(texts)
    if tables:
        pairs += _fill_tables(tender, plans, pairs, seed)
    tender_path, paths = write_bids(folder, tender, plans)
    truth = _truth(plans, pairs, public, seed)
    (folder / "truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1), encoding="utf-8")
    return Section(folder, tender_path, paths, truth)


def write_bids(folder: Path, tender: Bid, plans: list[Bid]) -> tuple[Path, list[Path]]:
    """Lay out and write the tender (``tender/``) and the bids (``bids/``): their paths."""
    (folder / "bids").mkdir(parents=True, exist_ok=True)
    (folder / "tender").mkdir(exist_ok=True)
    paginate(tender.chapters)
    write_docx(folder / "tender" / tender.name, tender, PROJECT)
    paths = []
    for bid in plans:
        pages = paginate(bid.chapters)
        path = folder / "bids" / bid.name
        header = f"{PROJECT} 投标文件 {bid.company}"
        write_pdf(path, bid, header, pages) if bid.fmt == "pdf" else write_docx(path, bid, header)
        paths.append(path)
    return folder / "tender" / tender.name, paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--bids", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    section = generate_section(args.out, args.bids, args.seed)
    print(f"wrote {len(section.bids)} bids, a tender and truth.json to {args.out}")
    print(
        json.dumps(
            [{k: v for k, v in p.items() if k != "planted"} for p in section.truth["pairs"]],  # type: ignore[attr-defined]
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()
