"""Tables a tender gives and every bid fills in, for the generated sections of ``bench.corpus``.

The tender carries a 工程量清单 (20 priced items with their units and quantities, the price columns
blank), an 开标一览表 and a 技术偏离表; each bid carries them back filled: its own unit prices (the
tender's reference price times its own factor per item), totals, answers and staff. ``same_prices``
makes a second bid use the first one's unit prices: the price sign of collusion.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["BILL_HEADER", "Forms", "filled_forms", "tender_forms", "unit_prices"]

BILL_HEADER = ["序号", "项目名称", "单位", "工程量", "综合单价（元）", "合价（元）"]
_ITEMS = (
    ("挖一般土方", "m3", 38.5),
    ("挖沟槽土方", "m3", 46.2),
    ("回填方", "m3", 22.8),
    ("余方弃置", "m3", 31.0),
    ("C15 混凝土垫层", "m3", 512.0),
    ("C30 混凝土基础", "m3", 640.0),
    ("现浇构件钢筋", "t", 5320.0),
    ("水泥稳定碎石基层", "m2", 68.4),
    ("级配碎石底基层", "m2", 41.7),
    ("沥青混凝土面层", "m2", 96.3),
    ("花岗岩路缘石", "m", 88.0),
    ("人行道块料铺设", "m2", 121.5),
    ("HDPE 双壁波纹管 DN600", "m", 412.0),
    ("钢筋混凝土检查井", "座", 6850.0),
    ("雨水口", "座", 1980.0),
    ("路灯基础", "个", 1560.0),
    ("种植土回填", "m3", 58.0),
    ("模板", "m2", 72.5),
    ("脚手架", "m2", 24.6),
    ("安全文明施工费", "项", 350000.0),
)
_DEVIATION = (
    ("钢筋", "钢筋采用 HRB400 级，有出厂合格证"),
    ("水泥", "水泥采用 P.O 42.5 普通硅酸盐水泥"),
    ("沥青", "面层沥青采用 70 号 A 级道路石油沥青"),
    ("管材", "排水管环刚度不小于 SN8"),
    ("工期", "总工期不超过 365 日历天"),
    ("质保", "缺陷责任期 24 个月"),
)
_BRANDS = ("海螺", "华新", "冀东", "中联", "南方", "金隅", "红狮", "亚泰")
_STEELS = ("沙钢", "马钢", "鞍钢", "首钢", "宝武", "永钢", "中天", "日照")


@dataclass
class Forms:
    """The three tables of one document: rows of cells (the first row the header)."""

    bill: list[list[str]]
    summary: list[list[str]]
    deviation: list[list[str]]


def _quantities(rng: random.Random) -> list[str]:
    return [str(rng.randint(2, 9) * 10 ** rng.randint(1, 3) + rng.randint(0, 99)) for _ in _ITEMS]


def tender_forms(project: str, seed: int) -> tuple[Forms, list[str]]:
    """The tender's frames (price and answer cells blank) and its quantities (the bids need them)."""
    quantities = _quantities(random.Random(seed))
    bill = [BILL_HEADER] + [
        [str(n), name, unit, qty, "", ""]
        for n, ((name, unit, _), qty) in enumerate(zip(_ITEMS, quantities, strict=True), 1)
    ]
    bill.append(["", "合计", "", "", "", ""])
    summary = [["项目名称", project], ["投标总价（元）", ""], ["工期（日历天）", ""], ["项目经理", ""]]
    deviation = [["序号", "招标要求", "投标响应", "偏离情况"]] + [
        [str(n), text, "", ""] for n, (_, text) in enumerate(_DEVIATION, 1)
    ]
    return Forms(bill, summary, deviation), quantities


def unit_prices(rng: random.Random) -> list[float]:
    """A bidder's own unit prices: the reference price of each item times its own factor."""
    return [round(base * rng.uniform(0.86, 1.14), 2) for _, _, base in _ITEMS]


def filled_forms(
    tender: Forms, quantities: list[str], prices: list[float], person: str, rng: random.Random
) -> tuple[Forms, float]:
    """A bid's tables: the tender's frames with its prices, answers and staff filled in; and its total."""
    totals = [round(p * int(q), 2) for p, q in zip(prices, quantities, strict=True)]
    total = round(sum(totals), 2)
    bill = [tender.bill[0]]
    for row, price, amount in zip(tender.bill[1:-1], prices, totals, strict=True):
        bill.append([*row[:4], f"{price:.2f}", f"{amount:.2f}"])
    bill.append(["", "合计", "", "", "", f"{total:.2f}"])
    days = rng.choice((300, 330, 365))
    summary = [
        tender.summary[0],
        ["投标总价（元）", f"{total:.2f}"],
        ["工期（日历天）", str(days)],
        ["项目经理", person],
    ]
    answers = {
        "钢筋": f"采用{rng.choice(_STEELS)} HRB400 钢筋",
        "水泥": f"采用{rng.choice(_BRANDS)} P.O 42.5 水泥",
        "管材": f"环刚度 SN{rng.choice((8, 10, 12))}",
        "工期": f"{days} 日历天",
    }
    deviation = [tender.deviation[0]]
    for row, (key, _) in zip(tender.deviation[1:], _DEVIATION, strict=True):
        deviation.append(
            [row[0], row[1], answers.get(key, "满足"), rng.choice(("无偏离", "无偏离", "正偏离"))]
        )
    return Forms(bill, summary, deviation), total
