"""e5 query latency by how its OpenMP threads wait, idle and beside a busy process.

    python bench/e5_threads.py [--queries 40] [--load idle busy niced niced-batch]
    BENCH_LONG=1 python bench/e5_threads.py     # a ~450-character dialogue as the query

Each policy runs in its own process (libgomp reads GOMP_SPINCOUNT once, when it loads):
- pmemo: what ``E5Embedder`` does (spin 30000; one thread while half a core or more is busy
  at its priority, its own threads included, see ``pmemo.embedders.contention``);
- baseline: the policy before it (spin 1000, always every core);
- nice-counted: pmemo's, but counting niced processes as busy too. Beside these synthetic
  niced loads it is slower (two threads did better), yet beside the real niced
  ``warm_eval_cache.py`` one thread was far quicker (see the session-8 note): not settled.
Queries come back to back (gap 0) and 0.1 s apart, as an agent asks them; "busy" runs one
process that spins on a core beside them, "niced" one per core under ``nice -n 10``,
"niced-batch" an e5 batch embedding under ``nice -n 10``, "own-thread" a Python thread of the
querying process that keeps its interpreter busy (a worker's batch beside a read).
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
SPIN = "while True: pass"
# a batch job such as warm_eval_cache.py: e5 embeds passages on every core, its threads
# meeting, sleeping and waking like the query's own
BATCH = ("from pmemo.embedders.e5 import E5Embedder\ne5 = E5Embedder()\n"
         "while True: e5.embed_passages(['a long passage about a trip, day %d. ' % i * 30"
         " for i in range(32)])")
# what runs beside the queries: (code, processes, nice)
LOADS = {"idle": (SPIN, 0, 0), "busy": (SPIN, 1, 0), "niced": (SPIN, os.cpu_count() or 1, 10),
         "niced-batch": (BATCH, 1, 10), "own-thread": (SPIN, 0, 0)}
# a stretch of dialogue as one query (~450 characters), as MADial asks
DIALOGUE = "\n".join(["Bart: 你知道吗？元旦晚会我要表演魔术，我有点紧张，你有没有什么建议可以让我不那么紧张？",
                      "Assistant: 当然有，试着在表演前深呼吸，想象自己是那个无所畏惧的魔术师，你肯定能做到！"] * 5)
POLICIES = {"pmemo": {}, "nice-counted": {"BENCH_COUNT_NICE": "1"},
            "baseline": {"GOMP_SPINCOUNT": "1000", "BENCH_NO_CONTENTION": "1"}}


def busy_with_nice() -> tuple[int, int]:
    """``read_proc_stat`` counting the time of niced processes as busy too."""
    with open("/proc/stat", "rb") as f:
        fields = [int(x) for x in f.readline().split()[1:9]]
    total, busy = read_proc_stat()
    return total, busy + fields[1]


def child(queries: int) -> None:
    from pmemo.embedders.e5 import E5Embedder

    e5 = E5Embedder()
    if os.environ.get("BENCH_NO_CONTENTION"):
        e5._contention.busy = lambda: None  # type: ignore[method-assign]
    if os.environ.get("BENCH_COUNT_NICE"):
        e5._contention._read = busy_with_nice
    if os.environ.get("BENCH_OWN_THREAD"):  # the process's own busy thread, as a worker's batch
        import threading

        def spin() -> None:
            while True:
                sum(i * i for i in range(1000))

        threading.Thread(target=spin, daemon=True).start()
    for q in QUESTIONS * 3:
        e5.embed_query(q)
    out = {}
    for gap in (0.0, 0.1):
        ms = []
        for i in range(queries):
            time.sleep(gap)
            t0 = time.perf_counter()
            e5.embed_query(DIALOGUE if os.environ.get("BENCH_LONG") else QUESTIONS[i % len(QUESTIONS)])
            ms.append((time.perf_counter() - t0) * 1000)
        ms.sort()
        out[f"gap {gap:g} s"] = (statistics.median(ms), ms[int(0.95 * (len(ms) - 1))])
    print(json.dumps(out))


def run(policy: str, queries: int, own_thread: bool = False) -> dict[str, list[float]]:
    env = {k: v for k, v in os.environ.items() if k not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")}
    env.update(POLICIES[policy])
    if own_thread:
        env["BENCH_OWN_THREAD"] = "1"
    done = subprocess.run([sys.executable, __file__, "--child", "--queries", str(queries)],
                          env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=40)
    ap.add_argument("--child", action="store_true")
    ap.add_argument("--load", nargs="*", choices=list(LOADS), help="only these loads")
    args = ap.parse_args()
    if args.child:
        child(args.queries)
        return
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores")
    for load, (code, processes, nice) in LOADS.items():
        if args.load and load not in args.load:
            continue
        spinners = [subprocess.Popen([sys.executable, "-c", code],
                                     preexec_fn=lambda nice=nice: os.nice(nice))  # type: ignore[misc]
                    for _ in range(processes)]
        try:
            for policy in POLICIES:
                cells = run(policy, args.queries, own_thread=load == "own-thread")
                row = "  ".join(f"{k}: p50 {v[0]:5.1f} p95 {v[1]:5.1f}" for k, v in cells.items())
                print(f"{load:11s} {policy:12s} {row}")
        finally:
            for spinner in spinners:
                spinner.kill()
                spinner.wait()


if __name__ == "__main__":
    main()
