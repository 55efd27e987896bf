"""KoBALT-700: the Korean linguistics benchmark, loaded from the authors' release, checked and repaired.

Public API::

    import kobalt
    ds = kobalt.load("syntax", source="train.jsonl")   # datasets.Dataset, split "test"
    rows = kobalt.rows("level_3", source=path)          # plain list of dicts
    messages = kobalt.prompt(rows[0])                   # chat messages of the paper's protocol
    kobalt.extract_answer(response)                     # "C", "B, D" or None
    kobalt.score(response, rows[0]["answer"])           # True / False

Sources: a local copy of the authors' release (either schema, as a JSON array, JSON Lines or
Parquet) given as ``source=`` / ``--source`` or the ``KOBALT_SOURCE`` environment variable; without
one, the Hub dataset ``snunlp/KoBALT-700`` (needs the network or the Hugging Face cache).

The data are CC BY-NC 4.0 (non-commercial, attribution); this code is MIT.
CLI: ``kobalt list | export | score`` (``kobalt --help``).
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import datasets

__all__ = [
    "load",
    "rows",
    "prompt",
    "extract_answer",
    "score",
    "source_sha256",
    "resolve_source",
    "resolve_config",
    "parse_text",
    "render_text",
    "config_counts",
    "write_rows",
    "CONFIGS",
    "FEATURES",
    "PHENOMENA",
    "DOMAINS",
    "ERRATA",
    "GENERATION_KWARGS",
    "KobaltError",
    "SourceError",
    "UnknownConfigError",
]

VERSION = "1.0.0"
HUB_REPO = "snunlp/KoBALT-700"
HUB_FILENAME = "data/train.jsonl"
ENV_SOURCE = "KOBALT_SOURCE"
N_ROWS = 700
LETTERS = "ABCDEFGHIJ"
LICENSE = "cc-by-nc-4.0"
CITATION = """@article{shin2025kobalt,
  title   = {KoBALT: Korean Benchmark For Advanced Linguistic Tasks},
  author  = {Shin, Hyopil and Lee, Sangah and Jang, Dongjun and Song, Wooseok and Kim, Jaeyoon and
             Oh, Chaeyoung and Jo, Hyemi and Ahn, Youngchae and Oh, Sihyun and Chang, Hyohyeong and
             Kim, Sunkyoung and Lee, Jinsik},
  journal = {arXiv preprint arXiv:2505.16125},
  year    = {2025}
}"""


class KobaltError(ValueError):
    """Base class of the errors this module raises on bad input (a source, a config, an output)."""


class SourceError(KobaltError):
    """The release could not be found, read or validated."""


class UnknownConfigError(KobaltError):
    """A config name that is not one of ``CONFIGS``."""


# ---------------------------------------------------------------------------------------------
# Labels: domains and phenomena (English label of the later release, Korean label of the first)
# ---------------------------------------------------------------------------------------------
class Domain(NamedTuple):
    config: str
    label: str
    label_ko: str


class Phenomenon(NamedTuple):
    config: str
    domain: str
    label: str
    label_ko: str
    abbr: str
    paper_name: str


DOMAINS: tuple[Domain, ...] = (
    Domain("syntax", "Syntax", "통사론"),
    Domain("semantics", "Semantics", "의미론"),
    Domain("pragmatics", "Pragmatics", "화용론"),
    Domain("phonology", "Phonetics/Phonology", "음성학/음운론"),
    Domain("morphology", "Morphology", "형태론"),
)


def _snake(label: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", label.lower()).strip("_")


_PHENOMENA_TABLE = (
    # domain, English label, Korean label, abbreviation, name in the paper
    ("Syntax", "Agreement", "문장성분 호응", "Agr", "Agreement"),
    ("Syntax", "Argument Structure & Valency", "논항 구조", "ASV", "Argument Structure and Valency"),
    ("Syntax", "Embedded Clauses", "안은문장/안긴문장", "EC", "Embedded Clauses"),
    ("Syntax", "Ellipsis", "생략", "Elp", "Ellipsis"),
    ("Syntax", "Scrambling", "뒤섞기", "Scr", "Scrambling"),
    (
        "Semantics",
        "Semantic Compatibility",
        "논항-술어의 의미적 호응",
        "SCPA",
        "Semantic Concord between Predicates and Arguments",
    ),
    ("Semantics", "Rhetorical Expressions", "수사법", "RE", "Rhetorical Expressions"),
    ("Semantics", "Ambiguity", "중의성", "Amb", "Ambiguity"),
    ("Semantics", "Word Relationships", "단어간 의미 관계", "SRW", "Semantic Relationships between Words"),
    ("Semantics", "Numeral Classifiers", "적절한 분류사의 사용", "NC", "Numeral Classifiers"),
    ("Semantics", "Conjunctions", "연결사", "Conj", "Conjunctions"),
    (
        "Semantics",
        "Inter-sentence Relations",
        "sentence/phrase 사이의 의미 관계",
        "ISR",
        "Inter-sentence Semantic Relationship",
    ),
    ("Pragmatics", "Speech Acts", "화행", "SA", "Speech Acts"),
    ("Pragmatics", "Implicature", "함축", "Impl", "Implicature"),
    (
        "Pragmatics",
        "Discourse Principles",
        "대화의 격률",
        "CPDS",
        "Conversational Principles and Discourse Strategy",
    ),
    ("Pragmatics", "Deixis & Reference", "직시", "DR", "Deixis and Reference"),
    ("Pragmatics", "Social Relationship Marking", "화자 관계 파악", "IPR", "Inter-person Relationship"),
    ("Phonetics/Phonology", "Phonological Alternation", "음운의 변동", "PA", "Phonological Alternation"),
    ("Phonetics/Phonology", "Phonological Constraints", "음운론적 제약", "PC", "Phonological Constraints"),
    ("Phonetics/Phonology", "Articulatory Phonetics", "조음 위치/방법", "AP", "Basic Articulatory Phonetics"),
    ("Phonetics/Phonology", "Suprasegmental Features", "리듬/운율", "SF", "Suprasegmental Features"),
    ("Morphology", "Word Formation", "단어 형성", "WF", "Word Formation"),
    ("Morphology", "Verbal Conjugation", "용언의 활용", "VC", "Verbal Conjugation"),
    ("Morphology", "POS & Morphemes", "품사와 형태소", "POSM", "Part of Speech and Morphemes"),
)
PHENOMENA: tuple[Phenomenon, ...] = tuple(
    Phenomenon(_snake(en), dom, en, ko, abbr, name) for dom, en, ko, abbr, name in _PHENOMENA_TABLE
)
LEVELS = (1, 2, 3)

_DOMAIN_BY_LABEL: dict[str, Domain] = {}
for _d in DOMAINS:
    _DOMAIN_BY_LABEL[_d.label] = _d
    _DOMAIN_BY_LABEL[_d.label_ko] = _d
_PHENOMENON_BY_LABEL: dict[str, Phenomenon] = {}
for _p in PHENOMENA:
    _PHENOMENON_BY_LABEL[_p.label] = _p
    _PHENOMENON_BY_LABEL[_p.label_ko] = _p

CONFIGS: list[str] = (
    ["all"] + [d.config for d in DOMAINS] + [p.config for p in PHENOMENA] + [f"level_{lv}" for lv in LEVELS]
)
assert len(CONFIGS) == len(set(CONFIGS)) == 33

# Other spellings accepted for a config: labels in English or Korean, the paper's abbreviations.
_ALIASES: dict[str, str] = {}
for _d in DOMAINS:
    _ALIASES[_snake(_d.label)] = _d.config
    _ALIASES[_d.label_ko] = _d.config
for _p in PHENOMENA:
    _ALIASES[_p.abbr.lower()] = _p.config
    _ALIASES[_p.label_ko] = _p.config
    _ALIASES[_snake(_p.paper_name)] = _p.config
for _lv in LEVELS:
    _ALIASES[f"level{_lv}"] = f"level_{_lv}"
_ALIASES["phonetics"] = "phonology"
_ALIASES["default"] = "all"


def resolve_config(config: str) -> str:
    """The canonical name of ``config``; raises UnknownConfigError with close names otherwise."""
    if not isinstance(config, str):
        raise UnknownConfigError(f"a KoBALT config is a string, got {type(config).__name__}")
    if config in CONFIGS:
        return config
    key = config.strip()
    if key in _ALIASES:
        return _ALIASES[key]
    key = _snake(key)
    if key in CONFIGS:
        return key
    if key in _ALIASES:
        return _ALIASES[key]
    close = difflib.get_close_matches(key, CONFIGS, n=3, cutoff=0.6)
    close += difflib.get_close_matches(key, list(_ALIASES), n=3, cutoff=0.75)
    names: list[str] = []
    for name in close:
        canonical = _ALIASES.get(name, name)
        if canonical not in names:
            names.append(canonical)
    hint = f"; did you mean {' or '.join(repr(n) for n in names[:3])}?" if names else ""
    raise UnknownConfigError(
        f"unknown KoBALT config {config!r}{hint} ({len(CONFIGS)} configs: 'all', a domain such as "
        f"'syntax', a phenomenon such as 'agreement', or 'level_1'..'level_3'; `kobalt list` shows all)"
    )


def _in_config(row: dict[str, Any], config: str) -> bool:
    if config == "all":
        return True
    if config.startswith("level_"):
        return row["level"] == int(config[len("level_") :])
    for d in DOMAINS:
        if d.config == config:
            return row["domain"] == d.label
    return _PHENOMENON_BY_LABEL[row["phenomenon"]].config == config


# ---------------------------------------------------------------------------------------------
# Errata of the later release: "난이도" was replaced by "Level" inside four question texts
# ---------------------------------------------------------------------------------------------
# ID -> ((wrong text, corrected text), ...). Each wrong text occurs exactly once in the corrupted
# question; the first release carries the corrected text, so nothing changes there.
ERRATA: dict[str, tuple[tuple[str, str], ...]] = {
    "67c81c5d361c7932636b79de": (("적절한 Level였다", "적절한 난이도였다"),),
    "67c81c5d361c7932636b79fb": (("넒고 Level 역시", "넒고 난이도 역시"),),
    "67c81c5d361c7932636b7c2d": (
        ("사전예약 Level가", "사전예약 난이도가"),
        ("기기 사용의 Level가", "기기 사용의 난이도가"),
    ),
    "67c81c5d361c7932636b7c46": (("넒고 Level 역시", "넒고 난이도 역시"),),
}


def apply_errata(row_id: str, text: str) -> tuple[str, bool]:
    """``text`` with the errata of ``row_id`` applied, and whether anything changed."""
    changed = False
    for wrong, right in ERRATA.get(row_id, ()):
        if text.count(wrong) == 1:
            text = text.replace(wrong, right)
            changed = True
    return text, changed


# ---------------------------------------------------------------------------------------------
# Question layout: [지문:\n<passage>\n\n]문제: <stem>\n\nA: <option>\n ... J: <option>\n
# ---------------------------------------------------------------------------------------------
_OPTION_LINE = re.compile(r"([A-Z]):(?: |(?=\S)|$)(.*)")
_STEM_LINE = re.compile(r"^문제:", re.MULTILINE)
PASSAGE_MARK = "지문:"
STEM_MARK = "문제:"


def parse_text(text: str) -> tuple[str, str, list[str]]:
    """Split a question text into (passage, stem, options); raises ValueError on another layout."""
    lines = text.split("\n")
    end = len(lines)
    while end > 0 and not lines[end - 1].strip():
        end -= 1
    start = end
    found: list[tuple[str, str]] = []
    while start > 0:
        m = _OPTION_LINE.fullmatch(lines[start - 1])
        if not m:
            break
        # the option text is kept exactly (two release options carry a stray space), so that
        # render_text() gives back the original text
        found.insert(0, (m.group(1), m.group(2)))
        start -= 1
    letters = "".join(letter for letter, _ in found)
    if letters != LETTERS:
        shown = ", ".join(letters) if letters else "none"
        raise ValueError(
            f"has {len(found)} option lines at the end (letters: {shown}); expected exactly ten, A to J"
        )
    head = "\n".join(lines[:start])
    m = _STEM_LINE.search(head)
    if not m:
        raise ValueError(f"has no line starting with {STEM_MARK!r} (the question stem)")
    before, stem = head[: m.start()].strip(), head[m.end() :].strip()
    if not stem:
        raise ValueError("has an empty question stem")
    if before.startswith(PASSAGE_MARK):
        before = before[len(PASSAGE_MARK) :].strip()
    return before, stem, [text for _, text in found]


def render_text(passage: str, question: str, options: list[str]) -> str:
    """The question text in the release's layout (the inverse of ``parse_text``)."""
    if len(options) != len(LETTERS):
        raise ValueError(f"a KoBALT question has ten options, got {len(options)}")
    head = f"{PASSAGE_MARK}\n{passage}\n\n" if passage else ""
    body = "".join(f"{letter}: {option}\n" for letter, option in zip(LETTERS, options, strict=True))
    return f"{head}{STEM_MARK} {question}\n\n{body}"


