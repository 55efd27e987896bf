"""inequality (direct translation): Futoshiki, a Latin square with inequality constraints.

An n×n grid (n = 5 or 6) is filled so that every row and every column holds 1..n exactly once;
some cells are given, and every listed inequality between two orthogonally adjacent cells holds.
Adjacent pairs without a listed inequality are unconstrained. The answer is the completed grid,
row-major, as n² integers separated by single spaces (``3 1 2 5 4 2 5 ...``).

This follows the reference at HEAD and the NOLLI paper ("Latin-square inequalities"): Futoshiki at
every tier. The retired 1-D chain form (previous-release easy) is *not* generated, but the scorer
still accepts its answer layouts (compact digit strings, letters a..g for 10..16).

Latent instance (0-based coordinates; the prompt shows them 1-based)::

    {"n": 5,
     "givens": [[r, c, v], ...],                # row-major order, v in 1..n
     "relations": [[r1, c1, r2, c2, "<"], ...],  # (r1,c1) is the upper/left cell of an adjacent
                                                 # pair; "<" means value(r1,c1) < value(r2,c2);
                                                 # sorted in reading order
     "solution": [[...n values...], ...n rows],
     "solve_class": "backtrack" | "propagation"}

Levers per tier (reference code at HEAD)::

    easy   : 5×5 only;                 givens 2-6;                   backtrack_ratio 1.0
    medium : 5×5 0.62 / 6×6 0.38;      givens 5×5 2-6, 6×6 3-5;      backtrack_ratio 0.82
    hard   : 5×5 0.20 / 6×6 0.80;      givens 5×5 2-6, 6×6 3-5;      backtrack_ratio 0.92
    all    : at most 2 auto-added givens; at least 3 relations kept; 200 tries per item

Sampling (per item): draw n (weighted), a target given count g and a target class ("backtrack" with
probability ``backtrack_ratio``, else "propagation"). Each try: a random Latin square, all
2n(n-1) adjacent relations in random order and g random givens; if that is not unique, reveal up to
``max_added_givens`` more cells (same random order), else next try. Then visit the relations in the
shuffled order and drop each one whose removal keeps the puzzle unique (in "propagation" mode the
drop must also leave it solvable by propagation alone: naked singles with row/column elimination
plus inequality bound pruning). Fewer than ``min_relations`` left: next try. The result is
classified (propagation-solvable or not); a class equal to the target is returned, otherwise it is
kept as a fallback and returned after ``max_tries`` tries.

Departures from the reference (and why):

* The solution square comes from a randomised backtracking fill, not from shuffling the cyclic
  square: the reference's squares are all isotopic to a group table (spec pitfall 4).
* Auto-added givens are capped at +2 at every tier (the HEAD code does this; the HEAD medium file
  was produced by an older uncapped version with up to 13 givens on 6×6, spec pitfall 5).
* The prompt gives a 3×3 format example instead of an example line ``1 2 .. n`` repeated n times
  (a line of the answer's exact shape invites copying); it asks for the final line
  ``Answer: ...`` (EN) or ``정답: ...`` (KO), both accepted by the reference judge's labels.
* Scoring: when the labelled line is followed by the grid on the next lines (``Answer:`` then n
  rows), we read those rows; the reference judge only sees the first row and marks it wrong
  (spec pitfall 3). For letter-coded chain golds we also accept the numbers written out in full.

Verification (independent of the sampler's backtracking code): the puzzle is parsed back from the
question text (grid rows and constraint lines), encoded as CNF over n³ one-hot variables
(exactly-one per cell, per row-value and per column-value, unit givens, and for each inequality the
binary clauses forbidding every violating value pair) and python-sat counts models up to two. The
unique model must equal the gold and the instance's solution; the instance must match the text.
"""

from __future__ import annotations

import re
from itertools import product

from pysat.formula import IDPool

from .base import Puzzle, Reject, VerificationError
from .extract import strip_fences
from .solvers import count_models, exactly

# ---------------------------------------------------------------------------------------------
# Sampling helpers (the generator's own solver; verification does not use any of this)
# ---------------------------------------------------------------------------------------------


