"""Reading files of every supported format into ``Document``s (one module per format).

The names below are loaded on first use, so that a process importing one reader module, such as an OCR
worker importing ``bidcheck.ingest.ocr_batch``, does not import every format's reader with them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bidcheck.ingest.registry import (
        SUPPORTED_SUFFIXES,
        collect_bids,
        collect_paths,
        collect_sources,
        read_document,
        sniff_format,
    )

__all__ = [
    "SUPPORTED_SUFFIXES",
    "collect_bids",
    "collect_paths",
    "collect_sources",
    "read_document",
    "sniff_format",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("bidcheck.ingest.registry"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
