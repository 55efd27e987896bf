"""kinship: tier levers, hand-made ambiguous/contradictory clue sets, extraction, reference judge."""

from __future__ import annotations

import json

import pytest
from conftest import release_items
from scoring import check_agreement

import nolli
from generators.base import VerificationError
from generators.kinship import CHAINS, verify_question

HOPS = {
    "easy": {"시댁": (4, 5), "처가": (4, 5), "외가": (4, 4), "친가": (4, 4)},
    "medium": {b: (3, 4) for b in ("시댁", "처가", "외가", "친가")},
    "hard": {b: (2, 3) for b in ("시댁", "처가", "외가", "친가")},
}
OTHER_SEX = dict(
    [("아버지", "어머니"), ("형", "누나"), ("오빠", "언니"), ("남동생", "여동생"), ("남편", "아내")]
    + [("어머니", "아버지"), ("누나", "형"), ("언니", "오빠"), ("여동생", "남동생"), ("아내", "남편")]
)
TITLES = dict(CHAINS)
SIDE = {"아버지": "친가", "어머니": "외가", "남편": "시댁", "아내": "처가"}


@pytest.mark.parametrize("tier,noise", [("easy", 15), ("medium", 62), ("hard", 112)])
def test_tier_levers(tier, noise):
    items = release_items(f"ko_kinship_{tier}")
    forms = {"chain": [], "noise": []}
    for item in items:
        inst = json.loads(item["instance"])
        roles = [st["role"] for st in inst["statements"]]
        assert roles.count("noise") == noise
        assert roles.count("chain") == len(inst["path"])
        lo, hi = HOPS[tier][SIDE[inst["path"][0]]]
        assert lo <= len(inst["path"]) <= hi
        assert len(inst["options"]) == 26 and item["answer"] in [chr(65 + i) for i in range(26)]
        assert ("[메모]" in item["question"]) == (tier != "easy")
        assert ("[주의]" in item["question"]) == (tier == "hard")
        # Every person is described by exactly one line; the target never by noise.
        described = [st["x"] if st["form"] == "forward" else st["y"] for st in inst["statements"]]
        assert sorted(described) == list(range(1, len(inst["persons"])))
        descs = [p["desc"] for p in inst["persons"]]
        assert len(set(descs)) == len(descs)
        for st in inst["statements"]:
            forms[st["role"]].append(st["form"] == "reverse")
    # Forms are mixed for real and distractor lines alike (no surface-form leak).
    for role, flags in forms.items():
        share = sum(flags) / len(flags)
        assert 0.35 < share < 0.65, (role, share)


def _q(*lines: str, options=("큰아버지", "고모", "작은아버지"), target="안경 쓴 분을") -> str:
    opts = [f"{chr(65 + i)}: {t}" for i, t in enumerate(options)]
    return "\n".join([*lines, f"질문: 나는 {target} 어떤 호칭으로 불러야 할까요?", *opts])


def test_handmade_gender_ambiguity_is_rejected():
    # The reference's twin defect: "father is X's younger brother" leaves X's sex open (형 or 누나).
    ambiguous = _q(
        "나: 파란 셔츠 입은 분은 제 아버지예요.", "나: 파란 셔츠 입은 분은 안경 쓴 분의 남동생이에요."
    )
    with pytest.raises(VerificationError, match=r"\['A', 'B'\]"):
        verify_question(ambiguous, "A")
    stated = _q(
        "나: 파란 셔츠 입은 분은 제 아버지예요.",
        "나: 파란 셔츠 입은 분은 안경 쓴 분의 남동생이에요. 안경 쓴 분은 여자분이에요.",
    )
    verify_question(stated, "B")
    with pytest.raises(VerificationError):
        verify_question(stated, "A")


def test_handmade_parent_reverse_ambiguity_is_rejected():
    lines = ("나: 모자 쓴 분은 제 아내예요.", "나: 모자 쓴 분은 안경 쓴 분의 딸이에요.")
    with pytest.raises(VerificationError):
        verify_question(_q(*lines, options=("장인", "장모", "처형")), "A")
    fixed = (lines[0], lines[1] + " 안경 쓴 분은 남자분이에요.")
    verify_question(_q(*fixed, options=("장인", "장모", "처형")), "A")


