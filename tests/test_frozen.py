"""The frozen app (``make installer`` -> dist/bidcheck/) run as a user runs it: copied alone to another
folder, started with a bare environment (no venv, no source tree, an empty home folder).

Building the bundle takes minutes, so ``make test`` does not; these tests run when dist/bidcheck exists.
"""

from __future__ import annotations

import configparser
import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from docx import Document
from PIL import Image

from bench.pictures import add_pictures, encoded, photo
from bidcheck import __version__
from bidcheck.cli import main
from bidcheck.ingest.ocr import RUNTIME_ENV, engine_cache_id, get_engine, rapid_runtime
from bidcheck.notices import NOTICE_FILE, summary
from installer.sample_check import wrong_levels
from tests.builders import make_docx, make_pdf, paragraphs
from tests.test_ocr import scan_pdf

DIST = Path(__file__).resolve().parents[1] / "dist" / "bidcheck"
SUFFIX = ".exe" if sys.platform == "win32" else ""
WINDOWS_CACHE = Path("AppData", "Local", "bidcheck", "cache")
CACHE = WINDOWS_CACHE if sys.platform == "win32" else Path(".cache", "bidcheck")  # under the home folder
# the folder's size on Linux (docs/install.md): 665 MB with SciPy and OpenVINO,
# 480 MB with OpenCV
MAX_MB = 400

pytestmark = pytest.mark.skipif(
    not (DIST / f"bidcheck{SUFFIX}").exists(),
    reason="dist/bidcheck is not built: `make installer` builds the frozen app these tests run",
)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundle copied alone to a folder of its own, away from the source tree."""
    folder = tmp_path_factory.mktemp("installed") / "bidcheck 程序"  # a space and Chinese in its path
    shutil.copytree(DIST, folder, symlinks=True)
    return folder


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("empty-home")


def run_frozen(
    app: Path, home: Path, args: list[str], program: str = "bidcheck", **env: str
) -> subprocess.CompletedProcess[str]:
    """One run of a program of the bundle with nothing but HOME (and ``env``) in its environment."""
    bare = {"HOME": str(home), "USERPROFILE": str(home), **env}
    if sys.platform == "win32":  # Windows cannot start a program without these
        bare |= {key: os.environ[key] for key in ("SYSTEMROOT", "TEMP", "TMP") if key in os.environ}
    return subprocess.run(
        [str(app / f"{program}{SUFFIX}"), *args],
        env=bare,
        cwd=home,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=600,
        check=False,
    )


@pytest.fixture(scope="module")
def section(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A section in all three kinds of file: B (text PDF) and C (a scan) copied paragraphs of A (docx);
    D (docx) wrote its own text but holds A's photo, saved again as a JPEG."""
    root = tmp_path_factory.mktemp("frozen-section")
    tender = paragraphs(300, 2, sentences=3)
    own = {
        name: paragraphs(seed, 4, sentences=3)
        for name, seed in (("a", 301), ("b", 302), ("c", 303), ("d", 304))
    }
    bids = root / "bids"
    bids.mkdir()
    add_pictures(
        make_docx(bids / "01-甲.docx", [tender[:1] + own["a"][:2], own["a"][2:]]), [encoded(photo(7))]
    )
    add_pictures(make_docx(bids / "04-丁.docx", [own["d"]]), [encoded(photo(7), "JPEG", quality=80)])
    make_pdf(bids / "02-乙.pdf", [tender[:1] + own["a"][:2], own["b"][2:]], header="乙公司投标文件")
    text_c = make_pdf(root / "03-丙-text.pdf", [tender[1:] + own["c"][:1], own["a"][2:3] + own["c"][2:]])
    scan_pdf(text_c, bids / "03-丙.pdf", seed=3)
    return {"bids": bids, "tender": make_docx(root / "招标文件.docx", [tender])}


def _comparable(path: Path) -> dict[str, Any]:
    """A result JSON less the times it took."""
    result: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return {key: value for key, value in result.items() if key not in ("elapsed_s", "timings")}


def test_version_is_the_package_version(app: Path, home: Path) -> None:
    done = run_frozen(app, home, ["--version"])
    assert (done.returncode, done.stdout.strip()) == (0, f"bidcheck {__version__}")