def _random_latin_square(rng, n):
    """A random Latin square by randomised backtracking (cells in row-major order)."""
    grid = [[0] * n for _ in range(n)]
    full = (1 << n) - 1
    rows = [0] * n
    cols = [0] * n

    def fill(k):
        if k == n * n:
            return True
        r, c = divmod(k, n)
        free = full & ~(rows[r] | cols[c])
        vals = [v for v in range(n) if free >> v & 1]
        rng.shuffle(vals)
        for v in vals:
            bit = 1 << v
            rows[r] |= bit
            cols[c] |= bit
            grid[r][c] = v + 1
            if fill(k + 1):
                return True
            rows[r] &= ~bit
            cols[c] &= ~bit
        grid[r][c] = 0
        return False

    if not fill(0):  # pragma: no cover - a Latin square always exists
        raise Reject("no latin square")
    return grid


def _propagate(dom, n, rels, hidden_singles):
    """Prune domains (bitmasks, value v <-> bit v-1) in place; False on contradiction.

    ``rels`` are (cell_small, cell_large) pairs meaning value(small) < value(large)."""
    units = _UNITS[n]
    full = (1 << n) - 1
    changed = True
    while changed:
        changed = False
        for unit in units:
            fixed = 0
            for i in unit:
                d = dom[i]
                if d & (d - 1) == 0:
                    if d == 0 or fixed & d:
                        return False
                    fixed |= d
            if fixed:
                for i in unit:
                    d = dom[i]
                    if d & (d - 1) and d & fixed:
                        d &= ~fixed
                        if d == 0:
                            return False
                        dom[i] = d
                        changed = True
        for a, b in rels:
            da, db = dom[a], dom[b]
            # value(a) < max value(b); value(b) > min value(a)
            na = da & ((1 << (db.bit_length() - 1)) - 1)
            nb = db & ~((da & -da) * 2 - 1)
            if na != da or nb != db:
                if na == 0 or nb == 0:
                    return False
                dom[a], dom[b] = na, nb
                changed = True
        if hidden_singles and not changed:
            for unit in units:
                seen = 0
                twice = 0
                for i in unit:
                    twice |= seen & dom[i]
                    seen |= dom[i]
                if seen != full:
                    return False
                once = seen & ~twice
                if once:
                    for i in unit:
                        hit = dom[i] & once
                        if hit and dom[i] != hit:
                            if hit & (hit - 1):
                                return False
                            dom[i] = hit
                            changed = True
    return True


def _count_solutions(n, givens, rels, limit=2):
    dom = [(1 << n) - 1] * (n * n)
    for r, c, v in givens:
        dom[r * n + c] = 1 << (v - 1)
    count = 0
    stack = [dom]
    while stack:
        d = stack.pop()
        if not _propagate(d, n, rels, True):
            continue
        best, best_size = -1, 99
        for i, m in enumerate(d):
            if m & (m - 1):
                size = bin(m).count("1")
                if size < best_size:
                    best, best_size = i, size
                    if size == 2:
                        break
        if best < 0:
            count += 1
            if count >= limit:
                return count
            continue
        m = d[best]
        while m:
            bit = m & -m
            m ^= bit
            child = d[:]
            child[best] = bit
            stack.append(child)
    return count


def _propagation_solves(n, givens, rels):
    dom = [(1 << n) - 1] * (n * n)
    for r, c, v in givens:
        dom[r * n + c] = 1 << (v - 1)
    if not _propagate(dom, n, rels, False):
        return False
    return all(m & (m - 1) == 0 for m in dom)


def _build_tables():
    peers, units = {}, {}
    for n in (3, 4, 5, 6, 7, 8, 9):
        p = []
        for i in range(n * n):
            r, c = divmod(i, n)
            p.append([r * n + k for k in range(n) if k != c] + [k * n + c for k in range(n) if k != r])
        peers[n] = p
        units[n] = [[r * n + c for c in range(n)] for r in range(n)] + [
            [r * n + c for r in range(n)] for c in range(n)
        ]
    return peers, units


_PEERS, _UNITS = _build_tables()


def _rel_pairs(n, relations):
    out = []
    for r1, c1, r2, c2, op in relations:
        a, b = r1 * n + c1, r2 * n + c2
        out.append((a, b) if op == "<" else (b, a))
    return out


# ---------------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------------
_EN_ROW = "Row {i}: {cells}"
_KO_ROW = "행 {i}: {cells}"
_CONSTRAINT = re.compile(r"^- \((\d+),(\d+)\) ([<>]) \((\d+),(\d+)\)$")
_GRID_ROW = re.compile(r"^(?:Row|행) (\d+): ((?:[1-9_] ?)+)$")


