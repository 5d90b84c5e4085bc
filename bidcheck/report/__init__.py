"""Writing the result: the JSON file and the Excel workbook.

The writers are imported as they are first asked for, not with the package: the command line checks
the reports' paths (``bidcheck.report.files``) before the check, and the workbook's openpyxl (about 0.05
CPU s) is needed only after it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bidcheck.report.json import write_json
    from bidcheck.report.xlsx import write_xlsx

__all__ = ["write_json", "write_xlsx"]

_WRITERS = {"write_json": "bidcheck.report.json", "write_xlsx": "bidcheck.report.xlsx"}


def __getattr__(name: str) -> Any:
    """A writer, from its module imported now."""
    if name not in _WRITERS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_WRITERS[name]), name)
