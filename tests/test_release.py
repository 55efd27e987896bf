"""Release tooling: manifest, build, card, loading with plain `datasets`, push plan, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import datasets
import pytest
from conftest import KOBALT_DIR, ROOT

import nolli
import release

CONFIGS = ["ko_jamo_easy", "ko_jamo_medium", "en_sudoku_easy"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("rel")
    report = release.build(
        out,
        configs=CONFIGS,
        kobalt_source=KOBALT_DIR / "kobalt-700.ko-labels.json",
        jobs=2,
        progress=False,
        manifest=out / "none.json",
    )
    return out, report


def test_build_layout_and_card(built):
    out, report = built
    assert report["items"] == 300
    folder = out / "nolli"
    for c in CONFIGS:
        assert (folder / "data" / c / release.PARQUET_NAME).exists()
    header = release.read_card_header(folder)
    names = [e["config_name"] for e in header["configs"]]
    assert names == ["all", "ko_jamo", "en_sudoku", *CONFIGS]
    assert [e["config_name"] for e in header["configs"] if e.get("default")] == ["all"]
    assert header["license"] == "mit"
    counts = {i["config_name"]: i["splits"][0]["num_examples"] for i in header["dataset_info"]}
    assert counts == {"all": 300, "ko_jamo": 200, "en_sudoku": 100, **dict.fromkeys(CONFIGS, 100)}
    # Metadata columns are plain strings, not the Json() feature type.
    feats = {f["name"]: f for f in header["dataset_info"][0]["features"]}
    assert feats["instance"] == {"name": "instance", "dtype": "string"}
    assert not list(out.glob(".*"))  # no temporary folders left


def test_plain_datasets_loads_every_config_and_streams(built):
    out, _ = built
    folder = out / "nolli"
    items = list(nolli.iter_items("ko_jamo_medium"))
    ds = datasets.load_dataset(str(folder), "ko_jamo_medium", split="test", cache_dir=str(out / "cache"))
    assert ds.num_rows == 100
    assert ds[5] == items[5]
    stream = datasets.load_dataset(str(folder), "ko_jamo", split="test", streaming=True)
    ids = [row["id"] for row in stream]
    assert len(ids) == 200 and ids[0] == "ko_jamo_easy_0000"
    assert release.check_folder(folder, progress=False) == []


def test_check_folder_detects_schema_mismatch(built, tmp_path):
    import shutil

    import pyarrow as pa
    import pyarrow.parquet as pq

    out, _ = built
    copy = tmp_path / "nolli"
    shutil.copytree(out / "nolli", copy)
    target = copy / "data" / "ko_jamo_easy" / release.PARQUET_NAME
    table = pq.read_table(target)
    table = table.set_column(
        table.schema.get_field_index("seed"), "seed", pa.array([str(x) for x in table["seed"].to_pylist()])
    )
    pq.write_table(table, target)
    problems = release.check_folder(copy, progress=False)
    assert any("ko_jamo_easy" in p and "schema" in p for p in problems)


def test_parquet_bytes_identical_when_built_twice(built, tmp_path):
    out, _ = built
    again = release.build(
        tmp_path,
        configs=CONFIGS,
        kobalt_source=None,
        jobs=1,
        check=False,
        progress=False,
        manifest=tmp_path / "none.json",
    )
    for c in CONFIGS:
        rel = f"data/{c}/{release.PARQUET_NAME}"
        assert (out / "nolli" / rel).read_bytes() == (tmp_path / "nolli" / rel).read_bytes()
    assert (out / "nolli" / "README.md").read_text() == (tmp_path / "nolli" / "README.md").read_text()
    assert again["kobalt"] is None or again["kobalt"]


def test_kobalt_release_folder(built):
    out, _ = built
    folder = out / "kobalt"
    header = release.read_card_header(folder)
    assert header["license"] == "cc-by-nc-4.0"
    assert len(header["configs"]) == 33
    ds = datasets.load_dataset(str(folder), "level_1", split="test", cache_dir=str(out / "kcache"))
    assert ds.num_rows == 182
    assert len(ds[0]["options"]) == 10


def test_manifest_round_trip_and_detects_a_changed_item():
    items = release.generate_all(["ko_jamo_easy"], jobs=1, progress=False)
    manifest = json.loads(json.dumps(release.manifest_for(items)))
    assert release.compare(manifest, items) == []
    changed = {"ko_jamo_easy": [dict(it) for it in items["ko_jamo_easy"]]}
    changed["ko_jamo_easy"][17]["question"] += " "
    problems = release.compare(manifest, changed)
    assert problems == [problems[0]] and problems[0].startswith("ko_jamo_easy_0017: content differs")


def test_frozen_manifest_matches_regeneration():
    """The committed splits/nolli.json is reproduced byte for byte (a sample of its configs)."""
    path = release.SPLITS / "nolli.json"
    if not path.exists():
        pytest.fail("splits/nolli.json is missing: run `nolli release freeze`")
    manifest = release.load_manifest(path)
    sample = sorted(manifest["configs"])[::9]
    items = release.generate_all(sample, jobs=1, progress=False)
    assert release.compare(manifest, items) == []


def test_dry_run_push_plan(built, capsys):
    out, _ = built
    ops = release.push(out / "nolli", "someorg/nolli", tag="v1.0", dry_run=True)
    paths = [o["path_in_repo"] for o in ops]
    assert "README.md" in paths and f"data/ko_jamo_easy/{release.PARQUET_NAME}" in paths
    printed = capsys.readouterr().out
    assert "sha256:" in printed and "in one commit" in printed


def test_push_without_token_is_a_clear_error(built, monkeypatch, tmp_path):
    out, _ = built
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    monkeypatch.delenv("HF_TOKEN", raising=False)
    with pytest.raises(release.ReleaseError, match="no Hugging Face token"):
        release.push(out / "nolli", "someorg/nolli", log=lambda s: None)
    with pytest.raises(release.ReleaseError, match="ORG/NAME"):
        release.push(out / "nolli", "no-slash", dry_run=True)


def _cli(*args):
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    return subprocess.run(
        [sys.executable, "-m", "nolli", *args], cwd=ROOT, capture_output=True, text=True, env=env
    )


def test_bad_input_gives_clear_errors_and_no_partial_folder(tmp_path):
    proc = _cli("build", "--out", str(tmp_path / "a"), "--configs", "ko_jamo_eazy", "--quiet")
    assert proc.returncode == 2 and "Did you mean" in proc.stderr and "Traceback" not in proc.stderr
    proc = _cli(
        "build",
        "--out",
        str(tmp_path / "b"),
        "--configs",
        "ko_jamo_easy",
        "--kobalt-source",
        str(tmp_path / "missing.json"),
        "--quiet",
    )
    assert proc.returncode == 2 and "KoBALT source not found" in proc.stderr
    assert not (tmp_path / "b" / "nolli").exists()
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):  # running as root: simulate with a file in the way instead
            blocker = tmp_path / "file"
            blocker.write_text("x")
            proc = _cli("build", "--out", str(blocker), "--configs", "ko_jamo_easy", "--quiet")
        else:
            proc = _cli("build", "--out", str(locked), "--configs", "ko_jamo_easy", "--quiet")
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert "not a folder" in proc.stderr or "not writable" in proc.stderr
    finally:
        locked.chmod(0o700)
    assert not list(locked.iterdir())


def test_build_without_kobalt_says_how_to_add_it(tmp_path):
    env_free = _cli("build", "--out", str(tmp_path), "--configs", "ko_jamo_easy", "--quiet", "--no-check")
    assert env_free.returncode == 0, env_free.stderr
    assert "--kobalt-source" in env_free.stdout


def test_kobalt_source_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("KOBALT_SOURCE", str(KOBALT_DIR / "kobalt-700.en-labels.json"))
    assert release._kobalt_source(None) is not None
    monkeypatch.delenv("KOBALT_SOURCE")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    assert release._kobalt_source(None) is None
    with pytest.raises(release.ReleaseError, match="not found"):
        release._kobalt_source(tmp_path / "nope.json")
