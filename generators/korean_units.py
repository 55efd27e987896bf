"""korean_units (Korean-only): convert signed, multiplied mixed quantities of traditional units.

The prompt gives a made-up conversion table for one family of five traditional Korean units and a
list of labelled items; each item is a mixed quantity (4 or 5 distinct units with positive integer
coefficients, not normalised), a multiplier k and a sign ([더함] add / [뺌] subtract). The solver
converts each item to the smallest (base) unit using only the table, multiplies by k, adds or
subtracts, and reports the total as an integer in the base unit.

Latent instance (JSON)::

    {"family": "무게",                          # 무게 | 길이 | 부피 | 넓이
     "units": ["돈", "냥", "근", "관", "섬"],     # smallest (base, level 0) -> largest (level 4)
     "ratios": [r1, r2, r3, r4],                # 1 units[k] = r_k units[k-1]
     "items": [{"label": "갑",                   # 갑..계, then 제11호, 제12호, ...
                "sign": 1 | -1,                  # [더함] / [뺌]
                "multiplier": k,                 # 2..9
                "quantity": [[level, coefficient], ...]},  # largest level first, as printed
               ...]}

Gold: ``<total><base unit>``, e.g. ``465373918평``; total = sum over items of
sign * k * sum(coefficient * r_1 * ... * r_level). Always a positive integer, and at least one
item is subtracted (candidates that fail are redrawn).

Levers (reference code at HEAD): depth 5 units, ratio mode ``ugly`` (4 distinct ratios drawn in
order from 7, 11, 12, 13, 16, 17, 19, 23), items 17 / 24 / 26, units per item 4-5 / 4-5 / 5,
coefficients 1..1249 / 1..2499 / 1..6999, multiplier 2..9, subtract probability 0.25.
Draw order per item as the reference: family, ratios, then per item the unit count, the ordered
unit levels, a coefficient per level, the multiplier, the subtract float; redraw on failure.

Decisions and departures from the reference:

* Our own prompt; it states that the table is fictitious and the only source of ratios, the
  conversion/multiplier/sign rules, and the answer line ``정답: <정수><기본 단위>``.
* Verification recomputes the total with exact rational arithmetic (``fractions.Fraction``),
  working top-down in the *largest* unit (each coefficient divided by the ratios below it) and
  scaling back at the end -- a different path from the generator's bottom-up integer products --
  from the instance JSON, and separately from the table and item lines parsed out of the question
  text; both must equal the gold. It also checks that the instance obeys the tier's levers.
* Scoring reproduces the reference judge (spec section 4), with one deliberate improvement: on a
  labelled number, digit groups separated by a no-break or thin space (U+00A0, U+2009, U+202F),
  three digits per group, are read as one number (the reference stops at the first group).
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

from .base import Puzzle, Reject, VerificationError
from .hangul import particle

FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("무게", ("돈", "냥", "근", "관", "섬")),
    ("길이", ("푼", "치", "자", "장", "리")),
    ("부피", ("홉", "되", "말", "동이", "섬")),
    ("넓이", ("평", "단", "마지기", "정보", "결")),
)
UGLY_POOL = (7, 11, 12, 13, 16, 17, 19, 23)
LABELS = ("갑", "을", "병", "정", "무", "기", "경", "신", "임", "계")
MAX_DRAWS = 400


def label(i: int) -> str:
    return LABELS[i] if i < len(LABELS) else f"제{i + 1}호"


class KoreanUnits(Puzzle):
    name = "korean_units"
    version = "1"
    _common = {"depth": 5, "ratio_mode": "ugly", "multiplier": [2, 9], "p_subtract": 0.25}
    levers = {
        "easy": {**_common, "n_items": 17, "terms": [4, 5], "cmax": 1249},
        "medium": {**_common, "n_items": 24, "terms": [4, 5], "cmax": 2499},
        "hard": {**_common, "n_items": 26, "terms": [5, 5], "cmax": 6999},
    }

    def sample(self, rng, levers, lang):
        depth = levers["depth"]
        family, units = rng.choice(FAMILIES)
        units = units[:depth]
        if levers["ratio_mode"] != "ugly":
            raise ValueError(f"unsupported ratio mode {levers['ratio_mode']!r}")
        ratios = rng.sample(UGLY_POOL, depth - 1)
        lo, hi = levers["terms"][0], min(levers["terms"][1], depth)
        mlo, mhi = levers["multiplier"]
        for _ in range(MAX_DRAWS):
            items = []
            for i in range(levers["n_items"]):
                k = rng.randint(max(2, lo), hi)
                levels = rng.sample(range(depth), k)
                coefs = [rng.randint(1, levers["cmax"]) for _ in levels]
                multiplier = rng.randint(mlo, mhi)
                sign = -1 if rng.random() < levers["p_subtract"] else 1
                quantity = sorted(([lv, c] for lv, c in zip(levels, coefs, strict=True)), reverse=True)
                items.append(
                    {"label": label(i), "sign": sign, "multiplier": multiplier, "quantity": quantity}
                )
            instance = {"family": family, "units": list(units), "ratios": ratios, "items": items}
            if _total(instance) > 0 and any(it["sign"] < 0 for it in items):
                return instance
        raise Reject("no positive total with a subtracted item")

    def gold(self, instance, lang):
        return f"{_total(instance)}{instance['units'][0]}"

    def render(self, instance, lang, levers):
        units, ratios = instance["units"], instance["ratios"]
        base = units[0]
        lines = [
            f"전통 {instance['family']} 단위를 환산하는 계산 문제입니다.",
            "아래 환산표의 비율은 이 문제를 위해 임의로 정한 값이며 실제 도량형과 다릅니다. "
            "반드시 이 표의 비율만 사용하세요.",
            "",
            f"[{instance['family']} 환산표]",
        ]
        for k in range(1, len(units)):
            lines.append(f"1{units[k]} = {ratios[k - 1]}{units[k - 1]}")
        lines += ["", "[항목]"]
        for it in instance["items"]:
            tag = "더함" if it["sign"] > 0 else "뺌"
            amount = " ".join(f"{c}{units[lv]}" for lv, c in it["quantity"])
            lines.append(f"{it['label']} [{tag}, {it['multiplier']}배]: {amount}")
        lines += [
            "",
            "계산 규칙:",
            f"1. 각 항목에 적힌 양을 표를 따라 모두 가장 작은 단위인 {particle(base, '으로', '로')} "
            "바꾸어 합칩니다.",
            "2. 그 값에 항목의 배수(k배)를 곱합니다.",
            "3. [더함] 항목은 최종 합계에 더하고, [뺌] 항목은 최종 합계에서 뺍니다.",
            f"모든 항목을 반영한 최종 합계를 {base} 단위의 정수로 구하세요.",
            "",
            "풀이 과정을 적은 뒤, 마지막 줄에 다음 형식으로 답하세요.",
            f"정답: <정수>{base}",
        ]
        return "\n".join(lines)

    def solution(self, instance, lang):
        units, ratios = instance["units"], instance["ratios"]
        value = [1]
        for r in ratios:
            value.append(value[-1] * r)
        lines = ["단위 값: " + ", ".join(f"1{u} = {v}{units[0]}" for u, v in zip(units, value, strict=True))]
        total = 0
        for it in instance["items"]:
            base = sum(c * value[lv] for lv, c in it["quantity"])
            signed = it["sign"] * it["multiplier"] * base
            total += signed
            lines.append(f"{it['label']}: {base}{units[0]} × {it['multiplier']} = {signed:+d}{units[0]}")
        lines.append(f"정답: {total}{units[0]}")
        return "\n".join(lines)

    # ---- verification ------------------------------------------------------------------------
    def check(self, item, instance):
        levers = _json_levers(item)
        units, ratios, items = instance["units"], instance["ratios"], instance["items"]
        family = dict(_CHECK_FAMILIES).get(instance["family"])
        if family is None or list(units) != list(family):
            raise VerificationError(f"unknown family or units {instance['family']!r} {units}")
        if len(ratios) != 4 or len(set(ratios)) != 4 or not set(ratios) <= {7, 11, 12, 13, 16, 17, 19, 23}:
            raise VerificationError(f"ratios {ratios} are not 4 distinct values of the ugly pool")
        if len(items) != levers["n_items"]:
            raise VerificationError(f"{len(items)} items, levers say {levers['n_items']}")
        for it in items:
            levels = [lv for lv, _ in it["quantity"]]
            if not (levers["terms"][0] <= len(levels) <= levers["terms"][1]) or len(set(levels)) != len(
                levels
            ):
                raise VerificationError(f"item {it['label']}: units {levels} break the terms lever")
            if not all(1 <= c <= levers["cmax"] for _, c in it["quantity"]):
                raise VerificationError(f"item {it['label']}: coefficient out of 1..{levers['cmax']}")
            if not levers["multiplier"][0] <= it["multiplier"] <= levers["multiplier"][1]:
                raise VerificationError(f"item {it['label']}: multiplier {it['multiplier']} out of range")
        if not any(it["sign"] == -1 for it in items):
            raise VerificationError("no subtracted item")
        from_instance = _total_top_down(
            ratios, [(it["sign"], it["multiplier"], [tuple(q) for q in it["quantity"]]) for it in items]
        )
        parsed_units, parsed_ratios, parsed_items = _parse_question(item["question"])
        if parsed_units != list(units) or parsed_ratios != list(ratios):
            raise VerificationError("the question's table differs from the instance")
        as_stated = [(it["sign"], it["multiplier"], [tuple(q) for q in it["quantity"]]) for it in items]
        if [(s, m, q) for _, s, m, q in parsed_items] != as_stated:
            raise VerificationError("the question's item lines differ from the instance")
        names = [name for name, _, _, _ in parsed_items]
        if names != [it["label"] for it in items] or names != _expected_labels(len(items)):
            raise VerificationError(f"item labels {names} are not 갑, 을, ..., 제11호, ...")
        from_text = _total_top_down(parsed_ratios, [(s, m, q) for _, s, m, q in parsed_items])
        if from_text != from_instance:
            raise VerificationError(f"question text gives {from_text}, instance gives {from_instance}")
        if from_instance <= 0:
            raise VerificationError(f"total {from_instance} is not positive")
        expected = f"{from_instance}{units[0]}"
        if item["answer"] != expected:
            raise VerificationError(f"gold {item['answer']!r} != recomputed {expected!r}")

    # ---- scoring -----------------------------------------------------------------------------
    def extract(self, response, answer, lang):
        # Reference judge: the last "정답"/"answer" (optional colon, optional spaces) followed by a
        # run of digits and commas, anywhere; else the last digit/comma run in the last 200 chars.
        last = None
        for last in _LABELLED.finditer(response):  # noqa: B007
            pass
        if last is not None:
            grouped = _GROUPED.match(response, last.start(1))
            digits = (grouped.group(0) if grouped else last.group(1)).replace(",", "")
            for sep in _THIN_SPACES:
                digits = digits.replace(sep, "")
            return digits if digits else None  # a label followed only by commas: a parse error
        runs = [r for r in _RUN.findall(response[-200:]) if any(ch.isdigit() for ch in r)]
        if not runs:
            return None
        digits = runs[-1].replace(",", "")
        return digits or None

    def matches(self, extracted, answer, lang):
        gold = re.search(r"-?\d+", answer)
        if gold is None or not extracted.isdigit():
            return False
        return int(extracted) == int(gold.group(0))


def _json_levers(item):
    return json.loads(item["levers"])


def _total(instance) -> int:
    """The generator's total: bottom-up integer unit values."""
    value = [1]
    for r in instance["ratios"]:
        value.append(value[-1] * r)
    total = 0
    for it in instance["items"]:
        total += it["sign"] * it["multiplier"] * sum(c * value[lv] for lv, c in it["quantity"])
    return total


