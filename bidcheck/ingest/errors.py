"""The one exception readers raise for a file they cannot read."""

__all__ = ["ReadError"]


class ReadError(Exception):
    """A file cannot be read; the message is shown to the user as it is."""
