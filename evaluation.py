"""Evaluation: turn model responses into the numbers of the NOLLI and KoBALT papers.

Users run a model elsewhere and bring back a JSON Lines file, one object per line::

    {"id": "ko_cipher_hard_0042", "response": "... 정답: ...", "model": "my-model"}

(``model`` is optional; without it the file name stands for the model). Then::

    nolli evaluate  --predictions preds.jsonl [--release DIR] [--json] [--plots DIR]
    kobalt evaluate --predictions preds.jsonl [--source PATH] [--json] [--plots DIR]

NOLLI gold answers come from regenerating the configs (``nolli.iter_items(config, seed 0, n 100)``) or
from a release folder (``DIR/data/<config>/test-00000-of-00001.parquet``); the config of a prediction
is read from its id (``ko_cipher_hard_0042`` -> ``ko_cipher_hard``). Every item of every evaluated
config counts: an item without a prediction is wrong, and the report says how many there were.

Statistics (all implemented here in pure Python; tests check them against scipy/statsmodels):

* accuracy of a config, a task-language, a tier: proportion with a 95% **Wilson score** interval;
* the NOLLI paper's **macro average** over the 25 task-languages (each task-language pooled over its
  three tiers): the unweighted mean of the task-language accuracies, with a normal-approximation
  interval from ``Var = sum p_k (1 - p_k) / n_k / K^2`` (independent proportions);
* EN-KO presentation-language analysis (the 8 direct-translation types): gap = KO - EN in points,
  equivalence within +-10 points by **two one-sided tests (TOST)**: a paired t-test on the per-item
  differences where the EN and KO items are the same puzzles (our regenerated configs always are), a
  Welch t-test otherwise; p_TOST = max of the two one-sided p-values; **Holm** correction across the
  tasks tested; equivalence is claimed when the Holm-adjusted p < 0.05 (equivalently, at the
  uncorrected level, when the 90% interval of the gap lies inside +-10).

The module also writes the lm-evaluation-harness tasks (``write_lm_eval_tasks``)::

    python evaluation.py lm-eval-tasks [--out lm_eval_tasks] [--nolli-dataset HAERAE-HUB/NOLLI]
                                       [--kobalt-dataset HAERAE-HUB/KoBALT]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Any

__all__ = [
    "wilson",
    "macro_ci",
    "t_cdf",
    "t_ppf",
    "tost_paired",
    "tost_welch",
    "holm",
    "read_predictions",
    "evaluate_nolli",
    "evaluate_kobalt",
    "nolli_main",
    "kobalt_main",
    "write_lm_eval_tasks",
    "EvaluationError",
    "EQUIVALENCE_MARGIN",
    "NOLLI_DATASET",
    "KOBALT_DATASET",
]

CONFIDENCE = 0.95
ALPHA = 0.05
EQUIVALENCE_MARGIN = 0.10  # +-10 points, as in the NOLLI paper
N_TASK_LANGS = 25
TIERS = ("easy", "medium", "hard")
PARQUET_NAME = "test-00000-of-00001.parquet"
MAX_LISTED_MD = 50  # problems listed one by one in Markdown (JSON always lists all)

WILSON_METHOD = "Wilson score interval (95%)"
MACRO_METHOD = (
    "unweighted mean of the task-language accuracies; 95% normal-approximation interval with "
    "Var = sum_k p_k (1 - p_k) / n_k / K^2 (independent proportions)"
)
TOST_METHOD = (
    "two one-sided tests (TOST) for |KO - EN| < 10 points: paired t-test on per-item differences "
    "where EN and KO items are the same puzzles, Welch t-test otherwise; p_TOST = max(p_lower, p_upper); "
    "Holm correction across the tasks tested; equivalent when the Holm-adjusted p < 0.05; "
    "the 90% t interval of the gap is the one TOST inverts"
)


class EvaluationError(ValueError):
    """Input that cannot be evaluated at all (no file, no usable line, bad gold source)."""


# =============================================================================================
# Statistics
# =============================================================================================
def _z(confidence: float) -> float:
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(k: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of a proportion k/n (``(nan, nan)`` when n == 0)."""
    if n <= 0:
        return (math.nan, math.nan)
    z = _z(confidence)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def macro_ci(counts: Sequence[tuple[int, int]], confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """(mean, low, high) of the unweighted mean of proportions k_i/n_i, normal approximation."""
    props = [(k / n, n) for k, n in counts if n > 0]
    if not props:
        return (math.nan, math.nan, math.nan)
    K = len(props)
    mean = sum(p for p, _ in props) / K
    var = sum(p * (1 - p) / n for p, n in props) / (K * K)
    half = _z(confidence) * math.sqrt(var)
    return (mean, max(0.0, mean - half), min(1.0, mean + half))


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float, y: float | None = None) -> float:
    """Regularised incomplete beta function I_x(a, b); ``y`` = 1 - x computed without cancellation."""
    y = 1.0 - x if y is None else y
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(y)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _betacf(b, a, y) / b


def t_cdf(t: float, df: float) -> float:
    """Cumulative distribution function of Student's t with ``df`` degrees of freedom."""
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    if t == 0:
        return 0.5
    t2 = t * t
    if t2 < df:  # I_x(df/2, 1/2) with x = df / (df + t^2) near 1: use the complement
        tail = 0.5 * (1.0 - betainc(0.5, df / 2.0, t2 / (df + t2), df / (df + t2)))
    else:
        tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t2), t2 / (df + t2))
    return 1.0 - tail if t > 0 else tail


def t_ppf(q: float, df: float) -> float:
    """Quantile of Student's t (bisection on ``t_cdf``; |error| < 1e-12)."""
    if not 0.0 < q < 1.0:
        raise ValueError(f"q must be in (0, 1), got {q}")
    lo, hi = -1.0, 1.0
    while t_cdf(lo, df) > q:
        lo *= 2.0
    while t_cdf(hi, df) < q:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13:
            break
    return (lo + hi) / 2.0


def _mean_var(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, var


def _tost(diff: float, se: float, df: float, low: float, upp: float) -> dict[str, Any]:
    if se > 0 and df > 0:
        t_low = (diff - low) / se
        t_upp = (diff - upp) / se
        p_low = 1.0 - t_cdf(t_low, df)  # H0: diff <= low
        p_upp = t_cdf(t_upp, df)  # H0: diff >= upp
        half = t_ppf(1.0 - ALPHA, df) * se
        ci = (diff - half, diff + half)
    else:  # no variation at all: the difference is known exactly
        t_low = t_upp = math.nan
        p_low = 0.0 if diff > low else 1.0
        p_upp = 0.0 if diff < upp else 1.0
        ci = (diff, diff)
    return {
        "diff": diff,
        "se": se,
        "df": df,
        "t_lower": t_low,
        "t_upper": t_upp,
        "p_lower": p_low,
        "p_upper": p_upp,
        "p": max(p_low, p_upp),
        "ci90": ci,
    }


def tost_paired(
    x: Sequence[float], y: Sequence[float], low: float = -EQUIVALENCE_MARGIN, upp: float = EQUIVALENCE_MARGIN
) -> dict[str, Any]:
    """TOST of mean(y - x) in (low, upp) for paired samples (paired t-test on the differences).

    Equal to ``statsmodels.stats.weightstats.ttost_paired(y, x, low, upp)``."""
    if len(x) != len(y) or len(x) < 2:
        raise ValueError("tost_paired needs two samples of the same length >= 2")
    d = [b - a for a, b in zip(x, y, strict=True)]
    mean, var = _mean_var(d)
    n = len(d)
    out = _tost(mean, math.sqrt(var / n), n - 1, low, upp)
    out["n"] = n
    return out


def tost_welch(
    x: Sequence[float], y: Sequence[float], low: float = -EQUIVALENCE_MARGIN, upp: float = EQUIVALENCE_MARGIN
) -> dict[str, Any]:
    """TOST of mean(y) - mean(x) in (low, upp) for independent samples (Welch t-test).

    Equal to ``statsmodels.stats.weightstats.ttost_ind(y, x, low, upp, usevar="unequal")``."""
    if len(x) < 2 or len(y) < 2:
        raise ValueError("tost_welch needs two samples of size >= 2")
    mx, vx = _mean_var(x)
    my, vy = _mean_var(y)
    nx, ny = len(x), len(y)
    ax, ay = vx / nx, vy / ny
    se = math.sqrt(ax + ay)
    df = (ax + ay) ** 2 / (ax * ax / (nx - 1) + ay * ay / (ny - 1)) if se > 0 else 0.0
    out = _tost(my - mx, se, df, low, upp)
    out["n"] = (nx, ny)
    return out


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values (as ``multipletests(method="holm")``)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: (pvalues[i], i))
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


# =============================================================================================
# Reading predictions
# =============================================================================================
@dataclass
class Prediction:
    line: int
    id: str
    response: str
    model: str