# ---- verification helpers (independent of the generator) --------------------------------------
_CHECK_FAMILIES = (
    ("넓이", ["평", "단", "마지기", "정보", "결"]),
    ("부피", ["홉", "되", "말", "동이", "섬"]),
    ("길이", ["푼", "치", "자", "장", "리"]),
    ("무게", ["돈", "냥", "근", "관", "섬"]),
)


def _total_top_down(ratios, items) -> int:
    """Exact total in the base unit, computed in units of the *largest* unit with fractions."""
    depth = len(ratios) + 1
    # size of level L measured in the largest unit: 1 / (r_{L+1} * ... * r_{depth-1})
    size = [Fraction(1)] * depth
    for level in range(depth - 2, -1, -1):
        size[level] = size[level + 1] / ratios[level]
    total = Fraction(0)
    for sign, multiplier, quantity in items:
        total += sign * multiplier * sum((c * size[lv] for lv, c in quantity), Fraction(0))
    scale = Fraction(1)
    for r in ratios:
        scale *= r
    result = total * scale
    if result.denominator != 1:
        raise VerificationError(f"total {result} is not an integer")
    return result.numerator


def _expected_labels(n: int) -> list[str]:
    return list("갑을병정무기경신임계")[:n] + [f"제{i}호" for i in range(11, n + 1)]


