"""cryptarithmetic (script adaptation): four words add up to a fifth; symbols stand for digits.

EN and KO are different puzzles over different symbol systems, not translations:

* EN: the Latin letters fall into three groups by alphabet position, A-I, J-R and S-Z. Each group
  has its own injective letter -> digit table; letters of different groups may share a digit.
  A word's value is its letters' digits written left to right (n letters -> n digits).
* KO: every syllable splits into initial, medial and (if present) final jamo; a word's value is the
  digits of that jamo sequence (2 digits per syllable without a final, 3 with one). Initials,
  medials and finals have three independent injective tables; initial ㄱ and final ㄱ are different
  symbols. Tense initials, compound medials and compound finals are single symbols.

In both, the first symbol of every word is non-zero, operand1 + operand2 + operand3 + operand4 =
result in ordinary right-aligned column addition, part of the key is revealed, and the answer is
the decimal value of the result word (digits only).

Latent instance (JSON)::

    {"script": "latin" | "hangul",
     "classes": ["g0", "g1", "g2"] | ["cho", "jung", "jong"],
     "operands": [word x4], "result": word,
     "tokens": per word (operands, then result) the list of [class, symbol] in digit order,
     "key": {class: {symbol: digit}}   (every symbol that occurs),
     "revealed": {class: {symbol: digit}},
     "operand_values": [int x4], "answer": str (the result value), "carries": int,
     "key_sampler": "rejection" | "sat_walk",
     "n_symbols": int, "n_revealed": int, "n_hidden": int}

EN classes: g0 = A-I, g1 = J-R, g2 = S-Z; KO: cho/jung/jong = initials/medials/finals, symbols as
Hangul compatibility jamo (U+3131..). No field is named ``mapping`` or ``puzzle`` (the reference
evaluator switches on dormant question-rewriting modes for those).

Levers per tier (reference code at HEAD; the stale calibration docs with 2/3/4 operands, 5/6/5
digits and min_carries 4/5/5 describe the old single-table puzzle and do not apply). ``levers[tier]``
holds one dict per language, since EN and KO are different puzzles:

* EN easy / medium / hard: operand length 6 / 7 / 8 letters; hide_ratio .65 / .90 / .88;
  min_carries 2 / 2 / 3.
* KO easy / medium / hard: operand length 6 / 7 / 7-or-8 jamo (= digits); hide_ratio .45 / .53 /
  .92; min_carries 2 / 2 / 3; min_finals (distinct finals among the 5 words) 2 / 2 / 3.
* All: 4 operands of equal length, result length L or L+1 (``result_extra``), the first 8 shuffled
  result candidates tried per operand draw, hiding target max(1, round(hide_ratio * n_symbols)).
  ``key_trials`` (2048) is ours: the rejection-sampling budget per candidate (see 2.).

Realised (default seed, 100 items each): mean hidden share EN .59 / .64 / .72, KO .45 / .54 / .61
(reference release: .61 / .63 / .74 and .45 / .54 / .62); hide_ratio is a ceiling, hiding stops
wherever one more hidden symbol would break uniqueness.

Sampling, and where it departs from the reference (and why):

1. Operand length uniform from the tier's list, 4 distinct operand words of that length, result
   candidates = the other words of length L or L+1, shuffled, first 8 tried (as the reference). KO:
   a candidate needs ``min_finals`` distinct finals among the 5 words.
2. **Key** (fix): the reference takes the first solution of an ascending-digit search, so digits
   0-3 are 51-61% of all values. Here the key is first drawn by exact rejection sampling, which is
   *exactly uniform among all keys* of the equation (with the carry minimum and no leading zero):
   symbols are fixed column by column from the right, each operand symbol either drawn uniformly
   from its class's unused digits or, when its column's result symbol is already fixed, solved
   for; every valid key then has the same proposal probability, so an accepted key is uniform.
   It runs vectorised (numpy PCG64 seeded from the item RNG) with ``key_trials`` proposals. Hard
   equations rarely accept within that budget (valid keys are a tiny share of the space), and
   exhaustive enumeration is out of reach (the bare puzzles have 10^2-10^6+ keys), so then the key
   comes from a seeded SAT walk: symbols in random order, each takes a uniformly random digit among
   those that still admit a complete key. That walk has no digit-order bias but is only close to
   uniform (a key's probability is the product of 1/#feasible digits along the walk).
   ``key_sampler`` records which method drew the key (rejection: EN 42 / 16 / 4, KO 50 / 21 / 13
   of 100). Digits 0-3 are 40-46% of key values in every config (uniform tables: 40%).
3. Reveals: as the reference, visit the symbols in random order and hide each one whose hiding
   keeps the key unique, stopping at the target; reject if nothing could be hidden. The
   uniqueness test is an incremental SAT call (order-encoded digits, totalizer column sums, plus
   one clause "the key differs from the drawn key"), so it is exact (no node budget).
4. Per-item seeding (the reference is unseeded). Equations are not de-duplicated across items
   (items are independent functions of their seed); no two items of a config share a question.
5. Word pools are our own lists of common nouns (EN 6-8 letters; no 9-letter word, as in the
   reference pool, so EN hard never gets a ninth digit; KO 6-9 jamo).
6. Layout (spec pitfall 7): EN words are right-aligned (letters = digit columns); KO lines give each
   word's digit count, since syllables do not line up with digits.

Verification (``check``) parses the equation and the revealed digits from the question text,
tokenises the words on its own (EN group = alphabet position // 9; KO with ``unicodedata`` NFD and
jamo names, not :mod:`generators.hangul`) and proves that exactly one key completes the revealed
digits, by two independent complete methods that must agree: a python-sat model count up to 2
(one-hot digits of the hidden symbols, revealed digits folded in as constants, chained one-hot
column adders) and a right-to-left column search that keeps every consistent partial key as a numpy
row. The unique key must add up, give the gold, and equal the instance's key.

Scoring follows the reference judge (last line-initial label's payload, then ``Answer``/``Output``
+ digits, ``result``/``value is|=|equals N``, a line ending in ``= N``, a number in the last 5
lines, the last number), with deliberate fixes: numbers with thousands separators or spaces
(``3,203,254``, ``3 203 254``, ``3 2 0 3 2 5 4`` after a label) are read whole, and a markdown-bold
label (``**Answer:** N``) counts as a label. Answers are numbers, so letter case never matters.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import cache

import numpy as np
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from . import hangul
from ._cryptarithmetic_words import EN_WORDS, KO_WORDS
from .base import Puzzle, Reject, VerificationError
from .extract import strip_fences
from .solvers import at_most

EN_CLASSES = ("g0", "g1", "g2")
KO_CLASSES = ("cho", "jung", "jong")
EN_GROUP_LABEL = {"g0": "A-I", "g1": "J-R", "g2": "S-Z"}
KO_CLASS_LABEL = {"cho": "초성", "jung": "중성", "jong": "종성"}
N_OPERANDS = 4
# Glucose 3 answers the many small incremental calls here faster than CaDiCaL (measured).
SOLVER = "glucose3"


# ------------------------------------------------------------------------------------------------
# Tokenisation (generator side)
# ------------------------------------------------------------------------------------------------
def _en_class(letter: str) -> str:
    if "A" <= letter <= "I":
        return "g0"
    if "J" <= letter <= "R":
        return "g1"
    if "S" <= letter <= "Z":
        return "g2"
    raise ValueError(f"not an upper-case Latin letter: {letter!r}")


def tokens_of(word: str, lang: str) -> list[list[str]]:
    """The [class, symbol] sequence of ``word`` (one entry per digit)."""
    if lang == "en":
        return [[_en_class(ch), ch] for ch in word]
    out = []
    for ch in word:
        i, m, f = hangul.decompose(ch)
        out.append(["cho", hangul.INITIALS[i]])
        out.append(["jung", hangul.MEDIALS[m]])
        if f:
            out.append(["jong", hangul.FINALS[f]])
    return out


def _symbol_rank(cls: str, sym: str) -> tuple[int, int]:
    if cls in EN_CLASSES:
        return EN_CLASSES.index(cls), ord(sym)
    table = {"cho": hangul.INITIALS, "jung": hangul.MEDIALS, "jong": hangul.FINALS}[cls]
    return KO_CLASSES.index(cls), table.index(sym)


def _buckets(lang: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for w in EN_WORDS if lang == "en" else KO_WORDS:
        out.setdefault(len(tokens_of(w, lang)), []).append(w)
    return {k: sorted(v) for k, v in out.items()}


_BUCKETS = {"en": _buckets("en"), "ko": _buckets("ko")}


# ------------------------------------------------------------------------------------------------
# Uniform key sampling (exact rejection sampling, vectorised)
# ------------------------------------------------------------------------------------------------
def _key_plan(words: list[list[int]]):
    """The fixed order in which the sampler fixes symbols, column by column from the right.

    Steps: ("draw", s) a uniform digit among those still free in s's class; ("solve", s) the one
    digit that makes the column's last digit match an already fixed result symbol; ("sum", col,
    terms, r) add the column and fix or check the result symbol r."""
    ops, res = words[:-1], words[-1]
    width = len(ops[0])
    fixed: set[int] = set()
    plan = []
    for col in range(len(res)):
        col_syms = [w[width - 1 - col] for w in ops] if col < width else []
        mult = Counter(col_syms)
        r = res[len(res) - 1 - col]
        new = [s for s in dict.fromkeys(col_syms) if s not in fixed]
        solve = None
        if r in fixed:
            singles = [s for s in new if mult[s] == 1]
            solve = singles[-1] if singles else None
        for s in new:
            if s != solve:
                plan.append(("draw", s))
        if solve is not None:
            plan.append(("solve", solve, r, sorted(mult.items())))
        fixed.update(new)
        plan.append(("sum", col, sorted(mult.items()), r, r in fixed))
        fixed.add(r)
    return plan


def _proposals(plan, sym_class, leads, width, perms):
    """One batch of proposals (rows); returns (valid mask, digits per symbol, carries)."""
    batch, n_classes, _ = perms.shape
    nxt = [0] * n_classes
    fixed: list[list[int]] = [[] for _ in range(n_classes)]
    solved: set[int] = set()
    d = np.zeros((batch, len(sym_class)), dtype=np.int64)
    ok = np.ones(batch, dtype=bool)
    carry = np.zeros(batch, dtype=np.int64)
    carries = np.zeros(batch, dtype=np.int64)

    def fix(s, digit, drawn):
        c = sym_class[s]
        good = digit != 0 if s in leads else np.ones(batch, dtype=bool)
        for t in fixed[c]:
            # drawn digits of one class are distinct by construction
            if not drawn or t in solved:
                good &= d[:, t] != digit
        d[:, s] = digit
        fixed[c].append(s)
        return good

    for step in plan:
        if step[0] == "draw":
            s = step[1]
            c = sym_class[s]
            ok &= fix(s, perms[:, c, nxt[c]], True)
            nxt[c] += 1
        elif step[0] == "solve":
            _, s, r, mult = step
            rest = carry + sum(m * d[:, t] for t, m in mult if t != s)
            solved.add(s)
            ok &= fix(s, (d[:, r] - rest) % 10, False)
        else:
            _, col, mult, r, known = step
            total = carry + sum(m * d[:, t] for t, m in mult)
            digit, carry = total % 10, total // 10
            if known:
                ok &= d[:, r] == digit
            else:
                solved.add(r)
                ok &= fix(r, digit, False)
            if col < width:
                carries += carry > 0
    ok &= carry == 0
    return ok, d, carries


def _sample_key(
    words: list[list[int]], sym_class: list[int], n_classes: int, seed: int, trials: int, min_carries: int
):
    """A key drawn uniformly among all keys for which the operands add up to the result word.

    Symbols are fixed in a fixed order (``_key_plan``). Per class, the drawn symbols take the
    successive entries of a uniformly random permutation of 0-9; a solved symbol (and a result
    symbol not seen before) takes the single digit its column allows. A proposal is accepted iff it
    is a valid key. Every valid key has the same proposal probability (the product of 1/(10-i) over
    the drawn symbols, which does not depend on the key), so accepted keys are exactly uniform.
    ``words``: symbol ids per word (operands then result); ``sym_class``: class index per symbol id.
    Returns (digits per symbol id, carries) or None if no key was accepted within ``trials`` draws.
    """
    width = len(words[0])
    leads = {w[0] for w in words}
    plan = _key_plan(words)
    bitgen = np.random.PCG64(seed)
    done = 0
    batch = 128
    while done < trials:
        batch = min(batch * 2, trials - done)
        done += batch
        raw = bitgen.random_raw(batch * 10 * n_classes).reshape(batch, n_classes, 10)
        ok, d, carries = _proposals(plan, sym_class, leads, width, np.argsort(raw, axis=2, kind="stable"))
        ok &= carries >= min_carries
        hits = np.flatnonzero(ok)
        if hits.size:
            row = int(hits[0])
            return [int(v) for v in d[row]], int(carries[row])
    return None


# ------------------------------------------------------------------------------------------------
# Generator-side uniqueness oracle: order encoding + totalizer column sums (incremental SAT)
# ------------------------------------------------------------------------------------------------
@cache
def _merge_template(la: int, lb: int):
    """Clauses of a totalizer node C = A + B (unary, sizes la, lb), as (index, sign) arrays per
    clause length; index 1.. addresses the concatenation A + B + C."""
    a = lambda i: 1 + i  # noqa: E731 - position of A>=i+1
    b = lambda j: 1 + la + j  # noqa: E731
    c = lambda k: 1 + la + lb + k  # noqa: E731
    groups: dict[int, list[list[int]]] = {}
    for i in range(la + 1):
        for j in range(lb + 1):
            if i + j >= 1:  # A>=i and B>=j -> C>=i+j
                cl = [c(i + j - 1)] + ([-a(i - 1)] if i else []) + ([-b(j - 1)] if j else [])
                groups.setdefault(len(cl), []).append(cl)
            if i + j < la + lb:  # A<i+1 and B<j+1 -> C<i+j+1
                cl = [-c(i + j)] + ([a(i)] if i < la else []) + ([b(j)] if j < lb else [])
                groups.setdefault(len(cl), []).append(cl)
    out = []
    for _, cls in sorted(groups.items()):
        arr = np.array(cls, dtype=np.int64)
        out.append((np.abs(arr), np.sign(arr)))
    return out


class _KeyOracle:
    """Incremental SAT model of one operand set (order-encoded digits, totalizer column sums).

    The operands' digits and column sums are encoded once; each result candidate is switched on by
    its own activation literal (``activate``), so trying several result words costs one encoding.
    Used to draw a key when rejection sampling runs out of budget (``walk``) and, once the key is
    fixed (``forbid``), to answer "is the key the only one agreeing with these revealed symbols?"
    (``unique``). The tier's minimum number of carries is guarded by its own activation literal: it
    applies while drawing a key, never to uniqueness (the question does not state it)."""

    def __init__(self, operands: list[list[tuple]], min_carries: int):
        self.top = 0
        self.clauses: list[list[int]] = []
        self.ge: dict[tuple, list[int]] = {}  # ge[s][k-1] <=> digit(s) >= k, k = 1..9
        op_syms = list(dict.fromkeys(s for w in operands for s in w))
        self.op_syms = op_syms
        for s in op_syms:
            self._symbol(s)
        for a, s in enumerate(op_syms):
            for t in op_syms[a + 1 :]:
                if s[0] == t[0]:
                    self.clauses += self._distinct(s, t)
        for w in operands:
            self.clauses.append([self.ge[w[0]][0]])
        self.width = len(operands[0])
        self.totals: list[list[int]] = []
        carry: list[int] = []
        carry_lits = []
        for col in range(self.width):
            total = carry
            for w in operands:
                digit = self.ge[w[self.width - 1 - col]]
                total = self._merge(total, digit) if total else list(digit)
            self.totals.append(total)
            carry = [
                x
                for x in (_at_least(total, 10), _at_least(total, 20), _at_least(total, 30))
                if x is not False
            ]
            if carry:
                carry_lits.append(carry[0])
        self.final_carry = carry
        self.act = self._new()
        if min_carries > 0:
            enc = CardEnc.atleast(
                lits=carry_lits, bound=min_carries, top_id=self.top, encoding=EncType.seqcounter
            )
            self.top = max(self.top, enc.nv)
            self.clauses += [[-self.act] + c for c in enc.clauses]
        self.solver = Solver(name=SOLVER, bootstrap_with=self.clauses)
        self.clauses = []

    def _new(self) -> int:
        self.top += 1
        return self.top

    def _symbol(self, s: tuple) -> None:
        if s not in self.ge:
            self.ge[s] = list(range(self.top + 1, self.top + 10))
            self.top += 9
            self.clauses += [[-self.ge[s][k + 1], self.ge[s][k]] for k in range(8)]

    def _eq(self, s: tuple, dgt: int) -> list[int]:
        """Literals whose conjunction says digit(s) == dgt."""
        lits = []
        if dgt >= 1:
            lits.append(self.ge[s][dgt - 1])
        if dgt <= 8:
            lits.append(-self.ge[s][dgt])
        return lits

    def _distinct(self, s: tuple, t: tuple) -> list[list[int]]:
        return [[-x for x in self._eq(s, d)] + [-x for x in self._eq(t, d)] for d in range(10)]

    def _merge(self, a: list[int], b: list[int]) -> list[int]:
        """Unary (order-encoded) sum of two unary numbers, both directions (totalizer node)."""
        c = list(range(self.top + 1, self.top + len(a) + len(b) + 1))
        self.top += len(c)
        lits = np.array([0] + a + b + c, dtype=np.int64)
        for index, sign in _merge_template(len(a), len(b)):
            self.clauses += (sign * lits[index]).tolist()
        return c

    def activate(self, result: list[tuple]) -> int:
        """Switch on the result word ``result``; returns its activation literal."""
        act = self._new()
        guarded: list[list[int]] = []
        extra = list(dict.fromkeys(s for s in result if s not in self.op_syms))
        for s in extra:
            self._symbol(s)
        for a, s in enumerate(extra):
            for t in self.op_syms + extra[a + 1 :]:
                if s[0] == t[0]:
                    guarded += self._distinct(s, t)
        guarded.append([self.ge[result[0]][0]])
        for col in range(self.width):
            total, r = self.totals[col], self.ge[result[len(result) - 1 - col]]
            for j in range(4):
                for k in range(1, 10):
                    # 10j+k <= total < 10j+10  ->  digit(r) >= k
                    lo, hi = _at_least(total, 10 * j + k), _at_least(total, 10 * j + 10)
                    if lo is not False and hi is not True:
                        guarded.append(
                            [r[k - 1]] + ([-lo] if lo is not True else []) + ([hi] if hi is not False else [])
                        )
                    # 10j <= total < 10j+k  ->  digit(r) < k
                    lo, hi = _at_least(total, 10 * j), _at_least(total, 10 * j + k)
                    if lo is not False and hi is not True:
                        guarded.append(
                            [-r[k - 1]]
                            + ([-lo] if lo is not True else [])
                            + ([hi] if hi is not False else [])
                        )
        carry = self.final_carry
        if len(result) == self.width:
            if carry:
                guarded.append([-carry[0]])
        else:  # one extra result digit = final carry (1..3)
            lead = self.ge[result[0]]
            guarded.append([-lead[3]])
            for k in range(1, 4):
                if k - 1 < len(carry):
                    guarded += [[-lead[k - 1], carry[k - 1]], [lead[k - 1], -carry[k - 1]]]
                else:
                    guarded.append([-lead[k - 1]])
        for cl in self.clauses:  # order chains of new symbols (unguarded, always satisfiable)
            self.solver.add_clause(cl)
        self.clauses = []
        for cl in guarded:
            self.solver.add_clause([-act] + cl)
        return act

    def walk(self, rng, symbols: list[tuple], act: int, leads: set) -> list[int] | None:
        """A key for ``symbols``: in random order, each takes a uniformly random digit among those
        that still admit a complete key (with the carry minimum); None if there is no key."""
        base = [self.act, act]
        if not self.solver.solve(assumptions=base):
            return None
        models = [self.solver.get_model()]
        fixed = list(base)
        key = [-1] * len(symbols)
        order = list(range(len(symbols)))
        rng.shuffle(order)
        taken: set[tuple[str, int]] = set()
        for i in order:
            s = symbols[i]
            digits = list(range(10))
            rng.shuffle(digits)
            for dgt in digits:
                if (s[0], dgt) in taken or (dgt == 0 and s in leads):
                    continue  # infeasible anyway; skipping saves a solver call
                lits = self._eq(s, dgt)
                if any(all(m[abs(x) - 1] == x for x in lits) for m in models):
                    break
                if self.solver.solve(assumptions=fixed + lits):
                    models.append(self.solver.get_model())
                    break
            else:  # pragma: no cover - the previous model always leaves one digit
                raise Reject("internal: walk lost its model")
            key[i] = dgt
            taken.add((s[0], dgt))
            fixed += lits
            models = [m for m in models if all(m[abs(x) - 1] == x for x in lits)]
        return key

    def forbid(self, symbols: list[tuple], key: list[int]) -> int:
        """A literal that, when assumed, makes every model differ from ``key`` somewhere."""
        guard = self._new()
        same = []
        for s, d in zip(symbols, key, strict=True):
            e = self._new()
            same.append(e)
            self.solver.add_clause([e] + [-x for x in self._eq(s, d)])
        self.solver.add_clause([-guard] + [-e for e in same])
        return guard

    def unique(self, revealed: list[tuple[tuple, int]], act: int, guard: int) -> bool:
        assumptions = [act, guard] + [x for s, d in revealed for x in self._eq(s, d)]
        return not self.solver.solve(assumptions=assumptions)

    def close(self) -> None:
        self.solver.delete()


def _at_least(total: list[int], v: int):
    """The literal "unary number ``total`` >= v", or True / False when that is constant."""
    return True if v <= 0 else (False if v > len(total) else total[v - 1])


# ------------------------------------------------------------------------------------------------
# Verification helpers (independent of the generator code above)
# ------------------------------------------------------------------------------------------------
def _verifier_tokens(word: str, lang: str) -> list[tuple[str, str]]:
    """(class, symbol-name) per digit, computed without generators.hangul."""
    if lang == "en":
        out = []
        for ch in word:
            pos = ord(ch) - ord("A")
            if not 0 <= pos < 26:
                raise VerificationError(f"not a capital letter: {ch!r}")
            out.append((str(pos // 9), ch))
        return out
    out = []
    for ch in word:
        parts = unicodedata.normalize("NFD", ch)
        if not 2 <= len(parts) <= 3:
            raise VerificationError(f"not a Hangul syllable: {ch!r}")
        for p in parts:
            role, _, sym = unicodedata.name(p).removeprefix("HANGUL ").partition(" ")
            out.append((role, sym))
    return out


def _reveal_name(ch: str, cls: str, lang: str) -> tuple[str, str]:
    if lang == "en":
        return (str((ord(ch) - ord("A")) // 9), ch)
    name = unicodedata.name(ch, "")
    if not name.startswith("HANGUL LETTER "):
        raise VerificationError(f"not a compatibility jamo: {ch!r}")
    role = {"초성": "CHOSEONG", "중성": "JUNGSEONG", "종성": "JONGSEONG"}[cls]
    return (role, name.removeprefix("HANGUL LETTER "))


_EN_REVEAL = re.compile(r"^\[group ([A-Z]-[A-Z])\] (.*)$", re.MULTILINE)
_KO_REVEAL = re.compile(r"^\[공개된 (초성|중성|종성)\] (.*)$", re.MULTILINE)
_EN_LINE = re.compile(r"^(  |\+ |= ) *([A-Z]+)$", re.MULTILINE)
_KO_LINE = re.compile(r"^(  |\+ |= )([\uac00-\ud7a3]+) \((\d+)자리\)$", re.MULTILINE)


def parse_question(question: str, lang: str):
    """(words, revealed) read from the question text: words = operands + [result] as symbol
    sequences, revealed = {(class, name): digit}."""
    line_re = _EN_LINE if lang == "en" else _KO_LINE
    lines = line_re.findall(question)
    if len(lines) != N_OPERANDS + 1 or [m[0] for m in lines] != ["  "] + ["+ "] * (N_OPERANDS - 1) + ["= "]:
        raise VerificationError("question does not show a 4-operand sum")
    words = [m[1] for m in lines]
    toks = [_verifier_tokens(w, lang) for w in words]
    if lang == "ko":
        for m, t in zip(lines, toks, strict=True):
            if int(m[2]) != len(t):
                raise VerificationError(f"question states {m[2]} digits for {m[1]}, it has {len(t)}")
    revealed: dict[tuple[str, str], int] = {}
    reveal_re = _EN_REVEAL if lang == "en" else _KO_REVEAL
    blocks = reveal_re.findall(question)
    if len(blocks) != 3:
        raise VerificationError("question does not show three revealed-digit lines")
    for cls, body in blocks:
        if body in ("(none revealed)", "(공개 없음)"):
            continue
        for entry in body.split(", "):
            sym, eq, dgt = entry.partition("=")
            if not eq or len(dgt) != 1 or not dgt.isdigit():
                raise VerificationError(f"bad revealed entry {entry!r}")
            key = _reveal_name(sym, cls, lang)
            if lang == "en" and not ("A" <= sym <= "Z" and f"{chr(65 + 9 * int(key[0]))}" == cls[0]):
                raise VerificationError(f"letter {sym} listed under group {cls}")
            if key in revealed:
                raise VerificationError(f"{sym} revealed twice")
            revealed[key] = int(dgt)
    return words, toks, revealed


def _number(toks, key) -> int:
    return int("".join(str(key[t]) for t in toks))


def sat_keys(toks: list[list[tuple[str, str]]], revealed: dict, limit: int = 2) -> list[dict]:
    """Up to ``limit`` complete keys extending ``revealed`` (python-sat model count).

    Encoding: one-hot digit variables for the hidden symbols only (revealed digits are folded in as
    constants); per column a chain of one-hot partial sums over the incoming carry and the hidden
    operand digits (a + b implied for every pair of values, at least one value true), whose values
    imply the result symbol's digit (total mod 10) and the exactly-one outgoing carry (total div 10).
    Sound without at-most-one on the partial sums: the true sum's value is always implied, and any
    extra true value only adds constraints, so every model is a real key (and every key a model)."""
    syms = sorted({t for w in toks for t in w})
    if any(s not in syms for s in revealed):
        raise VerificationError("a revealed symbol does not occur in the sum")
    if any(len(w) > len(toks[-1]) for w in toks[:-1]):
        raise VerificationError("an operand is longer than the result")
    hidden = [s for s in syms if s not in revealed]
    lead = {w[0] for w in toks}
    if any(revealed.get(s) == 0 for s in lead):
        return []
    shown = list(revealed.items())
    if len({(s[0], d) for s, d in shown}) != len(shown):
        return []
    pool = IDPool()
    true = pool.id("true")
    clauses: list[list[int]] = [[true]]
    x = {s: [pool.id(("x", s, d)) for d in range(10)] for s in hidden}

    def one_hot(lits):
        out = [list(lits)]
        if len(lits) <= 6:
            out += [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :]]
        else:
            out += at_most(lits, 1, pool)
        return out

    for s in hidden:
        clauses += one_hot(x[s])
        if s in lead:
            clauses.append([-x[s][0]])
        for t, d in shown:
            if t[0] == s[0]:
                clauses.append([-x[s][d]])
    for i, s in enumerate(hidden):
        for t in hidden[i + 1 :]:
            if s[0] == t[0]:
                clauses += [[-x[s][d], -x[t][d]] for d in range(10)]
    ops, res = toks[:-1], toks[-1]
    carry = [true]  # one-hot over 0..len-1
    for col in range(len(res)):
        terms = [w[len(w) - 1 - col] for w in ops if len(w) > col]
        offset = sum(revealed[t] for t in terms if t in revealed)
        acc = carry
        for t in terms:
            if t in revealed:
                continue
            new = [pool.id(("p", col, len(clauses), v)) for v in range(len(acc) + 9)]
            for a, la in enumerate(acc):
                for b in range(10):
                    clauses.append([-la, -x[t][b], new[a + b]])
            clauses.append(new)  # at least one; extra true values only add constraints
            acc = new
        rsym = res[len(res) - 1 - col]
        carry = [pool.id(("c", col, j)) for j in range(4)]
        clauses += one_hot(carry)
        for i, lit in enumerate(acc):
            total = offset + i
            if rsym in revealed:
                if total % 10 != revealed[rsym]:
                    clauses.append([-lit])
            else:
                clauses.append([-lit, x[rsym][total % 10]])
            clauses.append([-lit, carry[total // 10]] if total < 40 else [-lit])
    clauses.append([carry[0]])
    project = [v for s in hidden for v in x[s]]
    models = []
    with Solver(name=SOLVER, bootstrap_with=clauses) as solver:
        while len(models) < limit and solver.solve():
            model = solver.get_model()
            models.append(model)
            if not project:
                break
            true_vars = set(model)
            solver.add_clause([-v for v in project if v in true_vars])
    keys = []
    for m in models:
        true_vars = {v for v in m if v > 0}
        key = dict(revealed)
        key.update({s: next(d for d in range(10) if x[s][d] in true_vars) for s in hidden})
        keys.append(key)
    return keys


def column_search_keys(toks, revealed: dict, limit: int = 2, max_rows: int = 3_000_000) -> list[dict]:
    """All complete keys (up to ``limit`` returned) by a right-to-left column search that keeps
    every consistent partial key of the columns seen so far (one numpy row per partial key)."""
    ops, res = toks[:-1], toks[-1]
    if any(len(w) > len(res) for w in ops):
        raise VerificationError("an operand is longer than the result")
    lead = {w[0] for w in toks}
    order: list = list(revealed)
    pos = {s: i for i, s in enumerate(order)}
    if any(s in lead and revealed[s] == 0 for s in order):
        return []
    rows = np.array([[revealed[s] for s in order]], dtype=np.int16).reshape(1, len(order))
    carry = np.zeros(1, dtype=np.int16)

    def admit(rows, s, values, *aligned):
        """Append ``values`` as the digit of new symbol ``s``; keep rows where it is allowed."""
        ok = values != 0 if s in lead else np.ones(len(rows), dtype=bool)
        for t, i in pos.items():
            if t[0] == s[0]:
                ok &= rows[:, i] != values
        rows = np.concatenate([rows, values[:, None]], axis=1)[ok]
        pos[s] = len(order)
        order.append(s)
        return (rows, *(a[ok] for a in aligned))

    for col in range(len(res)):
        col_syms = [w[len(w) - 1 - col] for w in ops if len(w) > col]
        mult = Counter(col_syms)
        rsym = res[len(res) - 1 - col]
        new = [s for s in dict.fromkeys(col_syms) if s not in pos]
        solve_last = None
        if rsym in pos:
            singles = [s for s in new if mult[s] == 1]
            if singles:
                solve_last = singles[-1]
        for s in new:
            if s == solve_last:
                continue
            n = len(rows)
            if n * 10 > max_rows:
                raise VerificationError("column search frontier too large")
            rows, carry = np.repeat(rows, 10, axis=0), np.repeat(carry, 10)
            rows, carry = admit(rows, s, np.tile(np.arange(10, dtype=np.int16), n), carry)
        total = carry.astype(np.int16)
        for s, m in mult.items():
            if s != solve_last:
                total = total + m * rows[:, pos[s]]
        if solve_last is not None:
            values = ((rows[:, pos[rsym]] - total) % 10).astype(np.int16)
            rows, total = admit(rows, solve_last, values, total + values)
        digit = (total % 10).astype(np.int16)
        if rsym in pos:
            ok = rows[:, pos[rsym]] == digit
            rows, total = rows[ok], total[ok]
        else:
            rows, total = admit(rows, rsym, digit, total)
        carry = (total // 10).astype(np.int16)
        if not len(rows):
            return []
    rows = rows[carry == 0]
    return [{s: int(r[pos[s]]) for s in order} for r in rows[:limit]]


# ------------------------------------------------------------------------------------------------
# Scoring
# ------------------------------------------------------------------------------------------------
# Line-initial answer labels of the reference judge, optionally wrapped in markdown emphasis or
# preceded by a heading/list marker (our fix: "**Answer:** N" is a label too).
_LABEL = re.compile(
    r"^[ \t#>*_-]*(?:final\s+answer|answer|최종\s*답|정답|원문|plaintext)[ \t*_]*[:：][ \t*_]*",
    re.IGNORECASE | re.MULTILINE,
)
# A number: digits, or digit groups of three separated by commas / (thin, no-break) spaces.
_NUM = r"(?:\d{1,3}(?:(?:,|[ \u00a0\u202f\u2009])\d{3})+(?!\d)|\d+)"
_TAGGED = re.compile(rf"(?:final\s+answer|answer|output)\s*:?\s*({_NUM})", re.IGNORECASE)
_RESULT_IS = re.compile(rf"result\s*(?:is|=|equals)\s*({_NUM})", re.IGNORECASE)
_VALUE_IS = re.compile(rf"value\s*(?:is|=|equals)\s*({_NUM})", re.IGNORECASE)
_LINE_END_EQ = re.compile(rf"=[ \t]*({_NUM})[ \t]*$", re.MULTILINE)
_ANY_NUM = re.compile(_NUM)
_SPACED_DIGITS = re.compile(r"\d(?:[ ,\u00a0\u202f\u2009]?\d)*")


def _clean(num: str) -> str:
    return re.sub(r"[^\d]", "", num)


def _long_numbers(text: str) -> list[str]:
    return [n for n in (_clean(m) for m in _ANY_NUM.findall(text)) if len(n) >= 2]


class Cryptarithmetic(Puzzle):
    name = "cryptarithmetic"
    version = "1"
    _common = {"operands": N_OPERANDS, "result_extra": [0, 1], "result_candidates": 8, "key_trials": 2048}
    levers = {
        "easy": {"en": {"operand_lengths": [6], "hide_ratio": 0.65, "min_carries": 2},
                 "ko": {"operand_lengths": [6], "hide_ratio": 0.45, "min_carries": 2, "min_finals": 2}},
        "medium": {"en": {"operand_lengths": [7], "hide_ratio": 0.90, "min_carries": 2},
                   "ko": {"operand_lengths": [7], "hide_ratio": 0.53, "min_carries": 2, "min_finals": 2}},
        "hard": {"en": {"operand_lengths": [8], "hide_ratio": 0.88, "min_carries": 3},
                 "ko": {"operand_lengths": [7, 8], "hide_ratio": 0.92, "min_carries": 3, "min_finals": 3}},
    }  # fmt: skip
    for _tier in levers:
        for _lang in levers[_tier]:
            levers[_tier][_lang] = {**_common, **levers[_tier][_lang]}
    del _tier, _lang

    # ---- generation ----------------------------------------------------------------------------
    def sample(self, rng, levers, lang):
        lv = levers[lang]
        buckets = _BUCKETS[lang]
        length = rng.choice(lv["operand_lengths"])
        operands = rng.sample(buckets[length], lv["operands"])
        cands = [
            w for extra in lv["result_extra"] for w in buckets.get(length + extra, []) if w not in operands
        ]
        rng.shuffle(cands)
        oracle = None
        try:
            for result in cands[: lv["result_candidates"]]:
                words = operands + [result]
                toks = [tokens_of(w, lang) for w in words]
                if lang == "ko":
                    finals = {sym for t in toks for cls, sym in t if cls == "jong"}
                    if len(finals) < lv["min_finals"]:
                        continue
                if oracle is None:
                    oracle = _KeyOracle([[tuple(t) for t in w] for w in toks[:-1]], lv["min_carries"])
                instance = self._try(rng, lv, lang, words, toks, oracle)
                if instance is not None:
                    return instance
        finally:
            if oracle is not None:
                oracle.close()
        raise Reject("no result word admitted a key")

    def _try(self, rng, lv, lang, words, toks, oracle):
        classes = EN_CLASSES if lang == "en" else KO_CLASSES
        syms = sorted({(c, s) for t in toks for c, s in t}, key=lambda cs: _symbol_rank(*cs))
        sid = {cs: i for i, cs in enumerate(syms)}
        sym_class = [classes.index(c) for c, _ in syms]
        word_ids = [[sid[(c, s)] for c, s in t] for t in toks]
        drawn = _sample_key(
            word_ids, sym_class, len(classes), rng.getrandbits(64), lv["key_trials"], lv["min_carries"]
        )
        act = oracle.activate([tuple(t) for t in toks[-1]])
        if drawn is not None:
            key, sampler = drawn[0], "rejection"
        else:
            key, sampler = oracle.walk(rng, syms, act, {tuple(t[0]) for t in toks}), "sat_walk"
            if key is None:
                return None
        guard = oracle.forbid(syms, key)
        n = len(syms)
        target = max(1, round(lv["hide_ratio"] * n))
        if not oracle.unique([(syms[i], key[i]) for i in range(n)], act, guard):
            raise Reject("internal: the drawn key is not a model of its own encoding")
        shown = set(range(n))
        hidden = []
        visit = list(range(n))
        rng.shuffle(visit)
        for s in visit:
            if len(hidden) >= target:
                break
            if oracle.unique([(syms[i], key[i]) for i in sorted(shown - {s})], act, guard):
                shown.discard(s)
                hidden.append(s)
        if not hidden:
            return None
        table = {c: {} for c in classes}
        revealed = {c: {} for c in classes}
        for i, (c, s) in enumerate(syms):
            table[c][s] = key[i]
            if i in shown:
                revealed[c][s] = key[i]
        values = [int("".join(str(key[s]) for s in w)) for w in word_ids]
        carries, carry = 0, 0
        for col in range(len(word_ids[0])):
            carry = (sum(key[w[len(w) - 1 - col]] for w in word_ids[:-1]) + carry) // 10
            carries += carry > 0
        if sum(values[:-1]) != values[-1]:
            raise Reject("internal: drawn key does not add up")
        return {
            "script": "latin" if lang == "en" else "hangul",
            "classes": list(classes),
            "operands": words[:-1],
            "result": words[-1],
            "tokens": toks,
            "key": table,
            "revealed": revealed,
            "operand_values": values[:-1],
            "answer": str(values[-1]),
            "carries": carries,
            "key_sampler": sampler,
            "n_symbols": n,
            "n_revealed": len(shown),
            "n_hidden": len(hidden),
        }

    # ---- rendering -----------------------------------------------------------------------------
    def gold(self, instance, lang):
        return instance["answer"]

    def render(self, instance, lang, levers):
        return self._render_en(instance) if lang == "en" else self._render_ko(instance)

    def _render_en(self, inst):
        ops, res = inst["operands"], inst["result"]
        width = max(len(w) for w in ops + [res])
        reveal_lines = []
        for c in EN_CLASSES:
            entries = inst["revealed"][c]
            body = ", ".join(f"{s}={d}" for s, d in sorted(entries.items())) or "(none revealed)"
            reveal_lines.append(f"[group {EN_GROUP_LABEL[c]}] {body}")
        sum_lines = [f"  {ops[0].rjust(width)}"] + [f"+ {w.rjust(width)}" for w in ops[1:]]
        sum_lines += ["-" * (width + 2), f"= {res.rjust(width)}"]
        return (
            "In the addition below, every letter stands for a digit.\n\n"
            "Rules:\n"
            "- The alphabet is split into three groups: A-I (A to I), J-R (J to R) and S-Z (S to Z).\n"
            "- Each group has its own code table from letters to digits 0-9. Inside one group, "
            "different letters always have different digits. The groups are independent of each "
            "other, so letters from different groups may have the same digit.\n"
            "- A letter has the same digit everywhere it appears.\n"
            "- A word is read as the number whose digits are its letters' digits from left to right, "
            "so a word of n letters is an n-digit number.\n"
            "- The first letter of every word is not 0.\n"
            "- The four numbers are added by ordinary column addition, lined up on the right, and "
            "their sum is the number of the word after '='.\n"
            "- Only some digits are revealed below; work out the rest from the addition. "
            "Exactly one assignment of the hidden letters makes the addition correct.\n\n"
            "Revealed digits:\n" + "\n".join(reveal_lines) + "\n\n"
            f"Find the number that {res} stands for:\n" + "\n".join(sum_lines) + "\n\n"
            f"Explain your reasoning, then write the value of {res} as plain digits on the last line, "
            "in this form:\nAnswer: <number>"
        )

    def _render_ko(self, inst):
        ops, res = inst["operands"], inst["result"]
        order = {"cho": hangul.INITIALS, "jung": hangul.MEDIALS, "jong": hangul.FINALS}
        reveal_lines = []
        for c in KO_CLASSES:
            entries = sorted(inst["revealed"][c].items(), key=lambda kv, c=c: order[c].index(kv[0]))
            body = ", ".join(f"{s}={d}" for s, d in entries) or "(공개 없음)"
            reveal_lines.append(f"[공개된 {KO_CLASS_LABEL[c]}] {body}")
        first = ops[0][0]
        i, m, f = hangul.decompose(first)
        parts = f"초성 {hangul.INITIALS[i]}, 중성 {hangul.MEDIALS[m]}"
        parts += f", 종성 {hangul.FINALS[f]} (숫자 3개)" if f else " (받침이 없어 숫자 2개)"
        example = f"예: '{first}' → {parts}"
        toks = inst["tokens"]
        sum_lines = [f"  {ops[0]} ({len(toks[0])}자리)"]
        sum_lines += [f"+ {w} ({len(t)}자리)" for w, t in zip(ops[1:], toks[1:-1], strict=True)]
        width = max(len(w) for w in ops + [res])
        sum_lines += ["-" * (width + 2), f"= {res} ({len(toks[-1])}자리)"]
        return (
            "아래 덧셈에서 각 한글 자모는 숫자 하나를 나타냅니다.\n\n"
            "규칙:\n"
            "- 단어를 음절마다 초성, 중성, 종성(받침)으로 나누고, 음절 순서대로 초성, 중성, "
            "종성(받침이 있을 때만)을 늘어놓습니다. 각 자모를 숫자로 바꾸어 이 순서대로 이어 쓴 "
            "수가 단어의 값입니다. 받침 없는 음절은 숫자 2개, 받침 있는 음절은 숫자 3개가 됩니다.\n"
            "- 초성, 중성, 종성은 서로 독립된 세 개의 숫자표(0~9)를 씁니다. 한 표 안에서는 서로 다른 "
            "자모가 서로 다른 숫자를 가집니다. 다른 표끼리는 상관이 없어 같은 숫자가 나올 수 있고, "
            "같은 자음이라도 초성으로 쓰일 때와 종성으로 쓰일 때는 별개의 기호입니다.\n"
            "- 된소리 초성(ㄲ, ㄸ, ㅃ, ㅆ, ㅉ), 이중 모음(ㅘ, ㅝ, ㅢ 등), 겹받침(ㄳ, ㄺ 등)은 각각 "
            "기호 하나입니다. 소리 없는 초성 ㅇ도 기호 하나입니다.\n"
            "- 같은 자리(초성/중성/종성)의 같은 자모는 어디에 나오든 같은 숫자입니다.\n"
            "- 모든 단어의 첫 자모(첫 음절의 초성)는 0이 아닙니다.\n"
            "- 위의 네 수를 일의 자리를 맞추어 보통의 세로셈으로 더한 합이 '=' 뒤 단어의 값입니다.\n"
            "- 숫자표의 일부만 아래에 공개되어 있습니다. 나머지는 덧셈에서 추론하세요. 덧셈이 맞도록 "
            "숨은 자모의 숫자를 정하는 방법은 하나뿐입니다.\n\n"
            f"{example}\n\n"
            "공개된 숫자:\n" + "\n".join(reveal_lines) + "\n\n"
            f"다음 덧셈에서 '{res}'의 값을 구하세요 (괄호 안은 각 단어의 자릿수):\n"
            + "\n".join(sum_lines)
            + "\n\n"
            f"풀이 과정을 쓴 뒤, 마지막 줄에 '{res}'의 값을 숫자로만 다음 형식으로 쓰세요.\n"
            "정답: <숫자>"
        )

    def solution(self, instance, lang):
        toks = instance["tokens"]
        key = instance["key"]
        words = instance["operands"] + [instance["result"]]
        values = instance["operand_values"] + [int(instance["answer"])]
        en = lang == "en"
        lines = ["Full key:" if en else "전체 숫자표:"]
        for c in instance["classes"]:
            label = f"[group {EN_GROUP_LABEL[c]}]" if en else f"[{KO_CLASS_LABEL[c]}]"
            entries = sorted(key[c].items(), key=lambda kv, c=c: _symbol_rank(c, kv[0]))
            lines.append(f"{label} " + ", ".join(f"{s}={d}" for s, d in entries))
        for w, t, v in zip(words, toks, values, strict=True):
            spelled = " ".join(f"{'받침' if c == 'jong' else ''}{s}={key[c][s]}" for c, s in t)
            lines.append(f"{w}: {spelled} -> {v}")
        lines.append(" + ".join(str(v) for v in values[:-1]) + f" = {values[-1]}")
        lines.append(("Answer: " if en else "정답: ") + instance["answer"])
        return "\n".join(lines)

    # ---- verification --------------------------------------------------------------------------
    def check(self, item, instance):
        lang = item["lang"]
        answer = item["answer"]
        if not re.fullmatch(r"[1-9]\d*", answer):
            raise VerificationError(f"gold {answer!r} is not a plain number")
        words, toks, revealed = parse_question(item["question"], lang)
        if words != instance["operands"] + [instance["result"]]:
            raise VerificationError("question words differ from the instance")
        by_sat = sat_keys(toks, revealed, limit=2)
        by_search = column_search_keys(toks, revealed, limit=2)
        if len(by_sat) != len(by_search):
            raise VerificationError(f"SAT finds {len(by_sat)} keys, column search {len(by_search)}")
        if len(by_sat) != 1:
            raise VerificationError(f"{len(by_sat)} keys complete the revealed digits (need exactly 1)")
        if by_sat[0] != by_search[0]:
            raise VerificationError("SAT and column search found different keys")
        key = by_sat[0]
        values = [_number(t, key) for t in toks]
        if sum(values[:-1]) != values[-1]:
            raise VerificationError("the unique key does not add up")
        if str(values[-1]) != answer:
            raise VerificationError(f"gold {answer} but the unique key gives {values[-1]}")
        labels = {"g0": "A-I", "g1": "J-R", "g2": "S-Z", "cho": "초성", "jung": "중성", "jong": "종성"}
        stored = {
            _reveal_name(sym, labels[cls], lang): d
            for cls, table in instance["key"].items()
            for sym, d in table.items()
        }
        if stored != key:
            raise VerificationError("the instance key is not the unique key")

    # ---- scoring -------------------------------------------------------------------------------
    def extract(self, response, answer, lang):
        text = strip_fences(response)
        labels = list(_LABEL.finditer(text))
        payload = text[labels[-1].end() :] if labels else text
        if labels:
            first = payload.split("\n", 1)[0]
            first = re.sub(r"\\boxed\{([^{}]*)\}", r"\1", first).strip().strip("*`'\"$ .").strip()
            if _SPACED_DIGITS.fullmatch(first) and len(_clean(first)) >= 2:
                return _clean(first)
        hits = _TAGGED.findall(payload)
        if hits:
            return _clean(hits[-1])
        for rx in (_RESULT_IS, _VALUE_IS, _LINE_END_EQ):
            m = rx.search(payload)
            if m:
                return _clean(m.group(1))
        for line in reversed(payload.split("\n")[-5:]):
            nums = _long_numbers(line)
            if nums:
                return nums[0]
        nums = _long_numbers(payload)
        return nums[-1] if nums else None

    def matches(self, extracted, answer, lang):
        return _clean(extracted) == _clean(answer) and extracted.strip() != ""


PUZZLE = Cryptarithmetic()