@dataclass
class Problems:
    malformed: list[dict[str, Any]] = field(default_factory=list)  # line, reason
    unknown: list[dict[str, Any]] = field(default_factory=list)  # line, id, model, reason
    duplicate: list[dict[str, Any]] = field(default_factory=list)  # line, id, model, first_line, same

    def bad_input(self) -> bool:
        return bool(self.malformed or self.unknown or self.duplicate)


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def read_predictions(
    path: str | os.PathLike, default_model: str | None = None
) -> tuple[list[Prediction], Problems]:
    """Predictions of a JSON Lines file and the malformed lines (by line number); never raises on
    a bad line. Raises EvaluationError when the file is missing or unreadable."""
    path = Path(path)
    if not path.exists():
        raise EvaluationError(f"predictions file not found: {path}")
    if path.is_dir():
        raise EvaluationError(f"predictions path is a folder, not a JSON Lines file: {path}")
    model_default = default_model or path.stem
    preds: list[Prediction] = []
    problems = Problems()
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            if not raw.strip():
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                problems.malformed.append(
                    {"line": lineno, "reason": f"not UTF-8 ({exc.reason} at byte {exc.start})"}
                )
                continue
            try:
                obj = json.loads(text.rstrip("\r\n"))
            except (json.JSONDecodeError, RecursionError) as exc:
                reason = (
                    f"not valid JSON: {exc.msg} (column {exc.colno})"
                    if isinstance(exc, json.JSONDecodeError)
                    else "not valid JSON (nested too deeply)"
                )
                problems.malformed.append({"line": lineno, "reason": reason})
                continue
            if not isinstance(obj, dict):
                problems.malformed.append(
                    {"line": lineno, "reason": f"a JSON {type(obj).__name__}, not an object"}
                )
                continue
            pid = obj.get("id")
            if not isinstance(pid, str) or not pid.strip():
                problems.malformed.append({"line": lineno, "reason": 'no "id" (a non-empty string)'})
                continue
            if "response" not in obj:
                problems.malformed.append({"line": lineno, "reason": f'no "response" (id {pid.strip()})'})
                continue
            model = obj.get("model")
            model = model.strip() if isinstance(model, str) and model.strip() else model_default
            preds.append(Prediction(lineno, pid.strip(), _as_text(obj["response"]), model))
    return preds, problems


def _models_in_order(preds: Iterable[Prediction]) -> list[str]:
    out: list[str] = []
    for p in preds:
        if p.model not in out:
            out.append(p.model)
    return out


def _dedupe(preds: list[Prediction], problems: Problems) -> list[Prediction]:
    """First prediction of every (model, id); later ones are listed as duplicates."""
    first: dict[tuple[str, str], Prediction] = {}
    kept = []
    for p in preds:
        key = (p.model, p.id)
        if key in first:
            f = first[key]
            problems.duplicate.append(
                {
                    "line": p.line,
                    "id": p.id,
                    "model": p.model,
                    "first_line": f.line,
                    "same_response": p.response == f.response,
                }
            )
            continue
        first[key] = p
        kept.append(p)
    return kept


# =============================================================================================
# Accuracy tables
# =============================================================================================
def _cell(correct: int, n: int, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    lo, hi = wilson(correct, n)
    out = {"n": n, "correct": correct, "accuracy": correct / n if n else math.nan, "ci95": [lo, hi]}
    if extra:
        out.update(extra)
    return out


def _safe_score(fn: Callable[[], bool]) -> tuple[bool, str | None]:
    try:
        return bool(fn()), None
    except RecursionError:
        return False, "RecursionError"
    except Exception as exc:  # noqa: BLE001 - a scorer failure must not lose the whole report
        return False, f"{type(exc).__name__}: {str(exc)[:200]}"


def _ranges(indices: list[int]) -> str:
    """'0003, 0005-0009' for sorted item indices."""
    parts = []
    i = 0
    while i < len(indices):
        j = i
        while j + 1 < len(indices) and indices[j + 1] == indices[j] + 1:
            j += 1
        parts.append(f"{indices[i]:04d}" if i == j else f"{indices[i]:04d}-{indices[j]:04d}")
        i = j + 1
    return ", ".join(parts)


def _pct(x: float, digits: int = 1) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.{digits}f}"


def _ci_text(ci: Sequence[float]) -> str:
    lo, hi = ci
    if math.isnan(lo):
        return "-"
    return f"[{100 * lo:.1f}, {100 * hi:.1f}]"


def _p_text(p: float) -> str:
    if p is None or math.isnan(p):
        return "-"
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def _md_table(header: Sequence[str], rows: Iterable[Sequence[Any]], align: str | None = None) -> list[str]:
    align = align or ("l" + "r" * (len(header) - 1))
    sep = ["---:" if a == "r" else "---" for a in align]
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join(sep) + " |"]
    for r in rows:
        out.append("| " + " | ".join(str(c) for c in r) + " |")
    return out


def _json_clean(obj: Any) -> Any:
    """NaN/inf -> None, tuples -> lists (strict JSON)."""
    if isinstance(obj, float):
        return None if (math.isnan(obj) or math.isinf(obj)) else obj
    if isinstance(obj, dict):
        return {k: _json_clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_json_clean(v) for v in obj]
    return obj


def _problems_md(problems: Problems, lines: list[str]) -> None:
    def listing(items: list[dict[str, Any]], fmt: Callable[[dict[str, Any]], str]) -> None:
        for it in items[:MAX_LISTED_MD]:
            lines.append(f"- {fmt(it)}")
        if len(items) > MAX_LISTED_MD:
            lines.append(f"- ... and {len(items) - MAX_LISTED_MD} more (all are listed in the --json output)")

    if problems.malformed:
        lines += ["", f"**Malformed lines: {len(problems.malformed)}** (skipped)", ""]
        listing(problems.malformed, lambda it: f"line {it['line']}: {it['reason']}")
    if problems.unknown:
        lines += ["", f"**Unknown ids: {len(problems.unknown)}** (not scored)", ""]
        listing(
            problems.unknown, lambda it: f"line {it['line']}: `{it['id']}` ({it['model']}): {it['reason']}"
        )
    if problems.duplicate:
        lines += ["", f"**Duplicate ids: {len(problems.duplicate)}** (only the first prediction counts)", ""]
        listing(
            problems.duplicate,
            lambda it: (
                f"line {it['line']}: `{it['id']}` ({it['model']}) repeats line {it['first_line']}"
                + (" (same response)" if it["same_response"] else " (different response)")
            ),
        )


def _problems_json(problems: Problems) -> dict[str, Any]:
    return {
        "malformed_lines": problems.malformed,
        "unknown_ids": problems.unknown,
        "duplicate_ids": problems.duplicate,
    }


# =============================================================================================
# NOLLI: gold answers
# =============================================================================================
@dataclass
class GoldItem:
    id: str
    config: str  # canonical config name
    index: int
    answer: str


@dataclass
class NolliGold:
    source: str  # human description
    items: dict[str, GoldItem]
    configs: dict[str, list[str]]  # canonical config -> ids in order
    paired: dict[tuple[str, str], bool]  # (task, tier) -> EN and KO items are the same puzzles
    unavailable: dict[str, str] = field(default_factory=dict)  # config part of an id -> reason


def _split_id(item_id: str) -> tuple[str, int | None]:
    head, sep, tail = item_id.rpartition("_")
    if not sep or not tail.isdigit():
        return item_id, None
    return head, int(tail)


def _gen_config_answers(args: tuple[str, int, int]) -> tuple[str, list[tuple[str, int, str]]]:
    import nolli

    config, seed, n = args
    out = []
    for index, item in enumerate(nolli.iter_items(config, seed, n)):
        out.append((item["id"], index, item["answer"]))
    return config, out


def regenerate_gold(config_parts: Iterable[str], seed: int = 0, n: int = 100, jobs: int = 1) -> NolliGold:
    """Gold answers of the configs named by ``config_parts`` (config part of prediction ids), by
    regenerating them. Names that are not canonical configs or whose generator is missing are
    recorded in ``unavailable`` with the reason."""
    import generators

    unavailable: dict[str, str] = {}
    wanted: list[str] = []
    for part in config_parts:
        if part in wanted or part in unavailable:
            continue
        try:
            info = generators.resolve(part)
        except generators.UnknownConfigError:
            unavailable[part] = "not a NOLLI config"
            continue
        if info.name != part:
            unavailable[part] = (
                f"reference-style config name (ours: {info.name}); regenerated items have ids like "
                f"{info.name}_0042; pass --release DIR to score against another release"
            )
            continue
        if not generators.is_implemented(info.task):
            unavailable[part] = f"the {info.task} generator is not implemented, cannot regenerate"
            continue
        wanted.append(part)
    results: dict[str, list[tuple[str, int, str]]] = {}
    tasks = [(c, seed, n) for c in wanted]
    if jobs > 1 and len(tasks) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for config, rows in pool.map(_gen_config_answers, tasks):
                results[config] = rows
    else:
        for t in tasks:
            config, rows = _gen_config_answers(t)
            results[config] = rows
    items: dict[str, GoldItem] = {}
    configs: dict[str, list[str]] = {}
    for config in wanted:
        configs[config] = []
        for item_id, index, answer in results[config]:
            items[item_id] = GoldItem(item_id, config, index, answer)
            configs[config].append(item_id)
    paired: dict[tuple[str, str], bool] = {}
    for config in wanted:
        info = generators.resolve(config)
        if info.category == generators.DIRECT:
            paired[(info.task, info.tier)] = True  # item seeds leave the language out
    return NolliGold(f"regenerated (seed {seed}, n {n} per config)", items, configs, paired, unavailable)


