"""yacht_dice: exhaustive spot-sum sets, tier levers, adversarial items, scoring."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest
from conftest import release_items
from scoring import check_agreement

import nolli
from generators import yacht_dice as yd

CONFIGS = [f"{lang}_yacht_dice_{tier}" for lang in ("en", "ko") for tier in ("easy", "medium", "hard")]
PERMS6 = np.array(list(itertools.permutations(range(6))), dtype=np.int64)  # (720, 6)


def _inst(item):
    return json.loads(item["instance"])


def plain_score(dice, cat):
    """A third, deliberately plain scoring function (tests only)."""
    d = sorted(dice)
    counts = [d.count(v) for v in range(1, 7)]
    if cat < 6:
        return (cat + 1) * counts[cat]
    if cat == 6:
        return sum(d) if max(counts) >= 3 else 0
    if cat == 7:
        return sum(d) if max(counts) >= 4 else 0
    if cat == 8:
        return 25 if 3 in counts and 2 in counts else 0
    s = set(d)
    if cat == 9:
        return 30 if {1, 2, 3, 4} <= s or {2, 3, 4, 5} <= s or {3, 4, 5, 6} <= s else 0
    if cat == 10:
        return 40 if s in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    return 50 if len(s) == 1 else 0


def all_optimal_spot_sums(rounds, spots):
    """Exhaustive: every one of the 12! assignments, enumerated as (6 upper rounds) x 720 x 720.

    Returns (optimal total, set of spot sums over all optimal assignments)."""
    table = np.array([[plain_score(d, c) for c in range(12)] for d in rounds], dtype=np.int64)
    spot = np.zeros(12, dtype=np.int64)
    spot[spots] = 1
    halves = []
    for upper in itertools.combinations(range(12), 6):
        lower = [r for r in range(12) if r not in upper]
        up_r = np.array(upper)[PERMS6]  # (720, 6): round placed in Aces..Sixes
        lo_r = np.array(lower)[PERMS6]
        up_pts = table[up_r, np.arange(6)]
        lo_pts = table[lo_r, np.arange(6, 12)]
        up_base = up_pts.sum(axis=1)
        up_total = up_base + np.where(up_base >= 63, 35, 0)
        halves.append(
            (
                up_total,
                (up_pts * spot[up_r]).sum(axis=1),
                lo_pts.sum(axis=1),
                (lo_pts * spot[lo_r]).sum(axis=1),
            )
        )
    best = max(int(u.max()) + int(lo.max()) for u, _, lo, _ in halves)
    sums: set[int] = set()
    for up_total, up_spot, lo_total, lo_spot in halves:
        if int(up_total.max()) + int(lo_total.max()) != best:
            continue
        ups = {(int(t), int(s)) for t, s in zip(up_total, up_spot, strict=True)}
        los = {(int(t), int(s)) for t, s in zip(lo_total, lo_spot, strict=True)}
        for t1, s1 in ups:
            for t2, s2 in los:
                if t1 + t2 == best:
                    sums.add(s1 + s2)
    return best, sums


def test_scoring_rules_cases():
    from generators._yacht_dice_verify import round_score

    cases = {
        (3, 3, 3, 3, 3): {2: 15, 6: 15, 7: 15, 8: 0, 11: 50},  # a yacht is 3K/4K but not a full house
        (1, 2, 3, 4, 5): {9: 30, 10: 40, 0: 1},  # a large straight is also a small straight
        (2, 2, 5, 5, 5): {8: 25, 6: 19, 7: 0, 4: 15},
        (1, 3, 4, 5, 6): {9: 30, 10: 0},
        (6, 6, 6, 6, 1): {7: 25, 5: 24, 8: 0},
    }
    for dice, expect in cases.items():
        for cat, val in expect.items():
            assert yd.category_scores(list(dice))[cat] == val
            assert round_score(list(dice), cat) == val
            assert plain_score(list(dice), cat) == val
    for dice in itertools.product(range(1, 7), repeat=5):
        row = yd.category_scores(list(dice))
        assert (
            row
            == [plain_score(dice, c) for c in range(12)]
            == [round_score(list(dice), c) for c in range(12)]
        )


@pytest.mark.parametrize("config", CONFIGS)
def test_exhaustive_enumeration_confirms_gold(config):
    # Every 12! assignment (factorised by the upper/lower split) on a sample of items.
    for item in release_items(config)[::25]:
        inst = _inst(item)
        best, sums = all_optimal_spot_sums(inst["rounds"], [r - 1 for r in inst["spot_rounds"]])
        assert best == inst["optimal_total"], item["id"]
        assert sums == {int(item["answer"])}, (item["id"], sums)


@pytest.mark.parametrize(
    "tier,k",
    [("easy", 2), ("medium", 2), ("hard", 8)],
)
def test_tier_levers_applied(tier, k):
    levers = yd.PUZZLE.levers[tier]
    for lang in ("en", "ko"):
        items = release_items(f"{lang}_yacht_dice_{tier}")
        kinds = {_inst(it)["construction"] for it in items}
        constructive = sum(_inst(it)["construction"] == "constructive" for it in items)
        for it in items:
            inst = _inst(it)
            assert len(inst["spot_rounds"]) == k and inst["spot_rounds"] == sorted(set(inst["spot_rounds"]))
            assert len(inst["rounds"]) == 12 and all(len(d) == 5 for d in inst["rounds"])
            scores = np.array([yd.category_scores(d) for d in inst["rounds"]])
            cx = yd.decision_complexity(scores)
            gap = inst["optimal_total"] - yd.greedy_total(scores)
            if inst["construction"] == "random" and levers["bands_enforced"]:
                lo, hi = levers["complexity_band"]
                assert lo <= cx <= hi
                lo, hi = levers["greedy_gap_band"]
                assert lo <= gap <= hi
            if inst["construction"] == "constructive":
                planted = [inst["rounds"][r - 1] for r in inst["spot_rounds"]]
                assert all(max(d.count(v) for v in d) >= 3 for d in planted)
        if tier == "easy":
            assert 55 <= constructive <= 85 and kinds == {"constructive", "random"}
        else:
            assert kinds == {"random"}
    if tier == "hard":
        # hard keeps the most complex of 100 candidates: far above the medium band on average
        mean_cx = np.mean(
            [
                yd.decision_complexity(np.array([yd.category_scores(d) for d in _inst(it)["rounds"]]))
                for it in release_items("en_yacht_dice_hard")
            ]
        )
        assert mean_cx > 7.0


def _non_invariant_instance(k, seed=0):
    rng = random.Random(seed)
    while True:
        rounds = [[rng.randint(1, 6) for _ in range(5)] for _ in range(12)]
        spots = sorted(rng.sample(range(12), k))
        best, sums = all_optimal_spot_sums(rounds, spots)
        if len(sums) > 1:
            return rounds, spots, best, sums


def _item_for(base_item, instance):
    info = nolli.resolve(base_item["config"])
    levers = json.loads(base_item["levers"])
    return dict(
        base_item,
        instance=json.dumps(instance, ensure_ascii=False, separators=(",", ":")),
        question=yd.PUZZLE.render(instance, info.lang, levers),
        answer=str(instance["spot_sum"]),
    )


@pytest.mark.parametrize("config", ["en_yacht_dice_medium", "ko_yacht_dice_hard"])
def test_non_invariant_spot_sum_is_rejected(config):
    base = release_items(config)[0]
    k = len(_inst(base)["spot_rounds"])
    rounds, spots, best, sums = _non_invariant_instance(k)
    for claimed in sorted(sums):
        instance = dict(
            _inst(base),
            rounds=rounds,
            spot_rounds=[r + 1 for r in spots],
            optimal_total=best,
            spot_sum=claimed,
        )
        result = nolli.verify(_item_for(base, instance))
        assert not result and "not invariant" in str(result)
    # and the generator's own screen sees the same range
    scores = np.array([yd.category_scores(d) for d in rounds])
    assert yd.spot_range(scores, [spots])[0] == (best, min(sums), max(sums))


def test_wrong_gold_and_tampered_dice_fail():
    item = release_items("en_yacht_dice_easy")[3]
    assert nolli.verify(item)
    assert "gold" in str(nolli.verify(dict(item, answer=str(int(item["answer"]) + 1))))
    q = item["question"]
    line = next(t for t in q.splitlines() if t.startswith("Round 5:"))
    dice = json.loads(line.split(": ", 1)[1])
    dice[0] = dice[0] % 6 + 1
    bad = q.replace(line, f"Round 5: [{', '.join(map(str, dice))}]")
    assert not nolli.verify(dict(item, question=bad))


def test_generator_and_verifier_agree_on_random_dice():
    from generators._yacht_dice_verify import verify_spot_sum

    rng = random.Random(11)
    for trial in range(30):
        weights = yd.PUZZLE.levers[("easy", "medium", "hard")[trial % 3]]["roll_weights"]
        rounds = yd._random_rounds(rng, weights)
        spots = sorted(rng.sample(range(12), 1 + trial % 8))
        scores = np.array([yd.category_scores(d) for d in rounds])
        assert yd.spot_range(scores, [spots])[0] == verify_spot_sum(rounds, spots)


# ---- scoring ----------------------------------------------------------------------------------
# Deliberate differences from the reference judge (not present in the dev rows): a labelled answer
# written with thousands separators or a trailing ".0" is read as that number; the reference reads
# "Answer: 1,234" as 234 and "Answer: 42.0" as 42 or 0 depending on the rule that fires.
LENIENT_CASES = [
    ("Answer: 1,234", "1234"),
    ("Answer: 42.0", "42"),
    ("정답: 42점", "42"),
    ("Answer: **56 points**", "56"),
]


@pytest.mark.parametrize("response,expected", LENIENT_CASES)
def test_numerically_equal_forms_accepted(response, expected):
    assert nolli.extract_answer("en_yacht_dice_easy", response, expected) == expected
    assert nolli.score("en_yacht_dice_easy", response, expected)


@pytest.mark.parametrize(
    "response,expected",
    [
        ("...\nAnswer: 42", "42"),
        ("Round 4: 25\nsum: 30 so far\nRound 7: 12\nSum: 42 in total", "42"),
        ("**Answer:** 42", "42"),
        ("Total: 7 and later\nI think 12 or 30", "7"),
        ("values 3 10 7", "10"),  # reference: largest number on the last line with numbers
        ("Answer: 0", "0"),
        ("no number here", None),
        ("", None),
    ],
)
def test_extraction(response, expected):
    assert nolli.extract_answer("en_yacht_dice_hard", response, "0") == expected


def test_garbage_never_crashes():
    for junk in ["Answer:", "Answer: ```", "9" * 100_000, "Sum " * 50_000, "\n".join(["1 2 3"] * 10_000)]:
        assert isinstance(nolli.score("ko_yacht_dice_medium", junk, "12"), bool)


def test_reference_judge_agreement():
    check_agreement("yacht_dice", {})
