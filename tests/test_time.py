"""time: independent recomputation with datetime / korean_lunar_calendar, mutations, the reference judge."""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter

import pytest
from conftest import release_items
from korean_lunar_calendar import KoreanLunarCalendar
from scoring import check_agreement

import nolli
from generators.time import expected_answer

TIERS = ("easy", "medium", "hard")
HOLIDAY_DATES = {
    "새해 첫날": (1, 1),
    "3·1절": (3, 1),
    "식목일": (4, 5),
    "어린이날": (5, 5),
    "현충일": (6, 6),
    "제헌절": (7, 17),
    "광복절": (8, 15),
    "개천절": (10, 3),
    "한글날": (10, 9),
    "성탄절": (12, 25),
}
OFFSETS = {"오늘": 0, "금일": 0, "내일": 1, "익일": 1, "명일": 1, "다음날": 1, "이튿날": 1}
OFFSETS |= {"모레": 2, "내일모레": 2, "낼모레": 2}


def _gapja_day(d: dt.date) -> str:
    cal = KoreanLunarCalendar()
    assert cal.setSolarDate(d.year, d.month, d.day)
    return cal.getGapJaString().split()[2][:-1]


def test_day_pillar_anchors_from_spec():
    for day, pillar in (
        (dt.date(1900, 1, 1), "갑술"),
        (dt.date(2000, 1, 1), "무오"),
        (dt.date(2024, 1, 1), "갑자"),
    ):
        assert expected_answer(day, "iljin") == pillar == _gapja_day(day)
    assert expected_answer(dt.date(2019, 4, 11), "date") == "2019.4.11"
    assert expected_answer(dt.date(2026, 11, 29), "weekday") == "일요일"


def test_generator_calendar_agrees_with_datetime_on_every_day_in_range():
    # The generator's own Julian-day arithmetic against datetime and the lunar-calendar package,
    # for every day that any item can reach (1990-01-01 .. 2026-01-31).
    from generators import time as mod

    day = dt.date(1990, 1, 1)
    while day <= dt.date(2026, 1, 31):
        j = mod._jdn(day.year, day.month, day.day)
        assert mod._from_jdn(j) == (day.year, day.month, day.day)
        assert mod.WEEKDAYS[j % 7] == "월화수목금토일"[day.weekday()]
        if day.day in (1, 17):  # the package is slower; sample two days a month
            assert mod._pillar(j) == _gapja_day(day), day
        day += dt.timedelta(days=1)


@pytest.mark.parametrize("tier", TIERS)
def test_every_gold_recomputed_with_datetime(tier):
    for item in release_items(f"ko_time_{tier}"):
        inst = json.loads(item["instance"])
        month, day = HOLIDAY_DATES[inst["holiday"]]
        assert OFFSETS[inst["word"]] == inst["offset"]
        target = dt.date(inst["year"], month, day) + dt.timedelta(days=inst["offset"] + inst["days"])
        if inst["output"] == "date":
            assert item["answer"] == f"{target.year}.{target.month}.{target.day}"
        elif inst["output"] == "weekday":
            assert item["answer"] == "월화수목금토일"[target.weekday()] + "요일"
        else:
            assert item["answer"] == _gapja_day(target)
        # The question states the year, the holiday, the word and N.
        q = item["question"]
        assert q.startswith(f"{inst['year']}년 {inst['holiday']}에 ")
        assert f'"{inst["word"]}' in q and f"{inst['days']}일 후" in q
        assert q.rstrip().splitlines()[-1].startswith("정답: ")


@pytest.mark.parametrize(
    "tier,kinds,iljin_share",
    [
        ("easy", {"iljin", "date"}, 0.34),
        ("medium", {"iljin", "weekday"}, 0.60),
        ("hard", {"iljin", "date"}, 0.91),
    ],
)
def test_tier_levers_applied(tier, kinds, iljin_share):
    items = release_items(f"ko_time_{tier}")
    insts = [json.loads(it["instance"]) for it in items]
    counts = Counter(i["output"] for i in insts)
    assert set(counts) <= kinds
    assert abs(counts["iljin"] / len(insts) - iljin_share) < 0.15
    assert all(1990 <= i["year"] <= 2025 and 2 <= i["days"] <= 30 for i in insts)
    assert {i["offset"] for i in insts} <= {0, 1, 2}
    assert set(HOLIDAY_DATES) >= {i["holiday"] for i in insts}


