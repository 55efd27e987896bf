"""NOLLI: procedurally generated English-Korean puzzles with verified unique answers.

Public API::

    import nolli
    ds = nolli.load("ko_jamo_easy")                 # datasets.Dataset, 100 verified items
    item = nolli.generate("en_sudoku_hard", 0, 7)   # == nolli.load("en_sudoku_hard")[7]
    nolli.verify(item)                               # VerifyResult, truthy when verified
    nolli.score("en_sudoku_hard", response, item["answer"])
    nolli.extract_answer("en_sudoku_hard", response)

CLI: ``nolli list | generate | verify | score`` (``nolli --help``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import datasets

import generators
from generators import ConfigInfo, NotImplementedConfigError, UnknownConfigError, resolve
from generators.base import VerifyResult, dumps
from generators.seeding import derive_seed, item_seed

__all__ = [
    "load",
    "generate",
    "iter_items",
    "regenerate",
    "verify",
    "score",
    "extract_answer",
    "list_configs",
    "FEATURES",
    "UnknownConfigError",
    "NotImplementedConfigError",
    "VerifyResult",
]

DEFAULT_N = 100
DEFAULT_SEED = 0

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "config": datasets.Value("string"),
        "task": datasets.Value("string"),
        "lang": datasets.Value("string"),
        "tier": datasets.Value("string"),
        "category": datasets.Value("string"),
        "seed": datasets.Value("int64"),
        "question": datasets.Value("string"),
        "answer": datasets.Value("string"),
        "instance": datasets.Value("string"),
        "levers": datasets.Value("string"),
        "solution": datasets.Value("string"),
        "generator_version": datasets.Value("string"),
    }
)
FIELDS = list(FEATURES)


# ---------------------------------------------------------------------------------------------
# Argument checking
# ---------------------------------------------------------------------------------------------
def _check_int(name: str, value: Any, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


def _info(config: str | ConfigInfo) -> ConfigInfo:
    return config if isinstance(config, ConfigInfo) else resolve(config)


# ---------------------------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------------------------
def generate(config: str, seed: int = DEFAULT_SEED, index: int = 0) -> dict[str, Any]:
    """Item ``index`` of ``config`` generated with base seed ``seed`` (exactly row ``index`` of ``load``)."""
    info = _info(config)
    _check_int("seed", seed, 0)
    _check_int("index", index, 0)
    puzzle = generators.puzzle_for(info)
    if puzzle.small_space:
        # Repeats are redrawn in order, so row ``index`` depends on the rows before it.
        *_, item = iter_items(info, seed, index + 1)
        return item
    return puzzle.build(info, item_seed(info.pairing_key, seed, index), index)


def regenerate(item: dict[str, Any]) -> dict[str, Any]:
    """Rebuild an item from its own ``config``, ``seed`` and ``id``."""
    info = _info(item["config"])
    index = int(str(item["id"]).rsplit("_", 1)[1])
    return generators.puzzle_for(info).build(info, int(item["seed"]), index)


def iter_items(
    config: str, seed: int = DEFAULT_SEED, n: int = DEFAULT_N, progress: bool = False
) -> Iterator[dict[str, Any]]:
    """Yield the ``n`` items of ``config``; every item is verified before it is yielded.

    No two items share a question. For types whose question space is small (``small_space``), an item
    that repeats an earlier question is redrawn from a seed derived from (config, seed, index, redraw
    number); for every other type a repeat is a bug and raises."""
    info = _info(config)
    _check_int("seed", seed, 0)
    _check_int("n", n, 1)
    puzzle = generators.puzzle_for(info)
    seen: dict[str, str] = {}
    indices: Iterable[int] = range(n)
    if progress:
        from tqdm.auto import tqdm

        indices = tqdm(indices, desc=info.name, unit="item", leave=False)
    for index in indices:
        item = puzzle.build(info, item_seed(info.pairing_key, seed, index), index)
        key = hashlib.sha256(item["question"].encode("utf-8")).hexdigest()
        redraw = 0
        while key in seen:
            if not puzzle.small_space or redraw >= 1000:
                raise RuntimeError(
                    f"{info.name} seed {seed}: items {seen[key]} and {item['id']} share a question"
                )
            redraw += 1
            item = puzzle.build(
                info, derive_seed("nolli-redraw", info.pairing_key, seed, index, redraw), index
            )
            key = hashlib.sha256(item["question"].encode("utf-8")).hexdigest()
        seen[key] = item["id"]
        yield item


def item_hash(item: dict[str, Any]) -> str:
    """sha256 of an item's canonical JSON (all contract fields, in contract order)."""
    return hashlib.sha256(dumps({k: item[k] for k in FIELDS}).encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------------
# datasets builder
# ---------------------------------------------------------------------------------------------
class NolliConfig(datasets.BuilderConfig):
    def __init__(
        self, nolli_config: str = "ko_jamo_easy", seed: int = DEFAULT_SEED, n: int = DEFAULT_N, **kw
    ):
        info = resolve(nolli_config)
        puzzle = generators.puzzle_for(info)
        version = puzzle.generator_version()
        kw.setdefault("name", f"{info.name}-seed{seed}-n{n}-v{version}")
        super().__init__(**kw)
        self.nolli_config = info.name
        self.seed = seed
        self.n = n
        self.generator_version = version


class Nolli(datasets.GeneratorBasedBuilder):
    """Builds one NOLLI config as a single ``test`` split. Used directly (no loading script)."""

    BUILDER_CONFIG_CLASS = NolliConfig
    VERSION = datasets.Version("1.0.0")

    def _info(self):
        return datasets.DatasetInfo(
            description="NOLLI: procedurally generated English-Korean logic puzzles.",
            features=FEATURES,
            license="MIT",
        )

    def _split_generators(self, dl_manager):
        return [datasets.SplitGenerator(name=datasets.Split.TEST)]

    def _generate_examples(self):
        cfg = self.config
        yield from enumerate(iter_items(cfg.nolli_config, cfg.seed, cfg.n, progress=True))


def _builder(config: str, seed: int, n: int, cache_dir: str | os.PathLike | None) -> Nolli:
    info = _info(config)
    _check_int("seed", seed, 0)
    _check_int("n", n, 1)
    version = generators.puzzle_for(info).generator_version()
    # The cache path includes the config name, seed, n and generator version (via the config name
    # and the hash), so items from changed code are never served from an old cache.
    digest = hashlib.sha256(f"{info.name}|{seed}|{n}|{version}".encode()).hexdigest()[:16]
    return Nolli(
        cache_dir=str(cache_dir) if cache_dir is not None else None,
        nolli_config=info.name,
        seed=seed,
        n=n,
        hash=digest,
    )


def load(
    config: str,
    seed: int = DEFAULT_SEED,
    n: int = DEFAULT_N,
    streaming: bool = False,
    cache_dir: str | os.PathLike | None = None,
) -> datasets.Dataset | datasets.IterableDataset:
    """``n`` verified items of ``config`` as a ``datasets.Dataset`` (``IterableDataset`` if streaming)."""
    builder = _builder(config, seed, n, cache_dir)
    if streaming:
        return builder.as_streaming_dataset(split="test")
    builder.download_and_prepare()
    return builder.as_dataset(split="test")


# ---------------------------------------------------------------------------------------------
# Verification and scoring
# ---------------------------------------------------------------------------------------------
def verify(item: dict[str, Any]) -> VerifyResult:
    """Independent verification of one item: truthy exactly when verified; ``reasons`` otherwise."""
    if not isinstance(item, dict):
        return VerifyResult(False, [f"an item is a dict, got {type(item).__name__}"])
    item_id = item.get("id")
    missing = [k for k in FIELDS if k not in item]
    if missing:
        return VerifyResult(False, [f"missing fields: {', '.join(missing)}"], item_id)
    try:
        info = resolve(str(item["config"]))
        puzzle = generators.puzzle_for(info)
    except (UnknownConfigError, NotImplementedConfigError) as exc:
        return VerifyResult(False, [str(exc)], item_id)
    reasons = []
    for key in ("task", "lang", "tier", "category"):
        if item[key] != getattr(info, key):
            reasons.append(f"{key} is {item[key]!r}, config {info.name} says {getattr(info, key)!r}")
    if reasons:
        return VerifyResult(False, reasons, item_id)
    return puzzle.verify(item)


def _puzzle_lang(config: str):
    info = _info(config)
    return generators.puzzle_for(info), info.lang


def extract_answer(config: str, response: Any, answer: str | None = None) -> str | None:
    """The answer found in ``response``, or None.

    Some formats need the gold to know what to look for (the number of spot-check digits, the SAT
    variable names); pass ``answer`` for those (``score`` always does)."""
    puzzle, lang = _puzzle_lang(config)
    return puzzle.extract_answer(response, answer if isinstance(answer, str) else "", lang)


def score(config: str, response: Any, answer: str) -> bool:
    """Whether a free-form ``response`` answers ``answer`` (deterministic; never raises on bad responses)."""
    puzzle, lang = _puzzle_lang(config)
    if not isinstance(answer, str) or not answer.strip():
        raise ValueError("answer must be a non-empty gold string")
    try:
        return puzzle.score(response, answer, lang)
    except RecursionError:
        return False


def list_configs() -> list[dict[str, Any]]:
    return [
        {
            "config": c.name,
            "task": c.task,
            "lang": c.lang,
            "tier": c.tier,
            "category": c.category,
            "implemented": generators.is_implemented(c.task),
        }
        for c in generators.all_configs()
    ]


# ---------------------------------------------------------------------------------------------
# File IO
# ---------------------------------------------------------------------------------------------
def write_items(items: Iterable[dict[str, Any]], out: str | os.PathLike) -> int:
    """Write items to ``.jsonl`` or ``.parquet`` atomically (a temporary file renamed at the end)."""
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in (".jsonl", ".parquet"):
        raise ValueError(f"output must end in .jsonl or .parquet, got {out.name!r}")
    if out.parent and not out.parent.exists():
        raise FileNotFoundError(f"output folder does not exist: {out.parent}")
    tmp = out.with_name(f".{out.name}.partial")
    count = 0
    try:
        if suffix == ".jsonl":
            with open(tmp, "w", encoding="utf-8") as fh:
                for item in items:
                    fh.write(json.dumps(item, ensure_ascii=False) + "\n")
                    count += 1
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            rows = list(items)
            count = len(rows)
            table = pa.Table.from_pylist(rows, schema=FEATURES.arrow_schema)
            pq.write_table(table, tmp)
        os.replace(tmp, out)
    finally:
        if tmp.exists():
            tmp.unlink()
    return count


def read_items(path: str | os.PathLike) -> Iterator[tuple[int, Any]]:
    """Yield (line or row number, item) from a ``.jsonl`` or ``.parquet`` file; bad JSON lines
    yield an exception object in place of the item."""
    path = Path(path)
    if path.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        for i, row in enumerate(pq.read_table(path).to_pylist(), start=1):
            yield i, row
        return
    with open(path, encoding="utf-8") as fh:
        for i, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                yield i, json.loads(line)
            except json.JSONDecodeError as exc:
                yield i, exc


# ---------------------------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------------------------
def _cmd_list(args) -> int:
    rows = list_configs()
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    done = sum(r["implemented"] for r in rows)
    print(f"{'config':34} {'category':20} implemented")
    for r in rows:
        print(f"{r['config']:34} {r['category']:20} {'yes' if r['implemented'] else 'no'}")
    print(f"\n{done} of {len(rows)} configs implemented")
    return 0


def _cmd_generate(args) -> int:
    info = resolve(args.config)
    generators.puzzle_for(info)
    count = write_items(iter_items(info.name, args.seed, args.n, progress=not args.quiet), args.out)
    print(f"wrote {count} verified items of {info.name} (seed {args.seed}) to {args.out}")
    return 0


def _cmd_verify(args) -> int:
    from tqdm.auto import tqdm

    path = Path(args.file)
    if not path.exists():
        raise FileNotFoundError(f"no such file: {path}")
    ok = bad = 0
    failures = []
    for line, item in tqdm(list(read_items(path)), desc="verify", unit="item", disable=args.quiet):
        if isinstance(item, Exception):
            result = VerifyResult(False, [f"line {line}: not JSON ({item})"])
        else:
            result = verify(item)
        if result:
            ok += 1
        else:
            bad += 1
            failures.append(f"  line {line}: {result}")
    for f in failures:
        print(f)
    print(f"{ok} verified, {bad} failed ({path})")
    return 0 if bad == 0 and ok > 0 else 1


def _cmd_score(args) -> int:
    response = args.response if args.response is not None else sys.stdin.read()
    found = extract_answer(args.config, response, args.answer)
    ok = score(args.config, response, args.answer)
    print(json.dumps({"extracted": found, "answer": args.answer, "correct": ok}, ensure_ascii=False))
    return 0


def _cmd_build(args) -> int:
    import release

    report = release.build(
        args.out,
        configs=args.configs,
        kobalt_source=args.kobalt_source,
        jobs=args.jobs,
        check=not args.no_check,
        progress=not args.quiet,
    )
    print(f"built {report['items']} verified NOLLI items in {report['configs']} configs -> {report['nolli']}")
    print(f"manifest: {report['manifest']}")
    for stage, seconds in report["stages"].items():
        print(f"  {stage:40} {seconds:7.1f} s")
    print(f"  {'total':40} {report['total_seconds']:7.1f} s")
    if report["kobalt"]:
        print(f"KoBALT -> {report['kobalt']}")
    else:
        print(
            "KoBALT not built: no source (offline and no --kobalt-source). Add it with "
            "`nolli build --out DIR --kobalt-source PATH` (a copy of snunlp/KoBALT-700: JSON, JSONL or Parquet) "
            "or set KOBALT_SOURCE."
        )
    return 0


def _cmd_release(args) -> int:
    import release

    if args.action == "freeze":
        configs = args.configs or [c.name for c in generators.implemented_configs()]
        items = release.generate_all(configs, jobs=args.jobs, progress=not args.quiet)
        path = release.SPLITS / "nolli.json"
        release._write_json_atomic(path, release.manifest_for(items))
        print(f"froze {sum(map(len, items.values()))} items of {len(items)} configs -> {path}")
        if args.kobalt_source:
            kpath = release.SPLITS / "kobalt.json"
            release._write_json_atomic(kpath, release.kobalt_manifest(args.kobalt_source))
            print(f"froze KoBALT row ids -> {kpath}")
        return 0
    if args.action == "check":
        manifest = release.load_manifest()
        configs = args.configs or list(manifest["configs"])
        items = release.generate_all(configs, jobs=args.jobs, progress=not args.quiet)
        problems = release.compare(manifest, items)
        for p in problems:
            print(f"  {p}")
        n = sum(map(len, items.values()))
        print(
            f"{n} items in {len(items)} configs regenerated: {len(problems)} differences from splits/nolli.json"
        )
        if args.kobalt_source:
            import kobalt

            want = json.loads((release.SPLITS / "kobalt.json").read_text(encoding="utf-8"))
            got = release.kobalt_manifest(args.kobalt_source)
            kdiff = [c for c in want["configs"] if want["configs"][c] != got["configs"].get(c)]
            if want["source_sha256"] != got["source_sha256"]:
                print(
                    f"  KoBALT source sha256 differs ({got['source_sha256'][:12]} != {want['source_sha256'][:12]})"
                )
            for c in kdiff:
                print(f"  KoBALT config {c}: row ids differ")
            problems += kdiff
            del kobalt
        return 1 if problems else 0
    if args.action == "push":
        release.push(args.dir, args.repo_id, revision=args.revision, tag=args.tag, dry_run=args.dry_run)
        return 0
    raise ValueError(f"unknown release action {args.action!r}")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="nolli", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser(
        "evaluate",
        help="score a predictions file and report accuracy (nolli evaluate --help)",
        add_help=False,
    )
    s = sub.add_parser("list", help="list the 75 configs and which are implemented")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_cmd_list)
    s = sub.add_parser("generate", help="generate and verify a config into .jsonl or .parquet")
    s.add_argument("--config", required=True)
    s.add_argument("--seed", type=int, default=DEFAULT_SEED)
    s.add_argument("--n", type=int, default=DEFAULT_N)
    s.add_argument("--out", required=True)
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=_cmd_generate)
    s = sub.add_parser("verify", help="re-check every item of a .jsonl or .parquet file")
    s.add_argument("file")
    s.add_argument("--quiet", action="store_true")
    s.set_defaults(func=_cmd_verify)
    s = sub.add_parser("score", help="score one response (stdin or --response) against a gold answer")
    s.add_argument("--config", required=True)
    s.add_argument("--answer", required=True)
    s.add_argument("--response")
    s.set_defaults(func=_cmd_score)
    s = sub.add_parser(
        "build", help="build and check the release folders (NOLLI, and KoBALT when a source is given)"
    )
    s.add_argument("--out", default="release")
    s.add_argument("--configs", nargs="*", help="only these NOLLI configs (default: every implemented one)")
    s.add_argument("--kobalt-source", help="local copy of snunlp/KoBALT-700 (JSON, JSONL or Parquet)")
    s.add_argument("--jobs", type=int, default=2)
    s.add_argument("--no-check", action="store_true", help="skip the datasets load/streaming checks")
    s.add_argument("--quiet", action="store_true")
    s.set_defaults(func=_cmd_build)
    s = sub.add_parser(
        "release", help="freeze / check the manifest in splits/, push a built folder to the Hub"
    )
    rs = s.add_subparsers(dest="action", required=True)
    for action, help_ in (
        ("freeze", "write splits/nolli.json"),
        ("check", "regenerate and compare with splits/"),
    ):
        r = rs.add_parser(action, help=help_)
        r.add_argument("--configs", nargs="*")
        r.add_argument("--kobalt-source")
        r.add_argument("--jobs", type=int, default=2)
        r.add_argument("--quiet", action="store_true")
        r.set_defaults(func=_cmd_release)
    r = rs.add_parser("push", help="one commit with every file of a built folder, then a tag")
    r.add_argument("--dir", default="release/nolli")
    r.add_argument("--repo-id", required=True)
    r.add_argument("--revision")
    r.add_argument("--tag")
    r.add_argument("--dry-run", action="store_true")
    r.set_defaults(func=_cmd_release)
    return p


def _release_error():
    import release

    return release.ReleaseError


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "evaluate":
        import evaluation

        return evaluation.nolli_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (
        UnknownConfigError,
        NotImplementedConfigError,
        ValueError,
        TypeError,
        OSError,
        _release_error(),
    ) as exc:
        print(f"nolli: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
