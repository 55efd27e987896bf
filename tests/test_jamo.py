"""jamo: independent recomputation, mutations and the reference judge."""

from __future__ import annotations

import json

import pytest
from conftest import release_items
from scoring import check_agreement

import nolli


def test_release_example_from_spec():
    # Spec example: 휸읔펴 -> 균즠혀 (ㅎ wraps to ㄱ, ㅇ->ㅈ, ㅍ->ㅎ).
    from generators.jamo import _shift_with_jamo_package, _shift_with_unicodedata

    assert "".join(_shift_with_jamo_package(c) for c in "휸읔펴") == "균즠혀"
    assert "".join(_shift_with_unicodedata(c) for c in "휸읔펴") == "균즠혀"
    # Tense consonants are in the list: ㄱ->ㄲ, ㅅ->ㅆ; a double final stays.
    assert "".join(_shift_with_unicodedata(c) for c in "각삶") == "깍쌂"


@pytest.mark.parametrize("tier,syllables", [("easy", 2), ("medium", 2), ("hard", 3)])
def test_tier_shapes(tier, syllables):
    items = release_items(f"ko_jamo_{tier}")
    assert all(len(it["answer"]) == syllables for it in items)
    finals = [f for it in items for _, _, f in json.loads(it["instance"])["syllables"]]
    no_final = sum(f == 0 for f in finals) / len(finals)
    if tier == "easy":
        assert 0.5 < no_final < 0.8  # light mode: ~64% without a final
    else:
        assert no_final < 0.2
    doubles = sum(f in (3, 5, 6, 9, 10, 11, 12, 13, 14, 15, 18) for f in finals)
    assert (doubles > 0) == (tier == "hard")


def test_mutated_gold_fails():
    item = dict(nolli.generate("ko_jamo_hard", 0, 0))
    chars = list(item["answer"])
    chars[0] = chr(ord(chars[0]) + 1)
    bad = dict(item, answer="".join(chars))
    assert not nolli.verify(bad)
    assert "disagrees" in str(nolli.verify(bad))


def test_mutated_question_fails():
    item = nolli.generate("ko_jamo_easy", 0, 3)
    word = json.loads(item["instance"])["word"]
    bad = dict(item, question=item["question"].replace(word, "가나"))
    assert not nolli.verify(bad)


@pytest.mark.parametrize(
    "response,expected",
    [
        ("Answer: 균즠혀", "균즠혀"),
        ("**Answer:** '균즠혀'", "균즠혀"),
        ("정답: 균즠혀", "균즠혀"),
        ("Answer: 균 즠 혀", "혀"),  # the reference judge takes the last Hangul run
        ("no hangul here", None),
    ],
)
def test_extraction(response, expected):
    assert nolli.extract_answer("ko_jamo_hard", response) == expected


def test_reference_judge_agreement():
    check_agreement("jamo", {})
