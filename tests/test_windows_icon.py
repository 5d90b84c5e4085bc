"""The Windows programs' icon, written from the app's SVG (installer/windows/make_icon.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]


def _make_icon_module() -> object:
    spec = importlib.util.spec_from_file_location(
        "make_icon", ROOT / "installer" / "windows" / "make_icon.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_icon_holds_every_size_drawn_from_the_svg(tmp_path: Path) -> None:
    make_icon = _make_icon_module()
    out = make_icon.write_icon(tmp_path / "sub" / "bidcheck.ico")  # type: ignore[attr-defined]
    icon = Image.open(out)
    assert icon.format == "ICO"
    assert icon.info["sizes"] == {(s, s) for s in make_icon.SIZES}  # type: ignore[attr-defined]
    icon.size = (256, 256)
    icon.load()
    pixels = icon.convert("RGBA")
    assert pixels.getpixel((1, 1))[3] == 0  # the rounded corner is transparent
    assert pixels.getpixel((128, 20)) == (31, 78, 140, 255)  # the SVG's background #1f4e8c
    colours = pixels.getcolors(maxcolors=256 * 256)
    assert colours is not None and len(colours) > 50  # a drawing, not a flat square


def test_the_spec_and_the_setup_script_use_the_written_icon() -> None:
    spec = (ROOT / "installer" / "bidcheck.spec").read_text(encoding="utf-8")
    assert 'write_icon(ROOT / "build" / "bidcheck.ico")' in spec and "icon=ICON" in spec
    iss = (ROOT / "installer" / "windows" / "bidcheck.iss").read_text(encoding="utf-8")
    assert "SetupIconFile=build\\bidcheck.ico" in iss
