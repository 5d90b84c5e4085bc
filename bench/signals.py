"""Signals benchmark: every kind of sign planted in generated sections, with distractors to stay silent.

For each size (default 5, 12 and 20 bids; docx and PDF in turn) it writes a section of bids of their
own wording (``bench.corpus``'s skeletons: no copied text), then plants, each in its own pair of bids:
the same author (a docx and a PDF), the same creation minute (two docx), the same XMP DocumentID (two
PDFs), four editing sessions (rsids in settings.xml) of one docx in another's, one bidder's name in
another's bid, the same mobile, e-mail, ID number, credit code, bank account, certificate number and
project manager, the same 技术负责人 row (name and certificate) in two bids' staff tables laid out as
columns, two listed misspellings (钢筯, 水泥砂桨), two input-method slips no list holds (验受,
质亮), one bid's paragraph hidden (``w:vanish``) in another's docx, one bid's paragraph copied into
another disguised with Kangxi radicals, Cyrillic letters and zero-width spaces, and one docx bid's site
photo in another's re-encoded as JPEG 70 at half the size, and three bids' total prices in equal steps
among the others' irregular ones (no other total between them), and six unit prices of one docx bid's
priced bill of quantities in another's. Distractors: every docx saved by Administrator and carrying
the agency's logo (the tender's), a photo and a priced bill of its own, the agency's phone, e-mail and
account copied from the tender into every bid, the tender's staff table frame (its header and posts)
in every bid, and every bidder's own distinct staff (numbers with right check characters; a table of
its own 技术负责人 and 安全员 under the same header), author, editing sessions and XMP ID. It reports planted
signs found and missed, and the clean pairs' levels and signals (target: all found; no strong signal
and no ``high`` on clean pairs).

With ``--public N`` every section also holds N mobile numbers quoted from public documents and a public
picture, each in 20-50% of the bids (five at least): no pair may be raised by them.

With ``--folders`` each bid is handed in as a bidder's folder with its priced bill's XML, and the
machine proof is planted too (``bench.machine``: the same dongle, computer, WPS hardware id and account,
Word docId, a PDF's permanent /ID), next to bidders who all carry the tender's record and docId; with
``--public-pc`` three clean bidders also saved their bills on the agency's public PC, and
``--whitelist`` lists that PC in ``machine_whitelist``.

Usage: .venv/bin/python -m bench.signals [--sizes 5 12 20] [--seed 1] [--folder DIR] [--public N]
           [--folders [--public-pc] [--whitelist]]
"""

from __future__ import annotations

import argparse
import io
import itertools
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from docx import Document as open_docx
from docx.document import Document as DocxDocument
from docx.shared import Inches

from bench.corpus import (
    PROJECT,
    Bid,
    Para,
    _bid_skeleton,
    _tender_document,
    _tender_texts,
    paginate,
    table_para,
    write_docx,
    write_pdf,
)
from bench.grammar import paragraph
from bench.machine import PUBLIC_PC, to_folders
from bench.pictures import add_pictures, encoded, photo
from bench.writers import add_rsids
from bidcheck.config import Settings
from bidcheck.model import CheckResult, Signal
from bidcheck.pipeline import CheckInputs, check
from bidcheck.signals.identifier import _ID_CHECK, _ID_WEIGHTS, _USCC_CHARS, _USCC_WEIGHTS
from bidcheck.text.concealed import LOOKALIKES