@pytest.fixture
def bundle_runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The source install's OCR on the bundle's runtime: onnxruntime (the bundle leaves OpenVINO out)."""
    monkeypatch.setenv(RUNTIME_ENV, "onnxruntime")
    for cached in (rapid_runtime, engine_cache_id, get_engine):
        cached.cache_clear()
    yield
    monkeypatch.delenv(RUNTIME_ENV)
    for cached in (rapid_runtime, engine_cache_id, get_engine):
        cached.cache_clear()


@pytest.mark.usefixtures("bundle_runtime")
def test_check_finds_what_the_source_install_finds(
    app: Path, home: Path, section: dict[str, Path], tmp_path: Path, ocr_cache_in_tmp: Path
) -> None:
    args = ["check", str(section["bids"]), "--tender", str(section["tender"]), "--quiet", "--workers", "2"]
    source = main([*args, "--json", str(tmp_path / "source.json")])
    frozen = run_frozen(app, home, [*args, "--json", str(tmp_path / "frozen.json")])
    assert (source, frozen.returncode) == (0, 0), frozen.stderr
    result = _comparable(tmp_path / "frozen.json")
    assert result == _comparable(tmp_path / "source.json")
    docs = {d["name"]: d for d in result["documents"]}
    assert [docs[n]["format"] for n in ("01-甲.docx", "02-乙.pdf", "03-丙.pdf")] == ["docx", "pdf", "pdf"]
    assert docs["03-丙.pdf"]["ocr_pages"] == 2, "the scan is read by OCR in the bundle"
    names = {d["id"]: d["name"] for d in result["documents"]}
    levels = {frozenset((names[p["a"]], names[p["b"]])): p["level"] for p in result["pairs"]}
    assert levels[frozenset(("01-甲.docx", "02-乙.pdf"))] == "high", levels
    kinds = {signal["kind"] for pair in result["pairs"] for signal in pair.get("signals", [])}
    assert "image" in kinds, "the photo both hold is found (imagehash, in the bundle)"
    frozen_pages = {page.name for page in (home / CACHE / "ocr").rglob("*.json")}  # in the user's home
    source_pages = {page.name for page in (ocr_cache_in_tmp / "ocr").rglob("*.json")}
    # a page's entry is named by a hash of the engine, its runtime (onnxruntime) and their versions
    assert frozen_pages and frozen_pages <= source_pages, "the same OCR engine, runtime and versions"


def test_demo_runs_on_the_bundled_sample(app: Path, home: Path, tmp_path: Path) -> None:
    done = run_frozen(app, home, ["demo", "--out", str(tmp_path), "--quiet"])
    assert done.returncode == 0, done.stderr
    assert "一级预警 1，二级观察 1" in done.stdout
    assert wrong_levels(json.loads((tmp_path / "bidcheck-demo.json").read_text(encoding="utf-8"))) == []
    assert (tmp_path / "bidcheck-demo.xlsx").stat().st_size > 0
    report = Document(str(tmp_path / "bidcheck-demo.docx"))  # its header from python-docx's templates
    assert report.sections[0].header.paragraphs[0].text.startswith("围标串标检查报告")


@pytest.mark.parametrize("program", ["bidcheck", "bidcheck-gui"])
def test_gui_takes_its_screenshot(app: Path, home: Path, section: dict[str, Path], program: str) -> None:
    shot = home / f"{program}.png"
    gui = ["gui"] if program == "bidcheck" else []
    args = [*gui, str(section["bids"]), "--tender", str(section["tender"]), "--screenshot", str(shot)]
    done = run_frozen(app, home, args, program, QT_QPA_PLATFORM="offscreen")
    assert done.returncode == 0, done.stderr
    with Image.open(shot) as image:
        assert image.size == (1600, 1000)
        assert len(image.convert("RGB").getcolors(1 << 20) or ()) > 50, "a drawn window, not a blank one"


def test_the_notice_lists_what_the_bundle_holds(app: Path) -> None:
    listed = summary((app / "_internal" / NOTICE_FILE).read_text(encoding="utf-8"))
    names = {line.split(" ")[0] for line in listed}
    assert {"Python", "Qt", "PySide6_Essentials", "onnxruntime", "rapidocr", "numpy"} <= names
    left_out = {
        "cryptography",
        "pytest",
        "PyInstaller",
        "scipy",
        "datasketch",
        "openvino",
        "opencv-python-headless",
    }
    assert not left_out & names, "left out of the bundle"
    assert not [name for name in left_out if (app / "_internal" / name).exists()]
    assert not list((app / "_internal").glob("cv2*")) and not list((app / "_internal").glob("opencv*"))
    assert not list((app / "_internal" / "rapidocr").rglob("*.py*"))  # its models only


def test_the_bundle_stays_within_its_size(app: Path) -> None:
    size = sum(f.stat().st_size for f in app.rglob("*") if f.is_file() and not f.is_symlink())
    assert size <= MAX_MB * 1024 * 1024, f"{size / 1024 / 1024:.0f} MB"


@pytest.mark.skipif(sys.platform != "linux", reason="the launcher entry of Linux desktops")
def test_the_desktop_entry_starts_the_folders_app(app: Path, tmp_path: Path) -> None:
    data = tmp_path / "my data"
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(data), "PATH": os.environ["PATH"]}
    script = [str(app / "install-desktop-entry.sh")]
    done = subprocess.run(script, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    entry = configparser.ConfigParser(interpolation=None)
    entry.read(data / "applications" / "bidcheck.desktop", encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert shlex.split(desktop["Exec"]) == [str(app / "bidcheck-gui"), "%F"]
    assert (desktop["Icon"], desktop["MimeType"], desktop["Type"]) == (
        "bidcheck",
        "application/x-bidcheck;",
        "Application",
    )
    icon = data / "icons" / "hicolor" / "scalable" / "apps" / "bidcheck.svg"
    assert icon.read_bytes() == (app / "_internal" / "resources" / "icons" / "bidcheck.svg").read_bytes()
    assert "*.bidcheck" in (data / "mime" / "packages" / "bidcheck.xml").read_text(encoding="utf-8")
    if shutil.which("desktop-file-validate"):
        checked = subprocess.run(["desktop-file-validate", str(data / "applications" / "bidcheck.desktop")])
        assert checked.returncode == 0
    removed = subprocess.run([*script, "--remove"], env=env, capture_output=True, text=True, check=False)
    assert removed.returncode == 0 and not (data / "applications" / "bidcheck.desktop").exists()
    assert not icon.exists()