def test_year_crossing_items_exist_and_verify():
    crossing = [
        it
        for tier in TIERS
        for it in release_items(f"ko_time_{tier}")
        if json.loads(it["instance"])["holiday"] == "성탄절"
        and json.loads(it["instance"])["offset"] + json.loads(it["instance"])["days"] > 6
    ]
    assert crossing
    dated = [it for it in crossing if json.loads(it["instance"])["output"] == "date"]
    for it in dated:
        assert it["answer"].startswith(str(json.loads(it["instance"])["year"] + 1) + ".")


def _item_of(tier: str, kind: str) -> dict:
    for item in release_items(f"ko_time_{tier}"):
        if json.loads(item["instance"])["output"] == kind:
            return dict(item)
    raise AssertionError(f"no {kind} item in {tier}")


def test_off_by_one_date_is_rejected():
    item = _item_of("easy", "date")
    y, m, d = map(int, item["answer"].split("."))
    wrong = dt.date(y, m, d) + dt.timedelta(days=1)
    bad = dict(item, answer=f"{wrong.year}.{wrong.month}.{wrong.day}")
    assert nolli.verify(item)
    result = nolli.verify(bad)
    assert not result and "recomputed" in str(result)


def test_neighbouring_pillar_and_weekday_are_rejected():
    item = _item_of("hard", "iljin")
    stems, branches = "갑을병정무기경신임계", "자축인묘진사오미신유술해"
    s, b = stems.index(item["answer"][0]), branches.index(item["answer"][1])
    assert not nolli.verify(dict(item, answer=stems[(s + 1) % 10] + branches[(b + 1) % 12]))
    week = _item_of("medium", "weekday")
    days = "월화수목금토일"
    shifted = days[(days.index(week["answer"][0]) + 1) % 7] + "요일"
    assert not nolli.verify(dict(week, answer=shifted))


def test_hand_made_inconsistent_instance_is_rejected():
    # 모레 means +2; an instance that says +1 (with a question and gold consistent with +1) is caught.
    from generators.time import PUZZLE

    item = _item_of("easy", "date")
    inst = json.loads(item["instance"]) | {"word": "모레", "offset": 1}
    levers = json.loads(item["levers"])
    bad = dict(
        item,
        instance=json.dumps(inst, ensure_ascii=False, separators=(",", ":")),
        question=PUZZLE.render(inst, "ko", levers),
        answer=PUZZLE.gold(inst, "ko"),
    )
    result = nolli.verify(bad)
    assert not result and "offset" in str(result)


def test_question_that_misstates_the_instance_is_rejected():
    item = _item_of("easy", "date")
    inst = json.loads(item["instance"])
    bad = dict(item, question=item["question"].replace(f"{inst['days']}일 후", f"{inst['days'] + 1}일 후"))
    assert not nolli.verify(bad)


@pytest.mark.parametrize(
    "response,answer,expected",
    [
        ("Answer: 2019.4.11", "2019.4.11", True),
        ("Answer: 2019-04-11", "2019.4.11", True),
        ("정답: 2019/4/11", "2019.4.11", True),
        ("Answer: 2019. 4. 11", "2019.4.11", True),
        ("Answer: 2019.04.11.", "2019.4.11", True),
        ("Answer: 2020.4.11", "2019.4.11", False),
        ("계산하면 2019.4.11 입니다.", "2019.4.11", True),  # no label line: whole response
        ("정답: 2019년 4월 11일", "2019.4.11", True),  # deliberate: Korean date form on the answer line
        ("Answer: Thursday", "목요일", False),
        ("Answer: 목요일", "목요일", True),
        ("Answer: 丁丑", "정축", False),
        ("Answer: 정축(丁丑)", "정축", True),
        ("날짜: 2025.5.2\n일진: 경오\n\nAnswer: 경오", "신미", False),
        # deliberate: an invalid stem/branch pair (정오 "noon") on the answer line is not a 일진;
        # the reference judge would take the last pair, 정오, and mark this wrong.
        ("정답: 갑자 (정오 기준)", "갑자", True),
        ("", "정축", False),
        ("\x00" * 1000 + "요일" * 5000, "2019.4.11", False),
    ],
)
def test_scoring_cases(response, answer, expected):
    assert nolli.score("ko_time_easy", response, answer) is expected


def test_extraction_without_gold_guesses_the_kind():
    assert nolli.extract_answer("ko_time_hard", "...\n정답: 을유") == "을유"
    assert nolli.extract_answer("ko_time_hard", "...\n정답: 2001.03.09") == "2001.3.9"
    assert nolli.extract_answer("ko_time_hard", "...\n정답: 화요일") == "화요일"
    assert nolli.extract_answer("ko_time_hard", "모르겠습니다") is None


def test_reference_judge_agreement():
    # No deliberate difference occurs on the dev rows (90/90 agree).
    check_agreement("time", {})
