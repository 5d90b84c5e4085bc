"""The result JSON (``bidcheck.result/1``)."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Sequence
from pathlib import Path

from bidcheck.gcpause import collector_paused
from bidcheck.model import (
    CheckResult,
    PairResult,
    Passage,
    Side,
    pair_figures_to_dict,
    passage_figures_to_dict,
    result_to_dict,
    side_to_dict,
)
from bidcheck.report.files import write_atomically
from bidcheck.text.chars import utf8

__all__ = ["result_json", "save_json", "write_json"]


def result_json(result: CheckResult) -> str:
    """The result as JSON text: keys in a fixed order, Chinese kept readable, one document, pair or group
    per line (each line written by the C encoder, which an indented dump would not use)."""
    return "".join(_json_pieces(result))


def _json_pieces(result: CheckResult) -> Iterator[str]:
    """``result_json``'s text in pieces of a line or so, for a file to take one by one: a large section's
    JSON is tens of megabytes (a folder of 2,000 files: two million pairs, hundreds), and joined into one
    string it would be copied whole twice more; each pair's line is made as it is written."""
    with collector_paused():
        items = list(result_to_dict(result, with_pairs=False).items())
    yield "{\n"
    for n, (key, value) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        if key == "pairs" and result.pairs:
            rows: Iterator[str] = _PairLines().lines(result.pairs)
        elif isinstance(value, list) and value:
            rows = (_compact(v) for v in value)
        else:
            yield f" {_compact(key)}: {_compact(value)}{comma}\n"
            continue
        yield f" {_compact(key)}: [\n"
        yield from _rows(rows)
        yield f" ]{comma}\n"
    yield "}\n"


def _rows(rows: Iterator[str]) -> Iterator[str]:
    """Each row on its line, a comma after each but the last (one row read ahead)."""
    row = next(rows)
    for after in rows:
        yield f"  {row},\n"
        row = after
    yield f"  {row}\n"


class _PairLines:
    """Each pair as one line of JSON. A side shared by many pairs (a bid's copy of the tender's text
    is a side of its pair with every other bid that copied it) is encoded once."""

    def __init__(self) -> None:
        self._sides: dict[int, str] = {}

    def lines(self, pairs: Sequence[PairResult]) -> Iterator[str]:
        with collector_paused():  # the sides remembered are many small strings: nothing to collect
            yield from (self._pair(pair) for pair in pairs)

    def _pair(self, pair: PairResult) -> str:
        passages = ", ".join(self._passage(p) for p in pair.passages)
        figures = _compact(pair_figures_to_dict(pair))[:-1]
        return f'{figures}, "passages": [{passages}], "passages_omitted": {pair.passages_omitted}}}'

    def _passage(self, passage: Passage) -> str:
        figures = _compact(passage_figures_to_dict(passage))[1:]
        return f'{{"a": {self._side(passage.a)}, "b": {self._side(passage.b)}, {figures}'

    def _side(self, side: Side) -> str:
        text = self._sides.get(id(side))
        if text is None:
            text = self._sides[id(side)] = _compact(side_to_dict(side))
        return text


# ``json.dumps(value, ensure_ascii=False)``'s text without making an encoder for each of a result's tens
# of thousands of sides and figures (a third of writing the JSON; a result holds no cycles to look for)
_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)


def _compact(value: object) -> str:
    return _ENCODER.encode(value)


def write_json(result: CheckResult, path: Path) -> None:
    """Write the result JSON to ``path`` (UTF-8; a path's lone surrogate, which UTF-8 cannot hold, as �)."""
    write_atomically(path, functools.partial(save_json, result))


def save_json(result: CheckResult, target: Path) -> None:
    """Write the result JSON to ``target`` as it goes (``write_json`` writes it whole)."""
    with target.open("wb") as out:
        out.writelines(utf8(piece) for piece in _json_pieces(result))
