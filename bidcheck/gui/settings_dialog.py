"""The settings dialog: every threshold of ``bidcheck.config.Settings``, validated, resettable."""

from __future__ import annotations

import contextlib
from dataclasses import fields
from typing import Any

from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from bidcheck import config
from bidcheck.config import (
    SETTING_LABELS,
    SETTING_PROBLEMS,
    Settings,
    SettingsError,
    setting_groups,
    setting_specs,
)
from bidcheck.semantic import SectionSize, plan_line

from .i18n import language, tr
from .strings import ENGLISH
from .style import ERROR_FG

__all__ = ["SettingsDialog", "explain_error", "setting_label"]

Editor = QSpinBox | QDoubleSpinBox | QComboBox | QCheckBox | QLineEdit
GROUPS = tuple(setting_groups())  # each setting declared with its group (``SettingSpec.group``)
# Two pages of three columns each, so that the dialog stays lower than a 768-pixel screen: each column
# the groups it stacks, by title (a group not named here, 其他 too, goes to the last column).
PAGES = (
    ("比对与判定", (("判定", "招标文件与多家共有文字"), ("共同段落", "指纹"), ("语义改写",))),
    ("迹象、清单与运行", (("串标迹象", "资料库"), ("清单比对",), ("运行", "读取限制"))),
)
_LONG = 22  # characters past which a label drops its bracketed aside (kept in its tooltip)
_ABOVE_ONE = {name for name, spec in setting_specs().items() if spec.rule == "ratio3"}  # ratios past 100%


def setting_label(key: str) -> str:
    """A setting's label (``SETTING_LABELS``); in English, its key where the table has no entry yet."""
    label = SETTING_LABELS.get(key, key)
    if language() == "en" and label not in ENGLISH:
        return key.replace("_", " ").capitalize()
    return tr(label)


def explain_error(error: SettingsError) -> str:
    """A settings error in the interface's words: the setting's label (the error names its key) and what
    is wrong with it."""
    if not error.key:
        return str(error)
    problem = str(error).removeprefix(f"setting {error.key!r} ")
    return tr("“{label}”{problem}").format(
        label=setting_label(error.key), problem=tr(SETTING_PROBLEMS.get(problem, problem))
    )


def _short(label: str) -> str:
    """A long label without its bracketed aside (查找串标迹象（文档属性、…） → 查找串标迹象), so that the
    dialog fits a 1366-pixel screen; the whole label is the row's tooltip."""
    head, bracket, _aside = label.partition("（")
    return head if bracket and len(label) > _LONG and len(head) >= 6 else label


def basic_settings() -> list[str]:
    """The settings of the 基本 page, which a clerk needs (``SettingSpec.basic``), in their order."""
    return [name for name, spec in setting_specs().items() if spec.basic]


def _grouped() -> list[tuple[str, list[str]]]:
    """The dialog's groups less the 基本 page's settings; a setting the core adds later lands in 其他
    (other) rather than nowhere."""
    basic = set(basic_settings())
    names = [f.name for f in fields(Settings) if f.name not in basic]
    listed = {name for _, group in GROUPS for name in group}
    groups = [(title, [n for n in group if n in names]) for title, group in GROUPS]
    rest = [n for n in names if n not in listed]
    return groups + ([("其他", rest)] if rest else [])


