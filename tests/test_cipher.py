"""cipher: spec worked examples, tier levers, independent re-verification, adversarial items, scoring."""

from __future__ import annotations

import json
import re
import time

import pytest
from conftest import reference_rows, release_items
from scoring import check_agreement, row_key

import nolli
from generators import cipher as C
from generators.base import VerificationError

EN_CONFIGS = ["en_cipher_easy", "en_cipher_medium", "en_cipher_hard"]
KO_CONFIGS = ["ko_cipher_easy", "ko_cipher_medium", "ko_cipher_hard"]
HARD_STACK = ["TRANSPOSITION", "VIGENERE"]


def _inst(item):
    return json.loads(item["instance"])


# ---- spec worked examples, for the generator code and the verifier code separately ------------
KO_EASY_STATES = [
    "문화시장관리지도",
    "순뫄지강돤지키쏘",
    "숀모즤강돈즤킈쎼",
    "쎼킈즤돈강즤모숀",
    "쪠듸킈쏜당긔소툔",
    "쪄드크쏀당그셰퇸",
    "텨쓰흐폔망브졔뙨",
]
KO_MEDIUM_STATES = "논리분류 손이춘유 셴의쵼위 셼읠춄윌 윌춄읠셼 휠꾨흴콄 휄꾌흘켨 켨흘꾌휄 켰흠꾔휌 뎠름뾨뤰 뎄륨뾌뤔 데륰뽸뤜 뤜뽸륰데".split()


def _v_ko_forward(plain, key, stack):
    jamos = [C._v_ko_split(ch) for ch in plain]
    states = [plain]
    for op in stack:
        jamos = C._v_ko_step(jamos, key, op, inverse=False)
        states.append("".join(C._v_ko_join(j) for j in jamos))
    return states


@pytest.mark.parametrize(
    "plain,key,stack,states",
    [
        ("문화시장관리지도", "달빛", C.KO_STACK_6, KO_EASY_STATES),
        ("논리분류", "비밀", C.KO_STACK_12, KO_MEDIUM_STATES),
    ],
)
def test_ko_spec_examples(plain, key, stack, states):
    assert C.ko_states(plain, key, stack) == states
    assert _v_ko_forward(plain, key, stack) == states
    assert C.ko_decrypt(states[-1], key, stack) == plain


def test_en_spec_example_and_column_orders():
    # cipher_en_hard_0000: GMBRHVOKLJ -> MVJGHLBOXRKX -> QXQULNICBTRL (keyword ECHO).
    assert C.en_transpose("GMBRHVOKLJ", "ECHO") == "MVJGHLBOXRKX"
    assert C.en_encrypt("GMBRHVOKLJ", "ECHO", HARD_STACK) == "QXQULNICBTRL"
    assert C._v_en_forward("GMBRHVOKLJ", "ECHO", HARD_STACK) == "QXQULNICBTRL"
    # Without a stated length the reference item admits three plaintexts; with it, one.
    assert C.en_plaintexts("QXQULNICBTRL", "ECHO", HARD_STACK, None, limit=5) == [
        "GMBRHVOKLJ",
        "GMBRHVOKLJX",
        "GMBRHVOKLJXX",
    ]
    assert C.en_plaintexts("QXQULNICBTRL", "ECHO", HARD_STACK, 10) == ["GMBRHVOKLJ"]
    table = {
        "ALPHA": [0, 4, 3, 1, 2],
        "BRAVO": [2, 0, 4, 1, 3],
        "CHARLIE": [2, 0, 6, 1, 5, 4, 3],
        "DELTA": [4, 0, 1, 2, 3],
        "ECHO": [1, 0, 2, 3],
        "FOXTROT": [0, 1, 5, 4, 3, 6, 2],
        "GOLF": [3, 0, 2, 1],
        "HOTEL": [3, 0, 4, 1, 2],
        "INDIA": [4, 2, 0, 3, 1],
    }
    for key, order in table.items():
        assert C.en_column_order(key) == order
        # Verifier's rank map, one row: column c goes to output position rank(c).
        cmap = C._v_en_cell_map(key, len(key))
        assert [cmap.index(k) for k in range(len(key))] == order


