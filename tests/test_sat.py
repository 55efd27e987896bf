"""sat: levers, independent uniqueness (brute force and python-sat), mutations, scoring."""

from __future__ import annotations

import itertools
import json

import pytest
from conftest import release_items
from scoring import check_agreement, row_key

import nolli
from generators.base import dumps


def _models_bruteforce(n, clauses):
    out = []
    for values in itertools.product([False, True], repeat=n):
        if all(any(values[abs(lit) - 1] == (lit > 0) for lit in c) for c in clauses):
            out.append(list(values))
    return out


@pytest.mark.parametrize(
    "tier,n,lo,hi", [("easy", 9, 36, 54), ("medium", 11, 56, 88), ("hard", 14, 115, 170)]
)
def test_tier_levers(tier, n, lo, hi):
    for item in release_items(f"en_sat_{tier}"):
        inst = json.loads(item["instance"])
        assert len(inst["assignment"]) == n
        assert lo <= len(inst["clauses"]) <= hi
        assert all(len(c) in (3, 4) and len({abs(x) for x in c}) == len(c) for c in inst["clauses"])


def test_brute_force_confirms_unique_model_on_easy():
    for item in release_items("ko_sat_easy")[:40]:
        inst = json.loads(item["instance"])
        assert _models_bruteforce(9, inst["clauses"]) == [inst["assignment"]]


def _drop_last_clauses(item, k):
    inst = json.loads(item["instance"])
    inst["clauses"] = inst["clauses"][:-k]
    lines = item["question"].split("\n")
    numbered = [i for i, line in enumerate(lines) if line.startswith("  ") and ". " in line]
    keep = set(numbered[-k:])
    question = "\n".join(line for i, line in enumerate(lines) if i not in keep)
    return dict(item, instance=dumps(inst), question=question), inst


def test_removed_constraints_make_it_fail():
    item = nolli.generate("en_sat_easy", 0, 4)
    mutated, inst = _drop_last_clauses(item, 20)
    assert len(_models_bruteforce(9, inst["clauses"])) > 1  # independent: really ambiguous
    result = nolli.verify(mutated)
    assert not result and "must be exactly 1" in str(result)


def test_flipped_gold_fails():
    item = nolli.generate("ko_sat_medium", 0, 2)
    gold = json.loads(item["answer"])
    first = next(iter(gold))
    gold[first] = not gold[first]
    assert not nolli.verify(dict(item, answer=json.dumps(gold, ensure_ascii=False)))


def test_paired_items_have_the_same_truth_values():
    for en, ko in zip(release_items("en_sat_medium")[:20], release_items("ko_sat_medium")[:20], strict=True):
        assert list(json.loads(en["answer"]).values()) == list(json.loads(ko["answer"]).values())


GOLD = '{"국": true, "국수": false, "A팀": true}'


@pytest.mark.parametrize(
    "response,ok",
    [
        ('Answer: {"국": true, "국수": false, "A팀": true}', True),
        ("Answer: {'국': True, '국수': False, 'A팀': True}", True),
        ('Answer: {"국": true, "A팀": true}', False),  # every variable is required
        ("- 국: 참\n- 국수: 거짓\n- A팀: 참", True),  # Korean 참/거짓 lines
        ("- 국수: 거짓\n- 국: 참\n- A팀: 참", True),  # 국 inside 국수 is not 국
        ("- 국: true\n- 국수: false", False),  # a variable missing
        ('```json\n{"국": true, "국수": false, "A팀": true}\n```', True),
        ("", False),
    ],
)
def test_extraction(response, ok):
    assert nolli.score("ko_sat_easy", response, GOLD) is ok


def test_gold_scores_in_requested_format():
    for item in release_items("ko_sat_hard")[:10]:
        assert nolli.score("ko_sat_hard", "풀이...\nAnswer: " + item["answer"], item["answer"])


DIFFERENCES: dict[str, str] = {
    "sat_puzzle_ko_hard_0008|gemini_gemini-3-flash-preview": (
        "the Answer: object misspells one key (F for F팀), but the reply lists every variable correctly "
        "as '- 이름: 참/거짓', the format the Korean prompt asked for; the reference judge reads only "
        "English true/false in lines (spec pitfall 4), we also read 참/거짓"
    ),
}


def test_reference_judge_agreement():
    check_agreement("sat", DIFFERENCES)


def test_row_key_format():
    assert row_key({"id": "a", "model": "m"}) == "a|m"
