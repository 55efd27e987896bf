"""Tests of evaluation.py: the statistics against scipy/statsmodels, and the whole report path of
``nolli evaluate`` / ``kobalt evaluate`` on the committed fixtures, checked against counts made by
hand here (never against output captured from the code itself).

The fixtures were written by ``python tests/test_evaluation.py`` (``build_fixtures``): gold answers
wrapped in realistic response text, wrong answers, empty responses and malformed lines. The KoBALT
fixture holds ids and responses only (no question text: the data are CC BY-NC 4.0).
"""

from __future__ import annotations

import json
import math
import random
import re
from pathlib import Path

import pytest

import evaluation

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
NOLLI_FIXTURE = FIXTURES / "predictions_nolli.jsonl"
KOBALT_FIXTURE = FIXTURES / "predictions_kobalt.jsonl"
KOBALT_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "kobalt"
KOBALT_SOURCE = KOBALT_DIR / "kobalt-700.ko-labels.json"

MODEL = "fixture-model"
OTHER = "other-model"
FIXTURE_CONFIGS = ["ko_jamo_easy", "en_sudoku_easy", "ko_sudoku_easy", "en_sat_easy", "ko_sat_easy"]

# ---------------------------------------------------------------------------------------------
# The NOLLI fixture, by hand: (model, config) -> {item index: what the response is}. Indices not
# listed have no prediction (missing, counted wrong).
# ---------------------------------------------------------------------------------------------
C, W, E, N = "correct", "wrong", "empty", "null"
NOLLI_PLAN: dict[tuple[str, str], dict[int, str]] = {
    (MODEL, "ko_jamo_easy"): {0: C, 1: C, 2: C, 3: C, 4: C, 5: C, 6: W, 7: W, 8: W, 9: E, 10: N},
    (MODEL, "en_sudoku_easy"): {**{i: C for i in range(16)}, 16: W, 17: W, 18: W, 19: W},
    (MODEL, "ko_sudoku_easy"): {**{i: C for i in range(14)}, 14: W, 15: W, 16: C, 17: W, 18: E},
    (MODEL, "en_sat_easy"): {**{i: C for i in range(10)}, **{i: W for i in range(10, 20)}},
    (MODEL, "ko_sat_easy"): {**{i: C for i in range(12)}, **{i: W for i in range(12, 20)}},
    (OTHER, "ko_jamo_easy"): {0: C, 1: C, 2: C, 3: C, 4: C},
}
# Counted by hand from the plan above: correct answers per (model, config), out of 100 items each.
HAND_CORRECT = {
    (MODEL, "ko_jamo_easy"): 6,
    (MODEL, "en_sudoku_easy"): 16,
    (MODEL, "ko_sudoku_easy"): 15,
    (MODEL, "en_sat_easy"): 10,
    (MODEL, "ko_sat_easy"): 12,
    (OTHER, "ko_jamo_easy"): 5,
}
HAND_ANSWERED = {
    (MODEL, "ko_jamo_easy"): 11,
    (MODEL, "en_sudoku_easy"): 20,
    (MODEL, "ko_sudoku_easy"): 19,
    (MODEL, "en_sat_easy"): 20,
    (MODEL, "ko_sat_easy"): 20,
    (OTHER, "ko_jamo_easy"): 5,
}
DUPLICATE_ID = "ko_jamo_easy_0001"  # repeated later with a wrong answer: the first (correct) counts
UNKNOWN_IDS = ["ko_jamo_easy_0150", "en_jamo_easy_0001", "cipher_ko_hard_0001", "hello"]
MALFORMED_LINES = [
    '{"id": "ko_jamo_easy_0012", "response": "정답: 가',
    '["ko_jamo_easy_0013", "정답: 가"]',
    '{"id": "ko_jamo_easy_0014", "model": "fixture-model"}',
    '{"id": 15, "response": "정답: 가"}',
    "this is not json",
]


def _wrong_nolli(config: str, gold: str) -> str:
    if "sudoku" in config:
        digits = gold.split()
        digits[0] = str(int(digits[0]) % 9 + 1)
        return " ".join(digits)
    if "sat" in config:
        obj = json.loads(gold)
        first = next(iter(obj))
        obj[first] = not obj[first]
        return json.dumps(obj, ensure_ascii=False)
    wrong = gold[::-1] if gold[::-1] != gold else gold + "가"
    return wrong


def _nolli_response(config: str, intent: str, gold: str, index: int):
    if intent == N:
        return None
    if intent == E:
        return ""
    answer = gold if intent == C else _wrong_nolli(config, gold)
    if config.startswith("en_"):
        return (
            f"Let me work through the puzzle step by step.\n\nStep 1: read the constraints of item {index}.\n"
            f"Step 2: propagate them until every asked value is forced.\n\nAnswer: {answer}"
        )
    label = "정답: " if "jamo" in config else "Answer: "
    return f"문제를 단계별로 풀어 보겠습니다.\n\n1단계: 조건을 정리합니다.\n2단계: 규칙을 차례로 적용합니다.\n\n{label}{answer}"


# ---------------------------------------------------------------------------------------------
# The KoBALT fixture, by hand: the first two questions of every phenomenon (release order of the
# first release file), responses cycling through these kinds.
# ---------------------------------------------------------------------------------------------
KOBALT_CYCLE = ["correct", "correct", "wrong", "correct", "several", "none"]
KOBALT_UNKNOWN = ["000000000000000000000000", "ko_jamo_easy_0001"]
KOBALT_MALFORMED = ['{"id": "67c81c5d361c7932636b79de", "response": ', '"just a string"']
LETTERS = "ABCDEFGHIJ"


