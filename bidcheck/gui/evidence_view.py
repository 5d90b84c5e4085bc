"""The side-by-side evidence of one pair: both documents, shared passages highlighted, located and navigable.

Each side shows the document's whole clean text when it is at hand (``texts.DocText``) and otherwise only
its passages, one after the other under their page and paragraph. Passages are painted as extra
selections: lightly over the passage, strongly over its aligned characters (``marks``), grey for
template/common text, blue for the passage in focus. Selecting a passage (in the list, with
next/previous, or by clicking it in either text) scrolls both sides to it. Offsets here are the passages'
own (Python characters of the text shown); each ``DocPane`` turns them into Qt's positions and back.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QKeySequence, QPixmap, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from bidcheck import words
from bidcheck.model import HistoryMatch, PairResult, Passage
from bidcheck.model import Signal as ModelSignal
from bidcheck.review import Review

from .doc_pane import DocPane, SideText, side_text
from .group_review import review_fields
from .history_view import HistoryView
from .i18n import tr
from .style import (
    CURRENT_BG,
    CURRENT_MARK,
    FLAGGED_BG,
    FLAGGED_FG,
    LEVEL_COLOURS,
    LIVE_BG,
    LIVE_MARK,
    SEMANTIC_BG,
    level_name,
)
from .tables import list_table
from .texts import DocText

__all__ = ["EvidenceView", "SharedPicture", "passage_kind"]


def passage_kind(passage: Passage) -> str:
    """What a passage is, in words, in the interface language."""
    return tr(words.passage_kind(passage))


def _paint_kind(passage: Passage) -> str:
    """How a passage not in focus is highlighted: a rewrite in its own colour, evidence, or greyed."""
    if passage.semantic:
        return "semantic"
    return "live" if passage.live else "flagged"


PASSAGE_COLUMNS = ("#", "A 页·段", "B 页·段", "字数", "相似度", "类别")


def _signal_html(index: int, signal: ModelSignal) -> str:
    """A signal's line, a link to its place when it has one (facts and records of the file have none)."""
    line = html.escape(words.signal_line(signal))
    located = any(place is not None and place.page for place in (signal.a, signal.b))  # not a file's record
    return (f'<a href="{index}">{line}</a>' if located else line) + _bill_rows_html(signal)


_BILL_ROWS_SHOWN = 6


def _bill_rows_html(signal: ModelSignal) -> str:
    """A bill signal's first items side by side (code, name, both unit prices, the control price)."""
    if not signal.rows:
        return ""

    def price(value: float | None) -> str:
        return f"{value:,.2f}" if value is not None else "—"

    head = "".join(
        f"<th>{html.escape(tr(t))}</th>" for t in ("项目编码", "项目名称", "A 单价", "B 单价", "控制价")
    )
    rows = "".join(
        f"<tr><td>{html.escape(r.code)}</td><td>{html.escape(words.bill_row_name(r))}</td><td>{price(r.a)}</td>"
        f"<td>{price(r.b)}</td><td>{price(r.control)}</td></tr>"
        for r in signal.rows[:_BILL_ROWS_SHOWN]
    )
    more = len(signal.rows) - _BILL_ROWS_SHOWN
    tail = f"<br>{html.escape(tr('其余各项见 Excel 报告的“清单比对”表'))}（{more}）" if more > 0 else ""
    return f'<table cellspacing="0" cellpadding="2" border="1"><tr>{head}</tr>{rows}</table>{tail}'


SharedPicture = tuple[bytes, bytes, str]  # both thumbnails (PNG) and a caption
_PICTURES_SHOWN = 4


def _picture_pair(first: bytes, second: bytes, caption: str) -> QWidget:
    """Two thumbnails side by side over their caption."""
    box = QWidget()
    column = QVBoxLayout(box)
    column.setContentsMargins(0, 0, 12, 0)
    row = QHBoxLayout()
    for data in (first, second):
        image = QLabel()
        pixmap = QPixmap()
        pixmap.loadFromData(data, "PNG")
        image.setPixmap(pixmap.scaled(96, 96, Qt.AspectRatioMode.KeepAspectRatio))
        row.addWidget(image)
    column.addLayout(row)
    label = QLabel(caption)
    label.setTextFormat(Qt.TextFormat.PlainText)
    column.addWidget(label)
    return box


