"""Writing a report file whole or not at all, where the user can open it; checking the place first.

A report is written to a temporary file beside it (the same folder: a rename within one file system is
atomic) and moved into place, so a cancelled or failed write leaves no partial file. The temporary file
is created with mode 0666 less the umask, as the system creates any new file: a colleague who may read
the folder may read the report (``tempfile.mkstemp`` would give 0600). ``WrittenAside`` writes one in a
forked copy of this process while this one writes another: the temporary file is this process's to
create, move into place or remove, so a writer that is stopped or killed midway leaves nothing either.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import TracebackType

from bidcheck.progress import CancelFlag
from bidcheck.text.chars import replace_unsafe
from bidcheck.workers import Ahead, can_fork

__all__ = [
    "UnwritablePath",
    "WrittenAside",
    "check_output_path",
    "check_outputs",
    "os_error_words",
    "put_in_place",
    "write_atomically",
]

_NEW_FILE_MODE = 0o666  # the system takes the umask off, as for any file a program creates
_OPEN_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


class UnwritablePath(Exception):
    """An output path that cannot take a file; the message says why, in words a user can act on."""


def write_atomically(path: Path, write: Callable[[Path], None]) -> None:
    """Call ``write`` on a new temporary file beside ``path``, then move it into place.

    Args:
        path: The file to write; its folder must exist (see ``check_output_path``).
        write: Writes the whole content to the path it is given.
    """
    temp = _create_beside(path)
    try:
        write(temp)
        put_in_place(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


class WrittenAside:
    """A report written in a forked copy of this process (where processes fork) while this one does
    other work, then moved into place by ``finish``; where processes do not fork, ``finish`` writes it.

    Used as a context: leaving it without ``finish`` (an error, Ctrl-C) ends the writing process and
    removes its temporary file. An exception of the writer is raised by ``finish``; a writing process
    that ends without a word (killed, out of memory) costs only time: the report is written here.
    """

    def __init__(self, path: Path, write: Callable[[Path], None]) -> None:
        self._path, self._write = path, write
        self._temp = _create_beside(path)
        self._ahead = Ahead(functools.partial(write, self._temp)) if can_fork() else None

    def finish(self, cancel: CancelFlag | None = None) -> None:
        """Wait for the report and move it into place (cancelling ends the writer: ``Cancelled``)."""
        again = functools.partial(self._write, self._temp)
        try:
            if self._ahead is not None:
                self._ahead.result(cancel, again)
            else:
                again()
            put_in_place(self._temp, self._path)
        finally:
            self._temp.unlink(missing_ok=True)

    def __enter__(self) -> WrittenAside:
        return self

    def __exit__(self, *_exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        if self._ahead is not None:
            self._ahead.stop()
        self._temp.unlink(missing_ok=True)


def _special(path: Path) -> bool:
    """Whether ``path`` is there and is no regular file (``/dev/null``, a named pipe, a terminal)."""
    try:
        return not stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def put_in_place(temp: Path, path: Path) -> None:
    """Move a written report into place: renamed over a regular file (or none), copied into a device or
    a pipe, which stays what it is (a rename would put a regular file in ``/dev/null``'s place)."""
    if not _special(path):
        os.replace(temp, path)
        return
    with temp.open("rb") as source, path.open("wb") as target:
        shutil.copyfileobj(source, target)
    temp.unlink(missing_ok=True)


def _create_beside(path: Path) -> Path:
    """A new empty file, hidden, in ``path``'s folder (for a device or a pipe, in the temporary folder),
    with the mode a new file gets."""
    while True:
        temp = path.with_name(f".{path.stem}.{secrets.token_hex(4)}{path.suffix}")
        if _special(path):
            temp = Path(tempfile.gettempdir()) / temp.name
        try:
            os.close(os.open(temp, _OPEN_FLAGS, _NEW_FILE_MODE))
            return temp
        except FileExistsError:
            continue


def check_output_path(path: Path) -> None:
    """Make sure a report can be written to ``path`` before the work that produces it starts.

    The folder must exist and take a new file (tried by creating one and removing it); ``path`` must not
    be a folder or a read-only file.

    Raises:
        UnwritablePath: Why not, in words a user can act on.
    """
    reason = _why_unwritable(path)
    if reason:
        raise UnwritablePath(replace_unsafe(f"无法写入 {path}：{reason}"))


def check_outputs(outputs: Sequence[tuple[str, Path]], inputs: Iterable[Path]) -> None:
    """Make sure every report can be written (``check_output_path``), none over a file the check reads
    (a bid, the tender: the user's own files), and no two over one file (one report would be lost).

    Args:
        outputs: Each report's name as the user reads it, and its path.
        inputs: The files the check reads.

    Raises:
        UnwritablePath: Why not, in words a user can act on.
    """
    read = {_same_file_key(p) for p in inputs}
    taken: dict[tuple[str, ...], str] = {}
    for label, path in outputs:
        check_output_path(path)
        if _special(path):
            continue  # /dev/null may take both
        key = _same_file_key(path)
        if key in read:
            raise UnwritablePath(
                replace_unsafe(f"无法写入 {path}：这是要检查的文件之一，写入{label}会覆盖它")
            )
        if key in taken:
            raise UnwritablePath(replace_unsafe(f"无法写入 {path}：{taken[key]}和{label}不能写到同一个文件"))
        taken[key] = label


def _same_file_key(path: Path) -> tuple[str, ...]:
    """What names one file: its device and inode where it exists (a hard link, another spelling of
    its path), else its resolved path."""
    try:
        info = path.stat()
        return (str(info.st_dev), str(info.st_ino))
    except OSError:
        return (str(path.resolve()),)


def _why_unwritable(path: Path) -> str | None:
    folder = path.parent
    if str(path) == "-":  # the usual "standard output" of other tools: no file named "-" is made
        return "报告只写入文件，请给出文件名（如 结果.json），不能写到屏幕（-）"
    if path.is_dir():
        return "这是一个文件夹，请给出文件名"
    if not folder.exists():
        return f"文件夹 {folder} 不存在"
    if not folder.is_dir():
        return f"{folder} 不是文件夹"
    if path.exists() and not os.access(path, os.W_OK):
        return "文件是只读的"
    if _special(path):
        return None  # written into in place
    try:
        probe = _create_beside(path)
    except OSError as exc:
        return _os_reason(exc, folder)
    with contextlib.suppress(OSError):
        probe.unlink()
    return None


def _os_reason(exc: OSError, folder: Path) -> str:
    if isinstance(exc, PermissionError):
        return f"没有在文件夹 {folder} 中写文件的权限"
    return os_error_words(exc)


def os_error_words(exc: OSError) -> str:
    """Why a file could not be written, in words a user can act on for the usual causes."""
    if isinstance(exc, PermissionError):
        return "没有写入的权限"
    words = {
        errno.EROFS: "磁盘是只读的",
        errno.ENOSPC: "磁盘空间不足",
        errno.EFBIG: "文件超过了系统允许的大小",
        getattr(errno, "EDQUOT", -1): "超出了磁盘配额",
    }
    return words.get(exc.errno or 0, exc.strerror or str(exc))