class SettingsDialog(QDialog):
    """Edits a ``Settings``; ``settings()`` is the validated result after ``accept``."""

    def __init__(
        self, settings: Settings, parent: QWidget | None = None, section: SectionSize | None = None
    ) -> None:
        """``section``: the section's bid files and their text, for the semantic layer's time estimate
        (none shown without bids)."""
        super().__init__(parent)
        self.setWindowTitle(tr("检查设置"))
        self._settings = settings
        self._section = section or SectionSize(())
        self.editors: dict[str, Editor] = {}
        self.plan = QLabel()  # what the semantic layer will cost on this section, with these values
        self.plan.setWordWrap(True)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {ERROR_FG.name()};")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.RestoreDefaults
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("确定"))
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("取消"))
        reset = self.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults)
        reset.setText(tr("恢复默认"))
        reset.clicked.connect(self.reset)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self._layout()
        self._load(settings)

    def _layout(self) -> None:
        self.pages = QTabWidget()
        self.pages.addTab(self._basic_page(), tr("基本"))
        groups = dict(_grouped())
        placed = {title for _, columns in PAGES for column in columns for title in column}
        for number, (page_title, columns) in enumerate(PAGES):
            page = QWidget()
            row = QHBoxLayout(page)
            for at, column in enumerate(columns):
                stack = QVBoxLayout()
                last = number == len(PAGES) - 1 and at == len(columns) - 1
                titles = [*column, *(t for t in groups if t not in placed)] if last else list(column)
                for title in titles:
                    stack.addWidget(self._group(title, groups[title]))
                stack.addStretch(1)
                row.addLayout(stack)
            self.pages.addTab(page, tr(page_title))
        note = QLabel(tr("相似度与占比以百分数填写。改动从下一次检查起生效，并会被记住。"))
        note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages)
        layout.addWidget(self.plan)
        layout.addWidget(note)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

    def _basic_page(self) -> QWidget:
        """The 基本 page: the few settings a clerk may want (the levels, the signs, the rewritten passages,
        the library's file), the rest on the pages after it."""
        page = QWidget()
        column = QVBoxLayout(page)
        column.addWidget(self._group(tr("基本设置"), basic_settings()))
        note = QLabel(tr("其余设置在后面的页上；一般不需要改动。"))
        note.setWordWrap(True)
        column.addWidget(note)
        column.addStretch(1)
        return page

    def _group(self, title: str, names: list[str]) -> QGroupBox:
        box = QGroupBox(tr(title))
        form = QFormLayout(box)
        defaults = Settings()
        for name in names:
            editor = _editor(name, getattr(defaults, name))
            editor.setToolTip(
                tr("默认值：{value}").format(value=_shown(getattr(defaults, name))) + f"  ({name})"
            )
            editor.setObjectName(name)
            _changed(editor).connect(lambda _value: self._edited())
            self.editors[name] = editor
            full = setting_label(name).removeprefix(tr(title) + "：")  # the group's title says it
            label = QLabel(_short(full))
            label.setToolTip(full)
            form.addRow(label, editor)
        return box

    def _load(self, settings: Settings) -> None:
        for name, editor in self.editors.items():
            _set_value(editor, getattr(settings, name))
        self._show_plan()

    def _edited(self) -> None:
        self.error.clear()
        self._show_plan()

    def _show_plan(self) -> None:
        """The semantic layer's time estimate for the section (Chinese, as the check says it)."""
        self.plan.setVisible(self._section.bids > 0)
        with contextlib.suppress(SettingsError):  # an invalid value is said when OK is pressed
            self.plan.setText(plan_line(self.settings(), self._section))

    def values(self) -> dict[str, Any]:
        """What the editors hold, as settings values (percentages back to fractions)."""
        return {name: _value(editor) for name, editor in self.editors.items()}

    def settings(self) -> Settings:
        """The settings as edited; raises ``SettingsError`` when they are not valid."""
        return Settings.from_dict(self.values())

    def reset(self) -> None:
        """Put every value back to its default."""
        self._load(Settings())
        self.error.clear()

    def accept(self) -> None:
        """Close only when the values are valid; otherwise say what is wrong."""
        try:
            self._settings = self.settings()
        except SettingsError as exc:
            self.error.setText(explain_error(exc))
            return
        super().accept()

    @property
    def result_settings(self) -> Settings:
        """The accepted settings (the original ones until accepted)."""
        return self._settings


def _changed(editor: Editor) -> Any:
    """The signal an editor sends when its value changes."""
    if isinstance(editor, QComboBox):
        return editor.currentIndexChanged
    if isinstance(editor, QCheckBox):
        return editor.toggled
    if isinstance(editor, QLineEdit):
        return editor.textChanged
    return editor.valueChanged


def _editor(name: str, default: object) -> Editor:
    editor: Editor
    if isinstance(default, bool):
        return QCheckBox()
    if isinstance(default, str) and not hasattr(config, f"{name.upper()}S"):  # free text: a path
        return QLineEdit()
    if isinstance(default, str):  # a choice among the names the core lists, e.g. config.OCR_ENGINES
        editor = QComboBox()
        editor.addItems([str(v) for v in getattr(config, f"{name.upper()}S", (default,))])
        return editor
    if isinstance(default, float):
        editor = QDoubleSpinBox()
        editor.setRange(0.0, 300.0 if name in _ABOVE_ONE else 100.0)
        editor.setDecimals(1)
        editor.setSingleStep(1.0)
        editor.setSuffix(" %")
    else:
        editor = QSpinBox()
        editor.setRange(0, 10_000_000)
        editor.setGroupSeparatorShown(True)
    editor.setButtonSymbols(QAbstractSpinBox.ButtonSymbols.UpDownArrows)
    editor.setMinimumWidth(120)
    return editor


def _set_value(editor: Editor, value: object) -> None:
    if isinstance(editor, QCheckBox):
        editor.setChecked(bool(value))
    elif isinstance(editor, QLineEdit):
        editor.setText(str(value))
    elif isinstance(editor, QComboBox):
        if editor.findText(str(value)) < 0:
            editor.addItem(str(value))
        editor.setCurrentText(str(value))
    elif isinstance(editor, QDoubleSpinBox):
        editor.setValue(float(str(value)) * 100)
    else:
        editor.setValue(int(str(value)))


def _value(editor: Editor) -> object:
    if isinstance(editor, QCheckBox):
        return editor.isChecked()
    if isinstance(editor, QLineEdit):
        return editor.text().strip()
    if isinstance(editor, QComboBox):
        return editor.currentText()
    if isinstance(editor, QDoubleSpinBox):
        return round(editor.value() / 100, 6)
    return editor.value()


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return tr("是") if value else tr("否")
    if isinstance(value, float):
        return f"{value * 100:g} %"
    return f"{value:,}" if isinstance(value, int) else str(value)
