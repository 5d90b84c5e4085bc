"""The library on the command line: ``check --library/--section`` and ``bidcheck library ...``.

The library and the checker are imported by the functions that use them, so that defining the command
line (every start of ``bidcheck``) loads neither.
"""

from __future__ import annotations

import argparse
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bidcheck.config import Settings
from bidcheck.progress import no_progress

if TYPE_CHECKING:
    from bidcheck.library import Library
    from bidcheck.model import CheckResult

__all__ = [
    "add_library_commands",
    "check_options",
    "library_command",
    "library_path",
    "library_summary",
    "library_wanted",
    "section_name",
    "write_json_atomically",
]


def check_options(parser: argparse.ArgumentParser) -> None:
    """``check``'s library options."""
    parser.add_argument("--library", type=Path, metavar="FILE", help="资料库文件（对照以往标段并存入本标段）")
    parser.add_argument("--section", metavar="NAME", help="本标段在资料库中的名称")


def library_path(args: argparse.Namespace, settings: Settings) -> Path:
    """``--library``, else the setting ``library_path``, else the default place."""
    from bidcheck.library import default_library_path

    if getattr(args, "library", None):
        return Path(args.library)
    return Path(settings.library_path) if settings.library_path else default_library_path()


def library_wanted(args: argparse.Namespace, settings: Settings) -> Path | None:
    """The library a check uses, when ``--library``, ``--section`` or the setting ``library_path`` asks
    for one."""
    if not (args.library or args.section or settings.library_path):
        return None
    return library_path(args, settings)


def section_name(args: argparse.Namespace) -> str:
    """The section's name in the library: ``--section``, else the one folder checked, else the first file."""
    if args.section:
        return str(args.section)
    first = Path(args.paths[0])
    return first.resolve().name or str(first)


def library_summary(result: CheckResult, section: str, stored: bool, stream: TextIO) -> None:
    """The library's lines of the summary: what it held, and each bid's history."""
    from bidcheck.words import library_line

    info = result.library
    if info is None:
        return
    if info.error:
        stream.write(library_line(info) + "\n")
        return
    names = {d.id: d.name for d in result.documents}
    for doc_id, matches in result.history.items():
        for m in matches:
            kind = "自有模板" if m.own_template else "以往标段"
            stream.write(
                f"{kind}  {names[doc_id]} ↔ {m.section} / {m.document}  {m.chars} 字（{m.similarity:.1%}），"
                f"{len(m.passages)} 段\n"
            )
    note = f"；本标段已存入（{section}）" if stored else ""
    stream.write(f"{library_line(info)}{note}\n")


def add_library_commands(commands: argparse._SubParsersAction[Any]) -> None:
    """``bidcheck library list|show|remove|rename|stats|add|add-template|groups|export|import``."""
    lib = commands.add_parser("library", help="资料库：以往检查过的标段")
    lib.add_argument("--library", type=Path, metavar="FILE", help="资料库文件")
    lib.add_argument("--settings", type=Path, metavar="FILE", help="设置文件（JSON）")
    verbs = lib.add_subparsers(dest="verb", required=True, parser_class=type(lib))
    verbs.add_parser("list", help="列出标段")
    verbs.add_parser("show", help="标段的文件与预警").add_argument(
        "section", metavar="SECTION", help="标段名称"
    )
    verbs.add_parser("remove", help="删除标段").add_argument("section", metavar="SECTION", help="标段名称")
    rename = verbs.add_parser("rename", help="给标段改名")
    rename.add_argument("section", metavar="SECTION", help="现在的标段名称")
    rename.add_argument("new", metavar="NEW", help="新的标段名称")
    verbs.add_parser("stats", help="统计")
    add = verbs.add_parser("add", help="存入一个标段（不出报告）")
    add.add_argument("paths", nargs="+", type=Path, metavar="DIR", help="标段的投标文件或文件夹")
    add.add_argument("--section", required=True, metavar="NAME", help="存入资料库时的标段名称")
    add.add_argument("--tender", action="append", type=Path, default=[], metavar="FILE", help="招标文件")
    templ = verbs.add_parser("add-template", help="存入范本文件（每次检查都作为模板）")
    templ.add_argument("files", nargs="+", type=Path, metavar="FILE", help="范本文件")
    templ.add_argument("--name", metavar="NAME", help="这组范本的名称")
    groups = verbs.add_parser("groups", help="整份相同或几乎相同的投标文件分堆（SimHash）")
    groups.add_argument("--hamming", type=int, choices=range(8), metavar="BITS")  # default: groups.HAMMING
    groups.add_argument("--json", type=Path, metavar="OUT", help="把分堆写入 JSON 文件")
    verbs.add_parser("export", help="导出到文件").add_argument(
        "file", type=Path, metavar="FILE", help="导出的文件"
    )
    verbs.add_parser("import", help="从文件导入").add_argument(
        "file", type=Path, metavar="FILE", help="导入的文件"
    )
    for verb in verbs.choices.values():  # after the verb too: ``library list --library X``
        verb.add_argument(
            "--library", type=Path, metavar="FILE", default=argparse.SUPPRESS, help="资料库文件"
        )