AGENCY = (
    "招标代理机构：临江工程咨询有限公司，联系电话：0571-88886666，电子邮箱：zb@ljzx.cn，"
    "投标保证金开户银行：工商银行临江支行，账号：1202 0210 0900 1234 567。"
)
_SURNAMES = "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜"
_GIVEN = "建国志强海峰明辉文杰国栋振华俊德永福立新卫东晓光宏伟"
_DEPUTY = "子涵思远雨轩浩然梓萱"
_SAFETY = "嘉怡博文欣妍一鸣天佑"
_STAFF_HEADER = ["序号", "职务", "姓名", "证书编号"]
# (kind, field, formats of the two bids: "docx", "pdf" or "any")
PLANTS: tuple[tuple[str, str, str, str], ...] = (
    ("metadata", "author", "docx", "pdf"),
    ("metadata", "created", "docx", "docx"),
    ("metadata", "document_id", "pdf", "pdf"),
    ("edit_session", "rsid", "docx", "docx"),
    ("cross_name", "bidder", "any", "any"),
    ("identifier", "phone", "any", "any"),
    ("identifier", "email", "any", "any"),
    ("identifier", "id_number", "any", "any"),
    ("identifier", "credit_code", "any", "any"),
    ("identifier", "bank_account", "any", "any"),
    ("identifier", "certificate", "any", "any"),
    ("identifier", "person", "any", "any"),
    ("identifier", "staff_row", "any", "any"),
    ("shared_error", "misspelling", "any", "any"),
    ("shared_error", "homophone", "any", "any"),
    ("concealed", "hidden", "any", "docx"),
    ("concealed", "homoglyph", "any", "any"),
    ("image", "similar", "docx", "docx"),
    ("price", "arithmetic", "any", "any"),
    ("price", "unit_price", "docx", "docx"),
)
_BILL = ("序号", "项目名称", "单位", "工程量", "综合单价（元）", "合价（元）")
_LETTER_PRICE = re.compile(r"(\d+)万(\d+)元(?=的投标总报价)")


def _id_number(rng: random.Random) -> str:
    born = f"{rng.randint(1960, 1995)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
    body = f"{rng.randint(110000, 659000)}{born}{rng.randint(0, 999):03d}"
    return body + _ID_CHECK[sum(int(c) * w for c, w in zip(body, _ID_WEIGHTS, strict=True)) % 11]


def _credit_code(rng: random.Random) -> str:
    body = (
        "9133"
        + f"{rng.randint(0, 9999):04d}"
        + "".join(rng.choice(_USCC_CHARS[:10] + "MA") for _ in range(9))
    )
    total = sum(_USCC_CHARS.index(c) * w for c, w in zip(body, _USCC_WEIGHTS, strict=True))
    return body + _USCC_CHARS[(31 - total % 31) % 31]


@dataclass
class _Values:
    """One bidder's own identifiers (what a plant copies from one bid into another)."""

    phone: str
    email: str
    id_number: str
    credit_code: str
    bank_account: str
    certificate: str
    person: str
    deputy: str  # the 技术负责人 of the bid's staff table, and his certificate
    deputy_certificate: str
    safety: str  # the 安全员 of its staff table

    @classmethod
    def draw(cls, n: int, rng: random.Random) -> _Values:
        name = _SURNAMES[n % len(_SURNAMES)] + _GIVEN[2 * (n % 12) : 2 * (n % 12) + 2]
        return cls(
            phone=f"13{rng.randint(0, 9)}{rng.randint(10_000_000, 99_999_999)}",
            email=f"bid{n:02d}x{rng.randint(100, 999)}@example{n}.com",
            id_number=_id_number(rng),
            credit_code=_credit_code(rng),
            bank_account=" ".join(f"{rng.randint(1000, 9999)}" for _ in range(4))
            + f" {rng.randint(100, 999)}",
            certificate=f"浙{rng.randint(1, 9)}33{rng.randint(10_000_000, 99_999_999)}",
            person=name,
            deputy=_SURNAMES[(2 * n + 5) % len(_SURNAMES)] + _DEPUTY[n % 10 : n % 10 + 2],
            deputy_certificate=f"苏{rng.randint(1, 9)}32{rng.randint(10_000_000, 99_999_999)}",
            safety=_SURNAMES[(3 * n + 11) % len(_SURNAMES)] + _SAFETY[n % 10 : n % 10 + 2],
        )


def _staff(values: _Values) -> list[Para]:
    return [
        Para(
            f"项目经理：{values.person}，注册编号：{values.certificate}，身份证号：{values.id_number}，"
            f"联系电话：{values.phone}，电子邮箱：{values.email}。",
            "own",
        ),
        Para(
            f"统一社会信用代码：{values.credit_code}。开户银行：某银行临江支行，账号：{values.bank_account}。",
            "own",
        ),
        Para("拟投入本项目主要人员表", "own"),
        table_para(
            [
                _STAFF_HEADER,
                ["1", "技术负责人", values.deputy, values.deputy_certificate],
                ["2", "安全员", values.safety, ""],
            ]
        ),
    ]


