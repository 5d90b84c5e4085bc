"""Build the fictional sample tender section in ``resources/sample/``.

Run as ``.venv/bin/python resources/sample/build.py``. It writes the tender, six bids (docx and
pdf alternating) and ``expected.json`` with the findings bidcheck should report:

* 01 / 02, heavy collusion: 02's 施工组织设计 is 01's, disguised by :func:`disguise` (synonyms,
  punctuation, full-width characters, reordered sentences and paragraphs, one sentence added and
  one removed, a shared typo "沉降观侧") plus three paragraphs of 02's own;
* 03 / 04, light collusion: 04 contains two of 03's paragraphs (two punctuation marks changed);
* 05, 06: independent.

Every random choice uses a fixed seed, so the text of every file is reproducible; the docx and pdf
writers also produce byte-identical files on every run.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE)]

import texts  # noqa: E402

from bench.writers import Chapter, write_docx, write_pdf  # noqa: E402

Sections = list[tuple[str, list[str]]]  # editable copy of texts.Section tuples
AnySections = Sequence[tuple[str, Sequence[str]]]

SEED = 20240618


def pairs(text: str) -> dict[str, str]:
    """Parse ``word:synonym`` pairs separated by white space."""
    return dict(pair.split(":", 1) for pair in text.split())


SYNONYMS = pairs(
    """
    我集团:我公司 集团:公司 施工:作业 保证:确保 确保:保证 及时:迅速 检查:检验 措施:办法 人员:员工
    进行:开展 严格:认真 采用:使用 设置:布置 安排:部署 要求:规定 控制:把控 发现:发觉 根据:依据
    必须:务必 方可:才能 立即:马上 每天:每日 严禁:禁止 符合:满足 满足:达到 检测:测试 合格:达标
    现场:工地 开挖:挖掘 材料:物资 全线:全段 较高:偏高 密集:稠密 突出:显著 方面:环节 逐项:逐一
    明确:清晰 解决:处理 原则:思路 优先:率先 分层:逐层 位置:部位 一致:统一 重做:返工 其余:剩余
    参数:指标 铺设:敷设 体系:系统 执行:落实 编制:制定 制定:编制 整改:纠正 巡查:巡视 封闭:围闭
    覆盖:遮盖 避开:错开 详细:周密 分解:细化 增加:增派 按时:如期 影响:干扰 情况:状况 确认:核实
    记录:登记 处理:处置 复测:复核
    """
)
PROTECTED = ("检查井", "施工组织设计", "施工员", "文明施工", "管理人员", "作业人员", "沉降观侧")
SWAP_PROBABILITY = 0.9
PUNCTUATION = {"，": ("；", 0.06), "；": ("，", 0.5), "、": ("，", 0.3)}
FULL_WIDTH_PROBABILITY = 0.35
INSERTED_SENTENCE = "质检员对每道工序的检查结果当天录入质量台账，作为工序验收的依据。"

CN_NUMBERS = "零一二三四五六七八九十"
NUMBERING: dict[str, Callable[[int, str], str]] = {
    "cn": lambda n, t: f"{CN_NUMBERS[n]}、{t}",
    "arabic": lambda n, t: f"{n}. {t}",
    "jie": lambda n, t: f"第{CN_NUMBERS[n]}节 {t}",
    "paren": lambda n, t: f"（{CN_NUMBERS[n]}）{t}",
    "dotted": lambda n, t: f"3.{n} {t}",
}


@dataclass(frozen=True)
class Bidder:
    """One fictional bidder: file name, bid-letter details, response style and document props."""

    file: str
    name: str
    rep: str
    address: str
    phone: str
    date: str
    price_cents: int
    other: str
    requirements: tuple[int, ...]
    intro: str
    reply: str
    numbering: str
    table: tuple[tuple[str, ...], ...]
    props: dict[str, str]


# ---------------------------------------------------------------- amounts in words


def rmb_upper(cents: int) -> str:
    """Write an amount in 大写 as on Chinese bid letters, e.g. 80000000 -> 捌拾万元整."""
    yuan, rest = divmod(cents, 100)
    jiao, fen = divmod(rest, 10)
    text = _yuan_upper(yuan) + "元"
    if not rest:
        return text + "整"
    return text + (_digit(jiao) + "角" if jiao else "零") + (_digit(fen) + "分" if fen else "")


def _digit(d: int) -> str:
    return "零壹贰叁肆伍陆柒捌玖"[d]


def _yuan_upper(n: int) -> str:
    groups: list[int] = []
    while n:
        n, group = divmod(n, 10000)
        groups.append(group)
    text, gap = "", False
    for index in range(len(groups) - 1, -1, -1):
        group = groups[index]
        if not group:
            gap = True
            continue
        if text and (gap or group < 1000):
            text += "零"
        text += _group_upper(group) + ("", "万", "亿")[index]
        gap = False
    return text or "零"


def _group_upper(group: int) -> str:
    text, zero = "", False
    for digit, unit in zip(f"{group:04d}", ("仟", "佰", "拾", ""), strict=True):
        if digit == "0":
            zero = bool(text)
            continue
        text += ("零" if zero else "") + _digit(int(digit)) + unit
        zero = False
    return text


# ---------------------------------------------------------------- heavy collusion (01 -> 02)


def sentences(paragraph: str) -> list[str]:
    """Split a paragraph after every 。 keeping the mark."""
    return [s for s in re.split(r"(?<=。)", paragraph) if s]


def _paragraphs(sections: Sections, title: str) -> list[str]:
    return next(ps for t, ps in sections if t == title)


def _index(paragraphs: list[str], prefix: str) -> int:
    return next(i for i, p in enumerate(paragraphs) if p.startswith(prefix))


def _edit(sections: Sections, title: str, prefix: str, change: Callable[[str], str]) -> None:
    paragraphs = _paragraphs(sections, title)
    i = _index(paragraphs, prefix)
    paragraphs[i] = change(paragraphs[i])


def _shuffle_sentences(paragraph: str, rng: random.Random) -> str:
    parts = sentences(paragraph)
    order = parts[:]
    while order == parts:
        rng.shuffle(order)
    return "".join(order)


def _insert_sentence(paragraph: str, position: int, sentence: str) -> str:
    parts = sentences(paragraph)
    return "".join([*parts[:position], sentence, *parts[position:]])


def _swap_words(text: str, rng: random.Random) -> str:
    """Replace words by synonyms: 我集团/集团 always, others with SWAP_PROBABILITY."""
    for i, term in enumerate(PROTECTED):
        text = text.replace(term, chr(0xE000 + i))
    words = "|".join(re.escape(w) for w in sorted(SYNONYMS, key=len, reverse=True))

    def swap(match: re.Match[str]) -> str:
        word = match.group()
        forced = word.endswith("集团")
        return SYNONYMS[word] if forced or rng.random() < SWAP_PROBABILITY else word

    text = re.sub(words, swap, text)
    for i, term in enumerate(PROTECTED):
        text = text.replace(chr(0xE000 + i), term)
    return text


def _retouch(text: str, rng: random.Random) -> str:
    """Swap some punctuation marks and turn some ASCII letter/digit runs full-width."""
    marks = [PUNCTUATION[c][0] if c in PUNCTUATION and rng.random() < PUNCTUATION[c][1] else c for c in text]

    def widen(match: re.Match[str]) -> str:
        run = match.group()
        if rng.random() >= FULL_WIDTH_PROBABILITY:
            return run
        return "".join(chr(ord(c) + 0xFEE0) for c in run)

    return re.sub(r"[0-9A-Za-z]+", widen, "".join(marks))


def disguise(source: AnySections) -> Sections:
    """Derive bid 02's 施工组织设计 from bid 01's, the way colluders hide a copied text."""
    rng = random.Random(SEED)
    sections: Sections = [(t, list(ps)) for t, ps in source]
    _edit(sections, "主要施工方法", "沟槽开挖", lambda p: "".join(sentences(p)[:-1]))  # (d) delete
    _edit(
        sections, "质量保证措施", "我集团将建立", lambda p: _insert_sentence(p, 1, INSERTED_SENTENCE)
    )  # (d) add
    _edit(sections, "主要施工方法", "检查井采用", lambda p: _shuffle_sentences(p, rng))  # (c) sentence order
    _edit(sections, "安全文明施工", "施工现场全部", lambda p: _shuffle_sentences(p, rng))
    _move(_paragraphs(sections, "主要施工方法"), "软土路基", 0)  # (e) paragraph order
    _move(_paragraphs(sections, "施工部署"), "总体施工顺序", 1)
    sections[3], sections[4] = sections[4], sections[3]  # 质量保证措施 <-> 安全文明施工
    after_crossing = _index(_paragraphs(sections, "主要施工方法"), "对于与新建管道交叉") + 1
    # (b) synonyms, then (a) punctuation and full-width; PROTECTED keeps (f), the typo 沉降观侧, intact
    sections = [(_swap_words(t, rng), [_retouch(_swap_words(p, rng), rng) for p in ps]) for t, ps in sections]
    grid, relocation, winter = texts.HENGXIN_OWN  # 02's own paragraphs, not disguised
    sections[1][1].insert(1, grid)
    sections[2][1].insert(after_crossing, relocation)
    sections.append((texts.HENGXIN_WINTER_TITLE, [winter]))
    return sections


def _move(paragraphs: list[str], prefix: str, position: int) -> None:
    paragraphs.insert(position, paragraphs.pop(_index(paragraphs, prefix)))


# ---------------------------------------------------------------- light collusion (03 -> 04)


def borrow_from_zhonglian() -> Sections:
    """Bid 04's text: its own sections plus two of 03's paragraphs, at other positions."""
    source: Sections = [(t, list(ps)) for t, ps in texts.ZHONGLIAN]
    sections: Sections = [(t, list(ps)) for t, ps in texts.HONGYUAN]
    asphalt = _shared(source, "路基与路面施工", "沥青面层施工前", ("，前后相距", "；前后相距"))
    weather = _shared(
        source, "冬雨季施工与工期安排", "本地区每年", ("随挖随支、随铺随填", "随挖随支，随铺随填")
    )
    _paragraphs(sections, "关键工序施工方案").append(asphalt)
    _paragraphs(sections, "施工进度计划").insert(1, weather)
    return sections


def _shared(source: Sections, title: str, prefix: str, change: tuple[str, str]) -> str:
    paragraphs = _paragraphs(source, title)
    original = paragraphs[_index(paragraphs, prefix)]
    copied = original.replace(*change, 1)
    assert copied != original, change
    return copied


# ---------------------------------------------------------------- documents


def numbered(sections: AnySections, style: str) -> tuple[str, ...]:
    """Flatten sections into paragraphs, each section led by a subheading in the bidder's style."""
    out: list[str] = []
    for n, (title, paragraphs) in enumerate(sections, start=1):
        out += [NUMBERING[style](n, title), *paragraphs]
    return tuple(out)