def _raw_kobalt() -> list[dict]:
    return json.loads(KOBALT_SOURCE.read_text(encoding="utf-8"))


def _kobalt_selection(raw: list[dict]) -> list[dict]:
    taken: dict[str, int] = {}
    out = []
    for rec in raw:
        ph = rec["소분류"]
        if taken.get(ph, 0) < 2:
            taken[ph] = taken.get(ph, 0) + 1
            out.append(rec)
    return out


def _kobalt_response(kind: str, gold: str, k: int) -> str:
    other = LETTERS[(LETTERS.index(gold) + 3 + k) % 10]
    if other == gold:
        other = LETTERS[(LETTERS.index(gold) + 1) % 10]
    intro = "지문과 선택지를 차례로 검토하겠습니다. 각 선택지의 문법성과 의미를 따져 보았습니다.\n\n"
    if kind == "correct":
        return f"{intro}{gold}만 조건을 모두 만족합니다.\n\n정답은 {gold}입니다."
    if kind == "wrong":
        return f"{intro}{other}가 가장 자연스럽습니다.\n\n정답은 {other}입니다."
    if kind == "several":
        return f"{intro}처음에는 정답은 {gold}입니다. 그러나 다시 보면 정답은 {other}입니다."
    return f"{intro}확신하기 어렵지만 {gold}일 것 같습니다."


def build_fixtures() -> None:
    """Write the two committed fixtures (run by hand: ``python tests/test_evaluation.py``)."""
    import nolli

    gold = {c: [it["answer"] for it in nolli.iter_items(c, 0, 100)] for c in FIXTURE_CONFIGS}
    lines: list[str] = []
    for (model, config), plan in NOLLI_PLAN.items():
        for index, intent in plan.items():
            response = _nolli_response(config, intent, gold[config][index], index)
            if intent == C:
                assert nolli.score(config, response, gold[config][index]), (config, index)
            elif intent == W:
                assert not nolli.score(config, response, gold[config][index]), (config, index)
            lines.append(
                json.dumps(
                    {"id": f"{config}_{index:04d}", "model": model, "response": response}, ensure_ascii=False
                )
            )
    # malformed lines, unknown ids and a duplicate, spread through the file
    for pos, bad in zip((3, 17, 30, 44, 60), MALFORMED_LINES, strict=True):
        lines.insert(pos, bad)
    for pos, uid in zip((8, 25, 50, 70), UNKNOWN_IDS, strict=True):
        lines.insert(pos, json.dumps({"id": uid, "model": MODEL, "response": "Answer: 1 2 3 4"}))
    dup = json.dumps({"id": DUPLICATE_ID, "model": MODEL, "response": "정답: 틀린답"}, ensure_ascii=False)
    lines.insert(40, dup)
    lines.insert(20, "")  # a blank line is skipped silently
    NOLLI_FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    NOLLI_FIXTURE.write_text("\n".join(lines) + "\n", encoding="utf-8")

    raw = _raw_kobalt()
    klines = []
    for k, rec in enumerate(_kobalt_selection(raw)):
        kind = KOBALT_CYCLE[k % len(KOBALT_CYCLE)]
        klines.append(
            json.dumps(
                {"id": rec["ID"], "model": MODEL, "response": _kobalt_response(kind, rec["answer"], k)},
                ensure_ascii=False,
            )
        )
    klines.insert(5, KOBALT_MALFORMED[0])
    klines.insert(12, KOBALT_MALFORMED[1])
    klines.insert(
        20,
        json.dumps(
            {"id": KOBALT_UNKNOWN[0], "model": MODEL, "response": "정답은 A입니다."}, ensure_ascii=False
        ),
    )
    klines.insert(
        30,
        json.dumps(
            {"id": KOBALT_UNKNOWN[1], "model": MODEL, "response": "정답은 B입니다."}, ensure_ascii=False
        ),
    )
    first = _kobalt_selection(raw)[0]
    wrong = LETTERS[(LETTERS.index(first["answer"]) + 1) % 10]
    klines.insert(
        35,
        json.dumps(
            {"id": first["ID"], "model": MODEL, "response": f"정답은 {wrong}입니다."}, ensure_ascii=False
        ),
    )
    KOBALT_FIXTURE.write_text("\n".join(klines) + "\n", encoding="utf-8")


# =============================================================================================
# Statistics against scipy / statsmodels
# =============================================================================================
def test_wilson_matches_statsmodels():
    from statsmodels.stats.proportion import proportion_confint

    for n in (1, 2, 5, 30, 100, 300, 700):
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            if not 0 <= k <= n:
                continue
            lo, hi = evaluation.wilson(k, n)
            ref = proportion_confint(k, n, alpha=0.05, method="wilson")
            assert lo == pytest.approx(ref[0], abs=1e-12) and hi == pytest.approx(ref[1], abs=1e-12), (k, n)
    assert all(math.isnan(x) for x in evaluation.wilson(0, 0))


