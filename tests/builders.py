"""Builders of real test inputs: Chinese text, .docx and .pdf files (text and image-only)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from docx import Document as new_docx
from docx.enum.text import WD_BREAK
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

# PDFs embed one named TrueType font, so that a page renders (and OCR reads it) alike on every machine:
# a font the PDF only names is drawn with whatever CJK font the machine has. `make test` installs it.
FONT_FILE = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
FONT_PACKAGE = "fonts-wqy-microhei"
FONT = "WenQuanYiMicroHei"

# Common characters of construction bids; words are drawn from them at random so that two texts made
# from different seeds share no run of five characters by chance, as two independently written bids.
_CHARS = (
    "工程施工质量安全管理技术措施材料设备人员组织计划进度控制检查验收标准规范要求现场临时用电"
    "排水管道路基层面沥青混凝土钢筋模板支撑沟槽开挖回填压实测量放线交通导改环境保护文明节能"
    "监理建设单位项目经理部负责制度责任落实培训教育交底记录资料档案整理报送审批变更签证协调"
    "机械车辆运输堆放仓库采购进场复试见证取样试验检测合格不合格整改复查考核奖罚预案应急演练"
    "雨季冬季夜间高温防汛防台风降水井点边坡稳定监测沉降位移观测数据分析报告会议例会周月年度"
    "分包劳务班组工人实名工资支付保险医疗急救消防器材灭火通道围挡警示标志照明噪声扬尘洒水覆盖"
    "清扫垃圾弃土外运车辆冲洗污水沉淀循环利用绿化恢复原状移交保修回访服务承诺优良一次通过"
)


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(_CHARS) for _ in range(rng.choice((1, 2, 2, 2, 3, 4))))


def sentence(rng: random.Random) -> str:
    """One sentence of 8 to 14 random words with a comma or two."""
    words = [_word(rng) for _ in range(rng.randint(8, 14))]
    for _ in range(rng.randint(1, 2)):
        words[rng.randint(2, len(words) - 2)] += "，"
    return "".join(words) + "。"


def paragraph(rng: random.Random, sentences: int = 4) -> str:
    """A paragraph of several sentences."""
    return "".join(sentence(rng) for _ in range(sentences))


def paragraphs(seed: int, count: int, sentences: int = 4) -> list[str]:
    """``count`` paragraphs of text unique to ``seed``."""
    rng = random.Random(seed)
    return [paragraph(rng, sentences) for _ in range(count)]


def make_docx(path: Path, pages: list[list[str]], *, header: str | None = None, author: str = "") -> Path:
    """A .docx with one list of paragraphs per page, separated by explicit page breaks."""
    document = new_docx()
    for number, page in enumerate(pages):
        for index, text in enumerate(page):
            para = document.add_paragraph()
            if number and index == 0:
                para.add_run().add_break(WD_BREAK.PAGE)
            para.add_run(text)
    if header is not None:
        document.sections[0].header.paragraphs[0].text = header
    document.core_properties.author = author
    document.save(str(path))
    return path


@cache
def pdf_font() -> str:
    """The name of the embedded CJK font, registered with reportlab on first use."""
    if not FONT_FILE.is_file():
        raise FileNotFoundError(
            f"the test PDFs embed the font {FONT_FILE}, which is missing: install {FONT_PACKAGE} "
            f"(`make test` does so as root, or: sudo apt-get install {FONT_PACKAGE})"
        )
    pdfmetrics.registerFont(TTFont(FONT, str(FONT_FILE), subfontIndex=0))
    return FONT


def _wrap(text: str, width: int) -> list[str]:
    return [text[i : i + width] for i in range(0, len(text), width)] or [""]


def make_pdf(
    path: Path,
    pages: list[list[str]],
    *,
    header: str | None = None,
    numbers: bool = True,
    author: str = "",
    password: str | None = None,
    created: str | None = None,
) -> Path:
    """A text PDF: paragraphs wrapped at 38 characters, an optional header and page numbers; ``created``
    (a PDF date, ``D:20250520140307``) its creation and modification time instead of ReportLab's fixed
    default."""
    font = pdf_font()
    encrypt = None
    if password:
        from reportlab.lib.pdfencrypt import StandardEncryption

        encrypt = StandardEncryption(password, canPrint=1)
    canvas = Canvas(str(path), pagesize=A4, invariant=1, encrypt=encrypt)
    canvas.setAuthor(author)
    if created:
        canvas.setDateFormatter(lambda *_: created)
    for number, page in enumerate(pages, start=1):
        canvas.setFont(font, 11)
        if header:
            canvas.drawString(72, 800, header)
        y = 770.0
        for text in page:
            for line_no, line in enumerate(_wrap(text, 38)):
                canvas.drawString(72 + (22 if line_no == 0 else 0), y, line)
                y -= 16
            y -= 10
        if numbers:
            canvas.drawString(260, 40, f"第 {number} 页 共 {len(pages)} 页")
        canvas.showPage()
    canvas.save()
    return path


def draw_prose(canvas: Canvas, texts: list[str], y: float, width: int = 40) -> float:
    """Paragraphs drawn on a page from the left margin, ``width`` characters a line, from ``y`` down;
    where the next line would stand."""
    for text in texts:
        for start in range(0, len(text), width):
            canvas.drawString(60, y, text[start : start + width])
            y -= 16
    return y


def make_image_pdf(path: Path, pages: int = 2) -> Path:
    """A PDF whose pages carry only a drawn image-like shape and no text layer (as a scan has)."""
    canvas = Canvas(str(path), pagesize=A4, invariant=1)
    for _ in range(pages):
        canvas.setFillGray(0.3)
        canvas.rect(72, 400, 400, 300, fill=1)
        canvas.showPage()
    canvas.save()
    return path