def bid_letter(values: dict[str, str] | None) -> tuple[str, ...]:
    """The tender's bid-letter template, blank (``None``) or filled with one bidder's values."""
    keys = ("price_words", "price", "days", "quality", "bond_words", "bond", "other", "bidder", "rep")
    blanks = dict.fromkeys((*keys, "address", "phone", "date"), "________")
    return tuple(p.format(**(values or blanks)) for p in texts.BID_LETTER)


def tender_chapters() -> list[Chapter]:
    """The four chapters of the tender document."""
    return [
        Chapter("第一章 投标人须知", texts.NOTICE),
        Chapter("第二章 技术要求", (texts.REQUIREMENTS_INTRO, *texts.REQUIREMENTS)),
        Chapter("第三章 投标函格式", (texts.BID_LETTER_INTRO, *bid_letter(None))),
        Chapter("第四章 评标办法", texts.EVALUATION),
    ]


def bid_chapters(bidder: Bidder, sections: AnySections) -> list[Chapter]:
    """Bid letter, technical response and the bidder's 施工组织设计 (with its table)."""
    letter = bid_letter(
        {
            "price_words": rmb_upper(bidder.price_cents),
            "price": f"{bidder.price_cents / 100:,.2f}",
            "days": "365",
            "quality": "合格",
            "bond_words": rmb_upper(80_000_000),
            "bond": "800,000.00",
            "other": bidder.other,
            "bidder": bidder.name,
            "rep": bidder.rep,
            "address": bidder.address,
            "phone": bidder.phone,
            "date": bidder.date,
        }
    )
    response = [bidder.intro]
    for number in bidder.requirements:
        response += [texts.REQUIREMENTS[number - 1], bidder.reply]
    return [
        Chapter("第一章 投标函", letter),
        Chapter("第二章 技术响应", tuple(response)),
        Chapter("第三章 施工组织设计", numbered(sections, bidder.numbering), bidder.table),
    ]


