"""Verification finds copied text through the edits colluders make, and nothing in unrelated text."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

from bidcheck.compare import AlignInput, RawPassage, align_pair, candidate_window_pairs
from bidcheck.compare.align import without_overlaps
from bidcheck.config import Settings
from bidcheck.fingerprint import fingerprint_text
from bidcheck.text import normalize
from tests.builders import paragraphs, sentence

SETTINGS = Settings()


def _input(text: str) -> AlignInput:
    norm, _, sentences = normalize(text)
    fp = fingerprint_text(norm, SETTINGS)
    return AlignInput(norm, fp.kgrams, sentences, fp.window_starts)


def shared(text_a: str, text_b: str) -> tuple[list[RawPassage], AlignInput]:
    a, b = _input(text_a), _input(text_b)
    prints = [fingerprint_text(x.norm, SETTINGS) for x in (a, b)]
    candidates = candidate_window_pairs(
        [p.windows for p in prints],
        [p.kgrams for p in prints],
        SETTINGS.window_stride,
        SETTINGS.lsh_threshold,
        SETTINGS.num_perm,
    )
    return align_pair(a, b, candidates.get((0, 1), []), SETTINGS), a


def _swap_words(text: str, share: float, rng: random.Random) -> str:
    """Replace about ``share`` of the two-character words by other words (as a synonym list would)."""
    out = list(text)
    for i in range(0, len(out) - 2, 2):
        if rng.random() < share and all(c not in "，。" for c in out[i : i + 2]):
            out[i : i + 2] = list(sentence(rng)[:2])
    return "".join(out)


def _split_sentences(paragraph: str) -> list[str]:
    return [s + "。" for s in paragraph.split("。") if s]


def _punctuation(paras: list[str], rng: random.Random) -> list[str]:
    return [p.replace("，", "；").replace("。", "！ ") for p in paras]


def _synonyms(paras: list[str], rng: random.Random) -> list[str]:
    return [_swap_words(p, 0.15, rng) for p in paras]


def _reworded(paras: list[str], rng: random.Random) -> list[str]:
    """About a third of the words replaced: its sentences align at about 0.7, just what a sentence
    needs to begin or end a passage (a chain is given up when none of its sentences reaches that)."""
    return [_swap_words(p, 0.3, rng) for p in paras]


def _reorder_sentences(paras: list[str], rng: random.Random) -> list[str]:
    out = []
    for p in paras:
        parts = _split_sentences(p)
        rng.shuffle(parts)
        out.append("".join(parts))
    return out


def _insert_and_delete(paras: list[str], rng: random.Random) -> list[str]:
    first = _split_sentences(paras[0])
    first.insert(2, sentence(rng))
    second = _split_sentences(paras[1])
    del second[1]
    return ["".join(first), "".join(second), *paras[2:]]


def _reorder_paragraphs(paras: list[str], rng: random.Random) -> list[str]:
    return [paras[2], paras[0], paras[3], paras[1]]


Edit = Callable[[list[str], random.Random], list[str]]


@pytest.mark.parametrize(
    "edit", [_punctuation, _synonyms, _reworded, _reorder_sentences, _insert_and_delete, _reorder_paragraphs]
)
def test_copied_text_is_found_through_the_edit(edit: Edit) -> None:
    rng = random.Random(7)
    copied = paragraphs(20, 4, sentences=5)
    text_a = "\n".join(paragraphs(21, 6) + copied + paragraphs(22, 6))
    text_b = "\n".join(paragraphs(23, 3) + edit(copied, rng) + paragraphs(24, 8))
    passages, a = shared(text_a, text_b)
    target = normalize("\n".join(copied))[0]
    lo = a.norm.index(target)
    covered = sum(max(0, min(p.a[1], lo + len(target)) - max(p.a[0], lo)) for p in passages)
    assert covered >= 0.9 * len(target), (covered, len(target))
    outside = sum(p.a[1] - p.a[0] for p in passages) - covered
    assert outside <= 0.05 * len(target)
    assert all(p.similarity >= SETTINGS.min_passage_similarity for p in passages)


def test_unrelated_texts_share_no_passage() -> None:
    passages, _ = shared("\n".join(paragraphs(30, 12)), "\n".join(paragraphs(31, 12)))
    assert passages == []


def test_passages_do_not_overlap_and_spans_hold_their_marks() -> None:
    copied = paragraphs(40, 6)
    text_a = "\n".join(copied + paragraphs(41, 4) + copied[:2])
    text_b = "\n".join(paragraphs(42, 2) + copied)
    passages, _ = shared(text_a, text_b)
    assert passages
    for side in ("a", "b"):
        spans = sorted(getattr(p, side) for p in passages)
        assert all(x[1] <= y[0] for x, y in itertools.pairwise(spans))
    for p in passages:
        assert all(p.a[0] <= s and e <= p.a[1] for s, e in p.marks_a)
        assert all(p.b[0] <= s and e <= p.b[1] for s, e in p.marks_b)
        assert 0.0 < p.similarity <= 1.0


def test_a_passage_runs_to_the_end_of_a_sentence_closing_on_a_stock_phrase() -> None:
    """A phrase every sentence around ends with seeds nothing; the copied sentence still ends there."""
    stock = "，并报监理工程师确认后方可进入下道工序。"

    def with_stock(paras: list[str]) -> list[str]:
        return [p.replace("。", stock) for p in paras]

    copied = with_stock(paragraphs(50, 1, sentences=6))
    text_a = "\n".join(with_stock(paragraphs(51, 4)) + copied + with_stock(paragraphs(52, 4)))
    text_b = "\n".join(with_stock(paragraphs(53, 3)) + copied + with_stock(paragraphs(54, 5)))
    passages, a = shared(text_a, text_b)
    target = normalize(copied[0])[0]
    lo = a.norm.index(target)
    assert [p.a for p in passages] == [(lo, lo + len(target))]


def test_a_sentence_reworded_all_through_is_aligned_between_its_copied_neighbours() -> None:
    """No 5-character run of it survives, so it seeds nothing; what still agrees is marked."""
    parts = _split_sentences(paragraphs(60, 1, sentences=7)[0])
    middle = parts[3]
    body = middle[:-1]  # every other pair of characters and both ends replaced: no 5-character run left
    reworded = (
        "".join(
            "甲" if ch != "，" and ((i // 2) % 2 == 0 or i < 4 or i >= len(body) - 4) else ch
            for i, ch in enumerate(body)
        )
        + "。"
    )
    text_a = "\n".join([*paragraphs(61, 4), "".join(parts), *paragraphs(62, 4)])
    text_b = "\n".join([*paragraphs(63, 3), "".join([*parts[:3], reworded, *parts[4:]]), *paragraphs(64, 5)])
    passages, a = shared(text_a, text_b)
    lo = a.norm.index(normalize(middle)[0])
    hi = lo + len(normalize(middle)[0])
    marked = sum(max(0, min(e, hi) - max(s, lo)) for p in passages for s, e in p.marks_a)
    assert marked >= 0.3 * (hi - lo), (marked, hi - lo)


def test_passages_that_overlap_give_up_what_a_better_one_holds() -> None:
    """Apart on both sides, every passage that passes is kept as it is; one that strays into a better
    one's text on either side keeps only its own aligned parts."""
    exact = RawPassage((0, 100), (500, 600), 100, (((0, 100), (500, 600)),))
    apart = RawPassage((200, 260), (700, 760), 60, (((200, 260), (700, 760)),))
    weak = RawPassage((300, 340), (800, 840), 20, (((300, 310), (800, 810)), ((330, 340), (830, 840))))
    assert without_overlaps([apart, weak, exact], [], SETTINGS) == [exact, apart]
    strays = RawPassage((80, 180), (900, 1000), 95, (((80, 100), (900, 920)), ((105, 180), (925, 1000))))
    kept = without_overlaps([strays, exact], [], SETTINGS)
    assert kept[0] == exact and kept[1].a == (105, 180) and kept[1].marks == (((105, 180), (925, 1000)),)
    assert without_overlaps([apart], [RawPassage((250, 300), (0, 50), 50, ())], SETTINGS) == []
