"""korean_units: exact recomputation from the instance, hand-made mutations, the reference judge."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import release_items
from scoring import check_agreement

import nolli
from generators.korean_units import PUZZLE

TIERS = ("easy", "medium", "hard")
POOL = {7, 11, 12, 13, 16, 17, 19, 23}


def _plain_total(inst: dict) -> int:
    """A third path: Horner-style conversion from the largest unit down, plain integers."""
    total = 0
    for it in inst["items"]:
        coef = dict((lv, c) for lv, c in it["quantity"])
        acc = 0
        for level in range(4, -1, -1):
            acc = acc * (inst["ratios"][level] if level < 4 else 1) + coef.get(level, 0)
        total += it["sign"] * it["multiplier"] * acc
    return total


def _rebuild(item: dict, inst: dict, answer: str | None = None) -> dict:
    levers = json.loads(item["levers"])
    return dict(
        item,
        instance=json.dumps(inst, ensure_ascii=False, separators=(",", ":")),
        question=PUZZLE.render(inst, "ko", levers),
        answer=answer if answer is not None else item["answer"],
    )


def test_hand_computed_example():
    # 1되 = 7홉, 1말 = 11되, 1동이 = 12말, 1섬 = 13동이: 1섬 = 12012홉, 1되 = 7홉.
    inst = {
        "family": "부피",
        "units": ["홉", "되", "말", "동이", "섬"],
        "ratios": [7, 11, 12, 13],
        "items": [
            {"label": "갑", "sign": 1, "multiplier": 2, "quantity": [[4, 1], [1, 2]]},  # 2 × 12026
            {"label": "을", "sign": -1, "multiplier": 3, "quantity": [[2, 1], [0, 5]]},  # -3 × 82
        ],
    }
    assert PUZZLE.gold(inst, "ko") == f"{2 * 12026 - 3 * 82}홉" == "23806홉"
    assert _plain_total(inst) == 23806
    q = PUZZLE.render(inst, "ko", PUZZLE.levers["easy"])
    assert "1되 = 7홉" in q and "갑 [더함, 2배]: 1섬 2되" in q and "을 [뺌, 3배]: 1말 5홉" in q
    assert q.rstrip().endswith("정답: <정수>홉")


@pytest.mark.parametrize("tier", TIERS)
def test_every_gold_recomputed_exactly(tier):
    for item in release_items(f"ko_korean_units_{tier}"):
        inst = json.loads(item["instance"])
        total = _plain_total(inst)
        assert total > 0
        assert item["answer"] == f"{total}{inst['units'][0]}"
        for k in range(1, 5):
            assert f"1{inst['units'][k]} = {inst['ratios'][k - 1]}{inst['units'][k - 1]}" in item["question"]


@pytest.mark.parametrize(
    "tier,n_items,terms,cmax",
    [("easy", 17, {4, 5}, 1249), ("medium", 24, {4, 5}, 2499), ("hard", 26, {5}, 6999)],
)
def test_tier_levers_applied(tier, n_items, terms, cmax):
    insts = [json.loads(it["instance"]) for it in release_items(f"ko_korean_units_{tier}")]
    coefs, signs, mults, term_counts = [], [], [], Counter()
    for inst in insts:
        assert len(inst["ratios"]) == len(set(inst["ratios"])) == 4 and set(inst["ratios"]) <= POOL
        assert len(inst["items"]) == n_items
        assert any(it["sign"] < 0 for it in inst["items"])
        for it in inst["items"]:
            levels = [lv for lv, _ in it["quantity"]]
            assert levels == sorted(set(levels), reverse=True)  # distinct, largest first
            term_counts[len(levels)] += 1
            coefs += [c for _, c in it["quantity"]]
            signs.append(it["sign"])
            mults.append(it["multiplier"])
    assert set(term_counts) == terms
    assert 1 <= min(coefs) and max(coefs) <= cmax and max(coefs) > 0.95 * cmax
    assert set(mults) == set(range(2, 10))
    assert 0.18 < signs.count(-1) / len(signs) < 0.32
    assert {inst["family"] for inst in insts} == {"무게", "길이", "부피", "넓이"}


def test_wrong_total_is_rejected():
    item = dict(release_items("ko_korean_units_medium")[0])
    inst = json.loads(item["instance"])
    total = int(item["answer"][: -len(inst["units"][0])])
    assert nolli.verify(item)
    for wrong in (total + 1, total - inst["ratios"][0]):
        result = nolli.verify(dict(item, answer=f"{wrong}{inst['units'][0]}"))
        assert not result and "recomputed" in str(result)


def test_question_with_flipped_sign_is_rejected():
    item = dict(release_items("ko_korean_units_easy")[1])
    q = item["question"].replace("[뺌,", "[더함,", 1)
    assert q != item["question"]
    assert not nolli.verify(dict(item, question=q))


def test_stale_gold_after_changing_a_coefficient_is_rejected():
    item = dict(release_items("ko_korean_units_hard")[2])
    inst = json.loads(item["instance"])
    inst["items"][3]["quantity"][0][1] += 1  # one more of the largest unit; gold not updated
    result = nolli.verify(_rebuild(item, inst))
    assert not result and "recomputed" in str(result)


def test_hand_made_instances_breaking_the_rules_are_rejected():
    item = dict(release_items("ko_korean_units_easy")[0])
    base = json.loads(item["instance"])
    # No subtracted item (gold recomputed, so only the rule can reject it).
    inst = json.loads(item["instance"])
    for it in inst["items"]:
        it["sign"] = 1
    assert "no subtracted" in str(nolli.verify(_rebuild(item, inst, PUZZLE.gold(inst, "ko"))))
    # A ratio outside the pool.
    inst = json.loads(item["instance"])
    inst["ratios"][0] = 10
    assert "pool" in str(nolli.verify(_rebuild(item, inst, PUZZLE.gold(inst, "ko"))))
    # A non-positive total.
    inst = json.loads(item["instance"])
    for it in inst["items"]:
        it["sign"] = -1
    assert not nolli.verify(_rebuild(item, inst, PUZZLE.gold(inst, "ko")))
    # A coefficient above the tier's cmax.
    inst = json.loads(item["instance"])
    inst["items"][0]["quantity"][0][1] = 5000
    assert "coefficient" in str(nolli.verify(_rebuild(item, inst, PUZZLE.gold(inst, "ko"))))
    assert nolli.verify(_rebuild(item, base))


@pytest.mark.parametrize(
    "response,expected",
    [
        ("...\n정답: 465,373,918평", True),
        ("...\nAnswer: 465373918", True),
        ("...\n정답 465373918", True),
        ("...\nANSWER：465373918평", True),
        ("no label, total 465,373,918평 at the end", True),
        ("...\n정답: -465373918평", True),  # mis-parsed as the reference: the tail rule drops the sign
        ("...\n정답: 465 373 918평", False),  # ordinary spaces split the number (reference: 465)
        ("...\n정답: 465\u202f373\u202f918평", True),  # deliberate: thin-space groups are one number
        ("...\n정답: **465373918평**", True),  # markdown falls through to the last-200-chars rule
        ("정답: 465373918평\n검산: answer: 12", False),  # reference: the last labelled number wins
        ("...\n정답: ,,,", False),  # label followed only by commas: a parse error, judged wrong
        ("", False),
        ("정답" * 50_000, False),
    ],
)
def test_scoring_cases(response, expected):
    assert nolli.score("ko_korean_units_easy", response, "465373918평") is expected


def test_reference_judge_agreement():
    # No deliberate difference occurs on the dev rows (90/90 agree).
    check_agreement("korean_units", {})
