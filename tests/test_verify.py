"""Verification rules, each pinned on a built pair of texts: a passage needs its seeded core, begins and
ends on well-aligned sentences, and is joined to a neighbour that continues it."""

from __future__ import annotations

import random

from bidcheck.compare import AlignInput, RawPassage, align_pair
from bidcheck.compare.align import _join_neighbours
from bidcheck.compare.passage import agreement_passes
from bidcheck.config import Settings
from bidcheck.fingerprint import fingerprint_text
from bidcheck.text import normalize
from tests.builders import paragraphs, sentence

SETTINGS = Settings()
OTHER = "甲乙丙丁戊己庚辛壬癸"  # characters the builders never use: an edit that agrees with nothing


def _input(text: str) -> AlignInput:
    norm, _, sentences = normalize(text)
    fp = fingerprint_text(norm, SETTINGS)
    return AlignInput(norm, fp.kgrams, sentences, fp.window_starts)


def _aligned(text_a: str, text_b: str) -> tuple[list[RawPassage], AlignInput]:
    """Every passage of the two texts, each window of one paired with each of the other as candidates."""
    a, b = _input(text_a), _input(text_b)
    windows = [(i, j) for i in range(len(a.window_starts)) for j in range(len(b.window_starts))]
    return align_pair(a, b, windows, SETTINGS), a


def test_widening_to_whole_sentences_sets_the_ends_but_never_makes_a_passage() -> None:
    """A 110-character sentence copied with every fifth character changed, but for one stretch left
    whole: that stretch is all the seeds reach. At 30 characters the seeded core is no passage, so
    nothing is one; at 60 it is, and the passage is the whole sentence."""
    rng = random.Random(70)
    body = "".join(sentence(rng)[:-1] for _ in range(5)).replace("，", "")[:110]
    found = {}
    for exact in ((40, 70), (30, 90)):
        copy = "".join(
            OTHER[i % 10] if i % 5 == 2 and not exact[0] <= i < exact[1] else c for i, c in enumerate(body)
        )
        text_a = "\n".join([*paragraphs(71, 3), body + "。", *paragraphs(72, 3)])
        text_b = "\n".join([*paragraphs(73, 2), copy + "。", *paragraphs(74, 4)])
        passages, a = _aligned(text_a, text_b)
        start = a.norm.index(body)
        found[exact] = [p.a for p in passages], (start, start + len(body))
    assert found[(40, 70)][0] == []
    assert found[(30, 90)][0] == [found[(30, 90)][1]]


def test_weakly_aligned_sentences_at_either_end_are_trimmed() -> None:
    """Three sentences copied word for word between two that keep five characters of every eight: those
    two align (about 60%) well enough to stay inside a passage, not to begin or end one."""
    rng = random.Random(80)
    first, *middle, last = ["".join(sentence(rng)[:-1] for _ in range(3)) + "。" for _ in range(5)]

    def weak(s: str) -> str:
        return "".join(OTHER[i % 10] if i % 8 >= 5 else c for i, c in enumerate(s[:-1])) + "。"

    text_a = "\n".join([*paragraphs(81, 3), first + "".join(middle) + last, *paragraphs(82, 3)])
    text_b = "\n".join([*paragraphs(83, 2), weak(first) + "".join(middle) + weak(last), *paragraphs(84, 4)])
    passages, a = _aligned(text_a, text_b)
    core = normalize("".join(middle))[0]
    start = a.norm.index(core)
    assert [(p.a, p.similarity) for p in passages] == [((start, start + len(core)), 1.0)]


def _exact(a: tuple[int, int], b_start: int) -> RawPassage:
    b = (b_start, b_start + a[1] - a[0])
    return RawPassage(a, b, a[1] - a[0], ((a, b),))


def test_passages_that_continue_each_other_on_both_sides_are_joined() -> None:
    """Two chains can cut one copied paragraph in two: passages at most ``max_gap_chars`` apart on both
    sides become one, unless joining them costs more than 15% of the better one's similarity."""
    gap = SETTINGS.max_gap_chars
    head, tail = _exact((0, 300), 0), _exact((300 + gap, 600 + gap), 300 + gap)
    (joined,) = _join_neighbours([tail, head], gap)
    assert joined.a == joined.b == (0, 600 + gap)
    assert joined.marks == head.marks + tail.marks and joined.matched == 600
    apart = _exact((301 + gap, 600 + gap), 301 + gap)
    assert _join_neighbours([apart, head], gap) == [head, apart]
    moved = _exact((300, 500), 2000)  # next to the head in A, far from it in B: a moved paragraph
    assert _join_neighbours([head, moved], gap) == [head, moved]
    loose = RawPassage((350, 450), (350, 450), 20, (((350, 360), (350, 360)), ((440, 450), (440, 450))))
    assert _join_neighbours([head, loose], gap) == [head, loose]  # joined 0.71, under 0.85 of 1.0


def test_a_passage_counts_from_min_passage_chars_and_a_short_one_must_agree_more() -> None:
    """50 characters is a passage, 49 is not; under 100 characters it must agree 85%, from 100 on 60%."""
    assert agreement_passes(50, 0.85, SETTINGS) and not agreement_passes(49, 1.0, SETTINGS)
    assert not agreement_passes(99, 0.84, SETTINGS) and agreement_passes(99, 0.85, SETTINGS)
    assert agreement_passes(100, 0.6, SETTINGS) and not agreement_passes(100, 0.59, SETTINGS)
