"""time (Korean-only): Korean date arithmetic from a holiday, a relative-day word and a day count.

The question: in year Y, on holiday H, a friend says "<relative-day word>이/가 내 생일이야"; what is
the Gregorian date / the weekday / the 일진 (sexagenary day pillar) of the day N days after that
birthday?

Latent instance (JSON)::

    {"output": "date" | "weekday" | "iljin",   # what is asked
     "year": Y,                                # 1990..2025
     "holiday": "광복절",                       # one of the ten fixed solar holidays below
     "holiday_date": [8, 15],                  # its Gregorian month and day in year Y
     "offset": 0 | 1 | 2,                      # birthday = holiday + offset days
     "word": "모레",                            # the relative-day word used (means `offset`)
     "days": N}                                # target = birthday + N days, N in 2..30

Gold: ``Y.M.D`` without zero padding (date), ``X요일`` (weekday) or two Hangul syllables such as
``을유`` (일진: cycle index (JDN + 49) mod 60, stem index mod 10, branch index mod 12; 2000-01-01
is 무오, 1900-01-01 is 갑술). The target may fall in year Y + 1.

Levers (reference code at HEAD; a single lever, the output-type mix, drawn by one uniform float
with cumulative shares in the listed order):

=========  ===========================  =======  ========  ================
tier       output mix                   N        offsets   holidays
=========  ===========================  =======  ========  ================
easy       일진 0.34, date 0.66          2..30    0, 1, 2   10 fixed solar
medium     일진 0.60, weekday 0.40       2..30    0, 1, 2   10 fixed solar
hard       일진 0.91, date 0.09          2..30    0, 1, 2   10 fixed solar
=========  ===========================  =======  ========  ================

Draw order per item (as the reference): the mix float, Y, holiday, offset, word of that offset, N.

Decisions and departures from the reference:

* Lunar holidays, multi-day holiday periods, negative offsets and leap-month answers are defined
  but disabled in the reference at HEAD; they stay disabled here (no released item uses them).
  The scorer still accepts a ``(윤달)`` tag the way the reference judge does.
* Our own prompt. It states the counting convention (the friend speaks on the holiday itself;
  "N일 후" adds N days), that holidays are Gregorian dates of year Y, what 일진 means, and the
  exact answer line format. The holiday dates, the meaning of the relative-day words and the day
  pillar of a date are the Korean calendar knowledge the task measures, so (as in the reference)
  they are not spelled out. 제헌절 and 식목일 are called 기념일, not 공휴일.
* Verification (``check``) parses the question text itself, maps holiday and word with its own
  tables, and recomputes the gold with ``datetime`` (date, weekday) and, for 일진, with two
  independent methods that must agree: the day pillar reported by the ``korean_lunar_calendar``
  package (KASI-based tables) and a day count from 1900-01-01 = 갑술 via ``date.toordinal``. The
  generator itself computes with its own Julian-day-number arithmetic.
* Scoring reproduces the reference judge (spec §4), with two deliberate improvements confined to
  the labelled answer line: an invalid stem/branch pair (wrong parity, e.g. 정오 "noon") there is
  not taken as a 일진, and a Korean-style date ``YYYY년 M월 D일`` there is accepted.
"""

from __future__ import annotations

import datetime as dt
import re

from korean_lunar_calendar import KoreanLunarCalendar

from .base import Puzzle, VerificationError
from .extract import last_label_payload

STEMS = "갑을병정무기경신임계"
BRANCHES = "자축인묘진사오미신유술해"
WEEKDAYS = "월화수목금토일"  # Monday first

# Holiday list in the reference's draw order, with the Gregorian month and day.
HOLIDAYS: tuple[tuple[str, int, int], ...] = (
    ("새해 첫날", 1, 1),
    ("3·1절", 3, 1),
    ("어린이날", 5, 5),
    ("현충일", 6, 6),
    ("광복절", 8, 15),
    ("개천절", 10, 3),
    ("한글날", 10, 9),
    ("성탄절", 12, 25),
    ("제헌절", 7, 17),
    ("식목일", 4, 5),
)

# offset -> relative-day words (reference order).
WORDS: dict[int, tuple[str, ...]] = {
    0: ("오늘", "금일"),
    1: ("내일", "익일", "명일", "다음날", "이튿날"),
    2: ("모레", "내일모레", "낼모레"),
}

