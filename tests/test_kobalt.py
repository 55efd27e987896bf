"""KoBALT-700: loading both releases, errata, configs, the paper's protocol, CLI and bad sources.

The release files are read from ../shared/kobalt (CC BY-NC 4.0); they are never copied into the
project. Malformed sources are written to tmp_path.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

import kobalt

KOBALT_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "kobalt"
KO = KOBALT_DIR / "kobalt-700.ko-labels.json"
EN = KOBALT_DIR / "kobalt-700.en-labels.json"
SOURCES = {"ko-labels": KO, "en-labels": EN}
ROOT = Path(__file__).resolve().parents[1]

ERRATA_IDS = {
    "67c81c5d361c7932636b79de",
    "67c81c5d361c7932636b79fb",
    "67c81c5d361c7932636b7c2d",
    "67c81c5d361c7932636b7c46",
}
DOMAIN_COUNTS = {
    "Syntax": 300,
    "Semantics": 215,
    "Pragmatics": 81,
    "Phonetics/Phonology": 62,
    "Morphology": 42,
}
LEVEL_COUNTS = {1: 182, 2: 220, 3: 298}
# (domain, English label, Korean label, count, abbreviation, config) from the spec
PHENOMENA = [
    ("Syntax", "Agreement", "문장성분 호응", 104, "Agr", "agreement"),
    ("Syntax", "Argument Structure & Valency", "논항 구조", 96, "ASV", "argument_structure_valency"),
    ("Syntax", "Embedded Clauses", "안은문장/안긴문장", 86, "EC", "embedded_clauses"),
    ("Syntax", "Ellipsis", "생략", 11, "Elp", "ellipsis"),
    ("Syntax", "Scrambling", "뒤섞기", 3, "Scr", "scrambling"),
    ("Semantics", "Semantic Compatibility", "논항-술어의 의미적 호응", 60, "SCPA", "semantic_compatibility"),
    ("Semantics", "Rhetorical Expressions", "수사법", 28, "RE", "rhetorical_expressions"),
    ("Semantics", "Ambiguity", "중의성", 27, "Amb", "ambiguity"),
    ("Semantics", "Word Relationships", "단어간 의미 관계", 28, "SRW", "word_relationships"),
    ("Semantics", "Numeral Classifiers", "적절한 분류사의 사용", 27, "NC", "numeral_classifiers"),
    ("Semantics", "Conjunctions", "연결사", 24, "Conj", "conjunctions"),
    (
        "Semantics",
        "Inter-sentence Relations",
        "sentence/phrase 사이의 의미 관계",
        21,
        "ISR",
        "inter_sentence_relations",
    ),
    ("Pragmatics", "Speech Acts", "화행", 22, "SA", "speech_acts"),
    ("Pragmatics", "Implicature", "함축", 22, "Impl", "implicature"),
    ("Pragmatics", "Discourse Principles", "대화의 격률", 17, "CPDS", "discourse_principles"),
    ("Pragmatics", "Deixis & Reference", "직시", 17, "DR", "deixis_reference"),
    ("Pragmatics", "Social Relationship Marking", "화자 관계 파악", 3, "IPR", "social_relationship_marking"),
    ("Phonetics/Phonology", "Phonological Alternation", "음운의 변동", 34, "PA", "phonological_alternation"),
    (
        "Phonetics/Phonology",
        "Phonological Constraints",
        "음운론적 제약",
        14,
        "PC",
        "phonological_constraints",
    ),
    ("Phonetics/Phonology", "Articulatory Phonetics", "조음 위치/방법", 7, "AP", "articulatory_phonetics"),
    ("Phonetics/Phonology", "Suprasegmental Features", "리듬/운율", 7, "SF", "suprasegmental_features"),
    ("Morphology", "Word Formation", "단어 형성", 22, "WF", "word_formation"),
    ("Morphology", "Verbal Conjugation", "용언의 활용", 12, "VC", "verbal_conjugation"),
    ("Morphology", "POS & Morphemes", "품사와 형태소", 8, "POSM", "pos_morphemes"),
]
DOMAIN_KO = {
    "Syntax": "통사론",
    "Semantics": "의미론",
    "Pragmatics": "화용론",
    "Phonetics/Phonology": "음성학/음운론",
    "Morphology": "형태론",
}
LEVEL_THEN_HANGUL = re.compile(r"Level\s*[가-힣]")


@pytest.fixture(scope="module", autouse=True)
def _release_files():
    for path in (KO, EN):
        if not path.is_file():
            pytest.fail(f"KoBALT source copy missing: {path} (expected ../shared/kobalt beside the project)")


@pytest.fixture(autouse=True)
def _no_hub(monkeypatch, tmp_path):
    """No test may reach for the Hub or a source from the environment."""
    monkeypatch.delenv(kobalt.ENV_SOURCE, raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def raw(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------------------------
# Counts
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", SOURCES)
def test_counts_per_domain_level_and_phenomenon(name):
    rows = kobalt.rows(source=SOURCES[name])
    assert len(rows) == 700 == len({r["id"] for r in rows})
    assert Counter(r["domain"] for r in rows) == DOMAIN_COUNTS
    assert Counter(r["level"] for r in rows) == LEVEL_COUNTS
    phen = Counter((r["domain"], r["phenomenon"]) for r in rows)
    assert phen == {(dom, en): n for dom, en, _, n, _, _ in PHENOMENA}
    by_label = {en: (dom, ko, abbr) for dom, en, ko, _, abbr, _ in PHENOMENA}
    for r in rows:
        dom, ko, abbr = by_label[r["phenomenon"]]
        assert (r["domain"], r["domain_ko"], r["phenomenon_ko"], r["phenomenon_abbr"]) == (
            dom,
            DOMAIN_KO[dom],
            ko,
            abbr,
        )


@pytest.mark.parametrize("name", SOURCES)
def test_answers_and_options(name):
    rows = kobalt.rows(source=SOURCES[name])
    letters = Counter(r["answer"] for r in rows)
    assert sorted(letters) == list("ABCDEFGHIJ")
    assert min(letters.values()) == 61 and max(letters.values()) == 78
    for r in rows:
        assert len(r["options"]) == 10 and all(isinstance(o, str) and o.strip() for o in r["options"])
        assert r["answer_index"] == "ABCDEFGHIJ".index(r["answer"])
        assert r["level"] in (1, 2, 3) and r["question"].strip()
    assert sum(1 for r in rows if r["passage"]) == 297


def test_configs_and_their_counts():
    assert len(kobalt.CONFIGS) == len(set(kobalt.CONFIGS)) == 33
    assert kobalt.CONFIGS[0] == "all"
    expected = {"all": 700, "syntax": 300, "semantics": 215, "pragmatics": 81, "phonology": 62}
    expected |= {"morphology": 42, "level_1": 182, "level_2": 220, "level_3": 298}
    expected |= {cfg: n for _, _, _, n, _, cfg in PHENOMENA}
    assert set(expected) == set(kobalt.CONFIGS)
    for name, path in SOURCES.items():
        assert kobalt.config_counts(path) == {c: expected[c] for c in kobalt.CONFIGS}, name
        for cfg in ("phonology", "deixis_reference", "level_2"):
            assert len(kobalt.rows(cfg, source=path)) == expected[cfg]


def test_rows_are_in_release_order_and_fresh():
    first = kobalt.rows(source=EN)
    assert [r["id"] for r in first] == [r["ID"] for r in raw(EN)]
    first[0]["options"].append("mutated")
    first[0]["answer"] = "Z"
    again = kobalt.rows(source=EN)
    assert len(again[0]["options"]) == 10 and again[0]["answer"] != "Z"


def test_features_are_plain_types():
    import datasets

    assert list(kobalt.FEATURES) == [
        "id",
        "domain",
        "phenomenon",
        "domain_ko",
        "phenomenon_ko",
        "phenomenon_abbr",
        "level",
        "passage",
        "question",
        "options",
        "answer",
        "answer_index",
        "text",
        "errata_applied",
    ]
    assert kobalt.FEATURES["options"] == datasets.List(datasets.Value("string"))
    assert kobalt.FEATURES["errata_applied"] == datasets.Value("bool")


# ---------------------------------------------------------------------------------------------
# Both schemas, errata, layout
# ---------------------------------------------------------------------------------------------
def test_both_schemas_give_identical_rows_after_errata():
    ko, en = kobalt.rows(source=KO), kobalt.rows(source=EN)
    strip = lambda r: {k: v for k, v in r.items() if k != "errata_applied"}  # noqa: E731
    assert [strip(r) for r in ko] == [strip(r) for r in en]
    assert not any(r["errata_applied"] for r in ko)


def test_errata_applied_to_exactly_the_four_ids():
    assert set(kobalt.ERRATA) == ERRATA_IDS
    en = kobalt.rows(source=EN)
    assert {r["id"] for r in en if r["errata_applied"]} == ERRATA_IDS
    # the raw later release really is corrupted there, and only there
    raw_ko = {r["ID"]: r["question"] for r in raw(KO)}
    raw_en = {r["ID"]: r["Question"] for r in raw(EN)}
    assert {i for i in raw_en if raw_en[i] != raw_ko[i]} == ERRATA_IDS
    assert all(LEVEL_THEN_HANGUL.search(raw_en[i]) for i in ERRATA_IDS)
    # after repair: the first release's exact text
    for r in en:
        assert r["text"] == raw_ko[r["id"]]


@pytest.mark.parametrize("name", SOURCES)
def test_no_level_followed_by_hangul(name):
    for r in kobalt.rows(source=SOURCES[name]):
        for part in [r["text"], r["passage"], r["question"], *r["options"]]:
            assert not LEVEL_THEN_HANGUL.search(part), r["id"]


def test_errata_leave_other_texts_alone():
    text = "문제: 적절한 난이도였다\n\n" + "".join(f"{c}: x\n" for c in "ABCDEFGHIJ")
    assert kobalt.apply_errata("67c81c5d361c7932636b79de", text) == (text, False)
    bad = text.replace("난이도", "Level")
    assert kobalt.apply_errata("67c81c5d361c7932636b79de", bad) == (text, True)
    assert kobalt.apply_errata("some-other-id", bad) == (bad, False)


@pytest.mark.parametrize("name", SOURCES)
def test_every_question_round_trips(name):
    for r in kobalt.rows(source=SOURCES[name]):
        assert kobalt.render_text(r["passage"], r["question"], r["options"]) == r["text"], r["id"]
        assert kobalt.parse_text(r["text"]) == (r["passage"], r["question"], r["options"])
        assert r["text"].startswith("지문:\n" if r["passage"] else "문제: ")


def test_parse_text_layout_errors():
    opts = "".join(f"{c}: {c.lower()}\n" for c in "ABCDEFGHIJ")
    assert kobalt.parse_text("지문:\n글\n\n문제: 물음\n\n" + opts) == ("글", "물음", list("abcdefghij"))
    # a dialogue inside the stem with speaker letters is not taken for options
    stem = "문제: 대화\nA: 안녕\nB: 응\n\n"
    assert kobalt.parse_text(stem + opts)[1] == "대화\nA: 안녕\nB: 응"
    with pytest.raises(ValueError, match="9 option lines"):
        kobalt.parse_text("문제: 물음\n\n" + opts.replace("J: j\n", ""))
    with pytest.raises(ValueError, match="11 option lines"):
        kobalt.parse_text("문제: 물음\n\n" + opts + "K: k\n")
    with pytest.raises(ValueError, match="문제:"):
        kobalt.parse_text("물음\n\n" + opts)
    with pytest.raises(ValueError, match="ten options"):
        kobalt.render_text("", "q", ["a"] * 9)


# ---------------------------------------------------------------------------------------------
# The paper's protocol: prompt and extraction
# ---------------------------------------------------------------------------------------------
def test_prompt_messages():
    row = kobalt.rows("scrambling", source=EN)[0]
    messages = kobalt.prompt(row)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert all(isinstance(m["content"], str) and m["content"] for m in messages)
    user = messages[1]["content"]
    assert row["text"].strip() in user
    assert user.endswith("\n정답은 X입니다.") and user.count("정답은 X입니다.") == 1
    for letter in "ABCDEFGHIJ":
        assert f"\n{letter}: " in user
    # the same messages from the parts, or from the text alone
    assert kobalt.prompt({k: row[k] for k in ("passage", "question", "options")}) == messages
    assert kobalt.prompt(row["text"]) == messages
    with pytest.raises(TypeError):
        kobalt.prompt({"id": "x"})
    assert kobalt.GENERATION_KWARGS["max_new_tokens"] == 2048
    assert kobalt.GENERATION_KWARGS["temperature"] == 0.0


@pytest.mark.parametrize(
    "response,extracted,gold,correct",
    [
        ("풀이 ... 따라서 정답은 C입니다.", "C", "C", True),
        ("정답은 C입니다.", "C", "D", False),
        ("답은 C라고 생각합니다.", None, "C", False),  # no closing pattern
        ("정답은 B 또는 D입니다.", "B, D", "B", False),  # two letters
        ("정답은 A입니다. 다시 보니 정답은 C입니다.", "A, C", "C", False),  # two different sentences
        ("정답은 c입니다.", None, "C", False),  # lowercase
        ("정답은 Ｃ입니다.", None, "C", False),  # full-width letter
        ("정답은 C입니다. 정리하면, 정답은 C입니다.", "C", "C", True),  # repeated, same letter
        ("정답은 (C)입니다", "C", "C", True),
        ("정답은 **C**입니다.", "C", "C", True),
        ("정답은 Option C입니다.", "O, C", "C", False),  # every capital counts
        ("정답은\n\nC입니다.", "C", "C", True),  # whitespace (also newlines) around the letter
        ("정답은 C\n입니다.", "C", "C", True),
        ("정답은 보기\nC입니다.", None, "C", False),  # '.' does not cross a newline
        ("정답은 입니다. 정답은 E입니다.", "E", "E", True),
        ("정답은 C", None, "C", False),
        ("", None, "A", False),
        (None, None, "A", False),
        (12, None, "A", False),
        (["정답은 A입니다."], None, "A", False),
        ("정답은 A입니다.".encode(), "A", "A", True),
    ],
)
def test_extraction_follows_the_paper(response, extracted, gold, correct):
    assert kobalt.extract_answer(response) == extracted
    assert kobalt.score(response, gold) is correct


def _reference_extract(text: str) -> str | None:
    """The protocol as the spec states it, with Python's re (the slow but obvious way)."""
    letters: list[str] = []
    for content in re.findall(r"정답은\s*(.*?)\s*입니다", text):
        for ch in re.findall(r"[A-Z]", content):
            if ch not in letters:
                letters.append(ch)
    return ", ".join(letters) if letters else None


