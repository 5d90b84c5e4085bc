"""The library: every checked section remembered in one SQLite file (fingerprints, never the texts
unless asked), so that a check also finds a bid's text in earlier sections' bids, learns public text
from many bidders across sections, and keeps model documents as templates."""

from bidcheck.library.history import Consulted, LibraryReader, consult, histories
from bidcheck.library.prints import BidPrint, bid_print, bidder_name
from bidcheck.library.sections import add_templates, store_result
from bidcheck.library.store import (
    SCHEMA_VERSION,
    Library,
    LibraryError,
    default_library_path,
    open_library,
)

__all__ = [
    "SCHEMA_VERSION",
    "BidPrint",
    "Consulted",
    "Library",
    "LibraryError",
    "LibraryReader",
    "add_templates",
    "bid_print",
    "bidder_name",
    "consult",
    "default_library_path",
    "histories",
    "open_library",
    "store_result",
]
