"""Settings: every threshold and size of a check (``settings``: each declared once, validated on
creation) and how the reports, the command line and the app name them (``words``)."""

from bidcheck.config.files import changed_settings, load_settings
from bidcheck.config.settings import (
    MANY_PAIRS,
    OCR_ENGINES,
    RULES,
    SEMANTIC_ENCODERS,
    SETTINGS_VERSION,
    Settings,
    SettingsError,
    SettingSpec,
    setting_groups,
    setting_specs,
    settings_shaping,
)
from bidcheck.config.words import (
    SETTING_LABELS,
    SETTING_PROBLEMS,
    setting_error_words,
    setting_name,
    settings_markdown,
)

__all__ = [
    "MANY_PAIRS",
    "OCR_ENGINES",
    "RULES",
    "SEMANTIC_ENCODERS",
    "SETTINGS_VERSION",
    "SETTING_LABELS",
    "SETTING_PROBLEMS",
    "SettingSpec",
    "Settings",
    "SettingsError",
    "changed_settings",
    "load_settings",
    "setting_error_words",
    "setting_groups",
    "setting_name",
    "setting_specs",
    "settings_markdown",
    "settings_shaping",
]
