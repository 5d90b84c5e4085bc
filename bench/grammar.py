"""Chinese construction-bid prose from a small grammar, and the edits colluders make to copied text.

Every bidder gets its own random stream, so two bidders' texts share words and stock phrases (as real
bids of one trade do) but not sentences. The synonym table is what a copier reaches for to disguise a
copy; the edits are the obfuscations the detection benchmark plants.
"""

from __future__ import annotations

import functools
import importlib.util
import itertools
import random
import re
from pathlib import Path

import rjieba

__all__ = [
    "EDITS",
    "SYNONYMS",
    "edit_block",
    "lexicon_paragraph",
    "mixed_paragraph",
    "paragraph",
    "sentence",
    "split_sentences",
]

_SUBJECTS = (
    "项目经理部",
    "项目部",
    "技术负责人",
    "专职质检员",
    "专职安全员",
    "施工班组",
    "测量组",
    "试验室",
    "材料员",
    "机械管理员",
    "生产经理",
    "资料员",
    "各作业队",
    "现场工程师",
    "安全生产领导小组",
)
_VERBS = (
    "检查",
    "组织",
    "落实",
    "控制",
    "复核",
    "记录",
    "协调",
    "编制",
    "审核",
    "巡查",
    "整改",
    "验收",
    "监测",
    "培训",
    "调配",
    "保养",
    "标定",
    "清理",
    "加固",
    "覆盖",
)
_OBJECTS = (
    "沟槽边坡",
    "管道接口",
    "钢筋骨架",
    "模板支撑体系",
    "沥青摊铺温度",
    "检查井砌筑质量",
    "回填土压实度",
    "临时用电线路",
    "夜间照明设施",
    "裸露土方",
    "降水井点",
    "路基弯沉值",
    "混凝土坍落度",
    "测量控制网",
    "交通导改标志",
    "进场材料台账",
    "机械保养记录",
    "雨季排水沟",
    "水稳基层养生",
    "井盖高程",
    "施工便道",
    "围挡及警示灯",
    "消防器材",
    "地下管线位置",
    "技术交底记录",
    "隐蔽工程资料",
    "分包队伍资质",
    "特种作业人员证件",
    "应急物资储备",
    "扬尘在线监测数据",
)
_TIMES = (
    "每日开工前",
    "每周一",
    "每道工序完成后",
    "雨后",
    "浇筑前",
    "隐蔽前",
    "节假日前",
    "夜间施工期间",
    "汛期来临前",
    "开工前",
    "交接班时",
    "每月月底",
    "摊铺过程中",
    "回填前",
    "竣工前",
)
_RESULTS = (
    "并形成书面记录",
    "发现问题限期整改",
    "确保满足设计及规范要求",
    "报监理工程师确认后方可进入下道工序",
    "同时留存影像资料备查",
    "不合格的一律返工处理",
    "检查结果纳入月度考核",
    "及时上报项目经理",
    "建立问题销项清单",
    "做到工完场清",
    "确保施工安全可控",
    "避免对周边居民造成影响",
    "确保工期节点按时完成",
    "保证数据真实可追溯",
)
_METHODS = (
    "分层分段流水作业",
    "机械开挖配合人工清底",
    "钢板桩支护",
    "轻型井点降水",
    "厂拌法集中拌和",
    "两台摊铺机梯队作业",
    "顶管穿越",
    "分幅施工",
    "跳仓浇筑",
    "预制装配",
)
_GOALS = (
    "工程质量一次验收合格",
    "安全生产零事故",
    "按期完成节点工期",
    "文明施工达标",
    "周边管线安全",
    "交通通行顺畅",
    "扬尘排放达标",
)
_PROBLEMS = (
    "软土路基沉降",
    "地下水位较高",
    "交通流量大",
    "既有管线密集",
    "雨季施工",
    "夜间施工扰民",
    "工期紧任务重",
    "作业面狭窄",
)
_UNITS = ("厘米", "毫米", "米", "小时", "天", "摄氏度")

