"""Judging passages: text from the tender or templates, text most bids share, and rings."""

from bidcheck.evidence.flags import mask_share, template_mask
from bidcheck.evidence.groups import Ring, find_groups, find_rings

__all__ = ["Ring", "find_groups", "find_rings", "mask_share", "template_mask"]
