"""minesweeper (direct translation): find every mine on a partly revealed board.

An R×C board holds exactly M mines (M is stated in the prompt). Some safe cells are revealed and
show how many of their up to 8 neighbours (orthogonal and diagonal) are mines; every other cell is
hidden (``#``). Revealed zeros do not open their neighbours (reference behaviour, stated in the
prompt). The mine layout consistent with the clues **and** the total M is unique; the answer lists
all M mines.

Coordinate convention (one, stated in the prompt): ``(row,col)``, 0-based, row 0 at the top and
column 0 at the left. Gold: the mines sorted by row then column, each ``(r,c)`` without inner
spaces, joined by ``", "``, e.g. ``(0,2), (0,6), (2,3)``.

Latent instance::

    {"rows": R, "cols": C, "mines": M,
     "mine_cells": [[r, c], ...],       # sorted, exactly M cells
     "revealed": [[r, c, v], ...]}      # sorted row-major; v = mines among the neighbours

Levers per tier (reference code at HEAD = methodology doc)::

    easy   : a mixture of blocks (rows, cols, mines, revealed, weight) =
             7×7/6/24 (28), 8×8/7/30 (28), 8×8/8/28 (24), 11×11/21/42 (10), 12×12/24/48 (10);
             "fixed" reveal: exactly the block's revealed count
    medium : 9×9, 14 mines; "until_unique" reveal from 0.25·S up to at most 0.45·S
    hard   : 9×9, 18 mines; "until_unique" reveal from 0.25·S up to at most 0.58·S
             (S = number of safe cells)

Sampling: mines uniformly without replacement; clue numbers from the mask; safe cells ranked by
the reference's information score (k in-board neighbours, clue v: 2k if v in {0, k}, else
2·|v − k/2| + 1; descending, ties in row-major order) and taken in the "balanced" order (1st, last,
2nd, 2nd-last, ...). "fixed": the first T cells of that order must give a unique puzzle, else a
new layout. "until_unique": the smallest k in [⌊0.25·S⌋, ⌊max_ratio·S⌋] for which the first k cells
give a unique puzzle (found by bisection, which equals adding one cell at a time because extra
clues never break uniqueness); none → new layout. The sampler's own uniqueness test is a
backtracking counter over the clue-adjacent hidden cells with unit propagation, the clue-free
("floating") cells counted by a binomial coefficient.

Departures from the reference (and why):

* Each item is an independent layout (spec pitfall 4): no dihedral images of a few base boards.
* The easy block is drawn per item with the block sizes as weights (28/28/24/10/10), instead of
  fixed file-order blocks, since an item is generated from its own seed only.
* Recalibration of the two large easy blocks (11×11/21 mines, 12×12/24 mines): with the HEAD
  reveal order, the first 42 / 48 cells give a unique board for only ~0-0.1% of layouts (measured),
  far too rare to sample per item. These blocks keep T = 42 / 48 as the *minimum* and reveal further
  cells in the same order until unique, up to ``max_ratio`` = 0.65 of the safe cells (observed
  57-78 revealed). The three small blocks use the reference's fixed counts unchanged.
* Observed reveal counts sit near the cap: medium ~22-30 (median 29), hard ~26-36 (median 35),
  versus the released files' medians 21 / 26. The HEAD procedure implemented here simply does not
  reach the released counts (the release came from an earlier generator, spec §2.5); we keep the
  HEAD levers rather than invent a new reveal rule.
* Prompts are our own wording; KO asks for ``정답: (r1,c1), ...`` (the reference judge accepts both
  labels). Column labels are padded so wide boards (c10, c11) stay aligned.

Verification (independent of the sampler): the board, R, C and M are parsed back from the question
text; python-sat gets one variable per hidden cell, an exact cardinality constraint
(sequential counter) per revealed clue over its hidden neighbours and one over all hidden cells for
the global total; models are counted up to two, projected on the cell variables. The unique model
must equal the gold and the instance's mine set, and every revealed digit must equal the true
neighbour count of the instance's mines.
"""

from __future__ import annotations

import re
from functools import cache
from math import comb

from pysat.formula import IDPool

from .base import Puzzle, Reject, VerificationError
from .solvers import count_models, exactly

MAX_LAYOUTS = 400  # layouts tried per sample() call before Reject (the base class retries)


def _neighbours(R, C, r, c):
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                rr, cc = r + dr, c + dc
                if 0 <= rr < R and 0 <= cc < C:
                    out.append((rr, cc))
    return out


