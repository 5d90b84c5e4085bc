"""Priced bills benchmark: sections of bidders' folders, each with its bill priced apart around the control
price, and three plants that must be found.

For each size (default 5, 20 and 100 bids) it writes the tender (a Word file and the 招标控制价 XML of
``--items`` items, each built up from the standard quota) and a folder per bidder: a Word bid of its
own wording and its priced bill, as the pricing program's XML (every fourth bidder as an .xlsx sheet),
each item at 85-99% of its control price drawn per bidder. Every bidder also prices three items at a
whole number many bidders choose and two at the control price itself (not evidence). Planted: a pair
whose second bill copied 18 of the first's 20 unit prices (``same_prices``), a pair with one build-up
of its own and different prices (``same_buildup``), two .xlsx bills with 17 of 20 prices alike, a pair
whose 人材机 price lists share 13 of 16 market prices (``same_resources``), and two .xlsx bills with the
same three edits of the tender's 项目特征 (``same_features``) (each pair of its own: a section of five
bids holds the first two). Every bill carries a 人材机 price list (each bidder's market prices at
90–110% of the control bill's 信息价, two at the 信息价, two round) and the tender's 项目特征, which each
bidder edits on up to two items with words of its own and, one in three, words one item's choice as
another option of the catalogue (edits unrelated bidders can share by chance).
It reports the plants found at ``high`` and the clean pairs with any bill signal or level (target: all
found; none on clean pairs).

Usage: .venv/bin/python -m bench.pricing [--sizes 5 20 100] [--items 20] [--seed 1] [--folder DIR]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from docx import Document as new_docx

from bench.bills import (
    OWN_BUILDUP,
    STANDARD,
    bill_items,
    copied_prices,
    make_bill_xlsx,
    make_pricing_xml,
    priced_around,
    resource_list,
    resources_around,
)
from bench.grammar import paragraph
from bidcheck.config import Settings
from bidcheck.model import CheckResult
from bidcheck.pipeline import CheckInputs, check

PLANTS = (
    ("same_prices", 18, "xml"),
    ("same_buildup", 0, "xml"),
    ("same_prices", 17, "xlsx"),
    ("same_resources", 13, "xml"),
    ("same_features", 3, "xlsx"),
)
_STRONG = frozenset({"same_prices", "same_buildup"})  # plants found only at high
_OWN_WORDS = ("详见设计图纸", "满足规范要求", "含场内运输", "按监理指示", "综合考虑", "以实际为准")


def _common_choices(bill: list[dict[str, str]], control: list[dict[str, str]], rng: random.Random) -> None:
    """Three items at a whole number many bidders choose, two at the control price itself."""
    for n in rng.sample(range(len(bill)), 5):
        price = f"{int(float(control[n]['unit_price']) * 0.9)}.00" if n % 2 else control[n]["unit_price"]
        total = Decimal(bill[n]["quantity"]) * Decimal(price)
        bill[n] = {
            **bill[n],
            "unit_price": price,
            "total": str(total.quantize(Decimal("0.01"), ROUND_HALF_UP)),
        }


def _own_wording(bill: list[dict[str, str]], rng: random.Random, edits: int) -> None:
    """A bidder's own edits of the 项目特征: words of its own added to ``edits`` items, and now and then
    one item's choice worded as another option (the edits unrelated bidders make)."""
    for n in rng.sample(range(len(bill)), edits):
        bill[n] = {
            **bill[n],
            "features": f"{bill[n]['features']}（{rng.choice(_OWN_WORDS)}{rng.randint(1, 99)}）",
        }
    if rng.random() < 0.3:
        n = rng.randrange(len(bill))
        first, _, rest = bill[n]["features"].partition("：")
        bill[n] = {
            **bill[n],
            "features": f"{first}：{rng.choice(('三类土', 'C30', '绑扎', '钢模板'))}{rest[3:]}",
        }


def _bid(path: Path, n: int, seed: int) -> None:
    rng = random.Random(seed * 1000 + n)
    document = new_docx()
    for _ in range(8):
        document.add_paragraph(paragraph(rng))
    document.save(path)