class Inequality(Puzzle):
    name = "inequality"
    version = "1"
    _common = {"form": "futoshiki", "max_added_givens": 2, "min_relations": 3, "max_tries": 200}
    levers = {
        "easy": {
            **_common,
            "size_weights": [[5, 1.0]],
            "givens": {"5": [2, 6]},
            "backtrack_ratio": 1.0,
        },
        "medium": {
            **_common,
            "size_weights": [[5, 0.62], [6, 0.38]],
            "givens": {"5": [2, 6], "6": [3, 5]},
            "backtrack_ratio": 0.82,
        },
        "hard": {
            **_common,
            "size_weights": [[5, 0.20], [6, 0.80]],
            "givens": {"5": [2, 6], "6": [3, 5]},
            "backtrack_ratio": 0.92,
        },
    }

    # ---- sampling ----------------------------------------------------------------------------
    def sample(self, rng, levers, lang):
        sizes = [s for s, _ in levers["size_weights"]]
        weights = [w for _, w in levers["size_weights"]]
        n = rng.choices(sizes, weights=weights)[0]
        lo, hi = levers["givens"][str(n)]
        target_givens = rng.randint(lo, hi)
        target = "backtrack" if rng.random() < levers["backtrack_ratio"] else "propagation"
        fallback = None
        for _ in range(levers["max_tries"]):
            inst = self._try(rng, n, target_givens, target, levers)
            if inst is None:
                continue
            if inst["solve_class"] == target:
                return inst
            fallback = inst
        if fallback is None:
            raise Reject("no unique puzzle")
        return fallback

    def _try(self, rng, n, g, target, levers):
        sol = _random_latin_square(rng, n)
        rels = []
        for r in range(n):
            for c in range(n):
                if c + 1 < n:
                    rels.append([r, c, r, c + 1, "<" if sol[r][c] < sol[r][c + 1] else ">"])
                if r + 1 < n:
                    rels.append([r, c, r + 1, c, "<" if sol[r][c] < sol[r + 1][c] else ">"])
        rng.shuffle(rels)
        cells = [(r, c) for r in range(n) for c in range(n)]
        rng.shuffle(cells)
        k = g
        givens = [(r, c, sol[r][c]) for r, c in cells[:k]]
        while _count_solutions(n, givens, _rel_pairs(n, rels)) != 1:
            if k >= g + levers["max_added_givens"]:
                return None
            k += 1
            givens = [(r, c, sol[r][c]) for r, c in cells[:k]]
        propagation = target == "propagation"
        if propagation and not _propagation_solves(n, givens, _rel_pairs(n, rels)):
            propagation = False
        kept = list(rels)
        for rel in rels:
            trial = [x for x in kept if x is not rel]
            pairs = _rel_pairs(n, trial)
            if propagation and not _propagation_solves(n, givens, pairs):
                continue
            # The solution is the only one satisfying ``rel``, so the puzzle without ``rel`` stays
            # unique exactly when no solution satisfies the reversed relation.
            a, b = _rel_pairs(n, [rel])[0]
            if _count_solutions(n, givens, pairs + [(b, a)], limit=1) == 0:
                kept = trial
        if len(kept) < levers["min_relations"]:
            return None
        cls = "propagation" if _propagation_solves(n, givens, _rel_pairs(n, kept)) else "backtrack"
        return {
            "n": n,
            "givens": sorted([list(x) for x in givens]),
            "relations": sorted(kept, key=lambda x: (x[0], x[1], x[2], x[3])),
            "solution": sol,
            "solve_class": cls,
        }

    # ---- text --------------------------------------------------------------------------------
    def _rows(self, instance, lang):
        n = instance["n"]
        grid = [["_"] * n for _ in range(n)]
        for r, c, v in instance["givens"]:
            grid[r][c] = str(v)
        tmpl = _EN_ROW if lang == "en" else _KO_ROW
        return [tmpl.format(i=i + 1, cells=" ".join(row)) for i, row in enumerate(grid)]

    @staticmethod
    def _constraints(instance):
        return [
            f"- ({r1 + 1},{c1 + 1}) {op} ({r2 + 1},{c2 + 1})" for r1, c1, r2, c2, op in instance["relations"]
        ]

    def render(self, instance, lang, levers):
        n = instance["n"]
        rows = "\n".join(self._rows(instance, lang))
        cons = "\n".join(self._constraints(instance))
        if lang == "en":
            return (
                f"Solve this {n}×{n} Futoshiki puzzle (a Latin square with inequality signs).\n\n"
                "Rules:\n"
                f"1. Write a number from 1 to {n} in every cell so that each row and each column contains "
                f"every number from 1 to {n} exactly once.\n"
                "2. Numbers already shown are fixed; an underscore `_` marks a cell you must fill.\n"
                f"3. A cell is written (row,column), both counted from 1: row 1 is the top row and column 1 "
                f"the leftmost column, so ({n},{n}) is the bottom-right cell.\n"
                "4. A constraint `(a) < (b)` says the number in cell a is smaller than the number in cell b; "
                "`(a) > (b)` says it is larger. Constraints only join horizontally or vertically neighbouring "
                "cells. Neighbouring cells without a listed constraint may be in either order.\n\n"
                "Grid (rows from top to bottom, cells from left to right):\n"
                f"{rows}\n\n"
                "Inequality constraints:\n"
                f"{cons}\n\n"
                "The puzzle has exactly one solution. Reason it out, then give the completed grid on the "
                f"last line as {n * n} numbers separated by single spaces, row 1 first and each row read "
                "from left to right, after the label `Answer:`.\n"
                "Format illustration only (a 3×3 grid with rows 1 2 3 / 2 3 1 / 3 1 2 would be written):\n"
                "Answer: 1 2 3 2 3 1 3 1 2"
            )
        return (
            f"다음 {n}×{n} 후토시키 퍼즐(부등호가 있는 라틴 방진)을 푸세요.\n\n"
            "규칙:\n"
            f"1. 모든 칸에 1부터 {n}까지의 수 중 하나를 써서, 각 행과 각 열에 1부터 {n}까지의 수가 "
            "정확히 한 번씩 나오게 합니다.\n"
            "2. 이미 적힌 수는 바꿀 수 없고, 밑줄 `_`은 채워야 하는 빈칸입니다.\n"
            f"3. 칸은 (행,열)로 나타내며 둘 다 1부터 셉니다. 1행은 맨 위 행, 1열은 맨 왼쪽 열이므로 "
            f"({n},{n})은 오른쪽 아래 칸입니다.\n"
            "4. 제약 `(a) < (b)`는 칸 a의 수가 칸 b의 수보다 작다는 뜻이고, `(a) > (b)`는 더 크다는 뜻입니다. "
            "제약은 가로나 세로로 맞닿은 두 칸 사이에만 있습니다. 제약이 적혀 있지 않은 이웃 칸은 "
            "어느 쪽이 커도 됩니다.\n\n"
            "격자 (위쪽 행부터, 각 행은 왼쪽 칸부터):\n"
            f"{rows}\n\n"
            "부등호 제약:\n"
            f"{cons}\n\n"
            f"이 퍼즐의 해는 단 하나입니다. 풀이 과정을 쓴 뒤, 마지막 줄에 완성된 격자를 {n * n}개의 수로 "
            "적으세요. 1행부터 차례로, 각 행은 왼쪽에서 오른쪽으로 읽고, 수 사이는 공백 한 칸으로 구분하며 "
            "`정답:` 뒤에 씁니다.\n"
            "형식 예시일 뿐입니다 (행이 1 2 3 / 2 3 1 / 3 1 2인 3×3 격자라면 이렇게 씁니다):\n"
            "정답: 1 2 3 2 3 1 3 1 2"
        )

    def gold(self, instance, lang):
        return " ".join(str(v) for row in instance["solution"] for v in row)

    def solution(self, instance, lang):
        head = "Completed grid:" if lang == "en" else "완성된 격자:"
        tmpl = _EN_ROW if lang == "en" else _KO_ROW
        lines = [head]
        lines += [
            tmpl.format(i=i + 1, cells=" ".join(map(str, row))) for i, row in enumerate(instance["solution"])
        ]
        label = "Answer" if lang == "en" else "정답"
        lines.append(f"{label}: {self.gold(instance, lang)}")
        return "\n".join(lines)

    # ---- verification ------------------------------------------------------------------------
    def check(self, item, instance):
        n, grid, rels = _parse_question(item["question"])
        # The text must state the instance.
        if n != instance["n"]:
            raise VerificationError(f"question shows {n} rows, instance has n={instance['n']}")
        given_text = sorted([r, c, v] for r in range(n) for c in range(n) if (v := grid[r][c]))
        if given_text != sorted(instance["givens"]):
            raise VerificationError("grid in the question differs from the instance givens")
        if sorted(rels) != sorted([r1, c1, r2, c2, op] for r1, c1, r2, c2, op in instance["relations"]):
            raise VerificationError("constraints in the question differ from the instance")
        if len(rels) < 1:
            raise VerificationError("no constraints")
        count, models = _sat_count(n, grid, rels)
        if count == 0:
            raise VerificationError("puzzle has no solution")
        if count > 1:
            raise VerificationError("puzzle has more than one solution")
        solved = models[0]
        if solved != instance["solution"]:
            raise VerificationError("unique solution differs from the instance solution")
        gold = [int(t) for t in item["answer"].split()]
        if gold != [v for row in solved for v in row] or item["answer"] != " ".join(map(str, gold)):
            raise VerificationError("gold differs from the unique solution")

    # ---- scoring -----------------------------------------------------------------------------
    def extract(self, response, answer, lang):
        return _extract(response, answer)

    def matches(self, extracted, answer, lang):
        want = _gold_values(answer)
        got = _to_values(extracted, len(want))
        return bool(want) and got == want


