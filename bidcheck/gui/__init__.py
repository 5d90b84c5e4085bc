"""The desktop app (PySide6). The only package of bidcheck that imports Qt.

``app`` starts it, ``window`` lays out a check, ``tasks`` is the one layer that runs jobs off the UI
thread; ``store``, ``texts`` and ``i18n`` hold no Qt.
"""
