"""inequality (Futoshiki): tier levers, independent uniqueness proof, adversarial items, scoring."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

import pytest
import scoring
from conftest import reference_rows, release_items
from scoring import check_agreement

import generators
import nolli
from generators.base import VerificationError
from generators.inequality import PUZZLE, _parse_question, _sat_count

TIERS = ("easy", "medium", "hard")


def _inst(item):
    return json.loads(item["instance"])


@pytest.mark.parametrize("tier", TIERS)
def test_tier_levers_applied(tier):
    levers = PUZZLE.levers[tier]
    items = release_items(f"en_inequality_{tier}")
    sizes = Counter(_inst(it)["n"] for it in items)
    assert set(sizes) <= {n for n, _ in levers["size_weights"]}
    for it in items:
        inst = _inst(it)
        n = inst["n"]
        lo, hi = levers["givens"][str(n)]
        assert lo <= len(inst["givens"]) <= hi + levers["max_added_givens"]
        assert len(inst["relations"]) >= levers["min_relations"]
        assert len(it["answer"].split()) == n * n
    classes = Counter(_inst(it)["solve_class"] for it in items)
    if tier == "easy":
        assert sizes == {5: 100}
        assert classes["backtrack"] == 100  # backtrack_ratio 1.0
    elif tier == "medium":
        assert 15 <= sizes[6] <= 50 and classes["propagation"] >= 5
    else:
        assert sizes[6] >= 65 and classes["backtrack"] >= 80


def test_solve_class_is_real():
    # "propagation" items fall to naked singles + bound pruning, "backtrack" items do not.
    from generators.inequality import _propagation_solves, _rel_pairs

    for it in release_items("en_inequality_medium"):
        inst = _inst(it)
        n = inst["n"]
        solved = _propagation_solves(n, [tuple(g) for g in inst["givens"]], _rel_pairs(n, inst["relations"]))
        assert solved == (inst["solve_class"] == "propagation")


def test_latin_squares_are_not_all_group_tables():
    # A square isotopic to the cyclic group of order 5 has no intercalate (2×2 Latin subsquare);
    # the reference's squares are all such. Ours come from a randomised fill.
    def has_intercalate(sol):
        n = len(sol)
        for r1, r2 in combinations(range(n), 2):
            for c1, c2 in combinations(range(n), 2):
                if sol[r1][c1] == sol[r2][c2] and sol[r1][c2] == sol[r2][c1]:
                    return True
        return False

    fives = [_inst(it)["solution"] for it in release_items("en_inequality_easy")]
    assert sum(map(has_intercalate, fives)) >= 20


def test_every_item_is_unique_by_independent_sat_count():
    # Recount from the question text alone (both languages), independent of the sampler.
    for tier in TIERS:
        for lang in ("en", "ko"):
            for it in release_items(f"{lang}_inequality_{tier}"):
                n, grid, rels = _parse_question(it["question"])
                count, models = _sat_count(n, grid, rels)
                assert count == 1, it["id"]
                assert " ".join(str(v) for row in models[0] for v in row) == it["answer"]
                for r1, c1, r2, c2, _ in rels:
                    assert abs(r1 - r2) + abs(c1 - c2) == 1


def _rebuilt(item, instance):
    """The item re-rendered from a modified instance (so the text matches the instance)."""
    info = generators.resolve(item["config"])
    levers = PUZZLE.levers[info.tier]
    return PUZZLE._item(info, item["seed"], 0, instance, levers)


@pytest.mark.parametrize("config", ["en_inequality_easy", "ko_inequality_hard"])
def test_removed_constraint_makes_two_solutions_and_is_rejected(config):
    rejected = 0
    for item in release_items(config)[:10]:
        inst = _inst(item)
        if inst["solve_class"] != "backtrack":
            continue
        # In a backtrack-class item every kept relation is needed: dropping any gives 2 solutions.
        weaker = dict(inst, relations=inst["relations"][1:])
        result = nolli.verify(_rebuilt(item, weaker))
        assert not result
        assert "more than one solution" in str(result)
        rejected += 1
    assert rejected >= 5


def test_hand_made_ambiguous_puzzle_rejected():
    # 5×5, an empty grid with one constraint: thousands of solutions.
    inst = {
        "n": 5,
        "givens": [],
        "relations": [[0, 0, 0, 1, "<"]],
        "solution": [[(r + c) % 5 + 1 for c in range(5)] for r in range(5)],
        "solve_class": "backtrack",
    }
    item = _rebuilt(nolli.generate("en_inequality_easy", 0, 0), inst)
    assert "more than one solution" in str(nolli.verify(item))


def test_wrong_gold_and_wrong_text_rejected():
    item = dict(nolli.generate("en_inequality_hard", 0, 5))
    vals = item["answer"].split()
    vals[0], vals[1] = vals[1], vals[0]
    assert "gold differs" in str(nolli.verify(dict(item, answer=" ".join(vals))))
    # A flipped constraint in the text no longer matches the instance.
    line = next(ln for ln in item["question"].splitlines() if ln.startswith("- ("))
    flipped = line.replace("<", "#").replace(">", "<").replace("#", ">")
    assert not nolli.verify(dict(item, question=item["question"].replace(line, flipped)))
    # check() itself reads the text: a text/instance mismatch is caught even without render.
    inst = _inst(item)
    bad_q = item["question"].replace(line, flipped)
    with pytest.raises(VerificationError):
        PUZZLE.check(dict(item, question=bad_q), inst)


def test_wrong_instance_solution_rejected():
    item = nolli.generate("ko_inequality_medium", 0, 2)
    inst = _inst(item)
    sol = [row[:] for row in inst["solution"]]
    sol[0], sol[1] = sol[1], sol[0]
    with pytest.raises(VerificationError):
        PUZZLE.check(item, dict(inst, solution=sol))


def test_question_states_rules_and_format():
    en = nolli.generate("en_inequality_medium", 0, 1)
    ko = nolli.generate("ko_inequality_medium", 0, 1)
    n = _inst(en)["n"]
    assert f"{n * n} numbers" in en["question"] and "Answer:" in en["question"]
    assert "row 1 is the top row" in en["question"] and "exactly once" in en["question"]
    assert "정답:" in ko["question"] and f"{n * n}개" in ko["question"]
    assert en["instance"] == ko["instance"]


GOLD25 = "3 1 2 5 4 2 5 1 4 3 5 3 4 2 1 4 2 3 1 5 1 4 5 3 2"
GRID = "3 1 2 5 4\n2 5 1 4 3\n5 3 4 2 1\n4 2 3 1 5\n1 4 5 3 2"


@pytest.mark.parametrize(
    "response,ok",
    [
        (f"reasoning\nAnswer: {GOLD25}", True),
        (f"풀이\n정답: {GOLD25}", True),
        ("Answer: " + GOLD25.replace(" ", ""), True),  # unspaced digits
        (f"**Answer:** {GOLD25}", True),  # no labelled line: the last n² numbers (as the reference)
        (f"Final answer: {GOLD25}.", True),
        (f"Answer:\n{GRID}", True),  # grid on the lines after the label (reference reads row 1 only)
        ("Answer:\n" + "\n".join(f"Row {i + 1}: {r}" for i, r in enumerate(GRID.splitlines())), True),
        (f"Answer: {GOLD25[:-1]}1", False),
        ("Answer: 3 1 2", False),
        ("", False),
        ("Answer:", False),
        ("garbage " * 10000, False),
        ("9" * 100000, False),
    ],
)
def test_extraction_cases(response, ok):
    assert nolli.score("en_inequality_easy", response, GOLD25) is ok


def test_letter_coded_chain_answers_from_the_reference_release():
    gold = "746fa81dge5b392c"  # previous-release 16-position chain: a..g = 10..16
    assert nolli.score("en_inequality_easy", f"Answer: {gold}", gold)
    assert nolli.score("en_inequality_easy", "Answer: 7 4 6 15 10 8 1 13 16 14 5 11 3 9 2 12", gold)
    assert not nolli.score("en_inequality_easy", "Answer: 746fa81dge5b392d", gold)
    assert nolli.score("en_inequality_easy", "Answer: 768254913", "768254913")
    assert nolli.score("en_inequality_easy", "Answer: 7 6 8 2 5 4 9 1 3", "768254913")
    assert not nolli.score("en_inequality_easy", "Answer: 768254931", "768254913")


def test_extract_without_gold_never_crashes():
    assert nolli.extract_answer("en_inequality_easy", f"Answer: {GOLD25}") == GOLD25
    assert nolli.extract_answer("en_inequality_easy", "nothing") is None


# Rows where the *same* response was judged twice by the reference: 0 by an older judge that did
# not read an unspaced n²-digit answer, 1 by the HEAD judge (spec §8: 360 stored 0 -> 1 flips, all
# on concatenated answers). We follow the HEAD judge; the superseded 0 copies are excluded below.
_CONCAT = "older reference judge missed an unspaced n²-digit answer; the HEAD judge (and we) credit it"
SUPERSEDED = {
    "inequality_en_hard_0015|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_en_medium_0004|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_en_medium_0012|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_ko_hard_0002|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_ko_hard_0008|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_ko_hard_0015|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_ko_hard_0018|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_ko_hard_0027|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_ko_hard_0029|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_ko_medium_0004|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_ko_medium_0007|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_ko_medium_0009|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_ko_medium_0015|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_ko_medium_0020|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_ko_medium_0021|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_ko_medium_0022|gemini_gemini-3-flash-preview": _CONCAT,
    "inequality_ko_medium_0026|gemini_gemini-3-flash-preview": _CONCAT,
}


def _key(row):
    return f"{row['id']}|{row['model']}"


def test_superseded_rows_really_conflict():
    rows = [r for r in reference_rows() if r["task"] == "inequality"]
    for key in SUPERSEDED:
        pair = [r for r in rows if _key(r) == key]
        assert len(pair) == 2 and pair[0]["response"] == pair[1]["response"], key
        assert sorted(r["exact_match"] for r in pair) == [0, 1], key
        assert nolli.score(pair[0]["config"], pair[0]["response"], pair[0]["answer"]), key


def test_reference_judge_agreement(monkeypatch):
    rows = reference_rows()
    kept = tuple(r for r in rows if not (_key(r) in SUPERSEDED and r["exact_match"] == 0))
    assert len(rows) - len(kept) == len(SUPERSEDED)
    monkeypatch.setattr(scoring, "reference_rows", lambda: kept)
    check_agreement("inequality", {})


@pytest.mark.parametrize(
    "response",
    [
        "Answer:\n- Row" + " " * 50000 + "1" + " " * 50000 + "x",
        "solution" + " " * 50000,
        "Answer: " + "1 " * 50000,
        "Answer:" + "\n" * 100000,
    ],
)
def test_pathological_responses_are_fast(response):
    import time

    start = time.perf_counter()
    assert nolli.score("en_inequality_hard", response, GOLD25) is False
    assert time.perf_counter() - start < 1.0