def test_handmade_contradictory_noise_is_rejected():
    base = ["나: 파란 셔츠 입은 분은 제 아버지예요.", "나: 안경 쓴 분은 파란 셔츠 입은 분의 형이에요."]
    verify_question(_q(*base), "A")
    # The target re-described by a distractor line (the reference's descriptor re-use).
    with pytest.raises(VerificationError, match="tree"):
        verify_question(_q(*base, "나: 안경 쓴 분은 파란 셔츠 입은 분의 남동생이에요."), "A")
    # Two fathers for one person.
    with pytest.raises(VerificationError):
        verify_question(
            _q(
                *base,
                "나: 모자 쓴 분은 파란 셔츠 입은 분의 아버지예요.",
                "나: 우산 든 분은 파란 셔츠 입은 분의 아버지예요.",
            ),
            "A",
        )
    # A sex stated both ways.
    with pytest.raises(VerificationError, match="both"):
        verify_question(
            _q(base[0], "나: 안경 쓴 분은 파란 셔츠 입은 분의 형이에요. 안경 쓴 분은 여자분이에요."), "A"
        )


def test_synonym_offered_twice_is_rejected():
    q = _q(
        "나: 파란 셔츠 입은 분은 제 아버지예요.",
        "나: 안경 쓴 분은 파란 셔츠 입은 분의 형이에요.",
        options=("큰아버지", "백부", "고모"),
    )
    with pytest.raises(VerificationError):
        verify_question(q, "A")


def test_removing_a_stated_sex_from_generated_items_breaks_them():
    tested = rejected = 0
    for tier in ("easy", "medium", "hard"):
        for item in release_items(f"ko_kinship_{tier}"):
            inst = json.loads(item["instance"])
            persons = inst["persons"]
            st = next(
                s for s in inst["statements"] if s["role"] == "chain" and inst["target"] in (s["x"], s["y"])
            )
            if not st["note"]:
                continue
            tested += 1
            who = persons[st["y"]]["desc"]
            sex = "남자" if persons[st["y"]]["sex"] == "M" else "여자"
            note = f" {who}{'은' if who.endswith('분') else '는'} {sex}분이에요."
            assert note in item["question"]
            stripped = item["question"].replace(note, "", 1)
            # The other-sex reading of the last step: rejected iff it has no table title or one of its
            # titles is offered (a 자녀 step reads the same either way).
            path = tuple(inst["path"])
            twin = path[:-1] + (OTHER_SEX.get(path[-1], path[-1]),)
            twin_titles = TITLES.get(twin)
            ambiguous = twin != path and (
                twin_titles is None or bool(set(twin_titles) & set(inst["options"]))
            )
            if ambiguous:
                rejected += 1
                with pytest.raises(VerificationError):
                    verify_question(stripped, item["answer"])
            else:
                verify_question(stripped, item["answer"])
    assert tested >= 30 and rejected >= 20


def test_wrong_gold_and_edited_question_fail():
    item = nolli.generate("ko_kinship_medium", 0, 5)
    wrong = "B" if item["answer"] != "B" else "C"
    assert not nolli.verify(dict(item, answer=wrong))
    inst = json.loads(item["instance"])
    gold_title = inst["answer_title"]
    bad_q = item["question"].replace(f"{item['answer']}: {gold_title}", f"{item['answer']}: 아무개")
    assert not nolli.verify(dict(item, question=bad_q))


def test_every_chain_is_reachable_in_some_tier():
    used = {
        json.loads(it["instance"])["chain"]
        for t in ("easy", "medium", "hard")
        for it in release_items(f"ko_kinship_{t}")
    }
    assert len(used) > 60 and used <= set(range(1, len(CHAINS) + 1))


@pytest.mark.parametrize(
    "response,expected",
    [
        ("풀이...\nAnswer: F", "F"),
        ("풀이...\n정답: c", "C"),
        ("**Answer: J**\n끝", "J"),  # not a label line; 'answer:' + letter anywhere
        ("보기 A는 틀렸고 답은 D입니다", "A"),  # reference leniency: first standalone capital
        ("", None),
        ("숫자 123뿐", None),
    ],
)
def test_extraction(response, expected):
    assert nolli.extract_answer("ko_kinship_easy", response) == expected


def test_reference_judge_agreement():
    check_agreement("kinship", {})
