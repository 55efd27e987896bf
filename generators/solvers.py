"""Complete solvers used by the independent verifiers (python-sat).

Verifiers build their own CNF encodings from an item's ``instance`` or question text; this module
only provides the model counting, so that the encoding (the part that could share a bug with a
generator) stays with each verifier.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

SOLVER = "cadical153"


def count_models(
    clauses: Iterable[Sequence[int]],
    limit: int = 2,
    project: Sequence[int] | None = None,
) -> tuple[int, list[list[int]]]:
    """Count models up to ``limit``; return (count, models).

    With ``project`` the count is over distinct assignments of those variables only (each model found
    is blocked on the projected variables), which is what "the asked answer is unique" needs.
    """
    models: list[list[int]] = []
    with Solver(name=SOLVER, bootstrap_with=[list(c) for c in clauses]) as s:
        while len(models) < limit and s.solve():
            model = s.get_model()
            models.append(model)
            if project is None:
                block = [-lit for lit in model]
            else:
                pos = {abs(lit): lit for lit in model}
                block = [-pos[v] for v in project]
            if not block:
                break
            s.add_clause(block)
    return len(models), models


def exactly(lits: Sequence[int], k: int, pool: IDPool) -> list[list[int]]:
    """Clauses saying exactly ``k`` of ``lits`` are true (auxiliary variables from ``pool``)."""
    if k == 1:
        enc = CardEnc.equals(lits=list(lits), bound=1, vpool=pool, encoding=EncType.pairwise)
    else:
        enc = CardEnc.equals(lits=list(lits), bound=k, vpool=pool, encoding=EncType.seqcounter)
    return [list(c) for c in enc.clauses]


def at_most(lits: Sequence[int], k: int, pool: IDPool) -> list[list[int]]:
    enc = CardEnc.atmost(lits=list(lits), bound=k, vpool=pool, encoding=EncType.seqcounter)
    return [list(c) for c in enc.clauses]


def at_least(lits: Sequence[int], k: int, pool: IDPool) -> list[list[int]]:
    enc = CardEnc.atleast(lits=list(lits), bound=k, vpool=pool, encoding=EncType.seqcounter)
    return [list(c) for c in enc.clauses]