def test_t_distribution_matches_scipy():
    from scipy import stats

    for df in (1, 2, 3.5, 9, 29, 99, 299, 598.7, 5000):
        for t in (-40, -6, -2.5, -1, -0.1, 0, 0.3, 1.7, 2.2, 8, 60):
            assert evaluation.t_cdf(t, df) == pytest.approx(stats.t.cdf(t, df), abs=1e-12, rel=1e-9), (t, df)
        for q in (0.001, 0.05, 0.5, 0.9, 0.95, 0.975, 0.999):
            assert evaluation.t_ppf(q, df) == pytest.approx(stats.t.ppf(q, df), abs=1e-9, rel=1e-9), (q, df)


def _binary_pairs(rng: random.Random, n: int, p_en: float, p_ko: float, rho: float):
    en, ko = [], []
    for _ in range(n):
        a = int(rng.random() < p_en)
        b = a if rng.random() < rho else int(rng.random() < p_ko)
        en.append(a)
        ko.append(b)
    return en, ko


def test_tost_paired_matches_statsmodels():
    import numpy as np
    from statsmodels.stats.weightstats import DescrStatsW, ttost_paired

    rng = random.Random(7)
    for n, p_en, p_ko, rho in [
        (300, 0.6, 0.55, 0.7),
        (300, 0.5, 0.3, 0.2),
        (100, 0.2, 0.25, 0.9),
        (30, 0.5, 0.5, 0.5),
        (900, 0.7, 0.72, 0.6),
    ]:
        en, ko = _binary_pairs(rng, n, p_en, p_ko, rho)
        ours = evaluation.tost_paired(en, ko, -0.1, 0.1)
        p, (t1, p1, df1), (t2, p2, df2) = ttost_paired(np.array(ko, float), np.array(en, float), -0.1, 0.1)
        assert ours["p"] == pytest.approx(p, rel=1e-9, abs=1e-14)
        assert ours["p_lower"] == pytest.approx(p1, rel=1e-9, abs=1e-14)
        assert ours["p_upper"] == pytest.approx(p2, rel=1e-9, abs=1e-14)
        assert ours["t_lower"] == pytest.approx(t1, rel=1e-12) and ours["t_upper"] == pytest.approx(
            t2, rel=1e-12
        )
        assert ours["df"] == df1 == df2
        lo, hi = DescrStatsW(np.array(ko, float) - np.array(en, float)).tconfint_mean(alpha=0.1)
        assert ours["ci90"][0] == pytest.approx(lo, abs=1e-9) and ours["ci90"][1] == pytest.approx(
            hi, abs=1e-9
        )


def test_tost_welch_matches_statsmodels():
    import numpy as np
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW, ttost_ind

    rng = random.Random(11)
    for n1, n2, p1_, p2_ in [
        (300, 300, 0.6, 0.55),
        (100, 80, 0.3, 0.5),
        (300, 200, 0.9, 0.88),
        (20, 35, 0.5, 0.4),
    ]:
        x = [int(rng.random() < p1_) for _ in range(n1)]
        y = [int(rng.random() < p2_) for _ in range(n2)]
        ours = evaluation.tost_welch(x, y, -0.1, 0.1)
        p, (t1, pl, df1), (t2, pu, df2) = ttost_ind(
            np.array(y, float), np.array(x, float), -0.1, 0.1, usevar="unequal"
        )
        assert ours["p"] == pytest.approx(p, rel=1e-9, abs=1e-14)
        assert ours["p_lower"] == pytest.approx(pl, rel=1e-9, abs=1e-14)
        assert ours["p_upper"] == pytest.approx(pu, rel=1e-9, abs=1e-14)
        assert ours["df"] == pytest.approx(df1, rel=1e-12)
        cm = CompareMeans(DescrStatsW(np.array(y, float)), DescrStatsW(np.array(x, float)))
        lo, hi = cm.tconfint_diff(alpha=0.1, usevar="unequal")
        assert ours["ci90"][0] == pytest.approx(lo, abs=1e-9) and ours["ci90"][1] == pytest.approx(
            hi, abs=1e-9
        )


def test_tost_degenerate_samples():
    same = evaluation.tost_paired([1, 0, 1, 0], [1, 0, 1, 0])
    assert same["diff"] == 0 and same["p"] == 0.0 and same["ci90"] == (0, 0)
    shifted = evaluation.tost_paired([0, 0, 0, 0], [1, 1, 1, 1])  # every difference is +1
    assert shifted["diff"] == 1 and shifted["p"] == 1.0
    both_const = evaluation.tost_welch([1, 1, 1], [1, 1])
    assert both_const["p"] == 0.0
    with pytest.raises(ValueError):
        evaluation.tost_paired([1], [0])


def test_holm_matches_statsmodels():
    from statsmodels.stats.multitest import multipletests

    rng = random.Random(3)
    cases = [[0.01, 0.04, 0.03, 0.2, 0.001, 0.5, 0.04, 0.02], [0.5], [0.0, 0.0, 1.0], [0.03, 0.03, 0.03]]
    cases += [[rng.random() ** 3 for _ in range(8)] for _ in range(20)]
    for ps in cases:
        reject, adj, _, _ = multipletests(ps, alpha=0.05, method="holm")
        ours = evaluation.holm(ps)
        assert ours == pytest.approx(list(adj), abs=1e-15)
        assert [p < 0.05 for p in ours] == list(reject)


