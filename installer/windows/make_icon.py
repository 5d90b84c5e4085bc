"""Writes the Windows icon (.ico) of the programs from resources/icons/bidcheck.svg, the icon the window
and the Linux launcher use: one drawing, rendered by Qt's SVG renderer at each size Windows asks for.

Run by installer/bidcheck.spec when it builds on Windows: ``python installer/windows/make_icon.py OUT.ico``.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

from PIL import Image

SVG = Path(__file__).resolve().parents[2] / "resources" / "icons" / "bidcheck.svg"
SIZES = (16, 24, 32, 48, 64, 128, 256)  # Explorer's small, list, large and jumbo views


def render_svg(svg: Path, side: int) -> Image.Image:
    """The drawing rendered on a transparent square of ``side`` pixels, as RGBA."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QIODevice
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])
    image = QImage(side, side, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    QSvgRenderer(str(svg)).render(painter)
    painter.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return Image.open(io.BytesIO(bytes(buffer.data().data()))).convert("RGBA")


def write_icon(out: Path, svg: Path = SVG) -> Path:
    """The .ico at ``out`` holding the drawing at every size of ``SIZES``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    largest = render_svg(svg, SIZES[-1])
    largest.save(out, format="ICO", sizes=[(s, s) for s in SIZES])
    return out


if __name__ == "__main__":
    print(write_icon(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("build/bidcheck.ico")))
