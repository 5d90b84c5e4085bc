"""The panel's marks as saved with a check: pairs and groups apart, read back as written, a damaged
entry left out rather than stopping the check from opening."""

from __future__ import annotations

import json

from bidcheck.review import Review, group_key, pair_key, reviews_from_dict, reviews_to_dict


def test_marks_on_pairs_and_groups_are_read_back_as_written() -> None:
    marks = {
        pair_key("/s/乙.pdf", "/s/甲.docx"): Review("confirmed", "同一份草稿"),
        group_key(["/s/丙/", "/s/甲.docx", "/s/乙.pdf"]): Review("excluded", "联合体，招标文件允许"),
        group_key(["/s/甲.docx", "/s/乙.pdf"]): Review("confirmed", ""),  # a ring of two is not the pair
        pair_key("/s/丁.pdf", "/s/甲.docx"): Review(),  # pending and no note: not saved
    }
    saved = json.loads(json.dumps(reviews_to_dict(marks), ensure_ascii=False))
    assert {
        "group": ["/s/丙/", "/s/乙.pdf", "/s/甲.docx"],
        "state": "excluded",
        "note": "联合体，招标文件允许",
    } in saved
    back = reviews_from_dict(saved)
    assert back == {k: v for k, v in marks.items() if v != Review()}
    assert group_key(["/s/乙.pdf", "/s/甲.docx"]) != pair_key("/s/乙.pdf", "/s/甲.docx")


def test_damaged_marks_are_left_out() -> None:
    damaged = [
        {"group": ["/s/甲.docx"], "state": "confirmed"},  # a group of one
        {"group": "/s/甲.docx", "state": "confirmed"},  # a name, not a list of members
        {"group": None, "state": "confirmed"},
        {"pair": ["/s/甲.docx"], "state": "confirmed"},
        "not a mark",
        {"pair": ["/s/甲.docx", "/s/乙.pdf"], "state": "sure", "note": "a\x00b"},
    ]
    assert reviews_from_dict(damaged) == {pair_key("/s/甲.docx", "/s/乙.pdf"): Review("pending", "a\ufffdb")}
    assert reviews_from_dict({"not": "a list"}) == {}