def test_ko_key_tables_from_spec():
    starts = {"하늘": [0, 18, 1, 2], "바다": [0, 1, 2, 3], "구름": [13, 18, 0, 1], "비밀": [20, 0, 1, 2]}
    for key, start in starts.items():
        assert C.ko_jung_table(key)[:4] == start
    assert C.ko_jung_table("바다") == list(range(21))
    assert [C.ko_jong_value(ch) for ch in "하늘"] == [19, 8]
    assert [C.ko_jong_value(ch) for ch in "열쇠"] == [8, 10]


# ---- tier shapes and levers --------------------------------------------------------------------
@pytest.mark.parametrize("config", EN_CONFIGS)
def test_en_tier_levers(config):
    tier = config.rsplit("_", 1)[1]
    items = release_items(config)
    lo, hi = {"easy": (20, 24), "medium": (20, 24), "hard": (6, 10)}[tier]
    n_examples = {"easy": 1, "medium": 2, "hard": 10}[tier]
    rule = {"easy": "direct", "medium": "extraction", "hard": "positional"}[tier]
    lengths = set()
    padded = 0
    for item in items:
        inst = _inst(item)
        q = item["question"]
        assert lo <= len(item["answer"]) <= hi and re.fullmatch(r"[A-Z]+", item["answer"])
        lengths.add(len(item["answer"]))
        assert inst["keyword_rule"] == rule and len(inst["examples"]) == n_examples
        assert inst["stack"] == (HARD_STACK if tier == "hard" else ["VIGENERE"])
        assert ("reverse order" in q) == (tier != "easy")
        log = q.split("Mission log:\n", 1)[1].split("\n", 1)[0]
        words = [w.rstrip(".:,") for w in log.split(" ")]
        assert words.count(inst["keyword"]) == 1
        # The keyword rule is literally true of the log.
        if rule == "direct":
            assert f'The keyword is "{inst["keyword"]}"' in q
        elif rule == "extraction":
            i = words.index("SET")
            assert words[i + 1] == "TO" and words[i + 2] == inst["keyword"] and words.count("SET") == 1
        else:
            n = int(re.search(r"word number (\d+) of the log line", q).group(1))
            assert words[n - 1] == inst["keyword"]
            assert '"|"' in q  # how the separator counts is stated
        if tier == "hard":
            assert f"exactly {len(item['answer'])} letters long" in q
            assert "pad letter X" in q and "taken from left to right" in q
            assert len(inst["ciphertext"]) % len(inst["keyword"]) == 0
            padded += inst["padding"] > 0
        else:
            assert len(inst["ciphertext"]) == len(item["answer"])
    assert lengths == set(range(lo, hi + 1))
    if tier == "hard":
        assert 50 < padded < 100  # the padding case is common, and the length statement resolves it


@pytest.mark.parametrize("config", KO_CONFIGS)
def test_ko_tier_levers(config):
    tier = config.rsplit("_", 1)[1]
    items = release_items(config)
    lo, hi = {"easy": (8, 8), "medium": (4, 6), "hard": (6, 8)}[tier]
    rule = "extraction" if tier == "hard" else "positional"
    answers = set()
    for item in items:
        inst = _inst(item)
        q = item["question"]
        assert lo <= len(item["answer"]) <= hi
        assert item["answer"] in C.KO_POOL_SETS[tier]
        answers.add(item["answer"])
        assert inst["stack"] == list(C.KO_STACK_6 if tier == "easy" else C.KO_STACK_12)
        assert ("JONG_SHIFT:" in q) == (tier != "easy")
        assert inst["keyword_rule"] == rule
        log = q.split("임무 로그:\n", 1)[1].split("\n", 1)[0]
        words = [w.rstrip(".:,") for w in log.split(" ")]
        if rule == "positional":
            n = int(re.search(r"로그 줄의 (\d+)번째 낱말", q).group(1))
            assert words[n - 1] == inst["keyword"]
        else:
            assert words[words.index("키워드") + 1] == inst["keyword"] and words.count("키워드") == 1
        # Brute force over the keyword pool: only the true keyword gives a pool word.
        hits = [
            k
            for k in C.KO_KEYWORDS
            if C.ko_decrypt(inst["ciphertext"], k, inst["stack"]) in C.KO_POOL_SETS[tier]
        ]
        assert hits == [inst["keyword"]]
    # Items are independent draws (no cross-item state), so a ~300-word pool repeats some answers.
    assert len(answers) >= 75
    assert {len(a) for a in answers} == set(range(lo, hi + 1))


