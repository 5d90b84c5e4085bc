"""Normalisation with its offset map, page-number lines and running headers."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from bidcheck.model import Block, BlockKind, Document
from bidcheck.text import build_clean_text, clean_document, normalize
from bidcheck.text.clean import _with_paragraph, is_page_number
from bidcheck.text.normalize import _FOLD
from tests.builders import paragraphs


def test_normalize_folds_width_drops_punctuation_and_maps_back() -> None:
    text = "投标函：ＡＢＣ１２３，施工  质量。\nGood!"
    norm, offsets, sentences = normalize(text)
    assert norm == "投标函abc123施工质量good"
    assert [text[i] for i in offsets[:6]] == ["投", "标", "函", "Ａ", "Ｂ", "Ｃ"]
    assert text[offsets[-1]] == "d" and len(offsets) == len(norm)
    assert sentences.tolist() == [0, len("投标函abc123施工质量")]


def test_width_and_punctuation_variants_normalise_to_the_same_text() -> None:
    assert normalize("我方承诺：工期９０天，质量合格。")[0] == normalize("我方承诺,工期90天;质量合格!")[0]


@pytest.mark.parametrize(
    "line",
    ["第 3 页 共 40 页", "第3页/共40页", "- 3 -", "—12—", "Page 3 of 40", "3/40", "17", "共 40 页 第 3 页"],
)
def test_page_number_lines(line: str) -> None:
    assert is_page_number(line)


@pytest.mark.parametrize("line", ["第三章 施工方案", "工期 90 天", "3.2 质量保证措施"])
def test_ordinary_lines_are_not_page_numbers(line: str) -> None:
    assert not is_page_number(line)


def _doc(blocks: list[Block], pages: int) -> Document:
    return Document(id="d1", path="x", name="x", format="pdf", pages=pages, blocks=tuple(blocks))


def test_running_lines_are_removed_and_paragraphs_numbered() -> None:
    texts = paragraphs(11, 5)
    blocks = []
    for page in range(1, 6):
        blocks += [
            Block("某工程第二标段投标文件", "body", page),
            Block(texts[page - 1], "body", page),
            Block(f"第 {page} 页", "body", page),
        ]
    doc = clean_document(_doc(blocks, 5))
    assert [b.text for b in doc.compared_blocks()] == texts
    assert [b.paragraph for b in doc.compared_blocks()] == [1, 2, 3, 4, 5]
    assert {b.kind for b in doc.blocks if "标段" in b.text} == {"header"}


def test_clean_text_locates_offsets_by_page_and_paragraph() -> None:
    doc = clean_document(_doc([Block("第一段。", "body", 1), Block("第二段在第二页。", "body", 2)], 2))
    clean = build_clean_text(doc)
    assert clean.text == "第一段。\n第二段在第二页。"
    assert clean.locate(0) == (1, 1)
    assert clean.locate(clean.text.index("第二段")) == (2, 2)
    start, end = clean.clean_span(clean.norm.index("第二段"), len(clean.norm))
    assert clean.text[start:end] == "第二段在第二页"


def test_a_line_break_ends_a_sentence_as_a_full_stop_does() -> None:
    """A heading or a table cell has no full stop: the line break after it ends its sentence."""
    norm, _, sentences = normalize("第一章 施工部署\n本工程位于城区，工期九十天\n质量合格")
    assert norm == "第一章施工部署本工程位于城区工期九十天质量合格"
    assert sentences.tolist() == [0, len("第一章施工部署"), len("第一章施工部署本工程位于城区工期九十天")]


def _plain_normalize(text: str) -> tuple[str, list[int], list[int]]:
    """Normalisation written out character by character, to hold the bulk one to."""
    folded = text.translate(_FOLD)
    kept = [m.start() for m in re.finditer(r"[^\W_]", folded)]
    norm = "".join(folded[i] for i in kept)
    norm = norm.lower() if len(norm.lower()) == len(norm) else norm
    ends = [i for i, c in enumerate(folded) if c in "。！？；!?;\n"]
    sentences = [0] + [n for n, i in enumerate(kept) if n and any(kept[n - 1] < e < i for e in ends)]
    return norm, kept, sentences if kept else []


def test_normalize_equals_a_plain_reference_on_every_kind_of_character() -> None:
    rng = random.Random(11)
    folded_keys = "".join(chr(c) for c in _FOLD)
    pool = folded_keys + "投标函工期。！？；!?;\n ，、_-·" + "\ud800\udfff\U0002f800\U0010ffffİſ①"
    texts = ["".join(rng.choice(pool) for _ in range(rng.randint(0, 400))) for _ in range(40)]
    texts += [folded_keys, "".join(chr(c) for c in range(0x2FF0, 0x3100)), "。", "", "a"]
    for text in texts:
        norm, offsets, sentences = normalize(text)
        assert (norm, offsets.tolist(), sentences.tolist()) == _plain_normalize(text)


def test_normalize_by_the_table_of_kept_characters_equals_the_plain_reference() -> None:
    """Texts of the Basic Multilingual Plane alone (their characters kept by a table lookup, not the
    regex): every code point of the plane, shuffled into texts of 500, and random texts of the
    characters that fold, sentence ends, separators, lone surrogates and characters whose lower case
    is longer."""
    rng = random.Random(12)
    points = list(range(0x10000))
    rng.shuffle(points)
    texts = ["".join(map(chr, points[at : at + 500])) for at in range(0, len(points), 500)]
    pool = "".join(chr(c) for c in _FOLD) + "投标函工期。！？；!?;\n ，、_-·" + "\ud800\udfffİſ①"
    texts += ["".join(rng.choice(pool) for _ in range(rng.randint(0, 400))) for _ in range(40)]
    for text in texts:
        norm, offsets, sentences = normalize(text)
        assert (norm, offsets.tolist(), sentences.tolist()) == _plain_normalize(text)


def test_a_paragraph_numbered_by_the_constructor_is_the_block_replace_gives() -> None:
    """Blocks of every kind with every field set, each numbered: the block ``replace`` makes, field for
    field (the constructor gives each field in order: a field added to ``Block`` must be added there too)."""
    rng = random.Random(5)
    names = [f.name for f in dataclasses.fields(Block)]
    assert names == ["text", "kind", "page", "paragraph", "row", "cell", "cuts"]
    kinds: list[BlockKind] = ["body", "table", "textbox", "header", "footer"]
    for _ in range(500):
        page, paragraph, row, cell = (rng.randint(0, 9) for _ in range(4))
        cuts = tuple(sorted(rng.sample(range(1, 40), rng.randint(0, 3))))
        block = Block("甲乙" * rng.randint(1, 9), rng.choice(kinds), page, paragraph, row, cell, cuts)
        number = rng.randint(1, 999)
        assert _with_paragraph(block, number) == dataclasses.replace(block, paragraph=number)
