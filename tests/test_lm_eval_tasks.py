"""The lm-evaluation-harness tasks under lm_eval_tasks/: committed files equal a fresh generation, and
lm-eval's own task loader accepts them offline (a local dataset folder laid out like the Hub release
stands in for the Hub), with scoring that agrees with ``nolli.score`` / ``kobalt.score`` on the
committed prediction fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import evaluation

ROOT = Path(__file__).resolve().parents[1]
TASKS = ROOT / "lm_eval_tasks"
FIXTURES = ROOT / "tests" / "fixtures"
KOBALT_SOURCE = Path(__file__).resolve().parents[1].parent / "shared" / "kobalt" / "kobalt-700.ko-labels.json"


def _on_disk(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_committed_tasks_equal_a_fresh_generation():
    fresh = evaluation.lm_eval_task_files()
    assert _on_disk(TASKS) == fresh, "run `python evaluation.py lm-eval-tasks` and commit lm_eval_tasks/"


def test_generator_parameters_and_stale_files(tmp_path):
    evaluation.write_lm_eval_tasks(
        tmp_path, nolli_dataset="me/nolli-mirror", kobalt_dataset="me/kobalt-mirror"
    )
    assert 'dataset_path: "me/nolli-mirror"' in (tmp_path / "nolli" / "_nolli_template_yaml").read_text(
        encoding="utf-8"
    )
    assert 'dataset_path: "me/kobalt-mirror"' in (tmp_path / "kobalt" / "_kobalt_template_yaml").read_text(
        encoding="utf-8"
    )
    stale = tmp_path / "nolli" / "nolli_old_task.yaml"
    stale.write_text("task: old\n", encoding="utf-8")
    evaluation.write_lm_eval_tasks(tmp_path)
    assert not stale.exists()
    assert _on_disk(tmp_path) == evaluation.lm_eval_task_files()


def test_one_task_per_config_with_the_right_dataset_name():
    import generators
    import kobalt

    files = evaluation.lm_eval_task_files()
    for info in generators.all_configs():
        text = files[f"nolli/nolli_{info.name}.yaml"]
        assert f"task: nolli_{info.name}\n" in text and f"dataset_name: {info.name}\n" in text
    for config in kobalt.CONFIGS:
        text = files[f"kobalt/kobalt_{config}.yaml"]
        assert f"task: kobalt_{config}\n" in text and f"dataset_name: {config}\n" in text
    assert sum(1 for f in files if f.startswith("nolli/nolli_")) == 75
    assert sum(1 for f in files if f.startswith("kobalt/kobalt_")) == 33


# ---------------------------------------------------------------------------------------------
# lm-eval's loader (offline)
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def manager():
    pytest.importorskip("lm_eval")
    from lm_eval.tasks import TaskManager

    return TaskManager(include_path=str(TASKS), include_defaults=False)


def _local_dataset(root: Path, configs: dict[str, str]) -> Path:
    """A dataset folder laid out like the Hub release: README `configs:` + data/<config>/test-...parquet."""
    card = ["---", "configs:"]
    for config in configs:
        card += [
            f"- config_name: {config}",
            "  data_files:",
            "  - split: test",
            f"    path: data/{config}/{evaluation.PARQUET_NAME}",
        ]
    card.append("---")
    (root / "README.md").write_text("\n".join(card) + "\n", encoding="utf-8")
    return root


def _build(manager, name: str, root: Path):
    overrides = {"dataset_path": str(root), "dataset_kwargs": {"cache_dir": str(root / ".cache")}}
    return manager._factory.build(manager.task_index[name], overrides=overrides, registry=manager.task_index)


def _fixture(name: str) -> list[dict]:
    out = []
    for line in (FIXTURES / name).read_text(encoding="utf-8").split("\n"):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict) and isinstance(obj.get("id"), str) and "response" in obj:
            out.append(obj)
    return out


def test_lm_eval_indexes_every_task_and_group(manager):
    import generators
    import kobalt

    tasks = {f"nolli_{c.name}" for c in generators.all_configs()} | {f"kobalt_{c}" for c in kobalt.CONFIGS}
    assert set(manager.all_subtasks) == tasks
    groups = {
        "nolli",
        "nolli_easy",
        "nolli_medium",
        "nolli_hard",
        "kobalt",
        "kobalt_phenomena",
        "kobalt_levels",
    }
    groups |= {f"nolli_{c.lang}_{c.task}" for c in generators.all_configs()}
    groups |= {f"kobalt_{d.config}_phenomena" for d in kobalt.DOMAINS}
    assert set(manager.all_groups) == groups and len(groups) == 25 + 3 + 1 + 3 + 5
    assert set(manager.all_tags) == {
        "nolli_direct_translation",
        "nolli_script_adaptation",
        "nolli_korean_only",
    }


def test_group_configs():
    pytest.importorskip("lm_eval")
    from lm_eval.tasks._yaml_loader import load_yaml

    nolli_group = load_yaml(TASKS / "nolli" / "_nolli.yaml", resolve_func=False)
    assert (
        len(nolli_group["task"]) == 25 and nolli_group["aggregate_metric_list"][0]["weight_by_size"] is False
    )
    tier = load_yaml(TASKS / "nolli" / "_nolli_hard.yaml", resolve_func=False)
    assert len(tier["task"]) == 25 and all(t.endswith("_hard") for t in tier["task"])
    kob = load_yaml(TASKS / "kobalt" / "_kobalt.yaml", resolve_func=False)
    assert kob["task"] == [
        "kobalt_syntax",
        "kobalt_semantics",
        "kobalt_pragmatics",
        "kobalt_morphology",
        "kobalt_phonology",
    ]
    assert kob["aggregate_metric_list"][0]["weight_by_size"] is True


def test_nolli_tasks_load_offline_and_score_like_nolli(manager, tmp_path):
    import nolli

    items = {
        "ko_jamo_easy": list(nolli.iter_items("ko_jamo_easy", 0, 12)),
        "en_sudoku_easy": list(nolli.iter_items("en_sudoku_easy", 0, 20)),
    }
    for config, rows in items.items():
        (tmp_path / "data" / config).mkdir(parents=True)
        nolli.write_items(rows, tmp_path / "data" / config / evaluation.PARQUET_NAME)
    root = _local_dataset(tmp_path, {c: c for c in items})
    responses = {p["id"]: p for p in _fixture("predictions_nolli.jsonl") if p.get("model") == "fixture-model"}
    checked = 0
    for config, rows in items.items():
        task = _build(manager, f"nolli_{config}", root)
        docs = list(task.test_docs())
        assert [d["id"] for d in docs] == [r["id"] for r in rows]
        gen = task.config.generation_kwargs
        assert task.OUTPUT_TYPE == "generate_until" and gen["until"] == [] and gen["do_sample"] is False
        for doc in docs:
            assert task.doc_to_text(doc) == doc["question"]
            assert task.doc_to_target(doc) == doc["answer"]
            assert task.fewshot_context(doc, 0) == doc["question"]
            for response in (
                doc["answer"],
                "no idea",
                "",
                responses.get(doc["id"], {}).get("response") or "",
            ):
                got = task.process_results(doc, [response])
                assert got == {"exact_match": float(nolli.score(config, response, doc["answer"]))}
                checked += 1
        agg = task.aggregation()["exact_match"]
        assert agg([1.0, 0.0, 1.0, 1.0]) == pytest.approx(0.75)
    assert checked == 4 * 32
    # the fixture's correct answers are recognised through the task, wrong ones are not
    task = _build(manager, "nolli_en_sudoku_easy", root)
    docs = {d["id"]: d for d in task.test_docs()}
    hits = [
        task.process_results(docs[i], [responses[i]["response"] or ""])["exact_match"] for i in sorted(docs)
    ]
    assert sum(hits) == 16  # en_sudoku_easy: items 0-15 correct, 16-19 wrong in the fixture


def test_nolli_group_builds_with_its_tiers(manager, tmp_path):
    import nolli

    for tier in ("easy", "medium", "hard"):
        config = f"ko_jamo_{tier}"
        (tmp_path / "data" / config).mkdir(parents=True)
        nolli.write_items(
            list(nolli.iter_items(config, 0, 3)), tmp_path / "data" / config / evaluation.PARQUET_NAME
        )
    root = _local_dataset(tmp_path, {f"ko_jamo_{t}": "" for t in ("easy", "medium", "hard")})
    group = _build(manager, "nolli_ko_jamo", root)
    assert sorted(t.task_name for t in group.get_all_tasks()) == [
        "nolli_ko_jamo_easy",
        "nolli_ko_jamo_hard",
        "nolli_ko_jamo_medium",
    ]
    for task in group.get_all_tasks():
        assert len(list(task.test_docs())) == 3


@pytest.mark.skipif(not KOBALT_SOURCE.exists(), reason="KoBALT source copy not available")
def test_kobalt_task_loads_offline_and_scores_like_kobalt(manager, tmp_path):
    import kobalt

    rows = kobalt.rows("syntax", KOBALT_SOURCE)
    (tmp_path / "data" / "syntax").mkdir(parents=True)
    kobalt.write_rows(rows, tmp_path / "data" / "syntax" / evaluation.PARQUET_NAME)
    root = _local_dataset(tmp_path, {"syntax": ""})
    task = _build(manager, "kobalt_syntax", root)
    docs = list(task.test_docs())
    assert len(docs) == 300 and [d["id"] for d in docs] == [r["id"] for r in rows]
    assert task.config.generation_kwargs["max_gen_toks"] == kobalt.GENERATION_KWARGS["max_new_tokens"] == 2048
    assert task.config.generation_kwargs["do_sample"] is False
    by_id = {d["id"]: d for d in docs}
    doc = docs[0]
    system, user = kobalt.prompt(doc)
    assert task.doc_to_text(doc) == user["content"]
    assert task.fewshot_context(doc, 0) == system["content"] + "\n\n" + user["content"]
    assert "정답은 X입니다." in task.doc_to_text(doc)
    responses = [p for p in _fixture("predictions_kobalt.jsonl") if p["id"] in by_id]
    assert len(responses) >= 10
    agree = 0
    for p in responses:
        d = by_id[p["id"]]
        for response in (
            p["response"],
            f"정답은 {d['answer']}입니다.",
            "정답은 A입니다. 정답은 B입니다.",
            "",
        ):
            assert task.process_results(d, [response]) == {
                "exact_match": float(kobalt.score(response, d["answer"]))
            }
            agree += 1
    assert agree == 4 * len(responses)