SYNONYMS: dict[str, tuple[str, ...]] = {
    "检查": ("检验", "查验"),
    "组织": ("安排",),
    "落实": ("执行",),
    "控制": ("管控",),
    "复核": ("核对",),
    "记录": ("登记",),
    "协调": ("沟通",),
    "编制": ("制定",),
    "审核": ("审查",),
    "巡查": ("巡视",),
    "整改": ("修正",),
    "监测": ("观测",),
    "培训": ("教育",),
    "调配": ("调度",),
    "清理": ("清除",),
    "及时": ("迅速",),
    "立即": ("马上",),
    "严格": ("认真",),
    "确保": ("保证",),
    "保证": ("确保",),
    "发现": ("查出",),
    "问题": ("隐患",),
    "施工": ("作业",),
    "措施": ("办法",),
    "人员": ("员工",),
    "材料": ("物资",),
    "机械": ("设备",),
    "现场": ("工地",),
    "项目部": ("项目经理部",),
    "要求": ("规定",),
    "书面": ("文字",),
    "形成": ("做成",),
    "进入": ("转入",),
    "下道": ("下一道",),
    "工序": ("环节",),
    "采用": ("采取",),
    "同时": ("并且",),
    "避免": ("防止",),
    "周边": ("附近",),
    "居民": ("住户",),
    "影响": ("干扰",),
    "完成": ("做完",),
    "按时": ("如期",),
    "数据": ("资料",),
    "真实": ("准确",),
    "工程": ("项目",),
    "每日": ("每天",),
    "每周": ("每星期",),
    "每月": ("每个月",),
    "前": ("之前",),
    "方可": ("才能",),
    "一律": ("全部",),
    "处理": ("处置",),
    "纳入": ("列入",),
    "考核": ("评比",),
    "上报": ("报告",),
    "建立": ("设立",),
    "清单": ("台账",),
    "安全": ("安全生产",),
    "可控": ("受控",),
    "质量": ("品质",),
    "规范": ("标准",),
    "设计": ("图纸",),
    "确认": ("认可",),
    "留存": ("保存",),
    "影像": ("照片",),
    "备查": ("待查",),
    "返工": ("重做",),
    "不合格": ("不达标",),
    "结果": ("情况",),
    "对": ("针对",),
    "进行": ("开展",),
    "重点": ("关键",),
    "因此": ("所以",),
    "针对": ("对于",),
    "本工程": ("本项目",),
    "具有": ("存在",),
    "较大": ("较高",),
    "加强": ("强化",),
    "配合": ("结合",),
}
_TYPOS = (("测", "侧"), ("的", "得"), ("做", "作"), ("象", "像"), ("部", "步"), ("制", "治"))


def _number(rng: random.Random) -> str:
    return f"{rng.choice((2, 3, 5, 8, 10, 12, 15, 20, 24, 30, 48, 50))}{rng.choice(_UNITS)}"


def sentence(rng: random.Random) -> str:
    """One sentence of construction-plan prose."""
    c = rng.choice
    forms = (
        lambda: f"{c(_TIMES)}由{c(_SUBJECTS)}{c(_VERBS)}{c(_OBJECTS)}和{c(_OBJECTS)}，{c(_RESULTS)}。",
        lambda: (
            f"{c(_OBJECTS)}{c(_VERBS)}完成后，{c(_SUBJECTS)}应及时{c(_VERBS)}{c(_OBJECTS)}，{c(_RESULTS)}。"
        ),
        lambda: f"针对{c(_PROBLEMS)}的特点，{c(_SUBJECTS)}采用{c(_METHODS)}的方法，{c(_RESULTS)}。",
        lambda: f"{c(_OBJECTS)}施工采用{c(_METHODS)}，间隔不超过{_number(rng)}，{c(_RESULTS)}。",
        lambda: f"{c(_SUBJECTS)}{c(_TIMES)}对{c(_OBJECTS)}进行{c(_VERBS)}，发现问题立即{c(_VERBS)}。",
        lambda: f"为确保{c(_GOALS)}，{c(_SUBJECTS)}严格{c(_VERBS)}{c(_OBJECTS)}并{c(_VERBS)}{c(_OBJECTS)}。",
        lambda: f"本工程{c(_PROBLEMS)}问题较为突出，因此将{c(_OBJECTS)}作为{c(_VERBS)}重点，{c(_RESULTS)}。",
        lambda: f"{c(_OBJECTS)}的偏差控制在{_number(rng)}以内，由{c(_SUBJECTS)}{c(_TIMES)}{c(_VERBS)}。",
    )
    return c(forms)()


def paragraph(rng: random.Random, sentences: tuple[int, int] = (4, 7)) -> str:
    """A paragraph of several sentences."""
    return "".join(sentence(rng) for _ in range(rng.randint(*sentences)))


def split_sentences(text: str) -> list[str]:
    """The sentences of a paragraph, each with its closing mark."""
    return [s for s in re.findall(r"[^。！？；]*[。！？；]", text) if s] or [text]


_FULL_WIDTH = {code: code + 0xFEE0 for code in range(0x21, 0x7F)}


def _punctuation_and_width(text: str, rng: random.Random) -> str:
    out = []
    for char in text:
        if char == "，" and rng.random() < 0.4:
            out.append(rng.choice(("；", "、", ", ")))
        elif char.isascii() and char.isalnum() and rng.random() < 0.6:
            out.append(char.translate(_FULL_WIDTH))
        else:
            out.append(char)
    return "".join(out).replace("。", "。 ", 1)


