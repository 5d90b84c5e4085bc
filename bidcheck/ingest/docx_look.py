"""How a Word run looks, as far as hiding its text goes: hidden, white on a white page, or tiny.

A run's look is its own formatting (``w:rPr``) over its character style over its paragraph's style over
the document's defaults, each style over the one it is based on. Text a printed bid does not show is a
finding of its file (``bidcheck.text.concealed``), not a reason to leave it out of the comparison.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass

from lxml import etree

__all__ = ["Look", "RunLooks"]

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_NS = {"w": W}
_TINY_HALF_POINTS = 4  # w:sz counts half-points: 2 pt or less no one reads
_NEAR_WHITE = 0xF0  # every channel at least this: white or near-white
_STYLE_DEPTH = 10  # basedOn chains longer than this (or circular) stop here
# formatting in the body that may conceal a run, found by libxml2 alone: looser than ``look_of`` and
# ``_kind``, never stricter (hidden not switched off; every channel's first hex digit F; a size of 4
# half-points or less, or one that is no number)
_VAL = "translate(@w:val, 'AEFLNOSRTU', 'aeflnosrtu')"
_HIGH = "translate(substring(@w:val, {n}, 1), 'f', 'F') = 'F'"
_CONCEALING = etree.XPath(
    f"boolean(//w:vanish[not({_VAL} = '0' or {_VAL} = 'false' or {_VAL} = 'off')]"
    f" | //w:color[string-length(@w:val) = 6 and {' and '.join(_HIGH.format(n=n) for n in (1, 3, 5))}]"
    f" | //w:sz[not(number(@w:val) > {_TINY_HALF_POINTS})])",
    namespaces=_NS,
)
_STYLES_USED = etree.XPath("//w:pStyle/@w:val | //w:rStyle/@w:val", namespaces=_NS)


def _q(tag: str) -> str:
    return f"{{{W}}}{tag}"


@dataclass(frozen=True)
class Look:
    """What a run's formatting says of its visibility; ``None`` where it says nothing."""

    hidden: bool | None = None
    color: str | None = None
    size: int | None = None  # half-points
    backed: bool | None = None  # shading or highlight behind the text (white text then shows)

    def over(self, under: Look) -> Look:
        """This look where it says something, ``under`` elsewhere."""
        return Look(*(a if a is not None else b for a, b in zip(astuple(self), astuple(under), strict=True)))


def _on(node: etree._Element) -> bool:
    return (node.get(_q("val")) or "true").lower() not in ("0", "false", "off")


def _size(node: etree._Element) -> int | None:
    try:
        return int(node.get(_q("val")) or "")
    except ValueError:
        return None


def look_of(rpr: etree._Element | None) -> Look:
    """The look a ``w:rPr`` element gives."""
    if rpr is None:
        return Look()
    hidden = color = size = backed = None
    for node in rpr:
        tag = node.tag
        if tag == _q("vanish"):
            hidden = _on(node)
        elif tag == _q("color"):
            color = (node.get(_q("val")) or "").upper()
        elif tag == _q("sz"):
            size = _size(node)
        elif tag == _q("highlight"):
            backed = (node.get(_q("val")) or "none") != "none"
        elif tag == _q("shd"):
            backed = not near_white(node.get(_q("fill")) or "auto")
    return Look(hidden, color, size, backed)


def _conceals(look: Look) -> bool:
    """Whether a look hides, whitens or shrinks text (white only shows on a white page: a check no
    stricter than the reader's)."""
    return (
        bool(look.hidden)
        or (look.size is not None and look.size <= _TINY_HALF_POINTS)
        or near_white(look.color or "")
    )


def near_white(color: str) -> bool:
    """Whether a Word colour (``FFFFFF``, ``auto``...) is white or nearly so (``auto`` is not)."""
    if len(color) != 6:
        return False
    try:
        channels = [int(color[n : n + 2], 16) for n in (0, 2, 4)]
    except ValueError:
        return False
    return min(channels) >= _NEAR_WHITE


class RunLooks:
    """The concealment of each run of a document, from its formatting and its styles."""

    def __init__(self, styles: etree._Element | None, document: etree._Element) -> None:
        self._own: dict[str, tuple[Look, str]] = {}  # style id -> (its own look, the style it is based on)
        self._resolved: dict[str, Look] = {}
        self._cache: dict[tuple[str, str, Look], str | None] = {}
        self._default_para = ""
        self._defaults = Look()
        if styles is not None:
            self._read_styles(styles)
        background = document.find("w:background", _NS)
        color = (background.get(_q("color")) or "FFFFFF").upper() if background is not None else "FFFFFF"
        self._white_page = color == "AUTO" or near_white(color)
        self.possible = self._may_conceal(document)

    def _read_styles(self, styles: etree._Element) -> None:
        self._defaults = look_of(styles.find("w:docDefaults/w:rPrDefault/w:rPr", _NS))
        for style in styles.iterfind("w:style", _NS):
            style_id = style.get(_q("styleId")) or ""
            based = style.find("w:basedOn", _NS)
            based_on = (based.get(_q("val")) or "") if based is not None else ""
            self._own[style_id] = (look_of(style.find("w:rPr", _NS)), based_on)
            if style.get(_q("type")) == "paragraph" and _on_attr(style.get(_q("default"))):
                self._default_para = style_id

    def _may_conceal(self, document: etree._Element) -> bool:
        """Whether any layer of a run's look can conceal it: the defaults, a style the body uses (with
        the styles it is based on), or formatting in the body. Without one no run is concealed, and the
        reader need not resolve each run's look (most files: a table style's white heading text is
        no such layer unless the body uses the style)."""
        used = {self._default_para, *map(str, _STYLES_USED(document))}
        if any(_conceals(look) for look in (self._defaults, *map(self._style, used))):
            return True
        return bool(_CONCEALING(document))

    def _style(self, style_id: str, depth: int = 0) -> Look:
        if style_id not in self._own or depth > _STYLE_DEPTH:
            return Look()
        if style_id not in self._resolved:
            own, based = self._own[style_id]
            self._resolved[style_id] = own.over(self._style(based, depth + 1))
        return self._resolved[style_id]

    def concealment(self, run: etree._Element, para_style: str) -> str | None:
        """``hidden``, ``tiny`` or ``white`` for a run a printed page would not show, else ``None``."""
        rpr = run.find("w:rPr", _NS)
        style = rpr.find("w:rStyle", _NS) if rpr is not None else None
        run_style = (style.get(_q("val")) or "") if style is not None else ""
        key = (para_style, run_style, look_of(rpr))
        if key not in self._cache:
            look = key[2].over(self._style(run_style)).over(self._style(para_style or self._default_para))
            self._cache[key] = self._kind(look.over(self._defaults))
        return self._cache[key]

    def _kind(self, look: Look) -> str | None:
        if look.hidden:
            return "hidden"
        if look.size is not None and look.size <= _TINY_HALF_POINTS:
            return "tiny"
        if self._white_page and not look.backed and near_white(look.color or ""):
            return "white"
        return None


def _on_attr(value: str | None) -> bool:
    return (value or "0").lower() in ("1", "true", "on")
