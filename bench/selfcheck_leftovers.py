"""Leftovers of another company's file in one bid: what the self-check finds in the Word file and in its
PDF export, with no tender given.

The bid (a real .docx) is the bidder's own text and forms, with six leftovers planted: another company's
name in a sentence; a row of the staff table left from that company (its 技术负责人, his certificate
number and mobile, the company's name in the row); the consultant as the file's author; a paragraph the
consultant inserted with changes tracked. Two things that are the bidder's own must raise nothing: the
last editor is the 项目经理's Windows account in pinyin (``wangjh`` for 王建华), and the bid letter's
addressee (致：…) and the 招标代理机构 it names. The Word file is self-checked, then its PDF export
(LibreOffice), where a tracked insertion is plain printed text and cannot be told. Prints each leftover
found or missed, and any finding on the bidder's own.

Usage: .venv/bin/python -m bench.selfcheck_leftovers
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from docx import Document as new_docx
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from bench.grammar import paragraph
from bidcheck.config import Settings
from bidcheck.ingest.office import convert, find_soffice
from bidcheck.selfcheck import SelfCheckInputs, self_check

BIDDER = "江苏华东建设集团有限公司"
OTHER = "南京恒信市政工程有限公司"
INSERTED = "本工程质量目标为合格，争创省级优质工程，并确保安全文明施工标准化工地。"
LEFTOVERS = {  # what each planted leftover is found as: (part, value)
    "another company in a sentence": ("foreign", OTHER),
    "the other company's person in the staff table": ("foreign", "赵志远"),
    "his certificate in the staff table": ("foreign", "苏1322019998888"),
    "his mobile in the staff table": ("foreign", "13912345678"),
    "the consultant as author": ("properties", "刘顾问"),
    "text the consultant inserted (tracked)": ("concealed", INSERTED),
}
OWN = {"wangjh", "某市滨江新区城市建设发展有限公司", "临江工程咨询有限公司", "王建华", "13800001111"}


def write_bid(path: Path) -> Path:
    """The bid with its leftovers, as a Word file."""
    import random

    rng = random.Random(7)
    document = new_docx()
    lines = [
        "投标函",
        "致：某市滨江新区城市建设发展有限公司",
        f"投标人：{BIDDER}（盖单位章）",
        "项目经理：王建华",
        "招标代理机构：临江工程咨询有限公司。",
        *(paragraph(rng) for _ in range(6)),
        f"本项目的深基坑专项方案由{OTHER}提供技术支持。",
        *(paragraph(rng) for _ in range(4)),
    ]
    for text in lines:
        document.add_paragraph(text)
    rows = [
        ("职务", "姓名", "证书编号", "联系电话", "所在单位"),
        ("项目经理", "王建华", "苏1322011201234", "13800001111", BIDDER),
        ("技术负责人", "赵志远", "苏1322019998888", "13912345678", OTHER),
    ]
    table = document.add_table(rows=len(rows), cols=len(rows[0]))
    for line, values in zip(table.rows, rows, strict=True):
        for cell, value in zip(line.cells, values, strict=True):
            cell.text = value
    para = document.add_paragraph()
    para._p.append(
        parse_xml(
            f'<w:ins {nsdecls("w")} w:id="9" w:author="刘顾问" w:date="2026-01-01T00:00:00Z">'
            f"<w:r><w:t>{INSERTED}</w:t></w:r></w:ins>"
        )
    )
    for _ in range(3):
        document.add_paragraph(paragraph(rng))
    document.core_properties.author, document.core_properties.last_modified_by = "刘顾问", "wangjh"
    document.save(str(path))
    return path


def _report(label: str, path: Path) -> None:
    result = self_check(SelfCheckInputs(path, bidder=BIDDER), Settings(workers=1))
    found = {(f.part, f.value) for f in result.findings}
    hits = [name for name, key in LEFTOVERS.items() if key in found]
    print(f"{label}: {len(hits)} of {len(LEFTOVERS)} leftovers found")
    for name in LEFTOVERS:
        print(f"  {'found ' if name in hits else 'MISSED'} {name}")
    own = [f"{f.part} {f.value}" for f in result.findings if f.value in OWN]
    print(f"  findings on the bidder's own: {own or 'none'}")


def main() -> None:
    print(
        f"command: {' '.join([Path(sys.executable).name, '-m', 'bench.selfcheck_leftovers', *sys.argv[1:]])}"
    )
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        bid = write_bid(folder / "投标文件.docx")
        _report("Word", bid)
        soffice = find_soffice()
        if soffice is None:
            print("PDF: LibreOffice is not installed, no export")
            return
        _report("PDF export", convert(bid, soffice, folder / "pdf", "pdf"))


if __name__ == "__main__":
    main()
