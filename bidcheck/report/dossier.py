"""The Word dossier a panel can file (``bidcheck check … --docx OUT.docx``, the app's 导出 Word 报告).

In Chinese, on A4 with the section in the header and 第 X 页 共 Y 页 in the footer: the section and who
ran the check; the conclusion first (groups, then each raised pair in a line); then each 一级预警 pair,
and the 二级观察 pairs up to a bound, with every finding mapped to its clause (``statutes``) and marked
认定级 or 线索级, the shared passages side by side with pages and paragraphs, each sign's both places,
and for a PDF bid the passage on its page, highlighted (``page_crops``); what was left out (tender and
template text, values many bids hold, public text, whitelisted machines); the method, the settings
that differ from the defaults and the limits ("未发现不代表不存在串通"); every input file with its
size, pages and SHA-256; the program's version; the statute texts cited.
"""

from __future__ import annotations

import datetime as dt
import errno
import functools
import getpass
import hashlib
import io
import itertools
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from docx.document import Document as DocxDocument
from docx.shared import Cm

from bidcheck import __version__
from bidcheck.config import Settings, changed_settings
from bidcheck.ingest.errors import ReadError
from bidcheck.ingest.office import convert, find_soffice
from bidcheck.model import CheckResult, Document, Group, PairResult
from bidcheck.report.docx_parts import add_table, new_document_for
from bidcheck.report.files import write_atomically
from bidcheck.report.page_crops import passage_crop
from bidcheck.report.statutes import ARTICLES, Ground, ground_of_passages, ground_of_pattern, ground_of_signal
from bidcheck.review import REVIEW_STATES, Review, Reviews, group_review_of, review_of
from bidcheck.text.chars import replace_unsafe
from bidcheck.words import (
    LEVEL_NAMES,
    bill_row_name,
    library_line,
    picture_thumbnails,
    public_value_line,
    signal_line,
)

__all__ = ["PDF_NEEDS_LIBREOFFICE", "save_docx", "write_docx", "write_pdf"]

_WATCH_SHOWN = 30  # 二级观察 pairs given a section of their own; the others are listed in the conclusion
_HIGH_SHOWN = 100  # 一级预警 pairs so given (a section of 100 bids may raise more; all are listed)
_PICTURES_IN_ALL = 40  # pictures in the whole dossier: its size and time stay bounded
_PASSAGES_SHOWN = 12  # passages of a pair quoted
_QUOTE = 160  # characters of a passage quoted on each side
_PICTURES = 2  # pages pictured per pair
_BILL_ROWS = 20  # items of a bill signal set side by side


@dataclass(frozen=True)
class _Marks:
    """The panel's marks on the pairs and groups, and whether the dossier holds the 已核实 ones alone."""

    reviews: Reviews
    confirmed_only: bool

    def of(self, result: CheckResult, pair: PairResult) -> Review | None:
        return review_of(self.reviews, result, pair)

    def of_group(self, result: CheckResult, group: Group) -> Review | None:
        return group_review_of(self.reviews, result, group)

    def shown(self, result: CheckResult, pair: PairResult) -> bool:
        return not self.confirmed_only or _confirmed(self.of(result, pair))

    def group_shown(self, result: CheckResult, group: Group) -> bool:
        return not self.confirmed_only or _confirmed(self.of_group(result, group))


def _confirmed(review: Review | None) -> bool:
    return review is not None and review.state == "confirmed"


def write_docx(
    result: CheckResult,
    path: Path,
    section: str = "",
    procurement: bool = False,
    reviews: Reviews | None = None,
    confirmed_only: bool = False,
) -> None:
    """Write the dossier for a check result to ``path`` (atomically), with the panel's marks; with
    ``confirmed_only``, of the groups and pairs it marked 已核实 alone."""
    marks = _Marks(reviews or {}, confirmed_only)
    write_atomically(
        path, functools.partial(save_docx, result, section=section, procurement=procurement, marks=marks)
    )


def write_pdf(
    result: CheckResult,
    path: Path,
    section: str = "",
    procurement: bool = False,
    reviews: Reviews | None = None,
    confirmed_only: bool = False,
) -> None:
    """The dossier as PDF (written as Word, converted by LibreOffice), written atomically.

    Raises:
        OSError: LibreOffice is not installed, or the conversion failed (its reason in words).
    """
    soffice = find_soffice()
    if soffice is None:
        raise OSError(errno.ENOENT, PDF_NEEDS_LIBREOFFICE)
    with tempfile.TemporaryDirectory(prefix="bidcheck-dossier-") as folder:
        work = Path(folder)
        write_docx(result, work / "dossier.docx", section, procurement, reviews, confirmed_only)
        try:
            made = convert(work / "dossier.docx", soffice, work / "convert", "pdf")
        except ReadError as exc:
            raise OSError(errno.EIO, f"转换为 PDF 失败：{exc}") from exc
        write_atomically(path, functools.partial(_copy, made))