def test_extraction_equals_the_regex_on_random_texts():
    pieces = ["정답은", "입니다", "정답", "입니", "은", "다", " ", "\n", "\t", "\u3000", "\x1c", "\x85"]
    pieces += ["A", "B", "J", "Z", "c", "Ｃ", "(", ")", ".", "가", "x"]
    rng = random.Random(20250522)
    for _ in range(4000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        assert kobalt.extract_answer(text) == _reference_extract(text), repr(text)
        spans = [m.span(1) for m in re.finditer(r"정답은\s*(.*?)\s*입니다", text)]
        assert list(kobalt._closing_spans(text)) == spans, repr(text)


def test_extraction_on_huge_inputs_is_fast():
    cases = [
        ("정답은 " * 200_000, None),  # many openings, no closing: quadratic for a naive regex
        ("정답은\n가" * 100_000 + " " * 100_000 + "입니다", None),
        ("x" * 5_000_000 + "정답은 J입니다.", "J"),
        ("정답은 A입니다.\n" * 100_000, "A"),
    ]
    for text, expected in cases:
        start = time.perf_counter()
        assert kobalt.extract_answer(text) == expected
        assert time.perf_counter() - start < 5.0


def test_score_gold_forms():
    assert kobalt.score("정답은 B입니다.", 1) and kobalt.score("정답은 B입니다.", " B ")
    for bad in ("", "K", "AB", None, 10, -1, True):
        with pytest.raises(ValueError, match="gold answer"):
            kobalt.score("정답은 B입니다.", bad)


# ---------------------------------------------------------------------------------------------
# Other formats of a valid release
# ---------------------------------------------------------------------------------------------
def write_jsonl(path: Path, records: list) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def write_array(path: Path, records: list) -> Path:
    path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    return path


def write_parquet(path: Path, records: list) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(records), path)
    return path


