"""Pictures benchmark: what hashing every picture of a section adds to its check.

It writes a section of bids (``bench.corpus``: docx and PDF) twice — once as they are, once with
``--pictures`` photo-like pictures in each docx bid (JPEG, 900 × 600, a fifth of them PNG charts; one
logo in every bid and the tender) — checks both in fresh processes with an empty cache, and prints the
two times, the pictures read and their difference. Target: at most 5 s for 100 bids of 20 pictures.
It also hashes the section's pictures in this process alone (``picture_from_bytes``, CPU time, best of
three), which a shared machine's load disturbs far less than two whole checks.

Only the docx bids (about half) get pictures: ``--pictures 40`` gives a 100-bid section about 2,000.

Usage: .venv/bin/python -m bench.pictures [--bids 100] [--pictures 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import io
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from docx import Document as open_docx
from docx.shared import Inches
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from bench.corpus import generate_section
from bidcheck.ingest.pictures import picture_from_bytes

__all__ = ["add_pictures", "encoded", "photo", "screenshot"]

_GRAIN = 6  # the standard deviation of a photo's grain, in grey levels
_CJK_FONTS = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
)


def photo(seed: int, size: tuple[int, int] = (900, 600)) -> Image.Image:
    """A photo-like picture: soft coloured blobs on a ground, different for each seed, with a camera's
    grain (no two neighbouring pixels of a photo are quite the same colour)."""
    rng = random.Random(seed)
    image = Image.new("RGB", size, (rng.randint(0, 255),) * 3)
    draw = ImageDraw.Draw(image)
    for _ in range(25):
        x, y, r = rng.randint(0, size[0]), rng.randint(0, size[1]), rng.randint(20, 200)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=tuple(rng.randint(0, 255) for _ in range(3)))
    pixels = np.asarray(image.filter(ImageFilter.GaussianBlur(3)), dtype=np.int16)
    grain = np.random.default_rng(seed).normal(0, _GRAIN, pixels.shape).round().astype(np.int16)
    return Image.fromarray(np.clip(pixels + grain, 0, 255).astype(np.uint8), "RGB")


def screenshot(seed: int, size: tuple[int, int] = (1200, 800)) -> Image.Image:
    """A screenshot-like picture of a public query site (a credit-query page, as tender documents show
    for an example): a coloured title bar, a search box and a table of results in text, on white."""
    rng = random.Random(seed)
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    font = _font(22)
    draw.rectangle((0, 0, size[0], 90), fill=(21, 88, 168))
    draw.text((40, 28), "信用查询 · 失信被执行人名单查询结果", fill="white", font=font)
    draw.rectangle((40, 120, size[0] - 200, 170), outline=(180, 180, 180), width=2)
    draw.rectangle((size[0] - 180, 120, size[0] - 40, 170), fill=(230, 120, 20))
    draw.text((size[0] - 150, 130), "查询", fill="white", font=font)
    for row in range(12):
        top = 200 + row * 48
        draw.rectangle((40, top, size[0] - 40, top + 48), outline=(210, 210, 210))
        words = "".join(
            rng.choice("公司有限责任建设工程科技信息查询记录无结果统一社会代码") for _ in range(18)
        )
        draw.text((56, top + 12), f"{row + 1}  {words}", fill=(40, 40, 40), font=font)
    return image


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A CJK font where one is installed (``make office-deps``), else Pillow's own."""
    for path in _CJK_FONTS:
        if Path(path).exists():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default()


def encoded(image: Image.Image, fmt: str = "PNG", **options: object) -> bytes:
    """A picture as the bytes of an image file."""
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def add_pictures(path: Path, pictures: list[bytes]) -> None:
    """Append pictures to a .docx, one a paragraph (python-docx's inline pictures)."""
    document = open_docx(str(path))
    for data in pictures:
        document.add_picture(io.BytesIO(data), width=Inches(3))
    document.save(str(path))


def _pictures(bid: int, count: int) -> list[bytes]:
    logo = encoded(photo(0, (300, 120)))
    own = [
        encoded(photo(bid * 1000 + n, (700, 500))) if n % 5 == 0 else encoded(photo(bid * 1000 + n), "JPEG")
        for n in range(1, count)
    ]
    return [logo, *own]


def _timed_check(folder: Path) -> float:
    """Seconds of one check of the section in a fresh process with an empty cache."""
    code = (
        "import sys, time; from pathlib import Path; from bidcheck.pipeline import CheckInputs, check; "
        "from bidcheck.config import Settings; f = Path(sys.argv[1]); t = time.perf_counter(); "
        "r = check(CheckInputs((f / 'bids',), tuple((f / 'tender').iterdir())), Settings()); "
        "print(time.perf_counter() - t, sum(len(d.pictures) for d in r.documents))"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "BIDCHECK_CACHE_DIR": cache}
        command = [sys.executable, "-c", code, str(folder)]
        out = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if out.returncode:
        raise RuntimeError(out.stderr)
    seconds, pictures = out.stdout.split()
    print(f"  {folder.name}: {float(seconds):.1f} s, {pictures} pictures read")
    return float(seconds)


def hashing_seconds(pictures: list[bytes]) -> float:
    """CPU seconds to hash ``pictures`` once in this process (best of three)."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        for data in pictures:
            picture_from_bytes(data, 1)
        best = min(best, time.process_time() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bids", type=int, default=100)
    parser.add_argument("--pictures", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        plain, pictured = Path(temp) / "plain", Path(temp) / "pictured"
        for folder in (plain, pictured):
            generate_section(folder, args.bids, args.seed)
        started = time.perf_counter()
        docx = sorted((pictured / "bids").glob("*.docx"))
        written: list[bytes] = []
        for n, bid in enumerate(docx):
            written += _pictures(n, args.pictures)
            add_pictures(bid, written[-args.pictures :])
        for tender in (pictured / "tender").iterdir():
            add_pictures(tender, _pictures(-1, 1))
        print(
            f"{len(docx)} docx bids of {args.bids}: pictures written in {time.perf_counter() - started:.0f} s"
        )
        cpu = hashing_seconds(written)
        each = cpu / len(written) * 1000
        print(f"hashing the {len(written)} pictures: {cpu:.2f} s CPU ({each:.2f} ms each)")
        without, with_ = _timed_check(plain), _timed_check(pictured)
    print(f"bids {args.bids}, pictures a docx bid {args.pictures}: check {without:.1f} s without pictures,")
    print(f"{with_:.1f} s with them: +{with_ - without:.1f} s")
    print(f"command: .venv/bin/python -m bench.pictures --bids {args.bids} --pictures {args.pictures}")


if __name__ == "__main__":
    main()
