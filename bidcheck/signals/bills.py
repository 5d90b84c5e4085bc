"""Priced bills compared item by item: the 清标 a cost engineer does, on every pair of bidders.

One cost engineer pricing several bids leaves the same 综合单价 on item after item, the same build-up
(定额 and 含量), or one bill derived from the other (every price times one ratio, or plus one amount),
then moves the totals apart. Items are aligned across bidders by 项目编码 (by name and unit where a bill
has no codes); the tender's bill (the 招标控制价 XML) gives the control prices. Per pair:

- ``same_prices``: the share of the items both priced whose unit price is the same to the fen. A round
  price (a whole number) or the control price itself anyone may choose, and a price more bids give
  than a ring is the section's: none of them counts. ``bill_same_share`` (80%, 青岛's 雷同 line) of at
  least ``bill_min_items`` items is strong; ``bill_min_same`` alike at a lower share is supporting.
- ``same_buildup``: the share of the items both built up whose build-up (quota codes and amounts) is the
  same and few bids share it (the standard quota of an item is everyone's): strong from the same share.
- ``derived_ratio``/``derived_offset``: every common item's price of one bill the other's times one
  ratio (to the fen), or plus one amount: supporting. A bill that is one ratio of the control price (a
  discount on the whole) anyone may price, and is left out.
- ``hugging``: ``bill_hug_share`` (80%) of the prices of both bills at 98–100% of their control prices:
  supporting.
- ``unbalanced``: the two bills' prices over the control prices rise and fall together item by item
  (correlation ``bill_correlation``, 0.9, or more; the prices spread): the same unbalanced pricing;
  supporting.
- ``miscount``: the same wrong 合价 (not 工程量 × 综合单价) on the same item in both bills: supporting.
- ``same_resources``: the 人材机 (labour, materials, machines) of both bills' price lists priced alike
  to the fen — none round, none the control bill's price (信息价 every bidder may use), none a price more
  bids give than a ring: ``bill_min_same`` alike and ``bill_resource_share`` of those both priced is
  supporting (one cost engineer's own market prices).
- ``same_features``: items whose 项目特征 both bills word alike and unlike the tender's bill (or, with
  no control bill, unlike the wording most bids give), few other bids so: the same edit of the same
  file; ``bill_min_wording`` items or more is supporting.

Each signal carries its items side by side (``BillRow``) for the workbook's 清单比对 sheet.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from bidcheck.model import BillItem, BillRow, BillShare, Signal
from bidcheck.ready import Ready
from bidcheck.signals.base import Linked, SectionInfo, most_holders
from bidcheck.signals.bill_shapes import (
    HUG,
    correlation,
    derived_from,
    few_links,
    hugs,
    one_ratio_of_control,
)

__all__ = ["bill_keys", "find", "price_shares"]

_ROWS = 200  # items side by side a signal keeps
Pair = tuple[int, int]
_T = TypeVar("_T")
Matrix = npt.NDArray[np.float64]


def bill_keys(items: Iterable[BillItem]) -> dict[str, BillItem]:
    """A bill's items by the key they are aligned on: the code, else name and unit; a key met again (the
    same code in each building's part of a bill) is numbered by its turn (``010101001001#2``)."""
    keyed: dict[str, BillItem] = {}
    seen: dict[str, int] = {}
    for item in items:
        key = item.code or f"{item.name}|{item.unit}"
        seen[key] = seen.get(key, 0) + 1
        keyed[key if seen[key] == 1 else f"{key}#{seen[key]}"] = item
    return keyed


def _bid_bill(items: Sequence[BillItem], control: dict[str, float | None]) -> dict[str, BillItem]:
    """A bid's bill by key, less the files of it that are a copy of the control bill (a bidder's folder
    holding the 招标控制价 file it imported: nine in ten of its prices the control's)."""
    files: dict[str, list[BillItem]] = {}
    for item in items:
        files.setdefault(item.file, []).append(item)
    kept = [i for bill in files.values() if not _control_copy(bill, control) for i in bill]
    return bill_keys(kept)