def test_macro_ci_by_hand():
    mean, lo, hi = evaluation.macro_ci([(30, 100), (60, 100), (90, 300)])
    p = [0.3, 0.6, 0.3]
    se = math.sqrt((0.3 * 0.7 / 100 + 0.6 * 0.4 / 100 + 0.3 * 0.7 / 300) / 9)
    assert mean == pytest.approx(sum(p) / 3)
    assert lo == pytest.approx(sum(p) / 3 - 1.959963984540054 * se) and hi == pytest.approx(
        sum(p) / 3 + 1.959963984540054 * se
    )


# =============================================================================================
# NOLLI: the whole report path on the fixture
# =============================================================================================
@pytest.fixture(scope="module")
def nolli_gold():
    import nolli

    return {c: list(nolli.iter_items(c, 0, 100)) for c in FIXTURE_CONFIGS}


@pytest.fixture(scope="module")
def release_dir(tmp_path_factory, nolli_gold):
    """The gold items as a release folder (fast to read: most CLI tests use it instead of regenerating)."""
    import nolli

    root = tmp_path_factory.mktemp("release")
    for config, items in nolli_gold.items():
        (root / "data" / config).mkdir(parents=True)
        nolli.write_items(items, root / "data" / config / "test-00000-of-00001.parquet")
    return root


@pytest.fixture(scope="module")
def nolli_json(tmp_path_factory, nolli_gold):
    out = tmp_path_factory.mktemp("nolli") / "report.json"
    rc = evaluation.nolli_main(["--predictions", str(NOLLI_FIXTURE), "--json", "--out", str(out)])
    return rc, json.loads(out.read_text(encoding="utf-8"))


def test_nolli_fixture_is_what_the_plan_says(nolli_gold):
    """The fixture holds exactly the planned lines (gold inside correct responses, not inside wrong ones)."""
    seen = {}
    for line in NOLLI_FIXTURE.read_text(encoding="utf-8").split("\n"):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(obj, dict) or not isinstance(obj.get("id"), str) or "response" not in obj:
            continue
        head, _, idx = obj["id"].rpartition("_")
        key = (obj["model"], head)
        if key not in NOLLI_PLAN or int(idx) not in NOLLI_PLAN[key] or (key, int(idx)) in seen:
            continue
        seen[(key, int(idx))] = obj["response"]
    for key, plan in NOLLI_PLAN.items():
        for index, intent in plan.items():
            response = seen[(key, index)]
            gold = nolli_gold[key[1]][index]["answer"]
            if intent == C:
                assert response.rstrip().endswith(gold)
            elif intent == W:
                assert gold not in response
            elif intent == E:
                assert response == ""
            else:
                assert response is None
    assert len(seen) == sum(len(p) for p in NOLLI_PLAN.values())
    for key, plan in NOLLI_PLAN.items():
        assert sum(1 for i in plan.values() if i == C) == HAND_CORRECT[key]
        assert len(plan) == HAND_ANSWERED[key]


def _wilson_ref(k, n):
    from statsmodels.stats.proportion import proportion_confint

    return list(proportion_confint(k, n, alpha=0.05, method="wilson"))


def test_nolli_report_numbers_by_hand(nolli_json):
    rc, rep = nolli_json
    assert rc == 2  # the fixture has malformed, unknown and duplicate lines
    assert list(rep["models"]) == [MODEL, OTHER]
    assert rep["configs"] == [
        "ko_sat_easy",
        "en_sat_easy",
        "ko_sudoku_easy",
        "en_sudoku_easy",
        "ko_jamo_easy",
    ] or set(rep["configs"]) == set(FIXTURE_CONFIGS)
    for model in (MODEL, OTHER):
        r = rep["models"][model]
        for config in FIXTURE_CONFIGS:
            k = HAND_CORRECT.get((model, config), 0)
            answered = HAND_ANSWERED.get((model, config), 0)
            cell = r["per_config"][config]
            assert (cell["n"], cell["correct"], cell["answered"], cell["missing"]) == (
                100,
                k,
                answered,
                100 - answered,
            )
            assert cell["accuracy"] == pytest.approx(k / 100)
            assert cell["ci95"] == pytest.approx(_wilson_ref(k, 100), abs=1e-12)
            lang, task = config.split("_", 2)[:2]
            tl = r["per_task_language"][f"{lang}_{task}"]
            assert (tl["n"], tl["correct"]) == (100, k)
        total = sum(HAND_CORRECT.get((model, c), 0) for c in FIXTURE_CONFIGS)
        assert r["per_tier"]["easy"]["n"] == 500 and r["per_tier"]["easy"]["correct"] == total
        assert r["per_tier"]["easy"]["ci95"] == pytest.approx(_wilson_ref(total, 500), abs=1e-12)
        assert set(r["per_tier"]) == {"easy"}
        assert r["missing"] == 500 - sum(HAND_ANSWERED.get((model, c), 0) for c in FIXTURE_CONFIGS)
        # macro average over the 5 task-languages present
        ps = [HAND_CORRECT.get((model, c), 0) / 100 for c in FIXTURE_CONFIGS]
        mean = sum(ps) / 5
        se = math.sqrt(sum(p * (1 - p) / 100 for p in ps)) / 5
        assert r["macro"]["accuracy"] == pytest.approx(mean)
        assert r["macro"]["ci95"] == pytest.approx(
            [max(0, mean - 1.959963984540054 * se), mean + 1.959963984540054 * se]
        )
        assert r["macro"]["task_languages"] == 5 and r["macro"]["comparable_to_paper"] is False
    assert rep["models"][MODEL]["macro"]["accuracy"] == pytest.approx(0.118)
    assert rep["models"][MODEL]["per_language"]["en"]["correct"] == 26
    assert rep["models"][MODEL]["per_language"]["ko"]["correct"] == 33


