"""Fingerprints: golden values pin the exact SimHash and MinHash output; MinHash equals datasketch's."""

from __future__ import annotations

import random

import numpy as np
import xxhash
from datasketch import MinHash

from bidcheck.config import Settings
from bidcheck.fingerprint import build_simhash, fingerprint_text, simhash_similarity, window_minhashes
from bidcheck.fingerprint.kgrams import kgram_hashes
from bidcheck.fingerprint.minhash import shingle_hashes, window_starts
from tests.builders import paragraph, paragraphs

TEXT = "本工程沟槽开挖采用机械开挖与人工清底相结合的方式开挖前应先复核地下管线位置严禁超挖"


def test_minhash_equals_datasketch_on_every_window() -> None:
    text = "".join(paragraphs(5, 6))
    starts = window_starts(len(text), 300, 250)
    ours = window_minhashes(text, starts, 300, 3, 128, 1)
    for start, lean in zip(starts, ours, strict=True):
        reference = MinHash(num_perm=128, seed=1, hashfunc=xxhash.xxh32_intdigest)
        window = text[start : start + 300]
        reference.update_batch([window[i : i + 3].encode("utf-8") for i in range(len(window) - 2)])
        assert np.array_equal(reference.hashvalues, lean.hashvalues)


def test_shingle_hashes_equal_xxh32_for_every_width_of_character() -> None:
    text = "本工程a1b2沟槽开挖é采用𠀀𠀁机械开挖与人工清底" + paragraph(random.Random(3))
    for k in (1, 2, 3, 4, 5, 6):
        shingles = [text[i : i + k] for i in range(len(text) - k + 1)]
        reference = [xxhash.xxh32_intdigest(s.encode("utf-8")) for s in shingles]
        assert shingle_hashes(text, k).tolist() == reference


def test_minhash_golden_values() -> None:
    lean = window_minhashes(TEXT, [0], 300, 3, 128, 1)[0]
    assert lean.hashvalues[:4].tolist() == [9637493, 37049226, 85536105, 43555810]


def test_simhash_golden_value_and_similarity() -> None:
    assert build_simhash(TEXT) == 0x3BC9F03244F278D3
    assert simhash_similarity(0, 0) == 1.0
    assert simhash_similarity(0, (1 << 64) - 1) == 0.0


def test_simhash_is_closer_for_edited_copies_than_for_other_texts() -> None:
    import random

    rng = random.Random(1)
    base = "".join(paragraph(rng) for _ in range(8))
    edited = base[:200] + paragraph(rng) + base[200:]
    other = "".join(paragraph(rng) for _ in range(8))
    assert simhash_similarity(build_simhash(base), build_simhash(edited)) > simhash_similarity(
        build_simhash(base), build_simhash(other)
    )


def test_kgram_hashes_match_equal_substrings() -> None:
    h = kgram_hashes("abcdeXabcde", 5)
    assert len(h) == 7 and h[0] == h[6] and len(set(h.tolist())) == 6


def test_windows_cover_the_whole_text() -> None:
    assert window_starts(0, 300, 250) == []
    assert window_starts(120, 300, 250) == [0]
    assert window_starts(700, 300, 250) == [0, 250, 400]
    fp = fingerprint_text("".join(paragraphs(2, 10)), Settings())
    assert len(fp.windows) == len(fp.window_starts) >= 2


def test_rjieba_tokens_equal_jiebas_with_the_bid_vocabulary() -> None:
    import logging

    import jieba

    from bidcheck.fingerprint.tokens import DICTS, _tokenizer

    jieba.setLogLevel(logging.WARNING)
    reference = jieba.Tokenizer()
    reference.load_userdict(str(DICTS / "bid_words.txt"))
    bid_words = "投标人应按招标文件要求编制施工组织设计，项目经理须到场，沟槽开挖后进行沉降观测。"
    text = "".join(paragraphs(3, 20)) + bid_words
    assert _tokenizer().cut(text, False) == reference.lcut(text, HMM=False)