def _control_copy(items: Sequence[BillItem], control: dict[str, float | None]) -> bool:
    keyed = bill_keys(items)
    priced = [(k, i.unit_price) for k, i in keyed.items() if i.unit_price]
    alike = sum(1 for k, price in priced if price is not None and _same(price, control.get(k)))
    return bool(control) and len(priced) > 0 and alike >= 0.9 * len(priced)


def _tender_bill(section: SectionInfo) -> dict[str, BillItem]:
    """The tender's bills (the 招标控制价) by key: the control prices, build-ups and wording."""
    return {k: i for t in section.tenders for k, i in bill_keys(t.doc.bill).items()}


def _control(tender: dict[str, BillItem]) -> dict[str, float | None]:
    """The control price of each item of the tender's bill."""
    return {k: i.unit_price for k, i in tender.items()}


class _Priced(NamedTuple):
    """The section's bills as the comparisons take them: by key, the keys in order, the unit prices
    (a row a bid, a column a key) and the control prices."""

    bills: Sequence[dict[str, BillItem]]
    keys: list[str]
    prices: Matrix
    control: dict[str, float | None]
    section: SectionInfo


def _prices(bills: Sequence[dict[str, BillItem]], keys: list[str]) -> Matrix:
    """The bids' unit prices, a row a bid and a column an item (NaN where a bid gives none)."""
    prices = np.full((len(bills), len(keys)), np.nan)
    column = {k: n for n, k in enumerate(keys)}
    for row, bill in enumerate(bills):
        for key, item in bill.items():
            if item.unit_price is not None and item.unit_price > 0:
                prices[row, column[key]] = item.unit_price
    return prices


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked]:
    """The pairs of bids whose priced bills agree item by item beyond chance, one signal per pair and
    kind of agreement, with the items side by side."""
    tender = _tender_bill(section)
    control = _control(tender)
    bills = [_bid_bill(b.doc.bill, control) for b in bids]
    found: list[tuple[Pair, Signal]] = []
    if sum(bool(b.doc.resources) for b in bids) >= 2:  # a price list may come without its bill
        found += _same_resources(bids, section)
    if sum(bool(b) for b in bills) >= 2:
        keys = sorted({k for bill in bills for k in bill})
        priced = _Priced(bills, keys, _prices(bills, keys), control, section)
        found += _same_prices(priced)
        found += _same_buildup(bills, tender, section)
        found += _derived(priced)
        found += _shaped(priced)
        found += _arithmetic(bills, keys, section)
        found += _same_features(bills, keys, tender, section)
    strong = {pair for pair, signal in found if signal.strength == "strong"}  # says it all for the pair
    return [
        Linked(bids[i].doc.id, bids[j].doc.id, signal)
        for (i, j), signal in sorted(found, key=lambda f: f[0])
        if signal.strength == "strong" or (i, j) not in strong
    ]


def _rows(
    pair: Pair, bills: Sequence[dict[str, BillItem]], keys: Iterable[str], control: dict[str, float | None]
) -> tuple[BillRow, ...]:
    a, b = (bills[k] for k in pair)
    rows = []
    for key in itertools.islice(keys, _ROWS):
        item = a.get(key) or b[key]
        rows.append(
            BillRow(item.code, item.name, item.unit, _price(a, key), _price(b, key), control.get(key))
        )
    return tuple(rows)


def _price(bill: dict[str, BillItem], key: str) -> float | None:
    item = bill.get(key)
    return item.unit_price if item is not None else None


def _few_alike(
    values: Sequence[dict[str, str]], section: SectionInfo, tender: dict[str, str] | None = None
) -> dict[Pair, list[str]]:
    """By pair of bids, the keys whose value (``values[bid][key]``) both bids give, few others do, and
    the tender's bill does not (``tender``, by key)."""
    most = most_holders(len(values), section.settings)
    holders: dict[tuple[str, str], list[int]] = {}
    for bid, given in enumerate(values):
        for key, value in given.items():
            if tender is None or tender.get(key) != value:
                holders.setdefault((key, value), []).append(bid)
    alike: dict[Pair, list[str]] = {}
    for (key, _value), docs in holders.items():
        if 2 <= len(docs) <= most:
            for pair in itertools.combinations(docs, 2):
                alike.setdefault(pair, []).append(key)
    return alike


