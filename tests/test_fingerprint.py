"""Fingerprints: golden values pin the exact SimHash and MinHash output; MinHash equals datasketch's."""

from __future__ import annotations

import functools
import logging
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import jieba
import jieba.analyse
import numpy as np
import pytest
import xxhash
from datasketch import MinHash

from bidcheck.config import Settings
from bidcheck.fingerprint import build_simhash, fingerprint_text, simhash_similarity, window_minhashes
from bidcheck.fingerprint.kgrams import kgram_hashes
from bidcheck.fingerprint.minhash import shingle_hashes, window_starts
from bidcheck.fingerprint.oddwords import _FUNCTION, odd_words, odd_words_and_keys
from bidcheck.fingerprint.simhash import load_idf_table, simhash_from_weights
from bidcheck.fingerprint.tokens import (
    DICTS,
    _tokenizer,
    are_words,
    cut,
    dictionary_path,
    idf_weights,
    is_word,
    token_counts,
    user_words,
)
from bidcheck.fingerprint.wordkeys import in_dictionary, load_word_keys, span_keys
from bidcheck.text import normalize
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
        assert lean.hashvalues.dtype == reference.hashvalues.dtype == np.uint32


@pytest.mark.parametrize(
    ("window", "stride", "k"), [(300, 250, 3), (40, 40, 3), (10, 3, 5), (6, 6, 6), (7, 2, 1)]
)
def test_window_minhashes_equal_datasketchs_for_any_windows_and_short_texts(
    window: int, stride: int, k: int
) -> None:
    rng = random.Random(window + stride + k)
    texts = ["", "a", "投标", "投标人", "中" * window, "a1中𠀀é" * 90, "".join(paragraphs(2, 3))]
    texts += ["".join(rng.choice("ab1中文投标𠀀éß") for _ in range(rng.randint(0, 700))) for _ in range(6)]
    for text in texts:
        starts = window_starts(len(text), window, stride)
        ours = window_minhashes(text, starts, window, k, 16, 1)
        for start, lean in zip(starts, ours, strict=True):
            reference = MinHash(num_perm=16, seed=1, hashfunc=xxhash.xxh32_intdigest)
            part = text[start : start + window]
            reference.update_batch([part[i : i + k].encode("utf-8") for i in range(len(part) - k + 1)])
            assert lean.hashvalues.tolist() == reference.hashvalues.tolist()


@pytest.mark.parametrize("seed", [0, 1, 7, 2**31])
def test_minhash_permutations_are_datasketchs_for_every_seed(seed: int) -> None:
    text = "".join(paragraphs(6, 2))
    reference = MinHash(num_perm=64, seed=seed, hashfunc=xxhash.xxh32_intdigest)
    reference.update_batch([text[i : i + 4].encode("utf-8") for i in range(len(text) - 3)])
    (ours,) = window_minhashes(text, [0], len(text), 4, 64, seed)
    assert np.array_equal(reference.hashvalues, ours.hashvalues)


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


BID_WORDS = "投标人应按招标文件要求编制施工组织设计，项目经理须到场，沟槽开挖后进行沉降观测。"


@dataclass(frozen=True)
class Reference:
    """Python jieba with the bid vocabulary, its IDF table, and the stopwords: the reference rjieba's
    tokens and our SimHash weights are held to."""

    tokenizer: jieba.Tokenizer
    idf: dict[str, float]
    median: float
    stopwords: frozenset[str]


@pytest.fixture(scope="module")
def jieba_reference() -> Reference:
    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()
    tokenizer.load_userdict(str(DICTS / "bid_words.txt"))
    idf, median = jieba.analyse.TFIDF().idf_loader.get_idf()
    stopwords = frozenset((DICTS / "stopwords.txt").read_text(encoding="utf-8").split())
    return Reference(tokenizer, idf, median, stopwords)


def test_rjieba_tokens_equal_jiebas_with_the_bid_vocabulary(jieba_reference: Reference) -> None:
    text = "".join(paragraphs(3, 20)) + BID_WORDS
    assert _tokenizer().cut(text, False) == jieba_reference.tokenizer.lcut(text, HMM=False)


def _reference_simhash(text: str, ref: Reference) -> int:
    """Charikar's SimHash written out bit by bit, from jieba's own tokenizer and IDF table: words of two
    characters or more, no stopwords or numbers, weighted by count times IDF (the median IDF for words
    the table lacks); each bit is set when the words whose 64-bit xxHash has it outweigh those without."""
    words = [w for w in ref.tokenizer.lcut(text, HMM=False) if len(w) > 1 and not w.isdigit()]
    votes = [0.0] * 64
    for word, count in Counter(w for w in words if w not in ref.stopwords).items():
        hashed, weight = xxhash.xxh64_intdigest(word.encode("utf-8")), count * ref.idf.get(word, ref.median)
        for bit in range(64):
            votes[bit] += weight if hashed >> bit & 1 else -weight
    return sum(1 << bit for bit in range(64) if votes[bit] > 0)


