"""The identifiers' patterns, written for speed, find what their plain forms find."""

from __future__ import annotations

import random
import re

import pytest

from bidcheck.signals.identifier import PATTERNS, _matches

# the patterns as first written: each number's look-behind before its first character
PLAIN = {
    "phone": re.compile(r"(?<![\d])((?:1[3-9]\d{9})|(?:0\d{2,3}[-－]?\d{7,8}))(?![\d])"),
    "id_number": re.compile(r"(?<![0-9A-Za-z])(\d{17}[\dXx])(?![0-9A-Za-z])"),
    "credit_code": re.compile(
        r"(?<![0-9A-Za-z])([0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10})(?![0-9A-Za-z])"
    ),
    "email": re.compile(r"(?<![\w.+-])([\w.+-]{1,64}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)"),
}


def _texts(seed: int) -> list[str]:
    """Texts thick with what the patterns look for: digits of every kind, letters, ``@``, dots, CJK."""
    rng = random.Random(seed)
    pieces = ["0", "1", "3", "8", "9", "X", "x", "A", "Q", "I", "z", "-", "－", ".", "@", "+", "_", " ", "\n"]
    pieces += ["１", "٣", "投", "标", "号", "13812345678", "010-12345678", "91350100M000100Y43", "a.b@c.cn"]
    pieces += ["110101199003074477", "x" * 70, "@@", "mail@", "@x.y", ".cn"]
    return ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 120))) for _ in range(400)]


@pytest.mark.parametrize("field", sorted(PLAIN))
def test_each_pattern_finds_what_its_plain_form_finds(field: str) -> None:
    texts = _texts(len(field))
    texts += ["y" * 64 + "@a.cn", "y" * 65 + "@a.cn", "我" * 80 + "a@b.c@d.e", "a@b.c" * 30, "", "@"]
    for text in texts:
        ours = [(m.span(1), m.group(1)) for m in _matches(field, text)]
        assert ours == [(m.span(1), m.group(1)) for m in PLAIN[field].finditer(text)], text
    assert PATTERNS[field][0].pattern != PLAIN[field].pattern or field == "email"