# ---------------------------------------------------------------------------------------------
# Verification helpers (independent of the sampler)
# ---------------------------------------------------------------------------------------------
def _parse_question(question):
    rows = {}
    rels = []
    for line in question.splitlines():
        m = _GRID_ROW.match(line)
        if m:
            rows[int(m.group(1))] = m.group(2).split()
            continue
        m = _CONSTRAINT.match(line)
        if m:
            r1, c1, op, r2, c2 = m.groups()
            rels.append([int(r1) - 1, int(c1) - 1, int(r2) - 1, int(c2) - 1, op])
    n = len(rows)
    if n < 2 or sorted(rows) != list(range(1, n + 1)):
        raise VerificationError("cannot read the grid rows from the question")
    grid = []
    for i in range(1, n + 1):
        cells = rows[i]
        if len(cells) != n:
            raise VerificationError(f"row {i} has {len(cells)} cells, expected {n}")
        out = []
        for t in cells:
            v = 0 if t == "_" else int(t)
            if not 0 <= v <= n:
                raise VerificationError(f"value {v} out of range")
            out.append(v)
        grid.append(out)
    for r1, c1, r2, c2, _op in rels:
        if not all(0 <= x < n for x in (r1, c1, r2, c2)):
            raise VerificationError("constraint cell outside the grid")
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            raise VerificationError("constraint between cells that are not orthogonal neighbours")
    return n, grid, rels


