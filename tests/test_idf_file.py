"""jieba's IDF table read in bulk gives the table read line by line, or declines (and the lines are read)."""

from __future__ import annotations

import numpy as np
import pytest
import xxhash

from bidcheck.fingerprint.idf_file import idf_rows, sorted_idf
from bidcheck.fingerprint.simhash import _built_table
from bidcheck.fingerprint.tokens import idf_path


def _line_by_line(text: str, seed: int) -> tuple[list[int], list[float], float]:
    """The table as ``tokens.idf_weights`` and the hashing make it: each line split at its first space,
    lines without a value left out, a word's last value kept; sorted by hash, and the median."""
    table: dict[str, float] = {}
    for line in text.splitlines():
        word, _, value = line.partition(" ")
        if value:
            table[word] = float(value)
    values = sorted(table.values())
    rows = sorted((xxhash.xxh64_intdigest(w.encode("utf-8"), seed), v) for w, v in table.items())
    return [h for h, _ in rows], [v for _, v in rows], values[len(values) // 2]


@pytest.mark.parametrize("seed", [0, 7])
def test_jiebas_table_read_in_bulk_is_the_table_read_line_by_line(seed: int) -> None:
    data = idf_path().read_bytes()
    bulk = sorted_idf(data, seed)
    assert bulk is not None  # jieba's own file is of the usual shape: the bulk reading is the one used
    hashes, values, median = bulk
    expected = _line_by_line(data.decode("utf-8"), seed)
    assert (hashes.tolist(), values.tolist(), median) == expected
    assert len(hashes) > 250_000
    made = _built_table(seed)
    assert (made.hashes.tolist(), made.values.tolist(), made.median) == expected


PLAIN = "投标 9.5\n报价 7.25\n围标 11.0\n"
ODD = {  # files the bulk reading declines: each has what only the line-by-line reading handles
    "a word twice": PLAIN + "报价 3.5\n",
    "windows line ends": PLAIN.replace("\n", "\r\n"),
    "a tab": PLAIN.replace("报价 ", "报价\t"),
    "a line without value": PLAIN + "孤词\n",
    "two spaces": PLAIN.replace("报价 ", "报价  "),
    "a value with a space": PLAIN.replace("7.25", "7 .25"),
    "a unicode line break": PLAIN.replace("围标", "围\u2028标"),
    "a form feed": PLAIN.replace("围标", "围\x0c标"),
    "an empty line": PLAIN + "\n",
    "a value not a number": PLAIN.replace("7.25", "七"),
    "a value not finite": PLAIN.replace("7.25", "inf"),
}


def test_a_plain_file_with_or_without_its_last_line_end_is_read_in_bulk() -> None:
    for text in (PLAIN, PLAIN.rstrip("\n")):
        rows = idf_rows(text.encode("utf-8"))
        assert rows is not None
        assert [w.decode("utf-8") for w in rows[0]] == ["投标", "报价", "围标"]
        assert rows[1].tolist() == [9.5, 7.25, 11.0]
        hashes, values, median = sorted_idf(text.encode("utf-8"), 3) or (np.zeros(0), np.zeros(0), 0.0)
        assert (hashes.tolist(), values.tolist(), median) == _line_by_line(text, 3)


@pytest.mark.parametrize("name", sorted(ODD))
def test_an_odd_file_is_declined(name: str) -> None:
    assert sorted_idf(ODD[name].encode("utf-8"), 0) is None


def test_a_file_not_utf8_or_empty_is_declined() -> None:
    assert idf_rows(PLAIN.encode("gb18030")) is None
    assert idf_rows(b"") is None