def _paired_arrays(model: str, task: str) -> tuple[list[int], list[int]]:
    """Per-item outcomes (index 0..99) by hand from the plan: correct -> 1, anything else -> 0."""

    def outcomes(config):
        plan = NOLLI_PLAN.get((model, config), {})
        return [1 if plan.get(i) == C else 0 for i in range(100)]

    return outcomes(f"en_{task}_easy"), outcomes(f"ko_{task}_easy")


def test_nolli_en_ko_analysis_against_statsmodels(nolli_json):
    import numpy as np
    from statsmodels.stats.multitest import multipletests
    from statsmodels.stats.weightstats import ttost_paired

    _, rep = nolli_json
    rows = {r["task"]: r for r in rep["models"][MODEL]["en_ko"]["rows"]}
    assert list(rows) == ["sat", "sudoku"]  # the spec's order of the direct types
    # gaps by hand: sudoku items 14, 15 EN only, item 16 KO only -> -1/100; sat items 10, 11 KO only -> +2/100
    assert rows["sudoku"]["gap_points"] == pytest.approx(-1.0)
    assert rows["sat"]["gap_points"] == pytest.approx(2.0)
    assert rows["sudoku"]["en_accuracy"] == pytest.approx(0.16) and rows["sudoku"][
        "ko_accuracy"
    ] == pytest.approx(0.15)
    ps = []
    for task in ("sat", "sudoku"):
        en, ko = _paired_arrays(MODEL, task)
        p, (_, p1, _), (_, p2, _) = ttost_paired(np.array(ko, float), np.array(en, float), -0.1, 0.1)
        assert rows[task]["test"] == "paired t" and rows[task]["n"] == 100
        assert rows[task]["p_tost"] == pytest.approx(p, rel=1e-9, abs=1e-15)
        assert rows[task]["p_lower"] == pytest.approx(p1, rel=1e-9, abs=1e-15)
        ps.append(p)
    _, adj, _, _ = multipletests(ps, method="holm")
    assert [rows[t]["p_holm"] for t in ("sat", "sudoku")] == pytest.approx(list(adj), rel=1e-9, abs=1e-15)
    assert [rows[t]["equivalent"] for t in ("sat", "sudoku")] == [a < 0.05 for a in adj]
    # the other model has no correct answer on sat/sudoku at all: every difference is 0
    other = {r["task"]: r for r in rep["models"][OTHER]["en_ko"]["rows"]}
    assert other["sat"]["gap_points"] == 0 and other["sat"]["p_tost"] == 0.0 and other["sat"]["equivalent"]


def test_nolli_problems_listed(nolli_json):
    _, rep = nolli_json
    lines = NOLLI_FIXTURE.read_text(encoding="utf-8").split("\n")
    bad_lines = [i for i, line in enumerate(lines, 1) if line.strip() and line in MALFORMED_LINES]
    assert len(bad_lines) == len(MALFORMED_LINES)
    assert [m["line"] for m in rep["problems"]["malformed_lines"]] == bad_lines
    assert [u["id"] for u in rep["problems"]["unknown_ids"]] == UNKNOWN_IDS
    unknown_lines = [i for i, line in enumerate(lines, 1) if any(f'"id": "{u}"' in line for u in UNKNOWN_IDS)]
    assert [u["line"] for u in rep["problems"]["unknown_ids"]] == unknown_lines
    reasons = {u["id"]: u["reason"] for u in rep["problems"]["unknown_ids"]}
    assert "reference-style" in reasons["cipher_ko_hard_0001"]
    assert "no item with this id" in reasons["ko_jamo_easy_0150"]
    dups = rep["problems"]["duplicate_ids"]
    assert [(d["id"], d["same_response"]) for d in dups] == [(DUPLICATE_ID, False)]
    dup_lines = [
        i
        for i, line in enumerate(lines, 1)
        if f'"id": "{DUPLICATE_ID}"' in line and f'"model": "{MODEL}"' in line
    ]
    assert (dups[0]["first_line"], dups[0]["line"]) == tuple(dup_lines)
    missing = rep["models"][MODEL]["missing_ids"]["ko_jamo_easy"]
    assert missing == [f"ko_jamo_easy_{i:04d}" for i in range(11, 100)]