TEXTS = {
    "plan": TEXT,
    "bid words": BID_WORDS,
    "paragraphs": "".join(paragraphs(8, 3)),
    "numbers": "工期90天，质量合格，安全文明施工达标，C30混凝土2024年",
    "one word": "施工",
    "a tie": "投标文件招标文件",  # two words of one weight: where their hashes differ, the vote is even
    "empty": "",
}


@pytest.mark.parametrize("name", TEXTS)
def test_simhash_equals_a_plain_reference(name: str, jieba_reference: Reference) -> None:
    norm = normalize(TEXTS[name])[0]
    assert build_simhash(norm) == _reference_simhash(norm, jieba_reference)


@pytest.mark.parametrize("seed", [0, 7])
def test_the_idf_by_hash_is_the_tables_for_words_in_it_and_the_median_for_others(seed: int) -> None:
    """Every word of jieba's table (and words it lacks: the bid vocabulary's, made-up ones) takes the
    IDF a dictionary lookup gives."""
    idf, median = idf_weights()
    words = [*idf, "围标串标嫌疑", "ZZ未知词", "投标保证金退还", *(w for w, _, _ in user_words())]
    hashes = np.fromiter((xxhash.xxh64_intdigest(w.encode("utf-8"), seed) for w in words), "<u8", len(words))
    expected = [idf.get(w, median) for w in words]
    assert load_idf_table(seed).of(hashes).tolist() == expected
    assert sum(w not in idf for w in words) >= 3  # the median is taken too


def test_the_idf_table_is_stored_read_back_the_same_and_made_again_when_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table by hashes is kept in the cache: a process that finds it reads the very table one that
    made it had; an entry cut short or out of order is made again (and the SimHash stays the same)."""
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(tmp_path))
    load_idf_table.cache_clear()
    try:
        made = load_idf_table(5)
        (entry,) = (tmp_path / "tables").rglob("*.bin")
        whole = entry.read_bytes()
        swapped = whole[8:16] + whole[:8] + whole[16:]  # the first two hashes out of order
        for stored in (whole, whole[:-3], swapped):
            entry.write_bytes(stored)
            load_idf_table.cache_clear()
            table = load_idf_table(5)
            assert table.hashes.tobytes() == made.hashes.tobytes()
            assert table.values.tobytes() == made.values.tobytes()
            assert table.median == made.median
            assert table.hashes.flags.writeable == (stored != whole)  # read from the entry, or made
            assert entry.read_bytes() == whole  # a damaged entry is written again whole
            assert build_simhash(TEXT, 5) == _reference_simhash_of_seed(TEXT, 5)
    finally:
        load_idf_table.cache_clear()


def _reference_simhash_of_seed(text: str, seed: int) -> int:
    """The SimHash of ``text`` with the IDF looked up word by word in jieba's table (no table by hashes)."""
    idf, median = idf_weights()
    counts = token_counts(cut(text))
    weights = {w: n * idf.get(w, median) for w, n in counts.items()}
    return simhash_from_weights(weights, seed)


def _odd_words_one_by_one(words: list[str]) -> tuple[tuple[str, int], ...]:
    """The rule of ``odd_words`` word by word: each single plain ideograph with the word before it and
    the word after it, two or three plain ideographs, out of the dictionary, at its first offset."""
    plain = lambda text: all("\u4e00" <= c <= "\u9fff" and c not in _FUNCTION for c in text)  # noqa: E731
    found: dict[str, int] = {}
    for index, word in enumerate(words):
        if len(word) != 1 or not plain(word):
            continue
        for lo in (index - 1, index):
            if 0 <= lo < len(words) - 1:
                span = words[lo] + words[lo + 1]
                if len(span) <= 3 and plain(span) and not is_word(span) and span not in found:
                    found[span] = sum(map(len, words[:lo]))
    return tuple(found.items())


def test_odd_words_found_over_whole_arrays_follow_the_rule_word_by_word() -> None:
    """Random cuts of ideographs, function words, digits, Latin, punctuation, a character beyond the
    BMP and a lone surrogate, and real cuts: the same candidates at the same offsets, in order."""
    rng = random.Random(11)
    letters = [*"钢筯筋混泥凝土砂桨浆验受收质亮量的了各项应后第3aB，。 \n", "\U00020000", "\ud800", "⼀"]
    for _ in range(500):
        words = ["".join(rng.choices(letters, k=rng.choice((1, 1, 2, 3)))) for _ in range(rng.randint(0, 30))]
        assert odd_words(words) == _odd_words_one_by_one(words), words
    real = cut("底板钢筯绑扎后用水泥砂桨找平，" + "".join(paragraphs(9, 8)))
    assert odd_words(real) == _odd_words_one_by_one(real) and dict(odd_words(real)).keys() >= {"钢筯", "砂桨"}