def _copy(source: Path, target: Path) -> None:
    target.write_bytes(source.read_bytes())


PDF_NEEDS_LIBREOFFICE = (
    "写 PDF 报告需要 LibreOffice（Debian/Ubuntu：sudo apt-get install libreoffice-writer-nogui）"
)


def save_docx(
    result: CheckResult,
    target: Path,
    section: str = "",
    procurement: bool = False,
    marks: _Marks | None = None,
) -> None:
    """Write the dossier to ``target``."""
    marks = marks or _Marks({}, False)
    section = replace_unsafe(section)  # a folder's name in undecoded bytes, a control character
    doc = new_document_for(section or "未命名标段")
    names = {d.id: d.name for d in result.documents}
    _cover(doc, result, section)
    if marks.confirmed_only:
        doc.add_paragraph("本报告只收录评标委员会已核实的疑似串标组和文件对。")
    _conclusion(doc, result, names, marks)
    _evidence(doc, result, names, procurement, marks)
    _exclusions(doc, result)
    _method(doc, result)
    _files(doc, result)
    _appendix(doc, procurement)
    doc.save(str(target))


def _cover(doc: DocxDocument, result: CheckResult, section: str) -> None:
    doc.add_heading("围标串标检查报告", 0)
    tenders = [d.name for d in result.documents if d.role == "tender"] or ["未提供"]
    rows = [
        ("标段", section or "未命名标段"),
        ("招标文件", "、".join(tenders)),
        ("投标文件", f"{len(result.bids)} 份（可读 {sum(d.ok for d in result.bids)} 份）"),
        ("报告生成时间", dt.datetime.now().strftime("%Y-%m-%d %H:%M")),
        ("检查人", _user()),
        ("程序", f"bidcheck {__version__}"),
    ]
    add_table(doc, ("项目", "内容"), rows, (3.0, 13.6))


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "未知"


def _conclusion(doc: DocxDocument, result: CheckResult, names: dict[str, str], marks: _Marks) -> None:
    doc.add_heading("一、结论", 1)
    counts = {level: sum(p.level == level for p in result.pairs) for level in ("high", "watch", "none")}
    doc.add_paragraph(
        f"共比对 {len(result.pairs)} 对投标文件：一级预警 {counts['high']} 对，"
        f"二级观察 {counts['watch']} 对，未发现 {counts['none']} 对。未发现不代表不存在串通。"
    )
    for n, group in enumerate(result.groups, 1):
        if marks.group_shown(result, group):
            members = "、".join(names[m] for m in group.members)
            line = f"疑似串标组 {n}：{members}（共有 {group.passages} 段、{group.chars} 字）"
            doc.add_paragraph(line + _review_words(marks.of_group(result, group)), "List Number")
    if not marks.confirmed_only:  # price patterns carry no mark
        for pattern in result.price_patterns:
            doc.add_paragraph(
                f"报价规律：{pattern.detail}（{ground_of_pattern().cite()}，线索级）", "List Bullet"
            )
    raised = (p for p in result.pairs if marks.confirmed_only or p.level != "none")
    for pair in (p for p in raised if marks.shown(result, p)):
        line = f"{LEVEL_NAMES[pair.level]}　{names[pair.a]} ↔ {names[pair.b]}：{pair.reason}"
        doc.add_paragraph(line + _review_words(marks.of(result, pair)), "List Bullet")


def _review_words(review: Review | None) -> str:
    if review is None or (review.state == "pending" and not review.note):
        return ""
    note = f"：{replace_unsafe(review.note)}" if review.note else ""
    return f"【评标委员会：{REVIEW_STATES[review.state]}{note}】"


def _raised(result: CheckResult, marks: _Marks) -> list[PairResult]:
    """The pairs given a section of their own: the confirmed ones alone (at any level) when only those
    are asked for; else the 一级预警 pairs and the first 二级观察 ones, up to a bound each."""
    if marks.confirmed_only:
        return [p for p in result.pairs if marks.shown(result, p)]
    high = [p for p in result.pairs if p.level == "high"][:_HIGH_SHOWN]
    return high + [p for p in result.pairs if p.level == "watch"][:_WATCH_SHOWN]


def _evidence(
    doc: DocxDocument, result: CheckResult, names: dict[str, str], procurement: bool, marks: _Marks
) -> None:
    doc.add_heading("二、逐对证据", 1)
    raised = _raised(result, marks)
    if not raised:
        doc.add_paragraph("没有达到一级预警或二级观察的文件对。")
    pictures = _PICTURES_IN_ALL
    documents = {d.id: d for d in result.documents}
    for n, pair in enumerate(raised, 1):
        doc.add_heading(f"{n}．{names[pair.a]} ↔ {names[pair.b]}（{LEVEL_NAMES[pair.level]}）", 2)
        doc.add_paragraph(pair.reason + _review_words(marks.of(result, pair)))
        _findings(doc, pair, procurement)
        _bill_rows(doc, pair)
        _passages(doc, pair)
        pictures -= _pictures(doc, result, pair, (documents[pair.a], documents[pair.b]), pictures)


