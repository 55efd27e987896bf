"""sat (direct translation): a CNF formula told as a story; give the truth value of every variable.

Latent instance::

    {"domain": "crime" | "meeting" | "task" | "restaurant",
     "names": {"en": [...], "ko": [...]},   # variable i+1 is names[lang][i], in display order
     "assignment": [true, false, ...],       # the unique model
     "clauses": [[1, -4, 7], ...]}           # DIMACS-style literals over variables 1..n

Generation (planted, as the reference): draw a domain, n variables and a planted assignment; add
clauses of 3 or 4 distinct variables, each literal false under the planted assignment with
probability ``negation_ratio`` (at least one literal true, so the planted assignment satisfies every
clause), skipping repeated clauses; from ``min_clauses`` on, stop at the first clause count where the
planted assignment is the only model (tracked exactly over all 2^n assignments with numpy); give up at
``max_clauses`` and redraw. EN and KO render the same instance (item-paired), unlike the reference.

Levers (reference code at HEAD): n 9 / 11 / 14; clauses 36-54 / 56-88 / 115-170; clause length 3-4;
negation ratio 0.51 / 0.54 / 0.57.

Decisions: one sentence shape for every clause ("at least one of these holds: ..."), with the
domain's two predicates spelled out, so that no English/Korean template asymmetry exists; Korean
particles are chosen from the last syllable (은/는), not printed as 은(는); the answer example uses
placeholder names that are not variables (the reference's example leaked real names).

Verification parses every constraint back from the question text, counts models with python-sat up
to two, and checks that the single model is the gold.
"""

from __future__ import annotations

import ast
import json
import re
from functools import cache

import numpy as np

from . import hangul
from .base import Puzzle, Reject, VerificationError
from .extract import LABEL_LINE, strip_fences
from .solvers import count_models

PEOPLE = {
    "en": [
        "Avery",
        "Blake",
        "Casey",
        "Dana",
        "Ellis",
        "Finley",
        "Gray",
        "Harper",
        "Jordan",
        "Kendall",
        "Logan",
        "Morgan",
        "Parker",
        "Quinn",
        "Riley",
    ],
    "ko": [
        "민준",
        "서연",
        "도윤",
        "지우",
        "하준",
        "서윤",
        "시우",
        "지호",
        "예준",
        "수아",
        "유진",
        "채원",
        "현우",
        "다은",
        "은우",
    ],
}
DOMAINS = {
    "crime": {
        "en": PEOPLE["en"],
        "ko": PEOPLE["ko"],
        "true": {"en": "guilty", "ko": "유죄"},
        "false": {"en": "innocent", "ko": "무죄"},
        "context": {
            "en": "A crime was committed and several suspects are under investigation. Each suspect is "
            "either guilty or innocent.",
            "ko": "사건이 일어나 여러 용의자를 조사하고 있습니다. 용의자는 각각 유죄이거나 무죄입니다.",
        },
        "question": {
            "en": "Which suspects are guilty and which are innocent?",
            "ko": "누가 유죄이고 누가 무죄입니까?",
        },
    },
    "meeting": {
        "en": PEOPLE["en"][:14],
        "ko": PEOPLE["ko"][:14],
        "true": {"en": "attending", "ko": "참석"},
        "false": {"en": "absent", "ko": "결석"},
        "context": {
            "en": "A meeting is being planned. Each invited person is either attending or absent.",
            "ko": "회의를 준비하고 있습니다. 초대받은 사람은 각각 참석하거나 결석합니다.",
        },
        "question": {"en": "Who is attending and who is absent?", "ko": "누가 참석하고 누가 결석합니까?"},
    },
    "task": {
        "en": [f"Team {c}" for c in "ABCDEFGHIJKLMN"],
        "ko": [f"{c}팀" for c in "ABCDEFGHIJKLMN"],
        "true": {"en": "assigned", "ko": "배정됨"},
        "false": {"en": "unassigned", "ko": "미배정"},
        "context": {
            "en": "A new project is being staffed. Each team is either assigned to it or unassigned.",
            "ko": "새 프로젝트에 팀을 배정하고 있습니다. 각 팀은 배정됨 또는 미배정 상태입니다.",
        },
        "question": {
            "en": "Which teams are assigned and which are unassigned?",
            "ko": "어느 팀이 배정되었고 어느 팀이 미배정입니까?",
        },
    },
    "restaurant": {
        "en": [
            "Pizza",
            "Pasta",
            "Salad",
            "Burger",
            "Soup",
            "Steak",
            "Sandwich",
            "Tacos",
            "Sushi",
            "Curry",
            "Noodles",
            "Dumplings",
            "Fish",
            "Chicken",
        ],
        "ko": [
            "피자",
            "파스타",
            "샐러드",
            "햄버거",
            "수프",
            "스테이크",
            "샌드위치",
            "타코",
            "초밥",
            "카레",
            "국수",
            "만두",
            "생선구이",
            "치킨",
        ],
        "true": {"en": "ordered", "ko": "주문함"},
        "false": {"en": "not ordered", "ko": "주문 안 함"},
        "context": {
            "en": "A group is ordering dinner. Each dish on the menu is either ordered or not ordered.",
            "ko": "여럿이 저녁을 주문합니다. 메뉴의 각 요리는 주문함 또는 주문 안 함 중 하나입니다.",
        },
        "question": {
            "en": "Which dishes are ordered and which are not?",
            "ko": "어떤 요리를 주문했고 어떤 요리를 주문하지 않았습니까?",
        },
    },
}
DOMAIN_ORDER = ("crime", "meeting", "task", "restaurant")


