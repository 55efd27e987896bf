"""Stable seed derivation.

Seeds are derived with SHA-256 over a text key, never with ``hash()`` (salted per process) and never
as ``base_seed + index`` (which makes adjacent base seeds shifted copies of one another).
"""

from __future__ import annotations

import hashlib
import random

SEED_BITS = 63  # fits a signed int64 column


def derive_seed(*parts: object) -> int:
    """A 63-bit integer derived from ``parts`` (joined with ``|``) by SHA-256."""
    text = "|".join(str(p) for p in parts)
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") & ((1 << SEED_BITS) - 1)


def item_seed(pairing_key: str, base_seed: int, index: int) -> int:
    """The seed of item ``index`` of a config generated with ``base_seed``."""
    return derive_seed("nolli", pairing_key, base_seed, index)


def rng_for(seed: int, *salt: object) -> random.Random:
    """A private ``random.Random`` for ``seed`` (optionally salted for an independent stream)."""
    return random.Random(derive_seed("rng", seed, *salt) if salt else seed)