def table(text: str) -> tuple[tuple[str, ...], ...]:
    """Parse a small table written one row per line, cells separated by ``|``."""
    return tuple(tuple(line.split("|")) for line in text.split())


BIDDERS = (
    Bidder(
        file="01-华东建设集团.docx",
        name="华东建设集团有限公司",
        rep="陈立群",
        address="某市高新区科技大道188号华东大厦",
        phone="0571-88062139",
        date="2024年6月14日",
        price_cents=4_936_821_560,
        other="我方承诺本工程不转包、不违法分包",
        requirements=(1, 4, 6, 7, 9),
        intro="针对招标文件第二章“技术要求”，我集团逐条响应如下：",
        reply="我方完全响应。",
        numbering="cn",
        table=table(
            """
            岗位|姓名|职称|执业资格
            项目经理|张国栋|高级工程师|一级建造师（市政公用工程）
            技术负责人|吴振华|高级工程师|—
            施工员|刘阳|工程师|施工员岗位证书
            质检员|许文静|工程师|质量员岗位证书
            安全员|马骏|助理工程师|安全生产考核合格证书（C证）
            """
        ),
        props={
            "author": "陈立群",
            "last_modified_by": "陈立群",
            "comments": "华东建设集团有限公司 经营部",
            "created": "2024-06-10T09:12:00",
            "modified": "2024-06-14T17:45:00",
        },
    ),
    Bidder(
        file="02-恒信市政工程.pdf",
        name="恒信市政工程有限公司",
        rep="周敏",
        address="某市江北区长兴路66号",
        phone="0571-86953320",
        date="2024年6月14日",
        price_cents=4_971_243_820,
        other="我方承诺按月足额支付农民工工资",
        requirements=(1, 4, 6, 8, 10),
        intro="我公司对招标文件技术要求的响应情况如下：",
        reply="我方完全响应，无偏离。",
        numbering="cn",
        table=table(
            """
            序号|设备名称|型号规格|数量|进场时间
            1|履带式挖掘机|SY215C|6台|开工前
            2|汽车起重机|QY25K5|2台|开工后10天
            3|振动锤|DZ-90|2台|开工后10天
            4|轻型井点设备|真空泵7.5kW|5套|开工前
            5|沥青摊铺机|ABG8820|2台|路面施工前
            """
        ),
        props={"author": "周敏", "subject": f"{texts.SHORT_PROJECT}投标文件", "creator": "恒信市政 经营部"},
    ),
    Bidder(
        file="03-中联路桥.docx",
        name="中联路桥建设有限公司",
        rep="王海涛",
        address="某市经开区创业路9号",
        phone="0571-87330518",
        date="2024年6月15日",
        price_cents=4_810_590_235,
        other="我方承诺拟派项目经理在施工期间常驻现场",
        requirements=(1, 2, 3, 7, 10),
        intro="以下为我公司对招标文件主要技术条款的逐条响应。",
        reply="响应。我公司承诺严格执行本条要求。",
        numbering="arabic",
        table=table(
            """
            职务|姓名|职称|相关经历
            项目经理|周伟强|高级工程师|城市主干路改造3项
            总工程师|黄启明|高级工程师|沥青路面施工12年
            生产副经理|邓华|工程师|市政道路8年
            试验室主任|蒋丽|工程师|公路水运试验检测师
            测量组长|韩冰|助理工程师|工程测量6年
            """
        ),
        props={
            "author": "王海涛",
            "last_modified_by": "刘晓燕",
            "comments": "中联路桥建设有限公司 市场经营部",
            "created": "2024-06-08T10:03:00",
            "modified": "2024-06-15T11:20:00",
        },
    ),
    Bidder(
        file="04-宏远建工.pdf",
        name="宏远建工集团有限公司",
        rep="赵建平",
        address="某市城南区新华路318号",
        phone="0571-85127746",
        date="2024年6月16日",
        price_cents=5_022_671_480,
        other="我方同意招标文件中的全部合同条款",
        requirements=(2, 4, 5, 9),
        intro="本公司已认真阅读招标文件第二章技术要求，响应如下：",
        reply="完全响应，无任何偏离。",
        numbering="jie",
        table=table(
            """
            序号|机械名称|型号|数量|状况
            1|挖掘机|CAT320GC|8台|良好
            2|汽车吊|XCT25|3台|良好
            3|振动锤|DZJ-120|2台|良好
            4|沥青摊铺机|S1800-3|2台|良好
            5|铣刨机|W200|1台|良好
            """
        ),
        props={"author": "赵建平", "subject": "投标文件（第二标段）", "creator": "宏远建工 投标中心"},
    ),
    Bidder(
        file="05-清源水务工程.docx",
        name="清源水务工程有限公司",
        rep="孙雅琴",
        address="某市滨江新区望江路27号",
        phone="0571-86610952",
        date="2024年6月13日",
        price_cents=4_789_356_000,
        other="无",
        requirements=(4, 5, 6, 8, 10),
        intro="我司对招标文件技术要求逐条作出响应，具体如下：",
        reply="我司对本条要求予以完全响应。",
        numbering="paren",
        table=table(
            """
            岗位|姓名|职称或证书
            项目经理|林志远|一级建造师（市政公用工程）
            技术负责人|郑雪梅|高级工程师（给排水）
            管道工程师|潘晓东|工程师
            有限空间监护员|钱峰|有限空间作业培训合格证
            专职安全员|谢丽娜|安全生产考核合格证书（C证）
            """
        ),
        props={
            "author": "孙雅琴",
            "last_modified_by": "孙雅琴",
            "comments": "清源水务工程有限公司 投标中心",
            "created": "2024-06-05T14:30:00",
            "modified": "2024-06-13T09:05:00",
        },
    ),
    Bidder(
        file="06-金石城建.pdf",
        name="金石城市建设有限公司",
        rep="何俊",
        address="某市西湖路500号金石中心",
        phone="0571-89021475",
        date="2024年6月17日",
        price_cents=5_104_238_745,
        other="我方承诺严格遵守招标文件关于安全文明施工的全部要求",
        requirements=(1, 3, 7, 8, 9),
        intro="技术条款响应（按招标文件第二章条款顺序）：",
        reply="满足要求。正偏离：无；负偏离：无。",
        numbering="dotted",
        table=table(
            """
            序号|设备|规格型号|数量
            1|挖掘机|PC220-8|7台
            2|小型挖掘机|SY60C|4台
            3|水泥搅拌桩机|PH-5A|4台
            4|汽车吊|QY16|2台
            5|胶轮压路机|XP303|2台
            """
        ),
        props={"author": "何俊", "subject": "滨江新区第二标段 投标文件", "creator": "金石城建 经营部"},
    ),
)


