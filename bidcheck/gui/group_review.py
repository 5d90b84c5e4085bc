"""The panel's mark on a suspected ring (疑似串标组): a small dialog with the group's members, the mark
(待定 / 已核实 / 已排除) and a note. It opens from the group's 标记 link in the section's summary; the
window keeps the mark (``review.group_key``) as it keeps a pair's."""

from __future__ import annotations

import html

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

from bidcheck.review import REVIEW_STATES, Review

from .i18n import tr

__all__ = ["GroupReviewDialog", "review_fields"]


def review_fields(review: Review | None = None) -> tuple[QComboBox, QLineEdit]:
    """The two fields of a mark, filled with ``review`` (待定 and no note when none): its state, chosen
    from 待定 / 已核实 / 已排除, and its note (for a pair in the evidence view, for a ring here)."""
    review = review or Review()
    state = QComboBox()
    for key, word in REVIEW_STATES.items():
        state.addItem(tr(word), key)
    state.setCurrentIndex(state.findData(review.state))
    note = QLineEdit(review.note)
    note.setPlaceholderText(tr("核实备注（随检查保存，写入报告）"))
    return state, note


class GroupReviewDialog(QDialog):
    """Mark one group: its members shown, the mark and the note edited; ``review()`` once accepted."""

    def __init__(self, parent: QWidget | None, title: str, members: str, review: Review | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("标记疑似串标组"))
        self.setMinimumWidth(460)
        review = review or Review()
        self.members = QLabel(members)
        self.members.setWordWrap(True)
        self.state, self.note = review_fields(review)
        choices = QDialogButtonBox.StandardButton
        buttons = QDialogButtonBox(choices.Ok | choices.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(QLabel(f"<b>{html.escape(title)}</b>"))
        form.addRow(tr("成员"), self.members)
        form.addRow(tr("核实"), self.state)
        form.addRow(tr("备注"), self.note)
        form.addRow(buttons)

    def review(self) -> Review:
        """The mark and note as edited."""
        return Review(self.state.currentData(), self.note.text().strip())
