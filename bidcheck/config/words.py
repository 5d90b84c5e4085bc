"""The settings as the reports, the command line and the app name them: each one's label (from its
declaration, ``SettingSpec.label``), what an error says in Chinese, and the settings table of
docs/settings.md."""

from __future__ import annotations

import re

from bidcheck.config.settings import Settings, SettingsError, SettingSpec, setting_groups, setting_specs

__all__ = ["SETTING_LABELS", "SETTING_PROBLEMS", "setting_error_words", "setting_name", "settings_markdown"]

SETTING_LABELS = {"version": "设置版本", **{name: spec.label for name, spec in setting_specs().items()}}


# What ``SettingsError`` says of a value, in the reports' and the command line's Chinese
SETTING_PROBLEMS = {
    "must be at least 1": "不能小于 1",
    "must be at least 2": "不能小于 2",
    "must be in (0, 1]": "必须大于 0 且不超过 100%",
    "must be in (0, 3]": "必须大于 0 且不超过 300%",
    "must not exceed window_chars": "不能大于 MinHash 窗口长度",
    "must be below window_chars": "必须小于 MinHash 窗口长度",
    "must be >= 0": "不能为负数",
    "must not exceed high": "不能高于一级预警相似度",
    "must not exceed high_chars": "不能多于一级预警共同字数",
    "must be in 0..24": "必须在 0 到 24 之间",
}
_PATTERNS = (
    (r"setting '(\w+)' must be true or false, not (.+)", "“{0}”应为 true 或 false，而不是 {1}"),
    (r"setting '(\w+)' must be a (\w+), not (.+)", "“{0}”应为数值（{1}），而不是 {2}"),
    (r"setting '(\w+)' must be one of (.+)", "“{0}”只能是以下之一：{1}"),
    (r"unknown setting '(\w+)'", "没有名为“{0}”的设置"),
    (r"cannot read settings file (.+?): (.+)", "无法读取设置文件 {0}：{1}"),
    (r"settings file (.+) must hold a JSON object", "设置文件 {0} 应为一个 JSON 对象"),
)


def setting_error_words(error: SettingsError) -> str:
    """A settings error in Chinese: the setting's label (and key) and what is wrong with it."""
    text = str(error)
    found = re.fullmatch(r"setting '(\w+)' (.+)", text)
    if found and found.group(2) in SETTING_PROBLEMS:
        key, problem = found.groups()
        return f"设置“{setting_name(key)}”{SETTING_PROBLEMS[problem]}"
    for pattern, words in _PATTERNS:
        matched = re.fullmatch(pattern, text)
        if matched:
            parts = list(matched.groups())
            if pattern.startswith("setting") or pattern.startswith("unknown"):
                parts[0] = setting_name(parts[0])
            return "设置" + words.format(*parts) if pattern.startswith("setting") else words.format(*parts)
    return text


def setting_name(key: str) -> str:
    """A setting as the reports name it: its label and its key (``一级预警相似度（high_similarity）``)."""
    label = SETTING_LABELS.get(key)
    return f"{label}（{key}）" if label else key


def settings_markdown() -> str:
    """The settings table of docs/settings.md, made from the settings' declarations, group by group in
    the dialog's order: key, default, label and what it does (``make settings-doc`` writes it)."""
    lines = [
        "# bidcheck — Settings",
        "",
        "[← README](../README.md) · [all documents](README.md)",
        "",
        "Every threshold lives in one `Settings` object (`bidcheck/config/settings.py`), each declared once:",
        "its default, its label, its group in the settings dialog, what it does, the rule its value keeps",
        "and the caches it shapes. A `--settings FILE` JSON object overrides any of them; unknown keys and",
        "wrong types are refused. This page is written from those declarations (`make settings-doc`; a test",
        "holds it to them). ★: on the dialog's 基本 page.",
    ]
    defaults = Settings()
    specs = setting_specs()
    for group, names in setting_groups():
        lines += ["", f"## {group}", "", "| key | default | 名称 | meaning |", "| --- | --- | --- | --- |"]
        for name in names:
            spec = specs[name]
            star = " ★" if spec.basic else ""
            value = _shown(getattr(defaults, name))
            lines.append(f"| `{name}`{star} | {value} | {spec.label} | {_about(spec)} |")
    return "\n".join(lines) + "\n"


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str):
        return f'`"{value}"`' if not value else f"`{value}`"
    return f"{value:,}" if isinstance(value, int) else str(value)


def _about(spec: SettingSpec) -> str:
    """What a setting does, with its choices where it has them."""
    choices = f" (one of {', '.join(f'`{c}`' for c in spec.choices)})" if spec.choices else ""
    return spec.about + choices