class EvidenceView(QWidget):
    """A pair's shared passages, listed and shown in both documents side by side."""

    passage_selected = Signal(int)  # index into the pair's passages
    review_changed = Signal(str, object)  # a pair's key (``review.pair_key``) and the panel's ``Review``

    def __init__(self) -> None:
        super().__init__()
        self._pair: PairResult | None = None
        self._texts: tuple[SideText, SideText] | None = None
        self._visible: list[int] = []
        self._current: int | None = None
        self._hide_flagged = False
        self._build()

    # -- building -------------------------------------------------------------------------------------

    def _build(self) -> None:
        self.heading = QLabel(tr("选择一对文件，查看共同段落"))
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.15)
        font.setBold(True)
        self.heading.setFont(font)
        self.badge = QLabel()
        self.legend = self._legend()
        self.reason = QLabel()
        self.reason.setWordWrap(True)
        self.reason.setTextFormat(Qt.TextFormat.PlainText)
        self.signals = QLabel()  # the pair's signs beyond shared wording, one a line; a click shows one
        self.signals.setWordWrap(True)
        self.signals.setTextFormat(Qt.TextFormat.RichText)
        self.signals.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.signals.linkActivated.connect(lambda href: self.show_signal(int(href)))
        self.signals.hide()
        self.history = HistoryView()  # the bids' text in earlier sections (with a library)
        self.pictures = QWidget()  # the pictures two bids share, thumbnails side by side
        self._picture_row = QHBoxLayout(self.pictures)
        self._picture_row.setContentsMargins(0, 0, 0, 0)
        self.pictures.hide()
        self.review_state, self.review_note = review_fields()  # the panel's mark on the pair shown
        self.review_note.setMinimumWidth(220)
        self._review_key = ""
        self.review_state.currentIndexChanged.connect(lambda _i: self._review_edited())
        self.review_note.textEdited.connect(lambda _text: self._review_edited())  # kept as typed
        self.review_note.editingFinished.connect(self._review_edited)
        self.review_state.setEnabled(False)
        self.review_note.setEnabled(False)
        self.counter = QLabel()
        self.previous_button = QPushButton(tr("◀ 上一段"))
        self.next_button = QPushButton(tr("下一段 ▶"))
        self.previous_button.clicked.connect(self.previous_passage)
        self.next_button.clicked.connect(self.next_passage)
        for button, keys, step in (
            (self.next_button, ("F3", "Ctrl+Down"), self.next_passage),
            (self.previous_button, ("Shift+F3", "Ctrl+Up"), self.previous_passage),
        ):  # from either text, the list or the buttons: wherever the focus is in this view
            for key in keys:
                QShortcut(
                    QKeySequence(key), self, step, context=Qt.ShortcutContext.WidgetWithChildrenShortcut
                )
            button.setToolTip(" / ".join(keys))
        self.passages = self._passage_table()
        self.left, self.right = DocPane(), DocPane()
        self.left.clicked.connect(lambda offset: self._clicked(0, offset))
        self.right.clicked.connect(lambda offset: self._clicked(1, offset))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._top_row())
        layout.addWidget(self.legend)
        layout.addWidget(self.reason)
        layout.addWidget(self.signals)
        layout.addWidget(self.pictures)
        self.split = QSplitter(Qt.Orientation.Vertical)  # the history above the texts, its share the user's
        self.split.addWidget(self.history)
        self.split.addWidget(self._body())
        self.split.setStretchFactor(0, 0)
        self.split.setStretchFactor(1, 1)
        self.split.setCollapsible(1, False)
        layout.addWidget(self.split, 1)
        self._update_buttons()

    @staticmethod
    def _legend() -> QLabel:
        """What the colours of both texts mean, in a line."""
        swatches = (
            (LIVE_BG, None, "共同段落"),
            (LIVE_MARK, None, "逐字相同的字"),
            (CURRENT_BG, CURRENT_MARK, "当前段落"),
            (SEMANTIC_BG, None, "语义改写"),
            (FLAGGED_BG, FLAGGED_FG, "招标文件/模板或多家共有（不计入）"),
        )
        parts = [
            f'<span style="background:{bg.name()};color:{(fg or QColor("#1F2328")).name()}">'
            f"&nbsp;{html.escape(tr(word))}&nbsp;</span>"
            for bg, fg, word in swatches
        ]
        legend = QLabel(tr("颜色：") + "&nbsp;&nbsp;".join(parts))
        legend.setTextFormat(Qt.TextFormat.RichText)
        legend.setObjectName("evidence-legend")
        return legend

    def _top_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addWidget(self.heading)
        row.addWidget(self.badge)
        row.addWidget(self.review_state)
        row.addWidget(self.review_note)
        row.addStretch(1)
        row.addWidget(self.counter)
        row.addWidget(self.previous_button)
        row.addWidget(self.next_button)
        return row

    def _body(self) -> QSplitter:
        texts = QSplitter(Qt.Orientation.Horizontal)
        texts.addWidget(self.left)
        texts.addWidget(self.right)
        body = QSplitter(Qt.Orientation.Horizontal)
        body.addWidget(self.passages)
        body.addWidget(texts)
        body.setStretchFactor(0, 0)
        body.setStretchFactor(1, 1)
        body.setSizes([380, 1200])
        return body

    def _passage_table(self) -> QTableWidget:
        table = list_table(PASSAGE_COLUMNS)
        table.setWordWrap(False)
        table.setMinimumWidth(300)
        table.currentCellChanged.connect(lambda row, *_: self._row_chosen(row))
        return table

    # -- what is shown --------------------------------------------------------------------------------

    def show_pair(
        self,
        pair: PairResult,
        names: tuple[str, str],
        texts: tuple[DocText | None, DocText | None],
        pictures: Sequence[SharedPicture] = (),
    ) -> None:
        """Show a pair: both documents, its passages, and the first evidence passage in focus;
        ``pictures``: the thumbnails of the pictures the two share, shown side by side."""
        self._show_pictures(pictures)
        self._pair = pair
        sides_a = tuple(p.a for p in pair.passages)
        sides_b = tuple(p.b for p in pair.passages)
        self._texts = (side_text(sides_a, texts[0]), side_text(sides_b, texts[1]))
        self.heading.setText(f"{names[0]}  ↔  {names[1]}")
        self._show_level(pair)
        self.reason.setText(pair.reason)
        self.signals.setText("<br>".join(_signal_html(n, s) for n, s in enumerate(pair.signals)))
        self.signals.setVisible(bool(pair.signals))
        self.left.set_text(names[0], self._texts[0], sides_a)
        self.right.set_text(names[1], self._texts[1], sides_b)
        self._current = None
        self._refresh_list()
        first = next((i for i in self._visible if pair.passages[i].live), None)
        if first is None and self._visible:
            first = self._visible[0]
        if first is not None:
            self.select_passage(first)
        else:
            self._paint()

    def show_history(self, names: tuple[str, str], matches: tuple[tuple[HistoryMatch, ...], ...]) -> None:
        """Show the history of the pair's bids above the texts, in no more than a fifth of the room
        (the texts are the evidence; the splitter gives the history more when asked)."""
        self.history.show_history(names, matches)
        if not self.history.isVisible():
            return
        room = sum(self.split.sizes()) or self.split.height()
        height = min(self.history.height_for_rows(), max(room // 5, self.history.minimumSizeHint().height()))
        self.split.setSizes([height, max(room - height, 0)])

    def _show_pictures(self, pictures: Sequence[SharedPicture]) -> None:
        row = self._picture_row
        while row.count():
            item = row.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        for first, second, caption in pictures[:_PICTURES_SHOWN]:
            row.addWidget(_picture_pair(first, second, caption))
        row.addStretch(1)
        self.pictures.setVisible(bool(pictures))

    def clear(self) -> None:
        """Show no pair."""
        self._show_pictures(())
        self._pair, self._texts, self._current, self._visible = None, None, None, []
        self.heading.setText(tr("选择一对文件，查看共同段落"))
        self.badge.clear()
        self.badge.setStyleSheet("")
        self.reason.clear()
        self.signals.clear()
        self.signals.hide()
        self.history.clear()
        self.history.hide()
        self.left.clear()
        self.right.clear()
        self.passages.setRowCount(0)
        self._update_buttons()

    def _show_level(self, pair: PairResult) -> None:
        colour = LEVEL_COLOURS[pair.level].name()
        raised_by_signs = pair.level != "none" and not any(p.live for p in pair.passages)
        figure = tr("迹象") if raised_by_signs else f"{pair.similarity:.1%}"  # no shared text: no 0.0%
        self.badge.setText(f" {level_name(pair.level)}  {figure} ")
        self.badge.setStyleSheet(
            f"QLabel {{ background: {colour}; color: white; border-radius: 9px; padding: 2px 8px;"
            " font-weight: bold; }"
        )

    def set_hide_flagged(self, hide: bool) -> None:
        """Hide (or show, greyed) the passages that are template or common text."""
        self._hide_flagged = hide
        if self._pair is None:
            return
        current = self._current
        self._refresh_list()
        if current in self._visible:
            self.select_passage(current)
        elif self._visible:
            self.select_passage(self._visible[0])
        else:
            self._current = None
            self._paint()

    @property
    def current_passage(self) -> int | None:
        """The index (in the pair's passages) of the passage in focus."""
        return self._current

    @property
    def visible_passages(self) -> list[int]:
        """The indexes of the passages listed, in order."""
        return list(self._visible)

    def span(self, side: int, index: int) -> tuple[int, int]:
        """Where passage ``index`` lies in the text shown on side 0 (A) or 1 (B)."""
        assert self._texts is not None
        return self._texts[side].spans[index]

    # -- the panel's mark -----------------------------------------------------------------------------

    def show_review(self, key: str, review: Review | None) -> None:
        """Show (and let the panel change) the mark on the pair shown, named by ``key``."""
        self._review_key = ""  # no edit is told while the fields are filled
        review = review or Review()
        self.review_state.setCurrentIndex(self.review_state.findData(review.state))
        self.review_note.setText(review.note)
        self._review_key = key
        self.review_state.setEnabled(True)
        self.review_note.setEnabled(True)

    def _review_edited(self) -> None:
        if self._review_key:
            review = Review(self.review_state.currentData(), self.review_note.text().strip())
            self.review_changed.emit(self._review_key, review)

    # -- navigating -----------------------------------------------------------------------------------

    def show_signal(self, index: int) -> None:
        """Bring signal ``index`` of the pair to view on both sides, where its place is in the text shown."""
        if self._pair is None or self._texts is None or not 0 <= index < len(self._pair.signals):
            return
        signal = self._pair.signals[index]
        for pane, texts, place in (
            (self.left, self._texts[0], signal.a),
            (self.right, self._texts[1], signal.b),
        ):
            if place is not None and place.text and (start := texts.text.find(place.text)) >= 0:
                pane.jump_to(start, start + len(place.text))

    def select_passage(self, index: int) -> None:
        """Bring passage ``index`` into focus on both sides and in the list."""
        if self._pair is None or self._texts is None or index not in self._visible:
            return
        self._current = index
        for pane, texts in ((self.left, self._texts[0]), (self.right, self._texts[1])):
            pane.jump_to(*texts.spans[index])
        row = self._visible.index(index)
        if self.passages.currentRow() != row:
            self.passages.blockSignals(True)
            self.passages.selectRow(row)
            self.passages.blockSignals(False)
        self.passages.scrollTo(self.passages.model().index(row, 0))
        self._paint()
        self._update_buttons()
        self.passage_selected.emit(index)

    def next_passage(self) -> None:
        """Focus the next listed passage."""
        self._step(1)

    def previous_passage(self) -> None:
        """Focus the previous listed passage."""
        self._step(-1)

    def _step(self, delta: int) -> None:
        if not self._visible:
            return
        row = self._visible.index(self._current) + delta if self._current in self._visible else 0
        if 0 <= row < len(self._visible):
            self.select_passage(self._visible[row])

    def _row_chosen(self, row: int) -> None:
        if 0 <= row < len(self._visible):
            self.select_passage(self._visible[row])

    def _clicked(self, side: int, offset: int) -> None:
        if self._texts is None:
            return
        spans = self._texts[side].spans
        hit = next((i for i in self._visible if spans[i][0] <= offset < spans[i][1]), None)
        if hit is not None and hit != self._current:
            self.select_passage(hit)

    # -- drawing --------------------------------------------------------------------------------------

    def _refresh_list(self) -> None:
        assert self._pair is not None
        passages = self._pair.passages
        self._visible = [i for i, p in enumerate(passages) if p.live or not self._hide_flagged]
        table = self.passages
        table.blockSignals(True)
        table.setRowCount(len(self._visible))
        for row, index in enumerate(self._visible):
            self._fill_row(row, index, passages[index])
        table.blockSignals(False)
        self._update_buttons()

    def _fill_row(self, row: int, index: int, passage: Passage) -> None:
        values = (
            str(index + 1),
            f"{passage.a.page} · {passage.a.paragraph}",
            f"{passage.b.page} · {passage.b.paragraph}",
            f"{passage.chars:,}",
            f"{passage.similarity:.0%}",
            passage_kind(passage),
        )
        for col, value in enumerate(values):
            item = QTableWidgetItem(value)
            if not passage.live:
                item.setForeground(FLAGGED_FG)
            elif passage.semantic:
                item.setBackground(SEMANTIC_BG)
            if col in (0, 3, 4):
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setToolTip(passage.a.text[:300])
            self.passages.setItem(row, col, item)

    def _paint(self) -> None:
        if self._pair is None or self._texts is None:
            return
        for side, pane in enumerate((self.left, self.right)):
            spans = self._texts[side].spans
            items = []
            for index in self._visible:
                passage = self._pair.passages[index]
                kind = "current" if index == self._current else _paint_kind(passage)
                marks = (passage.a if side == 0 else passage.b).marks
                items.append((*spans[index], marks, kind))
            pane.paint(items)

    def _update_buttons(self) -> None:
        position = self._visible.index(self._current) + 1 if self._current in self._visible else 0
        self.previous_button.setEnabled(position > 1)
        self.next_button.setEnabled(
            0 < position < len(self._visible) or (position == 0 and bool(self._visible))
        )
        total = len(self._visible)
        self.counter.setText(tr("第 {n} / {total} 段").format(n=position, total=total) if total else "")