def _common(prices: Matrix, told: Sequence[dict[str, str]], keys: list[str]) -> npt.NDArray[np.int64]:
    """By pair of bids, the items both priced, less those both priced at a price that tells nothing (a
    whole number, the control price): an item counts where one of the two prices could be copied."""
    given = ~np.isnan(prices)
    telling = np.array([[k in bid for k in keys] for bid in told], dtype=bool).reshape(given.shape)
    both, dull = given.astype(np.int64), (given & ~telling).astype(np.int64)
    common: npt.NDArray[np.int64] = both @ both.T - dull @ dull.T
    return common


def _telling(bills: Sequence[dict[str, BillItem]], control: dict[str, float | None]) -> list[dict[str, str]]:
    """Each bill's unit prices that tell of their maker, by key: none round, none the control price."""
    return [
        {
            k: f"{i.unit_price:.2f}"
            for k, i in bill.items()
            if i.unit_price
            and not float(i.unit_price).is_integer()
            and not _same(i.unit_price, control.get(k))
        }
        for bill in bills
    ]


def price_shares(bids: Sequence[Ready], section: SectionInfo) -> tuple[BillShare, ...]:
    """For every pair of bids whose bills both price ``bill_min_items`` items or more: the items both
    priced and those priced alike (as ``same_prices`` counts them), for the section's matrix."""
    control = _control(_tender_bill(section))
    bills = [_bid_bill(b.doc.bill, control) for b in bids]
    if sum(bool(b) for b in bills) < 2:
        return ()
    keys = sorted({k for bill in bills for k in bill})
    told = _telling(bills, control)
    common = _common(_prices(bills, keys), told, keys)
    alike = _few_alike(told, section)
    return tuple(
        BillShare(bids[i].doc.id, bids[j].doc.id, len(alike.get((i, j), ())), int(common[i, j]))
        for i, j in itertools.combinations(range(len(bids)), 2)
        if common[i, j] >= section.settings.bill_min_items
    )


def _same_prices(priced: _Priced) -> list[tuple[Pair, Signal]]:
    bills, keys, prices, control, section = priced
    told = _telling(bills, control)
    common = _common(prices, told, keys)
    settings = section.settings
    out = []
    for pair, same in _few_alike(told, section).items():
        share = len(same) / max(int(common[pair]), 1)
        strong = len(same) >= settings.bill_min_items and share >= settings.bill_same_share
        if not strong and (len(same) < settings.bill_min_same or share < 0.2):
            continue
        detail = (
            f"两家的已标价工程量清单有 {len(same)} 项综合单价完全相同（可比的 {int(common[pair])} 项"
            f"中占 {share:.0%}；不计整数价、招标控制价和多家共有的价格）"
        )
        found = Signal("bill", "strong" if strong else "supporting", "same_prices", f"{share:.0%}", detail)
        out.append((pair, _with_rows(found, pair, bills, sorted(same), control)))
    return out


def _same(price: float, control: float | None) -> bool:
    return control is not None and abs(price - control) < 0.005


def _with_rows(
    signal: Signal,
    pair: Pair,
    bills: Sequence[dict[str, BillItem]],
    keys: Iterable[str],
    control: dict[str, float | None],
) -> Signal:
    return Signal(
        signal.kind,
        signal.strength,
        signal.field,
        signal.value,
        signal.detail,
        holders=2,
        rows=_rows(pair, bills, keys, control),
    )


def _same_buildup(
    bills: Sequence[dict[str, BillItem]], tender_bill: dict[str, BillItem], section: SectionInfo
) -> list[tuple[Pair, Signal]]:
    built = [_buildups(bill) for bill in bills]
    tender = _buildups(tender_bill)
    settings = section.settings
    out = []
    for pair, same in _few_alike(built, section, tender).items():
        both = len(built[pair[0]].keys() & built[pair[1]].keys())
        share = len(same) / max(both, 1)
        if len(same) < settings.bill_min_items or share < settings.bill_same_share:
            continue
        detail = (
            f"两家的清单有 {len(same)} 项组价完全相同（定额编号和含量一致，双方都有组价的 {both} 项中"
            f"占 {share:.0%}；不计多家共有的组价）"
        )
        if not tender:  # no control bill: the usual quota of each item may be what both chose
            detail += "（未提供带组价的招标控制价清单，不能排除双方都按通用定额组价，仅作辅助迹象）"
        found = Signal("bill", "strong" if tender else "supporting", "same_buildup", f"{share:.0%}", detail)
        out.append((pair, _with_rows(found, pair, bills, sorted(same), {})))
    return out