def _pairs(plans: list[Bid], rng: random.Random) -> list[tuple[int, int]]:
    """A pair of bids for each plant, of the formats it needs; in a small section plants share pairs,
    so that a third of its pairs at most hold any (the rest are the clean pairs)."""
    used: set[frozenset[int]] = set()
    limit = max(1, len(plans) * (len(plans) - 1) // 6)
    out = []
    for _kind, _field, fmt_a, fmt_b in PLANTS:
        options = [
            (i, j)
            for i, j in itertools.permutations(range(len(plans)), 2)
            if fmt_a in ("any", plans[i].fmt) and fmt_b in ("any", plans[j].fmt)
        ]
        fresh = [o for o in options if frozenset(o) not in used]
        again = [o for o in options if frozenset(o) in used]
        i, j = rng.choice((fresh if len(used) < limit else again) or fresh or options)
        used.add(frozenset((i, j)))
        out.append((i, j))
    return out


def _xmp(path: Path, document_id: str) -> None:
    """An XMP packet as Acrobat writes it (uncompressed), added to the end of the file."""
    packet = (
        '\n%<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">'
        '<rdf:RDF><rdf:Description xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" '
        f'xmpMM:DocumentID="{document_id}" xmpMM:InstanceID="{document_id}i"/></rdf:RDF></x:xmpmeta>\n'
    )
    with path.open("ab") as out:
        out.write(packet.encode("ascii"))


def _own_paragraph(bid: Bid, nth: int) -> str:
    """The ``nth`` long paragraph of the bid's own wording (what a plant copies into another bid; two
    plants copy two different ones, so that no third pair shares them)."""
    return [p.text for chapter in bid.chapters for p in chapter if p.kind == "own" and len(p.text) >= 80][nth]


def _disguised(text: str) -> str:
    """The text with a look-alike for every fourth character that has one (a Kangxi radical for 工, a
    Cyrillic letter for a Latin one) and a zero-width space inside a word every ninth character."""
    twins = {chr(v): chr(k) for k, v in sorted(LOOKALIKES.items(), reverse=True)}  # the lowest code wins
    out, eligible = [], 0
    for n, char in enumerate(text):
        if char in twins:
            eligible += 1
            char = twins[char] if eligible % 4 == 1 else char
        gap = n % 9 == 4 and text[n : n + 2].isalnum() and len(text[n : n + 2]) == 2
        out.append(char + ("\u200b" if gap else ""))
    return "".join(out)


def _total(bid: Bid) -> int:
    """The bid's total price as its letter gives it, in yuan."""
    text = next(p.text for chapter in bid.chapters for p in chapter if _LETTER_PRICE.search(p.text))
    match = _LETTER_PRICE.search(text)
    assert match is not None
    return int(match.group(1)) * 10_000 + int(match.group(2))


def _set_total(bid: Bid, total: int) -> None:
    for chapter in bid.chapters:
        for n, para in enumerate(chapter):
            if _LETTER_PRICE.search(para.text):
                price = f"{total // 10_000}万{total % 10_000}元"
                chapter[n] = Para(
                    _LETTER_PRICE.sub(price, para.text), para.kind, para.page, para.first_in_chapter
                )


def _progression(plans: list[Bid], members: tuple[int, int, int]) -> None:
    """Price three bids in equal steps inside the widest gap between the other bids' totals (among them,
    and with none between its own three: a progression the others do not interrupt)."""
    others = sorted(_total(b) for n, b in enumerate(plans) if n not in members)
    low, high = max(itertools.pairwise([20_000_000, *others, 60_000_000]), key=lambda g: g[1] - g[0])
    step = (high - low) * 15 // 100  # at 30%, 45% and 60% of the gap: no step to its ends equals it
    for n, member in enumerate(members):
        _set_total(plans[member], low + (high - low) * 30 // 100 + n * step)


def _bill(document: DocxDocument, prices: list[str], own: int) -> None:
    """A bill of quantities priced row by row (a Word table; quantities of the bid's own, ``own`` more
    than a round ten, so that two bills agree in their unit prices only)."""
    table = document.add_table(rows=1, cols=len(_BILL))
    for cell, head in zip(table.rows[0].cells, _BILL, strict=True):
        cell.text = head
    for n, price in enumerate(prices, 1):
        quantity = 10 * n + own
        values = (str(n), f"清单项目{n}", "m3", str(quantity), price, f"{float(price) * quantity:.2f}")
        for cell, value in zip(table.add_row().cells, values, strict=True):
            cell.text = value


def _docx_props(
    path: Path,
    author: str | None,
    created: datetime | None,
    hidden: str | None,
    pictures: list[bytes],
    prices: list[str],
    own: int,
) -> None:
    """Properties as Word writes them (and a paragraph of hidden text, when a plant hides one), the
    bid's pictures and its priced bill of quantities."""
    document = open_docx(str(path))
    _bill(document, prices, own)
    if hidden:
        document.add_paragraph("施工部署详见下文。").add_run(hidden).font.hidden = True
    for data in pictures:
        document.add_picture(io.BytesIO(data), width=Inches(3))
    core = document.core_properties
    core.last_modified_by = "Administrator"
    core.created = created or core.created
    if author is not None:
        core.author = author
    document.save(str(path))
    # app.xml's Company: the same generic "Microsoft" in every file


def _public_values(size: int, count: int, rng: random.Random) -> list[tuple[str, list[int]]]:
    """``count`` numbers quoted from public documents (a project contact, a hotline; not in the tender),
    each in a share of the bids drawn from 20-50%, and in five bids at least (fewer bids holding a
    number cannot be told from a ring's, in a section alone): what such a section looks like to every
    finder."""
    out = []
    for n in range(count):
        share = max(5, round(size * rng.uniform(0.2, 0.5)))
        holders = sorted(rng.sample(range(size), min(size, share)))
        out.append((f"13{n}{rng.randint(10_000_000, 99_999_999)}", holders))
    return out


def write_section(
    folder: Path, size: int, seed: int, public: int = 0
) -> tuple[Path, list[Path], list[tuple[str, str, int, int]]]:
    """The tender, the bids and the plants (kind, field, bid index a, bid index b); with ``public``, that
    many public numbers and a public picture (a screenshot of a credit-query site) each in 20-50% of the
    bids, five at least (``_public_values``)."""
    rng = random.Random(seed)
    texts = _tender_texts(random.Random(seed * 7919 + 1))
    # each bid's draws from a seed hashed whole: seeds ``seed * 1000 + i`` gave five of forty bids
    # totals within 0.05% of each other (41,008 ... 41,026), a draw independent bids make about once in
    # 100,000 sections, which the price finder rightly calls a pattern
    plans = [
        _bid_skeleton(i, texts, random.Random(f"{seed}/{i}"), (18, 24), paragraph, True) for i in range(size)
    ]
    values = [_Values.draw(n, rng) for n in range(size)]
    pairs = _pairs(plans, rng)
    authors: dict[int, str] = {}
    created: dict[int, datetime] = {}
    document_ids = {i: f"uuid:{rng.getrandbits(64):016x}-{i}" for i in range(size)}
    sessions = {i: [f"{rng.getrandbits(32):08X}" for _ in range(rng.randint(3, 9))] for i in range(size)}
    extra: dict[int, list[Para]] = {i: [] for i in range(size)}
    hidden: dict[int, str] = {}
    bills = {i: [f"{rng.uniform(10, 2000):.2f}" for _ in range(8)] for i in range(size)}  # its own prices
    added: list[tuple[str, str, int, int]] = []  # plants of more than one pair (a price progression)
    logo = encoded(photo(seed, (300, 120)))  # the agency's, in the tender and every bid
    pictures = {i: [logo, encoded(photo(seed * 100 + 50 + i, (640, 480)))] for i in range(size)}
    for number, holders in _public_values(size, public, random.Random(seed * 31 + 7)):
        for k in holders:
            extra[k].append(Para(f"本项目建设单位咨询电话：{number}（摘自公开的项目信息）。", "own"))
    if public:
        screenshot = encoded(photo(seed * 100 + 99, (800, 500)))
        for k in _public_values(size, 1, random.Random(seed * 31 + 8))[0][1]:
            pictures[k].append(screenshot)
    for (kind, field, _fa, _fb), (a, b) in zip(PLANTS, pairs, strict=True):
        if field == "author":
            authors[a] = authors[b] = "刘建国经营部"
        elif field == "created":
            created[a], created[b] = datetime(2025, 5, 20, 14, 3, 7), datetime(2025, 5, 20, 14, 3, 41)
        elif field == "document_id":
            document_ids[b] = document_ids[a]
        elif field == "rsid":
            sessions[b] = sessions[b] + sessions[a][:4]
        elif field == "arithmetic":
            third = next(n for n in range(size) if n not in (a, b))
            _progression(plans, (a, b, third))
            added += [(kind, field, a, third), (kind, field, b, third)]
        elif field == "unit_price":  # b priced six of its items as a did, to the fen
            bills[b][:6] = bills[a][:6]
        elif kind == "image":  # b's copy of a's site photo: re-encoded as JPEG 70 at half the size
            site = photo(seed * 100 + a)
            pictures[a].append(encoded(site, "JPEG", quality=92))
            pictures[b].append(encoded(site.resize((450, 300)), "JPEG", quality=70))
        elif field == "homophone":
            for k in (a, b):
                extra[k].append(Para("隐蔽工程验受合格后方可进入下道工序，确保工程质亮达到合格标准。", "own"))
        elif kind == "shared_error":
            for k in (a, b):
                extra[k].append(
                    Para(f"底板钢筯绑扎验收后，用水泥砂桨找平{rng.choice('，。')}随后浇筑。", "own")
                )
        elif field == "hidden":
            hidden[b] = _own_paragraph(plans[a], 0)
        elif field == "homoglyph":
            extra[b].append(Para(_disguised(_own_paragraph(plans[a], 1)), "own"))
        elif field == "staff_row":  # b names a's 技术负责人 in its staff table, certificate and all
            values[b].deputy, values[b].deputy_certificate = values[a].deputy, values[a].deputy_certificate
        elif kind == "cross_name":
            extra[b].append(Para(f"本项目的施工机械由{plans[a].company}有限公司统一调配，随时进场。", "own"))
        else:
            setattr(values[b], field, getattr(values[a], field))
    tender = _tender_document(texts)
    blank = _Values(*["________"] * 7, "", "", "")
    tender.chapters.append(
        [Para("第五章 联系方式与项目管理机构表", "heading"), Para(AGENCY, "tender"), *_staff(blank)]
    )
    paginate(tender.chapters)
    (folder / "tender").mkdir(parents=True, exist_ok=True)
    (folder / "bids").mkdir(exist_ok=True)
    tender_path = folder / "tender" / tender.name
    write_docx(tender_path, tender, PROJECT)
    add_pictures(tender_path, [logo])
    paths = []
    for i, bid in enumerate(plans):
        bid.chapters.append(
            [Para("第四章 项目管理机构", "heading"), *_staff(values[i]), *extra[i], Para(AGENCY, "tender")]
        )
        paginate(bid.chapters)
        path = folder / "bids" / bid.name
        header = f"{PROJECT} 投标文件 {bid.company}"
        if bid.fmt == "pdf":
            company, bid.company = bid.company, authors.get(i, bid.company + "经营部").removesuffix("经营部")
            write_pdf(path, bid, header, max(p.page for c in bid.chapters for p in c))
            bid.company = company
            _xmp(path, document_ids[i])
        else:
            write_docx(path, bid, header)
            _docx_props(path, authors.get(i), created.get(i), hidden.get(i), pictures[i], bills[i], i)
            add_rsids(path, sessions[i])
        paths.append(path)
    plants = [(kind, field, a, b) for (kind, field, _fa, _fb), (a, b) in zip(PLANTS, pairs, strict=True)]
    return tender_path, paths, plants + added


def _planted(signal: Signal, kind: str, field: str) -> bool:
    """Whether a signal is the planted sign: a staff-table row is found by its certificate (苏…, the
    tables'; the 项目经理 lines' are 浙…)."""
    if field == "staff_row":
        return signal.kind == "identifier" and signal.field == "certificate" and signal.value.startswith("苏")
    return signal.kind == kind and signal.field == field


def _score(
    result: CheckResult, paths: list[Path], plants: list[tuple[str, str, int, int]]
) -> dict[str, object]:
    ids = {Path(d.path).name: d.id for d in result.documents}
    pairs = {frozenset((p.a, p.b)): p for p in result.pairs}
    found, missed = 0, []
    planted = set()
    for kind, field, a, b in plants:
        key = frozenset((ids[paths[a].name], ids[paths[b].name]))
        planted.add(key)
        pair = pairs[key]
        high = not (kind == "machine" or field == "para_id") or pair.level == "high"  # proof: where it raises
        if high and any(_planted(s, kind, field) for s in pair.signals):
            found += 1
        else:
            missed.append(f"{kind}/{field} {paths[a].name}~{paths[b].name} ({pair.level})")
    clean = [p for key, p in pairs.items() if key not in planted]
    return {
        "found": found,
        "missed": missed,
        "clean": len(clean),
        "clean_high": sum(p.level == "high" for p in clean),
        "clean_watch": sum(p.level == "watch" for p in clean),
        "clean_strong": sum(s.strength == "strong" for p in clean for s in p.signals),
        "clean_supporting": sum(s.strength == "supporting" for p in clean for s in p.signals),
        "clean_signals": [f"{p.a}~{p.b} {s.kind}/{s.field}" for p in clean for s in p.signals],
        "clean_machine": sum(s.kind == "machine" for p in clean for s in p.signals),
        "signals_s": result.timings.get("signals", 0.0),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 12, 20])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--folder", type=Path)
    parser.add_argument(
        "--public", type=int, default=0, help="numbers (and a picture) quoted by 20-50%% of the bids"
    )
    parser.add_argument("--folders", action="store_true", help="bidders as folders, machine proof planted")
    parser.add_argument("--public-pc", action="store_true", help="three clean bidders used the agency's PC")
    parser.add_argument("--whitelist", action="store_true", help="list the agency's PC in machine_whitelist")
    args = parser.parse_args()
    print(f"command: {' '.join([Path(sys.executable).name, '-m', 'bench.signals', *sys.argv[1:]])}")
    print(
        "bids  planted  found  missed  clean pairs  clean high  clean watch  strong on clean"
        "  machine on clean  signals s  check s"
    )
    with tempfile.TemporaryDirectory() as temp:
        for size in args.sizes:
            folder = (args.folder or Path(temp)) / f"signals-{size}"
            tender, paths, plants = write_section(folder, size, args.seed + size, args.public)
            inputs, settings = CheckInputs(tuple(paths), (tender,)), Settings(workers=2)
            if args.folders:
                folders = to_folders(folder, tender, paths, args.seed + size, args.public_pc)
                inputs = CheckInputs((folder / "bidders",), (tender, folders.tender_pdf, folders.tender_xml))
                plants += folders.plants
                paths = folders.bidders
                if args.whitelist:
                    settings = settings.with_changes(machine_whitelist=", ".join(PUBLIC_PC.values()))
            started = time.perf_counter()
            result = check(inputs, settings)
            wall = time.perf_counter() - started
            s = _score(result, paths, plants)
            print(
                f"{size:>4}  {len(plants):>7}  {s['found']:>5}  {len(s['missed']):>6}  {s['clean']:>11}  "  # type: ignore[arg-type]
                f"{s['clean_high']:>10}  {s['clean_watch']:>11}  {s['clean_strong']:>15}  "
                f"{s['clean_machine']:>16}  {s['signals_s']:>9.3f}  {wall:>7.1f}"
            )
            shown = [*s["missed"], *s["clean_signals"][:10]]  # type: ignore[misc]
            more = len(s["clean_signals"]) - 10  # type: ignore[arg-type]
            for line in shown + ([f"... and {more} more signals on clean pairs"] if more > 0 else []):
                print(f"      {line}")


if __name__ == "__main__":
    main()