def write(path: Path, title: str, header: str, chapters: list[Chapter], props: dict[str, str]) -> None:
    """Write a docx or pdf according to the file extension."""
    writer = write_docx if path.suffix == ".docx" else write_pdf
    writer(path, title=title, header=header, chapters=chapters, props=props)


def main() -> None:
    """Write tender, bids and expected.json, then print what was written."""
    tender = HERE / "tender" / "招标文件.docx"
    tender_props = {
        "author": "李明",
        "last_modified_by": "李明",
        "comments": "某市公信工程咨询有限公司",
        "created": "2024-05-20T08:30:00",
        "modified": "2024-05-27T16:10:00",
    }
    cover = texts.PROJECT.replace("工程施工", "工程\n施工")
    write(tender, f"{cover}\n招标文件", f"{texts.PROJECT} 招标文件", tender_chapters(), tender_props)
    originals = {
        "01": texts.HUADONG,
        "02": disguise(texts.HUADONG),
        "03": texts.ZHONGLIAN,
        "04": borrow_from_zhonglian(),
        "05": texts.QINGYUAN,
        "06": texts.JINSHI,
    }
    for bidder in BIDDERS:
        title = f"{cover}\n投标文件\n投标人：{bidder.name}"
        header = f"{texts.SHORT_PROJECT} 投标文件 — {bidder.name}"
        path = HERE / "bids" / bidder.file
        write(path, title, header, bid_chapters(bidder, originals[bidder.file[:2]]), bidder.props)
    files = [b.file for b in BIDDERS]
    expected = {
        "tender": "tender/招标文件.docx",
        "bids": files,
        "pairs": [
            {"a": files[0], "b": files[1], "level": "high"},
            {"a": files[2], "b": files[3], "level": ["watch", "high"]},
        ],
        "default_level": "none",
    }
    (HERE / "expected.json").write_text(json.dumps(expected, ensure_ascii=False, indent=2) + "\n", "utf-8")
    for path in [tender, *(HERE / "bids" / f for f in files)]:
        print(f"{path.relative_to(HERE)}  {path.stat().st_size / 1024:.1f} KB")


if __name__ == "__main__":
    main()
