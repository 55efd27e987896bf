"""sudoku (direct translation): a 9x9 Sudoku with a unique solution; report the digits at K blank cells.

Latent instance::

    {"grid": "81 chars, row-major, '.' for a blank",
     "solution": "81 digits, row-major",
     "cells": [[row, col], ...]}          # 1-based, the asked cells, in asking order

Generation: a random complete grid (randomised backtracking fill, so grids are not all transforms
of one pattern grid as in the reference), then givens are removed in 180-degree-rotation pairs
(visited in random order) while the puzzle keeps exactly one solution and the given count stays
>= ``min_givens``, stopping once it is <= ``target_givens``. A puzzle is accepted if it has
<= ``max_givens`` givens and, when singles alone do not solve it, a plain MRV backtracker needs at
most ``max_search_nodes`` nodes. The K asked cells are drawn from the **blank** cells only (the
reference also drew printed givens, so some of its items needed no solving).

Levers (reference code at HEAD): givens min/target/max 40/41/43, 37/38/39, 31/33/35; node cap
400 / 800 / none; K = 4 / 5 / 6.

Verification parses the grid and the asked cells from the question text, encodes the puzzle as CNF
(729 one-hot variables, exactly-one per cell, row, column and box) and counts models with python-sat up
to two: exactly one model, and the gold equals its digits at the asked cells.
"""

from __future__ import annotations

import re
from functools import cache

from pysat.formula import IDPool

from .base import Puzzle, Reject, VerificationError
from .extract import last_label_payload, strip_fences
from .solvers import count_models, exactly