def _sat_count(n, grid, rels):
    pool = IDPool()

    def x(r, c, v):
        return pool.id(("x", r, c, v))

    values = range(1, n + 1)
    idx = range(n)
    lits = [x(r, c, v) for r in idx for c in idx for v in values]  # allocate first
    clauses = []
    for r, c in product(idx, idx):
        clauses += exactly([x(r, c, v) for v in values], 1, pool)
    for r, v in product(idx, values):
        clauses += exactly([x(r, c, v) for c in idx], 1, pool)
    for c, v in product(idx, values):
        clauses += exactly([x(r, c, v) for r in idx], 1, pool)
    for r, c in product(idx, idx):
        if grid[r][c]:
            clauses.append([x(r, c, grid[r][c])])
    for r1, c1, r2, c2, op in rels:
        for a, b in product(values, values):
            bad = a >= b if op == "<" else a <= b
            if bad:
                clauses.append([-x(r1, c1, a), -x(r2, c2, b)])
    count, models = count_models(clauses, limit=2, project=lits)
    grids = []
    for model in models:
        true = {lit for lit in model if lit > 0}
        grids.append([[next(v for v in values if x(r, c, v) in true) for c in idx] for r in idx])
    return count, grids


# ---------------------------------------------------------------------------------------------
# Scoring helpers (reference-judge compatible)
# ---------------------------------------------------------------------------------------------
# The reference judge's labelled line: whitespace after the colon may run onto the next line.
_LABEL_LINE = re.compile(
    r"^[ \t]*(?:final\s+answer|answer|최종\s*답|정답|원문|plaintext)[ \t]*[:：]\s*([^\n]*)$",
    re.IGNORECASE | re.MULTILINE,
)
_INNER = [
    re.compile(r"answer:\s*([\d\s]+)", re.IGNORECASE),
    re.compile(r"정답:\s*([\d\s]+)"),
    re.compile(r"solution[:\s]+([\d\s]+)", re.IGNORECASE),
    re.compile(r"sequence[:\s]+([\d\s]+)", re.IGNORECASE),
]
_INT = re.compile(r"\d+")
_LETTER_GOLD = re.compile(r"[a-g]")
_ROW_PREFIX = re.compile(r"^\s*(?:[-*]\s*)?(?:(?:row|행|r)\s*)?\d+\s*(?:행\s*)?[:：]", re.IGNORECASE)
_LETTERS = {ch: 10 + i for i, ch in enumerate("abcdefg")}


