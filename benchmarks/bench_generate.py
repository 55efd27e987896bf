"""Generation benchmark: seconds, items/s and peak memory per 100-item config, plus warm load().

    python benchmarks/bench_generate.py                 # every implemented config
    python benchmarks/bench_generate.py --configs ko_jamo_easy en_sudoku_hard --n 100

Each config runs in a fresh subprocess so that its peak RSS is its own. Prints a Markdown table.
Targets (2-core machine): any 100-item config generated and verified in <= 10 s; warm load() < 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _one(config: str, n: int) -> dict:
    import nolli

    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    items = list(nolli.iter_items(config, 0, n))
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "config": config,
        "n": len(items),
        "seconds": elapsed,
        "items_per_s": len(items) / elapsed,
        "peak_rss_mib": peak / 1024,
        "rss_growth_mib": (peak - base) / 1024,
    }


def _warm_load(config: str, n: int) -> dict:
    import nolli

    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        nolli.load(config, n=n, cache_dir=tmp)
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        ds = nolli.load(config, n=n, cache_dir=tmp)
        warm = time.perf_counter() - t0
        assert ds.num_rows == n
    return {"config": config, "cold_s": cold, "warm_s": warm}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--configs", nargs="*")
    p.add_argument("--n", type=int, default=100)
    p.add_argument("--one", help=argparse.SUPPRESS)
    p.add_argument("--load", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.one:
        print(json.dumps(_one(args.one, args.n)))
        return 0
    if args.load:
        print(json.dumps(_warm_load(args.load, args.n)))
        return 0

    import generators

    configs = args.configs or [c.name for c in generators.implemented_configs()]
    env = dict(os.environ, PYTHONHASHSEED="0")
    rows = []
    print("| config | items | seconds | items/s | peak RSS MiB | target <= 10 s |")
    print("|---|---:|---:|---:|---:|---|")
    for config in configs:
        out = subprocess.run(
            [sys.executable, __file__, "--one", config, "--n", str(args.n)],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
        )
        if out.returncode != 0:
            print(f"| {config} | error | | | | {out.stderr.strip().splitlines()[-1] if out.stderr else ''} |")
            continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(r)
        ok = "yes" if r["seconds"] <= 10 else "**NO**"
        print(
            f"| {config} | {r['n']} | {r['seconds']:.2f} | {r['items_per_s']:.1f} | {r['peak_rss_mib']:.0f} | {ok} |",
            flush=True,
        )
    if rows:
        total = sum(r["seconds"] for r in rows)
        worst = max(rows, key=lambda r: r["seconds"])
        print(
            f"\n{len(rows)} configs, {sum(r['n'] for r in rows)} items in {total:.1f} s "
            f"(slowest: {worst['config']} {worst['seconds']:.2f} s)"
        )
        out = subprocess.run(
            [sys.executable, __file__, "--load", rows[0]["config"], "--n", str(args.n)],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
        )
        if out.returncode == 0:
            r = json.loads(out.stdout.strip().splitlines()[-1])
            print(
                f"load({r['config']}): cold {r['cold_s']:.2f} s, warm (cached) {r['warm_s']:.3f} s (target < 1 s)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