def library_command(args: argparse.Namespace, settings: Settings, stdout: TextIO) -> int:
    """Run one library verb: 0 done, 1 a file could not be read (``add``, ``add-template``), 2 no such
    section or no such file to add or import; ``UnwritablePath`` for an output that cannot take the
    file, ``LibraryError`` when the library (or the one imported) cannot be used."""
    from bidcheck.library import open_library

    path = library_path(args, settings)
    if args.verb in _READING and not path.exists():  # a mistyped path is said, not made a new library
        stdout.write(f"资料库 {path} 不存在（还没有存入过标段，或路径有误）\n")
        return 2
    library = open_library(path, read_only=args.verb in _LOOKING)
    try:
        verb: Callable[[Library, argparse.Namespace, Settings, TextIO], int] = _VERBS[args.verb]
        return verb(library, args, settings, stdout)
    finally:
        library.close()


def _list(library: Library, _args: argparse.Namespace, _s: Settings, out: TextIO) -> int:
    for row in library.sections():
        kind, files = ("范本", "份范本文件") if row.kind == "templates" else ("标段", "份投标文件")
        out.write(f"{row.checked}  {kind}  {row.name}  {row.files} {files}  {'、'.join(row.bidders)}\n")
    return 0


def _show(library: Library, args: argparse.Namespace, _s: Settings, out: TextIO) -> int:
    files = library.section_files(args.section)
    if not files:
        out.write(f"资料库中没有标段 {args.section}\n")
        return 2
    from bidcheck.words import LEVEL_NAMES

    roles = {"bid": "投标文件", "tender": "招标文件", "template": "模板文件"}
    for name, bidder, role, chars, digest in files:
        out.write(f"{roles.get(role, role)}  {name}  {bidder}  {chars} 字  {digest[:12]}\n")
    for a, b, level in library.section_pairs(args.section):
        out.write(f"{LEVEL_NAMES.get(level, level)}  {a} ↔ {b}\n")
    return 0


def _remove(library: Library, args: argparse.Namespace, _s: Settings, out: TextIO) -> int:
    if not library.remove(args.section):
        out.write(f"资料库中没有标段 {args.section}\n")
        return 2
    out.write(f"已删除标段 {args.section}\n")
    return 0


def _rename(library: Library, args: argparse.Namespace, _s: Settings, out: TextIO) -> int:
    new = " ".join(str(args.new).split())
    if not new:
        out.write("新的标段名称不能为空\n")
        return 2
    problem = library.rename(args.section, new)
    if problem:
        out.write(problem + "\n")
        return 2
    out.write(f"已把标段 {args.section} 改名为 {new}\n")
    return 0


def _stats(library: Library, _args: argparse.Namespace, _s: Settings, out: TextIO) -> int:
    sections, bids = library.counts()
    templates, _ = library.counts("templates")
    figures = library.size_figures()
    per_bid = figures["bytes"] / bids if bids else 0
    out.write(
        f"{library.path}：{sections} 个标段，{bids} 份投标文件，{templates} 组范本，"
        f"{len(library.groups())} 堆整份相同或几乎相同；"
        f"{figures['kgrams']} 个指纹，{figures['bytes'] / 1e6:.1f} MB"
        f"（每份投标文件约 {per_bid / 1e3:.0f} KB）\n"
    )
    return 0


