"""number_baseball (direct translation, EN + KO): Bulls and Cows with a unique secret.

A secret is a string of N pairwise-distinct decimal digits (a leading 0 is allowed: it is a digit
string, never an integer). Every hint is a guess (N distinct digits, never the secret and never a
permutation of it) with its strikes (same digit, same position) and balls (digit of the secret in
another position). The solver must name the unique secret consistent with every hint.

Latent instance (``instance`` JSON)::

    {"digits": N,
     "secret": "0716432",                       # the gold, a string
     "hints": [{"guess": "0943176", "strikes": 1, "balls": 4}, ...],   # prompt order
     "candidates_after": [int, ...],            # consistent codes left after each hint (trace)
     "revealed_digits": [int, ...],             # easy: digits of the secret, ascending, positions unknown
     "revealed_positions": [[position, digit]]} # medium: 1-based position from the left -> digit

Sampling (spec section 2, reference code at HEAD): a uniformly random secret; a pool of up to
``pool_size`` distinct random guesses (at most 1,000 draws) whose strikes/balls lie in the tier
bounds, excluding permutations of the secret; pool order easy: strikes descending then balls
ascending, medium/hard: balls descending then strikes ascending. Information-greedy selection over
all N-digit distinct-digit codes: repeatedly add the pool hint that leaves the fewest consistent
codes (first in pool order on ties), skipping a hint that would leave exactly one code while the
list would still be shorter than ``min_hints``; stop at one code and at least ``min_hints`` hints;
reaching ``max_hints`` first rejects the secret. Reveals are drawn after the hints already fix the
secret (they are pure aids): easy ``revealed_digits`` digits, medium floor(e) + Bernoulli(frac(e))
positions for e = ``revealed_positions_expected``.

Levers per tier (reference at HEAD, unchanged): N 7 / 8 / 8; min/max hints 4/8, 4/9, 4/9; strikes
0..2; balls 0..5 / 0..6 / 0..6; pool 50; revealed digits 5 / 0 / 0; expected revealed positions
0 / 0.6 / 0.

Departures from the reference (and why):
- Seeded per item from the ``rng`` passed to ``sample``; EN and KO render the same instance
  (the reference samples the two languages independently with an unseeded global RNG).
- The prompt states explicitly that the secret may start with 0 and how the answer line must look
  (the reference says so only in an evaluator system prompt).
- The first greedy step uses the exact symmetry of the game (the number of codes giving a response
  (S, B) to a guess does not depend on the guess) instead of filtering all codes for every pool
  hint; this selects exactly the same hint, only faster.
- The structured hints, N and reveals are stored in ``instance`` (the reference keeps them only in
  the prose).

Verification (``check``): the hints are parsed back from the question text and compared with the
instance; then an exhaustive search written only for verification enumerates every N-subset of the
ten digits (the digit set fixes strikes + balls), and for every subset still possible every
arrangement of it (all N! orders) against the strike counts. Exactly one code must survive the
hints alone (reveals ignored) and it must equal the gold; reveals must agree with the gold.

Scoring reproduces the reference judge (spec section 4): payload of the last answer-label line
(else the whole response), the ``Answer:``/``answer:``/``secret number``/``number is`` patterns of
the gold's length, else the last standalone N-digit run in the last 500 characters; exact string
comparison. Where the reference finds nothing, a labelled answer whose digits are separated only by
spaces, commas, dots or hyphens and number exactly N is also accepted (e.g. ``3 2 6 4 5 7 9``).
"""

from __future__ import annotations

import itertools
import re
from functools import cache

import numpy as np

from .base import Puzzle, Reject, VerificationError
from .extract import last_label_payload, strip_fences, strip_markup

MAX_POOL_DRAWS = 1000


