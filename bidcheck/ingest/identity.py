"""The identities a Word, WPS or PDF file carries of the machine, the account or the file it was saved from.

WPS writes ``docProps/custom.xml``'s ``KSOTemplateDocerSaveRecord``: base64 JSON whose ``hdid`` is a
hardware id of the PC and ``userId`` the WPS account that saved the file; ``ICV`` an id of the
installation. Word keeps the document's id in ``settings.xml`` (``w15:docId``, ``w14:docId``): a copy
saved under another name keeps it; and the variables a template or a bid-writing program stamps into it
(``w:docVars``), of which those that are ids say whose file it began as. A PDF's trailer ``/ID`` holds
two ids: the first is set when the file is made and stays when it is edited and saved again, the second
changes with each save. A value a program writes into every file it makes (python-docx's template,
ReportLab's reproducible output) is nobody's and is left out here.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Mapping
from pathlib import Path

from lxml import etree

from bidcheck.model import Mark

__all__ = ["TOOL_DEFAULTS", "office_marks", "pdf_marks"]

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
_W15 = "http://schemas.microsoft.com/office/word/2012/wordml"
_DOC_IDS = (f"{{{_W15}}}docId", f"{{{_W14}}}docId")
# Ids every file a program makes carries: python-docx's template's w14:docId, ReportLab's invariant /ID.
TOOL_DEFAULTS = frozenset({"24062061", "1C178198FBDFA51B25995D89D4102043"})
_ID_LIKE = re.compile(r"[0-9A-Za-z{}_-]{16,200}")
_EMPTY = frozenset({"", "0", "NULL", "NONE", "UNDEFINED", "00000000"})
_PDF_ID = re.compile(rb"/ID\s*\[\s*<([0-9A-Fa-f\s]{8,128})>\s*<([0-9A-Fa-f\s]{8,128})>\s*\]")
_REPRODUCIBLE_TIME = "D:20000101000000"  # ReportLab's invariant mode (and others') creation time
_PDF_TAIL = 1 << 16  # the trailer stands in the last bytes (a linearized file's first one near the start)


def office_marks(parts: Mapping[str, etree._Element], file: str) -> tuple[Mark, ...]:
    """The WPS and Word identities of a ``.docx`` package's parts (``docProps/custom.xml``,
    ``word/settings.xml``)."""
    marks = list(_wps_marks(_custom_properties(parts.get("docProps/custom.xml")), file))
    settings = parts.get("word/settings.xml")
    if settings is not None:
        marks += _doc_vars(settings, file)
        for tag in _DOC_IDS:
            node = settings.find(tag)
            namespace = etree.QName(tag).namespace
            value = _cleaned(str(node.get(f"{{{namespace}}}val") or "") if node is not None else "")
            if value:
                marks.append(Mark("doc_id", value, file, record=f"Word 文档标识 {value}"))
                break
    return tuple(marks)


def _doc_vars(settings: etree._Element, file: str) -> list[Mark]:
    """Document variables (``w:docVars``) whose value is an id (16 letters and digits or more, both):
    what a template or a bid-writing program stamps into the file; a short value says nothing."""
    marks = []
    for var in settings.iterfind(f"{{{_W}}}docVars/{{{_W}}}docVar"):
        name, value = str(var.get(f"{{{_W}}}name") or ""), str(var.get(f"{{{_W}}}val") or "").strip()
        if _ID_LIKE.fullmatch(value) and re.search(r"\d", value) and re.search(r"[A-Za-z]", value):
            marks.append(Mark("doc_var", f"{name}={value}", file, record=f"文档变量 {name} = {value}"))
    return marks


def _custom_properties(custom: etree._Element | None) -> dict[str, str]:
    """The custom document properties by name: the text of each property's value element."""
    if custom is None:
        return {}
    found: dict[str, str] = {}
    for prop in custom:
        name = str(prop.get("name") or "")
        value = "".join(prop.itertext()).strip()
        if name and value:
            found[name] = value
    return found


def _wps_marks(properties: dict[str, str], file: str) -> list[Mark]:
    record = _save_record(properties.get("KSOTemplateDocerSaveRecord", ""))
    marks: list[Mark] = []
    for key, field, word in (("hdid", "wps_hdid", "WPS 硬件标识"), ("userId", "wps_user", "WPS 账号")):
        value = _cleaned(str(record.get(key, "")))
        if value:
            marks.append(Mark(field, value, file, record=f"{word} {value}"))
    icv = _cleaned(properties.get("ICV", ""))
    if icv:
        marks.append(Mark("wps_icv", icv, file, record=f"WPS 安装标识（ICV）{icv}"))
    return marks


def _save_record(text: str) -> dict[str, object]:
    """WPS's save record: base64 of a JSON object (``{}`` when it is not one)."""
    if not text:
        return {}
    try:
        decoded = json.loads(base64.b64decode(text + "=" * (-len(text) % 4)).decode("utf-8"))
    except (binascii.Error, ValueError):
        return {}
    return decoded if isinstance(decoded, dict) else {}


def _cleaned(value: str) -> str:
    """An id as compared: its characters stripped and upper-cased; ``""`` for an empty or default one."""
    text = re.sub(r"[\s{}]", "", value).upper()
    return "" if text in _EMPTY or text in TOOL_DEFAULTS or len(text) > 200 else text


def pdf_marks(path: Path, file: str, created: str = "") -> tuple[Mark, ...]:
    """A PDF's permanent id (``pdf_id``) and its id with the save's (``pdf_version``: the same file,
    unchanged), from the last trailer that gives them; none when the file has none, or when it was
    made in a program's reproducible mode (``created`` at its fixed time: the id is then a hash of the
    program's fixed inputs, the same for unrelated files)."""
    if created.startswith(_REPRODUCIBLE_TIME):
        return ()
    try:
        with path.open("rb") as handle:
            head = handle.read(_PDF_TAIL)
            size = handle.seek(0, 2)
            handle.seek(max(0, size - _PDF_TAIL))
            tail = handle.read(_PDF_TAIL)
    except OSError:
        return ()
    found = _PDF_ID.findall(tail) or _PDF_ID.findall(head)
    if not found:
        return ()
    first, second = (_cleaned(re.sub(rb"\s", b"", v).decode("ascii")) for v in found[-1])
    if not first:
        return ()
    record = f"PDF 文件标识 {first}（本次保存 {second or '无'}）"
    version = Mark("pdf_version", f"{first}/{second}", file, record=record)
    return (Mark("pdf_id", first, file, record=record), version)