def _buildups(bill: dict[str, BillItem]) -> dict[str, str]:
    return {k: repr(i.buildup) for k, i in bill.items() if i.buildup}


def _derived(priced: _Priced) -> list[tuple[Pair, Signal]]:
    bills, keys, prices, control, section = priced
    if not control:
        return []  # a discount on the whole control price, anyone's, cannot be told apart without it
    minimum = section.settings.bill_min_items
    controls = np.array([control.get(k) or np.nan for k in keys])
    uniform = one_ratio_of_control(prices, controls, minimum)
    linked: dict[Pair, tuple[str, float]] = {}
    for i, j in itertools.combinations(range(len(bills)), 2):
        both = ~np.isnan(prices[i]) & ~np.isnan(prices[j])
        if int(both.sum()) >= minimum and not (uniform[i] or uniform[j]):
            how = derived_from(prices[i][both], prices[j][both])
            if how is not None:
                linked[(i, j)] = how
    out = []
    for pair, (kind, amount) in few_links(linked, len(bills), section).items():
        said = f"乘以 {amount:.4f}" if kind == "derived_ratio" else f"加上 {amount:.2f} 元"
        detail = f"一家清单的每一项综合单价都是另一家的{said}（逐项一致）：一份清单由另一份推算而来"
        common = [keys[n] for n in np.flatnonzero(~np.isnan(prices[pair[0]]) & ~np.isnan(prices[pair[1]]))]
        found = Signal(
            "bill",
            "supporting",
            kind,
            f"{amount:.4f}" if kind == "derived_ratio" else f"{amount:.2f}",
            detail,
        )
        out.append((pair, _with_rows(found, pair, bills, common, control)))
    return out


def _shaped(priced: _Priced) -> list[tuple[Pair, Signal]]:
    bills, keys, prices, control, section = priced
    """Pairs whose prices over the control prices hug them both, or rise and fall together."""
    controls = np.array([control.get(k) or np.nan for k in keys])
    if np.all(np.isnan(controls)):
        return []
    over = prices / controls
    minimum = section.settings.bill_min_items
    hugging = [i for i, row in enumerate(over) if hugs(row, minimum, section.settings.bill_hug_share)]
    linked: dict[Pair, tuple[str, float]] = {}
    if len(hugging) <= most_holders(len(bills), section.settings):  # more: the section's way of pricing
        linked.update({pair: ("hugging", 0.0) for pair in itertools.combinations(hugging, 2)})
    for i, j in itertools.combinations(range(len(bills)), 2):
        r = correlation(over[i], over[j], minimum)
        if r is not None and r >= section.settings.bill_correlation and (i, j) not in linked:
            linked[(i, j)] = ("unbalanced", r)
    out = []
    for pair, (kind, r) in few_links(linked, len(bills), section).items():
        if kind == "hugging":
            detail = f"两家清单几乎每一项综合单价都在招标控制价的 {HUG[0]:.0%}–{HUG[1]:.0%} 之间"
            value = "98–100%"
        else:
            detail = f"两家清单各项单价相对招标控制价的高低走势一致（相关系数 {r:.2f}）：同一种不平衡报价"
            value = f"{r:.2f}"
        common = [keys[n] for n in np.flatnonzero(~np.isnan(over[pair[0]]) & ~np.isnan(over[pair[1]]))]
        out.append(
            (
                pair,
                _with_rows(Signal("bill", "supporting", kind, value, detail), pair, bills, common, control),
            )
        )
    return out