def _gold_size(answer):
    answer = (answer or "").strip()
    if _LETTER_GOLD.search(answer.lower()) and " " not in answer:
        return len(answer)
    nums = _INT.findall(answer)
    if len(nums) > 1:
        return len(nums)
    return len(answer)


def _gold_values(answer):
    answer = (answer or "").strip().lower()
    if _LETTER_GOLD.search(answer) and " " not in answer:
        return [_LETTERS[ch] if ch in _LETTERS else int(ch) for ch in answer if ch.isalnum()]
    return _to_values(answer, _gold_size(answer))


def _to_values(text, size):
    nums = _INT.findall(text or "")
    if len(nums) == 1 and len(nums[0]) == size and size <= 36:
        return [int(d) for d in nums[0]]
    return [int(t) for t in nums]


def _label_payload(text):
    last = None
    for m in _LABEL_LINE.finditer(text):
        last = m
    return last


def _extract(response, answer):
    text = strip_fences(response)
    answer = (answer or "").strip()
    size = _gold_size(answer) if answer else 0
    m = _label_payload(text)
    payload = m.group(1) if m is not None else text
    if answer and _LETTER_GOLD.search(answer.lower()) and " " not in answer:
        found = _letter_token(payload, text, size)
        if found is not None:
            return " ".join(str(v) for v in found)
    if size == 0:
        nums = _INT.findall(payload)
        return " ".join(nums) if nums else None
    got = _digits(payload, size)
    if got is not None:
        return got
    if m is not None:
        # Improvement over the reference judge: a grid written on the lines after the label.
        return _grid_after(text, m, size)
    return None


def _digits(payload, size):
    for pat in _INNER:
        hit = pat.search(payload)
        if hit:
            nums = _INT.findall(hit.group(1))
            if len(nums) >= size:
                return " ".join(nums[:size])
    tail = payload[-200:]
    runs = _INT.findall(tail)
    for run in reversed(runs):
        if len(run) == size and size > 1:
            return " ".join(run)
    if len(runs) >= size:
        return " ".join(runs[-size:])
    return None


def _grid_after(text, m, size):
    start = m.start(1)
    lines = text[start:].split("\n", 60)[:60]
    nums = []
    for line in lines:
        if not line.strip():
            if nums:
                break
            continue
        body = _ROW_PREFIX.sub("", line, count=1)
        row = _INT.findall(body)
        if not row:
            break
        nums += row
        if len(nums) >= size:
            break
    if len(nums) == size:
        return " ".join(nums)
    if len(nums) == 1 and len(nums[0]) == size:
        return nums[0]
    return None


_TOKEN = re.compile(r"(?<![0-9a-z])[0-9a-g]+(?![0-9a-z])")


def _letter_token(payload, response, size):
    def last_token(s):
        best = None
        for t in _TOKEN.findall(s.lower()):
            if len(t) == size:
                best = t
        return best

    for s in (payload, re.sub(r"[\s,\-]", "", payload), response[-200:]):
        tok = last_token(s)
        if tok is not None:
            return [_LETTERS[ch] if ch in _LETTERS else int(ch) for ch in tok]
    nums = _INT.findall(payload)
    if len(nums) == size:  # the permutation written out in full numbers
        return [int(t) for t in nums]
    return None


PUZZLE = Inequality()
