"""The section's files: added by drag and drop, dialog or folder; roles (bid, tender, template); states,
and after a check each bid's total price and the text each file hides (details in the cells' tooltips)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent, QKeyEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QHeaderView, QTableWidget, QTableWidgetItem

from bidcheck.ingest import collect_sources
from bidcheck.ingest.folder import named_as_tender
from bidcheck.model import Document, Role
from bidcheck.text.chars import decoded_name, replace_unsafe
from bidcheck.words import PRICE_UNREAD, concealed_lines, price_place

from .i18n import tr
from .store import ROLES, SectionFile
from .style import ERROR_FG, FLAGGED_FG

__all__ = ["FilesTable", "guess_role"]

ROLE_NAMES = {"bid": "投标文件", "tender": "招标文件", "template": "模板文件"}
COLUMNS = ("文件", "角色", "页数", "字数", "OCR 页", "投标总价", "隐藏文字", "状态")
PAGES, PRICE, CONCEALED, STATUS = 2, 5, 6, 7
_TOOLTIP_LINES = 20  # concealed findings listed in a tooltip; the workbook's file list has them all


def guess_role(path: Path) -> Role:
    """A file named like the tender (招标文件) or its control price (招标控制价) starts as the tender;
    anything else as a bid (the command line's rule: ``ingest.folder.named_as_tender``)."""
    return "tender" if named_as_tender(path) else "bid"


class FilesTable(QTableWidget):
    """The files of one section with their role and, after a check, pages, characters and errors."""

    files_changed = Signal()

    def __init__(self) -> None:
        super().__init__(0, len(COLUMNS))
        self._files: list[SectionFile] = []
        self._documents: dict[Path, Document] = {}
        self.setHorizontalHeaderLabels([tr(c) for c in COLUMNS])
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a long name keeps its number and its end
        self.verticalHeader().setVisible(False)
        self.setAcceptDrops(True)
        self.viewport().setAcceptDrops(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DropOnly)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for col, width in enumerate((136, 84, 44, 58, 52, 104, 60)):
            self.setColumnWidth(col, max(width, header.sectionSizeHint(col)))  # the title fits

    # -- the list --------------------------------------------------------------------------------------

    def files(self) -> tuple[SectionFile, ...]:
        """The files in the order they were added."""
        return tuple(self._files)

    def set_files(self, files: Sequence[SectionFile]) -> None:
        """Replace the list."""
        self._files = list(files)
        self._refresh()

    def add_paths(self, paths: Iterable[Path], role: Role | None = None) -> int:
        """Add files, and the files and bidders' folders of a section's folder (``collect_sources``);
        returns how many were new or took the
        ``role`` given: a file already listed takes the role it is added again with (the tender of a
        folder of bids, named as the tender)."""
        known = {f.path.resolve(): row for row, f in enumerate(self._files)}
        added = 0
        for path in collect_sources([Path(p) for p in paths]):
            row = known.get(path.resolve())
            if row is not None:
                if role is not None and self._files[row].role != role:
                    self.set_role(row, role)
                    added += 1
                continue
            known[path.resolve()] = len(self._files)
            self._files.append(SectionFile(path, role or guess_role(path)))
            added += 1
        if added:
            self._refresh()
        return added

    def remove_selected(self) -> None:
        """Remove the selected rows."""
        rows = {index.row() for index in self.selectionModel().selectedRows()}
        if rows:
            self._files = [f for i, f in enumerate(self._files) if i not in rows]
            self._refresh()

    def set_role(self, row: int, role: Role) -> None:
        """Change the role of one file."""
        if self._files[row].role == role:
            return
        self._files[row] = SectionFile(self._files[row].path, role)
        box = self.cellWidget(row, 1)
        if isinstance(box, QComboBox) and box.currentIndex() != ROLES.index(role):
            box.blockSignals(True)
            box.setCurrentIndex(ROLES.index(role))
            box.blockSignals(False)
        self.files_changed.emit()

    def clear(self) -> None:
        """Remove every file and every state."""
        self._files, self._documents = [], {}
        self._refresh()

    def show_documents(self, documents: Iterable[Document]) -> None:
        """Show the pages, characters, OCR pages and error of each file as the check read it."""
        self._documents = {Path(d.path).absolute(): d for d in documents}
        self._refresh(changed=False)

    def document_at(self, row: int) -> Document | None:
        """The document read from a row's file, once checked."""
        return self._documents.get(self._files[row].path.absolute())

    # -- drawing the rows -------------------------------------------------------------------------------

    def status_item(self, row: int) -> QTableWidgetItem | None:
        """The cell that shows a row's state (an error spans the pages to state columns)."""
        return self.item(row, STATUS if self.columnSpan(row, PAGES) == 1 else PAGES)

    def _refresh(self, changed: bool = True) -> None:
        self.clearSpans()
        self.setRowCount(len(self._files))
        for row, item in enumerate(self._files):
            self._fill_row(row, item, self._documents.get(item.path.absolute()))
        self.viewport().update()
        if changed:
            self.files_changed.emit()

    def _fill_row(self, row: int, item: SectionFile, doc: Document | None) -> None:
        folder = item.path.is_dir()  # a bidder's folder: its files are one bid
        name = QTableWidgetItem(replace_unsafe(decoded_name(item.path.name)) + ("/" if folder else ""))
        name.setToolTip("\n".join([replace_unsafe(str(item.path)), *_parts_lines(doc)]))
        self.setItem(row, 0, name)
        self.setCellWidget(row, 1, self._role_box(row, item.role))
        if doc is not None and not doc.ok:  # the error in plain words gets the room of the empty numbers
            self.setSpan(row, PAGES, 1, STATUS - PAGES + 1)
            self.setItem(row, PAGES, _status_item(doc))
            return
        values = ("", "", "") if doc is None else (doc.pages, doc.chars, doc.ocr_pages)
        for col, value in enumerate(values, start=PAGES):
            self.setItem(row, col, _number_item(f"{value:,}" if isinstance(value, int) else ""))
        self.setItem(row, PRICE, _price_item(doc))
        self.setItem(row, CONCEALED, _concealed_item(doc))
        self.setItem(row, STATUS, _status_item(doc))

    def _role_box(self, row: int, role: Role) -> QComboBox:
        box = QComboBox()
        box.setFrame(False)
        for code in ROLES:
            box.addItem(tr(ROLE_NAMES[code]), code)
        box.setCurrentIndex(ROLES.index(role))
        box.currentIndexChanged.connect(lambda index, r=row: self.set_role(r, ROLES[index]))
        return box

    def paintEvent(self, event: QPaintEvent) -> None:
        """An empty table says what to do."""
        super().paintEvent(event)
        if self._files:
            return
        painter = QPainter(self.viewport())
        painter.setPen(FLAGGED_FG)
        painter.drawText(
            self.viewport().rect(),
            Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
            tr("把投标文件或文件夹拖到这里\n或点击“添加文件”"),
        )

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Delete removes the selected files (only here, not wherever the focus is)."""
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self.selectionModel().hasSelection():
            self.remove_selected()
        else:
            super().keyPressEvent(event)

    # -- drag and drop ----------------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent | QDragMoveEvent) -> None:
        """Accept local files and folders."""
        if event.mimeData().hasUrls() and all(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        """Keep accepting while the drag moves over the rows."""
        self.dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        """Add the dropped files and folders."""
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            self.add_paths(paths)
            event.acceptProposedAction()


def _number_item(text: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


def _price_item(doc: Document | None) -> QTableWidgetItem:
    """A bid's total price, or 未读出 (never a guess) with why in its tooltip; empty before a check and
    for the tender and templates, whose prices are not read."""
    if doc is None or (doc.price is None and not doc.price_error):
        return _number_item("")
    if doc.price is None:
        item = _number_item(tr("未读出"))
        item.setForeground(ERROR_FG)
        item.setToolTip(replace_unsafe(f"{PRICE_UNREAD}：{doc.price_error}"))
        return item
    item = _number_item(f"{doc.price.total:,.2f}")
    item.setToolTip(
        tr("投标总价 {total} 元，读自{place}").format(total=item.text(), place=price_place(doc.price))
    )
    return item


def _concealed_item(doc: Document | None) -> QTableWidgetItem:
    """How many pieces of text a file hides or disguises; each one's kind, place and text in the tooltip."""
    if doc is None:
        return _number_item("")
    item = _number_item(f"{len(doc.concealed):,}")
    if doc.concealed:
        item.setForeground(ERROR_FG)
        lines = concealed_lines(doc.concealed[:_TOOLTIP_LINES])
        if len(doc.concealed) > _TOOLTIP_LINES:
            lines.append(
                tr("……另有 {n} 处（见 Excel 报告的文件清单）").format(n=len(doc.concealed) - _TOOLTIP_LINES)
            )
        item.setToolTip(replace_unsafe("\n".join([tr("隐藏或伪装的文字："), *lines])))
    else:
        item.setToolTip(tr("未发现隐藏或伪装的文字"))
    return item


def _status_item(doc: Document | None) -> QTableWidgetItem:
    if doc is None:
        item = QTableWidgetItem(tr("待检查"))
        item.setForeground(FLAGGED_FG)
    elif not doc.ok:
        item = QTableWidgetItem(doc.error or tr("无法读取"))
        item.setForeground(ERROR_FG)
    elif doc.ocr_pages:
        item = QTableWidgetItem(tr("已读取（{n} 页识别）").format(n=doc.ocr_pages))
    else:
        item = QTableWidgetItem(tr("已读取"))
    item.setToolTip(item.text())
    return item


def _parts_lines(doc: Document | None) -> list[str]:
    """A bidder's folder's files as read: each with its pages, or why it could not be read; and notes."""
    if doc is None:
        return []
    lines = [
        f"{p.name}：{tr('页')} {p.first_page}–{p.first_page + p.pages - 1}"
        if p.error is None
        else f"{p.name}：{p.error}"
        for p in doc.parts
    ]
    return lines + list(doc.notes)
