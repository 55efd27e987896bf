"""Shared fixtures: the shared/ folder beside the project, reference responses, cached items."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
REFERENCE_RESPONSES = SHARED / "reference" / "responses-dev.jsonl"
KOBALT_DIR = SHARED / "kobalt"


@cache
def reference_rows() -> tuple[dict, ...]:
    with open(REFERENCE_RESPONSES, encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


@cache
def release_items(config: str) -> tuple[dict, ...]:
    """The 100 items of ``config`` with the default base seed (generated once per test session)."""
    import nolli

    return tuple(nolli.iter_items(config))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.exists():
        pytest.fail(f"../shared is missing (expected at {SHARED})")
    return SHARED