_TABLE_LINE = re.compile(r"^1(\S+) = (\d+)(\S+)$")
_ITEM_LINE = re.compile(r"^(\S+) \[(더함|뺌), (\d+)배\]: (.+)$")
_AMOUNT = re.compile(r"(\d+)(\D+)")


def _parse_question(question: str):
    lines = question.splitlines()
    table = [m for m in (_TABLE_LINE.match(x) for x in lines) if m]
    if len(table) != 4:
        raise VerificationError(f"expected 4 table lines, found {len(table)}")
    units = [table[0].group(3)]
    ratios = []
    for m in table:
        bigger, ratio, smaller = m.groups()
        if smaller != units[-1]:
            raise VerificationError(f"table line {m.group(0)!r} is out of order")
        units.append(bigger)
        ratios.append(int(ratio))
    level = {u: i for i, u in enumerate(units)}
    items = []
    for x in lines:
        m = _ITEM_LINE.match(x)
        if not m:
            continue
        name, tag, mult, amount = m.groups()
        quantity = []
        for part in amount.split(" "):
            pm = _AMOUNT.fullmatch(part)
            if not pm or pm.group(2) not in level:
                raise VerificationError(f"cannot read amount {part!r}")
            quantity.append((level[pm.group(2)], int(pm.group(1))))
        items.append((name, 1 if tag == "더함" else -1, int(mult), quantity))
    if not items:
        raise VerificationError("no item lines in the question")
    if not question.rstrip().endswith(f"정답: <정수>{units[0]}"):
        raise VerificationError("the answer format line is missing")
    return units, ratios, items


# ---- scoring helpers ---------------------------------------------------------------------------
_LABELLED = re.compile(r"(?:정답|answer)[:：]?[ \t]*([\d,]+)", re.IGNORECASE)
_THIN_SPACES = ("\u00a0", "\u2009", "\u202f")
_GROUPED = re.compile(r"\d{1,3}(?:[\u00a0\u2009\u202f]\d{3})+(?![\d,])")
_RUN = re.compile(r"[\d,]+")

PUZZLE = KoreanUnits()