def test_nolli_markdown_report(tmp_path, release_dir, capsys):
    rc = evaluation.nolli_main(["--predictions", str(NOLLI_FIXTURE), "--release", str(release_dir)])
    out, err = capsys.readouterr()
    assert rc == 2 and "5 malformed lines, 4 unknown ids, 1 duplicate ids" in err
    assert "Wilson" in out and "Holm" in out
    # per-config rows of the first model, recomputed by hand
    section = out.split(f"## Model: {MODEL}")[1].split(f"## Model: {OTHER}")[0]
    for config in FIXTURE_CONFIGS:
        k, a = HAND_CORRECT[(MODEL, config)], HAND_ANSWERED[(MODEL, config)]
        lo, hi = _wilson_ref(k, 100)
        row = f"| {config} | 100 | {a} | {a - sum(1 for i in NOLLI_PLAN[(MODEL, config)].values() if i in (E, N))} | {k} | {k:.1f} | [{100 * lo:.1f}, {100 * hi:.1f}] |"
        assert row in section, row
    assert "**Macro average over 5 task-languages: 11.8%**" in section
    assert "**missing (counted wrong): 410**" in section  # 500 - (11 + 20 + 19 + 20 + 20)
    assert "- ko_jamo_easy: 89 missing: 0011-0099" in section
    assert re.search(r"\| sudoku \| e \| paired t \| 100 \| 16\.0 \| 15\.0 \| -1\.0 \|", section)
    assert "line 4: not valid JSON" in out or "line 3: not valid JSON" in out
    # --keep-going: same report, exit 0
    args = [
        "--predictions",
        str(NOLLI_FIXTURE),
        "--release",
        str(release_dir),
        "--keep-going",
        "--out",
        str(tmp_path / "r.md"),
    ]
    assert evaluation.nolli_main(args) == 0
    assert (tmp_path / "r.md").read_text(encoding="utf-8") == out


def test_nolli_release_folder_gives_the_same_numbers(tmp_path, nolli_gold, nolli_json):
    import shutil

    import nolli

    for config, items in nolli_gold.items():
        (tmp_path / "data" / config).mkdir(parents=True)
        nolli.write_items(items, tmp_path / "data" / config / "test-00000-of-00001.parquet")
    (tmp_path / "data" / "all").mkdir()  # aggregate folders are skipped
    shutil.copy(tmp_path / "data" / "ko_jamo_easy" / "test-00000-of-00001.parquet", tmp_path / "data" / "all")
    out = tmp_path / "rel.json"
    rc = evaluation.nolli_main(
        ["--predictions", str(NOLLI_FIXTURE), "--release", str(tmp_path), "--json", "--out", str(out)]
    )
    rep = json.loads(out.read_text(encoding="utf-8"))
    _, regen = nolli_json
    assert rc == 2
    assert rep["models"] == regen["models"]  # paired detection from the instances, same tests
    assert rep["problems"]["malformed_lines"] == regen["problems"]["malformed_lines"]
    # break the pairing of sat (different instances): the test becomes Welch's
    import pyarrow.parquet as pq

    path = tmp_path / "data" / "ko_sat_easy" / "test-00000-of-00001.parquet"
    table = pq.read_table(path).to_pylist()
    table[0]["instance"] = table[0]["instance"] + " "
    nolli.write_items(table, path)
    gold = evaluation.release_gold(tmp_path)
    assert gold.paired == {("sat", "easy"): False, ("sudoku", "easy"): True}
    rc = evaluation.nolli_main(
        ["--predictions", str(NOLLI_FIXTURE), "--release", str(tmp_path), "--json", "--out", str(out)]
    )
    rows = {
        r["task"]: r for r in json.loads(out.read_text(encoding="utf-8"))["models"][MODEL]["en_ko"]["rows"]
    }
    import numpy as np
    from statsmodels.stats.weightstats import ttost_ind

    en, ko = _paired_arrays(MODEL, "sat")
    p, _, _ = ttost_ind(np.array(ko, float), np.array(en, float), -0.1, 0.1, usevar="unequal")
    assert rows["sat"]["test"] == "Welch t" and rows["sat"]["n"] == [100, 100]
    assert rows["sat"]["p_tost"] == pytest.approx(p, rel=1e-9)
    assert rows["sudoku"]["test"] == "paired t"


def test_nolli_configs_option(tmp_path, release_dir):
    out = tmp_path / "r.json"
    args = [
        "--predictions",
        str(NOLLI_FIXTURE),
        "--release",
        str(release_dir),
        "--configs",
        "ko_jamo_easy",
        "ko_sat_easy",
    ]
    assert evaluation.nolli_main([*args, "--json", "--out", str(out), "--keep-going"]) == 0
    rep = json.loads(out.read_text(encoding="utf-8"))
    assert rep["configs"] == ["ko_sat_easy", "ko_jamo_easy"]
    # by hand: 90 + 5 valid predictions, of which 11 + 20 (fixture-model) and 5 (other-model) are kept
    assert rep["ignored_predictions"] == 95 - 36
    assert rep["models"][MODEL]["per_config"]["ko_sat_easy"]["correct"] == 12
    assert rep["models"][MODEL]["en_ko"]["rows"] == []
    out_all = tmp_path / "all.json"
    assert (
        evaluation.nolli_main(
            [
                "--predictions",
                str(NOLLI_FIXTURE),
                "--release",
                str(release_dir),
                "--configs",
                "all",
                "--json",
                "--out",
                str(out_all),
            ]
        )
        == 2
    )
    assert len(json.loads(out_all.read_text(encoding="utf-8"))["configs"]) == 5
    assert evaluation.nolli_main([*args[:4], "--configs", "ko_cipher_hard"]) == 2  # not in that release


def test_nolli_plots(tmp_path, release_dir):
    args = [
        "--predictions",
        str(NOLLI_FIXTURE),
        "--release",
        str(release_dir),
        "--plots",
        str(tmp_path),
        "--keep-going",
    ]
    rc = evaluation.nolli_main([*args, "--out", str(tmp_path / "r.md")])
    assert rc == 0
    pngs = sorted(p.name for p in tmp_path.glob("*.png"))
    assert pngs == sorted(
        f"nolli_{m}_{kind}.png" for m in (MODEL, OTHER) for kind in ("task_languages", "tiers", "en_ko_gap")
    )
    for p in tmp_path.glob("*.png"):
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 5000