@cache
def _bits(n: int) -> np.ndarray:
    """bits[a, v] = value of variable v+1 in assignment a (all 2^n assignments)."""
    a = np.arange(1 << n, dtype=np.int64)[:, None]
    return ((a >> np.arange(n, dtype=np.int64)[None, :]) & 1).astype(bool)


def _literal(name: str, value: bool, dom: dict, lang: str) -> str:
    pred = dom["true" if value else "false"][lang]
    if lang == "en":
        return f"{name} is {pred}"
    return f"{hangul.particle(name, '은', '는')} {pred}"


class Sat(Puzzle):
    name = "sat"
    version = "1"
    levers = {
        "easy": {
            "variables": 9,
            "min_clauses": 36,
            "max_clauses": 54,
            "clause_length": [3, 4],
            "negation_ratio": 0.51,
        },
        "medium": {
            "variables": 11,
            "min_clauses": 56,
            "max_clauses": 88,
            "clause_length": [3, 4],
            "negation_ratio": 0.54,
        },
        "hard": {
            "variables": 14,
            "min_clauses": 115,
            "max_clauses": 170,
            "clause_length": [3, 4],
            "negation_ratio": 0.57,
        },
    }

    def sample(self, rng, levers, lang):
        domain = rng.choice(DOMAIN_ORDER)
        dom = DOMAINS[domain]
        n = levers["variables"]
        picks = rng.sample(range(len(dom["en"])), n)
        planted = [rng.random() < 0.5 for _ in range(n)]
        bits = _bits(n)
        alive = np.ones(1 << n, dtype=bool)
        planted_index = sum(1 << v for v in range(n) if planted[v])
        clauses: list[list[int]] = []
        seen: set[tuple[int, ...]] = set()
        lo, hi = levers["clause_length"]
        while len(clauses) < levers["max_clauses"]:
            size = rng.randint(lo, hi)
            chosen = rng.sample(range(n), size)
            lits = []
            for v in chosen:
                make_false = rng.random() < levers["negation_ratio"]
                value = planted[v] != make_false  # the literal's required value
                lits.append(v + 1 if value else -(v + 1))
            if all((lit > 0) != planted[abs(lit) - 1] for lit in lits):
                j = rng.randrange(size)
                v = abs(lits[j]) - 1
                lits[j] = v + 1 if planted[v] else -(v + 1)
            rng.shuffle(lits)
            key = tuple(sorted(lits))
            if key in seen:
                continue
            seen.add(key)
            clauses.append(lits)
            sat = np.zeros(1 << n, dtype=bool)
            for lit in lits:
                col = bits[:, abs(lit) - 1]
                sat |= col if lit > 0 else ~col
            alive &= sat
            if len(clauses) >= levers["min_clauses"] and int(alive.sum()) == 1:
                assert alive[planted_index]
                return {
                    "domain": domain,
                    "names": {lang_: [dom[lang_][i] for i in picks] for lang_ in ("en", "ko")},
                    "assignment": planted,
                    "clauses": clauses,
                }
        raise Reject("no unique model within max_clauses")

    def gold(self, instance, lang):
        names = instance["names"][lang]
        return json.dumps(dict(zip(names, instance["assignment"], strict=True)), ensure_ascii=False)

    def render(self, instance, lang, levers):
        dom = DOMAINS[instance["domain"]]
        names = instance["names"][lang]
        n = len(names)
        lines = []
        for i, clause in enumerate(instance["clauses"], start=1):
            parts = [_literal(names[abs(lit) - 1], lit > 0, dom, lang) for lit in clause]
            if lang == "en":
                lines.append(f"  {i}. At least one of these holds: {', '.join(parts[:-1])}, or {parts[-1]}.")
            else:
                lines.append(
                    f"  {i}. 다음 중 적어도 하나가 성립한다: {', '.join(parts[:-1])}, 또는 {parts[-1]}."
                )
        t, f = dom["true"][lang], dom["false"][lang]
        constraints = "\n".join(lines)
        if lang == "en":
            return (
                "Work out which of the following statements are true.\n\n"
                f"Situation: {dom['context']['en']}\n\n"
                f"Variables ({n}): {', '.join(names)}\n"
                f"Each variable is either true ({t}) or false ({f}).\n\n"
                f"Constraints (every one of them holds at the same time):\n{constraints}\n\n"
                "Exactly one assignment of the variables satisfies all the constraints.\n"
                f"Question: {dom['question']['en']}\n\n"
                f"Reason step by step. Then end with a final line that starts with 'Answer: ' and gives, on "
                f"that same line, a JSON object with all {n} variables as keys and true ({t}) or false ({f}) "
                'as values, in this shape (placeholder names): Answer: {"<name 1>": true, "<name 2>": false, ...}'
            )
        return (
            "다음 진술 가운데 어느 것이 참인지 밝히세요.\n\n"
            f"상황: {dom['context']['ko']}\n\n"
            f"변수({n}개): {', '.join(names)}\n"
            f"각 변수는 참({t}) 또는 거짓({f}) 중 하나입니다.\n\n"
            f"제약 조건 (모두 동시에 성립합니다):\n{constraints}\n\n"
            "모든 제약 조건을 만족하는 배정은 정확히 하나뿐입니다.\n"
            f"질문: {dom['question']['ko']}\n\n"
            f"단계적으로 추론한 뒤, 마지막 줄은 'Answer: '로 시작하고 같은 줄에 {n}개 변수 모두를 키로, "
            f"true({t}) 또는 false({f})를 값으로 하는 JSON 객체를 다음 모양으로 쓰세요 (이름은 자리표시자): "
            'Answer: {"<이름 1>": true, "<이름 2>": false, ...}'
        )

    def solution(self, instance, lang):
        names = instance["names"][lang]
        cnf = [
            " OR ".join(("" if lit > 0 else "NOT ") + names[abs(lit) - 1] for lit in clause)
            for clause in instance["clauses"]
        ]
        lines = [f"CNF {i}: ({c})" for i, c in enumerate(cnf, start=1)]
        return "\n".join(lines + [f"Answer: {self.gold(instance, lang)}"])

    # ---- verification ------------------------------------------------------------------------
    def check(self, item, instance):
        names, clauses = _parse_question(item["question"], item["lang"], instance["domain"])
        if len(clauses) != len(instance["clauses"]):
            raise VerificationError("constraint count differs from the instance")
        count, models = count_models(clauses, limit=2, project=list(range(1, len(names) + 1)))
        if count != 1:
            raise VerificationError(f"{count} assignments satisfy the constraints (must be exactly 1)")
        model = {abs(v): v > 0 for v in models[0]}
        expected = {name: model[i + 1] for i, name in enumerate(names)}
        gold = _parse_gold(item["answer"])
        if gold != expected or list(gold) != names:
            raise VerificationError("gold differs from the unique model")

    # ---- scoring -----------------------------------------------------------------------------
    def extract(self, response, answer, lang):
        names = list(_parse_gold(answer))
        if not names:
            return None
        found = _extract_assignment(response, names)
        return json.dumps(found, ensure_ascii=False) if found is not None else None

    def matches(self, extracted, answer, lang):
        return json.loads(extracted) == _parse_gold(answer)


