"""Agreement of our scorer with the reference judge on ../shared/reference/responses-dev.jsonl."""

from __future__ import annotations

from conftest import reference_rows

import nolli


def row_key(row: dict) -> str:
    return f"{row['id']}|{row['model']}"


def check_agreement(task: str, differences: dict[str, str], minimum: float = 0.99) -> None:
    """Assert that our verdicts equal the reference verdicts on every dev row of ``task`` except the
    rows listed in ``differences`` (row key -> reason), and that each listed row really differs.

    Returns (agreeing rows, all rows) for reporting."""
    rows = [r for r in reference_rows() if r["task"] == task]
    assert rows, f"no reference rows for {task}"
    unexplained, stale = [], []
    agree = 0
    for row in rows:
        ours = nolli.score(row["config"], row["response"], row["answer"])
        theirs = bool(row["exact_match"])
        key = row_key(row)
        if ours == theirs:
            agree += 1
            if key in differences:
                stale.append(key)
        elif key not in differences:
            unexplained.append(f"{key}: ours={ours} reference={theirs} answer={row['answer']!r}")
    assert not unexplained, f"{len(unexplained)} unexplained disagreements:\n" + "\n".join(unexplained[:20])
    assert not stale, f"listed differences that now agree: {stale}"
    # Rows listed as deliberate differences are checked above to really differ; the agreement
    # threshold applies to every other row.
    compared = len(rows) - len(differences)
    assert agree / compared >= minimum, f"agreement {agree}/{compared} below {minimum:.0%}"
    return agree, len(rows)