def _arithmetic(
    bills: Sequence[dict[str, BillItem]], keys: list[str], section: SectionInfo
) -> list[tuple[Pair, Signal]]:
    """Pairs with the same wrong 合价 (not 工程量 × 综合单价) on the same item."""
    told = _telling(bills, {})
    wrong = [
        {k: f"{i.total:.2f}" for k, i in bill.items() if k in mine and _miscounted(i)}
        for bill, mine in zip(bills, told, strict=True)
    ]
    out = []
    for pair, same in _few_alike(wrong, section).items():
        if len(same) < 2:
            continue  # one such total two programs' rounding may give alike
        detail = f"两家清单有 {len(same)} 项合价算错且错得一样（合价不等于工程量 × 综合单价）"
        out.append(
            (
                pair,
                _with_rows(
                    Signal("bill", "supporting", "miscount", f"{len(same)} 项", detail),
                    pair,
                    bills,
                    sorted(same),
                    {},
                ),
            )
        )
    return out


def _miscounted(item: BillItem) -> bool:
    if item.quantity is None or item.unit_price is None or item.total is None:
        return False
    return abs(item.quantity * item.unit_price - item.total) > max(0.011, 1e-4 * abs(item.total))


def _same_resources(bids: Sequence[Ready], section: SectionInfo) -> list[tuple[Pair, Signal]]:
    """Pairs whose 人材机 price lists give the same telling prices, item after item."""
    control = {k: i.unit_price for t in section.tenders for k, i in bill_keys(t.doc.resources).items()}
    lists = [bill_keys(b.doc.resources) for b in bids]
    told = _telling(lists, control)  # as a bill's unit prices: none round, none the control's
    settings = section.settings
    out = []
    for (i, j), same in _few_alike(told, section).items():
        both = len(lists[i].keys() & lists[j].keys() & (told[i].keys() | told[j].keys()))
        share = len(same) / max(both, 1)
        if len(same) < settings.bill_min_same or share < settings.bill_resource_share:
            continue
        detail = (
            f"两家的人材机价格表有 {len(same)} 种人材机的市场价完全相同（双方都列出的 {both} 种中占 "
            f"{share:.0%}；不计整数价、招标控制价所列价格和多家共有的价格）"
        )
        found = Signal("bill", "supporting", "same_resources", f"{share:.0%}", detail)
        out.append(((i, j), _with_rows(found, (i, j), lists, sorted(same), control)))
    return out


def _features_reference(
    bills: Sequence[dict[str, BillItem]], keys: list[str], control: dict[str, BillItem]
) -> dict[str, str]:
    """Each item's 项目特征 as it should read: the control bill's, else the wording most bids give (more
    than half of three or more that word it)."""
    reference = {k: i.features for k, i in control.items() if i.features}
    for key in keys:
        if key in reference:
            continue
        given = [bill[key].features for bill in bills if key in bill and bill[key].features]
        if len(given) >= 3:
            wording, count = Counter(given).most_common(1)[0]
            if count * 2 > len(given):
                reference[key] = wording
    return reference


def _same_features(
    bills: Sequence[dict[str, BillItem]],
    keys: list[str],
    tender: dict[str, BillItem],
    section: SectionInfo,
) -> list[tuple[Pair, Signal]]:
    """Pairs whose bills word items' 项目特征 alike and unlike the tender's bill."""
    control = _control(tender)
    reference = _features_reference(bills, keys, tender)
    off = [
        {
            k: i.features
            for k, i in bill.items()
            if k in reference and i.features and i.features != reference[k]
        }
        for bill in bills
    ]
    out = []
    for pair, same in _few_alike(off, section).items():
        if len(same) < section.settings.bill_min_wording:
            continue
        against = "招标清单" if tender else "多数投标人"
        detail = (
            f"两家清单有 {len(same)} 项的项目特征描述与{against}不同，却彼此一字不差：同一份文件的同一处改动"
        )
        found = Signal("bill", "supporting", "same_features", f"{len(same)} 项", detail)
        signal = _with_rows(found, pair, bills, sorted(same), control)
        rows = tuple(
            replace(row, text=f"两家：{off[pair[0]][k]}；{against}：{reference[k]}")
            for row, k in zip(signal.rows, sorted(same), strict=False)
        )
        out.append((pair, replace(signal, rows=rows)))
    return out