def test_ko_pools():
    assert len(C.KO_POOLS["easy"]) == 26600
    assert 280 <= len(C.KO_POOLS["medium"]) <= 330 and 280 <= len(C.KO_POOLS["hard"]) <= 330
    for tier, (lo, hi) in {"easy": (8, 8), "medium": (4, 6), "hard": (6, 8)}.items():
        assert all(lo <= len(w) <= hi and all("가" <= ch <= "힣" for ch in w) for w in C.KO_POOLS[tier])


# ---- independent verification of every item ----------------------------------------------------
@pytest.mark.parametrize("config", EN_CONFIGS + KO_CONFIGS)
def test_every_item_verified_independently(config):
    for item in release_items(config):
        assert nolli.verify(item), str(nolli.verify(item))
        inst = _inst(item)
        if item["lang"] == "en":
            length = len(item["answer"]) if item["tier"] == "hard" else None
            assert C.en_plaintexts(inst["ciphertext"], inst["keyword"], inst["stack"], length) == [
                item["answer"]
            ]
            for p, c in inst["examples"]:
                assert C._v_en_forward(p, inst["keyword"], inst["stack"]) == c
        else:
            assert _v_ko_forward(item["answer"], inst["keyword"], inst["stack"])[-1] == inst["ciphertext"]


@pytest.mark.parametrize("config", EN_CONFIGS + KO_CONFIGS)
def test_speed(config):
    start = time.perf_counter()
    items = list(nolli.iter_items(config, seed=11))  # a fresh seed, not the cached items
    assert len(items) == 100
    assert time.perf_counter() - start < 10


def test_determinism():
    for config in ("en_cipher_hard", "ko_cipher_medium"):
        assert nolli.generate(config, 5, 7) == nolli.generate(config, 5, 7)
        assert nolli.generate(config, 5, 7)["question"] != nolli.generate(config, 6, 7)["question"]


# ---- adversarial items -------------------------------------------------------------------------
def _check(item, question=None, answer=None):
    bad = dict(item)
    if question is not None:
        bad["question"] = question
    if answer is not None:
        bad["answer"] = answer
    with pytest.raises(VerificationError) as exc:
        C.PUZZLE.check(bad, _inst(item))
    return str(exc.value)


def _padded_hard_item():
    return next(it for it in release_items("en_cipher_hard") if _inst(it)["padding"] > 0)


def test_padding_ambiguity_rejected():
    item = _padded_hard_item()
    C.PUZZLE.check(item, _inst(item))  # the real item passes
    q = re.sub(r"\n\d+\. The plaintext is exactly[^\n]*", "", item["question"])
    assert "exactly" not in q
    assert "plaintexts are consistent" in _check(item, question=q)


def test_reference_style_real_trailing_x_rejected():
    # Like cipher_en_hard_0095: the true plaintext ends in X and the stated length drops it.
    item = next(it for it in release_items("en_cipher_hard") if len(_inst(it)["keyword"]) in (5, 7))
    inst = dict(_inst(item), plaintext="QXZUJHEUX", plaintext_length=9)
    inst["ciphertext"] = C.en_encrypt("QXZUJHEUX", inst["keyword"], inst["stack"])
    levers = json.loads(item["levers"])
    good = dict(
        item, question=C.PUZZLE.render(inst, "en", levers), answer="QXZUJHEUX", instance=json.dumps(inst)
    )
    C.PUZZLE.check(good, inst)
    # The stated length 8 gives a different plaintext, so gold QXZUJHEUX is rejected ...
    q8 = good["question"].replace("exactly 9 letters", "exactly 8 letters")
    assert "decrypts to 'QXZUJHEU'" in _check(good, question=q8)
    # ... and without any length, QXZUJHEU, QXZUJHEUX (and more X) are all consistent.
    q0 = re.sub(r"\n\d+\. The plaintext is exactly[^\n]*", "", good["question"])
    assert "plaintexts are consistent" in _check(good, question=q0)


