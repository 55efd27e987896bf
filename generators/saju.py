"""saju (Korean-only): one sexagenary pillar (간지) of the 사주 calendar.

Recipes (spec §1): ``hour_given_day`` (given 일주 and birth time -> 시주 by 시두법), ``day`` (양력 date ->
일주), ``hour_from_date`` (양력 date and time -> 시주 from that day's 일간).  Year and month pillars are
not asked (as at the reference HEAD), so no solar-term instants are needed.

Latent instance (JSON)::

    {"recipe": "hour_given_day" | "day" | "hour_from_date",
     "date": [year, month, day] | null,      # proleptic Gregorian civil date (KST)
     "time": [hour, minute] | null,          # clock time, KST, no corrections
     "given_day": int 0..59 | null}          # cycle index of the given 일주 (0 = 갑자)

Gold: two Hangul syllables, stem + branch (e.g. ``정미``).

Arithmetic (generator): day index = (JDN + 49) mod 60; hour branch = floor((minutes since 00:00 +
60) / 120) mod 12; hour stem = ((day stem mod 5) * 2 + branch) mod 10 (五鼠遁).

Levers per tier (reference code at HEAD, spec §3): recipe lists easy [given-day x4, day],
medium [given-day x2, day x2, hour], hard [day x4, hour x4, given-day]; years 1950-2015.

Departures from the reference:

* The prompt states every convention the answer depends on: civil dates in KST without local-mean-time
  or daylight-saving corrections, the day changes at midnight, 23:00-23:59 is the 자시 of the *same*
  day (the reference's convention, which it never stated; spec §7.1), and the two-hour branch
  intervals with their start included.  It names the 시두법 but, as the reference, leaves its table to
  the solver (that rule is the task).
* Birth times carry minutes (0-59) and dates use every day of the month (the reference drew whole
  hours and days 1-28 only).  Items are generated independently per seed, so the wider space keeps the
  100 questions of a config distinct (with whole hours, 80 given-day items over 60 x 24 cases would
  collide about twice per config).
* Each question ends with the answer format it expects (``정답: <간지 두 글자>``).

Verification parses the question text (date, time, given pillar, what is asked) and recomputes the
gold independently: the day pillar with the ``korean-lunar-calendar`` package (KASI-based 일진) and by
counting days from 1900-01-01 = 갑술, the hour pillar from the explicit 시두법 table of the spec and an
interval table for the hour branch.

Scoring follows the reference judge (spec §4): text after the last label line (else everything), cut
after the last ``answer:`` (else ``정답:``, else ``답:``), then the *first* stem+branch syllable pair.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re

from korean_lunar_calendar import KoreanLunarCalendar

from .base import Puzzle, VerificationError
from .extract import last_label_payload

STEMS = "갑을병정무기경신임계"
BRANCHES = "자축인묘진사오미신유술해"
BRANCH_NAMES = [b + "시" for b in BRANCHES]
HOUR_RANGES = [
    (23, 0),
    (1, 2),
    (3, 4),
    (5, 6),
    (7, 8),
    (9, 10),
    (11, 12),
    (13, 14),
    (15, 16),
    (17, 18),
    (19, 20),
    (21, 22),
]


def pillar(index: int) -> str:
    return STEMS[index % 10] + BRANCHES[index % 12]


def day_index(y: int, m: int, d: int) -> int:
    jdn = dt.date(y, m, d).toordinal() + 1721425
    return (jdn + 49) % 60


def hour_branch(hour: int, minute: int) -> int:
    return ((hour * 60 + minute + 60) // 120) % 12


def hour_pillar(day_stem: int, hour: int, minute: int) -> str:
    b = hour_branch(hour, minute)
    return STEMS[((day_stem % 5) * 2 + b) % 10] + BRANCHES[b]


G, D, H = "hour_given_day", "day", "hour_from_date"


class Saju(Puzzle):
    name = "saju"
    version = "1"
    levers = {
        "easy": {"recipes": [G, G, G, G, D], "years": [1950, 2015]},
        "medium": {"recipes": [G, G, D, D, H], "years": [1950, 2015]},
        "hard": {"recipes": [D, D, D, D, H, H, H, H, G], "years": [1950, 2015]},
    }

    def sample(self, rng, levers, lang):
        recipe = rng.choice(levers["recipes"])
        inst = {"recipe": recipe, "date": None, "time": None, "given_day": None}
        if recipe == G:
            inst["given_day"] = rng.randrange(60)
        else:
            y = rng.randint(*levers["years"])
            m = rng.randint(1, 12)
            inst["date"] = [y, m, rng.randint(1, calendar.monthrange(y, m)[1])]
        if recipe != D:
            inst["time"] = [rng.randrange(24), rng.randrange(60)]
        return inst

    def gold(self, instance, lang):
        recipe = instance["recipe"]
        if recipe == G:
            return hour_pillar(instance["given_day"] % 10, *instance["time"])
        idx = day_index(*instance["date"])
        if recipe == D:
            return pillar(idx)
        return hour_pillar(idx % 10, *instance["time"])

    def render(self, instance, lang, levers):
        recipe = instance["recipe"]
        rules = [
            "[계산 기준]",
            "- 날짜는 양력(그레고리력)이며, 시각은 한국 표준시 시계 시각을 그대로 씁니다. 지방시(경도) 보정이나 "
            "서머타임 보정은 하지 않습니다.",
            "- 일진(일주)은 60갑자가 하루에 하나씩 끊김 없이 이어지며, 날짜는 자정(0시)에 바뀝니다.",
        ]
        if recipe != D:
            intervals = ", ".join(
                f"{name} {a:02d}:00~{b:02d}:59"
                for name, (a, b) in zip(BRANCH_NAMES, HOUR_RANGES, strict=True)
            )
            rules += [
                f"- 시지는 두 시간 단위 구간으로 정하며 구간의 시작 시각을 포함합니다: {intervals}.",
                "- 23:00~23:59에 태어난 경우에도 날짜와 일주는 그날 그대로이며, 그 시각은 그날의 자시로 봅니다"
                "(그날 0시대와 같은 시주).",
                "- 시주의 천간은 일간(일주의 천간)에 시두법(五鼠遁)을 적용해 정합니다.",
            ]
        if recipe == G:
            h, mi = instance["time"]
            ask = (
                f"일주가 '{pillar(instance['given_day'])}'인 사람이 {h}시 {mi}분에 태어났습니다. "
                "이 사람의 시주(時柱)는 무엇입니까?"
            )
        elif recipe == D:
            y, m, d = instance["date"]
            ask = f"양력 {y}년 {m}월 {d}일의 일주(日柱), 즉 그날의 일진은 무엇입니까?"
        else:
            y, m, d = instance["date"]
            h, mi = instance["time"]
            ask = (
                f"양력 {y}년 {m}월 {d}일 {h}시 {mi}분에 태어난 사람의 시주(時柱)는 무엇입니까? "
                "그날의 일주를 구한 뒤 그 일간으로 시주를 정하세요."
            )
        return "\n".join(
            [
                "사주 만세력 문제입니다.",
                "",
                *rules,
                "",
                f"문제: {ask}",
                "",
                "풀이를 적은 뒤 마지막 줄에 '정답: <간지 두 글자>' 형식으로, 천간과 지지를 한글 두 글자로 쓰세요 "
                "(예: 정답: 갑자).",
            ]
        )

    def solution(self, instance, lang):
        recipe = instance["recipe"]
        lines = []
        if recipe == G:
            stem = instance["given_day"] % 10
            lines.append(f"STEP1: 주어진 일주 {pillar(instance['given_day'])}, 일간 {STEMS[stem]}")
        else:
            idx = day_index(*instance["date"])
            y, m, d = instance["date"]
            lines.append(f"STEP1: {y}-{m:02d}-{d:02d}의 율리우스일 {dt.date(y, m, d).toordinal() + 1721425}")
            lines.append(f"STEP2: (JDN + 49) mod 60 = {idx} → 일주 {pillar(idx)}")
            stem = idx % 10
        if recipe != D:
            h, mi = instance["time"]
            b = hour_branch(h, mi)
            lines.append(
                f"STEP3: {h:02d}:{mi:02d} → {BRANCH_NAMES[b]}; 일간 {STEMS[stem]}의 자시 천간은 "
                f"{STEMS[(stem % 5) * 2]} → 시주 {hour_pillar(stem, h, mi)}"
            )
        lines.append(f"정답: {self.gold(instance, lang)}")
        return "\n".join(lines)

    # ---- verification ------------------------------------------------------------------------
    def check(self, item, instance):
        expected = verify_question(item["question"])
        if expected != item["answer"]:
            raise VerificationError(f"gold {item['answer']!r} but independent computation gives {expected!r}")

    # ---- scoring -----------------------------------------------------------------------------
    def extract(self, response, answer, lang):
        return reference_pillar(response)

    def matches(self, extracted, answer, lang):
        return "".join(extracted.split()) == "".join(answer.split())


# ---- reference-judge extraction ----------------------------------------------------------------
_PAIR = re.compile(f"[{STEMS}][{BRANCHES}]")
_TRIMS = (
    re.compile(r"answer\s*[:：]", re.IGNORECASE),
    re.compile(r"정답\s*[:：]"),
    re.compile(r"답\s*[:：]"),
)


def reference_pillar(response: str) -> str | None:
    text = last_label_payload(response)
    if text is None:
        text = response
    for marker in _TRIMS:
        last = None
        for last in marker.finditer(text):  # noqa: B007 - we want the last match
            pass
        if last is not None:
            text = text[last.end() :]
            break
    m = _PAIR.search(text)
    return m.group(0) if m else None


# ---- independent verification --------------------------------------------------------------------
# 시두법 (五鼠遁) table of the spec: row = day stem group (갑·기, 을·경, 병·신, 정·임, 무·계), column = branch.
_SIDU = {
    "갑기": "갑자 을축 병인 정묘 무진 기사 경오 신미 임신 계유 갑술 을해",
    "을경": "병자 정축 무인 기묘 경진 신사 임오 계미 갑신 을유 병술 정해",
    "병신": "무자 기축 경인 신묘 임진 계사 갑오 을미 병신 정유 무술 기해",
    "정임": "경자 신축 임인 계묘 갑진 을사 병오 정미 무신 기유 경술 신해",
    "무계": "임자 계축 갑인 을묘 병진 정사 무오 기미 경신 신유 임술 계해",
}
# Branch of a clock time: (first minute of the day, last minute, branch) intervals.
_INTERVALS = [(0, 59, "자")] + [(60 + 120 * i, 179 + 120 * i, "축인묘진사오미신유술해"[i]) for i in range(11)]
_INTERVALS.append((1380, 1439, "자"))
_CYCLE = [s + b for s, b in zip(STEMS * 6, BRANCHES * 5, strict=True)]

_DATE = re.compile(r"양력 (\d{4})년 (\d{1,2})월 (\d{1,2})일")
_TIME = re.compile(r"(\d{1,2})시 (\d{1,2})분에 태어")
_GIVEN = re.compile(r"일주가 '([가-힣]{2})'인 사람")


def _day_by_library(y: int, m: int, d: int) -> str:
    cal = KoreanLunarCalendar()
    if not cal.setSolarDate(y, m, d):
        raise VerificationError(f"korean-lunar-calendar rejects {y}-{m}-{d}")
    day = cal.getGapJaString().split()[2]
    if not day.endswith("일") or len(day) != 3:
        raise VerificationError(f"unexpected 간지 string {cal.getGapJaString()!r}")
    return day[:2]


def _day_by_count(y: int, m: int, d: int) -> str:
    return _CYCLE[(10 + (dt.date(y, m, d) - dt.date(1900, 1, 1)).days) % 60]  # 1900-01-01 = 갑술 (10)


def _hour_by_table(day_stem: str, hour: int, minute: int) -> str:
    minute_of_day = hour * 60 + minute
    branch = next(b for lo, hi, b in _INTERVALS if lo <= minute_of_day <= hi)
    row = next(v for k, v in _SIDU.items() if day_stem in k)
    return row.split()[BRANCHES.index(branch)]


def verify_question(question: str) -> str:
    """The pillar the question asks for, recomputed from its text by independent methods."""
    problem = next((ln for ln in question.split("\n") if ln.startswith("문제: ")), None)
    if problem is None:
        raise VerificationError("no problem line")
    asks_hour = "시주" in problem
    date, time, given = _DATE.search(problem), _TIME.search(problem), _GIVEN.search(problem)
    day = None
    if date:
        y, m, d = (int(g) for g in date.groups())
        try:
            dt.date(y, m, d)
        except ValueError as exc:
            raise VerificationError(f"invalid date {y}-{m}-{d}") from exc
        by_lib, by_count = _day_by_library(y, m, d), _day_by_count(y, m, d)
        if by_lib != by_count:
            raise VerificationError(f"day pillar disagreement: library {by_lib}, count {by_count}")
        day = by_lib
    if given:
        if date or given[1] not in _CYCLE:
            raise VerificationError("bad given day pillar")
        day = given[1]
    if day is None:
        raise VerificationError("neither a date nor a day pillar in the question")
    if not asks_hour:
        if time or given:
            raise VerificationError("a day-pillar question with a time or a given pillar")
        return day
    if not time:
        raise VerificationError("an hour-pillar question without a time")
    hour, minute = int(time[1]), int(time[2])
    if not (0 <= hour < 24 and 0 <= minute < 60):
        raise VerificationError("invalid time")
    if "23:00~23:59에 태어난 경우에도 날짜와 일주는 그날 그대로" not in question:
        raise VerificationError("the 23시 convention is not stated")
    for lo, hi, b in _INTERVALS[1:-1]:
        if f"{b}시 {lo // 60:02d}:00~{hi // 60:02d}:59" not in question:
            raise VerificationError(f"the {b}시 interval is not stated as used")
    if "자시 23:00~00:59" not in question:
        raise VerificationError("the 자시 interval is not stated as used")
    return _hour_by_table(day[0], hour, minute)


PUZZLE = Saju()
