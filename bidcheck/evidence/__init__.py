"""Judging passages: text from the tender or templates, text most bids share, and rings."""

from bidcheck.evidence.flags import mask_runs, mask_share, template_mask
from bidcheck.evidence.groups import find_groups, raise_rings

__all__ = ["find_groups", "mask_runs", "mask_share", "raise_rings", "template_mask"]
