"""Rare errors two bids share: the same wrong characters (混泥土 for 混凝土, 钢筯 for 钢筋) in two
bidders' bids and in no other bid and not in the tender — a text typed once and passed on.

Two kinds of error are looked for. The listed ones (``MISSPELLINGS``: wrong form to right form of the
trade's words, which spell-checkers miss because each character is a real one; slips anyone makes, such as
部份 or 做为, are left out: two writers make them apart), each bid searched once with one expression of them
all, each counted where the cut text keeps its wrong characters apart from the words beside it (养户 in
饲养户 is no slip). And any word out of the dictionary (``bidcheck.fingerprint.oddwords``: where the cut
text falls into single characters) that two bids alone hold, that no other bid's text and not the tender's
holds, that stands between the same characters on one side in both (copied with its sentence), and that is
one character off a dictionary word at least half the section's other texts use, the two characters sounding
alike by the meant character's first reading (砂桨 beside 砂浆, 验受 beside 验收: the slip of an input
method, not a phrase jieba happens to cut apart nor a term of the trade the dictionary lacks). A slip is
rare: two bids sharing more than ``_MAX_SLIPS`` such words share a text of odd words copied whole (its
passages weigh it), and none of them is reported. And chance grows with the bids' length (long bids hold
thousands of words out of the dictionary): where more than ``base.CHANCE_PAIRS`` pairs of the section share
one slip each, one slip is what chance gives there and none is reported (two still are). Two or more errors
shared by the same two bids are strong, one supporting.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidcheck.arrays import code_points, distinct, is_member
from bidcheck.fingerprint.tokens import are_words, cut
from bidcheck.memo import memoised_per_key
from bidcheck.model import PublicValue, Signal, Strength
from bidcheck.ready import Ready
from bidcheck.signals.base import (
    CHANCE_PAIRS,
    Linked,
    SectionInfo,
    longest_first,
    place_of,
    seen_elsewhere,
    value_key,
)
from bidcheck.text.pinyin import reading_table, readings, toneless

__all__ = ["MISSPELLINGS", "error_keys", "find", "right_form"]

MISSPELLINGS: dict[str, str] = {
    "混泥土": "混凝土",
    "砼土": "砼",
    "钢筯": "钢筋",
    "钢精混凝土": "钢筋混凝土",
    "水泥砂桨": "水泥砂浆",
    "沙桨": "砂浆",
    "砂桨": "砂浆",
    "工期拖廷": "工期拖延",
    "竣工验收合恪": "竣工验收合格",
    "质量合恪": "质量合格",
    "脚手加": "脚手架",
    "模版支撑": "模板支撑",
    "砌筑沙浆": "砌筑砂浆",
    "防水卷财": "防水卷材",
    "施工工义": "施工工艺",
    "技术交低": "技术交底",
    "隐蔽工程验收记彔": "隐蔽工程验收记录",
    "养户": "养护",
    "振倒": "振捣",
    "砼养扩": "砼养护",
    "泵送砼土": "泵送混凝土",
}
_PATTERN = re.compile(longest_first(MISSPELLINGS))  # the longest listed error where several start
_IN_LISTED = frozenset(w[i:j] for w in MISSPELLINGS for i in range(len(w)) for j in range(i + 1, len(w) + 1))


_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)  # 张工, 李总: a person, not a wrong character
_CONTEXT = 6  # characters either side of a word cut again to see whether it stands as a word
_CONTEXT_CHARS = 2  # characters beside a shared error that the two bids must share on one side
_CONTEXT_PLACES = 5  # the first places of the word those characters are taken from
_MAX_SLIPS = 3  # slips of sound two bids share beyond which they are words of a text copied whole
_NUMERALS = frozenset("一二三四五六七八九十百千万亿零两〇")  # 三级 for 二级 is another quantity, not a slip


def _listed(bid: Ready) -> dict[str, tuple[int, int]]:
    """The listed errors in a bid, each with the span where it first stands as an error."""
    found: dict[str, tuple[int, int]] = {}
    for match in _PATTERN.finditer(bid.clean.text):
        if match.group() not in found and _stands_as_error(bid.clean.text, match.span()):
            found[match.group()] = match.span()
    return found


def _stands_as_error(text: str, span: tuple[int, int]) -> bool:
    """Whether a listed error stands as one where the text is cut into words: what is left of it once
    the words running across its ends are taken off holds its wrong characters and two characters at
    least. 养户 in 浇水养户 is a slip for 养护; in 培养户外 or 饲养户 (a livestock farmer) 养 ends another
    word; 模版支撑 before 体系 keeps 模版."""
    left = set(range(*span))
    for a, b in _words_around(text, span):
        if any(a < edge < b for edge in span):
            left -= set(range(a, b))
    wrong = {span[0] + n for n in _wrong_places(text[span[0] : span[1]])}
    return len(left) >= 2 and wrong <= left


def _words_around(text: str, span: tuple[int, int]) -> list[tuple[int, int]]:
    """The words the cut makes of ``span`` of ``text`` and ``_CONTEXT`` characters either side, as
    spans of ``text``."""
    lo = max(0, span[0] - _CONTEXT)
    ends = itertools.accumulate(map(len, cut(text[lo : span[1] + _CONTEXT])), initial=lo)
    return list(itertools.pairwise(ends))


@functools.cache
def _wrong_places(word: str) -> range:
    """The places of a listed error's characters that its right form does not share at either end."""
    right = MISSPELLINGS[word]
    head = _common_head(word, right)
    return range(head, len(word) - _common_head(word[head:][::-1], right[head:][::-1]))