def _findings(doc: DocxDocument, pair: PairResult, procurement: bool) -> None:
    rows: list[tuple[str, str, str]] = []
    live = [p for p in pair.passages if p.live]
    if live:
        ground = ground_of_passages()
        chars = sum(p.chars for p in live)
        rows.append(
            (
                ground.cite(procurement),
                ground.grade,
                f"{len(live)} 段共同文字，共 {chars} 字（不计招标文件和公共文字）",
            )
        )
    for signal in pair.signals:
        sign: Ground = ground_of_signal(signal)
        rows.append((sign.cite(procurement), sign.grade, signal_line(signal) + "；" + signal.detail))
    if rows:
        add_table(doc, ("依据条款", "级别", "发现"), rows, (3.6, 1.6, 11.4))


def _bill_rows(doc: DocxDocument, pair: PairResult) -> None:
    """A bill signal's items side by side (the first of them; all are in the workbook's 清单比对)."""
    for signal in (s for s in pair.signals if s.rows):
        shown = signal.rows[:_BILL_ROWS]
        more = (
            f"，其余 {len(signal.rows) - len(shown)} 项见 Excel 报告的“清单比对”表"
            if len(signal.rows) > len(shown)
            else ""
        )
        doc.add_paragraph(f"清单逐项并列（{len(shown)} 项{more}）：")
        rows = [(r.code, bill_row_name(r), r.unit, _yuan(r.a), _yuan(r.b), _yuan(r.control)) for r in shown]
        add_table(
            doc,
            ("项目编码", "项目名称", "单位", "A 综合单价", "B 综合单价", "招标控制价"),
            rows,
            (2.8, 4.4, 1.2, 2.7, 2.7, 2.8),
            9,
        )


def _yuan(value: float | None) -> str:
    return f"{value:,.2f}" if value is not None else "—"


def _passages(doc: DocxDocument, pair: PairResult) -> None:
    live = [p for p in pair.passages if p.live][:_PASSAGES_SHOWN]
    if not live:
        return
    doc.add_paragraph(f"共同段落（前 {len(live)} 段；双方原文并列，页码与段落为各自文件中的位置）：")
    rows = [
        (
            n,
            f"第 {p.a.page} 页第 {p.a.paragraph} 段",
            _quote(p.a.text),
            f"第 {p.b.page} 页第 {p.b.paragraph} 段",
            _quote(p.b.text),
        )
        for n, p in enumerate(live, 1)
    ]
    add_table(doc, ("#", "A 位置", "A 原文", "B 位置", "B 原文"), rows, (0.8, 1.9, 6.0, 1.9, 6.0), 9)


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _QUOTE else text[:_QUOTE] + "…"


def _pictures(
    doc: DocxDocument, result: CheckResult, pair: PairResult, docs: tuple[Document, Document], left: int
) -> int:
    """The evidence as the bids print it: the first passages (or located signs) on their PDF pages,
    highlighted, and the pictures both bids hold; at most ``left`` (the dossier's bound); how many."""
    shown = 0
    for caption, picture, page in itertools.islice(
        _evidence_pictures(result, pair, docs), min(_PICTURES, left)
    ):
        doc.add_paragraph(caption)
        doc.add_picture(io.BytesIO(picture), width=Cm(15 if page else 6))
        shown += 1
    return shown


def _evidence_pictures(
    result: CheckResult, pair: PairResult, docs: tuple[Document, Document]
) -> Iterator[tuple[str, bytes, bool]]:
    places = [(p.a.page, p.a.text, p.b.page, p.b.text) for p in pair.passages if p.live]
    places += [
        (s.a.page, s.a.text, s.b.page, s.b.text)
        for s in pair.signals
        if s.a and s.b and s.a.page and s.b.page
    ]
    for a_page, a_text, b_page, b_text in places:
        for bid, page, text in ((docs[0], a_page, a_text), (docs[1], b_page, b_text)):
            crop = passage_crop(bid, page, text)
            if crop is not None:
                yield f"证据图：{bid.name} 第 {page} 页（黄色为共同内容的开头）", crop, True
    for signal in pair.signals:
        thumbnails = picture_thumbnails(result, signal)
        if thumbnails:
            yield (
                f"相同图片：左为 {docs[0].name} 中的，右为 {docs[1].name} 中的",
                _side_by_side(*thumbnails),
                False,
            )


