"""Pictures two bids share: the same site photo or scanned certificate in two bidders' bids — the same
pixels (``exact``), or the same picture re-encoded, resized or recompressed (``similar``:
perceptual hashes at most ``image_hash_distance`` bits apart).

A picture the tender holds (its forms, the agency's logo) is no sign, nor one that more bids hold than
``most_holders`` allows (a screenshot of a public site, a standard seal: listed as the section's), nor one
that bidders of the library's other sections hold (``SectionInfo.seen_by_many``: the world's). A picture
a computer drew (``Picture.drawn``: a screenshot of a credit-query site, an example form, an authority's
logo) is a supporting sign only: such pictures come from public places as often as from a bidder, where
a photograph of a site or a scan of a bidder's own papers is the bidder's. A picture that is mostly
paper (a scanned page of text, a drawing on white) counts only as the same pixels: at the hash's 9 × 8
such pictures all look alike. Every picture's hash is compared with every other's in numpy blocks.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt

from bidcheck.model import Picture, Place, PublicValue, Signal
from bidcheck.ready import Ready
from bidcheck.signals.base import Linked, SectionInfo, most_holders, value_key

__all__ = ["find", "near_pairs", "picture_keys"]

_DRAWN = "（截图、图表、标志或表格一类电脑绘制的图片，常来自公开来源，仅作辅助迹象）"
_BLOCK = 256  # rows of the distance matrix computed at once
_BITS = np.array([bin(n).count("1") for n in range(256)], dtype=np.uint8)


def _distances(rows: npt.NDArray[np.uint64], columns: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint8]:
    """The Hamming distances between each of ``rows`` and each of ``columns`` (64-bit hashes)."""
    xor = rows[:, None] ^ columns[None, :]
    counts: npt.NDArray[np.uint8] = _BITS[xor.view(np.uint8).reshape(*xor.shape, 8)].sum(
        axis=-1, dtype=np.uint8
    )
    return counts


def near_pairs(hashes: Sequence[int], others: Sequence[int], distance: int) -> Iterator[tuple[int, int]]:
    """The (index in ``hashes``, index in ``others``) of every two hashes at most ``distance`` bits apart."""
    if not hashes or not others:
        return
    left = np.array(hashes, dtype=np.uint64)
    right = np.array(others, dtype=np.uint64)
    for start in range(0, len(left), _BLOCK):
        near = np.argwhere(_distances(left[start : start + _BLOCK], right) <= distance)
        for row, column in near.tolist():
            yield start + row, column


def _place(picture: Picture) -> Place:
    what = "截图、图表一类电脑绘制的图片" if picture.drawn else "图片"
    return Place(picture.page, 0, f"{what}（{picture.width}×{picture.height} 像素）")


def _signal(mine: Picture, theirs: Picture, holders: int) -> Signal:
    exact = mine.digest == theirs.digest
    bits = (mine.phash ^ theirs.phash).bit_count()
    how = "相同的图片" if exact else f"看来相同的图片（重新压缩或缩放过，感知哈希相差 {bits} 位）"
    detail = f"两份文件有{how}：第 {mine.page} 页 / 第 {theirs.page} 页"
    drawn = mine.drawn or theirs.drawn
    detail += _DRAWN if drawn else ""
    value = mine.digest if exact else f"{mine.digest}/{theirs.digest}"
    return Signal(
        "image",
        "supporting" if drawn else "strong",
        "exact" if exact else "similar",
        value,
        detail,
        _place(mine),
        _place(theirs),
        holders,
    )


def _public(bid: Ready, picture: Picture, holders: int, elsewhere: int = 0) -> PublicValue:
    where = f"{bid.doc.name} 第 {picture.page} 页，{picture.width}×{picture.height} 像素"
    return PublicValue("image", "picture", f"{picture.digest[:12]}（{where}）", holders, elsewhere)


def picture_keys(doc: Ready) -> tuple[int, ...]:
    """A document's pictures as the library keeps them: their pixels' digests, hashed (``value_key``)."""
    return tuple(sorted({value_key("picture", p.digest) for p in doc.doc.pictures}))


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked | PublicValue]:
    """Pairs of bids holding the same picture (or a near copy), one strong signal a picture of the
    first bid, located by page on both sides; and the pictures too many bids hold."""
    owned = [(n, p) for n, b in enumerate(bids) for p in b.doc.pictures]
    distance = section.settings.image_hash_distance
    hashes = [p.phash for _, p in owned]
    tender = [p.phash for t in section.tenders for p in t.doc.pictures]
    public = {i for i, _ in near_pairs(hashes, tender, distance)}
    near: dict[int, set[int]] = {}
    for i, j in near_pairs(hashes, hashes, distance):
        mine, theirs = owned[i][1], owned[j][1]
        plain = (mine.plain or theirs.plain) and mine.digest != theirs.digest  # pages of text look alike
        if owned[i][0] != owned[j][0] and not plain:
            near.setdefault(i, set()).add(j)
    most = most_holders(len(bids), section.settings)
    best: dict[tuple[int, int], dict[int, int]] = {}  # (bid, bid) -> picture of the first -> its copy
    many: list[Linked | PublicValue] = []
    count: dict[int, int] = {}  # picture -> bids holding it
    for i, copies in sorted(near.items()):
        count[i] = len({owned[i][0]} | {owned[j][0] for j in copies})
        elsewhere = section.seen_by_many("picture", owned[i][1].digest)
        if i in public or count[i] > most or elsewhere:
            first = i < min(copies)
            many += [_public(bids[owned[i][0]], owned[i][1], count[i], elsewhere)] if first else []
            continue
        for j in sorted(copies, key=lambda j: (owned[j][1].phash ^ owned[i][1].phash).bit_count()):
            if owned[i][0] < owned[j][0]:
                best.setdefault((owned[i][0], owned[j][0]), {}).setdefault(i, j)
    return many + [
        Linked(bids[a].doc.id, bids[b].doc.id, _signal(owned[i][1], owned[j][1], count[i]))
        for (a, b), matches in sorted(best.items())
        for i, j in sorted(matches.items())
    ]
