"""The words and colours a check is shown in, for the CLI, the workbook and the app alike (no Qt here)."""

from __future__ import annotations

import re

from bidcheck.model import (
    BillRow,
    CheckResult,
    Concealed,
    Document,
    LibraryInfo,
    Passage,
    Place,
    Price,
    PublicValue,
    Signal,
)

__all__ = [
    "CONCEALED_KINDS",
    "LEVEL_BADGES",
    "LEVEL_FILLS",
    "LEVEL_NAMES",
    "LEVEL_RANK",
    "PRICE_PATTERN_KINDS",
    "PRICE_UNREAD",
    "SEMANTIC_FILL",
    "SEMANTIC_MARK",
    "SIGNAL_FIELDS",
    "SIGNAL_KINDS",
    "SIGN_PHRASES",
    "STRENGTH_NAMES",
    "bill_row_name",
    "concealed_lines",
    "concealed_summary",
    "heat_rgb",
    "library_line",
    "parts_summary",
    "passage_kind",
    "picture_thumbnails",
    "price_place",
    "price_words",
    "property_time",
    "public_value_line",
    "sign_phrases",
    "signal_line",
]

LEVEL_NAMES: dict[str, str] = {"high": "一级预警", "watch": "二级观察", "none": "无"}
LEVEL_RANK: dict[str, int] = {"high": 0, "watch": 1, "none": 2}  # how pairs are ranked and filtered
LEVEL_FILLS: dict[str, str] = {"high": "F8696B", "watch": "FFD966", "none": "E2EFDA"}  # workbook cells
LEVEL_BADGES: dict[str, str] = {"high": "D9363E", "watch": "E8A317", "none": "9AA5B1"}  # the app's badges
SEMANTIC_FILL = (
    "EFE3FF"  # a rewritten passage (``bidcheck.semantic``), lightly: lavender, not a copy's yellow
)
SEMANTIC_MARK = "7B3FC4"  # its matched sentences, strongly


def passage_kind(passage: Passage) -> str:
    """What a passage is, in words: evidence, tender/template text, common text (text in the register of
    model documents and contracts said so), or text the library has learned is public."""
    if passage.template:
        return "招标文件/模板"
    if passage.public:
        return "公共文字（资料库）"
    if passage.semantic:
        return "语义改写"
    if passage.clause:
        return "范本/合同条款语体"
    return "多家共有" if passage.common else "证据"


def heat_rgb(value: float) -> tuple[int, int, int]:
    """The similarity colour scale: white through yellow to red as the similarity rises."""
    v = min(max(value, 0.0), 1.0)
    green = int(255 - 155 * min(v / 0.3, 1.0))
    blue = int(255 - 255 * min(v / 0.1, 1.0))
    red = 255 if v < 0.3 else int(255 - 55 * min((v - 0.3) / 0.7, 1.0))
    return red, green, blue