def _synonyms(text: str, rng: random.Random, share: float) -> str:
    words = rjieba.cut(text, False)
    swappable = [i for i, w in enumerate(words) if w in SYNONYMS]
    wanted = min(len(swappable), round(share * sum(1 for w in words if w.isalnum())))
    for i in rng.sample(swappable, wanted):
        words[i] = rng.choice(SYNONYMS[words[i]])
    return "".join(words)


def _reorder_sentences(text: str, rng: random.Random) -> str:
    parts = split_sentences(text)
    original = list(parts)
    while len(parts) > 1 and parts == original:
        rng.shuffle(parts)
    return "".join(parts)


def _typo(text: str, rng: random.Random) -> str:
    for right, wrong in rng.sample(_TYPOS, len(_TYPOS)):
        if right in text:
            return text.replace(right, wrong, 1)
    return text


def edit_block(paras: list[str], kind: str, rng: random.Random) -> tuple[list[str], list[str]]:
    """Apply an obfuscation to a copied block: (source as it stands in the original, target's copy).

    The source changes only for ``typo``: the original carries the typo, and the copy shares it.
    """
    if kind == "verbatim":
        return paras, list(paras)
    if kind == "typo":
        source = [_typo(paras[0], rng), *paras[1:]]
        return source, list(source)
    if kind == "punctuation":
        return paras, [_punctuation_and_width(p, rng) for p in paras]
    if kind.startswith("synonyms"):
        share = float(kind.split("-")[1]) / 100
        return paras, [_synonyms(p, rng, share) for p in paras]
    if kind == "sentence_order":
        return paras, [_reorder_sentences(p, rng) for p in paras]
    if kind == "insert_delete":
        return paras, _insert_and_delete(paras, rng)
    if kind == "paragraph_order":
        copy = list(paras)
        while len(copy) > 1 and copy == paras:
            rng.shuffle(copy)
        return paras, copy
    if kind == "mixture":
        mixed = [_reorder_sentences(_synonyms(_punctuation_and_width(p, rng), rng, 0.15), rng) for p in paras]
        return paras, mixed
    raise ValueError(f"unknown edit {kind!r}")


def _insert_and_delete(paras: list[str], rng: random.Random) -> list[str]:
    """A sentence inserted into every other paragraph, one deleted from the rest (inside, not at an end:
    a copy that drops its last sentence is simply a shorter copy)."""
    out = []
    for index, para in enumerate(paras):
        parts = split_sentences(para)
        if index % 2 == 0 and len(parts) > 1:
            parts.insert(rng.randint(1, len(parts) - 1), sentence(rng))
        elif len(parts) > 2:
            del parts[rng.randint(1, len(parts) - 2)]
        out.append("".join(parts))
    return out


EDITS = (
    "verbatim",
    "punctuation",
    "synonyms-10",
    "synonyms-20",
    "synonyms-30",
    "sentence_order",
    "insert_delete",
    "paragraph_order",
    "typo",
    "mixture",
)


@functools.cache
def _lexicon() -> tuple[list[str], list[float]]:
    """jieba's dictionary of Chinese words with their corpus frequencies (shipped with jieba)."""
    path = Path(importlib.util.find_spec("jieba").origin).parent / "dict.txt"  # type: ignore[arg-type, union-attr]
    words, weights = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        word, freq, *_ = line.split(" ")
        if all("\u4e00" <= ch <= "\u9fff" for ch in word):
            words.append(word)
            weights.append(float(freq) ** 0.75)
    return words, list(itertools.accumulate(weights))


def lexicon_paragraph(rng: random.Random, sentences: tuple[int, int] = (4, 7)) -> str:
    """A paragraph of words drawn from the language's own word frequencies: prose as varied as real
    bids (unlike the grammar, whose frames repeat), for measuring speed on long documents."""
    return "".join(_lexicon_sentence(rng) for _ in range(rng.randint(*sentences)))


def _lexicon_sentence(rng: random.Random) -> str:
    words, cumulative = _lexicon()
    picked = rng.choices(words, cum_weights=cumulative, k=rng.randint(8, 18))
    picked[rng.randint(2, len(picked) - 2)] += "，"
    return "".join(picked) + "。"


def mixed_paragraph(rng: random.Random, sentences: tuple[int, int] = (4, 7)) -> str:
    """A paragraph of the grammar's sentences and the lexicon's in turn: a plan's stock phrasing run
    through with words of the bidder's own. Long bids of the grammar alone repeat its frames (at
    100,000 characters a bid most of a paragraph's sentences stand in other bids too, which no pair's
    copy makes evidence); the lexicon alone has no phrase of the trade."""
    count = rng.randint(*sentences)
    return "".join(sentence(rng) if n % 2 == 0 else _lexicon_sentence(rng) for n in range(count))