WRITERS = {"json": write_array, "jsonl": write_jsonl, "parquet": write_parquet}


@pytest.mark.parametrize("fmt", WRITERS)
@pytest.mark.parametrize("name", SOURCES)
def test_jsonl_and_parquet_sources(tmp_path, fmt, name):
    path = WRITERS[fmt](tmp_path / f"train.{fmt}", raw(SOURCES[name]))
    assert kobalt.rows(source=path) == kobalt.rows(source=SOURCES[name])


def test_source_folder_and_env_var(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    write_jsonl(tmp_path / "data" / "train.jsonl", raw(EN))
    assert kobalt.resolve_source(tmp_path) == tmp_path / "data" / "train.jsonl"
    monkeypatch.setenv(kobalt.ENV_SOURCE, str(KO))
    assert kobalt.resolve_source() == KO
    assert len(kobalt.rows("ellipsis")) == 11
    monkeypatch.setenv(kobalt.ENV_SOURCE, str(tmp_path / "nope.json"))
    with pytest.raises(kobalt.SourceError, match="KOBALT_SOURCE points to a missing file"):
        kobalt.rows()


def test_source_sha256():
    assert kobalt.source_sha256(EN) == hashlib.sha256(EN.read_bytes()).hexdigest()
    assert kobalt.source_sha256(str(KO)) == hashlib.sha256(KO.read_bytes()).hexdigest()


def test_export_reads_back(tmp_path):
    for suffix in (".jsonl", ".parquet"):
        out = tmp_path / f"all{suffix}"
        assert kobalt.main(["export", "--source", str(EN), "--out", str(out)]) == 0
        assert kobalt.rows(source=out) == kobalt.rows(source=EN)


# ---------------------------------------------------------------------------------------------
# Malformed sources
# ---------------------------------------------------------------------------------------------
def _without_option_j(rec: dict) -> dict:
    rec = dict(rec)
    rec["Question"] = re.sub(r"\nJ: [^\n]*\n$", "\n", rec["Question"])
    return rec


@pytest.mark.parametrize("fmt", WRITERS)
def test_missing_keys_named(tmp_path, fmt):
    records = raw(EN)
    records[2] = {k: v for k, v in records[2].items() if k != "Level"}
    path = WRITERS[fmt](tmp_path / f"bad.{fmt}", records)
    with pytest.raises(kobalt.SourceError) as err:
        kobalt.rows(source=path)
    msg = str(err.value)
    assert "row 3 (ID " in msg and "missing keys Level" in msg and records[2]["ID"] in msg


def test_unknown_schema(tmp_path):
    path = write_jsonl(tmp_path / "other.jsonl", [{"foo": 1, "bar": 2}] * 3)
    with pytest.raises(kobalt.SourceError, match=r"keys found: bar, foo.*expected one of the schemas"):
        kobalt.rows(source=path)


@pytest.mark.parametrize("fmt", WRITERS)
@pytest.mark.parametrize("n", [699, 1])
def test_too_few_rows(tmp_path, fmt, n):
    path = WRITERS[fmt](tmp_path / f"short.{fmt}", raw(KO)[:n])
    with pytest.raises(kobalt.SourceError, match=f"has {n} rows, expected 700"):
        kobalt.rows(source=path)


@pytest.mark.parametrize("fmt", WRITERS)
def test_too_many_rows_and_duplicates(tmp_path, fmt):
    records = raw(EN)
    records.append(dict(records[9]))
    path = WRITERS[fmt](tmp_path / f"long.{fmt}", records)
    with pytest.raises(kobalt.SourceError) as err:
        kobalt.rows(source=path)
    msg = str(err.value)
    assert f"row 701 (ID {records[9]['ID']}, also in row 10): duplicate ID" in msg
    assert "has 701 rows, expected 700" in msg


def test_duplicate_ids_with_700_rows(tmp_path):
    records = raw(KO)
    records[699] = dict(records[699], ID=records[0]["ID"])
    records[500] = dict(records[500], ID=records[1]["ID"])
    path = write_array(tmp_path / "dup.json", records)
    with pytest.raises(kobalt.SourceError) as err:
        kobalt.rows(source=path)
    msg = str(err.value)
    assert (
        f"rows 501 (ID {records[1]['ID']}, also in row 2), 700 (ID {records[0]['ID']}, also in row 1): duplicate ID"
        in msg
    )
    assert "rows, expected" not in msg


@pytest.mark.parametrize("fmt", WRITERS)
def test_question_without_ten_options(tmp_path, fmt):
    records = raw(EN)
    records[4] = _without_option_j(records[4])
    records[6] = dict(records[6], Question=records[6]["Question"] + "K: 하나 더\n")
    path = WRITERS[fmt](tmp_path / f"opts.{fmt}", records)
    with pytest.raises(kobalt.SourceError) as err:
        kobalt.rows(source=path)
    msg = str(err.value)
    assert f"row 5 (ID {records[4]['ID']}): question has 9 option lines" in msg
    assert f"row 7 (ID {records[6]['ID']}): question has 11 option lines" in msg
    assert "expected exactly ten, A to J" in msg


def test_bad_values_named(tmp_path):
    records = raw(KO)
    records[0] = dict(records[0], answer="K")
    records[1] = dict(records[1], 난이도=4)
    records[2] = dict(records[2], 소분류="없는 현상")
    records[3] = dict(records[3], 대분류="형태론")  # an Agreement item is syntax, not morphology
    path = write_array(tmp_path / "values.json", records)
    with pytest.raises(kobalt.SourceError) as err:
        kobalt.rows(source=path)
    msg = str(err.value)
    for expected in (
        "row 1 (ID",
        "answer (key answer) is not one letter A-J",
        "row 2 (ID",
        "level (key 난이도) is not 1, 2 or 3",
        "row 3 (ID",
        "unknown phenomenon label",
        "row 4 (ID",
        "phenomenon does not belong to the domain",
    ):
        assert expected in msg


def test_many_bad_rows_are_summarised(tmp_path):
    records = [{k: v for k, v in r.items() if k != "Answer"} for r in raw(EN)]
    with pytest.raises(kobalt.SourceError, match="and 692 more: missing keys Answer"):
        kobalt.rows(source=write_jsonl(tmp_path / "no-answer.jsonl", records))


@pytest.mark.parametrize(
    "content,message",
    [
        (b"", "the file is empty"),
        (b'[{"ID": 1,', "not valid JSON"),
        (b"hello", "neither a JSON array nor JSON Lines"),
        (b'{"ID": "a"}\n{oops\n', "line 2 is not valid JSON"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b"PAR1 not really parquet", "cannot read Parquet"),
        (b"[1, 2]", "not a JSON object"),
    ],
)
def test_unreadable_files(tmp_path, content, message):
    path = tmp_path / "broken.jsonl"
    path.write_bytes(content)
    with pytest.raises(kobalt.SourceError, match=message):
        kobalt.rows(source=path)


def test_missing_source_file(tmp_path):
    with pytest.raises(kobalt.SourceError, match="not found"):
        kobalt.rows(source=tmp_path / "missing.json")
    with pytest.raises(kobalt.SourceError, match="no .json"):
        kobalt.rows(source=tmp_path)


def test_offline_without_source_says_how_to_pass_one(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf" / "hub"))
    for call in (kobalt.load, kobalt.rows, kobalt.source_sha256):
        with pytest.raises(kobalt.SourceError) as err:
            call()
        msg = str(err.value)
        assert "snunlp/KoBALT-700" in msg and "KOBALT_SOURCE" in msg and "source=" in msg
        assert "--source" in msg


def test_unreachable_hub_fails_fast(tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf" / "hub"))
    monkeypatch.setattr(kobalt, "_hub_offline", lambda: False)
    monkeypatch.setattr(kobalt, "_hub_reachable", lambda timeout=3.0: False)
    start = time.perf_counter()
    with pytest.raises(kobalt.SourceError, match="not reachable.*KOBALT_SOURCE"):
        kobalt.rows()
    assert time.perf_counter() - start < 10


# ---------------------------------------------------------------------------------------------
# Configs and the datasets builder
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "alias,name",
    [
        ("Syntax", "syntax"),
        ("통사론", "syntax"),
        ("Phonetics/Phonology", "phonology"),
        ("Argument Structure & Valency", "argument_structure_valency"),
        ("ASV", "argument_structure_valency"),
        ("논항 구조", "argument_structure_valency"),
        ("level1", "level_1"),
        ("POS & Morphemes", "pos_morphemes"),
    ],
)
def test_config_aliases(alias, name):
    assert kobalt.resolve_config(alias) == name


@pytest.mark.parametrize("bad,hint", [("syntx", "syntax"), ("level_4", "level_1"), ("agrement", "agreement")])
def test_unknown_config_suggests_close_names(bad, hint):
    with pytest.raises(kobalt.UnknownConfigError, match=f"did you mean [^?]*'{hint}'"):
        kobalt.rows(bad, source=EN)
    with pytest.raises(kobalt.UnknownConfigError, match="unknown KoBALT config"):
        kobalt.load(bad, source=EN)


def test_load_config_offline_from_local_path(tmp_path):
    import datasets

    start = time.perf_counter()
    ds = kobalt.load("implicature", source=EN, cache_dir=tmp_path)
    elapsed = time.perf_counter() - start
    assert isinstance(ds, datasets.Dataset) and ds.split == "test"
    assert ds.features == kobalt.FEATURES and ds.num_rows == 22
    assert ds.info.license == "cc-by-nc-4.0" and "2505.16125" in ds.info.citation
    assert list(ds) == kobalt.rows("implicature", source=EN)
    assert elapsed < 60
    # a second load comes from the cache; another source gets its own cache entry
    assert kobalt.load("implicature", source=EN, cache_dir=tmp_path)[:] == ds[:]
    assert kobalt.load("implicature", source=KO, cache_dir=tmp_path)["errata_applied"] == [False] * 22


def test_load_default_config_and_streaming(tmp_path, monkeypatch):
    import datasets

    monkeypatch.setenv(kobalt.ENV_SOURCE, str(EN))
    stream = kobalt.load("level_3", streaming=True, cache_dir=tmp_path)
    assert isinstance(stream, datasets.IterableDataset)
    got = list(stream)
    assert got == kobalt.rows("level_3", source=EN) and len(got) == 298
    everything = kobalt.load(cache_dir=tmp_path)
    assert everything.num_rows == 700 and sum(everything["errata_applied"]) == 4


# ---------------------------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------------------------
def test_cli_list_with_and_without_source(capsys, tmp_path, monkeypatch):
    assert kobalt.main(["list", "--source", str(KO)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^agreement\s+104$", out, re.M) and "33 configs, 700 rows" in out
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf" / "hub"))
    assert kobalt.main(["list"]) == 0
    captured = capsys.readouterr()
    assert captured.out.split() == kobalt.CONFIGS
    assert "KOBALT_SOURCE" in captured.err
    assert kobalt.main(["list", "--json", "--source", str(EN)]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed[0] == {"config": "all", "rows": 700} and len(listed) == 33


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_cli_export(tmp_path, suffix, monkeypatch):
    out = tmp_path / f"syntax{suffix}"
    monkeypatch.setenv(kobalt.ENV_SOURCE, str(EN))
    assert kobalt.main(["export", "--config", "syntax", "--out", str(out)]) == 0
    if suffix == ".jsonl":
        lines = out.read_text(encoding="utf-8").splitlines()
        got = [json.loads(line) for line in lines]
    else:
        import pyarrow.parquet as pq

        got = pq.read_table(out).to_pylist()
    assert got == kobalt.rows("syntax", source=EN)
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]


@pytest.mark.parametrize(
    "argv,message",
    [
        (["export", "--config", "syntx", "--out", "{tmp}/x.jsonl", "--source", str(EN)], "did you mean"),
        (["export", "--out", "{tmp}/x.csv", "--source", str(EN)], "must end in .jsonl or .parquet"),
        (["export", "--out", "{tmp}/nope/x.jsonl", "--source", str(EN)], "output folder does not exist"),
        (["export", "--out", "{tmp}/x.jsonl", "--source", "{tmp}/missing.json"], "not found"),
        (["export", "--out", "{tmp}/x.jsonl"], "KOBALT_SOURCE"),
        (["export", "--out", "{tmp}/x.parquet", "--source", "{tmp}/short.json"], "has 3 rows"),
        (["score", "--answer", "K", "--response", "정답은 K입니다."], "gold answer"),
    ],
)
def test_cli_errors_exit_2_without_output(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf" / "hub"))
    write_array(tmp_path / "short.json", raw(KO)[:3])
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert kobalt.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("kobalt: error: ") and message in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "hf") == ["short.json"]


def test_cli_subprocess_clean_error_and_score(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != kobalt.ENV_SOURCE}
    env.update(HF_HUB_OFFLINE="1", HF_HOME=str(tmp_path / "hf"))
    bad = tmp_path / "opts.json"
    records = raw(EN)
    records[4] = _without_option_j(records[4])
    write_array(bad, records)
    cmd = [sys.executable, "-m", "kobalt", "export", "--source", str(bad), "--out", str(tmp_path / "o.jsonl")]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "row 5 (ID" in proc.stderr and not (tmp_path / "o.jsonl").exists()
    cmd = [sys.executable, "-m", "kobalt", "score", "--answer", "C"]
    proc = subprocess.run(
        cmd, cwd=ROOT, env=env, input="정답은 C입니다.", capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == {"extracted": "C", "answer": "C", "correct": True}
