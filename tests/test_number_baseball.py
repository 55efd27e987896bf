"""number_baseball: tier shapes, independent uniqueness (SAT + brute force), adversarial items, scoring."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest
from conftest import release_items
from pysat.formula import IDPool
from scoring import check_agreement

import nolli
from generators import number_baseball as nb
from generators.solvers import count_models, exactly

CONFIGS = [f"{lang}_number_baseball_{tier}" for lang in ("en", "ko") for tier in ("easy", "medium", "hard")]


def _inst(item):
    return json.loads(item["instance"])


# ---- an independent SAT encoding (written for the tests) ---------------------------------------
def sat_secrets(n, hints, limit=2):
    """Codes consistent with ``hints`` via python-sat model counting (projected on the digit grid)."""
    pool = IDPool()
    x = {(i, d): pool.id(("x", i, d)) for i in range(n) for d in range(10)}
    used = {d: pool.id(("used", d)) for d in range(10)}
    clauses = []
    for i in range(n):
        clauses += exactly([x[i, d] for d in range(10)], 1, pool)
    for d in range(10):
        clauses += [[-x[i, d] for i in pair] for pair in itertools.combinations(range(n), 2)]
        # used[d] <-> some position holds d
        clauses.append([-used[d]] + [x[i, d] for i in range(n)])
        clauses += [[used[d], -x[i, d]] for i in range(n)]
    for guess, s, b in hints:
        digits = [int(c) for c in guess]
        clauses += exactly([x[i, d] for i, d in enumerate(digits)], s, pool)
        clauses += exactly([used[d] for d in digits], s + b, pool)
    project = [x[i, d] for i in range(n) for d in range(10)]
    count, models = count_models(clauses, limit=limit, project=project)
    out = []
    for model in models:
        true = {v for v in model if v > 0}
        out.append("".join(str(d) for i in range(n) for d in range(10) if x[i, d] in true))
    return out


def score_pair(guess, secret):
    strikes = sum(a == b for a, b in zip(guess, secret, strict=True))
    return strikes, len(set(guess) & set(secret)) - strikes


@pytest.mark.parametrize("config", CONFIGS)
def test_sat_confirms_unique_gold_on_every_item(config):
    for item in release_items(config):
        inst = _inst(item)
        hints = nb.parse_hints(item["question"], item["lang"])
        assert sat_secrets(inst["digits"], hints) == [item["answer"]], item["id"]
        for g, s, b in hints:
            assert score_pair(g, item["answer"]) == (s, b)


@pytest.mark.parametrize(
    "tier,digits,revealed,with_position",
    [("easy", 7, 5, (0, 0)), ("medium", 8, 0, (40, 80)), ("hard", 8, 0, (0, 0))],
)
def test_tier_shapes(tier, digits, revealed, with_position):
    levers = nb.PUZZLE.levers[tier]
    for lang in ("en", "ko"):
        items = release_items(f"{lang}_number_baseball_{tier}")
        pinned = 0
        for item in items:
            inst = _inst(item)
            gold = item["answer"]
            assert (
                isinstance(gold, str) and len(gold) == digits == inst["digits"] and len(set(gold)) == digits
            )
            assert levers["min_hints"] <= len(inst["hints"]) <= levers["max_hints"]
            for h in inst["hints"]:
                assert 0 <= h["strikes"] <= 2 and 0 <= h["balls"] <= levers["ball_bounds"][1]
                assert set(h["guess"]) != set(gold)  # never a permutation of the secret
            assert len(inst["revealed_digits"]) == revealed
            assert inst["revealed_digits"] == sorted(inst["revealed_digits"])
            assert all(str(d) in gold for d in inst["revealed_digits"])
            pinned += bool(inst["revealed_positions"])
            assert len(inst["revealed_positions"]) <= 1
        assert with_position[0] <= pinned <= with_position[1]
        assert any(it["answer"].startswith("0") for it in items)  # leading zeros occur and are kept


def _slow_greedy(pool, secret, levers):
    """Plain greedy over explicit codes (no symmetry shortcuts) for comparison."""
    n = levers["digits"]
    arr = np.array(list(itertools.permutations(range(10), n)), dtype=np.int8)
    chosen = []
    remaining = list(pool)

    def fits(rows, g, s, b):
        garr = np.array([int(c) for c in g], dtype=np.int8)
        strikes = (rows == garr).sum(axis=1)
        common = np.isin(rows, garr).sum(axis=1)
        return (strikes == s) & (common - strikes == b)

    while True:
        counts = [int(np.count_nonzero(fits(arr, g, s, b))) for g, s, b in remaining]
        best = None
        for k, c in enumerate(counts):
            if c == 1 and len(chosen) + 1 < levers["min_hints"]:
                continue
            if best is None or c < counts[best]:
                best = k
        g, s, b = remaining.pop(best)
        arr = arr[fits(arr, g, s, b)]
        chosen.append((g, s, b))
        if len(arr) == 1 and len(chosen) >= levers["min_hints"]:
            return chosen


def test_greedy_selection_matches_plain_greedy():
    levers = nb.PUZZLE.levers["easy"]  # 7 digits keeps the plain version affordable
    for seed in range(20):
        rng = random.Random(seed)
        secret = "".join(str(d) for d in rng.sample(range(10), 7))
        pool = nb._pool(rng, secret, levers)
        try:
            fast, _ = nb._select_hints(pool, secret, levers)
        except nb.Reject:
            continue
        assert fast == _slow_greedy(pool, secret, levers)
        return
    raise AssertionError("no seed produced a hint list")


def test_second_step_symmetry_counts_are_exact():
    levers = nb.PUZZLE.levers["hard"]
    rng = random.Random(5)
    secret = "".join(str(d) for d in rng.sample(range(10), 8))
    pool = nb._pool(rng, secret, levers)
    g1, s1, b1 = pool[0]
    codes = nb._all_codes(8)
    word_a, word_b = nb._codes(8)
    alive = nb._codes_response(word_a, word_b, g1) == s1 * 16 + s1 + b1
    others = [d for d in range(10) if str(d) not in g1]
    relabel = {int(ch): i for i, ch in enumerate(g1)} | {d: 8 + j for j, d in enumerate(others)}
    for g, s, b in pool[1:12]:
        direct = int(np.count_nonzero(alive & (nb._codes_response(word_a, word_b, g) == s * 16 + s + b)))
        hist = nb._second_step_histogram(8, s1 * 16 + s1 + b1, nb._relabelled(g, relabel))
        assert int(hist[s * 16 + s + b]) == direct
    assert codes.shape == (1814400, 8)


# ---- adversarial items ----------------------------------------------------------------------
def _rebuilt(item, instance):
    info = nolli.resolve(item["config"])
    levers = json.loads(item["levers"])
    return dict(
        item,
        instance=json.dumps(instance, ensure_ascii=False, separators=(",", ":")),
        question=nb.PUZZLE.render(instance, info.lang, levers),
    )


@pytest.mark.parametrize("config", ["en_number_baseball_hard", "ko_number_baseball_easy"])
def test_removed_hint_makes_item_ambiguous(config):
    item = release_items(config)[4]
    inst = _inst(item)
    assert nolli.verify(_rebuilt(item, inst))  # the unchanged rebuild verifies
    weaker = dict(inst, hints=inst["hints"][:-1], candidates_after=inst["candidates_after"][:-1])
    bad = _rebuilt(item, weaker)
    hints = [(h["guess"], h["strikes"], h["balls"]) for h in weaker["hints"]]
    assert len(sat_secrets(inst["digits"], hints)) == 2  # two secrets really fit
    result = nolli.verify(bad)
    assert not result and "admit 2 codes" in str(result)


def test_wrong_gold_and_tampered_question_fail():
    item = release_items("en_number_baseball_medium")[0]
    gold = item["answer"]
    swapped = gold[1] + gold[0] + gold[2:]
    assert not nolli.verify(dict(item, answer=swapped))
    zero = next(it for it in release_items("en_number_baseball_medium") if it["answer"].startswith("0"))
    assert "not 8 distinct digits" in str(nolli.verify(dict(zero, answer=str(int(zero["answer"])))))
    line = item["question"].splitlines()
    k = next(i for i, t in enumerate(line) if t.startswith("1. Guess"))
    s = int(line[k].split("-> ")[1][0])
    line[k] = line[k].replace(f"-> {s} strike", f"-> {(s + 1) % 3} strike", 1)
    assert not nolli.verify(dict(item, question="\n".join(line)))
    inst = _inst(item)
    inst["revealed_positions"] = [[1, (int(gold[0]) + 1) % 10]]
    assert "revealed position" in str(nolli.verify(_rebuilt(item, inst)))


def test_leading_zero_golds_are_kept():
    item = next(it for it in release_items("en_number_baseball_hard") if it["answer"].startswith("0"))
    gold = item["answer"]
    config = item["config"]
    assert nolli.extract_answer(config, f"So...\nAnswer: {gold}", gold) == gold
    assert nolli.score(config, f"So...\nAnswer: {gold}", gold)
    assert not nolli.score(config, f"Answer: {int(gold)}", gold)
    assert nolli.score(config, "정답: " + " ".join(gold), gold)  # spaced digits on the answer line


@pytest.mark.parametrize(
    "response,gold,expected",
    [
        ("Answer: 3264579", "3264579", "3264579"),
        ("**Answer:** 3264579", "3264579", "3264579"),
        ("blah 1234567\nAnswer: 3264579.", "3264579", "3264579"),
        ("The secret number is 0716432", "0716432", "0716432"),
        ("Answer: 0716432 (checked 1234567)", "0716432", "1234567"),  # reference: last N-digit run
        ("Answer: 3,264,579", "3264579", "3264579"),  # ours: separators on the answer line
        ("Answer: 3 2 6 4 5 7 9", "3264579", "3264579"),
        ("Answer: 326457", "3264579", None),
        ("정답: 87396120", "87396120", "87396120"),
        ("", "3264579", None),
        ("9" * 100_000, "3264579", None),
    ],
)
def test_extraction(response, gold, expected):
    assert nolli.extract_answer("en_number_baseball_easy", response, gold) == expected


def test_garbage_never_crashes():
    for junk in ["Answer:", "Answer: ```", "\x00" * 50, "Answer: " + "1 " * 50_000, "정답：" * 1000]:
        assert nolli.score("ko_number_baseball_hard", junk, "01234567") is False


def test_reference_judge_agreement():
    check_agreement("number_baseball", {})