# ---------------------------------------------------------------------------------------------
# Reading a source: schema detection and validation
# ---------------------------------------------------------------------------------------------
# field -> key in each schema of the authors' release (and in our own export, so it can be re-read)
_SCHEMAS: dict[str, dict[str, str]] = {
    "first release (Korean labels)": {
        "id": "ID",
        "domain": "대분류",
        "phenomenon": "소분류",
        "text": "question",
        "answer": "answer",
        "level": "난이도",
    },
    "later release (English labels)": {
        "id": "ID",
        "domain": "Class",
        "phenomenon": "Subclass",
        "text": "Question",
        "answer": "Answer",
        "level": "Level",
    },
    "kobalt export": {
        "id": "id",
        "domain": "domain",
        "phenomenon": "phenomenon",
        "text": "text",
        "answer": "answer",
        "level": "level",
    },
}
_MAX_LISTED = 8

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "domain": datasets.Value("string"),
        "phenomenon": datasets.Value("string"),
        "domain_ko": datasets.Value("string"),
        "phenomenon_ko": datasets.Value("string"),
        "phenomenon_abbr": datasets.Value("string"),
        "level": datasets.Value("int32"),
        "passage": datasets.Value("string"),
        "question": datasets.Value("string"),
        "options": datasets.List(datasets.Value("string")),
        "answer": datasets.Value("string"),
        "answer_index": datasets.Value("int32"),
        "text": datasets.Value("string"),
        "errata_applied": datasets.Value("bool"),
    }
)
FIELDS = list(FEATURES)


