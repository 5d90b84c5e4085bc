"""The read-only list tables of the views: whole rows selected one at a time, headers in the interface
language, columns as wide as their contents and the last one taking the rest."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget

from .i18n import tr

__all__ = ["list_table"]


def list_table(columns: Sequence[str]) -> QTableWidget:
    """An empty read-only table with these (Chinese) column titles."""
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeaderLabels([tr(c) for c in columns])
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    return table