def _add(library: Library, args: argparse.Namespace, settings: Settings, out: TextIO) -> int:
    from bidcheck.library import store_result
    from bidcheck.pipeline import CheckInputs, check

    missing = _missing([*args.paths, *args.tender], out)
    if missing:
        return missing
    inputs = CheckInputs(tuple(args.paths), tuple(args.tender))
    result = check(inputs, settings, no_progress, threading.Event(), library, args.section)
    store_result(library, args.section, result, settings)
    for doc in result.documents:
        if not doc.ok:
            out.write(f"无法读取 {doc.name}：{doc.error}\n")
    out.write(f"已存入标段 {args.section}：{len([d for d in result.bids if d.ok])} 份投标文件\n")
    return 0 if all(d.ok for d in result.documents) else 1


def _missing(paths: list[Path], out: TextIO) -> int:
    """2 (said) when a path named does not exist, before anything is read or stored; else 0."""
    for path in paths:
        if not path.exists():
            out.write(f"找不到文件或文件夹：{path}\n")
            return 2
    return 0


def _add_template(library: Library, args: argparse.Namespace, settings: Settings, out: TextIO) -> int:
    from bidcheck.library import add_templates

    name = args.name or "范本：" + "、".join(p.name for p in args.files)
    docs = add_templates(library, list(args.files), name, settings)
    for doc in docs:
        out.write(f"已存入 {doc.name}\n" if doc.ok else f"无法读取 {doc.name}：{doc.error}\n")
    return 0 if any(d.ok for d in docs) else 1


def _groups(library: Library, args: argparse.Namespace, _s: Settings, out: TextIO) -> int:
    from bidcheck.library.groups import HAMMING
    from bidcheck.report.files import check_output_path

    hamming = HAMMING if args.hamming is None else args.hamming
    if args.json:
        check_output_path(args.json)  # a wrong path is said before the regrouping, never as a traceback
    library.regroup(hamming)
    groups = library.groups()
    for number, members in groups:
        out.write(f"堆 {number}：" + "、".join(f"{section} / {name}" for section, name in members) + "\n")
    sections, bids = library.counts()
    out.write(
        f"{bids} 份投标文件（{sections} 个标段）中 {len(groups)} 堆整份相同或几乎相同"
        f"（SimHash 相差不超过 {hamming} 位）\n"
    )
    if args.json:
        write_groups_json(groups, args.json)
    return 0


def write_json_atomically(doc: object, path: Path) -> None:
    """A JSON document (UTF-8, indented) written whole or not at all."""
    from bidcheck.report.files import write_atomically

    data = json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")

    def write(temp: Path) -> None:
        temp.write_bytes(data)

    write_atomically(path, write)


def write_groups_json(groups: list[tuple[int, list[tuple[str, str]]]], path: Path) -> None:
    """``{groups: [{group, documents: [{section, document}]}]}``, written whole or not at all."""
    doc = {
        "groups": [
            {"group": number, "documents": [{"section": s, "document": d} for s, d in members]}
            for number, members in groups
        ]
    }
    write_json_atomically(doc, path)


def _export(library: Library, args: argparse.Namespace, _s: Settings, out: TextIO) -> int:
    from bidcheck.report.files import check_output_path

    check_output_path(args.file)
    library.export(args.file)
    out.write(f"已导出到 {args.file}\n")
    return 0


def _import(library: Library, args: argparse.Namespace, _s: Settings, out: TextIO) -> int:
    if not args.file.is_file():  # never an empty library made at a mistyped path
        out.write(f"找不到要导入的资料库文件：{args.file}\n")
        return 2
    names = library.import_from(args.file)
    out.write(f"已导入 {len(names)} 个标段：{'、'.join(names)}\n")
    return 0


_READING = frozenset({"list", "show", "remove", "rename", "stats", "groups", "export"})  # store nothing
_LOOKING = frozenset({"list", "show", "stats"})  # verbs that change nothing: the library opened read-only
_VERBS: dict[str, Callable[[Library, argparse.Namespace, Settings, TextIO], int]] = {
    "list": _list,
    "show": _show,
    "remove": _remove,
    "rename": _rename,
    "stats": _stats,
    "add": _add,
    "add-template": _add_template,
    "groups": _groups,
    "export": _export,
    "import": _import,
}