def test_nolli_json_is_deterministic(tmp_path, release_dir):
    texts = []
    for name in ("a.json", "b.json"):
        out = tmp_path / name
        evaluation.nolli_main(
            ["--predictions", str(NOLLI_FIXTURE), "--release", str(release_dir), "--json", "--out", str(out)]
        )
        texts.append(out.read_bytes())
    assert texts[0] == texts[1]


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------
def test_missing_and_empty_files(tmp_path, capsys):
    assert evaluation.nolli_main(["--predictions", str(tmp_path / "nope.jsonl")]) == 2
    assert "not found" in capsys.readouterr().err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    assert evaluation.nolli_main(["--predictions", str(empty)]) == 2
    assert "the file is empty" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"id": "x"\n\xff\xfe not utf8\n')
    assert evaluation.nolli_main(["--predictions", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "line 1: not valid JSON" in err
    _, problems = evaluation.read_predictions(bad)
    assert [m["line"] for m in problems.malformed] == [1, 2] and "UTF-8" in problems.malformed[1]["reason"]
    assert evaluation.kobalt_main(["--predictions", str(empty), "--source", str(KOBALT_SOURCE)]) == 2
    with pytest.raises(SystemExit) as exc:
        evaluation.nolli_main([])
    assert exc.value.code == 2


def test_unmatched_predictions_exit_2(tmp_path, capsys):
    f = tmp_path / "p.jsonl"
    f.write_text(json.dumps({"id": "zz_nothing_easy_0001", "response": "x"}) + "\n", encoding="utf-8")
    assert evaluation.nolli_main(["--predictions", str(f)]) == 2
    out, err = capsys.readouterr()
    assert "no prediction matched" in err and "zz_nothing_easy_0001" in out


def test_huge_and_odd_responses_do_not_crash(tmp_path):
    import nolli

    items = list(nolli.iter_items("ko_jamo_easy", 0, 100))
    huge = "생각 중입니다. " * 300_000 + "\n정답: " + items[0]["answer"]
    lines = [
        {"id": items[0]["id"], "response": huge},
        {"id": items[1]["id"], "response": ""},
        {"id": items[2]["id"], "response": None},
        {"id": items[3]["id"], "response": 12345},
        {"id": items[4]["id"], "response": {"nested": ["x"]}},
        {"id": items[5]["id"], "response": "\x00\ud7a3" * 10},
    ]
    f = tmp_path / "p.jsonl"
    f.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8")
    out = tmp_path / "r.json"
    assert evaluation.nolli_main(["--predictions", str(f), "--json", "--out", str(out), "--model", "m"]) == 0
    rep = json.loads(out.read_text(encoding="utf-8"))
    cell = rep["models"]["m"]["per_config"]["ko_jamo_easy"]
    assert (cell["correct"], cell["answered"], cell["missing"]) == (1, 6, 94)


# =============================================================================================
# KoBALT
# =============================================================================================
needs_kobalt = pytest.mark.skipif(not KOBALT_SOURCE.exists(), reason="KoBALT source copy not available")

DOMAIN_EN = {
    "통사론": "Syntax",
    "의미론": "Semantics",
    "화용론": "Pragmatics",
    "음성학/음운론": "Phonetics/Phonology",
    "형태론": "Morphology",
}


@pytest.fixture(scope="module")
def kobalt_json(tmp_path_factory):
    out = tmp_path_factory.mktemp("kobalt") / "report.json"
    rc = evaluation.kobalt_main(
        ["--predictions", str(KOBALT_FIXTURE), "--source", str(KOBALT_SOURCE), "--json", "--out", str(out)]
    )
    return rc, json.loads(out.read_text(encoding="utf-8"))


def _kobalt_hand_outcomes():
    """id -> 1/0 by hand: the selection and the cycle of kinds; only 'correct' scores."""
    raw = _raw_kobalt()
    sel = _kobalt_selection(raw)
    outcome = {rec["ID"]: 0 for rec in raw}
    for k, rec in enumerate(sel):
        if KOBALT_CYCLE[k % len(KOBALT_CYCLE)] == "correct":
            outcome[rec["ID"]] = 1
    return raw, sel, outcome


@needs_kobalt
def test_kobalt_fixture_has_no_question_text():
    raw = _raw_kobalt()
    text = KOBALT_FIXTURE.read_text(encoding="utf-8")
    for rec in raw:
        for line in rec["question"].split("\n"):
            if len(line) >= 25:
                assert line not in text
    for line in text.split("\n"):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            assert set(obj) <= {"id", "model", "response"}


@needs_kobalt
def test_kobalt_report_numbers_by_hand(kobalt_json):
    rc, rep = kobalt_json
    raw, sel, outcome = _kobalt_hand_outcomes()
    assert rc == 2 and list(rep["models"]) == [MODEL]
    r = rep["models"][MODEL]
    total = sum(outcome.values())
    assert len(sel) == 48 and total == 24  # 2 per phenomenon; the cycle has 3 correct in 6
    assert r["overall"]["n"] == 700 and r["overall"]["correct"] == total
    assert r["overall"]["ci95"] == pytest.approx(_wilson_ref(total, 700), abs=1e-12)
    assert r["answered"] == 48 and r["missing"] == 652
    assert r["no_answer_extracted"] == 8 and r["several_letters"] == 8
    for ko, en in DOMAIN_EN.items():
        ids = [rec["ID"] for rec in raw if rec["대분류"] == ko]
        k = sum(outcome[i] for i in ids)
        assert (r["per_domain"][en]["n"], r["per_domain"][en]["correct"]) == (len(ids), k), en
    assert [
        r["per_domain"][d]["n"]
        for d in ("Syntax", "Semantics", "Pragmatics", "Phonetics/Phonology", "Morphology")
    ] == [300, 215, 81, 62, 42]
    import kobalt

    for ph in kobalt.PHENOMENA:
        ids = [rec["ID"] for rec in raw if rec["소분류"] == ph.label_ko]
        k = sum(outcome[i] for i in ids)
        cell = r["per_phenomenon"][ph.label]
        assert (cell["n"], cell["correct"], cell["abbr"]) == (len(ids), k, ph.abbr)
    for lv in (1, 2, 3):
        ids = [rec["ID"] for rec in raw if int(rec["난이도"]) == lv]
        assert (r["per_level"][str(lv)]["n"], r["per_level"][str(lv)]["correct"]) == (
            len(ids),
            sum(outcome[i] for i in ids),
        )
    assert sorted(r["missing_ids"]) == sorted(i for i in outcome if i not in {rec["ID"] for rec in sel})


@needs_kobalt
def test_kobalt_problems_listed(kobalt_json):
    _, rep = kobalt_json
    lines = KOBALT_FIXTURE.read_text(encoding="utf-8").split("\n")
    assert [m["line"] for m in rep["problems"]["malformed_lines"]] == [
        i for i, line in enumerate(lines, 1) if line in KOBALT_MALFORMED
    ]
    assert [u["id"] for u in rep["problems"]["unknown_ids"]] == KOBALT_UNKNOWN
    assert len(rep["problems"]["duplicate_ids"]) == 1


@needs_kobalt
def test_kobalt_markdown_tables(tmp_path, capsys):
    raw, _, outcome = _kobalt_hand_outcomes()
    rc = evaluation.kobalt_main(
        ["--predictions", str(KOBALT_FIXTURE), "--source", str(KOBALT_SOURCE), "--plots", str(tmp_path)]
    )
    out, _ = capsys.readouterr()
    assert rc == 2
    doms = ["통사론", "의미론", "화용론", "형태론", "음성학/음운론"]  # Table 3 order
    accs = []
    for ko in doms:
        ids = [rec["ID"] for rec in raw if rec["대분류"] == ko]
        accs.append(sum(outcome[i] for i in ids) / len(ids))
    overall = sum(outcome.values()) / 700
    head = "| Model | Overall | Syntax | Semantics | Pragmatics | Morphology | Phonetics |"
    assert head in out
    assert f"| {MODEL} | {overall:.2f} | " + " | ".join(f"{a:.2f}" for a in accs) + " |" in out
    for n, name in zip(
        range(4, 9), ["Syntax", "Semantics", "Pragmatics", "Morphology", "Phonetics"], strict=True
    ):
        assert f"## Table {n}: {name} phenomena" in out
    assert "| Model | Agr | ASV | EC | Elp | Scr |" in out
    assert (
        "| Claude-3.7-Sonnet | 0.61 | 0.66 | 0.66 | 0.64 | 0.36 | 0.31 |" in out
    )  # the paper's row, for reference
    assert "| Model | Level 1 | Level 2 | Level 3 |" in out
    assert sorted(p.name for p in tmp_path.glob("*.png")) == [
        "kobalt_domains.png",
        "kobalt_levels.png",
        "kobalt_phenomena.png",
    ]


@needs_kobalt
def test_kobalt_config_subset(tmp_path):
    out = tmp_path / "r.json"
    rc = evaluation.kobalt_main(
        [
            "--predictions",
            str(KOBALT_FIXTURE),
            "--source",
            str(KOBALT_SOURCE),
            "--config",
            "level_3",
            "--json",
            "--out",
            str(out),
            "--keep-going",
        ]
    )
    rep = json.loads(out.read_text(encoding="utf-8"))
    raw, sel, outcome = _kobalt_hand_outcomes()
    ids = [rec["ID"] for rec in raw if int(rec["난이도"]) == 3]
    assert rc == 0 and rep["items"] == 298
    assert rep["models"][MODEL]["overall"]["correct"] == sum(outcome[i] for i in ids)
    assert len(rep["problems"]["unknown_ids"]) == 2
    assert rep["ignored_predictions"] == sum(1 for rec in sel if int(rec["난이도"]) != 3)


def test_kobalt_bad_source(tmp_path, capsys):
    f = tmp_path / "p.jsonl"
    f.write_text('{"id": "x", "response": "정답은 A입니다."}\n', encoding="utf-8")
    assert evaluation.kobalt_main(["--predictions", str(f), "--source", str(tmp_path / "missing.json")]) == 2
    assert "kobalt evaluate: error:" in capsys.readouterr().err


if __name__ == "__main__":
    build_fixtures()
    print(f"wrote {NOLLI_FIXTURE} and {KOBALT_FIXTURE}")
