"""Cleaning and normalising a document's text for comparison, with a map back to its own wording."""

from bidcheck.text.clean import clean_document
from bidcheck.text.normalize import CleanText, build_clean_text, normalize

__all__ = ["CleanText", "build_clean_text", "clean_document", "normalize"]