def _side_by_side(left: bytes, right: bytes) -> bytes:
    """Two thumbnails in one picture, a gap between them."""
    from PIL import Image

    images = [Image.open(io.BytesIO(data)).convert("RGB") for data in (left, right)]
    height = max(i.height for i in images)
    joined = Image.new("RGB", (images[0].width + images[1].width + 16, height), "white")
    joined.paste(images[0], (0, 0))
    joined.paste(images[1], (images[0].width + 16, 0))
    out = io.BytesIO()
    joined.save(out, "PNG")
    return out.getvalue()


def _exclusions(doc: DocxDocument, result: CheckResult) -> None:
    doc.add_heading("三、已排除的内容", 1)
    flagged = [p for pair in result.pairs for p in pair.passages if not p.live]
    template = sum(p.template for p in flagged)
    common = sum(p.common and not p.template for p in flagged)
    public = sum(p.public for p in flagged)
    lines = [
        f"招标文件和模板中的文字（投标人照填照抄）：{template} 段，不计入。",
        f"多家投标文件共有的公共文字：{common} 段，不计入。",
        f"资料库中其他标段也有的公开文字：{public} 段，不计入。",
    ]
    lines += [public_value_line(v) + "。" for v in result.public_values[:20]]
    whitelist = str(result.settings.get("machine_whitelist", "")).strip()
    if whitelist:
        lines.append(f"设置中列出的公用电脑和加密锁（不计为迹象）：{whitelist}。")
    for line in lines:
        doc.add_paragraph(line, "List Bullet")


def _method(doc: DocxDocument, result: CheckResult) -> None:
    doc.add_heading("四、方法与局限", 1)
    doc.add_paragraph(
        "逐对比对投标文件的正文、表格和文本框文字，去除招标文件、模板和多家共有的文字后计算共同文字；"
        "另查文档属性、同一电脑与加密锁记录、互见名称、相同联系方式与人员、相同错别字、表格填写、隐藏文字、"
        "相同图片、报价规律和已标价工程量清单。扫描件经文字识别后比对，识别错误可能使少量共同文字漏检。"
        "未发现不代表不存在串通；各项发现需由评标委员会结合其他情况认定。"
    )
    if result.library is not None:
        doc.add_paragraph(library_line(result.library) + "。")
    changed = _changed_settings(result.settings)
    if changed:
        doc.add_paragraph("与默认值不同的设置：")
        add_table(doc, ("设置", "本次取值", "默认值"), changed, (6.0, 5.3, 5.3), 9)
    else:
        doc.add_paragraph("全部设置均为默认值。")


def _changed_settings(used: dict[str, object]) -> list[tuple[str, str, str]]:
    """The settings that differ from the defaults and shape the method (not the PC's: workers, memory,
    the library's place, the cache), each with its value and its default."""
    defaults = Settings().to_dict()
    skip = {"workers", "worker_memory_mb", "library_path", "cache_max_mb"}
    return [(key, str(value), str(defaults[key])) for key, value in changed_settings(used) if key not in skip]


def _files(doc: DocxDocument, result: CheckResult) -> None:
    doc.add_heading("五、文件清单", 1)
    rows = []
    roles = {"bid": "投标", "tender": "招标文件", "template": "模板"}
    for d in result.documents:
        for name, path in _file_paths(d):
            size, digest = _digest(path)
            rows.append((name, roles[d.role], d.pages if d.ok else d.error or "", size, digest))
    add_table(doc, ("文件", "角色", "页数", "大小（字节）", "SHA-256"), rows, (4.2, 1.5, 1.2, 2.0, 7.7), 7.5)
    doc.add_paragraph(
        f"程序版本：bidcheck {__version__}。同一程序版本与设置对同一批文件的检查结果可重复得到。"
    )


def _file_paths(d: Document) -> list[tuple[str, Path]]:
    """The files a document was read from: a bidder's folder's files, or its own."""
    if d.parts:
        return [(f"{d.name}/{p.name}", Path(d.path) / p.name) for p in d.parts]
    return [(d.name, Path(d.path))]


def _digest(path: Path) -> tuple[str, str]:
    """A file's size and SHA-256 now (the file may have moved or changed since it was checked); none for
    what is no regular file (a pipe would wait, a device never end)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return "", "（不是普通文件，未读取）"
        with path.open("rb") as handle:
            digest = hashlib.file_digest(handle, "sha256").hexdigest()
        return f"{path.stat().st_size:,}", digest
    except OSError:
        return "", "（文件已不在原处）"


def _appendix(doc: DocxDocument, procurement: bool) -> None:
    doc.add_heading("附录：引用的条文", 1)
    for key in ("条例第四十条", *(("办法第三十七条",) if procurement else ())):
        lead, clauses = ARTICLES[key]
        doc.add_paragraph(lead)
        for clause in clauses:
            doc.add_paragraph(clause)