# How a pair's reason names a sign (bidcheck.signals): by kind, or by kind.field where a field reads apart.
SIGN_PHRASES: dict[str, str] = {
    "metadata.author": "不同投标人的文件由同一人编辑（{fields}相同）",
    "metadata.last_modified_by": "不同投标人的文件由同一人编辑（{fields}相同）",
    "metadata": "不同投标人的文件属性相同（{fields}）",
    "identical": "不同投标人递交了逐字节完全相同的文件",
    "machine": "不同投标人的文件出自同一电脑、加密锁或账号（{fields}相同，条例第四十条（一））",
    "machine.pdf_id": "不同投标人的文件出自同一 PDF 文件（{fields}相同）",
    "bill": "不同投标人的已标价工程量清单逐项雷同（{fields}）",
    "edit_session": "不同投标人的文件出自同一编辑过程（共有招标文件没有的编辑会话标识）",
    "cross_name": "一家的投标文件中出现另一投标人的名称（混装）",
    "identifier": "不同投标人的文件中出现相同的{fields}",
    "shared_error": "不同投标人的文件有相同的罕见错别字（{fields}）",
    "table_fill": "不同投标人对招标文件表格的填写大量相同（价格、品牌或应答逐行一致）",
    "concealed": "一家文件中隐藏或伪装的文字与另一家的文字相同（{fields}）",
    "image": "不同投标人的文件中有相同的图片",
    "price": "投标报价呈规律性（{fields}）",
}
# What the readers find hidden or disguised in a file (``Document.concealed``), as the panel reads it.
CONCEALED_KINDS: dict[str, str] = {
    "hidden": "隐藏文字",
    "white": "白色文字",
    "tiny": "极小字号文字",
    "invisible": "不可见文字",
    "off_page": "页面外文字",
    "zero_width": "零宽字符",
    "homoglyph": "形近字符替换",
    "comment": "批注",
    "deleted": "修订中删除的文字",
    "inserted": "修订中插入的文字",
}
SIGNAL_KINDS: dict[str, str] = {
    "identical": "同一文件",
    "machine": "同一机器",
    "bill": "清单雷同",
    "metadata": "文档属性",
    "edit_session": "编辑会话",
    "cross_name": "互见名称",
    "identifier": "相同标识",
    "shared_error": "相同错字",
    "table_fill": "表格填写",
    "concealed": "隐藏文字",
    "image": "相同图片",
    "price": "报价规律",
}
SIGNAL_FIELDS: dict[str, str] = {
    "author": "作者",
    "last_modified_by": "最后修改者",
    "company": "单位",
    "manager": "经理",
    "document_id": "文档标识",
    "created": "创建时间",
    "modified": "保存时间",
    "last_printed": "打印时间",
    "producer": "生成程序",
    "same_file": "逐字节相同的文件",
    "same_prices": "综合单价相同",
    "same_buildup": "组价相同",
    "derived_ratio": "单价成固定比例",
    "derived_offset": "单价相差固定金额",
    "hugging": "紧贴招标控制价",
    "unbalanced": "不平衡报价走势一致",
    "miscount": "合价算错相同",
    "same_resources": "人材机市场价相同",
    "same_features": "项目特征描述改动相同",
    "dongle": "加密锁序列号",
    "cpu_mac_disk": "CPU、网卡、硬盘序列号",
    "wps_hdid": "WPS 硬件标识",
    "wps_user": "WPS 账号",
    "wps_icv": "WPS 安装标识",
    "doc_id": "Word 文档标识",
    "doc_var": "Word 文档变量",
    "pdf_id": "PDF 文件标识",
    "bidder": "投标人名称",
    "phone": "电话号码",
    "email": "电子邮箱",
    "id_number": "身份证号",
    "credit_code": "统一社会信用代码",
    "bank_account": "银行账号",
    "certificate": "证书编号",
    "person": "人员姓名",
    "rsid": "编辑会话标识",
    "para_id": "段落标识",
    "misspelling": "错别字",
    "rows": "相同的填写行",
    "homophone": "同音错字",
    "exact": "同一图片",
    "similar": "近似图片",
    "picture": "图片",
    "arithmetic": "等差报价",
    "ratio": "等比报价",
    "close": "报价过于接近",
    "unit_price": "相同单价",
    **CONCEALED_KINDS,
}
STRENGTH_NAMES: dict[str, str] = {"strong": "强", "supporting": "辅助"}
# The kinds of a section's price pattern (``CheckResult.price_patterns``), as the panel reads them.
PRICE_PATTERN_KINDS: dict[str, str] = {"arithmetic": "等差数列", "ratio": "等比数列", "close": "总价几乎相同"}
PRICE_UNREAD = "价格未能读出"


def public_value_line(value: PublicValue) -> str:
    """A value too many bids hold to be a sign, as the summary tells it."""
    field = SIGNAL_FIELDS.get(value.field, value.field)
    if value.elsewhere:
        where = f"资料库中其他标段的 {value.elsewhere} 个投标人也有"
        return f"{field}“{value.value}”出现在 {value.holders} 份投标文件中，{where}，视为公开信息，不计为迹象"
    return f"{field}“{value.value}”出现在 {value.holders} 份投标文件中，视为公开信息，不计为迹象"


def sign_phrases(signals: list[Signal] | tuple[Signal, ...]) -> list[str]:
    """The signs among ``signals`` as a panel reads them, one phrase per sign (fields joined), in order."""
    fields: dict[str, list[str]] = {}
    for signal in signals:
        key = f"{signal.kind}.{signal.field}"
        key = key if key in SIGN_PHRASES else signal.kind
        words = fields.setdefault(SIGN_PHRASES.get(key, signal.kind), [])
        word = SIGNAL_FIELDS.get(signal.field, signal.field)
        if word not in words:
            words.append(word)
    return [phrase.format(fields="、".join(words)) for phrase, words in fields.items()]


def _where(place: Place | None) -> str:
    if place is None:
        return "文件属性"
    if not place.page:  # a file's record (the machine a pricing file was saved on): the record itself
        return place.text
    return f"第 {place.page} 页" + (f"第 {place.paragraph} 段" if place.paragraph else "")  # a picture: page


