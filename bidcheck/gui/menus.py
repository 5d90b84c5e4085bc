"""The main window's menus, toolbar and their actions (the file dialogs live here too)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QStyle, QToolBar

from bidcheck import __version__
from bidcheck.notices import bundled_notice, parts, summary

from . import prefs
from .i18n import LANGUAGES, language, tr
from .store import CHECK_SUFFIX

if TYPE_CHECKING:
    from .window import MainWindow

__all__ = ["ask_save_path", "build", "set_busy", "update"]

Actions = dict[str, QAction]
_NEEDS_RESULT = ("export_xlsx", "export_docx", "export_confirmed", "export_json", "save", "save_as")
_IDLE_ONLY = ("new", "open", "add_bids", "add_folder", "add_tender", "add_template", "remove", "settings")


def build(window: MainWindow) -> Actions:
    """Create the actions, menus and toolbar of the window."""
    actions = _actions(window)
    _menus(window, actions)
    _toolbar(window, actions)
    return actions


def _action(window: MainWindow, text: str, slot: object, shortcut: str | None = None) -> QAction:
    action = QAction(tr(text), window)
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
    action.triggered.connect(slot)
    return action


def _actions(w: MainWindow) -> Actions:
    icon = w.style().standardIcon
    actions = {
        "new": _action(w, "新建检查", w.new_check, "Ctrl+N"),
        "open": _action(w, "打开检查…", lambda: _ask_open(w), "Ctrl+O"),
        "save": _action(w, "保存检查", lambda: _save(w), "Ctrl+S"),
        "save_as": _action(w, "另存为…", lambda: _ask_save(w)),
        "export_xlsx": _action(w, "导出 Excel 报告…", lambda: _ask_export(w, ".xlsx")),
        "export_docx": _action(w, "导出 Word 报告…", lambda: _ask_export(w, ".docx")),
        "export_confirmed": _action(w, "导出 Word 报告（仅已核实）…", lambda: _ask_confirmed(w)),
        "export_json": _action(w, "导出 JSON 结果…", lambda: _ask_export(w, ".json")),
        "quit": _action(w, "退出", w.close, "Ctrl+Q"),
        "add_bids": _action(w, "添加投标文件…", lambda: w.ask_files("bid")),
        "add_folder": _action(w, "添加文件夹…", w.ask_folder),
        "add_tender": _action(w, "添加招标文件…", lambda: w.ask_files("tender")),
        "add_template": _action(w, "添加模板文件…", lambda: w.ask_files("template")),
        "remove": _action(w, "移除所选文件", w.files.remove_selected),
        "rename": _action(w, "标段名称…", lambda: w.rename_section(), "F2"),
        "run": _action(w, "开始检查", w.run_check, "F5"),
        "cancel": _action(w, "取消检查", w.cancel_check, "Esc"),
        "self_check": _action(w, "投标人自查…", w.open_self_check, "Ctrl+B"),
        "settings": _action(w, "检查设置…", w.open_settings, "Ctrl+,"),
        "library": _action(w, "资料库…", w.open_library_page, "Ctrl+L"),
        "about": _action(w, "关于", lambda: _about(w)),
    }
    for name, pixmap in (
        ("add_bids", QStyle.StandardPixmap.SP_FileIcon),
        ("add_folder", QStyle.StandardPixmap.SP_DirOpenIcon),
        ("run", QStyle.StandardPixmap.SP_MediaPlay),
        ("cancel", QStyle.StandardPixmap.SP_MediaStop),
        ("export_xlsx", QStyle.StandardPixmap.SP_DialogSaveButton),
        ("save", QStyle.StandardPixmap.SP_DriveFDIcon),
        ("open", QStyle.StandardPixmap.SP_DialogOpenButton),
        ("settings", QStyle.StandardPixmap.SP_FileDialogDetailedView),
        ("self_check", QStyle.StandardPixmap.SP_FileDialogContentsView),
        ("library", QStyle.StandardPixmap.SP_DirHomeIcon),
    ):
        actions[name].setIcon(icon(pixmap))
    return actions


def _menus(w: MainWindow, a: Actions) -> None:
    bar = w.menuBar()
    file_menu = bar.addMenu(tr("文件"))
    file_menu.addActions([a["new"], a["open"]])
    recent = file_menu.addMenu(tr("最近的标段"))
    recent.aboutToShow.connect(lambda: _fill_recent(w, recent))
    file_menu.addActions([a["save"], a["save_as"]])
    file_menu.addSeparator()
    file_menu.addActions([a["export_xlsx"], a["export_docx"], a["export_confirmed"], a["export_json"]])
    file_menu.addSeparator()
    file_menu.addAction(a["quit"])
    check_menu = bar.addMenu(tr("检查"))
    check_menu.addActions([a["add_bids"], a["add_folder"], a["add_tender"], a["add_template"], a["remove"]])
    check_menu.addAction(a["rename"])
    check_menu.addSeparator()
    check_menu.addActions([a["run"], a["cancel"]])
    check_menu.addSeparator()
    check_menu.addActions([a["self_check"], a["library"]])
    options = bar.addMenu(tr("设置"))
    options.addAction(a["settings"])
    languages = options.addMenu(tr("界面语言"))
    group = QActionGroup(w)
    for code, label in LANGUAGES.items():
        item = languages.addAction(label)
        item.setCheckable(True)
        item.setChecked(code == language())
        item.triggered.connect(lambda _checked, c=code: w.switch_language(c))
        group.addAction(item)
        a[f"language_{code}"] = item
    bar.addMenu(tr("帮助")).addAction(a["about"])


def _toolbar(w: MainWindow, a: Actions) -> None:
    bar = QToolBar(tr("工具栏"))
    bar.setObjectName("main-toolbar")
    bar.setMovable(False)
    bar.setIconSize(QSize(18, 18))
    bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    bar.addActions([a["add_bids"], a["add_folder"]])
    bar.addSeparator()
    bar.addActions([a["run"], a["cancel"]])
    bar.addSeparator()
    bar.addActions([a["open"], a["save"], a["export_xlsx"], a["export_docx"], a["export_json"]])
    bar.addSeparator()
    bar.addActions([a["self_check"], a["library"], a["settings"]])
    w.addToolBar(bar)


def update(actions: Actions, *, has_bids: bool, has_result: bool, busy: bool) -> None:
    """Enable what makes sense now."""
    for name in _NEEDS_RESULT:
        actions[name].setEnabled(has_result and not busy)
    actions["run"].setEnabled(has_bids and not busy)
    set_busy(actions, busy)


def set_busy(actions: Actions, busy: bool) -> None:
    """While a check runs only Cancel (and what reads) is available."""
    actions["cancel"].setEnabled(busy)
    if busy:  # once idle again, ``update`` enables it where there are bids
        actions["run"].setEnabled(False)
    for name in _IDLE_ONLY:
        actions[name].setEnabled(not busy)
    for name, action in actions.items():
        if name.startswith("language_"):
            action.setEnabled(not busy)


def _fill_recent(w: MainWindow, menu: QMenu) -> None:
    menu.clear()
    items = prefs.recent(w.store)
    if not items:
        menu.addAction(tr("（无）")).setEnabled(False)
    for path in items:
        action = menu.addAction(str(path))
        action.setEnabled(not w.busy)
        action.triggered.connect(lambda _checked, p=path: _open_recent(w, p))


def _open_recent(w: MainWindow, path: Path) -> None:
    if path.is_dir():
        w.new_check()
        w.add_paths([path])
    else:
        w.open_check(path)


def _default_name(w: MainWindow, suffix: str) -> str:
    folder = w.check_path.parent if w.check_path else Path(prefs.last_folder(w.store))
    stem = w.name or tr("标段")
    return str(folder / (f"{stem}{suffix}" if suffix == CHECK_SUFFIX else f"{stem}-bidcheck{suffix}"))


def _ask_open(w: MainWindow) -> None:
    name, _ = QFileDialog.getOpenFileName(
        w, tr("打开检查"), prefs.last_folder(w.store), tr("检查或结果") + f" (*{CHECK_SUFFIX} *.json)"
    )
    if name:
        w.open_check(Path(name))


def _save(w: MainWindow) -> None:
    if w.check_path is not None:
        w.save_check(w.check_path)
    else:
        _ask_save(w)


def ask_save_path(w: MainWindow) -> Path | None:
    """Where to save the check, as the user picks it (``.bidcheck`` added when left out); ``None`` when
    the user gives none."""
    name, _ = QFileDialog.getSaveFileName(
        w, tr("保存检查"), _default_name(w, CHECK_SUFFIX), tr("检查") + f" (*{CHECK_SUFFIX})"
    )
    if not name:
        return None
    path = Path(name)
    return path if path.suffix == CHECK_SUFFIX else path.with_name(path.name + CHECK_SUFFIX)


def _ask_save(w: MainWindow) -> None:
    path = ask_save_path(w)
    if path is not None:
        w.save_check(path)


_EXPORTS = {".xlsx": "导出 Excel 报告", ".docx": "导出 Word 报告", ".json": "导出 JSON 结果"}


def _ask_export(w: MainWindow, suffix: str) -> None:
    name, _ = QFileDialog.getSaveFileName(w, tr(_EXPORTS[suffix]), _default_name(w, suffix), f"*{suffix}")
    if not name:
        return
    path = Path(name) if name.endswith(suffix) else Path(name + suffix)
    {".xlsx": w.export_xlsx, ".docx": w.export_docx, ".json": w.export_json}[suffix](path)


def _ask_confirmed(w: MainWindow) -> None:
    """The dossier of the pairs the panel marked 已核实 alone."""
    title = tr("导出 Word 报告（仅已核实）…").rstrip("…")
    name, _ = QFileDialog.getSaveFileName(w, title, _default_name(w, ".docx"), "*.docx")
    if name:
        w.export_docx(Path(name) if name.endswith(".docx") else Path(name + ".docx"), confirmed_only=True)


def about_text() -> str:
    """What bidcheck does, its version, and the parts it runs on with their licences (the bundle's notice
    file names them; an installed bidcheck reads them from the installed packages)."""
    notice = bundled_notice()
    listed = summary(notice.read_text(encoding="utf-8")) if notice else [part.line() for part in parts()]
    text = tr(
        "bidcheck {version}：找出同一标段投标文件之间招标文件以外的共同文字，并给出两边的页码和段落。"
    ).format(version=__version__)
    text += "\n\n" + tr("使用的开源组件及其许可证：") + "\n" + "\n".join(listed)
    if notice:
        text += "\n\n" + tr("许可证全文见 {path}").format(path=notice)
    return text


def _about(w: MainWindow) -> None:
    box = QMessageBox(QMessageBox.Icon.Information, tr("关于"), about_text(), parent=w)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    box.open()
