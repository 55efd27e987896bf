"""The shape every NOLLI puzzle type follows.

tier levers -> ``sample`` a latent instance from a seeded RNG -> ``render`` it in EN or KO ->
``gold`` answer -> ``check`` it by an independent method -> ``extract``/``matches`` for scoring.

A type module defines a subclass of :class:`Puzzle` and a module-level ``PUZZLE`` instance. The
base class turns those hooks into items of the contract in ``../shared/spec/README.md`` and runs
verification on every item before it is emitted.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from . import ConfigInfo

# Bumped when the item contract or shared machinery changes in a way that changes items.
CORE_VERSION = "1"
MAX_ATTEMPTS = 10_000
# Responses longer than this are judged on their last MAX_RESPONSE_CHARS characters (answers
# come at the end); it bounds the work a garbage response can cause.
MAX_RESPONSE_CHARS = 200_000


class Reject(Exception):
    """Raised by ``sample`` when a candidate instance is unsuitable; generation retries."""


class VerificationError(Exception):
    """Raised by ``check`` with the reason an item is not verified."""


def dumps(obj: Any) -> str:
    """Canonical JSON used for ``instance``, ``levers`` and content hashes."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


@dataclass
class VerifyResult:
    """Truthy exactly when the item is verified; ``reasons`` says why not otherwise."""

    ok: bool
    reasons: list[str] = field(default_factory=list)
    item_id: str | None = None

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        who = f"{self.item_id}: " if self.item_id else ""
        return f"{who}verified" if self.ok else f"{who}NOT verified: " + "; ".join(self.reasons)


class Puzzle:
    """Base class of a puzzle type. Subclasses set ``name``, ``version``, ``levers`` and the hooks."""

    name: str = ""
    version: str = "1"
    # tier -> lever dict (JSON-serialisable); the tier's difficulty parameters.
    levers: dict[str, dict[str, Any]] = {}
    # True when two items of a config can plausibly share a question (a small question space):
    # repeats are then redrawn deterministically instead of raising (see nolli.iter_items).
    small_space: bool = False

    # ---- hooks -------------------------------------------------------------------------------
    def sample(self, rng: random.Random, levers: dict[str, Any], lang: str) -> dict[str, Any]:
        """Draw a latent instance (JSON-serialisable). Raise :class:`Reject` to retry.

        Direct-translation types must not use ``lang`` (EN and KO are item-paired)."""
        raise NotImplementedError

    def render(self, instance: dict[str, Any], lang: str, levers: dict[str, Any]) -> str:
        """The complete, self-contained prompt, stating the answer format."""
        raise NotImplementedError

    def gold(self, instance: dict[str, Any], lang: str) -> str:
        """The canonical gold answer string."""
        raise NotImplementedError

    def solution(self, instance: dict[str, Any], lang: str) -> str:
        """A worked solution trace (optional)."""
        return ""

    def check(self, item: dict[str, Any], instance: dict[str, Any]) -> None:
        """Independent verification: the gold is correct and the only answer the question admits.

        Must not reuse the generator's solving logic. Raise :class:`VerificationError` on failure."""
        raise NotImplementedError

    def extract(self, response: str, answer: str, lang: str) -> str | None:
        """The answer found in a free-form response (reference-judge compatible), or None."""
        raise NotImplementedError

    def matches(self, extracted: str, answer: str, lang: str) -> bool:
        """Whether an extracted answer equals the gold."""
        return " ".join(extracted.split()) == " ".join(answer.split())

    # ---- machinery ---------------------------------------------------------------------------
    def generator_version(self) -> str:
        return f"{CORE_VERSION}.{self.name}-{self.version}"

    def tier_levers(self, tier: str) -> dict[str, Any]:
        return self.levers[tier]

    def build(self, info: ConfigInfo, seed: int, index: int) -> dict[str, Any]:
        """The item of ``info`` whose item seed is ``seed`` (``index`` only names it)."""
        levers = self.tier_levers(info.tier)
        rng = random.Random(seed)
        failures: list[str] = []
        for _attempt in range(MAX_ATTEMPTS):
            try:
                instance = self.sample(rng, levers, info.lang)
            except Reject:
                continue
            item = self._item(info, seed, index, instance, levers)
            result = self.verify(item)
            if result:
                return item
            failures.append("; ".join(result.reasons))
        raise RuntimeError(
            f"{info.name} seed {seed}: no verified item after {MAX_ATTEMPTS} attempts "
            f"(last failures: {failures[-3:]})"
        )

    def _item(self, info, seed, index, instance, levers) -> dict[str, Any]:
        return {
            "id": f"{info.name}_{index:04d}",
            "config": info.name,
            "task": info.task,
            "lang": info.lang,
            "tier": info.tier,
            "category": info.category,
            "seed": seed,
            "question": self.render(instance, info.lang, levers),
            "answer": self.gold(instance, info.lang),
            "instance": dumps(instance),
            "levers": dumps(levers),
            "solution": self.solution(instance, info.lang),
            "generator_version": self.generator_version(),
        }

    def verify(self, item: dict[str, Any]) -> VerifyResult:
        item_id = item.get("id") if isinstance(item, dict) else None
        try:
            instance = json.loads(item["instance"])
            if not isinstance(item["question"], str) or not item["question"].strip():
                raise VerificationError("empty question")
            if not isinstance(item["answer"], str) or not item["answer"].strip():
                raise VerificationError("empty answer")
            levers = json.loads(item["levers"])
            if item["question"] != self.render(instance, item["lang"], levers):
                raise VerificationError("question text does not match the instance")
            self.check(item, instance)
        except VerificationError as exc:
            return VerifyResult(False, [str(exc)], item_id)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            return VerifyResult(False, [f"malformed item ({type(exc).__name__}: {exc})"], item_id)
        return VerifyResult(True, [], item_id)

    def extract_answer(self, response: Any, answer: str, lang: str) -> str | None:
        if not isinstance(response, str) or not response.strip():
            return None
        if len(response) > MAX_RESPONSE_CHARS:
            response = response[-MAX_RESPONSE_CHARS:]
        return self.extract(response, answer, lang)

    def score(self, response: Any, answer: str, lang: str) -> bool:
        found = self.extract_answer(response, answer, lang)
        if found is None:
            return False
        return bool(self.matches(found, answer, lang))
