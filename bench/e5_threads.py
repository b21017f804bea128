"""e5 query latency by how its OpenMP threads wait, idle and beside a busy process.

    python bench/e5_threads.py [--queries 40]

Each policy runs in its own process (libgomp reads GOMP_SPINCOUNT once, when it loads):
- pmemo: what ``E5Embedder`` does (spin 30000; one thread while another process holds
  half a core or more, see ``pmemo.embedders.contention``);
- baseline: the policy before it (spin 1000, always every core).
- nice-blind: pmemo's, but not counting niced processes as busy (as it did until 2026-11-22).
Queries come back to back (gap 0) and 0.1 s apart, as an agent asks them; "busy" runs one
process that spins on a core beside them, "niced" one per core under ``nice -n 10``.
Prints the p50 and p95 in ms of each cell.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from pmemo.embedders.contention import read_proc_stat

QUESTIONS = [
    "When did Caroline go to the LGBTQ support group?",
    "What fields would Caroline be likely to pursue in her education?",
    "上周末李雷和韩梅梅去哪里爬山了？",
]
# processes spinning beside the queries: none, one at full priority, one per core under nice
# (a batch job such as warm_eval_cache.py)
SPINNERS = {"idle": 0, "busy": 1, "niced": os.cpu_count() or 1}
POLICIES = {"pmemo": {}, "nice-blind": {"BENCH_NICE_BLIND": "1"},
            "baseline": {"GOMP_SPINCOUNT": "1000", "BENCH_NO_CONTENTION": "1"}}


def busy_at_full_priority() -> tuple[int, int]:
    """``read_proc_stat`` without the time of niced processes."""
    with open("/proc/stat", "rb") as f:
        fields = [int(x) for x in f.readline().split()[1:9]]
    total, busy = read_proc_stat()
    return total, busy - fields[1]


def child(queries: int) -> None:
    from pmemo.embedders.e5 import E5Embedder

    e5 = E5Embedder()
    if os.environ.get("BENCH_NO_CONTENTION"):
        e5._contention.others = lambda: None  # type: ignore[method-assign]
    if os.environ.get("BENCH_NICE_BLIND"):
        e5._contention._read = busy_at_full_priority
    for q in QUESTIONS * 3:
        e5.embed_query(q)
    out = {}
    for gap in (0.0, 0.1):
        ms = []
        for i in range(queries):
            time.sleep(gap)
            t0 = time.perf_counter()
            e5.embed_query(QUESTIONS[i % len(QUESTIONS)])
            ms.append((time.perf_counter() - t0) * 1000)
        ms.sort()
        out[f"gap {gap:g} s"] = (statistics.median(ms), ms[int(0.95 * (len(ms) - 1))])
    print(json.dumps(out))


def run(policy: str, queries: int) -> dict[str, list[float]]:
    env = {k: v for k, v in os.environ.items() if k not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")}
    env.update(POLICIES[policy])
    done = subprocess.run([sys.executable, __file__, "--child", "--queries", str(queries)],
                          env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=40)
    ap.add_argument("--child", action="store_true")
    args = ap.parse_args()
    if args.child:
        child(args.queries)
        return
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores")
    for load in ("idle", "busy", "niced"):
        spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"],
                                     preexec_fn=(lambda: os.nice(10)) if load == "niced" else None)
                    for _ in range(SPINNERS[load])]
        try:
            for policy in POLICIES:
                cells = run(policy, args.queries)
                row = "  ".join(f"{k}: p50 {v[0]:5.1f} p95 {v[1]:5.1f}" for k, v in cells.items())
                print(f"{load:5s} {policy:9s} {row}")
        finally:
            for spinner in spinners:
                spinner.kill()
                spinner.wait()


if __name__ == "__main__":
    main()