# ---------------------------------------------------------------------------------------------
# Generator machinery (all codes as numpy columns)
# ---------------------------------------------------------------------------------------------
@cache
def _all_codes(n: int) -> np.ndarray:
    """All n-digit distinct-digit codes as an (M, n) uint8 array."""
    arr = np.arange(10, dtype=np.uint8).reshape(10, 1)
    mask = (1 << np.arange(10)).astype(np.int16)
    for _ in range(1, n):
        parts, masks = [], []
        for d in range(10):
            keep = (mask & (1 << d)) == 0
            sub = arr[keep]
            parts.append(np.hstack([sub, np.full((len(sub), 1), d, dtype=np.uint8)]))
            masks.append(mask[keep] | (1 << d))
        arr = np.vstack(parts)
        mask = np.concatenate(masks).astype(np.int16)
    return arr


def _pack(digits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes packed as two uint64 words each.

    Word A holds one bit per (position, digit) for positions 0-5 (bit 10 * position + digit); word
    B holds the same for positions 6.. (bit 10 * (position - 6) + digit) and the code's digit set
    from bit 40 on. Strikes and common digits against a guess are then popcounts of ANDs."""
    one = np.uint64(1)
    word_a = np.zeros(len(digits), dtype=np.uint64)
    word_b = np.zeros(len(digits), dtype=np.uint64)
    for i in range(digits.shape[1]):
        col = digits[:, i].astype(np.uint64)
        word_b |= one << (col + np.uint64(40))
        if i < 6:
            word_a |= one << (col + np.uint64(10 * i))
        else:
            word_b |= one << (col + np.uint64(10 * (i - 6)))
    return word_a, word_b


@cache
def _codes(n: int) -> tuple[np.ndarray, np.ndarray]:
    return _pack(_all_codes(n))


def _guess_words(guess: str) -> tuple[np.uint64, np.uint64, np.uint64]:
    a = b = m = 0
    for i, ch in enumerate(guess):
        if i < 6:
            a |= 1 << (10 * i + int(ch))
        else:
            b |= 1 << (10 * (i - 6) + int(ch))
        m |= 1 << (40 + int(ch))
    return np.uint64(a), np.uint64(b), np.uint64(m)


def _response(guess: str, secret: str) -> tuple[int, int]:
    strikes = sum(a == b for a, b in zip(guess, secret, strict=True))
    common = len(set(guess) & set(secret))
    return strikes, common - strikes


def _codes_response(word_a: np.ndarray, word_b: np.ndarray, guess: str) -> np.ndarray:
    """Response code strikes * 16 + common digits of every packed code to ``guess``."""
    ga, gb, gm = _guess_words(guess)
    strikes = np.bitwise_count(word_a & ga) + np.bitwise_count(word_b & gb)
    return strikes * np.uint8(16) + np.bitwise_count(word_b & gm)


@cache
def _first_step_counts(n: int) -> np.ndarray:
    """Number of codes per response code to any one guess (the same for every guess by symmetry)."""
    word_a, word_b = _codes(n)
    return np.bincount(_codes_response(word_a, word_b, "".join(str(d) for d in range(n))), minlength=256)


def _pool(rng, secret: str, levers) -> list[tuple[str, int, int]]:
    n = levers["digits"]
    s_lo, s_hi = levers["strike_bounds"]
    b_lo, b_hi = levers["ball_bounds"]
    secret_set = set(secret)
    pool: list[tuple[str, int, int]] = []
    seen: set[str] = set()
    for _ in range(MAX_POOL_DRAWS):
        if len(pool) >= levers["pool_size"]:
            break
        guess = "".join(str(d) for d in rng.sample(range(10), n))
        if guess == secret or guess in seen or set(guess) == secret_set:
            continue
        s, b = _response(guess, secret)
        if s_lo <= s <= s_hi and b_lo <= b <= b_hi:
            seen.add(guess)
            pool.append((guess, s, b))
    if levers["pool_order"] == "strikes_desc":
        pool.sort(key=lambda h: (-h[1], h[2]))
    else:
        pool.sort(key=lambda h: (-h[2], h[1]))
    return pool


@cache
def _canonical_survivors(n: int, code: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Codes answering ``code`` (strikes * 16 + common) to the canonical guess 0, 1, ..., n-1."""
    digits = _all_codes(n)
    keep = _codes_response(*_codes(n), "".join(str(d) for d in range(n))) == code
    sub = np.ascontiguousarray(digits[keep])
    return (sub, *_pack(sub))


def _injection_class(guess: str, n: int) -> tuple:
    """Cycle/chain type of the partial injection position i -> digit guess[i] (digits >= n are exits).

    Two guesses relative to the canonical first guess 0..n-1 are related by a symmetry of the game
    (permuting positions and relabelling digits so that the first guess stays fixed) exactly when
    their types agree; so the number of codes answering both guesses in given ways depends only on
    the type."""
    f = [int(c) for c in guess]
    image = set(f)
    seen = [False] * n
    chains, cycles = [], []
    for start in range(n):
        if start in image:
            continue
        length, node = 0, start
        while node < n:
            seen[node] = True
            length += 1
            node = f[node]
        chains.append(length)
    for start in range(n):
        if seen[start]:
            continue
        length, node = 0, start
        while not seen[node]:
            seen[node] = True
            length += 1
            node = f[node]
        cycles.append(length)
    return tuple(sorted(chains)), tuple(sorted(cycles))


_SECOND_STEP_CACHE: dict[tuple, np.ndarray] = {}


def _second_step_histogram(n: int, code1: int, canon_guess: str) -> np.ndarray:
    key = (n, code1, _injection_class(canon_guess, n))
    hist = _SECOND_STEP_CACHE.get(key)
    if hist is None:
        _, word_a, word_b = _canonical_survivors(n, code1)
        hist = np.bincount(_codes_response(word_a, word_b, canon_guess), minlength=256)
        _SECOND_STEP_CACHE[key] = hist
    return hist


def _select_hints(pool, secret: str, levers):
    """Information-greedy hint selection (spec section 2, step 3).

    Step 1 uses the response-count table (identical for every guess); step 2 works in the frame
    where the first guess is 0..n-1 and uses per-type histograms (exact, by symmetry); later steps
    filter the explicit surviving codes."""
    n = levers["digits"]
    remaining = list(pool)
    chosen: list[tuple[str, int, int]] = []
    after: list[int] = []
    relabel = None  # real digit -> canonical digit (set after step 1)
    words = None  # packed surviving codes (from step 2 on)
    while True:
        if len(chosen) >= levers["max_hints"] or not remaining:
            raise Reject("hint budget exhausted")
        if not chosen:
            table = _first_step_counts(n)
            counts = [int(table[s * 16 + s + b]) for _, s, b in remaining]
        elif words is None:
            g1, s1, b1 = chosen[0]
            counts = [
                int(_second_step_histogram(n, s1 * 16 + s1 + b1, _relabelled(g, relabel))[s * 16 + s + b])
                for g, s, b in remaining
            ]
        else:
            counts = [
                int(np.count_nonzero(_codes_response(*words, g) == s * 16 + s + b)) for g, s, b in remaining
            ]
        best = None
        for k, c in enumerate(counts):
            if c == 1 and len(chosen) + 1 < levers["min_hints"]:
                continue
            if best is None or c < counts[best]:
                best = k
        if best is None:
            raise Reject("only decisive hints left before min_hints")
        g, s, b = remaining.pop(best)
        if not chosen:
            others = [d for d in range(10) if str(d) not in g]
            relabel = {int(ch): i for i, ch in enumerate(g)} | {d: n + j for j, d in enumerate(others)}
            left = int(counts[best])
        elif words is None:
            s1, b1 = chosen[0][1], chosen[0][2]
            digits_c, word_a, word_b = _canonical_survivors(n, s1 * 16 + s1 + b1)
            keep = _codes_response(word_a, word_b, _relabelled(g, relabel)) == s * 16 + s + b
            back = np.zeros(10, dtype=np.uint8)
            for real, canon in relabel.items():
                back[canon] = real
            words = _pack(back[digits_c[keep]])
            left = len(words[0])
        else:
            keep = _codes_response(*words, g) == s * 16 + s + b
            words = (words[0][keep], words[1][keep])
            left = len(words[0])
        chosen.append((g, s, b))
        after.append(left)
        if left == 1 and len(chosen) >= levers["min_hints"]:
            return chosen, after


def _relabelled(guess: str, relabel: dict[int, int]) -> str:
    return "".join(str(relabel[int(ch)]) for ch in guess)


# ---------------------------------------------------------------------------------------------
# Independent verifier: digit subsets, then every arrangement of each surviving subset
# ---------------------------------------------------------------------------------------------
@cache
def _arrangements(n: int) -> np.ndarray:
    return np.array(list(itertools.permutations(range(n))), dtype=np.int8)


def brute_force_secrets(n: int, hints: list[tuple[str, int, int]], limit: int = 2) -> list[str]:
    """Every n-digit distinct-digit code consistent with ``hints`` (up to ``limit``), by exhaustion."""
    found: list[str] = []
    perms = _arrangements(n)
    guesses = [
        (np.array([int(c) for c in g], dtype=np.int8), set(int(c) for c in g), s, b) for g, s, b in hints
    ]
    for subset in itertools.combinations(range(10), n):
        digits = set(subset)
        if any(len(digits & gset) != s + b for _, gset, s, b in guesses):
            continue
        arranged = np.array(subset, dtype=np.int8)[perms]
        for garr, _, s, _ in guesses:
            arranged = arranged[(arranged == garr).sum(axis=1) == s]
        for row in arranged:
            found.append("".join(str(int(d)) for d in row))
            if len(found) >= limit:
                return found
    return found


_HINT_LINE = {
    "en": re.compile(r"^(\d+)\. Guess (\d+) -> (\d+) strikes?, (\d+) balls?$", re.MULTILINE),
    "ko": re.compile(r"^(\d+)\. 추측 (\d+) -> (\d+) 스트라이크, (\d+) 볼$", re.MULTILINE),
}


def parse_hints(question: str, lang: str) -> list[tuple[str, int, int]]:
    hints = []
    for k, m in enumerate(_HINT_LINE[lang].finditer(question), start=1):
        if int(m.group(1)) != k:
            raise VerificationError("hint numbering in the question is broken")
        hints.append((m.group(2), int(m.group(3)), int(m.group(4))))
    return hints


# ---------------------------------------------------------------------------------------------
class NumberBaseball(Puzzle):
    name = "number_baseball"
    version = "1"
    levers = {
        "easy": {
            "digits": 7,
            "min_hints": 4,
            "max_hints": 8,
            "strike_bounds": [0, 2],
            "ball_bounds": [0, 5],
            "pool_size": 50,
            "pool_order": "strikes_desc",
            "revealed_digits": 5,
            "revealed_positions_expected": 0,
        },
        "medium": {
            "digits": 8,
            "min_hints": 4,
            "max_hints": 9,
            "strike_bounds": [0, 2],
            "ball_bounds": [0, 6],
            "pool_size": 50,
            "pool_order": "balls_desc",
            "revealed_digits": 0,
            "revealed_positions_expected": 0.6,
        },
        "hard": {
            "digits": 8,
            "min_hints": 4,
            "max_hints": 9,
            "strike_bounds": [0, 2],
            "ball_bounds": [0, 6],
            "pool_size": 50,
            "pool_order": "balls_desc",
            "revealed_digits": 0,
            "revealed_positions_expected": 0,
        },
    }

    def sample(self, rng, levers, lang):
        n = levers["digits"]
        secret = "".join(str(d) for d in rng.sample(range(10), n))
        pool = _pool(rng, secret, levers)
        hints, after = _select_hints(pool, secret, levers)
        revealed_digits = sorted(int(d) for d in rng.sample(list(secret), levers["revealed_digits"]))
        expected = levers["revealed_positions_expected"]
        n_pos = int(expected) + (1 if rng.random() < expected - int(expected) else 0)
        positions = sorted(rng.sample(range(n), n_pos))
        return {
            "digits": n,
            "secret": secret,
            "hints": [{"guess": g, "strikes": s, "balls": b} for g, s, b in hints],
            "candidates_after": after,
            "revealed_digits": revealed_digits,
            "revealed_positions": [[p + 1, int(secret[p])] for p in positions],
        }

    def gold(self, instance, lang):
        return instance["secret"]

    def render(self, instance, lang, levers):
        n = instance["digits"]
        hints = instance["hints"]
        rd = instance["revealed_digits"]
        rp = instance["revealed_positions"]
        if lang == "en":
            lines = [
                "Number Baseball puzzle",
                "",
                f"A secret code is made of {n} different decimal digits (each digit 0-9 appears at most once). "
                "The code is a string of digits, so its first digit may be 0.",
                f"Each hint below is a guess of {n} different digits together with its score:",
                "- strike: a digit of the guess that is in the secret code at the same position;",
                "- ball: a digit of the guess that is in the secret code, but at a different position.",
                "Digits of a guess that do not occur in the secret code score nothing.",
                "",
                "Hints:",
            ]
            for k, h in enumerate(hints, start=1):
                st = "strike" if h["strikes"] == 1 else "strikes"
                bl = "ball" if h["balls"] == 1 else "balls"
                lines.append(f"{k}. Guess {h['guess']} -> {h['strikes']} {st}, {h['balls']} {bl}")
            if rd or rp:
                lines.append("")
                lines.append("Extra information:")
            if rd:
                lines.append(
                    "- The secret code contains the digits " + ", ".join(str(d) for d in rd) + " "
                    f"(their positions are not given); the other {n - len(rd)} digits must be deduced."
                )
            for pos, d in rp:
                lines.append(f"- Position {pos} (counting from the left, starting at 1) holds the digit {d}.")
            lines += [
                "",
                f"Exactly one {n}-digit code is consistent with all of the hints. Work it out step by step, "
                f"then write the code on the last line in this form, all {n} digits with nothing between them:",
                "Answer: <code>",
            ]
        else:
            lines = [
                "숫자 야구 퍼즐",
                "",
                f"비밀 번호는 서로 다른 숫자(0~9) {n}개를 나열한 문자열입니다. 같은 숫자는 두 번 나오지 않으며, "
                "첫 자리가 0일 수도 있습니다.",
                f"아래 각 힌트는 서로 다른 숫자 {n}개로 된 추측과 그 판정 결과입니다.",
                "- 스트라이크: 추측의 숫자가 비밀 번호에 있고 자리까지 같은 경우",
                "- 볼: 추측의 숫자가 비밀 번호에 있지만 자리가 다른 경우",
                "비밀 번호에 없는 숫자는 아무것도 세지 않습니다.",
                "",
                "힌트:",
            ]
            for k, h in enumerate(hints, start=1):
                lines.append(f"{k}. 추측 {h['guess']} -> {h['strikes']} 스트라이크, {h['balls']} 볼")
            if rd or rp:
                lines.append("")
                lines.append("추가 정보:")
            if rd:
                lines.append(
                    f"- 비밀 번호에 들어 있는 숫자 중 {len(rd)}개는 "
                    + ", ".join(str(d) for d in rd)
                    + " 입니다 "
                    f"(자리는 알려 주지 않습니다). 나머지 {n - len(rd)}개의 숫자는 추론해야 합니다."
                )
            for pos, d in rp:
                lines.append(f"- 왼쪽에서 {pos}번째 자리(1부터 셈)의 숫자는 {d}입니다.")
            lines += [
                "",
                f"모든 힌트를 만족하는 {n}자리 번호는 정확히 하나입니다. 단계적으로 추론한 뒤, "
                f"마지막 줄에 {n}개의 숫자를 띄어쓰기 없이 다음 형식으로 쓰세요.",
                "정답: <번호>",
            ]
        return "\n".join(lines)

    def solution(self, instance, lang):
        n = instance["digits"]
        total = [604800, 1814400][n - 7] if n in (7, 8) else None
        out = []
        start = f"{total:,}" if total else "all"
        if lang == "en":
            out.append(f"Start: {start} codes of {n} distinct digits.")
            for k, (h, c) in enumerate(zip(instance["hints"], instance["candidates_after"], strict=True), 1):
                out.append(f"Hint {k} ({h['guess']}: {h['strikes']}S {h['balls']}B) leaves {c:,} code(s).")
            out.append(f"Only {instance['secret']} remains; it satisfies every hint.")
            out.append(f"Answer: {instance['secret']}")
        else:
            out.append(f"시작: 서로 다른 숫자 {n}개로 된 번호 {start}개.")
            for k, (h, c) in enumerate(zip(instance["hints"], instance["candidates_after"], strict=True), 1):
                out.append(f"힌트 {k} ({h['guess']}: {h['strikes']}S {h['balls']}B) 후 남은 후보 {c:,}개.")
            out.append(f"{instance['secret']}만 남으며 모든 힌트를 만족합니다.")
            out.append(f"정답: {instance['secret']}")
        return "\n".join(out)

    # ---- verification ------------------------------------------------------------------------
    def check(self, item, instance):
        n = instance["digits"]
        gold = item["answer"]
        if not (len(gold) == n and gold.isdigit() and gold.isascii() and len(set(gold)) == n):
            raise VerificationError(f"gold {gold!r} is not {n} distinct digits")
        hints = parse_hints(item["question"], item["lang"])
        expected = [(h["guess"], h["strikes"], h["balls"]) for h in instance["hints"]]
        if hints != expected:
            raise VerificationError("hints in the question differ from the instance")
        for g, _s, _b in hints:
            if len(g) != n or len(set(g)) != n or g == gold:
                raise VerificationError(f"bad guess {g!r}")
        found = brute_force_secrets(n, hints, limit=2)
        if len(found) != 1:
            raise VerificationError(f"the hints admit {len(found)} codes ({found}), not exactly one")
        if found[0] != gold:
            raise VerificationError(f"the only code consistent with the hints is {found[0]}, gold is {gold}")
        if any(str(d) not in gold for d in instance["revealed_digits"]):
            raise VerificationError("a revealed digit is not in the gold")
        if any(gold[p - 1] != str(d) for p, d in instance["revealed_positions"]):
            raise VerificationError("a revealed position disagrees with the gold")

    # ---- scoring -----------------------------------------------------------------------------
    def extract(self, response, answer, lang):
        n = len(answer.strip()) if answer and answer.strip() else None
        text = strip_fences(response)
        labelled = last_label_payload(text)
        payload = labelled if labelled is not None else text
        if n is None:  # no gold to size by: the first digit run of the labelled line, else the last
            runs = re.findall(r"\d+", payload[-500:])
            return runs[-1] if runs else None
        for pat in (
            r"Answer:\s*(\d+)",
            r"answer:\s*(\d+)",
            r"secret number\D{0,20}?(\d+)",
            r"number is\s*(\d+)",
        ):
            for m in reversed(list(re.finditer(pat, payload))):
                if len(m.group(1)) == n:
                    return m.group(1)
        runs = re.findall(rf"\b\d{{{n}}}\b", payload[-500:])
        if runs:
            return runs[-1]
        if labelled is not None:
            core = strip_markup(labelled)
            if len(core) <= 200 and re.fullmatch(r"\d(?:[ ,.\-]?\d)*", core):
                digits = re.sub(r"\D", "", core)
                if len(digits) == n:
                    return digits
        return None

    def matches(self, extracted, answer, lang):
        return extracted.strip() == answer.strip()


PUZZLE = NumberBaseball()
