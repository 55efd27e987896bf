"""The Hub release: frozen manifest (``splits/``), Parquet configs, generated dataset cards, checks, push.

    nolli build   --out release [--kobalt-source PATH] [--jobs 2]   # build + check everything
    nolli release freeze                                            # write splits/nolli.json (and kobalt.json)
    nolli release check                                             # regenerate and compare with splits/
    nolli release push --dir release/nolli --repo-id ORG/NAME [--revision B] [--tag vX] [--dry-run]

Layout of a built benchmark folder (what goes to the Hub)::

    README.md                                   # dataset card with YAML `configs:` and `dataset_info`
    data/<config>/test-00000-of-00001.parquet   # one file per NOLLI task-tier config / KoBALT config

NOLLI aggregates (`all`, and `{lang}_{task}` over the three tiers) point at the tier files, so no row is
stored twice. Metadata columns are plain strings (JSON text), never the `Json()` feature type.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import generators
import nolli

ROOT = Path(__file__).resolve().parent
SPLITS = ROOT / "splits"
CARDS = ROOT / "dataset_card"
PARQUET_NAME = "test-00000-of-00001.parquet"
MANIFEST_FORMAT = 1


class ReleaseError(RuntimeError):
    """A release step failed; the message says what and where."""


# ---------------------------------------------------------------------------------------------
# Manifest
# ---------------------------------------------------------------------------------------------
def _generate_config(args: tuple[str, int, int]) -> tuple[str, list[dict[str, Any]]]:
    config, seed, n = args
    return config, list(nolli.iter_items(config, seed, n))


def generate_all(
    configs: Iterable[str], seed: int = 0, n: int = 100, jobs: int = 2, progress: bool = True
) -> dict[str, list[dict[str, Any]]]:
    """Generate (and verify) every config, on ``jobs`` processes; returns config -> items, in order."""
    configs = list(configs)
    tasks = [(c, seed, n) for c in configs]
    out: dict[str, list[dict[str, Any]]] = {}
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(tasks), desc="generate+verify", unit="config")
    if jobs > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for config, items in pool.map(_generate_config, tasks):
                out[config] = items
                if bar:
                    bar.update()
    else:
        for task in tasks:
            config, items = _generate_config(task)
            out[config] = items
            if bar:
                bar.update()
    if bar:
        bar.close()
    return {c: out[c] for c in configs}


def manifest_for(items_by_config: dict[str, list[dict[str, Any]]], seed: int = 0) -> dict[str, Any]:
    configs = {}
    for config, items in items_by_config.items():
        versions = sorted({it["generator_version"] for it in items})
        configs[config] = {
            "seed": seed,
            "n": len(items),
            "generator_version": versions[0] if len(versions) == 1 else versions,
            "sha256": {it["id"]: nolli.item_hash(it) for it in items},
        }
    return {"format": MANIFEST_FORMAT, "benchmark": "nolli", "configs": configs}


def _write_json_atomic(path: Path, obj: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.partial")
    tmp.write_text(json.dumps(obj, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def load_manifest(path: Path | None = None) -> dict[str, Any]:
    path = path or SPLITS / "nolli.json"
    if not path.exists():
        raise ReleaseError(f"no release manifest at {path}; run `nolli release freeze` first")
    return json.loads(path.read_text(encoding="utf-8"))


def compare(manifest: dict[str, Any], items_by_config: dict[str, list[dict[str, Any]]]) -> list[str]:
    """Every difference between a manifest and regenerated items, one line each (empty = identical)."""
    problems = []
    frozen = manifest.get("configs", {})
    for config, items in items_by_config.items():
        entry = frozen.get(config)
        if entry is None:
            problems.append(f"{config}: not in the manifest")
            continue
        want = entry["sha256"]
        got = {it["id"]: nolli.item_hash(it) for it in items}
        for item_id in want:
            if item_id not in got:
                problems.append(f"{item_id}: missing from the regenerated config")
            elif got[item_id] != want[item_id]:
                problems.append(
                    f"{item_id}: content differs (sha256 {got[item_id][:12]} != {want[item_id][:12]})"
                )
        for item_id in got:
            if item_id not in want:
                problems.append(f"{item_id}: not in the manifest")
    return problems


def kobalt_manifest(source: str | os.PathLike) -> dict[str, Any]:
    import kobalt

    return {
        "format": MANIFEST_FORMAT,
        "benchmark": "kobalt",
        "source_sha256": kobalt.source_sha256(source),
        "configs": {c: [r["id"] for r in kobalt.rows(c, source)] for c in kobalt.CONFIGS},
    }


# ---------------------------------------------------------------------------------------------
# Parquet and cards
# ---------------------------------------------------------------------------------------------
def write_parquet(rows: list[dict[str, Any]], features, path: Path) -> int:
    """Write rows as Parquet; returns the in-memory (Arrow) size in bytes, as `dataset_info` reports it."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pylist(rows, schema=features.arrow_schema)
    # Fixed options and no per-run metadata: building twice gives identical bytes.
    pq.write_table(
        table, path, compression="zstd", compression_level=9, use_dictionary=True, write_statistics=True
    )
    return table.nbytes