def _parse_gold(answer: str) -> dict[str, bool]:
    """Gold as an ordered dict: JSON (ours) or a Python dict repr (reference result files)."""
    try:
        obj = json.loads(answer)
    except json.JSONDecodeError:
        try:
            obj = ast.literal_eval(answer)
        except (ValueError, SyntaxError):
            return {}
    if not isinstance(obj, dict) or not all(isinstance(v, bool) for v in obj.values()):
        return {}
    return obj


def _parse_question(question: str, lang: str, domain: str) -> tuple[list[str], list[list[int]]]:
    dom = DOMAINS[domain]
    head = "Variables" if lang == "en" else "변수"
    m = re.search(rf"^{head} ?\((\d+)(?:개)?\): (.*)$", question, re.MULTILINE)
    if not m:
        raise VerificationError("no variable line in the question")
    names = m.group(2).split(", ")
    if len(names) != int(m.group(1)):
        raise VerificationError("variable count mismatch")
    index = {name: i + 1 for i, name in enumerate(names)}
    t, f = dom["true"][lang], dom["false"][lang]
    if lang == "en":
        line_re = re.compile(r"^  (\d+)\. At least one of these holds: (.*)\.$", re.MULTILINE)
        lit_re = re.compile(rf"^(.+) is ({re.escape(t)}|{re.escape(f)})$")
    else:
        line_re = re.compile(r"^  (\d+)\. 다음 중 적어도 하나가 성립한다: (.*)\.$", re.MULTILINE)
        lit_re = re.compile(rf"^(.+)[은는] ({re.escape(t)}|{re.escape(f)})$")
    clauses = []
    for k, line in enumerate(line_re.finditer(question), start=1):
        if int(line.group(1)) != k:
            raise VerificationError("constraints are not numbered 1, 2, ...")
        body = line.group(2)
        body = body.replace(", or ", ", ") if lang == "en" else body.replace(", 또는 ", ", ")
        clause = []
        for part in body.split(", "):
            lm = lit_re.match(part)
            if not lm or lm.group(1) not in index:
                raise VerificationError(f"cannot read literal {part!r}")
            clause.append(index[lm.group(1)] if lm.group(2) == t else -index[lm.group(1)])
        clauses.append(clause)
    if not clauses:
        raise VerificationError("no constraints in the question")
    return names, clauses


