"""saju: recipe mix per tier, independent day/hour pillars, hand-made wrong pillars, extraction."""

from __future__ import annotations

import collections
import datetime as dt
import json
import random

import pytest
from conftest import release_items
from korean_lunar_calendar import KoreanLunarCalendar
from scoring import check_agreement

import nolli
from generators.base import VerificationError
from generators.saju import PUZZLE, day_index, pillar, verify_question

G, D, H = "hour_given_day", "day", "hour_from_date"


@pytest.mark.parametrize(
    "tier,bounds",
    [
        ("easy", {G: (65, 95), D: (5, 35), H: (0, 0)}),
        ("medium", {G: (25, 55), D: (25, 55), H: (8, 32)}),
        ("hard", {G: (2, 25), D: (30, 60), H: (30, 60)}),
    ],
)
def test_recipe_mix(tier, bounds):
    counts = collections.Counter(
        json.loads(it["instance"])["recipe"] for it in release_items(f"ko_saju_{tier}")
    )
    for recipe, (lo, hi) in bounds.items():
        assert lo <= counts[recipe] <= hi, (recipe, counts)


def test_every_hour_question_states_the_23h_convention_and_format():
    for tier in ("easy", "medium", "hard"):
        for it in release_items(f"ko_saju_{tier}"):
            assert "정답: <간지 두 글자>" in it["question"]
            if json.loads(it["instance"])["recipe"] != D:
                assert "23:00~23:59" in it["question"]


def _question(problem: str, hour_rules: bool = True) -> str:
    """A question in the generated format, built by hand."""
    inst = {"recipe": G, "date": None, "time": [1, 0], "given_day": 0}
    text = PUZZLE.render(inst, "ko", PUZZLE.levers["easy"])
    if not hour_rules:
        text = text.replace("23:00~23:59에 태어난 경우에도", "23시대에는")
    old = next(ln for ln in text.split("\n") if ln.startswith("문제: "))
    return text.replace(old, f"문제: {problem}")


@pytest.mark.parametrize(
    "problem,expected",
    [
        ("양력 1900년 1월 1일의 일주(日柱), 즉 그날의 일진은 무엇입니까?", "갑술"),
        ("양력 2000년 1월 1일의 일주(日柱), 즉 그날의 일진은 무엇입니까?", "무오"),
        ("양력 2024년 1월 1일의 일주(日柱), 즉 그날의 일진은 무엇입니까?", "갑자"),
        ("일주가 '갑자'인 사람이 23시 30분에 태어났습니다. 이 사람의 시주(時柱)는 무엇입니까?", "갑자"),
        ("일주가 '갑자'인 사람이 0시 59분에 태어났습니다. 이 사람의 시주(時柱)는 무엇입니까?", "갑자"),
        ("일주가 '갑자'인 사람이 1시 0분에 태어났습니다. 이 사람의 시주(時柱)는 무엇입니까?", "을축"),
        ("일주가 '경오'인 사람이 16시 20분에 태어났습니다. 이 사람의 시주(時柱)는 무엇입니까?", "갑신"),
        ("일주가 '계해'인 사람이 22시 59분에 태어났습니다. 이 사람의 시주(時柱)는 무엇입니까?", "계해"),
        ("양력 2024년 1월 1일 13시 0분에 태어난 사람의 시주(時柱)는 무엇입니까?", "신미"),
    ],
)
def test_known_pillars(problem, expected):
    assert verify_question(_question(problem)) == expected


def test_handmade_bad_questions_are_rejected():
    with pytest.raises(VerificationError, match="invalid date"):
        verify_question(_question("양력 2023년 2월 29일의 일주(日柱), 즉 그날의 일진은 무엇입니까?"))
    with pytest.raises(VerificationError, match="23시"):
        verify_question(
            _question(
                "일주가 '갑자'인 사람이 23시 30분에 태어났습니다. 이 사람의 시주(時柱)는 무엇입니까?", False
            )
        )
    with pytest.raises(VerificationError, match="given day pillar"):  # 갑축 is not one of the 60 pillars
        verify_question(
            _question("일주가 '갑축'인 사람이 3시 0분에 태어났습니다. 이 사람의 시주(時柱)는 무엇입니까?")
        )


@pytest.mark.parametrize("config", ["ko_saju_easy", "ko_saju_hard"])
def test_wrong_pillar_is_rejected(config):
    for index in range(6):
        item = nolli.generate(config, 0, index)
        gold = item["answer"]
        # The neighbouring pillar (the classic off-by-one-day error).
        cycle = [pillar(i) for i in range(60)]
        wrong = cycle[(cycle.index(gold) + 1) % 60]
        result = nolli.verify(dict(item, answer=wrong))
        assert not result and "independent computation" in str(result)


def test_generated_day_pillars_agree_with_korean_lunar_calendar_on_many_dates():
    rng = random.Random(7)
    start = dt.date(1950, 1, 1).toordinal()
    for _ in range(400):
        day = dt.date.fromordinal(start + rng.randrange(366 * 66))
        cal = KoreanLunarCalendar()
        assert cal.setSolarDate(day.year, day.month, day.day)
        assert cal.getGapJaString().split()[2][:2] == pillar(day_index(day.year, day.month, day.day)), day


@pytest.mark.parametrize(
    "response,expected",
    [
        ("풀이\nAnswer: 정미(丁未)", "정미"),
        ("풀이\n**Answer:** 정미", "정미"),
        ("풀이\nAnswer: 丁未", None),  # Hanja only does not score (reference judge)
        ("일주가 갑자인 사람은 을축시에 태어났다", "갑자"),  # no label: the first pair (reference)
        ("정답: 병오 (앞의 갑자는 오답)", "병오"),
        ("답: 임인", "임인"),
        ("", None),
        ("갑" * 10000, None),
    ],
)
def test_extraction(response, expected):
    assert nolli.extract_answer("ko_saju_medium", response) == expected


def test_reference_judge_agreement():
    check_agreement("saju", {})