def _common_head(a: str, b: str) -> int:
    return next((n for n, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def _odd(bid: Ready) -> dict[str, tuple[int, int]]:
    """A bid's out-of-dictionary words, each with the clean-text span where it first stands."""
    return {w: bid.clean.clean_span(at, at + len(w)) for w, at in bid.fingerprint.odd_words}


def right_form(word: str, texts: Sequence[str]) -> str | None:
    """The dictionary word one character off ``word``, the two characters sounding alike, that at least
    half of ``texts`` (comparable texts, three at least: those of the section not holding the slip) use
    — the section's own spelling of it; else ``None``. The two bids holding the slip need not spell it
    right anywhere: a writer who always types 沉降观侧, and the bidder who copied the text, never do."""
    needed = max(3, (len(texts) + 1) // 2)
    for right in _sound_alike_words(word):
        if _used_by(right, texts, needed):
            return right
    return None


@functools.lru_cache(maxsize=1 << 16)
def _sound_alike_words(word: str) -> tuple[str, ...]:
    """The dictionary words one character off ``word``, the two characters sounding alike, in the order
    ``right_form`` tries them (the same words for every section: the app's next check asks again)."""
    found: list[str] = []
    for n, char in enumerate(word):
        if char in _NUMERALS or (n == 0 and len(word) == 2 and char in _SURNAMES):
            continue
        head, tail = word[:n], word[n + 1 :]
        others = {c for reading in readings(char) for c in _sound_table().get(reading, "")}
        tried = [head + other + tail for other in sorted(others - {char} - _NUMERALS)]
        found += itertools.compress(tried, are_words(tried))
    return tuple(found)


def _used_by(word: str, texts: Sequence[str], needed: int) -> bool:
    """Whether at least ``needed`` of the texts use ``word`` as a word (cut so where it stands, not two
    words' ends side by side: 利水 in 顺利水泥 is no use of 利水)."""
    count = 0
    if needed <= 0:
        return True
    for text in texts:
        count += _as_word(word, text)
        if count >= needed:
            return True
    return False


def _as_word(word: str, text: str, tries: int = 3) -> bool:
    """Whether, at one of the first ``tries`` places ``word`` stands in ``text``, the cut keeps it
    within one word (砂浆 in 水泥砂浆 is 砂浆; 利水 in 顺利水泥 falls across two words)."""
    at = text.find(word)
    for _ in range(tries):
        if at < 0:
            return False
        if any(a <= at and at + len(word) <= b for a, b in _words_around(text, (at, at + len(word)))):
            return True
        at = text.find(word, at + 1)
    return False


@functools.cache
def _sound_table() -> dict[str, str]:
    """For each reading, the characters of the basic CJK block whose first reading it is: the reading a
    writer types for the character meant. A rare reading does not count (机 read wèi is no slip for 未:
    已摊铺未压实 is right)."""
    table: dict[str, list[str]] = {}
    for code, listed in reading_table().items():
        first = toneless(listed).split(",")[0]
        if 0x4E00 <= code <= 0x9FFF and first:
            table.setdefault(first, []).append(chr(code))
    return {reading: "".join(chars) for reading, chars in table.items()}


def _held_by_two(bids: Sequence[Ready], tender: npt.NDArray[np.uint64]) -> dict[str, list[tuple[int, int]]]:
    """The out-of-dictionary words exactly two bids hold (and the tender, by its words' numbers ``tender``,
    does not), with the two and where the word first stands in each, in order. Counted by the words'
    numbers (``Fingerprint.odd_keys``), all bids' at once: counting the words themselves hashed each of
    a section's 460,000 in the signals' process (0.3-0.5 s at 100 bids); the few held twice are placed."""
    prints = [b.fingerprint for b in bids]
    owners = np.repeat(np.arange(len(prints)), [len(f.odd_keys) for f in prints])
    places = np.concatenate([np.zeros(0, np.int64), *(np.arange(len(f.odd_keys)) for f in prints)])
    docs: dict[str, list[tuple[int, int]]] = {}
    for x, y in _twice(np.concatenate([np.zeros(0, np.uint64), *(f.odd_keys for f in prints)]), tender):
        (word, at), (_, other) = (prints[owners[n]].odd_words[places[n]] for n in (x, y))
        docs[word] = [(int(owners[x]), at), (int(owners[y]), other)]
    return dict(sorted(docs.items()))


def _twice(keys: npt.NDArray[np.uint64], tender: npt.NDArray[np.uint64]) -> list[tuple[int, int]]:
    """Where in ``keys`` each value held exactly twice (and not in ``tender``) stands: (first, second)."""
    order = np.argsort(keys, kind="stable")  # equal values stay in order: a word's holders in the bids' order
    ordered = keys[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])  # no keys: [0], a run of 0
    two = starts[np.diff(np.r_[starts, len(ordered)]) == 2]
    two = two[~is_member(ordered[two], distinct(tender))]
    return list(zip(order[two].tolist(), order[two + 1].tolist(), strict=True))


def _generic(
    bids: Sequence[Ready], tender: npt.NDArray[np.uint64], texts: list[str]
) -> dict[str, tuple[list[int], str]]:
    """The out-of-dictionary words exactly two bids hold that are wrong characters: the two bids and
    the right form. ``texts``: the comparable texts of the bids, then the tenders."""
    held = {
        word: [index for index, _ in places]
        for word, places in _held_by_two(bids, tender).items()
        if word not in _IN_LISTED  # part of a listed error: the list's to report
    }
    asked: dict[int, set[str]] = {}
    for word, docs in held.items():
        for index in docs:
            asked.setdefault(index, set()).add(word)
    contexts = {index: _remembered_contexts(bids[index], words) for index, words in asked.items()}
    out: dict[str, tuple[list[int], str]] = {}
    for word, (first, second) in held.items():
        if not _one_side_alike(contexts[first][word], contexts[second][word]):
            continue
        others = [t for n, t in enumerate(texts) if n not in (first, second)]
        right = right_form(word, others)
        if right and not any(word in t for t in others):
            out[word] = ([first, second], right)
    return out


Contexts = tuple[set[str], set[str]]


@dataclass(frozen=True)
class _Asked:
    """Words asked of one bid's comparable text."""

    bid: Ready
    keys: frozenset[str]


@memoised_per_key
def _asked_contexts(asked: _Asked) -> dict[str, Contexts]:
    """The ``_contexts`` of each word asked in the bid's comparable text, remembered with its cache entry:
    a bid added to a checked section asks the other bids' texts about a few words only. Those not
    remembered are found together (one pass over the text a length of word)."""
    return _all_contexts(set(asked.keys), asked.bid.clean.norm)


def _remembered_contexts(bid: Ready, words: set[str]) -> dict[str, Contexts]:
    """``_asked_contexts`` of ``words`` in ``bid``."""
    return _asked_contexts(_Asked(bid, frozenset(words)))


def _contexts(word: str, text: str) -> Contexts:
    """The ``_CONTEXT_CHARS`` characters before and after the first few places ``word`` stands in."""
    places: list[int] = []
    at = text.find(word)
    while at >= 0 and len(places) < _CONTEXT_PLACES:
        places.append(at)
        at = text.find(word, at + 1)
    return _contexts_at(word, text, places)


def _all_contexts(words: set[str], text: str) -> dict[str, Contexts]:
    """``_contexts`` of each word: the places of all words of one length found at once, every place a
    word starts (a word where another starts, or where it overlaps itself, is found too; of one
    length, one word at most starts at a place)."""
    places: dict[str, list[int]] = {w: [] for w in words}
    points: npt.NDArray[np.uint32] | None = None
    for length in sorted({len(w) for w in words}):
        of_length = [w for w in words if len(w) == length]
        if length <= _KEYED_CHARS:
            points = code_points(text) if points is None else points
            starts = _starts_by_number(points, of_length, length)
        else:
            starts = _starts_by_expression(text, of_length)
        for at in starts:
            held = places[text[at : at + length]]
            if len(held) < _CONTEXT_PLACES:
                held.append(at)
    return {w: _contexts_at(w, text, at) for w, at in places.items()}


_KEYED_CHARS = 3  # words this short are found as numbers (21 bits a character), longer by an expression


def _number(points: npt.NDArray[np.uint32], length: int) -> npt.NDArray[np.uint64]:
    """One number for each span of ``length`` characters of the code points, in order of its start."""
    count = len(points) - length + 1
    key = np.zeros(max(count, 0), dtype=np.uint64)
    for n in range(length if count > 0 else 0):
        key = (key << np.uint64(21)) | points[n : n + count].astype(np.uint64)
    return key


def _starts_by_number(points: npt.NDArray[np.uint32], words: list[str], length: int) -> list[int]:
    """Where words of ``length`` characters start, in order: every span of the text as a number, looked
    up among the words' numbers at once (a bid's few hundred words: compiling them as an expression
    alone took 3 ms a length)."""
    keys = np.array(sorted(map(_word_number, words)), dtype=np.uint64)
    return np.flatnonzero(is_member(_number(points, length), keys)).tolist()


def _word_number(word: str) -> int:
    """A word's number as ``_number`` makes it of a span."""
    return functools.reduce(lambda key, char: key << 21 | ord(char), word, 0)


def _starts_by_expression(text: str, words: list[str]) -> list[int]:
    """Where words of one length start, in order: one expression, searched again from the character
    after each place found."""
    pattern = re.compile(longest_first(words))
    starts = []
    match = pattern.search(text)
    while match:
        starts.append(match.start())
        match = pattern.search(text, match.start() + 1)
    return starts


def _contexts_at(word: str, text: str, places: list[int]) -> Contexts:
    before = {text[max(0, at - _CONTEXT_CHARS) : at] for at in places}
    return before, {text[at + len(word) : at + len(word) + _CONTEXT_CHARS] for at in places}


def _one_side_alike(one: Contexts, other: Contexts) -> bool:
    """Whether two places of a word share the characters before it or those after it."""
    return bool(one[0] & other[0] or one[1] & other[1])


def _same_context(word: str, text: str, other: str) -> bool:
    """Whether the word stands between the same characters on one side in both texts, as a copied
    error does (its sentence came with it); the same slip made twice apart seldom does."""
    return _one_side_alike(_contexts(word, text), _contexts(word, other))


Shared = dict[tuple[int, int], list[tuple[str, str, str]]]


def _shared(bids: Sequence[Ready], section: SectionInfo) -> tuple[Shared, list[PublicValue]]:
    """For each pair of bids, the errors the two alone hold: wrong form, right form, ``misspelling`` (a
    listed one) or ``homophone`` (found out of the dictionary); and the listed misspellings two bids
    alone hold that bidders of the library's other sections make too (the world's, not the pair's)."""
    listed = [_listed(b) for b in bids]
    tender = {e for t in section.tenders for e in _listed(t)}
    holders: dict[str, list[int]] = {}
    for index, held in enumerate(listed):
        for error in held:
            if error not in tender:
                holders.setdefault(error, []).append(index)
    two = {error: docs for error, docs in sorted(holders.items()) if len(docs) == 2}
    two, world = seen_elsewhere("shared_error", "misspelling", two, section)
    pairs: Shared = {}
    for error, docs in two.items():
        pairs.setdefault((docs[0], docs[1]), []).append((error, MISSPELLINGS[error], "misspelling"))
    texts = [b.clean.norm for b in (*bids, *section.tenders)]
    tender_odd = np.concatenate([np.zeros(0, np.uint64), *(t.fingerprint.odd_keys for t in section.tenders)])
    slips: dict[tuple[int, int], list[tuple[str, str, str]]] = {}
    for error, (docs, right) in _generic(bids, tender_odd, texts).items():
        slips.setdefault((docs[0], docs[1]), []).append((error, right, "homophone"))
    singles = sum(len(found) == 1 for found in slips.values())  # what chance gives in this section
    for pair, found in slips.items():
        if len(found) > _MAX_SLIPS:  # more is no slip but text of odd words the two copied whole
            continue
        if len(found) > 1 or singles <= CHANCE_PAIRS:
            pairs.setdefault(pair, []).extend(found)
    return pairs, world


def _span(bid: Ready, error: str) -> tuple[int, int]:
    listed = _listed(bid)
    return listed[error] if error in listed else _odd(bid)[error]


def find(bids: Sequence[Ready], section: SectionInfo) -> list[Linked | PublicValue]:
    """Pairs of bids sharing errors that no other bid and no tender holds: one signal an error; a listed
    misspelling that bidders of the library's other sections make too is the world's, not the pair's."""
    shared, world = _shared(bids, section)
    out: list[Linked | PublicValue] = []
    for (i, j), found in sorted(shared.items()):
        strength: Strength = "strong" if len(found) >= 2 else "supporting"
        for error, right, field in sorted(found):
            here, there = (place_of(bids[k].clean, *_span(bids[k], error)) for k in (i, j))
            detail = f"两份文件有相同的错别字“{error}”（应为“{right}”），其他投标文件和招标文件均没有"
            signal = Signal("shared_error", strength, field, error, detail, here, there)
            out.append(Linked(bids[i].doc.id, bids[j].doc.id, signal))
    return out + world


def error_keys(doc: Ready) -> tuple[int, ...]:
    """The listed misspellings a document makes, as the library keeps them (``value_key``)."""
    return tuple(sorted({value_key("misspelling", error) for error in _listed(doc)}))