DIGITS = "123456789"
_PEERS: list[tuple[int, ...]] = []
for _i in range(81):
    _r, _c = divmod(_i, 9)
    _b = (_r // 3) * 3 + _c // 3
    _PEERS.append(
        tuple(
            sorted(
                {
                    j
                    for j in range(81)
                    if j != _i and (j // 9 == _r or j % 9 == _c or ((j // 9) // 3) * 3 + (j % 9) // 3 == _b)
                }
            )
        )
    )
_UNITS = (
    [[r * 9 + c for c in range(9)] for r in range(9)]
    + [[r * 9 + c for r in range(9)] for c in range(9)]
    + [
        [(br * 3 + r) * 9 + bc * 3 + c for r in range(3) for c in range(3)]
        for br in range(3)
        for bc in range(3)
    ]
)
ALL = 0x1FF


def _popcount(x: int) -> int:
    return bin(x).count("1")


def _candidates(cells: list[int]) -> list[int] | None:
    """Bitmask candidates per cell (0 = blank in ``cells``); None on a contradiction."""
    cand = [ALL] * 81
    for i, v in enumerate(cells):
        if v:
            bit = 1 << (v - 1)
            if not cand[i] & bit:
                return None
            cand[i] = bit
            for p in _PEERS[i]:
                cand[p] &= ~bit
    return cand


def _search(cells: list[int], limit: int, node_cap: int | None = None) -> tuple[int, int]:
    """Count solutions (up to ``limit``) by MRV backtracking; returns (solutions, nodes)."""
    grid = list(cells)
    nodes = 0
    found = 0

    def rec() -> bool:
        nonlocal nodes, found
        nodes += 1
        if node_cap is not None and nodes > node_cap:
            return True
        best, best_mask, best_n = -1, 0, 10
        for i in range(81):
            if grid[i]:
                continue
            used = 0
            for p in _PEERS[i]:
                if grid[p]:
                    used |= 1 << (grid[p] - 1)
            mask = ALL & ~used
            n = _popcount(mask)
            if n < best_n:
                best, best_mask, best_n = i, mask, n
                if n <= 1:
                    break
        if best < 0:
            found += 1
            return found >= limit
        if best_n == 0:
            return False
        m = best_mask
        while m:
            bit = m & -m
            m ^= bit
            grid[best] = bit.bit_length()
            if rec():
                grid[best] = 0
                return True
        grid[best] = 0
        return False

    rec()
    return found, nodes


def _singles_solve(cells: list[int]) -> bool:
    """Whether naked and hidden singles alone complete the grid."""
    grid = list(cells)
    cand = _candidates(grid)
    if cand is None:
        return False
    progress = True
    while progress:
        progress = False
        for i in range(81):
            if not grid[i] and _popcount(cand[i]) == 1:
                _place(grid, cand, i, cand[i].bit_length())
                progress = True
        for unit in _UNITS:
            for d in range(9):
                bit = 1 << d
                spots = [i for i in unit if not grid[i] and cand[i] & bit]
                if len(spots) == 1 and not any(grid[i] == d + 1 for i in unit):
                    _place(grid, cand, spots[0], d + 1)
                    progress = True
        if any(not grid[i] and cand[i] == 0 for i in range(81)):
            return False
    return all(grid)


def _place(grid, cand, i, v):
    grid[i] = v
    bit = 1 << (v - 1)
    cand[i] = bit
    for p in _PEERS[i]:
        cand[p] &= ~bit


def _random_full_grid(rng) -> list[int]:
    grid = [0] * 81

    def fill(pos: int) -> bool:
        if pos == 81:
            return True
        used = 0
        for p in _PEERS[pos]:
            if grid[p]:
                used |= 1 << (grid[p] - 1)
        digits = [d for d in range(1, 10) if not used >> (d - 1) & 1]
        rng.shuffle(digits)
        for d in digits:
            grid[pos] = d
            if fill(pos + 1):
                return True
        grid[pos] = 0
        return False

    fill(0)
    return grid


class Sudoku(Puzzle):
    name = "sudoku"
    version = "1"
    levers = {
        "easy": {
            "min_givens": 40,
            "target_givens": 41,
            "max_givens": 43,
            "max_search_nodes": 400,
            "spot_cells": 4,
        },
        "medium": {
            "min_givens": 37,
            "target_givens": 38,
            "max_givens": 39,
            "max_search_nodes": 800,
            "spot_cells": 5,
        },
        "hard": {
            "min_givens": 31,
            "target_givens": 33,
            "max_givens": 35,
            "max_search_nodes": None,
            "spot_cells": 6,
        },
    }

    def sample(self, rng, levers, lang):
        solution = _random_full_grid(rng)
        puzzle = list(solution)
        groups = [(i, 80 - i) if i != 40 else (40,) for i in range(41)]
        rng.shuffle(groups)
        givens = 81
        for group in groups:
            if givens <= levers["target_givens"]:
                break
            if givens - len(group) < levers["min_givens"]:
                continue
            saved = [puzzle[i] for i in group]
            for i in group:
                puzzle[i] = 0
            if _search(puzzle, 2)[0] != 1:
                for i, v in zip(group, saved, strict=True):
                    puzzle[i] = v
            else:
                givens -= len(group)
        if givens > levers["max_givens"]:
            raise Reject("too many givens")
        cap = levers["max_search_nodes"]
        if cap is not None and not _singles_solve(puzzle):
            _, nodes = _search(puzzle, 1, node_cap=cap + 1)
            if nodes > cap:
                raise Reject("search too deep for the tier")
        blanks = [i for i in range(81) if not puzzle[i]]
        asked = rng.sample(blanks, levers["spot_cells"])
        return {
            "grid": "".join(str(v) if v else "." for v in puzzle),
            "solution": "".join(map(str, solution)),
            "cells": [[i // 9 + 1, i % 9 + 1] for i in asked],
        }

    def gold(self, instance, lang):
        sol = instance["solution"]
        return " ".join(sol[(r - 1) * 9 + c - 1] for r, c in instance["cells"])

    def render(self, instance, lang, levers):
        rows = "\n".join(" ".join(instance["grid"][r * 9 : r * 9 + 9]) for r in range(9))
        cells = ", ".join(f"({r}, {c})" for r, c in instance["cells"])
        k = len(instance["cells"])
        example = " ".join(str(d) for d in range(1, k + 1))
        if lang == "en":
            return (
                "Solve this Sudoku puzzle.\n\n"
                "Rules: fill every empty cell with a digit from 1 to 9 so that each row, each column and "
                "each of the nine 3x3 boxes contains every digit from 1 to 9 exactly once. The puzzle has "
                "exactly one solution.\n\n"
                "The grid is shown as 9 lines of 9 cells separated by spaces; '.' marks an empty cell.\n\n"
                f"Grid:\n{rows}\n\n"
                "Cells are written (row, column), counting from 1: row 1 is the top row and column 1 is "
                "the leftmost column.\n"
                f"After solving, report the digits of the completed grid in these {k} cells, in this order:\n"
                f"{cells}\n\n"
                f"End your reply with a final line 'Answer: ' followed by the {k} digits separated by "
                f"single spaces (format example, not the solution: Answer: {example})."
            )
        return (
            "다음 스도쿠 퍼즐을 푸세요.\n\n"
            "규칙: 빈칸마다 1부터 9까지의 숫자를 하나씩 넣어, 모든 가로줄과 세로줄, 그리고 3x3 상자 9개 각각에 "
            "1부터 9까지의 숫자가 정확히 한 번씩 들어가게 합니다. 해답은 하나뿐입니다.\n\n"
            "격자는 9줄로 주어지며, 한 줄의 9칸은 공백으로 구분되고 '.'은 빈칸입니다.\n\n"
            f"격자:\n{rows}\n\n"
            "칸은 (행, 열)로 나타내며 1부터 셉니다. 1행은 맨 위 줄, 1열은 맨 왼쪽 열입니다.\n"
            f"퍼즐을 완성한 뒤, 다음 {k}개 칸의 숫자를 이 순서대로 알려 주세요:\n"
            f"{cells}\n\n"
            f"답변의 마지막 줄은 'Answer: ' 뒤에 {k}개의 숫자를 한 칸씩 띄어 쓴 형식이어야 합니다 "
            f"(형식 예시이며 정답이 아닙니다: Answer: {example})."
        )

    def solution(self, instance, lang):
        sol = instance["solution"]
        grid = "\n".join(" ".join(sol[r * 9 : r * 9 + 9]) for r in range(9))
        head = "Completed grid:" if lang == "en" else "완성된 격자:"
        return f"{head}\n{grid}\nAnswer: {self.gold(instance, lang)}"

    # ---- verification ------------------------------------------------------------------------
    def check(self, item, instance):
        grid, cells = _parse_question(item["question"])
        if "".join(grid) != instance["grid"]:
            raise VerificationError("grid in the question differs from the instance")
        givens = [(i, int(ch)) for i, ch in enumerate(grid) if ch != "."]
        clauses = [[_var(i, d)] for i, d in givens] + _rule_clauses()
        count, models = count_models(clauses, limit=2)
        if count != 1:
            raise VerificationError(f"puzzle has {count} solutions (must be exactly 1)")
        true = {v for v in models[0] if v > 0}
        digits = []
        for r, c in cells:
            i = (r - 1) * 9 + c - 1
            if grid[i] != ".":
                raise VerificationError(f"asked cell ({r}, {c}) is printed in the grid")
            digits.append(next(str(d) for d in range(1, 10) if _var(i, d) in true))
        if " ".join(digits) != item["answer"]:
            raise VerificationError(
                f"gold {item['answer']!r} but the unique solution gives {' '.join(digits)!r}"
            )
        if len(set(map(tuple, cells))) != len(cells):
            raise VerificationError("asked cells repeat")

    # ---- scoring -----------------------------------------------------------------------------
    def extract(self, response, answer, lang):
        # Reference judge: the last labelled line (else the last line starting "answer" + ':'/'-');
        # if it holds exactly K digits 1-9 that is the prediction; else the last of the final five
        # lines with exactly K digits; else the last K digits 1-9 anywhere.
        k = len(answer.split())
        if k == 0:
            return None
        text = strip_fences(response)
        payload = last_label_payload(text)
        if payload is None:
            hits = re.findall(r"^[ \t]*answer[ \t]*[:\-][ \t]*(.*)$", text, re.IGNORECASE | re.MULTILINE)
            payload = hits[-1] if hits else None
        if payload is not None:
            digits = re.findall(r"[1-9]", payload)
            if len(digits) == k:
                return " ".join(digits)
        for line in reversed(text.splitlines()[-5:]):
            digits = re.findall(r"[1-9]", line)
            if len(digits) == k:
                return " ".join(digits)
        digits = re.findall(r"[1-9]", text)
        if len(digits) >= k:
            return " ".join(digits[-k:])
        return None


def _var(cell: int, digit: int) -> int:
    return cell * 9 + digit


@cache
def _rule_clauses() -> list[list[int]]:
    pool = IDPool(start_from=81 * 9 + 1)
    clauses: list[list[int]] = []
    for i in range(81):
        clauses += exactly([_var(i, d) for d in range(1, 10)], 1, pool)
    for unit in _UNITS:
        for d in range(1, 10):
            clauses += exactly([_var(i, d) for i in unit], 1, pool)
    return clauses


def _parse_question(question: str) -> tuple[list[str], list[tuple[int, int]]]:
    lines = question.splitlines()
    header = next(i for i, line in enumerate(lines) if line.strip() in ("Grid:", "격자:"))
    grid: list[str] = []
    for line in lines[header + 1 : header + 10]:
        cells = line.split()
        if len(cells) != 9 or any(c not in DIGITS + "." for c in cells):
            raise VerificationError(f"malformed grid line {line!r}")
        grid += cells
    coord_line = next(line for line in lines if re.fullmatch(r"\s*(\(\d, \d\)(, )?)+\s*", line))
    cells = [(int(r), int(c)) for r, c in re.findall(r"\((\d), (\d)\)", coord_line)]
    return grid, cells


PUZZLE = Sudoku()
