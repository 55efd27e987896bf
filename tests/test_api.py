"""Public API, builder, CLI and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from conftest import ROOT

import generators
import nolli

CONFIG = "ko_jamo_easy"


def test_unknown_config_suggests_close_names():
    with pytest.raises(generators.UnknownConfigError, match="ko_jamo_easy"):
        nolli.generate("ko_jamoo_easy", 0, 0)


@pytest.mark.parametrize(
    "alias,name",
    [
        ("cipher_ko_hard", "ko_cipher_hard"),
        ("sat_puzzles_en_easy", "en_sat_easy"),
        ("jamo_ko_easy", "ko_jamo_easy"),
    ],
)
def test_reference_aliases(alias, name):
    assert generators.resolve(alias).name == name


def test_unimplemented_config_raises_not_stub(monkeypatch):
    # Every type is implemented now; simulate a missing generator module for one type.
    real = generators.is_implemented
    monkeypatch.setattr(generators, "is_implemented", lambda task: task != "jamo" and real(task))
    with pytest.raises(generators.NotImplementedConfigError, match="not implemented"):
        nolli.generate("ko_jamo_easy", 0, 0)
    listed = {r["config"]: r["implemented"] for r in nolli.list_configs()}
    assert listed["ko_jamo_easy"] is False and listed["ko_sat_easy"] is True


@pytest.mark.parametrize("n", [0, -3])
def test_bad_n(n):
    with pytest.raises(ValueError, match="n must be >= 1"):
        list(nolli.iter_items(CONFIG, 0, n))
    with pytest.raises(ValueError, match="n must be >= 1"):
        nolli.load(CONFIG, n=n)


@pytest.mark.parametrize("seed", ["1", 1.5, None, True])
def test_non_integer_seed(seed):
    with pytest.raises(TypeError, match="seed must be an integer"):
        nolli.generate(CONFIG, seed, 0)


@pytest.mark.parametrize("response", ["", "   ", None, 123, "가" * 500_000, "Answer: " + "x(" * 300_000])
def test_garbage_responses_score_false(response):
    item = nolli.generate(CONFIG, 0, 0)
    assert nolli.score(CONFIG, response, item["answer"]) is False


def test_verify_rejects_non_items():
    assert not nolli.verify({"id": "x"})
    assert "missing fields" in str(nolli.verify({"id": "x"}))
    assert not nolli.verify("not an item")
    item = dict(nolli.generate(CONFIG, 0, 0), config="ko_nope_easy")
    assert not nolli.verify(item)


def test_load_matches_generate_and_caches(tmp_path):
    ds = nolli.load(CONFIG, seed=5, n=4, cache_dir=tmp_path)
    assert ds.num_rows == 4
    assert ds[2] == nolli.generate(CONFIG, 5, 2)
    start = time.perf_counter()
    again = nolli.load(CONFIG, seed=5, n=4, cache_dir=tmp_path)
    assert time.perf_counter() - start < 30  # sanity only; speed is measured by benchmarks/
    assert again[3] == ds[3]
    # A different n or seed is a different cache entry, never a stale one.
    assert nolli.load(CONFIG, seed=6, n=4, cache_dir=tmp_path)[0] == nolli.generate(CONFIG, 6, 0)
    assert nolli.load(CONFIG, seed=5, n=2, cache_dir=tmp_path).num_rows == 2


def test_cache_key_includes_generator_version(tmp_path, monkeypatch):
    ds = nolli.load(CONFIG, seed=1, n=2, cache_dir=tmp_path)
    puzzle = generators.puzzle_for(generators.resolve(CONFIG))
    monkeypatch.setattr(type(puzzle), "version", puzzle.version + "-changed")
    ds2 = nolli.load(CONFIG, seed=1, n=2, cache_dir=tmp_path)
    assert ds2[0]["generator_version"].endswith("-changed")
    assert ds[0]["generator_version"] != ds2[0]["generator_version"]


def test_streaming(tmp_path):
    it = nolli.load(CONFIG, seed=2, n=3, streaming=True, cache_dir=tmp_path)
    rows = list(it)
    assert [r["id"] for r in rows] == [f"{CONFIG}_{i:04d}" for i in range(3)]
    assert rows[1] == nolli.generate(CONFIG, 2, 1)


def _cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "nolli", *args], cwd=ROOT, capture_output=True, text=True, input=stdin
    )


def test_cli_list():
    proc = _cli("list")
    assert proc.returncode == 0
    assert "ko_cipher_hard" in proc.stdout and "ko_jamo_easy" in proc.stdout
    assert "of 75 configs implemented" in proc.stdout


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_cli_generate_verify_roundtrip(tmp_path, suffix):
    out = tmp_path / f"items{suffix}"
    proc = _cli("generate", "--config", "jamo_ko_medium", "--n", "5", "--out", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    proc = _cli("verify", str(out), "--quiet")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "5 verified, 0 failed" in proc.stdout


def test_cli_verify_fails_on_tampered_item(tmp_path):
    out = tmp_path / "items.jsonl"
    assert _cli("generate", "--config", CONFIG, "--n", "3", "--out", str(out), "--quiet").returncode == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    item = json.loads(lines[1])
    item["answer"] = item["answer"][::-1] + "가"
    lines[1] = json.dumps(item, ensure_ascii=False)
    lines.append("{not json")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = _cli("verify", str(out), "--quiet")
    assert proc.returncode == 1
    assert "2 verified, 2 failed" in proc.stdout
    assert "line 4: not JSON" in proc.stdout


def test_cli_errors_are_clear(tmp_path):
    proc = _cli("generate", "--config", "ko_jamo_eazy", "--out", str(tmp_path / "a.jsonl"))
    assert proc.returncode == 2 and "Did you mean" in proc.stderr and "Traceback" not in proc.stderr
    proc = _cli("generate", "--config", CONFIG, "--out", str(tmp_path / "a.csv"))
    assert proc.returncode == 2 and ".jsonl or .parquet" in proc.stderr
    proc = _cli("generate", "--config", CONFIG, "--n", "0", "--out", str(tmp_path / "a.jsonl"))
    assert proc.returncode == 2 and "n must be" in proc.stderr
    assert not list(tmp_path.iterdir())  # nothing half-written


def test_cli_score_reads_stdin():
    item = nolli.generate(CONFIG, 0, 0)
    proc = _cli(
        "score", "--config", CONFIG, "--answer", item["answer"], stdin=f"풀이...\n정답: {item['answer']}\n"
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["correct"] is True


def test_small_space_types_redraw_repeats_deterministically():
    from generators.seeding import item_seed

    for seed in range(1, 80):
        items = list(nolli.iter_items("ko_time_easy", seed))
        redrawn = [i for i, it in enumerate(items) if it["seed"] != item_seed("ko_time_easy", seed, i)]
        if redrawn:
            break
    else:
        pytest.fail("no base seed in 1..79 needed a redraw; the test cannot exercise it")
    assert len({it["question"] for it in items}) == len(items)
    i = redrawn[0]
    assert nolli.generate("ko_time_easy", seed, i) == items[i]
    assert nolli.regenerate(items[i]) == items[i]
