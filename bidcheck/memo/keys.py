"""The keys of what a check remembers: each names everything its entry was made from (a file's bytes,
the parts of an input, the code, the settings), so an entry found under a key is the one computing
again would give."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path

from bidcheck.config import Settings

__all__ = ["code_digest", "file_digest", "package_code", "parts_digest", "settings_key", "source_key"]


def file_digest(path: Path) -> str:
    """A hash of a file's bytes."""
    digest = hashlib.blake2b(digest_size=20)
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def parts_digest(*parts: bytes) -> bytes:
    """A 20-byte hash of several byte strings, each with its length (no two lists of parts hash alike
    by their joins): the keys of entries made of several inputs."""
    digest = hashlib.blake2b(digest_size=20)
    for part in parts:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.digest()


def code_digest(sources: list[Path]) -> str:
    """A hash of the source files whose code made an entry, so that a changed program never reuses entries
    an older one wrote (an installed build without sources relies on its version number)."""
    digest = hashlib.blake2b(digest_size=12)
    for source in sources:
        with contextlib.suppress(OSError):
            digest.update(source.read_bytes())
    return digest.hexdigest()


def source_key(prefix: str, source: Callable[[], Path], parts: Sequence[str], code: list[Path]) -> str | None:
    """The key of what ``code`` makes of the file ``source()`` (and of ``parts``, e.g. a seed): the
    file's hash and the code's; ``None`` when the file cannot be found (``RuntimeError``) or read."""
    try:
        digest = file_digest(source())
    except (OSError, RuntimeError):
        return None
    text = "|".join([*parts, digest, code_digest(code)])
    return prefix + hashlib.blake2b(text.encode(), digest_size=20).hexdigest()


def settings_key(settings: Settings) -> str:
    """The settings as a key's part: every setting by name (the same text wherever a key holds them)."""
    return json.dumps(settings.to_dict(), sort_keys=True, default=str)


@functools.cache
def package_code() -> str:
    """The code of the whole package (``code_digest`` of every module, once a process): an entry another
    version of it wrote is never read (an installed build without sources relies on its version)."""
    return code_digest(sorted(Path(__file__).resolve().parents[1].rglob("*.py")))
