"""NOLLI puzzle generators and the registry of all 75 configs.

Every puzzle type lives in its own module ``generators/<type>.py`` that defines ``PUZZLE``, an
instance of :class:`generators.base.Puzzle`. The registry below knows all 15 types (and so all 75
configs) from day one; a type counts as *implemented* once its module exists and defines ``PUZZLE``.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
from dataclasses import dataclass
from functools import cache

TIERS = ("easy", "medium", "hard")
LANGS = ("en", "ko")

DIRECT = "direct_translation"
SCRIPT = "script_adaptation"
KOREAN = "korean_only"

# type -> category, in the order of the spec README table.
TYPES: dict[str, str] = {
    "array_formula": DIRECT,
    "causal_dag": DIRECT,
    "inequality": DIRECT,
    "minesweeper": DIRECT,
    "number_baseball": DIRECT,
    "sat": DIRECT,
    "sudoku": DIRECT,
    "yacht_dice": DIRECT,
    "cipher": SCRIPT,
    "cryptarithmetic": SCRIPT,
    "kinship": KOREAN,
    "saju": KOREAN,
    "time": KOREAN,
    "jamo": KOREAN,
    "korean_units": KOREAN,
}

# Names the reference release uses for a task, where they differ from ours.
REFERENCE_TASK_NAMES = {"sat_puzzles": "sat", "sat_puzzle": "sat"}


class UnknownConfigError(ValueError):
    """A config name that is not one of the 75 NOLLI configs (or an alias of one)."""


class NotImplementedConfigError(NotImplementedError):
    """A config that exists in NOLLI but whose generator is not implemented yet."""


@dataclass(frozen=True)
class ConfigInfo:
    name: str  # {lang}_{task}_{tier}
    task: str
    lang: str
    tier: str
    category: str

    @property
    def pairing_key(self) -> str:
        """Key the item seeds are derived from.

        Direct-translation types drop the language, so ``en_sat_hard`` and ``ko_sat_hard`` draw the
        same latent instance for the same base seed and index (item-paired). Every other type uses
        the full config name.
        """
        if self.category == DIRECT:
            return f"{self.task}_{self.tier}"
        return self.name


def languages(task: str) -> tuple[str, ...]:
    return ("ko",) if TYPES[task] == KOREAN else LANGS


def all_configs() -> list[ConfigInfo]:
    out = []
    for task, category in TYPES.items():
        for lang in languages(task):
            for tier in TIERS:
                out.append(ConfigInfo(f"{lang}_{task}_{tier}", task, lang, tier, category))
    return out


_BY_NAME = {c.name: c for c in all_configs()}
assert len(_BY_NAME) == 75


def _alias(name: str) -> str | None:
    """Map a reference-style name (``cipher_ko_hard``, ``sat_puzzles_en_easy``) to ours."""
    parts = name.split("_")
    if len(parts) < 3:
        return None
    tier, lang, task = parts[-1], parts[-2], "_".join(parts[:-2])
    task = REFERENCE_TASK_NAMES.get(task, task)
    if lang in LANGS and tier in TIERS:
        return f"{lang}_{task}_{tier}"
    # Our order with a reference task name: en_sat_puzzles_easy.
    lang, task, tier = parts[0], "_".join(parts[1:-1]), parts[-1]
    task = REFERENCE_TASK_NAMES.get(task, task)
    return f"{lang}_{task}_{tier}"


def resolve(name: str) -> ConfigInfo:
    """Return the config for ``name`` (ours or a reference-style alias), or raise a helpful error."""
    if not isinstance(name, str):
        raise UnknownConfigError(f"config name must be a string, got {type(name).__name__}")
    key = name.strip().lower().replace("-", "_")
    if key in _BY_NAME:
        return _BY_NAME[key]
    alias = _alias(key)
    if alias in _BY_NAME:
        return _BY_NAME[alias]
    close = difflib.get_close_matches(key, list(_BY_NAME), n=3, cutoff=0.5)
    hint = f" Did you mean: {', '.join(close)}?" if close else ""
    raise UnknownConfigError(
        f"unknown NOLLI config {name!r}.{hint} Configs are named {{lang}}_{{task}}_{{tier}}, "
        f"e.g. ko_cipher_hard; run `nolli list` to see all 75."
    )


@cache
def _module(task: str):
    if importlib.util.find_spec(f"generators.{task}") is None:
        return None
    return importlib.import_module(f"generators.{task}")


def is_implemented(task: str) -> bool:
    mod = _module(task)
    return mod is not None and hasattr(mod, "PUZZLE")


def puzzle_for(info: ConfigInfo):
    """The :class:`~generators.base.Puzzle` for a config; raises if the type is not implemented."""
    if not is_implemented(info.task):
        raise NotImplementedConfigError(
            f"config {info.name!r} is part of NOLLI but its generator ({info.task}) is not implemented yet; "
            f"implemented configs: run `nolli list`."
        )
    return _module(info.task).PUZZLE


def implemented_configs() -> list[ConfigInfo]:
    return [c for c in all_configs() if is_implemented(c.task)]
