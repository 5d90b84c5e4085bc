"""``python -m bidcheck.cli``: the command line."""

from bidcheck.cli import run

run()