def signal_line(signal: Signal) -> str:
    """One signal in a line: strength, sign, field, value and where on both sides (``文件属性`` for
    facts of the file), as the app lists a pair's signals."""
    kind = SIGNAL_KINDS.get(signal.kind, signal.kind)
    field = SIGNAL_FIELDS.get(signal.field, signal.field)
    if signal.rows:  # a priced bill's items, listed beside the line
        where = f"{len(signal.rows)} 项并列"
    elif signal.a is None and signal.b is None:
        where = "文件属性"
    else:
        where = f"A {_where(signal.a)} / B {_where(signal.b)}"
    value = signal.a.text if signal.kind == "image" and signal.a else signal.value  # not the digests
    return f"【{STRENGTH_NAMES[signal.strength]}】{kind} · {field}：{value}（{where}）"


def _concealed_place(found: Concealed) -> str:
    return f"{CONCEALED_KINDS.get(found.kind, found.kind)} 第 {found.page} 页第 {found.paragraph} 段"


_PDF_TIME = re.compile(r"D:(\d{4})(\d{2})(\d{2})(\d{2})?(\d{2})?(\d{2})?")


def property_time(value: str) -> str:
    """A document property's time as a panel reads it: ``2026-12-06 17:31:23`` from a PDF date
    (``D:20261206173123Z'``) or a Word one (``2026-12-06T17:31:23Z``); other text as it is."""
    found = _PDF_TIME.match(value.strip())
    if found:
        date = "-".join(found.groups()[:3])
        clock = ":".join(g for g in found.groups()[3:] if g)
        return f"{date} {clock}".strip()
    return value.replace("T", " ").removesuffix("Z") if re.match(r"\d{4}-\d{2}-\d{2}T", value) else value


def parts_summary(doc: Document) -> str:
    """The files of a bidder's folder with the pages each took (or why it could not be read), and the
    notes the readers left, in a line."""
    parts = [
        f"{p.name}（{p.error}）"
        if p.error
        else f"{p.name}（第 {p.first_page}–{p.first_page + p.pages - 1} 页）"
        for p in doc.parts
    ]
    failed = {f"{p.name}：{p.error}" for p in doc.parts if p.error}
    return "；".join(parts + [n for n in doc.notes if n not in failed])


def concealed_summary(found: tuple[Concealed, ...] | list[Concealed]) -> str:
    """A file's concealed text in a line: each finding's kind, place and the start of its text."""
    return "；".join(f"{_concealed_place(c)}“{c.text[:30]}”" for c in found)


def concealed_lines(found: tuple[Concealed, ...] | list[Concealed], text_chars: int = 80) -> list[str]:
    """A file's concealed text one finding a line: its kind, place and text (up to ``text_chars``)."""
    return [
        f"{_concealed_place(c)}：“{c.text[:text_chars]}{'…' if len(c.text) > text_chars else ''}”"
        for c in found
    ]


def picture_thumbnails(result: CheckResult, signal: Signal) -> tuple[bytes, bytes] | None:
    """The thumbnails (PNG) of a picture signal's two pictures, from the result's documents; ``None``
    for another signal, or when the documents do not hold them (a result saved by an older version)."""
    if signal.kind != "image":
        return None
    first, _, second = signal.value.partition("/")
    thumbnails = {p.digest: p.thumbnail for d in result.documents for p in d.pictures}
    pair = (thumbnails.get(first), thumbnails.get(second or first))
    return (pair[0], pair[1]) if pair[0] and pair[1] else None


def price_place(price: Price) -> str:
    """Where a bid's total price was read: ``第 2 页第 4 段``."""
    return f"第 {price.page} 页第 {price.paragraph} 段"


def price_words(doc: Document) -> str:
    """A bid's total price and where it was read, or why it could not be read (nothing for the tender
    and templates, whose prices are not read)."""
    if doc.price is not None:
        return f"{doc.price.total:,.2f} 元（{price_place(doc.price)}）"
    return f"{PRICE_UNREAD}：{doc.price_error}" if doc.price_error else ""


def bill_row_name(row: BillRow) -> str:
    """A bill item's name as shown beside its prices, with the wording both bids share where the sign
    is wording (项目特征)."""
    return f"{row.name}（{row.text}）" if row.text else row.name


def library_line(info: LibraryInfo) -> str:
    """What the library gave the check: what it held, or why it could not be used."""
    if info.error:
        return f"资料库不可用，本次未对照以往标段：{info.error}"
    return f"资料库 {info.path}：对照 {info.sections} 个标段、{info.documents} 份投标文件"