# ---- extraction (reference judge, with the fixes listed in tests/test_sat.py) -----------------
def _loads_loose(text: str):
    """JSON with ``//`` comments and Python ``True``/``False``; a Python dict literal as a last resort."""
    cleaned = re.sub(r"//[^\n]*", "", text)
    try:
        return json.loads(re.sub(r"\bFalse\b", "false", re.sub(r"\bTrue\b", "true", cleaned)))
    except (json.JSONDecodeError, RecursionError):
        pass
    if len(cleaned) > 20_000:
        return None
    try:
        return ast.literal_eval(cleaned.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _complete(obj, names: list[str]) -> dict[str, bool] | None:
    """The assignment if ``obj`` gives a Boolean for every variable (case-insensitive keys)."""
    if not isinstance(obj, dict):
        return None
    lower = {str(k).strip().lower(): v for k, v in obj.items()}
    out = {}
    for name in names:
        v = obj.get(name, lower.get(name.lower()))
        if isinstance(v, str) and v.strip().lower() in ("true", "false", "참", "거짓"):
            v = v.strip().lower() in ("true", "참")
        if not isinstance(v, bool):
            return None
        out[name] = v
    return out


_BRACES = re.compile(r"\{[^{}]*\}")
_JSON_FENCE = re.compile(r"```json\s*(.*?)```", re.DOTALL | re.IGNORECASE)


def _extract_assignment(response: str, names: list[str]) -> dict[str, bool] | None:
    # 1. the last labelled line, if its payload is a JSON object.
    last = None
    for m in LABEL_LINE.finditer(response):
        last = m
    if last is not None and last.group(1).strip().startswith("{"):
        payload = last.group(1).strip()
        brace = _BRACES.match(payload)
        got = _complete(_loads_loose(brace.group(0) if brace else payload), names)
        if got is not None:
            return got
        # A labelled object spread over several lines.
        tail = response[last.start(1) :]
        brace = _BRACES.match(tail.strip())
        got = _complete(_loads_loose(brace.group(0)) if brace else None, names)
        if got is not None:
            return got
    lowered = response.lower()
    # 2-3. an object after "answer:" (a ```json block or a bare {...}); the last such one.
    for pos in reversed([m.end() for m in re.finditer(r"answer\s*[:：]", lowered)]):
        tail = response[pos:]
        fence = _JSON_FENCE.match(tail.lstrip())
        cand = fence.group(1) if fence else None
        if cand is None:
            brace = _BRACES.match(tail.lstrip())
            cand = brace.group(0) if brace else None
        got = _complete(_loads_loose(cand), names) if cand else None
        if got is not None:
            return got
    # 4-5. the last ```json block, then the last flat {...} with a "key": bool pair.
    for block in reversed(_JSON_FENCE.findall(response)):
        got = _complete(_loads_loose(block), names)
        if got is not None:
            return got
    for brace in reversed(_BRACES.findall(response)):
        if re.search(r'"\s*:\s*(true|false|True|False)', brace):
            got = _complete(_loads_loose(brace), names)
            if got is not None:
                return got
    # 6. line by line: "Name: true/false" (also 참/거짓); later lines overwrite earlier ones.
    return _line_fallback(strip_fences(response), names)


_KO_TRUE = re.compile(r"(?<![가-힣])(참|거짓)(?![가-힣])")
_EN_TF = re.compile(r"\b(true|false)\b", re.IGNORECASE)


def _line_fallback(text: str, names: list[str]) -> dict[str, bool] | None:
    values: dict[str, bool] = {}
    by_length = sorted(names, key=len, reverse=True)
    for line in text.splitlines():
        m = _EN_TF.search(line)
        if m:
            value = m.group(1).lower() == "true"
        else:
            k = _KO_TRUE.search(line)
            if not k:
                continue
            value = k.group(1) == "참"
        # Whole names: a name inside a longer variable name (국 in 국수) does not count.
        taken = [False] * len(line)
        present = set()
        for name in by_length:
            for m2 in re.finditer(re.escape(name), line):
                if any(taken[m2.start() : m2.end()]):
                    continue
                if (
                    name[-1].isascii()
                    and name[-1].isalnum()
                    and line[m2.end() : m2.end() + 1].isascii()
                    and line[m2.end() : m2.end() + 1].isalnum()
                ):
                    continue
                for j in range(m2.start(), m2.end()):
                    taken[j] = True
                present.add(name)
        first = next((name for name in names if name in present), None)
        if first is not None:
            values[first] = value
    if all(name in values for name in names):
        return {name: values[name] for name in names}
    return None


PUZZLE = Sat()
