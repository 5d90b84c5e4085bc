"""``bidcheck near FILE... [--library FILE | --vault DIR] [--min 0.9] [--json OUT]``: for each new
document, the stored documents (of the library, or of a folder) it nearly duplicates."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bidcheck.cli.library import library_path, write_json_atomically
from bidcheck.config import Settings
from bidcheck.progress import no_progress

if TYPE_CHECKING:  # the readers and the library are imported when the command runs, not at every start
    from bidcheck.library import Library
    from bidcheck.library.near import NearMatch, NearResult

__all__ = ["add_near_command", "near_command", "results_to_dict"]

Query = Callable[[str], "tuple[NearMatch, ...]"]  # a new document's comparable text -> its matches


def add_near_command(commands: argparse._SubParsersAction[Any]) -> None:
    """The ``near`` command's options."""
    near = commands.add_parser("near", help="新文件与资料库或文件夹中已有文件的近似重复")
    near.add_argument("files", nargs="+", type=Path, metavar="FILE", help="新文件或文件夹")
    where = near.add_mutually_exclusive_group()
    where.add_argument("--library", type=Path, metavar="FILE", help="资料库文件（默认）")
    where.add_argument("--vault", type=Path, metavar="DIR", help="与这个文件夹中的文件比较（建立并缓存索引）")
    near.add_argument(
        "--min",
        type=float,
        default=0.9,
        metavar="SCORE",
        help="最低相似度：两份文件共有的 8 字片段占较大一份的比例（默认 0.9）",
    )
    near.add_argument("--json", type=Path, metavar="OUT", help="把结果写入 JSON 文件")
    near.add_argument("--settings", type=Path, metavar="FILE", help="设置文件（JSON）")


def _new_files(paths: list[Path]) -> list[Path]:
    """The files named, and every supported file inside the folders named."""
    from bidcheck.ingest import SUPPORTED_SUFFIXES

    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out += sorted(
                p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES
            )
        else:
            out.append(path)
    return out


def _answer(path: Path, settings: Settings, query: Query) -> NearResult:
    from bidcheck.library.near import NearResult, comparable_text

    if not path.is_file():
        return NearResult(path.name, error="找不到文件")
    norm, error = comparable_text(path, settings)
    if error is not None:
        return NearResult(path.name, error=error)
    return NearResult(path.name, query(norm))


def results_to_dict(results: list[NearResult]) -> dict[str, object]:
    """``{results: [{document, matches: [{section, document, score, containment}], error}]}``."""
    return {
        "results": [
            {
                "document": r.document,
                "matches": [
                    {
                        "section": m.section,
                        "document": m.document,
                        "score": m.score,
                        "containment": m.containment,
                    }
                    for m in r.matches
                ],
                "error": r.error,
            }
            for r in results
        ]
    }


def _write_lines(results: list[NearResult], out: TextIO) -> None:
    for r in results:
        if r.error:
            out.write(f"无法读取 {r.document}：{r.error}\n")
        elif not r.matches:
            out.write(f"{r.document}：没有近似重复\n")
        for m in r.matches:
            where = f"{m.section} / {m.document}" if m.section else m.document
            out.write(f"{r.document}  ≈  {where}  相似度 {m.score:.1%}（包含 {m.containment:.1%}）\n")


def _in_library(library: Library, minimum: float, norm: str) -> tuple[NearMatch, ...]:
    from bidcheck.library.near import library_near, near_hashes

    return library_near(library, near_hashes(norm), minimum)


def near_command(args: argparse.Namespace, settings: Settings, stdout: TextIO, stderr: TextIO) -> int:
    """Run ``near``: 0 done, 1 some new files could not be read, 2 a bad ``--min`` or ``--vault``;
    ``UnwritablePath`` for a ``--json`` path that cannot take the file, ``LibraryError`` when the
    library or the vault's index cannot be used."""
    from bidcheck.library import open_library
    from bidcheck.library.vault import index_vault, vault_near
    from bidcheck.report.files import check_output_path

    if not 0.0 < args.min <= 1.0:
        stderr.write("bidcheck: --min 应在 0 与 1 之间\n")
        return 2
    if args.vault is not None and not args.vault.is_dir():
        what = "是一个文件" if args.vault.exists() else "不存在"
        stderr.write(f"bidcheck: --vault 应为文件夹，{args.vault} {what}\n")
        return 2
    if args.json:
        check_output_path(args.json)  # a wrong path is said before the files are read
    files = _new_files(list(args.files))
    if args.vault is not None:
        index, figures = index_vault(args.vault, settings, no_progress)
        stderr.write(f"文件夹索引 {figures.cache}：{figures.files} 个文件（本次读取 {figures.read} 个）\n")
        results = [
            _answer(p, settings, partial(vault_near, index, args.vault, minimum=args.min, settings=settings))
            for p in files
        ]
    else:
        library = open_library(library_path(args, settings))
        try:
            results = [_answer(p, settings, partial(_in_library, library, args.min)) for p in files]
        finally:
            library.close()
    _write_lines(results, stdout)
    if args.json:
        write_json_atomically(results_to_dict(results), args.json)
    return 1 if any(r.error for r in results) else 0
