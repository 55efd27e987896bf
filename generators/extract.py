"""Answer-extraction helpers shared by the scorers.

They follow the reference judge's conventions (spec: "Answer format and scoring" per task), so that
our verdicts reproduce its verdicts on the reference release, and are written to run in linear time
on any input.
"""

from __future__ import annotations

import re

# Line-start labels the reference judge recognises, followed by ':' or a full-width colon.
_LABELS = r"(?:final\s+answer|answer|최종\s*답|정답|원문|plaintext)"
LABEL_LINE = re.compile(rf"^[ \t]*{_LABELS}[ \t]*[:：][ \t]*(.*)$", re.IGNORECASE | re.MULTILINE)
FENCE = re.compile(r"```[a-zA-Z0-9_+-]*")


def strip_fences(text: str) -> str:
    """Remove markdown code-fence markers (keeping their content)."""
    return FENCE.sub("", text)


def last_label_payload(text: str) -> str | None:
    """Payload of the last line that starts with an answer label (``Answer:``, ``정답:`` ...)."""
    last = None
    for m in LABEL_LINE.finditer(text):
        last = m.group(1)
    return last.strip() if last is not None else None


def normalize_space(s: str) -> str:
    return " ".join(s.split())


def strip_markup(s: str) -> str:
    """Drop markdown emphasis, quotes, backticks and LaTeX boxing around an answer."""
    s = re.sub(r"\\boxed\{([^{}]*)\}", r"\1", s)
    s = re.sub(r"\\text\{([^{}]*)\}", r"\1", s)
    return s.strip().strip("*`'\"“”‘’$ ").strip()