def _release_files(release: Path) -> dict[str, Path]:
    """canonical config -> Parquet file of a release folder (tier configs only)."""
    import generators

    if not release.is_dir():
        raise EvaluationError(f"--release: not a folder: {release}")
    base = release / "data" if (release / "data").is_dir() else release
    found: dict[str, Path] = {}
    for sub in sorted(p for p in base.iterdir() if p.is_dir()):
        f = sub / PARQUET_NAME
        if not f.is_file():
            continue
        try:
            info = generators.resolve(sub.name)
        except generators.UnknownConfigError:
            continue  # aggregates such as `all` or `ko_cipher`
        if info.name in found:
            raise EvaluationError(
                f"--release: two folders hold config {info.name}: {found[info.name].parent.name}, {sub.name}"
            )
        found[info.name] = f
    if not found:
        raise EvaluationError(f"--release: no {base}/<config>/{PARQUET_NAME} files found")
    return found


def release_gold(release: str | os.PathLike) -> NolliGold:
    """Gold answers of every tier config of a release folder (Parquet files with ``id`` and ``answer``)."""
    import pyarrow.parquet as pq

    import generators

    release = Path(release)
    files = _release_files(release)
    items: dict[str, GoldItem] = {}
    configs: dict[str, list[str]] = {}
    instances: dict[str, dict[int, str]] = {}
    for config, path in files.items():
        try:
            schema = pq.read_schema(path)
            cols = [c for c in ("id", "answer", "instance") if c in schema.names]
            if "id" not in cols or "answer" not in cols:
                raise EvaluationError(f"--release: {path} has no 'id' and 'answer' columns")
            rows = pq.read_table(path, columns=cols).to_pylist()
        except EvaluationError:
            raise
        except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for damaged files
            raise EvaluationError(f"--release: cannot read {path}: {exc}") from None
        configs[config] = []
        inst: dict[int, str] = {}
        for pos, row in enumerate(rows):
            item_id = str(row["id"])
            _, index = _split_id(item_id)
            index = pos if index is None else index
            if item_id in items:
                raise EvaluationError(f"--release: id {item_id} occurs twice ({path})")
            items[item_id] = GoldItem(item_id, config, index, str(row["answer"]))
            configs[config].append(item_id)
            if "instance" in row and row["instance"] is not None:
                inst[index] = str(row["instance"])
        instances[config] = inst if len(inst) == len(rows) else {}
    paired: dict[tuple[str, str], bool] = {}
    for config in configs:
        info = generators.resolve(config)
        if info.category != generators.DIRECT or info.lang != "en":
            continue
        other = f"ko_{info.task}_{info.tier}"
        if other not in configs:
            continue
        a, b = instances[config], instances[other]
        paired[(info.task, info.tier)] = bool(a) and a == b
    return NolliGold(f"release folder {release}", items, configs, paired)


# =============================================================================================
# NOLLI: evaluation
# =============================================================================================
def _config_info(name: str):
    import generators

    return generators.resolve(name)


