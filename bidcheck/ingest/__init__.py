"""Reading files of every supported format into ``Document``s (one module per format)."""

from bidcheck.ingest.registry import (
    SUPPORTED_SUFFIXES,
    collect_bids,
    collect_paths,
    read_document,
    sniff_format,
)

__all__ = ["SUPPORTED_SUFFIXES", "collect_bids", "collect_paths", "read_document", "sniff_format"]
