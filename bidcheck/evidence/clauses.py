"""Standard-clause-like text: the legal and procedural register of model documents and contracts.

Bids quote the national model documents (投标人须知, 合同通用条款, 承诺书) whether or not the section's
tender was given, so several unrelated bidders share them. Their sentences are made largely of the
register's own words — the parties (投标人, 招标人, 发包人), the procedure (投标保证金, 澄清, 中标通知书)
and legal wording (应当, 不得, 视为, 依法, 承担…责任) — which a bidder's technical plan hardly uses. The
words are ``dicts/clause_words.txt``.
"""

from __future__ import annotations

import functools
import itertools
import re
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bidcheck.evidence.flags import true_runs
from bidcheck.text import CleanText

__all__ = ["CLAUSE_DENSITY", "clause_density", "clause_like_spans", "clause_mask"]

CLAUSE_WORDS = Path(__file__).resolve().parents[2] / "dicts" / "clause_words.txt"
# A sentence is clause-like when at least this share of its letters lies in register words. Measured on
# generated construction-plan prose (each sentence below 0.15 in 99 of 100) and model clauses (0.3–0.7).
CLAUSE_DENSITY = 0.15
_ENDS = ("。", "！", "？", "!", "?", "\n")
_SENTENCE = re.compile(r"[^。！？!?\n]+[。！？!?]?")
# A "sentence" longer than this is a run of several without their ends: judged clause by clause, where
# the clauses of other wording making ``_RELEASE`` characters together are not masked with the rest.
_LONG = 100
_RELEASE = 40
_LIST_NUMBER = re.compile(r"(?<!\d)\d{1,2}[．.、](?!\d)|[（(]\d{1,2}[）)]|[①-⑳]")  # 1． （2） ③
_CLAUSE_END = re.compile(r"[，,；;：:]")  # where a clause of a long run ends


@functools.cache
def _register() -> tuple[frozenset[str], int]:
    """The register's words and the length of the longest."""
    lines = CLAUSE_WORDS.read_text(encoding="utf-8").splitlines()
    words = frozenset(w.strip() for w in lines if w.strip() and not w.startswith("#"))
    return words, max(map(len, words))


@functools.lru_cache(maxsize=1 << 16)
def clause_density(text: str) -> float:
    """Share of the letters of ``text`` covered by register words (longest match first); a sentence
    that several bids share (a ring's draft) is measured once."""
    words, longest = _register()
    letters = "".join(c for c in text if c.isalnum())
    covered = position = 0
    while position < len(letters):
        step = next(
            (
                k
                for k in range(min(longest, len(letters) - position), 1, -1)
                if letters[position : position + k] in words
            ),
            1,
        )
        covered += step if step > 1 else 0
        position += step
    return covered / len(letters) if letters else 0.0


def clause_like_spans(text: str, density: float = CLAUSE_DENSITY) -> list[tuple[int, int]]:
    """The spans of the sentences of ``text`` that read as standard clauses (offsets into ``text``); of a
    run longer than ``_LONG`` without a sentence end, only its clause-like part (``_clause_like_part``)."""
    spans: list[tuple[int, int]] = []
    for start, end in _sentences(text):
        sentence = text[start:end]
        if clause_density(sentence) < density:
            continue
        if len(sentence) <= _LONG:
            spans.append((start, end))
        else:
            spans += [(start + s, start + e) for s, e in _clause_like_part(sentence, density)]
    return spans


def _sentences(text: str) -> list[tuple[int, int]]:
    """The spans of the sentences of ``text``: up to a sentence end, or to a list number within (a
    numbered list run on without its stops: 负责，1．夜间照明… is two)."""
    out = []
    for m in _SENTENCE.finditer(text):
        cuts = [
            m.start(),
            *(m.start() + n.start() for n in _LIST_NUMBER.finditer(m.group()) if n.start()),
            m.end(),
        ]
        out += list(itertools.pairwise(cuts))
    return out


def _clause_like_part(run: str, density: float) -> list[tuple[int, int]]:
    """The clause-like part of a long run of text without a sentence end (a numbered list, table cells,
    OCR text): its clauses (between commas, semicolons, colons and list numbers) that read as standard
    clauses, with the other clauses between them unless those make ``_RELEASE`` characters together —
    a plan paragraph run on from a contract sentence is the bidder's own text, not the clause's."""
    bounds = [0, *sorted({m.end() for m in _CLAUSE_END.finditer(run)} - {0, len(run)}), len(run)]
    clauses = list(itertools.pairwise(bounds))
    dense = [clause_density(run[s:e]) >= density for s, e in clauses]
    spans: list[tuple[int, int]] = []
    light: list[tuple[int, int]] = []
    for (start, end), is_dense in zip(clauses, dense, strict=True):
        if not is_dense:
            light.append((start, end))
            continue
        if light and sum(e - s for s, e in light) < _RELEASE and spans:
            spans.append((light[0][0], light[-1][1]))  # a few light words inside the clause
        light = []
        spans.append((start, end))
    return _merged(spans)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in spans:
        if out and out[-1][1] >= start:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def clause_mask(clean: CleanText, within: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Which comparable characters lie in clause-like sentences, judged only for the stretches of text
    that ``within`` touches, each widened to whole sentences (judging reads the document's wording)."""
    mask = np.zeros(len(clean.norm), dtype=bool)
    for lo, hi in true_runs(within):
        start, end = _whole_sentences(clean.text, *clean.clean_span(lo, hi))
        for s, e in clause_like_spans(clean.text[start:end]):
            bounds = np.asarray((start + s, start + e), dtype=clean.norm_map.dtype)  # keys of the map's type:
            first, last = np.searchsorted(clean.norm_map, bounds)  # others would copy the whole map
            mask[first:last] = True
    return mask


def _whole_sentences(text: str, start: int, end: int) -> tuple[int, int]:
    """The span widened to the ends of the sentences it begins and ends in."""
    before = max(text.rfind(mark, 0, start) for mark in _ENDS)
    after = [at for at in (text.find(mark, max(end - 1, start)) for mark in _ENDS) if at >= 0]
    return before + 1, (min(after) + 1 if after else len(text))