def test_second_plaintext_and_wrong_gold_rejected():
    item = _padded_hard_item()
    assert "gold is" in _check(item, answer=item["answer"] + "X")  # padding kept in the gold
    ko = release_items("ko_cipher_medium")[0]
    wrong = ko["answer"][:-1] + chr(ord(ko["answer"][-1]) + 1)
    assert "gold is" in _check(ko, answer=wrong)
    # Via the public API the mutated item fails too.
    assert not nolli.verify(dict(ko, answer=wrong))


def test_keyword_ambiguity_rejected():
    item = release_items("en_cipher_medium")[0]
    key = _inst(item)["keyword"]
    other = next(k for k in C.EN_KEYWORDS if k != key)
    # A second pool keyword in the log: a brute-force reader could decrypt a second plaintext.
    q = item["question"].replace("UNIT ", f"UNIT {other} ", 1)
    assert "exactly one pool keyword" in _check(item, question=q)
    # A second "SET TO" makes the extraction rule ambiguous.
    q = item["question"].replace("POSITION FIXED AT", "POSITION SET TO", 1)
    assert "occurs 2 times" in _check(item, question=q)


def test_positional_rule_pointing_elsewhere_rejected():
    item = release_items("en_cipher_hard")[0]
    n = _inst(item)["keyword_position"]
    log = item["question"].split("Mission log:\n", 1)[1].split("\n", 1)[0]
    bar = log.split(" ").index("|") + 1
    # Counting "|" matters: the neighbouring word numbers are not the keyword.
    for m in {n - 1, n + 1, bar}:
        q = item["question"].replace(f"word number {n} of", f"word number {m} of")
        assert "not a pool keyword" in _check(item, question=q)
    ko = release_items("ko_cipher_easy")[0]
    n = _inst(ko)["keyword_position"]
    q = ko["question"].replace(f"로그 줄의 {n}번째", f"로그 줄의 {n + 1}번째")
    assert "not a pool keyword" in _check(ko, question=q)


def test_wrong_example_and_unstated_rules_rejected():
    item = _padded_hard_item()
    p, c = _inst(item)["examples"][0]
    q = item["question"].replace(f"  - {p} -> {c}", f"  - {p} -> {c[:-1]}{'A' if c[-1] != 'A' else 'B'}")
    assert "example" in _check(item, question=q)
    q = item["question"].replace("pad letter X", "pad letter")
    assert "not stated" in _check(item, question=q)
    ko = release_items("ko_cipher_hard")[0]
    q = ko["question"].replace("   - JONG_SHIFT:", "   - ")
    assert "not defined" in _check(ko, question=q)


def test_ko_non_syllable_rejected():
    with pytest.raises(VerificationError):
        C._v_ko_split("ㄱ")
    with pytest.raises(VerificationError):
        C._v_ko_split("A")


# ---- scoring -----------------------------------------------------------------------------------
EN_GOLD = "NOWHQXVOKMVDLLKBKCDMTVQ"


@pytest.mark.parametrize(
    "response,expected",
    [
        (f"Answer: {EN_GOLD}", EN_GOLD),
        (f"**Answer:** {EN_GOLD}", EN_GOLD),
        (f"Answer: **{EN_GOLD}**", EN_GOLD),
        (f"Answer: `{EN_GOLD}`.", EN_GOLD),
        (f"ANSWER： {EN_GOLD}", EN_GOLD),
        (f"Final answer: {EN_GOLD}", EN_GOLD),
        (f"So we get {EN_GOLD}", EN_GOLD),
        ("```\nAnswer: GMBRHVOKLJ\n```", "GMBRHVOKLJ"),
        ("The last step gives FOO and then nothing", "FOO"),
        ("no caps here", None),
        # Deliberate fixes of reference lapses:
        (f"Answer: {EN_GOLD.lower()}", EN_GOLD),  # reference: nothing
        ("Answer: NOWHQ XVOK", "NOWHQXVOK"),  # reference: XVOK
        (f"Answer: The plaintext is {EN_GOLD}.", EN_GOLD),  # reference: IS
        (f"The plaintext is {EN_GOLD}", EN_GOLD),  # reference: IS
    ],
)
def test_en_extraction(response, expected):
    assert nolli.extract_answer("en_cipher_easy", response) == expected


