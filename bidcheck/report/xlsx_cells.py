"""What the workbook's sheets share in styling cells: one style record for cells styled alike
(``Styles``), and a fill."""

from __future__ import annotations

from collections.abc import Callable
from copy import copy

from openpyxl.cell.cell import Cell
from openpyxl.styles import PatternFill
from openpyxl.styles.cell_style import StyleArray

from bidcheck.report.sheetxml import ValueSheet

__all__ = ["Styles", "filled"]


class Styles:
    """Cells styled alike share one style record. The first cell of each kind is styled through
    openpyxl's attributes; later ones take a copy of its style ids, which skips hashing the same fill
    and format again for every cell (most of the time of writing a 200-bid matrix)."""

    def __init__(self) -> None:
        self._done: dict[tuple[object, ...], Cell] = {}
        self._made: dict[tuple[object, ...], StyleArray] = {}

    def apply(self, cell: Cell, key: tuple[object, ...], style: Callable[[Cell], None]) -> None:
        first = self._done.get(key)
        if first is None:
            style(cell)
            self._done[key] = cell
        else:
            cell._style = copy(first._style)

    def of(self, sheet: ValueSheet, key: tuple[object, ...], style: Callable[[Cell], None]) -> StyleArray:
        """The style ``style`` gives a cell, made the first time ``key`` is asked for (for ``put_row``)."""
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = sheet.style_of(style)
        return made


def filled(color: str) -> Callable[[Cell], None]:
    def style(cell: Cell) -> None:
        cell.fill = PatternFill("solid", fgColor=color)

    return style
