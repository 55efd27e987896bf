"""Independent verifier for yacht_dice (written separately from the generator's solver).

Formulation: the rounds are taken in their printed order and each is given one still-unused
category; the state is the SET OF USED CATEGORIES plus the upper-section sum capped at 63 (the
generator's solver instead fills the categories in order over sets of used rounds and combines an
upper and a lower half). The bonus is added at the very end from the capped sum. Per-round scores
come from a separate scoring function. Ties are resolved with a lexicographic objective (total
first, then plus or minus the spot-round scores), which yields the minimum and the maximum spot
sum over all optimal assignments.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy as np

_BIG = 1 << 11  # larger than any spot sum
_NEG = -(1 << 52)
_CAP = 63


def round_score(dice: list[int], category: int) -> int:
    """Score of five dice in category 0..11 (Aces..Sixes, 3K, 4K, FH, SS, LS, Yacht)."""
    cnt = Counter(dice)
    shape = sorted(cnt.values())
    if category < 6:
        face = category + 1
        return face * cnt[face]
    if category == 6:
        return sum(dice) if shape[-1] >= 3 else 0
    if category == 7:
        return sum(dice) if shape[-1] >= 4 else 0
    if category == 8:
        return 25 if shape == [2, 3] else 0
    uniq = "".join(str(v) for v in sorted(cnt))
    if category == 9:
        return 30 if any(run in uniq for run in ("1234", "2345", "3456")) else 0
    if category == 10:
        return 40 if uniq in ("12345", "23456") else 0
    return 50 if shape == [5] else 0


@cache
def _steps():
    """For round k: for every category set of size k+1, the predecessor sets and the category added."""
    groups: list[list[int]] = [[] for _ in range(13)]
    for m in range(1 << 12):
        groups[bin(m).count("1")].append(m)
    where = [{m: i for i, m in enumerate(g)} for g in groups]
    out = []
    for k in range(12):
        prev = np.array([[where[k][m & ~(1 << c)] for c in range(12) if m >> c & 1] for m in groups[k + 1]])
        cat = np.array([[c for c in range(12) if m >> c & 1] for m in groups[k + 1]])
        out.append((prev, cat))
    return out


def _move_upper(block: np.ndarray, add: np.ndarray) -> np.ndarray:
    """block (n, k, 64, C): value at capped upper sum u; add (n, k): points added to the upper sum.

    Returns the values indexed by the new capped sum min(u + add, 63)."""
    n, k, width, chans = block.shape
    out = np.full_like(block, _NEG)
    for a in np.unique(add):
        sel = add == a
        src = block[sel]  # (p, 64, C)
        a = int(a)
        moved = np.full_like(src, _NEG)
        if a == 0:
            moved = src
        else:
            if a < _CAP:
                moved[:, a:_CAP] = src[:, : _CAP - a]
            moved[:, _CAP] = src[:, max(_CAP - a, 0) :].max(axis=1)
        out[sel] = moved
    return out


def verify_spot_sum(rounds: list[list[int]], spots: list[int]) -> tuple[int, int, int]:
    """(optimal total, min spot sum, max spot sum) over all optimal assignments; spots 0-based."""
    table = np.array([[round_score(d, c) for c in range(12)] for d in rounds], dtype=np.int64)
    sign = np.array([1, -1], dtype=np.int64)
    in_spot = np.zeros(12, dtype=np.int64)
    in_spot[spots] = 1
    # When even the best round of every upper category cannot reach the threshold, no bonus exists
    # and a single upper-sum slot suffices.
    width = 64 if table[:, :6].max(axis=0).sum() >= _CAP else 1
    state = np.full((1, width, 2), _NEG, dtype=np.int64)
    state[0, 0, :] = 0
    for k, (prev, cat) in enumerate(_steps()):
        pts = table[k][cat]  # (n, k+1)
        gain = pts[:, :, None] * (_BIG + in_spot[k] * sign)[None, None, :]
        block = state[prev]  # (n, k+1, width, 2)
        if width > 1:
            block = _move_upper(block, np.where(cat < 6, pts, 0))
        state = (block + gain[:, :, None, :]).max(axis=1)
    final = state[0]
    if width > 1:
        best = np.maximum(final[:_CAP].max(axis=0), final[_CAP] + 35 * _BIG)
    else:
        best = final[0]
    hi_total, hi_spot = divmod(int(best[0]), _BIG)
    lo_total = -((-int(best[1])) // _BIG)
    lo_spot = lo_total * _BIG - int(best[1])
    if hi_total != lo_total:
        raise AssertionError("inconsistent optimum")
    return hi_total, lo_spot, hi_spot