def test_reference_lapses_reproduced_in_reference_mode():
    assert C.reference_extract(f"Answer: {EN_GOLD.lower()}", "en") is None
    assert C.reference_extract("Answer: NOWHQ XVOK", "en") == "XVOK"
    assert C.reference_extract(f"The plaintext is {EN_GOLD}", "en") == "IS"
    assert C.reference_extract("정답: 문화 시장", "ko") == "시장"
    assert C.reference_extract("정답: 문화시장관리지도 입니다", "ko") == "입니다"


@pytest.mark.parametrize(
    "response,expected",
    [
        ("정답: 문화시장관리지도", "문화시장관리지도"),
        ("Answer: '논리분류'", "논리분류"),
        ("원문: 논리분류", "논리분류"),
        ("최종 복호화 결과는 '논리분류'입니다.\n\nAnswer: 논리분류", "논리분류"),
        ("**정답:** 네트워크탐색", "네트워크탐색"),
        ("no hangul", None),
        # Deliberate fixes:
        ("정답: 문화 시장 관리 지도", "문화시장관리지도"),  # reference: 지도
        ("정답: 문화시장관리지도 입니다", "문화시장관리지도"),  # reference: 입니다
    ],
)
def test_ko_extraction(response, expected):
    assert nolli.extract_answer("ko_cipher_easy", response) == expected


def test_scoring_case_and_garbage():
    assert nolli.score("en_cipher_hard", "Answer: gmbrhvoklj", "GMBRHVOKLJ")
    assert not nolli.score("en_cipher_hard", "Answer: GMBRHVOKLJXX", "GMBRHVOKLJ")
    assert nolli.score("cipher_en_hard", "Answer: GMBRHVOKLJ", "GMBRHVOKLJ")  # reference-style name
    for junk in [
        "",
        " ",
        "\x00" * 10,
        "Answer:" * 50_000,
        "a " * 200_000,
        "가 " * 100_000,
        "answer " * 80_000,
    ]:
        start = time.perf_counter()
        for config in ("en_cipher_easy", "ko_cipher_hard"):
            nolli.score(config, junk, "ABC")
        assert time.perf_counter() - start < 2
    assert not nolli.score("en_cipher_easy", None, "ABC")


# Rows where our verdict deliberately differs from the reference judge (all: spaces inside answers).
DIFFERENCES = {
    "cipher_en_easy_0009|gemini_gemini-3-flash-preview": "space inside the answer (AAJCSNIFYLBELEEI RDZNPYE) tolerated",
    "cipher_en_medium_0003|gemini_gemini-3-flash-preview": "space inside the answer (FWEOBMJLTNQZKN DXQDTOFEH) tolerated",
    "cipher_en_medium_0014|gemini_gemini-3-flash-preview": "space inside the answer (XWQBGDQPSWZOIAHJOY ZV) tolerated",
}


def test_reference_mode_reproduces_every_dev_verdict():
    rows = [r for r in reference_rows() if r["task"] == "cipher"]
    assert len(rows) == 180
    agree = 0
    for r in rows:
        got = C.reference_extract(r["response"], r["lang"])
        agree += (got is not None and got.strip().upper() == r["answer"].strip().upper()) == bool(
            r["exact_match"]
        )
    assert agree == len(rows)
    assert set(DIFFERENCES) <= {row_key(r) for r in rows}


def test_reference_judge_agreement():
    # 177/180 agree; the 3 listed rows are deliberate fixes (the reference mode above agrees on 180/180),
    # so the overall threshold is 3/180 below 99%.
    check_agreement("cipher", DIFFERENCES)
