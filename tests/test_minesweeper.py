"""minesweeper: tier levers, independent uniqueness proof (with the total), adversarial items, scoring."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import release_items
from scoring import check_agreement

import generators
import nolli
from generators.base import VerificationError
from generators.minesweeper import PUZZLE, _parse_question, _sat_count

TIERS = ("easy", "medium", "hard")


def _inst(item):
    return json.loads(item["instance"])


def test_easy_block_mixture():
    blocks = {(b["rows"], b["cols"], b["mines"]): b for b in PUZZLE.levers["easy"]["blocks"]}
    seen = Counter()
    for it in release_items("en_minesweeper_easy"):
        inst = _inst(it)
        b = blocks[(inst["rows"], inst["cols"], inst["mines"])]
        k = len(inst["revealed"])
        safe = inst["rows"] * inst["cols"] - inst["mines"]
        if "max_ratio" in b:
            assert b["revealed"] <= k <= int(b["max_ratio"] * safe)
        else:
            assert k == b["revealed"]
        seen[(inst["rows"], inst["mines"])] += 1
    assert len(seen) == 5  # every block occurs
    assert seen[(7, 6)] + seen[(8, 7)] + seen[(8, 8)] >= 60


@pytest.mark.parametrize("tier,mines,cap", [("medium", 14, 0.45), ("hard", 18, 0.58)])
def test_until_unique_tiers(tier, mines, cap):
    ks = []
    for it in release_items(f"ko_minesweeper_{tier}"):
        inst = _inst(it)
        assert (inst["rows"], inst["cols"], inst["mines"]) == (9, 9, mines)
        assert len(inst["mine_cells"]) == mines
        safe = 81 - mines
        k = len(inst["revealed"])
        assert int(0.25 * safe) <= k <= int(cap * safe)
        ks.append(k)
    assert max(ks) - min(ks) >= 3  # the reveal count really varies with the layout


@pytest.mark.parametrize("tier", TIERS)
def test_every_item_unique_from_question_text(tier):
    # Independent of the sampler: board and total re-read from the prompt, SAT count up to 2.
    for lang in ("en", "ko"):
        for it in release_items(f"{lang}_minesweeper_{tier}"):
            R, C, M, grid = _parse_question(it["question"], lang)
            count, layouts = _sat_count(R, C, M, grid)
            assert count == 1, it["id"]
            assert ", ".join(f"({r},{c})" for r, c in sorted(layouts[0])) == it["answer"]
            assert f"{M}" in it["question"] and len(layouts[0]) == M


def test_total_count_is_load_bearing():
    # Without the global total most medium boards are ambiguous (spec pitfall 1).
    from generators.minesweeper import _neighbours
    from generators.solvers import count_models, exactly

    ambiguous = 0
    for it in release_items("en_minesweeper_medium")[:20]:
        R, C, M, grid = _parse_question(it["question"], "en")
        from pysat.formula import IDPool

        pool = IDPool()
        var = {(r, c): pool.id((r, c)) for r in range(R) for c in range(C) if grid[r][c] == "#"}
        clauses = []
        for r in range(R):
            for c in range(C):
                if grid[r][c] != "#":
                    nb = [var[x] for x in _neighbours(R, C, r, c) if x in var]
                    v = int(grid[r][c])
                    clauses += [[-x] for x in nb] if v == 0 else exactly(nb, v, pool)
        count, _ = count_models(clauses, limit=2, project=list(var.values()))
        ambiguous += count > 1
    assert ambiguous >= 15


def _rebuilt(item, instance):
    info = generators.resolve(item["config"])
    return PUZZLE._item(info, item["seed"], 0, instance, PUZZLE.levers[info.tier])


def test_removed_clue_makes_two_layouts_and_is_rejected():
    rejected = 0
    for item in release_items("en_minesweeper_medium")[:5]:
        inst = _inst(item)
        for i in range(len(inst["revealed"])):
            weaker = dict(inst, revealed=inst["revealed"][:i] + inst["revealed"][i + 1 :])
            grid = [["#"] * inst["cols"] for _ in range(inst["rows"])]
            for r, c, v in weaker["revealed"]:
                grid[r][c] = str(v)
            if _sat_count(inst["rows"], inst["cols"], inst["mines"], grid)[0] > 1:
                result = nolli.verify(_rebuilt(item, weaker))
                assert not result and "more than one" in str(result)
                rejected += 1
                break
    # until_unique reveals the fewest cells in its order, so some single clue is always needed.
    assert rejected == 5


def test_hand_made_ambiguous_board_rejected():
    inst = {"rows": 3, "cols": 3, "mines": 1, "mine_cells": [[0, 0]], "revealed": [[2, 2, 0]]}
    item = _rebuilt(nolli.generate("en_minesweeper_easy", 0, 0), inst)
    assert "more than one" in str(nolli.verify(item))


def test_wrong_gold_total_or_clue_rejected():
    item = dict(nolli.generate("en_minesweeper_hard", 0, 4))
    inst = _inst(item)
    pairs = item["answer"].split(", ")
    assert "gold differs" in str(nolli.verify(dict(item, answer=", ".join(pairs[:-1]))))
    # A different total stated in the text.
    M = inst["mines"]
    bad_q = item["question"].replace(f"Exactly {M} mines", f"Exactly {M + 1} mines")
    with pytest.raises(VerificationError):
        PUZZLE.check(dict(item, question=bad_q), inst)
    # A wrong clue in the instance (text rendered from it, so only the layout check can catch it).
    r, c, v = inst["revealed"][0]
    wrong = dict(inst, revealed=[[r, c, (v + 1) % 9]] + inst["revealed"][1:])
    assert not nolli.verify(_rebuilt(item, wrong))


def test_question_states_total_coordinates_and_format():
    en = nolli.generate("en_minesweeper_medium", 0, 0)
    ko = nolli.generate("ko_minesweeper_medium", 0, 0)
    assert "Exactly 14 mines" in en["question"] and "0-based" in en["question"]
    assert "(0,0) is the top-left cell" in en["question"] and "Answer: (r1,c1)" in en["question"]
    assert "정확히 14개" in ko["question"] and "정답: (r1,c1)" in ko["question"]
    assert en["instance"] == ko["instance"] and en["answer"] == ko["answer"]


GOLD = "(0,2), (0,6), (2,3), (2,4), (2,6), (6,6)"


@pytest.mark.parametrize(
    "response,ok",
    [
        (f"...\nAnswer: {GOLD}", True),
        (f"...\n정답: {GOLD}", True),
        ("Answer: (6,6), (0,2), (0,6), (2,3), (2,4), (2,6)", True),  # order irrelevant
        ("Answer: (r0,c2), (row 0, col 6), (2, 3), (2,4), (2,6), (6,6)", True),
        ("Answer: (0,2), (0,6), (2,3), (2,4), (2,6)", False),  # a mine missing
        (f"Answer: {GOLD}, (5,5)", False),  # an extra mine
        (f"The mines are:\n{GOLD}", True),  # last-3-lines fallback
        (f"The mines are not:\n{GOLD} are not mines", False),
        (f"Answer: {GOLD}\nThe answer above excludes nothing", True),
        ("", False),
        ("(" * 50000, False),
        ("Answer: " + "(1,1), " * 20000, False),
    ],
)
def test_extraction_cases(response, ok):
    assert nolli.score("en_minesweeper_easy", response, GOLD) is ok


def test_reference_judge_agreement():
    check_agreement("minesweeper", {})


@pytest.mark.parametrize(
    "response",
    ["Answer: (" + " " * 50000 + "x", "Answer: (1, c" + " " * 50000 + "x", "(r" + " " * 50000, "답" * 50000],
)
def test_pathological_responses_are_fast(response):
    import time

    start = time.perf_counter()
    assert nolli.score("en_minesweeper_hard", response, GOLD) is False
    assert time.perf_counter() - start < 1.0