def _features_yaml(features) -> list[dict[str, Any]]:
    out = []
    for entry in features._to_yaml_list():
        if "list" in entry:  # older `datasets` read `sequence:`; newer read both
            entry = {"name": entry["name"], "sequence": entry["list"]}
        out.append(entry)
    return out


def _yaml(obj: Any, indent: int = 0) -> str:
    """A small, deterministic YAML emitter for the card header (dicts, lists, scalars)."""
    pad = "  " * indent
    lines = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, (dict, list)) and v:
                lines.append(f"{pad}{k}:")
                lines.append(_yaml(v, indent + 1))
            else:
                lines.append(f"{pad}{k}: {_scalar(v)}")
    elif isinstance(obj, list):
        for v in obj:
            if isinstance(v, dict) and v:
                first, *rest = _yaml(v, indent + 1).split("\n")
                lines.append(f"{pad}- {first.strip()}")
                lines.extend(rest)
            else:
                lines.append(f"{pad}- {_scalar(v)}")
    return "\n".join(lines)


def _scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if v is None:
        return "null"
    if isinstance(v, (list, dict)):
        return "[]" if isinstance(v, list) else "{}"
    s = str(v)
    if (
        s == ""
        or any(ch in s for ch in ":#{}[],&*!|>'\"%@`")
        or s.strip() != s
        or s.lower() in ("yes", "no", "true", "false", "null")
    ):
        return json.dumps(s, ensure_ascii=False)
    return s


def render_card(template: str, header: dict[str, Any], values: dict[str, str]) -> str:
    body = (CARDS / template).read_text(encoding="utf-8")
    for key, value in values.items():
        body = body.replace("{{" + key + "}}", value)
    if "{{" in body:
        raise ReleaseError(f"unfilled placeholder in {template}: {body[body.index('{{') :][:40]}")
    return "---\n" + _yaml(header) + "\n---\n\n" + body


def _size_category(n: int) -> str:
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K")):
        if n < limit:
            return name
    return "100K<n<1M"


def _reference_accuracy() -> dict[str, dict[str, str]]:
    data = json.loads((CARDS / "reference_accuracy.json").read_text(encoding="utf-8"))
    return data


