"""Judging passages: text from the tender or templates, text most bidders share, and rings."""

from bidcheck.evidence.flags import common_sharers, share_counts, template_mask, template_runs, template_share
from bidcheck.evidence.groups import find_groups

__all__ = [
    "common_sharers",
    "find_groups",
    "share_counts",
    "template_mask",
    "template_runs",
    "template_share",
]