def evaluate_nolli(
    preds: list[Prediction],
    problems: Problems,
    gold: NolliGold,
    configs: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The full NOLLI report as a dict (see ``nolli_markdown`` for the layout)."""
    import generators
    import nolli

    preds = _dedupe(preds, problems)
    known: list[Prediction] = []
    for p in preds:
        if p.id in gold.items:
            known.append(p)
            continue
        part, index = _split_id(p.id)
        if part in gold.unavailable:
            reason = gold.unavailable[part]
        elif part in gold.configs:
            reason = f"no item with this id in {part} ({len(gold.configs[part])} items)"
        elif index is None:
            reason = "not an item id (expected {config}_{index}, e.g. ko_cipher_hard_0042)"
        else:
            try:
                name = generators.resolve(part).name
                if name in gold.configs:
                    reason = f"reference-style config name (ours: {name}); ids in the gold set look like {name}_0042"
                else:
                    reason = f"config {name} is not in the gold set ({gold.source})"
            except generators.UnknownConfigError:
                reason = "not a NOLLI config"
        problems.unknown.append({"line": p.line, "id": p.id, "model": p.model, "reason": reason})
    if configs is None:
        evaluated = [c for c in gold.configs if any(gold.items[p.id].config == c for p in known)]
    else:
        evaluated = []
        for c in configs:
            if c == "all":
                evaluated += [x for x in gold.configs if x not in evaluated]
                continue
            name = generators.resolve(c).name
            if name not in gold.configs:
                raise EvaluationError(f"--configs: {name} is not in the gold set ({gold.source})")
            if name not in evaluated:
                evaluated.append(name)
    order = {c.name: i for i, c in enumerate(generators.all_configs())}
    evaluated.sort(key=lambda c: order[c])
    outside = [p for p in known if gold.items[p.id].config not in evaluated]
    known = [p for p in known if gold.items[p.id].config in evaluated]

    models = _models_in_order(known)
    by_model: dict[str, dict[str, Prediction]] = {m: {} for m in models}
    for p in known:
        by_model[p.model][p.id] = p

    report_models: dict[str, Any] = {}
    for model in models:
        mine = by_model[model]
        outcome: dict[str, int] = {}
        per_config: dict[str, Any] = {}
        scorer_errors: list[dict[str, Any]] = []
        missing_ids: dict[str, list[str]] = {}
        for config in evaluated:
            correct = answered = extracted = 0
            miss: list[str] = []
            for item_id in gold.configs[config]:
                g = gold.items[item_id]
                p = mine.get(item_id)
                if p is None:
                    outcome[item_id] = 0
                    miss.append(item_id)
                    continue
                answered += 1
                ok, err = _safe_score(lambda p=p, g=g: nolli.score(g.config, p.response, g.answer))
                if err:
                    scorer_errors.append({"line": p.line, "id": item_id, "error": err})
                found, _ = _safe_score(
                    lambda p=p, g=g: nolli.extract_answer(g.config, p.response, g.answer) is not None
                )
                extracted += int(found)
                outcome[item_id] = int(ok)
                correct += int(ok)
            n = len(gold.configs[config])
            per_config[config] = _cell(
                correct, n, {"answered": answered, "missing": len(miss), "extracted": extracted}
            )
            if miss:
                missing_ids[config] = miss

        def pooled(names: list[str], outcome=outcome) -> dict[str, Any]:
            ids = [i for c in names for i in gold.configs[c]]
            return _cell(sum(outcome[i] for i in ids), len(ids))

        task_langs: dict[str, list[str]] = {}
        for config in evaluated:
            info = generators.resolve(config)
            task_langs.setdefault(f"{info.lang}_{info.task}", []).append(config)
        per_task_lang = {}
        for tl, names in task_langs.items():
            cell = pooled(names)
            cell["tiers"] = {generators.resolve(c).tier: per_config[c]["accuracy"] for c in names}
            per_task_lang[tl] = cell
        per_tier = {}
        for tier in TIERS:
            names = [c for c in evaluated if generators.resolve(c).tier == tier]
            if names:
                per_tier[tier] = pooled(names)
                per_tier[tier]["configs"] = len(names)
        per_lang = {}
        for lang in ("en", "ko"):
            names = [c for c in evaluated if generators.resolve(c).lang == lang]
            if names:
                per_lang[lang] = pooled(names)
        full_tls = [tl for tl, names in task_langs.items() if len(names) == len(TIERS)]
        mean, lo, hi = macro_ci([(per_task_lang[tl]["correct"], per_task_lang[tl]["n"]) for tl in task_langs])
        macro = {
            "accuracy": mean,
            "ci95": [lo, hi],
            "task_languages": len(task_langs),
            "task_languages_with_all_tiers": len(full_tls),
            "comparable_to_paper": len(task_langs) == N_TASK_LANGS and len(full_tls) == N_TASK_LANGS,
        }
        en_ko = _en_ko(evaluated, gold, outcome)
        answered_total = sum(c["answered"] for c in per_config.values())
        report_models[model] = {
            "items": sum(c["n"] for c in per_config.values()),
            "answered": answered_total,
            "missing": sum(c["missing"] for c in per_config.values()),
            "macro": macro,
            "per_tier": per_tier,
            "per_language": per_lang,
            "per_task_language": per_task_lang,
            "per_config": per_config,
            "en_ko": en_ko,
            "missing_ids": missing_ids,
            "scorer_errors": scorer_errors,
        }
    return {
        "benchmark": "nolli",
        "gold": gold.source,
        "configs": evaluated,
        "ignored_predictions": len(outside),  # valid ids of configs left out by --configs
        "models": report_models,
        "problems": _problems_json(problems),
        "methods": {"proportions": WILSON_METHOD, "macro_average": MACRO_METHOD, "en_ko": TOST_METHOD},
        "_problems": problems,
    }


def _en_ko(evaluated: list[str], gold: NolliGold, outcome: dict[str, int]) -> dict[str, Any]:
    import generators

    direct = [t for t, cat in generators.TYPES.items() if cat == generators.DIRECT]
    rows = []
    for task in direct:
        tiers = [
            tier for tier in TIERS if f"en_{task}_{tier}" in evaluated and f"ko_{task}_{tier}" in evaluated
        ]
        if not tiers:
            continue
        paired = all(gold.paired.get((task, tier), False) for tier in tiers)
        en: list[float] = []
        ko: list[float] = []
        if paired:
            for tier in tiers:
                ko_by_index = {gold.items[i].index: i for i in gold.configs[f"ko_{task}_{tier}"]}
                for i in gold.configs[f"en_{task}_{tier}"]:
                    j = ko_by_index.get(gold.items[i].index)
                    if j is not None:
                        en.append(outcome[i])
                        ko.append(outcome[j])
        else:
            for tier in tiers:
                en += [outcome[i] for i in gold.configs[f"en_{task}_{tier}"]]
                ko += [outcome[i] for i in gold.configs[f"ko_{task}_{tier}"]]
        if len(en) < 2 or len(ko) < 2:
            continue
        res = tost_paired(en, ko) if paired else tost_welch(en, ko)
        rows.append(
            {
                "task": task,
                "tiers": tiers,
                "test": "paired t" if paired else "Welch t",
                "n": res["n"],
                "en_accuracy": sum(en) / len(en),
                "ko_accuracy": sum(ko) / len(ko),
                "gap_points": 100 * res["diff"],
                "ci90_points": [100 * res["ci90"][0], 100 * res["ci90"][1]],
                "p_lower": res["p_lower"],
                "p_upper": res["p_upper"],
                "p_tost": res["p"],
            }
        )
    adjusted = holm([r["p_tost"] for r in rows])
    for r, p in zip(rows, adjusted, strict=True):
        r["p_holm"] = p
        r["equivalent"] = p < ALPHA
    return {
        "margin_points": 100 * EQUIVALENCE_MARGIN,
        "alpha": ALPHA,
        "tasks_tested": len(rows),
        "tasks_equivalent": sum(r["equivalent"] for r in rows),
        "rows": rows,
    }


def nolli_markdown(report: dict[str, Any], predictions_path: str = "") -> str:
    import generators

    problems: Problems = report["_problems"]
    models = report["models"]
    lines = ["# NOLLI evaluation", ""]
    if predictions_path:
        lines.append(f"Predictions: `{predictions_path}`; gold answers: {report['gold']}.")
    else:
        lines.append(f"Gold answers: {report['gold']}.")
    lines.append(
        f"{len(report['configs'])} configs evaluated; every item of an evaluated config counts, and an item "
        "without a prediction counts as wrong."
    )
    lines.append(
        f"Input problems: {len(problems.malformed)} malformed lines, {len(problems.unknown)} unknown ids, "
        f"{len(problems.duplicate)} duplicate ids (listed at the end)."
    )
    if report["ignored_predictions"]:
        lines.append(f"Predictions for configs outside --configs (ignored): {report['ignored_predictions']}.")
    if not models:
        lines += ["", "No prediction matched a gold item: nothing to score."]
    if len(models) > 1:
        lines += ["", "## Models", ""]
        lines += _md_table(
            ["model", "macro avg", "easy", "medium", "hard", "scored", "missing"],
            [
                [
                    m,
                    _pct(r["macro"]["accuracy"]),
                    *[_pct(r["per_tier"][t]["accuracy"]) if t in r["per_tier"] else "-" for t in TIERS],
                    r["answered"],
                    r["missing"],
                ]
                for m, r in models.items()
            ],
        )
    for model, r in models.items():
        lines += ["", f"## Model: {model}", ""]
        mac = r["macro"]
        lines.append(
            f"**Macro average over {mac['task_languages']} task-languages: {_pct(mac['accuracy'])}%** "
            f"(95% CI {_ci_text(mac['ci95'])})"
            + (
                ""
                if mac["comparable_to_paper"]
                else f"; not comparable with the paper's macro average, which needs all {N_TASK_LANGS} "
                f"task-languages with all three tiers (here {mac['task_languages_with_all_tiers']} of "
                f"{mac['task_languages']} have all three)"
            )
            + "."
        )
        lines.append(
            f"Items: {r['items']}, with a prediction: {r['answered']}, **missing (counted wrong): {r['missing']}**."
        )
        if r["scorer_errors"]:
            lines.append(f"Scorer errors (counted wrong): {len(r['scorer_errors'])}.")
        lines += ["", "### Accuracy per tier (all task-languages)", ""]
        lines += _md_table(
            ["tier", "configs", "n", "correct", "accuracy %", "95% CI"],
            [
                [t, c["configs"], c["n"], c["correct"], _pct(c["accuracy"]), _ci_text(c["ci95"])]
                for t, c in r["per_tier"].items()
            ],
        )
        if r["per_language"]:
            lines += ["", "### Accuracy per language (all tasks and tiers)", ""]
            lines += _md_table(
                ["language", "n", "correct", "accuracy %", "95% CI"],
                [
                    [lang, c["n"], c["correct"], _pct(c["accuracy"]), _ci_text(c["ci95"])]
                    for lang, c in r["per_language"].items()
                ],
            )
        lines += ["", "### Accuracy per task and language (all tiers)", ""]
        rows = []
        for tl, c in r["per_task_language"].items():
            lang, task = tl.split("_", 1)
            rows.append(
                [
                    task,
                    lang,
                    *[_pct(c["tiers"].get(t, math.nan)) for t in TIERS],
                    c["n"],
                    _pct(c["accuracy"]),
                    _ci_text(c["ci95"]),
                ]
            )
        lines += _md_table(
            ["task", "lang", "easy", "medium", "hard", "n", "all tiers %", "95% CI"], rows, "llrrrrrr"
        )
        lines += ["", "### Accuracy per config", ""]
        lines += _md_table(
            ["config", "n", "answered", "answer found", "correct", "accuracy %", "95% CI"],
            [
                [
                    cfg,
                    c["n"],
                    c["answered"],
                    c["extracted"],
                    c["correct"],
                    _pct(c["accuracy"]),
                    _ci_text(c["ci95"]),
                ]
                for cfg, c in r["per_config"].items()
            ],
        )
        ek = r["en_ko"]
        lines += ["", "### EN-KO presentation language (direct-translation types)", ""]
        if ek["rows"]:
            lines.append(
                f"Gap = KO - EN in points; equivalence margin +-{ek['margin_points']:.0f} points; "
                f"TOST with Holm correction across the {ek['tasks_tested']} tasks tested; "
                f"{ek['tasks_equivalent']} of {ek['tasks_tested']} shown equivalent at alpha {ek['alpha']}."
            )
            lines.append("")
            lines += _md_table(
                [
                    "task",
                    "tiers",
                    "test",
                    "n",
                    "EN %",
                    "KO %",
                    "gap (pts)",
                    "90% CI (pts)",
                    "p TOST",
                    "p Holm",
                    "equivalent",
                ],
                [
                    [
                        e["task"],
                        ",".join(t[0] for t in e["tiers"]),
                        e["test"],
                        e["n"] if isinstance(e["n"], int) else f"{e['n'][0]}/{e['n'][1]}",
                        _pct(e["en_accuracy"]),
                        _pct(e["ko_accuracy"]),
                        f"{e['gap_points']:+.1f}",
                        f"[{e['ci90_points'][0]:+.1f}, {e['ci90_points'][1]:+.1f}]",
                        _p_text(e["p_tost"]),
                        _p_text(e["p_holm"]),
                        "yes" if e["equivalent"] else "no",
                    ]
                    for e in ek["rows"]
                ],
                "lllrrrrrrrl",
            )
        else:
            lines.append("No direct-translation task was evaluated in both languages.")
        if r["missing_ids"]:
            lines += ["", "### Missing predictions (counted wrong)", ""]
            for cfg, ids in r["missing_ids"].items():
                idx = sorted(_split_id(i)[1] or 0 for i in ids)
                lines.append(f"- {cfg}: {len(ids)} missing: {_ranges(idx)}")
        if r["scorer_errors"]:
            lines += ["", "### Scorer errors", ""]
            for e in r["scorer_errors"][:MAX_LISTED_MD]:
                lines.append(f"- line {e['line']}: `{e['id']}`: {e['error']}")
    if problems.bad_input():
        lines += ["", "## Input problems"]
        _problems_md(problems, lines)
    lines += ["", "## Methods", ""]
    lines.append(f"- Proportions: {WILSON_METHOD}.")
    lines.append(f"- Macro average: {MACRO_METHOD}.")
    lines.append(f"- EN-KO: {TOST_METHOD}.")
    n_types = sum(1 for cat in generators.TYPES.values() if cat == generators.DIRECT)
    lines.append(f"- The {n_types} direct-translation types render the same latent puzzle in both languages.")
    return "\n".join(lines) + "\n"


def nolli_plots(report: dict[str, Any], out_dir: str | os.PathLike) -> list[Path]:
    """PNG charts: accuracy per task-language (with Wilson intervals), per tier, and the EN-KO gaps."""
    plt = _pyplot()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for model, r in report["models"].items():
        slug = _slug(model)
        tls = list(r["per_task_language"])
        if tls:
            fig, ax = plt.subplots(figsize=(max(6, 0.5 * len(tls) + 2), 4.5))
            width = 0.27
            for k, tier in enumerate(TIERS):
                xs, ys, errs = [], [], [[], []]
                for i, tl in enumerate(tls):
                    cfg = f"{tl.split('_', 1)[0]}_{tl.split('_', 1)[1]}_{tier}"
                    c = r["per_config"].get(cfg)
                    if c is None:
                        continue
                    xs.append(i + (k - 1) * width)
                    ys.append(100 * c["accuracy"])
                    errs[0].append(100 * (c["accuracy"] - c["ci95"][0]))
                    errs[1].append(100 * (c["ci95"][1] - c["accuracy"]))
                if xs:
                    ax.bar(xs, ys, width, yerr=errs, capsize=2, label=tier)
            ax.set_xticks(range(len(tls)))
            ax.set_xticklabels(tls, rotation=60, ha="right", fontsize=8)
            ax.set_ylabel("accuracy (%)")
            ax.set_ylim(0, 100)
            ax.set_title(f"NOLLI accuracy per task-language and tier ({model}; 95% Wilson CI)")
            ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
            fig.tight_layout()
            written.append(_save(fig, out_dir / f"nolli_{slug}_task_languages.png", plt))
        if r["per_tier"]:
            fig, ax = plt.subplots(figsize=(5, 4))
            tiers = list(r["per_tier"])
            ys = [100 * r["per_tier"][t]["accuracy"] for t in tiers]
            errs = [
                [100 * (r["per_tier"][t]["accuracy"] - r["per_tier"][t]["ci95"][0]) for t in tiers],
                [100 * (r["per_tier"][t]["ci95"][1] - r["per_tier"][t]["accuracy"]) for t in tiers],
            ]
            ax.bar(tiers, ys, yerr=errs, capsize=4, color="tab:blue")
            ax.set_ylim(0, 100)
            ax.set_ylabel("accuracy (%)")
            ax.set_title(f"NOLLI accuracy per tier ({model})")
            fig.tight_layout()
            written.append(_save(fig, out_dir / f"nolli_{slug}_tiers.png", plt))
        rows = r["en_ko"]["rows"]
        if rows:
            fig, ax = plt.subplots(figsize=(6, 0.5 * len(rows) + 1.5))
            m = r["en_ko"]["margin_points"]
            ax.axvspan(-m, m, color="tab:green", alpha=0.12, label=f"+-{m:.0f} pts")
            ax.axvline(0, color="grey", lw=0.8)
            for i, e in enumerate(rows):
                lo, hi = e["ci90_points"]
                color = "tab:green" if e["equivalent"] else "tab:red"
                ax.errorbar(
                    e["gap_points"],
                    i,
                    xerr=[[e["gap_points"] - lo], [hi - e["gap_points"]]],
                    fmt="o",
                    color=color,
                    capsize=3,
                )
            ax.set_yticks(range(len(rows)))
            ax.set_yticklabels([e["task"] for e in rows])
            ax.invert_yaxis()
            ax.set_xlabel("KO - EN accuracy (points), 90% CI")
            ax.set_title(f"EN-KO gap, TOST +-{m:.0f} pts, Holm ({model})")
            ax.legend(loc="lower right", fontsize=8)
            fig.tight_layout()
            written.append(_save(fig, out_dir / f"nolli_{slug}_en_ko_gap.png", plt))
    return written


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, path: Path, plt) -> Path:
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    return path


def _slug(name: str) -> str:
    out = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-.") else "_" for ch in name).strip("_")
    return out or "model"


# =============================================================================================
# KoBALT
# =============================================================================================
# Domain order of the paper's Table 3 (and of Tables 4-8).
KOBALT_TABLE3_DOMAINS = ("Syntax", "Semantics", "Pragmatics", "Morphology", "Phonetics/Phonology")
KOBALT_TABLE3_NAMES = {"Phonetics/Phonology": "Phonetics"}
# The paper's Table 3 (overall, Syntax, Semantics, Pragmatics, Morphology, Phonetics), for reference.
KOBALT_PAPER_TABLE3 = (
    ("Claude-3.7-Sonnet", (0.61, 0.66, 0.66, 0.64, 0.36, 0.31)),
    ("Claude-3.5-Sonnet", (0.52, 0.52, 0.65, 0.51, 0.36, 0.24)),
    ("GPT-4o", (0.44, 0.45, 0.55, 0.40, 0.17, 0.26)),
    ("DeepSeek-V3", (0.43, 0.41, 0.57, 0.42, 0.26, 0.23)),
    ("Qwen2.5-72B", (0.37, 0.33, 0.51, 0.37, 0.24, 0.18)),
    ("Llama-3.3-70B", (0.32, 0.25, 0.50, 0.35, 0.17, 0.15)),
)


def evaluate_kobalt(
    preds: list[Prediction],
    problems: Problems,
    gold_rows: list[dict[str, Any]],
    config: str = "all",
    all_ids: Iterable[str] | None = None,
) -> dict[str, Any]:
    """The KoBALT report as a dict. ``gold_rows`` are the rows of ``config``; ``all_ids`` (the ids of
    all 700 questions) tells predictions outside ``config`` (ignored) from unknown ids."""
    import kobalt

    preds = _dedupe(preds, problems)
    by_id = {r["id"]: r for r in gold_rows}
    every = set(all_ids) if all_ids is not None else set(by_id)
    known = []
    ignored = 0
    for p in preds:
        if p.id in by_id:
            known.append(p)
        elif p.id in every:
            ignored += 1
        else:
            problems.unknown.append(
                {"line": p.line, "id": p.id, "model": p.model, "reason": "not a KoBALT id"}
            )
    models = _models_in_order(known)
    mine_by_model: dict[str, dict[str, Prediction]] = {m: {} for m in models}
    for p in known:
        mine_by_model[p.model][p.id] = p
    report_models = {}
    for model in models:
        mine = mine_by_model[model]
        outcome: dict[str, int] = {}
        extracted: dict[str, str | None] = {}
        missing: list[str] = []
        for row in gold_rows:
            p = mine.get(row["id"])
            if p is None:
                outcome[row["id"]] = 0
                extracted[row["id"]] = None
                missing.append(row["id"])
                continue
            outcome[row["id"]] = int(kobalt.score(p.response, row["answer"]))
            extracted[row["id"]] = kobalt.extract_answer(p.response)

        def cell(rows_: list[dict[str, Any]], outcome=outcome) -> dict[str, Any]:
            return _cell(sum(outcome[r["id"]] for r in rows_), len(rows_))

        answered = [r for r in gold_rows if r["id"] in mine]
        no_answer = sum(1 for r in answered if extracted[r["id"]] is None)
        several = sum(1 for r in answered if extracted[r["id"]] is not None and "," in extracted[r["id"]])
        per_domain = {}
        for dom in KOBALT_TABLE3_DOMAINS:
            rows_ = [r for r in gold_rows if r["domain"] == dom]
            if rows_:
                per_domain[dom] = cell(rows_)
        per_phenomenon = {}
        for ph in kobalt.PHENOMENA:
            rows_ = [r for r in gold_rows if r["phenomenon"] == ph.label]
            if rows_:
                per_phenomenon[ph.label] = cell(rows_)
                per_phenomenon[ph.label].update(
                    {"domain": ph.domain, "abbr": ph.abbr, "paper_name": ph.paper_name}
                )
        per_level = {}
        for lv in (1, 2, 3):
            rows_ = [r for r in gold_rows if r["level"] == lv]
            if rows_:
                per_level[str(lv)] = cell(rows_)
        report_models[model] = {
            "overall": cell(gold_rows),
            "answered": len(answered),
            "missing": len(missing),
            "no_answer_extracted": no_answer,
            "several_letters": several,
            "per_domain": per_domain,
            "per_phenomenon": per_phenomenon,
            "per_level": per_level,
            "missing_ids": missing,
        }
    return {
        "benchmark": "kobalt",
        "config": config,
        "items": len(gold_rows),
        "ignored_predictions": ignored,  # KoBALT ids outside --config
        "models": report_models,
        "problems": _problems_json(problems),
        "methods": {
            "scoring": "the paper's protocol (kobalt.score): distinct capital letters inside every "
            "'정답은 ... 입니다' joined by ', ' must equal the gold letter",
            "proportions": WILSON_METHOD,
        },
        "_problems": problems,
    }


def kobalt_markdown(report: dict[str, Any], predictions_path: str = "", source: str = "") -> str:
    import kobalt

    problems: Problems = report["_problems"]
    models = report["models"]
    lines = ["# KoBALT evaluation", ""]
    where = f"Predictions: `{predictions_path}`; " if predictions_path else ""
    lines.append(
        f"{where}config `{report['config']}` ({report['items']} questions"
        + (f", source `{source}`" if source else "")
        + "). Scored with the paper's protocol; a question without a prediction counts as wrong."
    )
    lines.append(
        f"Input problems: {len(problems.malformed)} malformed lines, {len(problems.unknown)} unknown ids, "
        f"{len(problems.duplicate)} duplicate ids (listed at the end)."
    )
    if report["ignored_predictions"]:
        lines.append(
            f"Predictions for questions outside config `{report['config']}` (ignored): {report['ignored_predictions']}."
        )
    if not models:
        lines += ["", "No prediction matched a KoBALT question: nothing to score."]
    else:
        doms = [d for d in KOBALT_TABLE3_DOMAINS if any(d in r["per_domain"] for r in models.values())]
        lines += ["", "## Table 3: accuracy overall and per domain", ""]
        lines += _md_table(
            ["Model", "Overall", *[KOBALT_TABLE3_NAMES.get(d, d) for d in doms]],
            [
                [
                    m,
                    f"{r['overall']['accuracy']:.2f}",
                    *[f"{r['per_domain'][d]['accuracy']:.2f}" if d in r["per_domain"] else "-" for d in doms],
                ]
                for m, r in models.items()
            ],
        )
        if report["config"] == "all":
            lines += ["", "For reference, the paper's Table 3 (same protocol; random guessing is 0.10):", ""]
            lines += _md_table(
                ["Model (paper)", "Overall", "Syntax", "Semantics", "Pragmatics", "Morphology", "Phonetics"],
                [[name, *[f"{v:.2f}" for v in vals]] for name, vals in KOBALT_PAPER_TABLE3],
            )
        table = 4
        for dom in KOBALT_TABLE3_DOMAINS:
            phs = [
                p
                for p in kobalt.PHENOMENA
                if p.domain == dom and any(p.label in r["per_phenomenon"] for r in models.values())
            ]
            if not phs:
                table += 1
                continue
            lines += ["", f"## Table {table}: {KOBALT_TABLE3_NAMES.get(dom, dom)} phenomena", ""]
            lines += _md_table(
                ["Model", *[p.abbr for p in phs]],
                [
                    [
                        m,
                        *[
                            f"{r['per_phenomenon'][p.label]['accuracy']:.2f}"
                            if p.label in r["per_phenomenon"]
                            else "-"
                            for p in phs
                        ],
                    ]
                    for m, r in models.items()
                ],
            )
            lines.append("")
            first = next(iter(models.values()))["per_phenomenon"]
            lines.append(
                "; ".join(
                    f"{p.abbr}: {p.paper_name} (n={first[p.label]['n']})" for p in phs if p.label in first
                )
            )
            table += 1
        lines += ["", "## Accuracy per level", ""]
        lvls = [lv for lv in ("1", "2", "3") if any(lv in r["per_level"] for r in models.values())]
        lines += _md_table(
            ["Model", *[f"Level {lv}" for lv in lvls]],
            [
                [
                    m,
                    *[
                        f"{r['per_level'][lv]['accuracy']:.2f}" if lv in r["per_level"] else "-"
                        for lv in lvls
                    ],
                ]
                for m, r in models.items()
            ],
        )
        for model, r in models.items():
            lines += ["", f"## Details: {model}", ""]
            lines.append(
                f"Questions: {report['items']}, with a prediction: {r['answered']}, **missing (counted wrong): {r['missing']}**; "
                f"no closing '정답은 X입니다' with a letter: {r['no_answer_extracted']}; several letters: {r['several_letters']}."
            )
            lines.append("")
            rows = [
                [
                    "overall",
                    "",
                    r["overall"]["n"],
                    r["overall"]["correct"],
                    _pct(r["overall"]["accuracy"]),
                    _ci_text(r["overall"]["ci95"]),
                ]
            ]
            for d, c in r["per_domain"].items():
                rows.append(["domain", d, c["n"], c["correct"], _pct(c["accuracy"]), _ci_text(c["ci95"])])
            for ph, c in r["per_phenomenon"].items():
                rows.append(
                    [
                        "phenomenon",
                        f"{ph} ({c['abbr']})",
                        c["n"],
                        c["correct"],
                        _pct(c["accuracy"]),
                        _ci_text(c["ci95"]),
                    ]
                )
            for lv, c in r["per_level"].items():
                rows.append(["level", lv, c["n"], c["correct"], _pct(c["accuracy"]), _ci_text(c["ci95"])])
            lines += _md_table(["group", "name", "n", "correct", "accuracy %", "95% CI"], rows, "llrrrr")
            if r["missing_ids"]:
                shown = r["missing_ids"][:MAX_LISTED_MD]
                more = len(r["missing_ids"]) - len(shown)
                lines += [
                    "",
                    f"Missing ids ({len(r['missing_ids'])}): "
                    + ", ".join(f"`{i}`" for i in shown)
                    + (f" ... and {more} more (see --json)" if more else ""),
                ]
    if problems.bad_input():
        lines += ["", "## Input problems"]
        _problems_md(problems, lines)
    lines += ["", "## Methods", ""]
    lines.append("- Scoring: " + report["methods"]["scoring"] + ".")
    lines.append(
        f"- Proportions: {WILSON_METHOD}. Tables 3-8 show accuracy as fractions with two decimals, as in the paper."
    )
    return "\n".join(lines) + "\n"


def kobalt_plots(report: dict[str, Any], out_dir: str | os.PathLike) -> list[Path]:
    """PNG charts: accuracy per domain, per phenomenon (paper abbreviations) and per level."""
    import kobalt

    plt = _pyplot()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    models = report["models"]
    written = []
    if not models:
        return written
    groups = [
        ("domains", "per_domain", [(d, KOBALT_TABLE3_NAMES.get(d, d)) for d in KOBALT_TABLE3_DOMAINS]),
        ("phenomena", "per_phenomenon", [(p.label, p.abbr) for p in kobalt.PHENOMENA]),
        ("levels", "per_level", [(lv, f"level {lv}") for lv in ("1", "2", "3")]),
    ]
    for name, key, labels in groups:
        labels = [(k, lab) for k, lab in labels if any(k in r[key] for r in models.values())]
        if not labels:
            continue
        fig, ax = plt.subplots(figsize=(max(5, 0.45 * len(labels) * max(1, len(models)) + 2), 4.2))
        width = 0.8 / len(models)
        for m_i, (model, r) in enumerate(models.items()):
            xs, ys, errs = [], [], [[], []]
            for i, (k, _) in enumerate(labels):
                c = r[key].get(k)
                if c is None:
                    continue
                xs.append(i - 0.4 + width * (m_i + 0.5))
                ys.append(c["accuracy"])
                errs[0].append(c["accuracy"] - c["ci95"][0])
                errs[1].append(c["ci95"][1] - c["accuracy"])
            ax.bar(xs, ys, width, yerr=errs, capsize=2, label=model)
        ax.axhline(0.1, color="grey", ls="--", lw=0.8, label="random (0.10)")
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(
            [lab for _, lab in labels],
            rotation=45 if len(labels) > 6 else 0,
            ha="right" if len(labels) > 6 else "center",
        )
        ax.set_ylim(0, 1)
        ax.set_ylabel("accuracy")
        ax.set_title(
            f"KoBALT accuracy per {name[:-1] if name != 'phenomena' else 'phenomenon'} (95% Wilson CI)"
        )
        ax.legend(fontsize=8)
        fig.tight_layout()
        written.append(_save(fig, out_dir / f"kobalt_{name}.png", plt))
    return written


# =============================================================================================
# Command lines
# =============================================================================================
def _common_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--predictions",
        required=True,
        metavar="FILE",
        help='JSON Lines: {"id", "response"[, "model"]} per line',
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON instead of Markdown")
    p.add_argument("--plots", metavar="DIR", help="also write PNG charts into DIR")
    p.add_argument("--out", metavar="FILE", help="write the report to FILE instead of standard output")
    p.add_argument("--model", help='model name for lines without a "model" field (default: the file name)')
    p.add_argument(
        "--keep-going",
        action="store_true",
        help="exit 0 even when lines were malformed, unknown or duplicated (they are reported either way)",
    )


def _emit(text: str, out: str | None) -> None:
    if out:
        Path(out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def _finish(
    report: dict[str, Any], args, markdown: Callable[[], str], plots: Callable[[str], list[Path]], prog: str
) -> int:
    problems: Problems = report.pop("_problems")
    if args.json:
        text = json.dumps(_json_clean(report), ensure_ascii=False, indent=1) + "\n"
    else:
        report["_problems"] = problems
        text = markdown()
        report.pop("_problems")
    _emit(text, args.out)
    if args.plots:
        for path in plots(args.plots):
            print(f"{prog}: wrote {path}", file=sys.stderr)
    if not report["models"]:
        print(f"{prog}: error: no prediction matched a gold item", file=sys.stderr)
        return 2
    if problems.bad_input() and not args.keep_going:
        print(
            f"{prog}: input problems: {len(problems.malformed)} malformed lines, {len(problems.unknown)} unknown ids, "
            f"{len(problems.duplicate)} duplicate ids (see the report; --keep-going to exit 0)",
            file=sys.stderr,
        )
        return 2
    return 0


def nolli_main(argv: Sequence[str] | None = None) -> int:
    """``nolli evaluate``: score predictions against regenerated configs or a release folder."""
    p = argparse.ArgumentParser(
        prog="nolli evaluate",
        description="Score model responses to NOLLI items: accuracy per config, task-language and tier, "
        "the paper's macro average, and the EN-KO equivalence analysis.",
    )
    _common_args(p)
    p.add_argument(
        "--release",
        metavar="DIR",
        help="gold answers from a release folder (DIR/data/<config>/test-00000-of-00001.parquet) instead of regenerating",
    )
    p.add_argument("--seed", type=int, default=0, help="base seed when regenerating (default 0, the release)")
    p.add_argument(
        "--n", type=int, default=100, help="items per config when regenerating (default 100, the release)"
    )
    p.add_argument("--jobs", type=int, default=1, help="processes used to regenerate configs (default 1)")
    p.add_argument(
        "--configs",
        nargs="+",
        metavar="CONFIG",
        help="configs to evaluate ('all' = every config of the gold set); default: the configs the predictions touch",
    )
    args = p.parse_args(argv)
    prog = "nolli evaluate"
    try:
        if args.seed < 0 or args.n < 1 or args.jobs < 1:
            raise EvaluationError("--seed must be >= 0, --n and --jobs >= 1")
        preds, problems = read_predictions(args.predictions, args.model)
        if not preds:
            raise EvaluationError(
                f"{args.predictions}: no usable prediction"
                + (
                    f" ({len(problems.malformed)} malformed lines, first: line {problems.malformed[0]['line']}: {problems.malformed[0]['reason']})"
                    if problems.malformed
                    else " (the file is empty)"
                )
            )
        if args.release:
            gold = release_gold(args.release)
        else:
            parts: list[str] = []
            for q in preds:
                part = _split_id(q.id)[0]
                if part not in parts:
                    parts.append(part)
            if args.configs:
                import generators

                for c in args.configs:
                    if c == "all":
                        parts += [x.name for x in generators.implemented_configs() if x.name not in parts]
                    else:
                        name = generators.resolve(c).name
                        if name not in parts:
                            parts.append(name)
            gold = regenerate_gold(parts, args.seed, args.n, args.jobs)
        report = evaluate_nolli(preds, problems, gold, args.configs)
    except (EvaluationError, ValueError, OSError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    return _finish(
        report, args, lambda: nolli_markdown(report, args.predictions), lambda d: nolli_plots(report, d), prog
    )


def kobalt_main(argv: Sequence[str] | None = None) -> int:
    """``kobalt evaluate``: score predictions with the paper's protocol, laid out like its tables."""
    p = argparse.ArgumentParser(
        prog="kobalt evaluate",
        description="Score model responses to KoBALT questions with the paper's protocol: accuracy overall, "
        "per domain (Table 3), per phenomenon (Tables 4-8) and per level.",
    )
    _common_args(p)
    p.add_argument(
        "--source",
        metavar="PATH",
        help="local copy of the KoBALT release (default: $KOBALT_SOURCE, else the Hub dataset)",
    )
    p.add_argument("--config", default="all", help="KoBALT config whose questions count (default: all 700)")
    args = p.parse_args(argv)
    prog = "kobalt evaluate"
    try:
        import kobalt

        preds, problems = read_predictions(args.predictions, args.model)
        if not preds:
            raise EvaluationError(
                f"{args.predictions}: no usable prediction"
                + (
                    f" ({len(problems.malformed)} malformed lines, first: line {problems.malformed[0]['line']}: {problems.malformed[0]['reason']})"
                    if problems.malformed
                    else " (the file is empty)"
                )
            )
        config = kobalt.resolve_config(args.config)
        all_rows = kobalt.rows("all", args.source)
        gold_rows = kobalt.rows(config, args.source)
        source = str(kobalt.resolve_source(args.source))
        report = evaluate_kobalt(preds, problems, gold_rows, config, [r["id"] for r in all_rows])
    except (EvaluationError, ValueError, OSError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    return _finish(
        report,
        args,
        lambda: kobalt_markdown(report, args.predictions, source),
        lambda d: kobalt_plots(report, d),
        prog,
    )


# =============================================================================================
# lm-evaluation-harness tasks
# =============================================================================================
NOLLI_DATASET = (
    "HAERAE-HUB/NOLLI"  # Hub dataset of our NOLLI release (configs {lang}_{task}_{tier}, split test)
)
KOBALT_DATASET = "HAERAE-HUB/KoBALT"  # Hub dataset of our KoBALT release (configs kobalt.CONFIGS, split test)
NOLLI_MAX_GEN_TOKS = 8192
LM_EVAL_VERSION = 1.0

_NOLLI_UTILS = '''"""lm-evaluation-harness helpers for the NOLLI tasks.

Generated by ``evaluation.write_lm_eval_tasks`` (``python evaluation.py lm-eval-tasks``): do not edit.
Scoring calls the project's own scorer, so the ``nolli`` module of this repository must be importable
(``pip install -e .`` in a clone; from inside a clone it is found without installing).
"""

import sys
from pathlib import Path

try:
    import nolli
except ImportError:  # a clone that is not installed: lm_eval_tasks/ sits in the repository root
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    import nolli


def process_results(doc, results):
    """exact_match: 1.0 when ``nolli.score`` accepts the response for the item's gold answer."""
    response = results[0] if results else ""
    return {"exact_match": float(nolli.score(doc["config"], response, doc["answer"]))}
'''

_KOBALT_UTILS = '''"""lm-evaluation-harness helpers for the KoBALT tasks.

Generated by ``evaluation.write_lm_eval_tasks`` (``python evaluation.py lm-eval-tasks``): do not edit.
Prompt and scoring follow the KoBALT paper's protocol as implemented by the ``kobalt`` module of this
repository, which must be importable (``pip install -e .`` in a clone; from inside a clone it is found
without installing).
"""

import sys
from pathlib import Path

try:
    import kobalt
except ImportError:  # a clone that is not installed: lm_eval_tasks/ sits in the repository root
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    import kobalt


def doc_to_text(doc):
    """The user message of the paper's protocol (the system message is the task description)."""
    return kobalt.prompt(doc)[1]["content"]


def process_results(doc, results):
    """exact_match under the paper's protocol: the letters in every closing "정답은 X입니다." must
    be exactly the gold letter."""
    response = results[0] if results else ""
    return {"exact_match": float(kobalt.score(response, doc["answer"]))}
'''


def _yq(value: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(value, ensure_ascii=False)


def _gen_kwargs_yaml(max_gen_toks: int) -> list[str]:
    return [
        "generation_kwargs:",
        "  until: []",
        "  do_sample: false",
        "  temperature: 0.0",
        f"  max_gen_toks: {max_gen_toks}",
    ]


def _metric_yaml() -> list[str]:
    return [
        "metric_list:",
        "  - metric: exact_match",
        "    aggregation: mean",
        "    higher_is_better: true",
    ]


def _group_yaml(name: str, children: list[str], weight_by_size: bool, note: str) -> str:
    lines = [f"# {note}", f"group: {name}", "task:"]
    lines += [f"  - {c}" for c in children]
    lines += [
        "aggregate_metric_list:",
        "  - metric: exact_match",
        "    aggregation: mean",
        f"    weight_by_size: {'true' if weight_by_size else 'false'}",
        "metadata:",
        f"  version: {LM_EVAL_VERSION}",
    ]
    return "\n".join(lines) + "\n"


_HEADER = "# Generated by evaluation.write_lm_eval_tasks (python evaluation.py lm-eval-tasks): do not edit."


def lm_eval_task_files(
    nolli_dataset: str = NOLLI_DATASET,
    kobalt_dataset: str = KOBALT_DATASET,
    nolli_max_gen_toks: int = NOLLI_MAX_GEN_TOKS,
) -> dict[str, str]:
    """Relative path -> content of every lm-evaluation-harness file (deterministic)."""
    import generators
    import kobalt

    files: dict[str, str] = {}
    # --- NOLLI -------------------------------------------------------------------------------
    files["nolli/utils.py"] = _NOLLI_UTILS
    files["nolli/_nolli_template_yaml"] = (
        "\n".join(
            [
                _HEADER,
                "# Shared settings of the NOLLI tasks: the question states its answer format; scoring is",
                "# nolli.score (the project's answer extraction + exact match against the gold answer).",
                f"dataset_path: {_yq(nolli_dataset)}",
                "test_split: test",
                "output_type: generate_until",
                'doc_to_text: "{{question}}"',
                'doc_to_target: "{{answer}}"',
                "process_results: !function utils.process_results",
                *_gen_kwargs_yaml(nolli_max_gen_toks),
                *_metric_yaml(),
                "metadata:",
                f"  version: {LM_EVAL_VERSION}",
            ]
        )
        + "\n"
    )
    task_langs: dict[str, list[str]] = {}
    tiers: dict[str, list[str]] = {t: [] for t in TIERS}
    for info in generators.all_configs():
        name = f"nolli_{info.name}"
        files[f"nolli/{name}.yaml"] = (
            "\n".join(
                [
                    _HEADER,
                    "include: _nolli_template_yaml",
                    f"task: {name}",
                    f"dataset_name: {info.name}",
                    "tag:",
                    f"  - nolli_{info.category}",
                ]
            )
            + "\n"
        )
        task_langs.setdefault(f"nolli_{info.lang}_{info.task}", []).append(name)
        tiers[info.tier].append(name)
    for group, children in task_langs.items():
        files[f"nolli/_{group}.yaml"] = (
            _HEADER
            + "\n"
            + _group_yaml(
                group, children, True, "NOLLI task-language: accuracy over its three tiers (100 items each)"
            )
        )
    for tier, children in tiers.items():
        files[f"nolli/_nolli_{tier}.yaml"] = (
            _HEADER
            + "\n"
            + _group_yaml(
                f"nolli_{tier}",
                children,
                True,
                f"NOLLI {tier} tier: accuracy pooled over the 25 task-languages",
            )
        )
    files["nolli/_nolli.yaml"] = (
        _HEADER
        + "\n"
        + _group_yaml(
            "nolli",
            list(task_langs),
            False,
            "NOLLI: the paper's macro average, the unweighted mean of the 25 task-language accuracies",
        )
    )
    # --- KoBALT ------------------------------------------------------------------------------
    files["kobalt/utils.py"] = _KOBALT_UTILS
    files["kobalt/_kobalt_template_yaml"] = (
        "\n".join(
            [
                _HEADER,
                "# Shared settings of the KoBALT tasks: the paper's protocol (system message, a user message",
                "# demanding the closing sentence 정답은 X입니다., greedy decoding, at most 2,048 new tokens)",
                "# and its scoring (kobalt.score). Data: CC BY-NC 4.0 (snunlp/KoBALT-700).",
                f"dataset_path: {_yq(kobalt_dataset)}",
                "test_split: test",
                "output_type: generate_until",
                f"description: {_yq(kobalt.SYSTEM_PROMPT + chr(10) + chr(10))}",
                "doc_to_text: !function utils.doc_to_text",
                'doc_to_target: "{{answer}}"',
                "process_results: !function utils.process_results",
                *_gen_kwargs_yaml(int(kobalt.GENERATION_KWARGS["max_new_tokens"])),
                *_metric_yaml(),
                "metadata:",
                f"  version: {LM_EVAL_VERSION}",
            ]
        )
        + "\n"
    )
    for config in kobalt.CONFIGS:
        name = f"kobalt_{config}"
        files[f"kobalt/{name}.yaml"] = (
            "\n".join([_HEADER, "include: _kobalt_template_yaml", f"task: {name}", f"dataset_name: {config}"])
            + "\n"
        )
    domains = [d for d in kobalt.DOMAINS]
    order = {label: i for i, label in enumerate(KOBALT_TABLE3_DOMAINS)}
    domains.sort(key=lambda d: order[d.label])
    files["kobalt/_kobalt.yaml"] = (
        _HEADER
        + "\n"
        + _group_yaml(
            "kobalt",
            [f"kobalt_{d.config}" for d in domains],
            True,
            "KoBALT (paper Table 3): accuracy overall (size-weighted over the five domains) and per domain",
        )
    )
    for d in domains:
        files[f"kobalt/_kobalt_{d.config}_phenomena.yaml"] = (
            _HEADER
            + "\n"
            + _group_yaml(
                f"kobalt_{d.config}_phenomena",
                [f"kobalt_{p.config}" for p in kobalt.PHENOMENA if p.domain == d.label],
                True,
                f"KoBALT {d.label}: accuracy per phenomenon (paper Tables 4-8)",
            )
        )
    files["kobalt/_kobalt_phenomena.yaml"] = (
        _HEADER
        + "\n"
        + _group_yaml(
            "kobalt_phenomena",
            [f"kobalt_{d.config}_phenomena" for d in domains],
            True,
            "KoBALT: accuracy per phenomenon, grouped by domain (paper Tables 4-8)",
        )
    )
    files["kobalt/_kobalt_levels.yaml"] = (
        _HEADER
        + "\n"
        + _group_yaml(
            "kobalt_levels",
            [f"kobalt_level_{lv}" for lv in (1, 2, 3)],
            True,
            "KoBALT: accuracy per level (1 easy, 2 intermediate, 3 hard)",
        )
    )
    files["README.md"] = _lm_eval_readme(nolli_dataset, kobalt_dataset, nolli_max_gen_toks)
    return dict(sorted(files.items()))


def _lm_eval_readme(nolli_dataset: str, kobalt_dataset: str, nolli_max_gen_toks: int) -> str:
    return f"""# lm-evaluation-harness tasks for NOLLI and KoBALT

Generated by `evaluation.write_lm_eval_tasks` (`python evaluation.py lm-eval-tasks`): do not edit by
hand; regenerate (a test checks that the committed files equal a fresh generation).

Datasets: NOLLI `{nolli_dataset}`, KoBALT `{kobalt_dataset}` (one config per task, split `test`);
point them elsewhere with `python evaluation.py lm-eval-tasks --nolli-dataset ORG/NAME --kobalt-dataset ORG/NAME`.
All tasks are `generate_until` with greedy decoding and `exact_match` computed by this repository's
scorers (`nolli.score`, `kobalt.score` under the KoBALT paper's protocol), so the `nolli` and `kobalt`
modules must be importable (`pip install -e .`).

    lm_eval --model hf --model_args pretrained=ORG/MODEL --include_path lm_eval_tasks \\
        --tasks nolli --apply_chat_template --log_samples --output_path out

| name | kind | what |
|---|---|---|
| `nolli` | group | the NOLLI paper's macro average: unweighted mean of the 25 task-languages |
| `nolli_{{lang}}_{{task}}` | group | one task-language over its three tiers (e.g. `nolli_ko_cipher`) |
| `nolli_easy`, `nolli_medium`, `nolli_hard` | group | one tier pooled over the 25 task-languages |
| `nolli_{{lang}}_{{task}}_{{tier}}` | task | one config, 100 items (e.g. `nolli_ko_cipher_hard`); max {nolli_max_gen_toks} new tokens |
| `nolli_direct_translation`, `nolli_script_adaptation`, `nolli_korean_only` | tag | the configs of a category |
| `kobalt` | group | KoBALT Table 3: overall (size-weighted) and the five domains |
| `kobalt_phenomena` | group | Tables 4-8: the 24 phenomena grouped by domain (`kobalt_syntax_phenomena`, ...) |
| `kobalt_levels` | group | levels 1-3 |
| `kobalt_all`, `kobalt_{{config}}` | task | one KoBALT config (`kobalt.CONFIGS`); max 2048 new tokens |

Only the EN-KO equivalence tests and the confidence intervals of the papers need the item-level
outcomes: run with `--log_samples` and feed the responses to `nolli evaluate` / `kobalt evaluate`.
KoBALT data are CC BY-NC 4.0 (snunlp/KoBALT-700).
"""


LM_EVAL_TASKS_DIR = Path(__file__).resolve().parent / "lm_eval_tasks"


def write_lm_eval_tasks(
    out_dir: str | os.PathLike = LM_EVAL_TASKS_DIR,
    nolli_dataset: str = NOLLI_DATASET,
    kobalt_dataset: str = KOBALT_DATASET,
    nolli_max_gen_toks: int = NOLLI_MAX_GEN_TOKS,
) -> list[Path]:
    """Write the lm-evaluation-harness task files under ``out_dir`` (default: ``lm_eval_tasks/`` of
    the repository); stale generated files (YAML, templates, utils) in its ``nolli/`` and ``kobalt/``
    folders are removed. Returns the paths written."""
    out_dir = Path(out_dir)
    files = lm_eval_task_files(nolli_dataset, kobalt_dataset, nolli_max_gen_toks)
    for sub in ("nolli", "kobalt"):
        folder = out_dir / sub
        if folder.is_dir():
            for p in sorted(folder.iterdir()):
                rel = f"{sub}/{p.name}"
                if (
                    p.is_file()
                    and rel not in files
                    and (p.suffix in (".yaml", ".py") or p.name.endswith("_yaml"))
                ):
                    p.unlink()
    written = []
    for rel, text in files.items():
        path = out_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _lm_eval_tasks_main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python evaluation.py lm-eval-tasks", description="write the lm-evaluation-harness tasks"
    )
    p.add_argument("--out", default=str(Path(__file__).resolve().parent / "lm_eval_tasks"))
    p.add_argument(
        "--nolli-dataset",
        default=NOLLI_DATASET,
        help=f"Hub dataset of the NOLLI release (default {NOLLI_DATASET})",
    )
    p.add_argument(
        "--kobalt-dataset",
        default=KOBALT_DATASET,
        help=f"Hub dataset of the KoBALT release (default {KOBALT_DATASET})",
    )
    p.add_argument("--nolli-max-gen-toks", type=int, default=NOLLI_MAX_GEN_TOKS)
    args = p.parse_args(argv)
    paths = write_lm_eval_tasks(args.out, args.nolli_dataset, args.kobalt_dataset, args.nolli_max_gen_toks)
    print(f"wrote {len(paths)} files under {args.out}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python evaluation.py nolli|kobalt|lm-eval-tasks ...``"""
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = {"nolli": nolli_main, "kobalt": kobalt_main, "lm-eval-tasks": _lm_eval_tasks_main}
    if not argv or argv[0] not in commands:
        print("usage: python evaluation.py {nolli,kobalt,lm-eval-tasks} ...", file=sys.stderr)
        return 2
    return commands[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main())
