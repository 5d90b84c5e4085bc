"""One check of a section as both faces run it — the command line and the app: with or without the
library, the section named, checked, and stored in the library when it was compared with it.

The library and the checker are imported by the functions that use them, so that starting the command
line (every ``bidcheck --help``) loads neither.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from bidcheck.config import Settings
from bidcheck.progress import CancelFlag, ProgressFn, no_progress

if TYPE_CHECKING:
    from bidcheck.library import Library
    from bidcheck.model import CheckResult
    from bidcheck.pipeline import CheckInputs, ReadMemo

__all__ = [
    "Checked",
    "check_section",
    "check_with_library",
    "default_section_name",
    "store_checked",
    "tender_name",
]


@dataclass(frozen=True)
class Checked:
    """A section checked: its result, its name in the library ("" when checked without one), and what
    kept it out of the library when it could not be stored (the reports are written all the same)."""

    result: CheckResult
    name: str = ""
    store_error: str | None = None


def check_section(
    inputs: CheckInputs,
    settings: Settings,
    library: Path | None = None,
    name: str = "",
    progress: ProgressFn = no_progress,
    cancel: CancelFlag | None = None,
    *,
    distinct: bool = True,
    memo: ReadMemo | None = None,
    while_reading: Callable[[], None] = lambda: None,
) -> Checked:
    """Check a section, against the library at ``library`` and then stored there when one is given,
    under ``name`` — made distinct from a stored section of that name with none of these bids when the
    user did not choose it (``distinct``: see ``default_section_name``). ``memo`` and ``while_reading``:
    see ``pipeline.check``."""
    from bidcheck.pipeline import check

    if library is None:
        return Checked(check(inputs, settings, progress, cancel, memo=memo, while_reading=while_reading))
    if distinct:
        name = default_section_name(library, name, inputs.bid_files())
    result, store_error = check_with_library(
        inputs, settings, library, name, progress, cancel, memo, while_reading
    )
    return Checked(result, name, store_error)


def tender_name(tenders: Sequence[Path]) -> str:
    """The section's name as its tender gives it (项目名称, else the cover's title; ``text.project_name``),
    from the first tender file whose text can be read at once (a scan waits for no OCR); "" when none."""
    from bidcheck.ingest import read_document
    from bidcheck.ingest.scan import OcrNeeded, OcrOptions
    from bidcheck.text.project_name import project_name

    for path in tenders:
        try:
            doc = read_document(path, "t", OcrOptions(defer=True))
        except OcrNeeded:
            continue
        name = project_name("\n".join(b.text for b in doc.blocks)) if doc.ok else ""
        if name:
            return name
    return ""


def default_section_name(path: Path, wanted: str, bids: Sequence[Path]) -> str:
    """A default section name (no ``--section``; the app's) made distinct from a stored section of the
    same name with none of ``bids`` (``distinct_section_name``); as it is when the library cannot be
    read at once (the check then says why)."""
    from bidcheck.library import LibraryError, open_library
    from bidcheck.library.sections import distinct_section_name

    try:
        library = open_library(path, busy_timeout_s=1.0)
    except LibraryError:
        return wanted
    try:
        return distinct_section_name(library, wanted, bids)
    except LibraryError:
        return wanted
    finally:
        library.close()


def store_checked(
    library: Library | None, name: str, result: CheckResult, settings: Settings
) -> tuple[CheckResult, str | None]:
    """Store a checked section in its library (not when the library failed during the check); the
    result, and what went wrong (the reports are written all the same)."""
    from bidcheck.library import LibraryError, store_result

    if library is None:
        return result, None
    try:
        if result.library is not None and not result.library.error:
            store_result(library, name, result, settings)
    except LibraryError as exc:
        return result, f"未能存入资料库：{exc}"
    finally:
        library.close()
    return result, None


def check_with_library(
    inputs: CheckInputs,
    settings: Settings,
    path: Path,
    section: str,
    progress: ProgressFn = no_progress,
    cancel: CancelFlag | None = None,
    memo: ReadMemo | None = None,
    while_reading: Callable[[], None] = lambda: None,
) -> tuple[CheckResult, str | None]:
    """Check a section against the library at ``path``, then store it there (the command line's
    ``--library`` and the app when ``library_path`` is set). A library that cannot be opened or read
    never stops the check (the result's ``library.error`` says why); one that cannot take the section
    afterwards is the second value. ``memo``: see ``pipeline.check`` (storing reads the new bids'
    entries again)."""
    from bidcheck.library import LibraryError, open_library
    from bidcheck.model import LibraryInfo
    from bidcheck.pipeline import check

    try:
        library: Library | None = open_library(path)
    except LibraryError as exc:
        result = check(inputs, settings, progress, cancel, memo=memo, while_reading=while_reading)
        return replace(result, library=LibraryInfo(str(path), error=str(exc))), None
    with memo.during() if memo is not None else contextlib.nullcontext():
        result = check(inputs, settings, progress, cancel, library, section, memo, while_reading)
        return store_checked(library, section, result, settings)