def build_nolli_folder(out: Path, items_by_config: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Write Parquet files and README.md for NOLLI into ``out``; returns the card header."""
    configs_yaml = []
    infos = []
    features_yaml = _features_yaml(nolli.FEATURES)
    total = 0
    files_by_task: dict[str, list[str]] = {}
    nbytes: dict[str, int] = {}
    for config, items in items_by_config.items():
        rel = f"data/{config}/{PARQUET_NAME}"
        nbytes[config] = write_parquet(items, nolli.FEATURES, out / rel)
        info = generators.resolve(config)
        files_by_task.setdefault(f"{info.lang}_{info.task}", []).append(rel)
        total += len(items)
    all_files = [f"data/{c}/{PARQUET_NAME}" for c in items_by_config]
    counts = {c: len(v) for c, v in items_by_config.items()}

    def add(name: str, files: list[str], default: bool = False) -> None:
        members = [f.split("/")[1] for f in files]
        entry: dict[str, Any] = {"config_name": name, "data_files": [{"split": "test", "path": files}]}
        if default:
            entry["default"] = True
        configs_yaml.append(entry)
        infos.append(
            _info_entry(name, features_yaml, sum(counts[m] for m in members), sum(nbytes[m] for m in members))
        )

    add("all", all_files, default=True)
    for files in files_by_task.values():
        add(_task_of(files[0]), files)
    for config in items_by_config:
        add(config, [f"data/{config}/{PARQUET_NAME}"])
    header = {
        "license": "mit",
        "language": ["en", "ko"],
        "task_categories": ["question-answering", "text-generation"],
        "size_categories": [_size_category(total)],
        "pretty_name": "NOLLI",
        "tags": ["puzzles", "reasoning", "korean", "procedurally-generated", "benchmark"],
        "configs": configs_yaml,
        "dataset_info": infos,
    }
    acc = _reference_accuracy()
    table = ["| config | category | items | reference-model accuracy |", "|---|---|---:|---:|"]
    for config, n in counts.items():
        info = generators.resolve(config)
        ref = acc.get(f"{info.lang}_{info.task}", {}).get(info.tier, "")
        table.append(f"| `{config}` | {info.category} | {n} | {ref} |")
    values = {
        "TOTAL": str(total),
        "N_CONFIGS": str(len(counts)),
        "CONFIG_TABLE": "\n".join(table),
        "GENERATOR_VERSIONS": ", ".join(
            sorted({f"`{items[0]['generator_version']}`" for items in items_by_config.values() if items})
        ),
    }
    (out / "README.md").write_text(render_card("nolli.md", header, values), encoding="utf-8")
    return header


def _task_of(rel: str) -> str:
    info = generators.resolve(rel.split("/")[1])
    return f"{info.lang}_{info.task}"


def _info_entry(name: str, features_yaml: list, n: int, nbytes: int) -> dict[str, Any]:
    return {
        "config_name": name,
        "features": features_yaml,
        "splits": [{"name": "test", "num_bytes": nbytes, "num_examples": n}],
        "dataset_size": nbytes,
    }


def build_kobalt_folder(out: Path, source: str | os.PathLike) -> dict[str, Any]:
    import kobalt

    configs_yaml, infos = [], []
    features_yaml = _features_yaml(kobalt.FEATURES)
    counts = {}
    for config in kobalt.CONFIGS:
        rows = kobalt.rows(config, source)
        rel = f"data/{config}/{PARQUET_NAME}"
        size = write_parquet(rows, kobalt.FEATURES, out / rel)
        counts[config] = len(rows)
        entry: dict[str, Any] = {"config_name": config, "data_files": [{"split": "test", "path": [rel]}]}
        if config == "all":
            entry["default"] = True
        configs_yaml.append(entry)
        infos.append(_info_entry(config, features_yaml, len(rows), size))
    header = {
        "license": "cc-by-nc-4.0",
        "language": ["ko"],
        "task_categories": ["multiple-choice", "question-answering"],
        "size_categories": [_size_category(counts["all"])],
        "pretty_name": "KoBALT-700",
        "tags": ["linguistics", "korean", "benchmark"],
        "configs": configs_yaml,
        "dataset_info": infos,
    }
    table = ["| config | questions |", "|---|---:|"] + [f"| `{c}` | {n} |" for c, n in counts.items()]
    values = {"TOTAL": str(counts["all"]), "N_CONFIGS": str(len(counts)), "CONFIG_TABLE": "\n".join(table)}
    (out / "README.md").write_text(render_card("kobalt.md", header, values), encoding="utf-8")
    return header


# ---------------------------------------------------------------------------------------------
# Checks on a built folder
# ---------------------------------------------------------------------------------------------
def read_card_header(folder: Path) -> dict[str, Any]:
    import yaml

    text = (folder / "README.md").read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        raise ReleaseError(f"{folder}/README.md has no YAML header")
    return yaml.safe_load(text.split("---\n", 2)[1])


def _check_entry(task: tuple) -> list[str]:
    """Check one config of a built folder; returns its problems."""
    import datasets
    import pyarrow.parquet as pq

    folder_s, entry, info, expected, hashes, cache = task
    folder = Path(folder_s)
    datasets.disable_progress_bars()
    datasets.logging.set_verbosity_error()
    name = entry["config_name"]
    if info is None:
        return [f"{name}: no dataset_info entry"]
    problems = []
    declared = datasets.Features._from_yaml_list(info["features"])
    for rel in entry["data_files"][0]["path"]:
        actual = datasets.Features.from_arrow_schema(pq.read_schema(folder / rel))
        if actual != declared:
            problems.append(f"{name}: {rel} schema {actual} != declared {declared}")
    try:
        ds = datasets.load_dataset(str(folder), name, split="test", cache_dir=cache)
        first = next(iter(datasets.load_dataset(str(folder), name, split="test", streaming=True)))
    except Exception as exc:  # noqa: BLE001 - report any loader failure by config
        return problems + [f"{name}: does not load ({type(exc).__name__}: {exc})"]
    want = info["splits"][0]["num_examples"]
    if ds.num_rows != want:
        problems.append(f"{name}: {ds.num_rows} rows, card says {want}")
    if expected is not None and ds.num_rows != expected:
        problems.append(f"{name}: {ds.num_rows} rows, manifest says {expected}")
    if ds.features != declared:
        problems.append(f"{name}: loaded features differ from the card")
    if first != ds[0]:
        problems.append(f"{name}: streaming and normal loading disagree on the first row")
    if hashes is not None:
        # The rows read back are exactly the verified items (and the manifest's, when frozen).
        got = {row["id"]: nolli.item_hash(row) for row in ds}
        if got != hashes:
            bad = sorted(k for k in set(got) | set(hashes) if got.get(k) != hashes.get(k))
            problems.append(f"{name}: {len(bad)} rows differ from the verified items ({', '.join(bad[:5])})")
    return problems


def check_folder(
    folder: Path,
    expected_counts: dict[str, int] | None = None,
    progress: bool = True,
    jobs: int = 1,
    item_hashes: dict[str, dict[str, str]] | None = None,
) -> list[str]:
    """Load every config of a built folder with plain `datasets` (normally and streaming), compare the
    declared features with each Parquet schema and the row counts with the card (and ``expected_counts``);
    with ``item_hashes`` (config -> id -> sha256), check that every row read back is byte-identical to the
    verified item it was written from. Returns the problems (empty = ok)."""
    header = read_card_header(folder)
    problems = []
    infos = {i["config_name"]: i for i in header.get("dataset_info", [])}
    entries = header.get("configs", [])
    defaults = [e["config_name"] for e in entries if e.get("default")]
    if len(defaults) != 1:
        problems.append(f"expected exactly one default config, found {defaults}")
    with tempfile.TemporaryDirectory() as cache:
        tasks = []
        for entry in entries:
            name = entry["config_name"]
            expected = (expected_counts or {}).get(name)
            hashes = (item_hashes or {}).get(name)
            tasks.append((str(folder), entry, infos.get(name), expected, hashes, cache))
        bar = None
        if progress:
            from tqdm.auto import tqdm

            name = folder.name.split(".")[1] if folder.name.startswith(".") else folder.name
            bar = tqdm(total=len(tasks), desc=f"check {name}", unit="config")
        if jobs > 1 and len(tasks) > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for found in pool.map(_check_entry, tasks):
                    problems += found
                    if bar:
                        bar.update()
        else:
            for task in tasks:
                problems += _check_entry(task)
                if bar:
                    bar.update()
        if bar:
            bar.close()
    return problems


# ---------------------------------------------------------------------------------------------
# Build (atomic) and push
# ---------------------------------------------------------------------------------------------
def _atomic_folder(out: Path, name: str, fill: Callable[[Path], None]) -> Path:
    """Fill a temporary sibling folder and move it into place only when ``fill`` succeeds."""
    out.mkdir(parents=True, exist_ok=True)
    if not os.access(out, os.W_OK):
        raise ReleaseError(f"output folder is not writable: {out}")
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=out))
    try:
        fill(tmp)
        final = out / name
        if final.exists():
            old = out / f".{name}.old"
            if old.exists():
                shutil.rmtree(old)
            os.replace(final, old)
            os.replace(tmp, final)
            shutil.rmtree(old)
        else:
            os.replace(tmp, final)
        return final
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def build(
    out: str | os.PathLike,
    configs: list[str] | None = None,
    kobalt_source: str | os.PathLike | None = None,
    jobs: int = 2,
    check: bool = True,
    manifest: Path | None = None,
    progress: bool = True,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Build ``out/nolli`` (and ``out/kobalt`` when a KoBALT source is available), with every check.

    Returns a report with the time per stage. Nothing is left half-written: each folder is built in a
    temporary directory and moved into place only after its checks pass."""
    import time

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ReleaseError(f"output path exists and is not a folder: {out}")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReleaseError(f"cannot create output folder {out}: {exc}") from exc
    if not os.access(out, os.W_OK):
        raise ReleaseError(f"output folder is not writable: {out}")
    names = (
        [generators.resolve(c).name for c in configs]
        if configs
        else [c.name for c in generators.implemented_configs()]
    )
    for name in names:
        generators.puzzle_for(generators.resolve(name))
    kobalt_src = _kobalt_source(kobalt_source)
    report: dict[str, Any] = {"configs": len(names), "stages": {}}

    t0 = time.perf_counter()
    items = generate_all(names, jobs=jobs, progress=progress)
    report["stages"]["generate+verify"] = time.perf_counter() - t0
    report["items"] = sum(len(v) for v in items.values())

    frozen_path = manifest or SPLITS / "nolli.json"
    expected = {c: len(v) for c, v in items.items()}
    if frozen_path.exists():
        problems = compare(load_manifest(frozen_path), {c: v for c, v in items.items()})
        frozen = load_manifest(frozen_path)["configs"]
        problems = [p for p in problems if not p.endswith("not in the manifest") or p.split(":")[0] in frozen]
        if problems:
            raise ReleaseError(
                "regenerated items differ from splits/nolli.json:\n  " + "\n  ".join(problems[:50])
            )
        report["manifest"] = f"{sum(c in frozen for c in names)} configs identical to {frozen_path.name}"
        expected.update({c: frozen[c]["n"] for c in names if c in frozen})
    else:
        report["manifest"] = "no manifest frozen yet"

    def fill_nolli(tmp: Path) -> None:
        t = time.perf_counter()
        build_nolli_folder(tmp, items)
        report["stages"]["write"] = time.perf_counter() - t
        if check:
            t = time.perf_counter()
            hashes = {c: {it["id"]: nolli.item_hash(it) for it in v} for c, v in items.items()}
            problems = check_folder(tmp, expected, progress=progress, jobs=jobs, item_hashes=hashes)
            report["stages"]["check (load, stream, schema, counts, hashes)"] = time.perf_counter() - t
            if problems:
                raise ReleaseError("release checks failed:\n  " + "\n  ".join(problems[:50]))

    report["nolli"] = str(_atomic_folder(out, "nolli", fill_nolli))
    if kobalt_src is not None:

        def fill_kobalt(tmp: Path) -> None:
            t = time.perf_counter()
            build_kobalt_folder(tmp, kobalt_src)
            if check:
                problems = check_folder(tmp, progress=progress, jobs=jobs)
                if problems:
                    raise ReleaseError("KoBALT release checks failed:\n  " + "\n  ".join(problems[:50]))
            report["stages"]["kobalt"] = time.perf_counter() - t

        report["kobalt"] = str(_atomic_folder(out, "kobalt", fill_kobalt))
    else:
        report["kobalt"] = None
    report["total_seconds"] = sum(report["stages"].values())
    return report


def _kobalt_source(source):
    """The KoBALT source file to build from: ``source``, else $KOBALT_SOURCE, else the Hub dataset;
    None when none is available (NOLLI is then built alone)."""
    import kobalt

    if source is not None:
        if not Path(source).exists():
            raise ReleaseError(f"KoBALT source not found: {source}")
        return source
    try:
        return kobalt.resolve_source(None)
    except kobalt.SourceError:
        return None


def plan_push(folder: str | os.PathLike) -> list[dict[str, Any]]:
    folder = Path(folder)
    if not (folder / "README.md").exists():
        raise ReleaseError(f"{folder} is not a built release folder (no README.md); run `nolli build` first")
    ops = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        ops.append(
            {
                "path_in_repo": path.relative_to(folder).as_posix(),
                "local_path": str(path),
                "size": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
            }
        )
    return ops


def push(
    folder: str | os.PathLike,
    repo_id: str,
    revision: str | None = None,
    tag: str | None = None,
    dry_run: bool = False,
    token: str | None = None,
    log: Callable[[str], None] = print,
) -> list[dict[str, Any]]:
    """One ``create_commit`` with every file of ``folder``, then an optional tag.

    ``dry_run`` prints the plan (path, size, sha256) and touches no network."""
    if not repo_id or repo_id.count("/") != 1:
        raise ReleaseError(f"--repo-id must look like ORG/NAME, got {repo_id!r}")
    ops = plan_push(folder)
    read_card_header(Path(folder))
    for op in ops:
        log(f"add {op['path_in_repo']}  {op['size']} bytes  sha256:{op['sha256']}")
    log(
        f"{len(ops)} files, {sum(o['size'] for o in ops)} bytes -> datasets/{repo_id}"
        f"@{revision or 'main'}{f' tag {tag}' if tag else ''} in one commit"
    )
    if dry_run:
        return ops
    from huggingface_hub import CommitOperationAdd, HfApi
    from huggingface_hub.utils import get_token

    token = token or os.environ.get("HF_TOKEN") or get_token()
    if not token:
        raise ReleaseError(
            "no Hugging Face token: set HF_TOKEN or run `huggingface-cli login`; nothing was pushed"
        )
    api = HfApi(token=token)
    try:
        api.create_repo(repo_id, repo_type="dataset", exist_ok=True)
        if revision:
            api.create_branch(repo_id, branch=revision, repo_type="dataset", exist_ok=True)
        operations = [
            CommitOperationAdd(path_in_repo=o["path_in_repo"], path_or_fileobj=o["local_path"]) for o in ops
        ]
        info = api.create_commit(
            repo_id,
            operations=operations,
            commit_message=f"Release {tag or ''}".strip(),
            repo_type="dataset",
            revision=revision,
        )
    except Exception as exc:  # noqa: BLE001 - one commit: nothing was published if it failed
        raise ReleaseError(f"push failed, nothing was published ({type(exc).__name__}: {exc})") from exc
    if tag:
        try:
            api.create_tag(repo_id, tag=tag, revision=info.oid, repo_type="dataset")
        except Exception as exc:  # noqa: BLE001
            raise ReleaseError(
                f"files are committed as {info.oid} but tagging {tag!r} failed ({exc}); "
                f"re-run the tag step: huggingface_hub.HfApi().create_tag({repo_id!r}, tag={tag!r}, revision={info.oid!r}, repo_type='dataset')"
            ) from exc
    log(f"pushed {info.commit_url}")
    return ops