def write_section(
    folder: Path, size: int, items: int, seed: int
) -> tuple[list[Path], list[tuple[str, int, int]]]:
    """The tender, the bidders' folders and the plants (field, bid a, bid b)."""
    rng = random.Random(seed)
    control = [{**item, "buildup": STANDARD} for item in bill_items(items, seed)]
    listed = resource_list(seed)
    tender = folder / "tender"
    tender.mkdir(parents=True)
    make_pricing_xml(tender / "招标控制价.xml", [], control, resources=listed)
    _bid(tender / "招标文件.docx", 0, seed)
    bills = [priced_around(control, seed * 1000 + n) for n in range(size)]
    prices = [resources_around(listed, seed * 1000 + n) for n in range(size)]
    for bill in bills:
        _common_choices(bill, control, rng)
        _own_wording(bill, rng, rng.randint(0, 2))
    formats = ["xlsx" if n % 4 == 3 else "xml" for n in range(size)]
    order = rng.sample(range(size), size)
    plants = []
    for k, (field, copied, fmt) in enumerate(PLANTS[: size // 2]):  # each pair of its own
        a, b = order[2 * k], order[2 * k + 1]
        formats[a] = formats[b] = fmt
        if field == "same_buildup":
            bills[a] = [{**item, "buildup": OWN_BUILDUP} for item in bills[a]]
            bills[b] = [{**item, "buildup": OWN_BUILDUP} for item in bills[b]]
        elif field == "same_resources":
            prices[b] = prices[a][:copied] + prices[b][copied:]
        elif field == "same_features":
            bills[a] = [dict(item, features=control[n]["features"]) for n, item in enumerate(bills[a])]
            _own_wording(bills[a], rng, copied)
            edited = zip(bills[b], bills[a], strict=True)
            bills[b] = [dict(mine, features=theirs["features"]) for mine, theirs in edited]
        else:
            bills[b] = copied_prices(bills[a], bills[b], copied * items // 20)
        plants.append((field, a, b))
    paths = []
    for n in range(size):
        bidder = folder / "bidders" / f"{n + 1:03d}-投标人{n + 1}"
        bidder.mkdir(parents=True)
        _bid(bidder / "投标文件.docx", n + 1, seed)
        if formats[n] == "xlsx":
            make_bill_xlsx(bidder / "报价清单.xlsx", bills[n], resources=prices[n])
        else:
            make_pricing_xml(bidder / "造价.xml", [], bills[n], resources=prices[n])
        paths.append(bidder)
    return paths, plants


def _score(result: CheckResult, paths: list[Path], plants: list[tuple[str, int, int]]) -> dict[str, object]:
    ids = {Path(d.path).name: d.id for d in result.documents}
    pairs = {frozenset((p.a, p.b)): p for p in result.pairs}
    found, missed, planted = 0, [], set()
    for field, a, b in plants:
        key = frozenset((ids[paths[a].name], ids[paths[b].name]))
        planted.add(key)
        pair = pairs[key]
        level = "high" if field in _STRONG else pair.level  # a supporting sign raises a pair to watch
        if pair.level == level != "none" and any(s.kind == "bill" and s.field == field for s in pair.signals):
            found += 1
        else:
            missed.append(f"{field} {paths[a].name}~{paths[b].name} ({pair.level})")
    clean = [p for key, p in pairs.items() if key not in planted]
    return {
        "found": found,
        "missed": missed,
        "clean": len(clean),
        "clean_bill": [
            f"{p.a}~{p.b} {s.field} {s.value}" for p in clean for s in p.signals if s.kind == "bill"
        ],
        "clean_raised": [f"{p.a}~{p.b} {p.level}: {p.reason[:80]}" for p in clean if p.level != "none"],
        "clean_high": sum(p.level == "high" for p in clean),
        "clean_watch": sum(p.level == "watch" for p in clean),
        "signals_s": result.timings.get("signals", 0.0),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 20, 100])
    parser.add_argument("--items", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--folder", type=Path)
    args = parser.parse_args()
    print(f"command: {' '.join([Path(sys.executable).name, '-m', 'bench.pricing', *sys.argv[1:]])}")
    print(
        "bids  items  planted  found  missed  clean pairs  bill signs on clean  clean high  clean watch"
        "  signals s  check s"
    )
    with tempfile.TemporaryDirectory() as temp:
        for size in args.sizes:
            folder = (args.folder or Path(temp)) / f"pricing-{size}"
            paths, plants = write_section(folder, size, args.items, args.seed + size)
            tender = folder / "tender"
            inputs = CheckInputs((folder / "bidders",), (tender / "招标文件.docx", tender / "招标控制价.xml"))
            started = time.perf_counter()
            result = check(inputs, Settings(workers=2))
            wall = time.perf_counter() - started
            s = _score(result, paths, plants)
            print(
                f"{size:>4}  {args.items:>5}  {len(plants):>7}  {s['found']:>5}  {len(s['missed']):>6}  "  # type: ignore[arg-type]
                f"{s['clean']:>11}  {len(s['clean_bill']):>19}  "  # type: ignore[arg-type]
                f"{s['clean_high']:>10}  {s['clean_watch']:>11}  "
                f"{s['signals_s']:>9.3f}  {wall:>7.1f}"
            )
            for line in [*s["missed"], *s["clean_bill"][:10], *s["clean_raised"][:5]]:  # type: ignore[misc]
                print(f"      {line}")


if __name__ == "__main__":
    main()
