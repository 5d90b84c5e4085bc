"""The results header's warning when a check had no tender: the result runs high, and how to fix that.

Without the tender every clause the bidders copied from it looks like text they copied from one another.
The warning offers to mark one of the section's files as the tender (the check then runs again), or to
pick the tender from disk.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMenu, QPushButton, QStyle

from bidcheck.model import CheckResult
from bidcheck.report.xlsx import NO_TENDER_WARNING, no_tender_line
from bidcheck.text.chars import replace_unsafe

from .i18n import tr
from .store import SectionFile

__all__ = ["TenderNote"]

_STYLE = """
#tender-note { background: #FFF4CE; border: 1px solid #E8C35A; border-radius: 4px; }
#tender-note QLabel { color: #5C4400; background: transparent; border: none; }
"""


class TenderNote(QFrame):
    """A yellow bar: no tender was given, and a button whose menu marks one (hidden when one was)."""

    tender_picked = Signal(str)  # the path of the section's file chosen as the tender
    browse_requested = Signal()  # the tender is to be picked from disk

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("tender-note")
        self.setStyleSheet(_STYLE)
        icon = QLabel()
        icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning).pixmap(18, 18))
        self.label = QLabel(tr(NO_TENDER_WARNING))
        self.label.setWordWrap(True)
        self.menu = QMenu(self)
        self.button = QPushButton(tr("指定招标文件…"))
        self.button.setToolTip(tr("把标段中的一个文件标为招标文件，然后重新检查"))
        self.button.setMenu(self.menu)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 6, 4)
        row.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.label, 1)
        row.addWidget(self.button, 0, Qt.AlignmentFlag.AlignVCenter)
        self.hide()

    def show_for(self, result: CheckResult | None, files: Sequence[SectionFile]) -> None:
        """Show the warning when ``result`` had no readable tender or template; offer ``files``' bids."""
        if result is None or result.has_tender:
            self.hide()
            return
        line = no_tender_line(result)  # none given, or the one given could not be read (said in Chinese)
        self.label.setText(tr(line) if line == NO_TENDER_WARNING else line)
        self.menu.clear()
        self.menu.addSection(tr("把其中一个文件标为招标文件并重新检查："))
        for item in files:
            if item.role == "bid":
                action = self.menu.addAction(replace_unsafe(item.path.name))
                action.triggered.connect(lambda _checked=False, p=str(item.path): self.tender_picked.emit(p))
        self.menu.addSeparator()
        self.menu.addAction(tr("从磁盘选择招标文件…")).triggered.connect(self.browse_requested.emit)
        self.show()