def _rows_phrase(problems: list[tuple[int, str]]) -> str:
    """'rows 3 (ID x), 9 (ID y) and 4 more' for a list of (row number, ID)."""
    shown = [f"{n} (ID {i})" if i else str(n) for n, i in problems[:_MAX_LISTED]]
    more = len(problems) - len(shown)
    word = "row" if len(problems) == 1 else "rows"
    return f"{word} {', '.join(shown)}" + (f" and {more} more" if more > 0 else "")


def _detect_schema(records: list[dict[str, Any]], where: str) -> tuple[str, dict[str, str]]:
    present: dict[str, int] = {}
    for rec in records:
        for key in rec:
            present[key] = present.get(key, 0) + 1
    best, best_score = None, 0
    for name, schema in _SCHEMAS.items():
        hits = sum(1 for key in schema.values() if key in present)
        if hits > best_score:
            best, best_score = name, hits
    if best is None or best_score < 2:
        keys = ", ".join(sorted(present)[:20]) or "none"
        expected = "; ".join(f"{n}: {', '.join(s.values())}" for n, s in _SCHEMAS.items())
        raise SourceError(
            f"{where}: not a KoBALT release: keys found: {keys}; expected one of the schemas ({expected})"
        )
    return best, _SCHEMAS[best]


def _int_level(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value in LEVELS else None
    if isinstance(value, float) and value.is_integer():
        return _int_level(int(value))
    if isinstance(value, str) and value.strip().isdigit():
        return _int_level(int(value.strip()))
    return None


def _validate(records: list[Any], where: str) -> list[dict[str, Any]]:
    """Rows of our schema from raw records; raises SourceError listing every problem by row."""
    not_objects = [(n, "") for n, rec in enumerate(records, 1) if not isinstance(rec, dict)]
    if not_objects:
        raise SourceError(f"{where}: {_rows_phrase(not_objects)}: not a JSON object / record")
    if not records:
        raise SourceError(f"{where}: has no rows, expected {N_ROWS}")
    schema_name, schema = _detect_schema(records, where)
    problems: dict[str, list[tuple[int, str]]] = {}

    def problem(kind: str, n: int, rid: str) -> None:
        problems.setdefault(kind, []).append((n, rid))

    out: list[dict[str, Any]] = []
    first_row_of: dict[str, int] = {}
    for n, rec in enumerate(records, 1):
        raw_id = rec.get(schema["id"])
        rid = raw_id if isinstance(raw_id, str) else ""
        missing = [key for key in schema.values() if key not in rec or rec[key] is None]
        if missing:
            problem(f"missing keys {', '.join(missing)} ({schema_name} schema)", n, rid)
            continue
        if not isinstance(raw_id, str) or not raw_id.strip():
            problem("ID is not a non-empty string", n, rid)
            continue
        if rid in first_row_of:
            problem("duplicate ID", n, f"{rid}, also in row {first_row_of[rid]}")
            continue
        first_row_of[rid] = n
        dom = _DOMAIN_BY_LABEL.get(str(rec[schema["domain"]]).strip())
        phen = _PHENOMENON_BY_LABEL.get(str(rec[schema["phenomenon"]]).strip())
        if dom is None:
            problem(f"unknown domain label (key {schema['domain']})", n, rid)
            continue
        if phen is None:
            problem(f"unknown phenomenon label (key {schema['phenomenon']})", n, rid)
            continue
        if phen.domain != dom.label:
            problem("phenomenon does not belong to the domain", n, rid)
            continue
        level = _int_level(rec[schema["level"]])
        if level is None:
            problem(f"level (key {schema['level']}) is not 1, 2 or 3", n, rid)
            continue
        answer = rec[schema["answer"]]
        answer = answer.strip() if isinstance(answer, str) else answer
        if not isinstance(answer, str) or len(answer) != 1 or answer not in LETTERS:
            problem(f"answer (key {schema['answer']}) is not one letter A-J", n, rid)
            continue
        text = rec[schema["text"]]
        if not isinstance(text, str) or not text.strip():
            problem(f"question text (key {schema['text']}) is empty or not a string", n, rid)
            continue
        text, fixed = apply_errata(rid, text)
        if schema_name == "kobalt export" and rec.get("errata_applied") is True:
            fixed = True  # re-reading our own export: the text was repaired when it was written
        try:
            passage, stem, options = parse_text(text)
        except ValueError as exc:
            problem(f"question {exc}", n, rid)
            continue
        out.append(
            {
                "id": rid,
                "domain": dom.label,
                "phenomenon": phen.label,
                "domain_ko": dom.label_ko,
                "phenomenon_ko": phen.label_ko,
                "phenomenon_abbr": phen.abbr,
                "level": level,
                "passage": passage,
                "question": stem,
                "options": options,
                "answer": answer,
                "answer_index": LETTERS.index(answer),
                "text": text,
                "errata_applied": fixed,
            }
        )
    messages = [f"{_rows_phrase(rows_)}: {kind}" for kind, rows_ in problems.items()]
    if len(records) != N_ROWS:
        messages.append(f"has {len(records)} rows, expected {N_ROWS} (the KoBALT-700 release)")
    if messages:
        raise SourceError(f"{where} is not a valid KoBALT-700 release:\n  - " + "\n  - ".join(messages))
    return out


def _read_records(path: Path) -> list[Any]:
    """Raw records of a JSON array, JSON Lines or Parquet file (format detected from the content)."""
    with open(path, "rb") as fh:
        magic = fh.read(4)
    if magic == b"PAR1":
        import pyarrow.parquet as pq

        try:
            return pq.read_table(path).to_pylist()
        except Exception as exc:  # pyarrow raises several types for damaged files
            raise SourceError(f"{path}: cannot read Parquet: {exc}") from None
    try:
        content = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError(f"{path}: not UTF-8 text, JSON Lines or Parquet ({exc})") from None
    stripped = content.lstrip()
    if not stripped:
        raise SourceError(f"{path}: the file is empty")
    if stripped.startswith("["):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise SourceError(f"{path}: not valid JSON: {exc}") from None
        return data
    records: list[Any] = []
    for lineno, line in enumerate(content.splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            if lineno == 1:
                raise SourceError(f"{path}: neither a JSON array nor JSON Lines ({exc})") from None
            raise SourceError(f"{path}: line {lineno} is not valid JSON ({exc})") from None
    if len(records) == 1 and isinstance(records[0], dict):
        # one JSON object: either a one-row JSON Lines file or a wrapper such as {"data": [...]}
        lists = [v for v in records[0].values() if isinstance(v, list) and v and isinstance(v[0], dict)]
        if len(lists) == 1:
            return lists[0]
    return records


_CACHE: dict[tuple[str, int, int], tuple[str, list[dict[str, Any]]]] = {}


def _release(path: Path) -> tuple[str, list[dict[str, Any]]]:
    """(sha256 of the file, validated rows) of ``path``, memoised on path, size and mtime."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _CACHE:
        sha = hashlib.sha256(path.read_bytes()).hexdigest()
        validated = _validate(_read_records(path), str(path))
        _CACHE.clear()
        _CACHE[key] = (sha, validated)
    return _CACHE[key]


# ---------------------------------------------------------------------------------------------
# Finding the source: explicit path, KOBALT_SOURCE, Hugging Face cache, Hub
# ---------------------------------------------------------------------------------------------
_DATA_SUFFIXES = (".json", ".jsonl", ".parquet")


def _how_to_pass() -> str:
    return (
        "pass a local copy of the authors' release (JSON array, JSON Lines or Parquet, either schema): "
        f"kobalt.load(..., source='path/to/train.jsonl'), `kobalt ... --source PATH`, or set the "
        f"environment variable {ENV_SOURCE}=PATH"
    )


def _file_in(path: Path) -> Path:
    if path.is_file():
        return path
    if path.is_dir():
        found = sorted(
            p
            for p in path.rglob("*")
            if p.is_file()
            and p.suffix.lower() in _DATA_SUFFIXES
            and not any(part.startswith(".") for part in p.relative_to(path).parts)
        )
        if len(found) == 1:
            return found[0]
        if not found:
            raise SourceError(f"source folder {path} holds no .json, .jsonl or .parquet file")
        names = ", ".join(str(p.relative_to(path)) for p in found[:_MAX_LISTED])
        raise SourceError(f"source folder {path} holds several data files ({names}); pass one of them")
    raise SourceError(f"KoBALT source not found: {path}")


def _hub_offline() -> bool:
    for var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"):
        if os.environ.get(var, "").strip().lower() in ("1", "true", "yes", "on"):
            return True
    try:
        from huggingface_hub import constants

        return bool(getattr(constants, "HF_HUB_OFFLINE", False))
    except Exception:
        return False


def _hub_reachable(timeout: float = 3.0) -> bool:
    """A quick TCP check of the Hub endpoint, so that an offline machine fails in seconds."""
    import socket
    from urllib.parse import urlparse

    try:
        from huggingface_hub import constants

        endpoint = constants.ENDPOINT
    except Exception:
        endpoint = "https://huggingface.co"
    url = urlparse(endpoint)
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        with socket.create_connection((url.hostname or "huggingface.co", port), timeout=timeout):
            return True
    except OSError:
        return False


def _hub_data_file() -> str:
    """The release file of the Hub dataset: data/train.jsonl, else its only data file."""
    from huggingface_hub import list_repo_files

    files = list_repo_files(HUB_REPO, repo_type="dataset")
    if HUB_FILENAME in files:
        return HUB_FILENAME
    found = sorted(f for f in files if f.lower().endswith(_DATA_SUFFIXES) and not f.startswith("."))
    if len(found) != 1:
        raise SourceError(
            f"Hub dataset {HUB_REPO} holds {len(found)} data files ({', '.join(found[:_MAX_LISTED])}), "
            f"expected {HUB_FILENAME}; {_how_to_pass()}"
        )
    return found[0]


def _from_hub() -> Path:
    try:
        from huggingface_hub import hf_hub_download
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise SourceError(f"huggingface_hub is not installed ({exc}); {_how_to_pass()}") from None
    try:  # a copy already in the Hugging Face cache needs no network
        return Path(hf_hub_download(HUB_REPO, HUB_FILENAME, repo_type="dataset", local_files_only=True))
    except Exception:
        pass
    reason = None
    if _hub_offline():
        reason = "offline mode is on (HF_HUB_OFFLINE)"
    elif not _hub_reachable():
        reason = "the Hugging Face Hub is not reachable (no network)"
    if reason is None:
        try:
            return Path(hf_hub_download(HUB_REPO, _hub_data_file(), repo_type="dataset"))
        except SourceError:
            raise
        except Exception as exc:
            reason = f"download failed: {type(exc).__name__}: {str(exc)[:200]}"
    raise SourceError(f"KoBALT source not available: Hub dataset {HUB_REPO}: {reason}; {_how_to_pass()}")


def resolve_source(source: str | os.PathLike | None = None) -> Path:
    """The local data file to read: ``source``, else $KOBALT_SOURCE, else the Hub dataset."""
    if source is None:
        env = os.environ.get(ENV_SOURCE, "").strip()
        if env:
            path = Path(env).expanduser()
            if not path.exists():
                raise SourceError(f"{ENV_SOURCE} points to a missing file: {path}")
            return _file_in(path)
        return _from_hub()
    if not isinstance(source, (str, os.PathLike)) or not str(source).strip():
        raise SourceError(f"source must be a path to a file, got {source!r}")
    return _file_in(Path(source).expanduser())


def source_sha256(source: str | os.PathLike | None = None) -> str:
    """sha256 (hex) of the bytes of the source file (resolved as in ``resolve_source``)."""
    h = hashlib.sha256()
    with open(resolve_source(source), "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def rows(config: str = "all", source: str | os.PathLike | None = None) -> list[dict[str, Any]]:
    """The validated, repaired rows of ``config`` in release order (fresh dicts on every call)."""
    name = resolve_config(config)
    path = resolve_source(source)
    _, all_rows = _release(path)
    return [{**row, "options": list(row["options"])} for row in all_rows if _in_config(row, name)]


def config_counts(source: str | os.PathLike | None = None) -> dict[str, int]:
    """Number of rows of every config, in ``CONFIGS`` order."""
    _, all_rows = _release(resolve_source(source))
    return {name: sum(1 for r in all_rows if _in_config(r, name)) for name in CONFIGS}


# ---------------------------------------------------------------------------------------------
# datasets builder
# ---------------------------------------------------------------------------------------------
class KobaltConfig(datasets.BuilderConfig):
    def __init__(self, kobalt_config: str = "all", source_path: str = "", source_sha: str = "", **kw):
        name = resolve_config(kobalt_config)
        kw.setdefault("name", f"{name}-{source_sha[:12] or 'nosource'}-v{VERSION}")
        super().__init__(**kw)
        self.kobalt_config = name
        self.source_path = source_path
        self.source_sha = source_sha


class Kobalt(datasets.GeneratorBasedBuilder):
    """Builds one KoBALT config as a single ``test`` split from a local release file."""

    BUILDER_CONFIG_CLASS = KobaltConfig
    VERSION = datasets.Version(VERSION)

    def _info(self):
        return datasets.DatasetInfo(
            description="KoBALT-700: Korean Benchmark for Advanced Linguistic Tasks (700 ten-option questions).",
            features=FEATURES,
            homepage=f"https://huggingface.co/datasets/{HUB_REPO}",
            license=LICENSE,
            citation=CITATION,
        )

    def _split_generators(self, dl_manager):
        return [datasets.SplitGenerator(name=datasets.Split.TEST)]

    def _generate_examples(self):
        cfg = self.config
        yield from enumerate(rows(cfg.kobalt_config, cfg.source_path))


def _code_sha() -> str:
    try:
        return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    except OSError:  # pragma: no cover - frozen or zipped installs
        return VERSION


def _builder(config: str, source, cache_dir) -> Kobalt:
    name = resolve_config(config)
    path = resolve_source(source)
    sha, _ = _release(path)  # validates now: errors come as SourceError, not from inside datasets
    # The cache key holds the config, the source content and this module's code: a changed source
    # file or a changed errata table never serves stale rows.
    digest = hashlib.sha256(f"{name}|{sha}|{VERSION}|{_code_sha()}".encode()).hexdigest()[:16]
    return Kobalt(
        cache_dir=str(cache_dir) if cache_dir is not None else None,
        kobalt_config=name,
        source_path=str(path),
        source_sha=sha,
        hash=digest,
    )


def load(
    config: str = "all",
    source: str | os.PathLike | None = None,
    streaming: bool = False,
    cache_dir: str | os.PathLike | None = None,
) -> datasets.Dataset | datasets.IterableDataset:
    """The ``test`` split of ``config`` as a ``datasets.Dataset`` (``IterableDataset`` if streaming)."""
    builder = _builder(config, source, cache_dir)
    if streaming:
        return builder.as_streaming_dataset(split="test")
    builder.download_and_prepare()
    return builder.as_dataset(split="test")


# ---------------------------------------------------------------------------------------------
# Evaluation protocol of the paper: prompt, greedy decoding, answer extraction
# ---------------------------------------------------------------------------------------------
GENERATION_KWARGS = {"temperature": 0.0, "do_sample": False, "max_new_tokens": 2048}
CLOSING_PATTERN = "정답은 X입니다."
SYSTEM_PROMPT = "당신은 어려운 문제를 정확하게 풀어내는 문제 해결 전문가입니다."
_USER_TEMPLATE = (
    "아래 문제를 단계별로 차근차근 따져 본 뒤, A부터 J까지 열 개의 선택지 가운데 알맞은 답을 "
    "하나 고르십시오.\n\n{text}\n\n"
    "풀이를 마친 뒤에는 X 자리에 A, B, C, D, E, F, G, H, I, J 가운데 한 글자만 넣어, 응답을 반드시 "
    "다음 문장으로 끝내십시오.\n" + CLOSING_PATTERN
)


def prompt(row: dict[str, Any] | str) -> list[dict[str, str]]:
    """Chat messages (system, user) asking for ``row`` under the paper's protocol.

    ``row`` is a row of ``rows()``/``load()`` (its ``text``, or passage/question/options) or the
    question text itself."""
    if isinstance(row, str):
        text = row
    elif isinstance(row, dict) and isinstance(row.get("text"), str) and row["text"].strip():
        text = row["text"]
    elif isinstance(row, dict) and {"question", "options"} <= set(row):
        text = render_text(row.get("passage") or "", row["question"], list(row["options"]))
    else:
        raise TypeError("prompt() needs a KoBALT row (with 'text' or 'question' and 'options') or a text")
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": _USER_TEMPLATE.format(text=text.strip())},
    ]


_OPEN, _CLOSE = "정답은", "입니다"
_CAPITALS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _closing_spans(text: str) -> Iterator[tuple[int, int]]:
    """Spans (start, end) of the content of every non-overlapping match of the paper's pattern
    ``정답은\\s*(.*?)\\s*입니다`` (Python ``re``, no flags), in order, in linear time.

    For a ``정답은`` ending at ``e`` the regex matches iff the first ``입니다`` at or after ``e``
    (at ``q``) can be reached: between them, once leading and trailing whitespace are removed, there
    must be no newline (``.`` stops at newlines, ``\\s`` does not). Equal to ``re.finditer`` of the
    pattern (a test checks it on random strings), without its quadratic worst case."""
    pos = 0
    close_at = -2  # cached position of the next 입니다 (-1: none left)
    content_end = -1  # for close_at: the end of the text before it, without trailing whitespace
    newline_at = -2  # cached position of the next newline at or after the content start (-1: none)
    n = len(text)
    while pos < n:
        p = text.find(_OPEN, pos)
        if p < 0:
            return
        e = p + len(_OPEN)
        if close_at != -1 and close_at < e:
            close_at = text.find(_CLOSE, e)
            if close_at != -1:
                content_end = close_at
                while content_end > e and text[content_end - 1].isspace():
                    content_end -= 1
        if close_at == -1:
            return
        s = e
        while s < close_at and text[s].isspace():
            s += 1
        t = max(content_end, s)
        if newline_at != -1 and newline_at < s:
            newline_at = text.find("\n", s)
        if newline_at == -1 or newline_at >= t:
            yield s, t
            pos = close_at + len(_CLOSE)
        else:
            pos = p + 1


def extract_answer(response: Any) -> str | None:
    """The prediction of the paper's protocol: the distinct capital letters A-Z inside every
    "정답은 ... 입니다" of ``response``, in order of first appearance, joined by ", "; None if there
    are none (no closing sentence, or none with a capital letter). Never raises."""
    if isinstance(response, bytes):
        response = response.decode("utf-8", errors="replace")
    if not isinstance(response, str) or not response:
        return None
    seen: list[str] = []
    for s, t in _closing_spans(response):
        for ch in response[s:t]:
            if ch in _CAPITALS and ch not in seen:
                seen.append(ch)
    return ", ".join(seen) if seen else None


def _gold_letter(answer: Any) -> str:
    if isinstance(answer, int) and not isinstance(answer, bool) and 0 <= answer < len(LETTERS):
        return LETTERS[answer]
    if isinstance(answer, str) and answer.strip() in LETTERS and len(answer.strip()) == 1:
        return answer.strip()
    raise ValueError(f"the gold answer must be one letter A-J (or an index 0-9), got {answer!r}")


def score(response: Any, answer: str | int) -> bool:
    """True exactly when the prediction of ``extract_answer`` equals the gold letter.

    A reply naming two different letters, or without the closing sentence, is wrong. Raises only
    for a malformed gold ``answer``."""
    gold = _gold_letter(answer)
    return extract_answer(response) == gold


# ---------------------------------------------------------------------------------------------
# File output
# ---------------------------------------------------------------------------------------------
def write_rows(items: list[dict[str, Any]], out: str | os.PathLike) -> int:
    """Write rows to ``.jsonl`` or ``.parquet`` atomically (a temporary file renamed at the end)."""
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in (".jsonl", ".parquet"):
        raise KobaltError(f"output must end in .jsonl or .parquet, got {out.name!r}")
    if not out.parent.is_dir():
        raise KobaltError(f"output folder does not exist: {out.parent}")
    if out.is_dir():
        raise KobaltError(f"output is a folder: {out}")
    tmp = out.with_name(f".{out.name}.partial")
    try:
        if suffix == ".jsonl":
            with open(tmp, "w", encoding="utf-8") as fh:
                for item in items:
                    fh.write(json.dumps({k: item[k] for k in FIELDS}, ensure_ascii=False) + "\n")
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pylist(
                [{k: item[k] for k in FIELDS} for item in items], schema=FEATURES.arrow_schema
            )
            pq.write_table(table, tmp)
        os.replace(tmp, out)
    finally:
        if tmp.exists():
            tmp.unlink()
    return len(items)


# ---------------------------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------------------------
def _cmd_list(args) -> int:
    counts: dict[str, int] | None = None
    note = ""
    try:
        counts = config_counts(args.source)
    except SourceError as exc:
        if args.source is not None or os.environ.get(ENV_SOURCE, "").strip():
            raise
        note = f"(no row counts: {exc})"
    if args.json:
        out = [{"config": c, "rows": counts[c] if counts else None} for c in CONFIGS]
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        for c in CONFIGS:
            print(f"{c:30} {counts[c]:>4}" if counts else c)
        if counts:
            print(f"\n{len(CONFIGS)} configs, {counts['all']} rows")
    if note:
        print(note, file=sys.stderr)
    return 0


def _cmd_export(args) -> int:
    name = resolve_config(args.config)
    out = Path(args.out)
    if out.suffix.lower() not in (".jsonl", ".parquet"):
        raise KobaltError(f"--out must end in .jsonl or .parquet, got {out.name!r}")
    items = rows(name, args.source)
    count = write_rows(items, out)
    print(f"wrote {count} rows of KoBALT config {name} to {out}")
    return 0


def _cmd_score(args) -> int:
    response = args.response if args.response is not None else sys.stdin.read()
    found = extract_answer(response)
    ok = score(response, args.answer)
    print(json.dumps({"extracted": found, "answer": args.answer, "correct": ok}, ensure_ascii=False))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="kobalt", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser(
        "evaluate",
        help="score a predictions file and report accuracy (kobalt evaluate --help)",
        add_help=False,
    )
    src_help = f"a local copy of the release (default: ${ENV_SOURCE}, else the Hub dataset {HUB_REPO})"
    s = sub.add_parser("list", help="list the 33 configs (with row counts when a source is available)")
    s.add_argument("--source", help=src_help)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_cmd_list)
    s = sub.add_parser("export", help="write one config to .jsonl or .parquet")
    s.add_argument("--config", default="all")
    s.add_argument("--out", required=True, help="output file ending in .jsonl or .parquet")
    s.add_argument("--source", help=src_help)
    s.set_defaults(func=_cmd_export)
    s = sub.add_parser("score", help="score one response (stdin or --response) against a gold letter")
    s.add_argument("--answer", required=True)
    s.add_argument("--response")
    s.set_defaults(func=_cmd_score)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "evaluate":
        import evaluation

        return evaluation.kobalt_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (KobaltError, ValueError, TypeError, OSError) as exc:
        print(f"kobalt: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
