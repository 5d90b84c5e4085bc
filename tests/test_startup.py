"""What starting bidcheck loads: the command line parses its arguments without the checker, and the checker
itself runs without SciPy and datasketch (the desktop bundle leaves both out)."""

from __future__ import annotations

import subprocess
import sys

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
