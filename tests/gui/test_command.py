"""``bidcheck gui``: the screenshot run end to end, usage errors, and the command line without PySide6."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from bidcheck.cli import ExitStatus, main
from tests.gui.conftest import SAMPLE, TENDER

ROOT = Path(__file__).resolve().parents[2]


def test_screenshot_run_checks_and_saves_the_window(tmp_path: Path) -> None:
    png = tmp_path / "shot.png"
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    command = [sys.executable, "-m", "bidcheck.cli", "gui", str(SAMPLE / "bids"), "--tender", str(TENDER)]
    done = subprocess.run(
        [*command, "--screenshot", str(png)], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    image = QImage(str(png))
    assert (image.width(), image.height()) == (1600, 1000)
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "data" / "bidcheck" / "library.sqlite").exists()  # nothing stored by a screenshot


def test_missing_files_are_a_usage_error() -> None:
    err = io.StringIO()
    assert main(["gui", "no-such-folder"], io.StringIO(), err) == ExitStatus.USAGE
    assert "找不到文件" in err.getvalue()


def test_the_command_line_works_without_pyside6(tmp_path: Path) -> None:
    script = (
        "import sys; sys.modules['PySide6'] = None\n"  # any import of PySide6 now fails
        "from bidcheck.cli import main\n"
        "gui = main(['gui'])\n"
        "check = main(['check', sys.argv[1], '--quiet', '--workers', '1'])\n"
        "print(int(gui), int(check))\n"
    )
    bids = tmp_path / "bids"
    bids.mkdir()
    for name in ("01-甲.txt", "02-乙.txt"):
        (bids / name).write_text("本工程施工组织设计按照规范要求编制，质量目标合格。" * 5, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", script, str(bids)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.split()[-2:] == [str(int(ExitStatus.GUI_FAILED)), "0"], done.stderr[-2000:]
    assert "PySide6" in done.stderr


def test_the_app_carries_its_icon_and_names_its_launcher_entry(tmp_path: Path) -> None:
    """The window icon (resources/icons/bidcheck.svg, drawn by Qt's SVG plugin) and the desktop file name
    the Linux launcher entry is installed under (installer/linux/install-desktop-entry.sh)."""
    script = (
        "from bidcheck.gui.app import application\n"
        "app = application()\n"
        "image = app.windowIcon().pixmap(64, 64).toImage()\n"
        "colours = {image.pixel(x, y) for x in range(64) for y in range(64)}\n"
        "print(app.desktopFileName(), image.width(), len(colours))\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    name, width, colours = done.stdout.split()
    assert (name, width) == ("bidcheck", "64"), done.stderr[-2000:]
    assert int(colours) > 20, "the icon drawn, not an empty picture"
