"""The item contract, for every implemented config (all 100 items of each)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT, release_items

import generators
import nolli

IMPLEMENTED = [c.name for c in generators.implemented_configs()]
DIRECT_PAIRS = [
    (c.name, f"ko_{c.task}_{c.tier}")
    for c in generators.implemented_configs()
    if c.category == generators.DIRECT and c.lang == "en"
]


def test_registry_has_75_configs():
    names = [c.name for c in generators.all_configs()]
    assert len(names) == len(set(names)) == 75
    assert sum(c.lang == "ko" for c in generators.all_configs()) == 45


@pytest.mark.parametrize("config", IMPLEMENTED)
def test_every_item_verifies_and_is_well_formed(config):
    items = release_items(config)
    assert len(items) == 100
    info = generators.resolve(config)
    for index, item in enumerate(items):
        assert list(item) == nolli.FIELDS
        assert item["id"] == f"{config}_{index:04d}"
        assert (item["config"], item["task"], item["lang"], item["tier"], item["category"]) == (
            config,
            info.task,
            info.lang,
            info.tier,
            info.category,
        )
        assert isinstance(json.loads(item["instance"]), dict)
        assert json.loads(item["levers"]) == generators.puzzle_for(info).levers[info.tier]
        result = nolli.verify(item)
        assert result, str(result)
        # The gold scores as correct when stated in the requested format.
        assert nolli.score(config, f"...\nAnswer: {item['answer']}", item["answer"]), item["id"]


@pytest.mark.parametrize("config", IMPLEMENTED)
def test_no_duplicate_questions(config):
    questions = [item["question"] for item in release_items(config)]
    assert len(set(questions)) == len(questions)


@pytest.mark.parametrize("config", IMPLEMENTED)
def test_generate_equals_load_row_and_regenerates_from_seed(config):
    items = release_items(config)
    for index in (0, 37, 99):
        assert nolli.generate(config, 0, index) == items[index]
        assert nolli.regenerate(items[index]) == items[index]


@pytest.mark.parametrize("en,ko", DIRECT_PAIRS)
def test_direct_types_are_item_paired(en, ko):
    for a, b in zip(release_items(en), release_items(ko), strict=True):
        assert a["instance"] == b["instance"]
        assert a["seed"] == b["seed"]
        assert a["question"] != b["question"]


def test_adjacent_base_seeds_are_not_shifted_copies():
    config = IMPLEMENTED[0]
    seed0 = [nolli.generate(config, 0, i)["question"] for i in range(1, 6)]
    seed1 = [nolli.generate(config, 1, i)["question"] for i in range(0, 5)]
    assert not set(seed0) & set(seed1)


_HASH_SCRIPT = """
import hashlib, json, sys, generators, nolli
out = {}
for info in generators.implemented_configs():
    for i in (0, 1, 2):
        out[f"{info.name}/{i}"] = nolli.item_hash(nolli.generate(info.name, 3, i))
print(json.dumps(out, sort_keys=True))
"""


def test_byte_identical_regeneration_across_processes_and_hash_seeds():
    outputs = []
    for hash_seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        proc = subprocess.run(
            [sys.executable, "-c", _HASH_SCRIPT],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.append(json.loads(proc.stdout))
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) == 3 * len(IMPLEMENTED)
    # And equal to this process.
    for key, digest in outputs[0].items():
        config, index = key.split("/")
        assert nolli.item_hash(nolli.generate(config, 3, int(index))) == digest
