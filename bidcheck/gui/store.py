"""A saved check (``bidcheck.check/1``): the section's files, the result and the bids' texts (no Qt here).

The file is JSON::

    {"schema": "bidcheck.check/1", "name": "第二标段",
     "files": [{"path": "/abs/01-甲.docx", "relative": "bids/01-甲.docx", "role": "bid"}, ...],
     "result": {... bidcheck.result/1 ...} or null,
     "texts": {"d1": {"text": "...", "block_starts": [...], "pages": [...], "paragraphs": [...]}}}

The clean texts are saved with the result so that a check reopens with its whole-document evidence view
on a PC that does not hold the bid files (an evaluation panel's). A plain result JSON
(``bidcheck check --json``) opens too: its files are listed from its documents and their texts are read
again from the files (see ``texts.py``).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bidcheck.model import SCHEMA as RESULT_SCHEMA
from bidcheck.model import CheckResult, Role, result_from_dict, result_to_dict
from bidcheck.report.files import write_atomically
from bidcheck.review import Review, reviews_from_dict, reviews_to_dict
from bidcheck.text.chars import utf8

from .texts import DocText, doc_text_from_dict, doc_text_to_dict

__all__ = ["CHECK_SCHEMA", "CHECK_SUFFIX", "SavedCheck", "SectionFile", "load_check", "save_check"]

CHECK_SCHEMA = "bidcheck.check/1"
CHECK_SUFFIX = ".bidcheck"
ROLES: tuple[Role, ...] = ("bid", "tender", "template")


@dataclass(frozen=True)
class SectionFile:
    """A file of the section and its role."""

    path: Path
    role: Role = "bid"


@dataclass(frozen=True)
class SavedCheck:
    """A check as the window holds it: name, files, and the result once it has run."""

    name: str = ""
    files: tuple[SectionFile, ...] = ()
    result: CheckResult | None = None
    texts: Mapping[str, DocText] = field(default_factory=dict)
    reviews: Mapping[str, Review] = field(default_factory=dict)  # the panel's marks, by pair_key


def _file_to_dict(item: SectionFile, folder: Path) -> dict[str, str]:
    out = {"path": str(item.path.absolute()), "role": item.role}
    with contextlib.suppress(ValueError):  # no relative path to another drive on Windows
        out["relative"] = Path(os.path.relpath(item.path.absolute(), folder.absolute())).as_posix()
    return out


def _file_from_dict(data: Mapping[str, Any], folder: Path) -> SectionFile:
    path = Path(str(data["path"]))
    relative = data.get("relative")
    if not path.exists() and relative and (folder / relative).exists():
        path = (folder / relative).resolve()  # the section's folder was moved along with the check file
    role = data.get("role", "bid")
    if role not in ROLES:
        raise ValueError(f"未知的角色 {role!r}")
    return SectionFile(path, role)


def check_to_dict(check: SavedCheck, folder: Path) -> dict[str, Any]:
    """A check as its JSON object; relative paths are taken from ``folder`` (where the file goes)."""
    return {
        "schema": CHECK_SCHEMA,
        "name": check.name,
        "files": [_file_to_dict(f, folder) for f in check.files],
        "result": result_to_dict(check.result) if check.result else None,
        "texts": {doc_id: doc_text_to_dict(t) for doc_id, t in sorted(check.texts.items())},
        "reviews": reviews_to_dict(check.reviews),
    }


def check_from_dict(data: Mapping[str, Any], folder: Path) -> SavedCheck:
    """A check from a ``bidcheck.check/1`` or ``bidcheck.result/1`` object; ``ValueError`` if neither."""
    if data.get("schema") == RESULT_SCHEMA:
        result = result_from_dict(dict(data))
        files = tuple(SectionFile(Path(d.path), d.role) for d in result.documents)
        return SavedCheck("", _unique(files), result, {})
    if data.get("schema") != CHECK_SCHEMA:
        raise ValueError(f"不是 bidcheck 的检查或结果文件（schema {data.get('schema')!r}）")
    saved_result = result_from_dict(data["result"]) if data.get("result") else None
    texts = {str(k): doc_text_from_dict(v) for k, v in (data.get("texts") or {}).items()}
    files = tuple(_file_from_dict(f, folder) for f in data["files"])
    reviews = reviews_from_dict(data.get("reviews"))
    return SavedCheck(str(data.get("name", "")), files, saved_result, texts, reviews)


def _unique(files: tuple[SectionFile, ...]) -> tuple[SectionFile, ...]:
    seen: set[Path] = set()
    out = []
    for item in files:
        if item.path not in seen:
            seen.add(item.path)
            out.append(item)
    return tuple(out)


def save_check(check: SavedCheck, path: Path) -> None:
    """Write a check to ``path`` (atomically; UTF-8, a path's lone surrogate as �)."""
    data = utf8(json.dumps(check_to_dict(check, path.parent), ensure_ascii=False, indent=1))

    def write(temp: Path) -> None:
        temp.write_bytes(data)

    write_atomically(path, write)


def load_check(path: Path) -> SavedCheck:
    """Read a saved check or a result JSON; raises ``ValueError`` (in words for the user) or ``OSError``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:  # also UnicodeDecodeError
        raise ValueError(f"{path.name} 不是 bidcheck 的检查或结果文件") from exc
    if not isinstance(data, dict):
        raise ValueError(f"{path.name} 不是 bidcheck 的检查或结果文件")
    try:
        return check_from_dict(data, path.parent)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"{path.name} 已损坏，无法打开（{type(exc).__name__}: {exc}）") from exc