def _number(word: str) -> int:
    """A word of up to three characters as one number: 21 bits a character, the missing ones 0."""
    return functools.reduce(lambda key, point: key << 21 | point, [*map(ord, word), 0, 0, 0][:3], 0)


def test_each_odd_words_number_is_its_own_and_equal_words_share_it() -> None:
    """The numbers ``odd_words_and_keys`` gives are those of the words it gives, in their order: one
    number a word, the same for the same word in another text (the signals count holders by them)."""
    rng = random.Random(12)
    letters = [*"钢筯筋混泥凝土砂桨浆验受收质亮量的了各项应后第3aB，。 \n", "\U00020000", "⼀"]
    seen: dict[str, int] = {}
    for _ in range(300):
        words = ["".join(rng.choices(letters, k=rng.choice((1, 1, 2, 3)))) for _ in range(rng.randint(0, 30))]
        odd, keys = odd_words_and_keys(words)
        assert odd == odd_words(words) and keys.dtype == np.uint64
        assert keys.tolist() == [_number(word) for word, _ in odd], words
        for word, key in zip((w for w, _ in odd), keys.tolist(), strict=True):
            assert seen.setdefault(word, key) == key
    assert len(set(seen.values())) == len(seen) > 20


def _spans_of(words: list[str]) -> list[str]:
    """Spans shaped as the odd words' (two or three characters) from the dictionary's words: each word
    short enough, its prefixes and suffixes, and each with a character before or after it."""
    rng = random.Random(19)
    letters = sorted({c for w in words for c in w})
    spans = [w for w in words if 2 <= len(w) <= 3]
    for word in words:
        spans += [word[:2], word[:3], word[-2:], word[-3:], word[1:3]]
        if len(word) <= 2:
            spans += [word + rng.choice(letters), rng.choice(letters) + word]
    spans += ["".join(rng.choices(letters, k=rng.choice((2, 3)))) for _ in range(100_000)]
    return [s for s in spans if 2 <= len(s) <= 3]


def test_the_dictionarys_word_numbers_answer_as_the_tokenizer_for_every_word_and_many_spans() -> None:
    """Every word of jieba's dictionary file and of the bid vocabulary, and their prefixes, suffixes,
    neighbours and 100,000 random spans of their characters: a span is in the numbers exactly when the
    tokenizer holds it as a word."""
    lines = dictionary_path().read_text(encoding="utf-8").splitlines()
    words = [line.split()[0] for line in lines if line.strip()] + [w for w, _, _ in user_words()]
    assert all(are_words(words))
    spans = sorted(set(_spans_of(words)))
    points = np.frombuffer("".join(spans).encode("utf-32-le"), dtype=np.uint32)
    ends = np.cumsum([len(s) for s in spans], dtype=np.int32)
    offsets = ends - np.array([len(s) for s in spans], dtype=np.int32)
    table = load_word_keys()
    assert table is not None
    found = in_dictionary(span_keys(points, offsets, ends), table).tolist()
    assert found == are_words(spans)
    assert 200_000 < sum(found) < len(found)


def test_odd_words_of_bids_with_typos_follow_the_rule_word_by_word() -> None:
    """Real cuts of bid prose with characters swapped for others: the spans looked up all at once give
    the candidates that asking the tokenizer span by span gives."""
    rng = random.Random(23)
    for seed in range(40):
        text = list("".join(paragraphs(seed, 6)))
        for at in rng.sample(range(len(text)), len(text) // 20):
            text[at] = chr(rng.randrange(0x4E00, 0xA000))
        words = cut("".join(text))
        assert odd_words(words) == _odd_words_one_by_one(words)


def test_the_word_numbers_are_stored_read_back_the_same_and_made_again_when_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The numbers are kept in the cache: a process that finds them reads what the one that made them
    had; an entry cut short or out of order is made again."""
    monkeypatch.setenv("BIDCHECK_CACHE_DIR", str(tmp_path))
    load_word_keys.cache_clear()
    try:
        made = load_word_keys()
        assert made is not None
        (entry,) = (tmp_path / "tables").rglob("w*.bin")
        whole = entry.read_bytes()
        for stored in (whole, whole[:-3], whole[8:16] + whole[:8] + whole[16:]):
            entry.write_bytes(stored)
            load_word_keys.cache_clear()
            table = load_word_keys()
            assert table is not None and table.tobytes() == made.tobytes()
            assert table.flags.writeable == (stored != whole)  # read from the entry, or made
            assert entry.read_bytes() == whole
    finally:
        load_word_keys.cache_clear()