OUTPUT_NAMES = {"date": "양력 날짜", "weekday": "요일", "iljin": "일진"}


def _has_final(syllable: str) -> bool:
    return (ord(syllable) - 0xAC00) % 28 != 0


# ---- the generator's own calendar arithmetic (Julian day numbers) ------------------------------
def _jdn(y: int, m: int, d: int) -> int:
    a = (14 - m) // 12
    yy = y + 4800 - a
    mm = m + 12 * a - 3
    return d + (153 * mm + 2) // 5 + 365 * yy + yy // 4 - yy // 100 + yy // 400 - 32045


def _from_jdn(j: int) -> tuple[int, int, int]:
    a = j + 32044
    b = (4 * a + 3) // 146097
    c = a - 146097 * b // 4
    d = (4 * c + 3) // 1461
    e = c - 1461 * d // 4
    m = (5 * e + 2) // 153
    day = e - (153 * m + 2) // 5 + 1
    month = m + 3 - 12 * (m // 10)
    year = 100 * b + d - 4800 + m // 10
    return year, month, day


def _pillar(j: int) -> str:
    i = (j + 49) % 60
    return STEMS[i % 10] + BRANCHES[i % 12]


class Time(Puzzle):
    small_space = True  # about 300k distinct questions per tier: repeats are redrawn
    name = "time"
    version = "1"
    _common = {"years": [1990, 2025], "days": [2, 30], "offsets": [0, 1, 2], "holidays": "10 fixed solar"}
    levers = {
        "easy": {"mix": [["iljin", 0.34], ["date", 0.66]], **_common},
        "medium": {"mix": [["iljin", 0.60], ["weekday", 0.40]], **_common},
        "hard": {"mix": [["iljin", 0.91], ["date", 0.09]], **_common},
    }

    def sample(self, rng, levers, lang):
        r = rng.random()
        output, acc = levers["mix"][-1][0], 0.0
        for kind, share in levers["mix"]:
            acc += share
            if r < acc:
                output = kind
                break
        year = rng.randint(*levers["years"])
        holiday, month, day = rng.choice(HOLIDAYS)
        offset = rng.choice(levers["offsets"])
        word = rng.choice(WORDS[offset])
        days = rng.randint(*levers["days"])
        return {
            "output": output,
            "year": year,
            "holiday": holiday,
            "holiday_date": [month, day],
            "offset": offset,
            "word": word,
            "days": days,
        }

    def _dates(self, instance):
        m, d = instance["holiday_date"]
        start = _jdn(instance["year"], m, d)
        birthday = start + instance["offset"]
        return start, birthday, birthday + instance["days"]

    def gold(self, instance, lang):
        _, _, target = self._dates(instance)
        kind = instance["output"]
        if kind == "date":
            y, m, d = _from_jdn(target)
            return f"{y}.{m}.{d}"
        if kind == "weekday":
            return WEEKDAYS[target % 7] + "요일"  # JDN mod 7 == 0 on a Monday
        if kind == "iljin":
            return _pillar(target)
        raise ValueError(f"unknown output type {kind!r}")

    def render(self, instance, lang, levers):
        y, word, n = instance["year"], instance["word"], instance["days"]
        subject = word + ("이" if _has_final(word[-1]) else "가")
        kind = instance["output"]
        what = OUTPUT_NAMES[kind]
        if kind == "date":
            fmt = "정답: YYYY.M.D (연.월.일을 점으로 구분한 숫자, 월과 일에 0을 붙이지 않음)"
        elif kind == "weekday":
            fmt = "정답: ○요일 (월요일~일요일 중 하나)"
        else:
            fmt = "정답: 간지 두 글자 (한글로, 예: 갑자)"
        particle = "을" if _has_final(what[-1]) else "를"
        lines = [
            f'{y}년 {instance["holiday"]}에 친구가 "{subject} 내 생일이야."라고 말했습니다. '
            f"친구의 생일로부터 {n}일 후인 날의 {what}{particle} 구하세요.",
            "",
            "조건:",
            f"- 기념일은 {y}년의 양력 날짜이며, 친구는 바로 그 기념일 당일에 이 말을 했습니다.",
            f"- '{n}일 후'는 생일 날짜에 {n}일을 더한 날입니다(생일 다음 날이 1일 후). "
            "날짜는 양력(그레고리력)으로 셉니다.",
        ]
        if kind == "iljin":
            lines.append(
                "- 일진은 그날의 육십갑자(간지)입니다. 천간(갑을병정무기경신임계)과 지지"
                "(자축인묘진사오미신유술해)가 하루에 한 칸씩 함께 나아가는 60일 주기입니다."
            )
        lines += ["", "풀이 과정을 적은 뒤, 마지막 줄에 답만 다음 형식으로 쓰세요.", fmt]
        return "\n".join(lines)

    def solution(self, instance, lang):
        start, birthday, target = self._dates(instance)
        fmt = "{}년 {}월 {}일".format
        return "\n".join(
            [
                f"STEP 1: {instance['year']}년 {instance['holiday']} = {fmt(*_from_jdn(start))}",
                f"STEP 2: '{instance['word']}' = {instance['offset']}일 뒤 → 생일 {fmt(*_from_jdn(birthday))}",
                f"STEP 3: 생일 + {instance['days']}일 = {fmt(*_from_jdn(target))} "
                f"({WEEKDAYS[target % 7]}요일, 일진 {_pillar(target)})",
                f"정답: {self.gold(instance, lang)}",
            ]
        )

    # ---- verification ------------------------------------------------------------------------
    def check(self, item, instance):
        parsed = _parse_question(item["question"])
        expected = (
            instance["year"],
            instance["holiday"],
            instance["word"],
            instance["days"],
            instance["output"],
        )
        if parsed != expected:
            raise VerificationError(f"question states {parsed}, instance says {expected}")
        year, holiday, word, days, output = parsed
        month, day = _CHECK_HOLIDAYS[holiday]
        if list(instance["holiday_date"]) != [month, day]:
            raise VerificationError(f"instance date {instance['holiday_date']} is not {holiday}")
        offset = _CHECK_OFFSETS[word]
        if instance["offset"] != offset:
            raise VerificationError(f"instance offset {instance['offset']} does not match {word!r}")
        target = dt.date(year, month, day) + dt.timedelta(days=offset + days)
        expected_gold = expected_answer(target, output)
        if item["answer"] != expected_gold:
            raise VerificationError(f"gold {item['answer']!r} != recomputed {expected_gold!r} for {target}")

    # ---- scoring -----------------------------------------------------------------------------
    def extract(self, response, answer, lang):
        kind = _answer_kind(answer)
        payload = last_label_payload(response)
        if kind is None:  # no gold given: guess the kind from the answer line
            probe = payload if payload is not None else response[-500:]
            if _DATE.search(probe) or _KO_DATE.search(probe):
                kind = "date"
            elif _WEEKDAY.search(probe):
                kind = "weekday"
            elif _PAIR.search(probe):
                kind = "iljin"
            else:
                return None
        if kind == "iljin":
            if payload is not None:
                valid = [p for p in _PAIR.findall(payload) if _valid_pair(p)]
                if valid:
                    return valid[-1]
                if _PAIR.search(payload):
                    return None  # only invalid pairs (e.g. 정오) on the answer line
            found = _PAIR.findall(response)
            return found[-1] if found else None
        if kind == "weekday":
            for text in (payload, response):
                if text is not None:
                    found = _WEEKDAY.findall(text)
                    if found:
                        return found[-1]
            return None
        # date
        if payload is not None:
            hit = _last_date(payload, korean_too=True)
            if hit:
                return hit
        return _last_date(response, korean_too=False)

    def matches(self, extracted, answer, lang):
        kind = _answer_kind(answer)
        if kind == "date":
            gold = _last_date(answer, korean_too=True)
            return gold is not None and _last_date(extracted, korean_too=True) == gold
        return extracted.strip() == answer.strip()


# ---- verification helpers (independent of the generator's tables and arithmetic) ---------------
_CHECK_HOLIDAYS = {
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
_CHECK_OFFSETS = {
    **dict.fromkeys(["오늘", "금일"], 0),
    **dict.fromkeys(["내일", "익일", "명일", "다음날", "이튿날"], 1),
    **dict.fromkeys(["모레", "내일모레", "낼모레"], 2),
}
_Q_HEAD = re.compile(
    r'^(\d{4})년 (.+?)에 친구가 "(\S+?)([이가]) 내 생일이야\."라고 말했습니다\. '
    r"친구의 생일로부터 (\d+)일 후인 날의 (양력 날짜|요일|일진)[을를] 구하세요\."
)
_Q_FORMAT = {
    "date": "정답: YYYY.M.D",
    "weekday": "정답: ○요일",
    "iljin": "정답: 간지 두 글자",
}
_EPOCH_1900 = dt.date(1900, 1, 1)  # 갑술 = cycle index 10


def _parse_question(question: str):
    m = _Q_HEAD.match(question)
    if not m:
        raise VerificationError("question head not recognised")
    year, holiday, word, subject_particle, days, what = m.groups()
    if holiday not in _CHECK_HOLIDAYS:
        raise VerificationError(f"unknown holiday {holiday!r}")
    if word not in _CHECK_OFFSETS:
        raise VerificationError(f"unknown relative-day word {word!r}")
    if subject_particle != ("이" if (ord(word[-1]) - 0xAC00) % 28 else "가"):
        raise VerificationError(f"wrong subject particle after {word!r}")
    output = {"양력 날짜": "date", "요일": "weekday", "일진": "iljin"}[what]
    last = question.rstrip().splitlines()[-1]
    if not last.startswith(_Q_FORMAT[output]):
        raise VerificationError(f"answer format line {last!r} does not match the asked {output}")
    return int(year), holiday, word, int(days), output


def expected_answer(target: dt.date, output: str) -> str:
    """The answer for ``target`` recomputed with datetime and the korean_lunar_calendar package."""
    if output == "date":
        return f"{target.year}.{target.month}.{target.day}"
    if output == "weekday":
        return "월화수목금토일"[target.weekday()] + "요일"
    if output == "iljin":
        cal = KoreanLunarCalendar()
        if not cal.setSolarDate(target.year, target.month, target.day):
            raise VerificationError(f"korean_lunar_calendar cannot convert {target}")
        by_package = cal.getGapJaString().split()[2]
        if not by_package.endswith("일"):
            raise VerificationError(f"unexpected gapja string {cal.getGapJaString()!r}")
        by_package = by_package[:-1]
        idx = (10 + (target - _EPOCH_1900).days) % 60
        by_count = "갑을병정무기경신임계"[idx % 10] + "자축인묘진사오미신유술해"[idx % 12]
        if by_package != by_count:
            raise VerificationError(f"day pillar of {target}: package {by_package} vs count {by_count}")
        return by_count
    raise VerificationError(f"unknown output type {output!r}")


# ---- scoring helpers ---------------------------------------------------------------------------
_PAIR = re.compile(f"[{STEMS}][{BRANCHES}]")
_WEEKDAY = re.compile(r"[월화수목금토일]요일")
_DATE = re.compile(r"(\d{3,4})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{1,2})(\s*\(윤달\)|\s*윤달)?")
_KO_DATE = re.compile(r"(\d{3,4})\s*년\s*(\d{1,2})\s*월\s*(\d{1,2})\s*일(\s*\(윤달\)|\s*윤달)?")


def _answer_kind(answer: str) -> str | None:
    answer = (answer or "").strip()
    if not answer:
        return None
    if _PAIR.fullmatch(answer):
        return "iljin"
    if answer.endswith("요일"):
        return "weekday"
    return "date"


def _valid_pair(pair: str) -> bool:
    return STEMS.index(pair[0]) % 2 == BRANCHES.index(pair[1]) % 2


def _last_date(text: str, korean_too: bool) -> str | None:
    best = None  # (end position, normalised)
    patterns = (_DATE, _KO_DATE) if korean_too else (_DATE,)
    for pattern in patterns:
        last = None
        for last in pattern.finditer(text):  # noqa: B007
            pass
        if last is not None and (best is None or last.end() > best[0]):
            y, m, d, leap = last.groups()
            best = (last.end(), f"{int(y)}.{int(m)}.{int(d)}" + ("(윤달)" if leap else ""))
    return best[1] if best else None


PUZZLE = Time()