@cache
def _nb_ids(R, C):
    """Neighbour lists by cell id (r*C + c); the sampler's fast path."""
    return tuple(tuple(rr * C + cc for rr, cc in _neighbours(R, C, i // C, i % C)) for i in range(R * C))


# ---------------------------------------------------------------------------------------------
# The sampler's uniqueness counter (verification does not use it)
# ---------------------------------------------------------------------------------------------
def _count_layouts(R, C, M, revealed, limit=2):
    """Number of mine layouts (capped at ``limit``) agreeing with ``revealed`` {cell id: v} and M."""
    nbs = _nb_ids(R, C)
    index = [-1] * (R * C)
    n_hidden = 0
    for i in range(R * C):
        if i not in revealed:
            index[i] = n_hidden
            n_hidden += 1
    clues_of = [[] for _ in range(n_hidden)]
    need, free, members = [], [], []
    for cell, v in revealed.items():
        nb = [index[x] for x in nbs[cell] if index[x] >= 0]
        if v > len(nb):
            return 0
        k = len(need)
        need.append(v)
        free.append(len(nb))
        members.append(nb)
        for h in nb:
            clues_of[h].append(k)
    hidden = range(n_hidden)
    constrained = [h for h in range(len(hidden)) if clues_of[h]]
    floating = len(hidden) - len(constrained)
    value = [-1] * len(hidden)
    state = {"mines": 0, "open": len(constrained), "count": 0}

    def assign(h, v, trail, queue):
        value[h] = v
        trail.append(h)
        state["open"] -= 1
        if v:
            state["mines"] += 1
        for k in clues_of[h]:
            free[k] -= 1
            if v:
                need[k] -= 1
            queue.append(k)

    def undo(trail, mark):
        while len(trail) > mark:
            h = trail.pop()
            v = value[h]
            value[h] = -1
            state["open"] += 1
            if v:
                state["mines"] -= 1
            for k in clues_of[h]:
                free[k] += 1
                if v:
                    need[k] += 1

    def propagate(trail, queue):
        while queue:
            k = queue.pop()
            n, f = need[k], free[k]
            if n < 0 or n > f:
                return False
            if f and (n == 0 or n == f):
                v = 1 if n else 0
                for h in members[k]:
                    if value[h] < 0:
                        assign(h, v, trail, queue)
        mines = state["mines"]
        return mines <= M and mines + state["open"] + floating >= M

    def pick():
        best, best_f = -1, 99
        for k in range(len(need)):
            f = free[k]
            if 0 < f < best_f:
                best, best_f = k, f
                if f <= 2:
                    break
        if best < 0:
            return -1
        for h in members[best]:
            if value[h] < 0:
                return h
        return -1

    trail = []

    def search():
        h = pick()
        if h < 0:
            rem = M - state["mines"]
            if 0 <= rem <= floating:
                state["count"] += comb(floating, rem)
            return state["count"] >= limit
        for v in (1, 0):
            mark = len(trail)
            queue = []
            assign(h, v, trail, queue)
            if propagate(trail, queue) and search():
                return True
            undo(trail, mark)
        return False

    if propagate(trail, list(range(len(need)))):
        search()
    return min(state["count"], limit)


def _reveal_order(R, C, mines):
    """Safe cell ids in the reference's balanced information-score order, with their clues."""
    nbs = _nb_ids(R, C)
    is_mine = [False] * (R * C)
    for m in mines:
        is_mine[m] = True
    scored = []
    for i in range(R * C):
        if is_mine[i]:
            continue
        nb = nbs[i]
        k = len(nb)
        v = 0
        for x in nb:
            v += is_mine[x]
        score = 2 * k if v == 0 or v == k else 2 * abs(v - k / 2) + 1
        scored.append((score, i, v))
    scored.sort(key=lambda t: -t[0])  # stable: ties stay in row-major order
    order = []
    i, j = 0, len(scored) - 1
    while i <= j:
        order.append(scored[i])
        if i != j:
            order.append(scored[j])
        i += 1
        j -= 1
    return [(cell, v) for _, cell, v in order]


class Minesweeper(Puzzle):
    name = "minesweeper"
    version = "1"
    levers = {
        "easy": {
            "reveal_mode": "fixed",
            "blocks": [
                {"rows": 7, "cols": 7, "mines": 6, "revealed": 24, "weight": 28},
                {"rows": 8, "cols": 8, "mines": 7, "revealed": 30, "weight": 28},
                {"rows": 8, "cols": 8, "mines": 8, "revealed": 28, "weight": 24},
                # Recalibrated (see the module docstring): at least T revealed, more if needed.
                {"rows": 11, "cols": 11, "mines": 21, "revealed": 42, "weight": 10, "max_ratio": 0.65},
                {"rows": 12, "cols": 12, "mines": 24, "revealed": 48, "weight": 10, "max_ratio": 0.65},
            ],
        },
        "medium": {
            "reveal_mode": "until_unique",
            "blocks": [{"rows": 9, "cols": 9, "mines": 14, "weight": 1}],
            "start_ratio": 0.25,
            "max_ratio": 0.45,
        },
        "hard": {
            "reveal_mode": "until_unique",
            "blocks": [{"rows": 9, "cols": 9, "mines": 18, "weight": 1}],
            "start_ratio": 0.25,
            "max_ratio": 0.58,
        },
    }

    # ---- sampling ----------------------------------------------------------------------------
    def sample(self, rng, levers, lang):
        blocks = levers["blocks"]
        block = rng.choices(blocks, weights=[b["weight"] for b in blocks])[0]
        R, C, M = block["rows"], block["cols"], block["mines"]
        cells = range(R * C)
        for _ in range(MAX_LAYOUTS):
            mines = rng.sample(cells, M)
            order = _reveal_order(R, C, mines)
            S = len(order)

            def unique(k, order=order):
                return _count_layouts(R, C, M, dict(order[:k])) == 1

            if levers["reveal_mode"] == "fixed" and "max_ratio" not in block:
                k = block["revealed"]
                if not unique(k):
                    continue
            else:
                if levers["reveal_mode"] == "fixed":  # recalibrated big easy blocks
                    lo, hi = block["revealed"], int(block["max_ratio"] * S)
                else:
                    lo, hi = int(levers["start_ratio"] * S), int(levers["max_ratio"] * S)
                if not unique(hi):
                    continue
                while lo < hi:  # smallest k in [lo, hi] that is unique (monotone in k)
                    mid = (lo + hi) // 2
                    if unique(mid):
                        hi = mid
                    else:
                        lo = mid + 1
                k = hi
            return {
                "rows": R,
                "cols": C,
                "mines": M,
                "mine_cells": sorted([m // C, m % C] for m in mines),
                "revealed": sorted([i // C, i % C, v] for i, v in order[:k]),
            }
        raise Reject("no unique layout")

    # ---- text --------------------------------------------------------------------------------
    @staticmethod
    def _board(instance):
        R, C = instance["rows"], instance["cols"]
        grid = [["#"] * C for _ in range(R)]
        for r, c, v in instance["revealed"]:
            grid[r][c] = str(v)
        w = len(f"c{C - 1}")
        lw = len(f"r{R - 1}")
        header = " " * lw + " " + " ".join(f"c{c}".ljust(w) for c in range(C))
        lines = [header.rstrip()]
        for r in range(R):
            lines.append((f"r{r}".ljust(lw) + " " + " ".join(x.ljust(w) for x in grid[r])).rstrip())
        return "\n".join(lines)

    def render(self, instance, lang, levers):
        R, C, M = instance["rows"], instance["cols"], instance["mines"]
        board = self._board(instance)
        if lang == "en":
            return (
                "Minesweeper: work out where every mine is.\n\n"
                "Rules:\n"
                f"1. The board has {R} rows × {C} columns. Rows are numbered 0 to {R - 1} from top to "
                f"bottom and columns 0 to {C - 1} from left to right; a cell is written (row,col), 0-based, "
                "so (0,0) is the top-left cell.\n"
                f"2. Exactly {M} mines are hidden on the board in total.\n"
                "3. A digit marks a revealed cell. It is not a mine, and the digit (0-8) is the number of mines "
                "among its neighbours: the up to 8 cells touching it horizontally, vertically or diagonally.\n"
                "4. `#` marks an unrevealed cell, which may or may not be a mine. Revealed cells do not "
                "uncover their neighbours, so a `#` can stand next to a 0 (it is then safe).\n"
                f"5. Exactly one placement of the {M} mines agrees with every revealed digit and the total.\n\n"
                "Board (row labels r0, r1, ... on the left; column labels c0, c1, ... on top):\n"
                f"{board}\n\n"
                f"Find all {M} mines. Explain your deduction, then finish with one line listing every mine "
                "as (row,col) pairs, sorted by row and then by column, separated by commas:\n"
                "Answer: (r1,c1), (r2,c2), ..."
            )
        return (
            "지뢰찾기: 모든 지뢰의 위치를 찾으세요.\n\n"
            "규칙:\n"
            f"1. 판은 {R}행 × {C}열입니다. 행은 위에서 아래로 0부터 {R - 1}까지, 열은 왼쪽에서 오른쪽으로 "
            f"0부터 {C - 1}까지 번호를 매기며, 칸은 0부터 센 (행,열)로 씁니다. (0,0)은 왼쪽 위 칸입니다.\n"
            f"2. 판 전체에 지뢰가 정확히 {M}개 있습니다.\n"
            "3. 숫자가 적힌 칸은 열린 칸입니다. 이 칸은 지뢰가 아니며, 숫자(0-8)는 가로·세로·대각선으로 맞닿은 "
            "최대 8개의 이웃 칸 가운데 지뢰의 개수입니다.\n"
            "4. `#`은 열리지 않은 칸으로, 지뢰일 수도 있고 아닐 수도 있습니다. 열린 칸이 이웃 칸을 자동으로 "
            "열지는 않으므로 0 옆에도 `#`이 있을 수 있습니다(그 칸은 안전합니다).\n"
            f"5. 모든 숫자와 지뢰 총개수를 만족하는 지뢰 {M}개의 배치는 단 하나뿐입니다.\n\n"
            "판 (왼쪽은 행 번호 r0, r1, ..., 위쪽은 열 번호 c0, c1, ...):\n"
            f"{board}\n\n"
            f"지뢰 {M}개를 모두 찾으세요. 추론 과정을 설명한 뒤, 마지막 줄에 모든 지뢰를 (행,열) 쌍으로 "
            "행 순서, 같은 행에서는 열 순서로 정렬하여 쉼표로 구분해 쓰세요:\n"
            "정답: (r1,c1), (r2,c2), ..."
        )

    def gold(self, instance, lang):
        return ", ".join(f"({r},{c})" for r, c in sorted(map(tuple, instance["mine_cells"])))

    def solution(self, instance, lang):
        R, C = instance["rows"], instance["cols"]
        mines = {tuple(x) for x in instance["mine_cells"]}
        head = "Mine layout (* = mine, . = safe):" if lang == "en" else "지뢰 배치 (* = 지뢰, . = 안전):"
        rows = ["".join("*" if (r, c) in mines else "." for c in range(C)) for r in range(R)]
        label = "Answer" if lang == "en" else "정답"
        return "\n".join([head, *rows, f"{label}: {self.gold(instance, lang)}"])

    # ---- verification ------------------------------------------------------------------------
    def check(self, item, instance):
        R, C, M, grid = _parse_question(item["question"], item["lang"])
        if (R, C, M) != (instance["rows"], instance["cols"], instance["mines"]):
            raise VerificationError("board size or mine count in the question differs from the instance")
        shown = sorted([r, c, int(grid[r][c])] for r in range(R) for c in range(C) if grid[r][c] != "#")
        if shown != sorted(instance["revealed"]):
            raise VerificationError("revealed cells in the question differ from the instance")
        mines = {tuple(x) for x in instance["mine_cells"]}
        if len(mines) != M or len(instance["mine_cells"]) != M:
            raise VerificationError("instance does not hold exactly M distinct mines")
        for r, c, v in shown:
            if (r, c) in mines:
                raise VerificationError(f"revealed cell ({r},{c}) is a mine")
            true = sum((rr, cc) in mines for rr, cc in _neighbours(R, C, r, c))
            if true != v:
                raise VerificationError(f"clue at ({r},{c}) is {v}, the layout gives {true}")
        count, layouts = _sat_count(R, C, M, grid)
        if count == 0:
            raise VerificationError("no mine layout agrees with the clues")
        if count > 1:
            raise VerificationError("more than one mine layout agrees with the clues and the total")
        if layouts[0] != mines:
            raise VerificationError("unique layout differs from the instance mines")
        gold = {(int(a), int(b)) for a, b in _PAIR.findall(item["answer"])}
        if gold != mines or item["answer"] != self.gold(instance, item["lang"]):
            raise VerificationError("gold differs from the unique mine layout")

    # ---- scoring -----------------------------------------------------------------------------
    def extract(self, response, answer, lang):
        pairs = _extract_pairs(response)
        if not pairs:
            return None
        return ", ".join(f"({r},{c})" for r, c in pairs)

    def matches(self, extracted, answer, lang):
        want = {(int(a), int(b)) for a, b in _PAIR.findall(answer)}
        got = {(int(a), int(b)) for a, b in _PAIR.findall(extracted)}
        return bool(want) and got == want


# ---------------------------------------------------------------------------------------------
# Verification helpers (independent of the sampler)
# ---------------------------------------------------------------------------------------------
_ROW_LINE = re.compile(r"^r(\d+) +(.*)$")
_SIZE = {
    "en": re.compile(r"The board has (\d+) rows × (\d+) columns"),
    "ko": re.compile(r"판은 (\d+)행 × (\d+)열입니다"),
}
_TOTAL = {
    "en": re.compile(r"Exactly (\d+) mines are hidden on the board in total"),
    "ko": re.compile(r"판 전체에 지뢰가 정확히 (\d+)개 있습니다"),
}


def _parse_question(question, lang):
    size = _SIZE[lang].search(question)
    total = _TOTAL[lang].search(question)
    if not size or not total:
        raise VerificationError("cannot read the board size or the mine total from the question")
    R, C, M = int(size.group(1)), int(size.group(2)), int(total.group(1))
    rows = {}
    for line in question.splitlines():
        m = _ROW_LINE.match(line)
        if m:
            rows[int(m.group(1))] = m.group(2).split()
    if sorted(rows) != list(range(R)):
        raise VerificationError("board rows in the question do not match the stated size")
    grid = []
    for r in range(R):
        cells = rows[r]
        if len(cells) != C or any(not (t == "#" or t in "012345678") for t in cells):
            raise VerificationError(f"row r{r} is malformed")
        grid.append(cells)
    return R, C, M, grid


def _sat_count(R, C, M, grid):
    pool = IDPool()
    var = {}
    for r in range(R):
        for c in range(C):
            if grid[r][c] == "#":
                var[(r, c)] = pool.id(("mine", r, c))
    lits = list(var.values())
    clauses = []

    def card(ls, k):
        if k < 0 or k > len(ls):
            return [[]]  # unsatisfiable
        if k == 0:
            return [[-x] for x in ls]
        if k == len(ls):
            return [[x] for x in ls]
        return exactly(ls, k, pool)

    for r in range(R):
        for c in range(C):
            if grid[r][c] != "#":
                nb = [var[x] for x in _neighbours(R, C, r, c) if x in var]
                clauses += card(nb, int(grid[r][c]))
    clauses += card(lits, M)
    if [] in clauses:
        return 0, []
    count, models = count_models(clauses, limit=2, project=lits)
    layouts = []
    for model in models:
        true = {lit for lit in model if lit > 0}
        layouts.append({cell for cell, v in var.items() if v in true})
    return count, layouts


# ---------------------------------------------------------------------------------------------
# Scoring helpers (the reference judge's rules, spec §4)
# ---------------------------------------------------------------------------------------------
_LABEL_LINE = re.compile(
    r"^[ \t]*(?:final\s+answer|answer|최종\s*답|정답|원문|plaintext)[ \t]*[:：][ \t]*([^\n]*)$",
    re.IGNORECASE | re.MULTILINE,
)
_FENCE = re.compile(r"```[a-zA-Z0-9_+-]*")
_KEYWORD = re.compile(r"final\s+answer|answer|output|답", re.IGNORECASE)
_NEGATION = re.compile(
    r"\b(?:not|no|never|except|exclude|excluding|without|isn't|aren't|don't|cannot|wrong)\b", re.IGNORECASE
)
# No two adjacent \s* (keeps the match linear on long runs of spaces).
_PAIR = re.compile(r"\(\s*(?:(?:row|r)\s*)?(\d+)\s*,\s*(?:(?:col|c)\s*)?(\d+)\s*\)", re.IGNORECASE)
_LEFTOVER = re.compile(r"[,\[\]\-:.\s]")


def _parse_pairs(text):
    text = _FENCE.sub("", text)
    last = None
    for m in _KEYWORD.finditer(text):
        last = m
    if last is not None:
        rest = text[last.end() :].split("\n", 1)[0]
        if not _NEGATION.search(rest):
            pairs = _PAIR.findall(rest)
            if pairs:
                return pairs
    lines = text.strip().split("\n")
    for line in reversed(lines[-3:]):
        if _NEGATION.search(line):
            continue
        pairs = _PAIR.findall(line)
        if pairs and len(_LEFTOVER.sub("", _PAIR.sub("", line))) <= 6:
            return pairs
    return None


def _extract_pairs(response):
    last = None
    for m in _LABEL_LINE.finditer(response):
        last = m
    if last is not None:
        pairs = _parse_pairs(last.group(1))
        if pairs:
            return [(int(a), int(b)) for a, b in pairs]
    pairs = _parse_pairs(response)
    return [(int(a), int(b)) for a, b in pairs] if pairs else None


PUZZLE = Minesweeper()
