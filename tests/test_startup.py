"""What starting bidcheck loads: the command line parses its arguments without the checker, and the checker
itself runs without SciPy and datasketch (the desktop bundle leaves both out)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from bidcheck import __version__

# Packages the checker needs (or a command's modules) that cost seconds to import together.
HEAVY = {"numpy", "scipy", "datasketch", "rjieba", "openpyxl", "PySide6", "rapidocr", "pypdfium2", "docx"}
CHECKER = {
    "bidcheck.pipeline",
    "bidcheck.library",
    "bidcheck.ingest",
    "bidcheck.report",
    "bidcheck.selfcheck",
}


def _loaded_after(code: str) -> tuple[str, set[str]]:
    """stdout of ``code`` run in a fresh interpreter, and the modules it had imported by the end."""
    script = f"import sys\n{code}\nprint('MODULES', ' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    out, _, modules = done.stdout.rpartition("MODULES ")
    return out, set(modules.split())


def test_version_help_and_usage_errors_load_no_checker() -> None:
    runs = {  # what is printed, then the exit status
        ("--version",): (f"bidcheck {__version__}\n", 0),
        ("--help",): ("usage: bidcheck", 0),
        ("check", "--help"): ("usage: bidcheck check", 0),
        ("library", "groups", "--help"): ("usage: bidcheck library groups", 0),
        ("check",): ("", 2),  # no PATH: a usage error, said on stderr
    }
    for args, (printed, status) in runs.items():
        said, loaded = _loaded_after(
            f"from bidcheck.cli import main\nprint('STATUS', int(main({list(args)!r})))"
        )
        assert said.startswith(printed) and said.endswith(f"STATUS {status}\n"), (args, said)
        assert not {m.split(".")[0] for m in loaded} & HEAVY, args
        assert not loaded & CHECKER, args


def test_the_checker_and_the_app_run_without_scipy_and_datasketch() -> None:
    _, loaded = _loaded_after(
        "import bidcheck.pipeline, bidcheck.library, bidcheck.selfcheck, bidcheck.gui.window"
    )
    assert {"bidcheck.pipeline", "bidcheck.gui.window", "numpy"} <= loaded
    assert not {m.split(".")[0] for m in loaded} & {"scipy", "datasketch"}


def test_the_tokenizer_is_made_without_rjiebas_default_tokenizer() -> None:
    """Importing the rjieba package builds a tokenizer of jieba's dictionary that bidcheck never uses
    (0.1 CPU s of every check's start): its compiled module is loaded alone."""
    said, loaded = _loaded_after(
        "import bidcheck.pipeline\nfrom bidcheck.fingerprint.tokens import cut\nprint(cut('投标文件的报价'))"
    )
    assert said == "['投标文件', '的', '报价']\n"
    assert "rjieba.rjieba" in loaded
    assert "rjieba" not in loaded


def test_the_checker_imports_the_stages_after_reading_only_beside_the_reading_processes() -> None:
    """Importing the checker (and the reports' paths the command line checks first) loads neither the
    stages after reading nor the workbook's openpyxl: they are imported once the reading processes are
    forked (``reading.import_later_stages``, the command line's ``import_reports``)."""
    _, loaded = _loaded_after("import bidcheck.cli, bidcheck.pipeline, bidcheck.report.files")
    later = {
        "bidcheck.compare",
        "bidcheck.evidence",
        "bidcheck.judge",
        "bidcheck.library",
        "bidcheck.semantic",
    }
    assert "bidcheck.pipeline" in loaded
    assert not loaded & later and "openpyxl" not in loaded and "bidcheck.report.xlsx" not in loaded
    _, loaded = _loaded_after("import bidcheck.reading\nbidcheck.reading.import_later_stages()")
    assert later <= loaded


def _imported_in_functions(path: Path) -> set[str]:
    """The modules a file's functions import (``from X import ...`` and ``import X`` in a body)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and node.module:
                    found.add(node.module)
                elif isinstance(node, ast.Import):
                    found.update(alias.name for alias in node.names)
    return found


def test_every_stage_the_checker_imports_late_is_imported_beside_the_reading_processes() -> None:
    """A module the pipeline's functions import that ``import_later_stages`` left out would be imported
    after the reading, with one core idle."""
    from bidcheck import library_stages, pipeline, reading, section_candidates

    for module in (pipeline, section_candidates, library_stages):
        assert _imported_in_functions(Path(module.__file__)) <= set(reading.LATER_STAGES), module.__name__
    assert not _imported_in_functions(Path(reading.__file__))  # reading imports what it needs up front
