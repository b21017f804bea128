"""Query-embedding time of e5 and USE, alone, one after the other, and side by side.

    python bench/second_query.py [MADIAL_DEV_JSON] [--queries 40]

The query is embedded as the retriever does (``query_views``: a dialogue whole and by its
last line). Queries are MADial dialogues (data file given, else a built-in one) and short
questions, 0.1 s apart as an agent asks them. "both, threads" is what the retriever does
with second_encoder on: USE on a thread of its own while e5 runs. Prints p50/p95 in ms.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from threadpoolctl import threadpool_limits

from pmemo.embedders.e5 import E5Embedder
from pmemo.embedders.use import USEEmbedder
from pmemo.eval.datasets import load_madial
from pmemo.text.dialogue import views as query_views

SHORT = ["When did Caroline go to the LGBTQ support group?", "上周末李雷和韩梅梅去哪里爬山了？",
         "What did Melanie paint recently?", "我的猫叫什么名字？"]
DIALOGUE = "\n".join(["Lisa: 最近工作压力好大，老板一直催进度。", "Bot: 听起来很辛苦，发生什么了吗？",
                      "Lisa: 项目下周要交，可是同事又请假了。", "Bot: 那你现在最担心的是什么？",
                      "Lisa: 怕做不完，又想起上次加班到半夜的事情。"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("madial", nargs="?")
    parser.add_argument("--queries", type=int, default=40)
    args = parser.parse_args()
    dialogues = ([p.query.text for e in load_madial(args.madial) for p in e.probes] if args.madial
                 else [DIALOGUE])
    threadpool_limits(1, user_api="blas")  # as Memory.open does (setting blas_threads)
    e5, use = E5Embedder(), USEEmbedder()
    side = ThreadPoolExecutor(max_workers=1)

    def views(embedder: E5Embedder | USEEmbedder, text: str) -> None:
        for view in query_views(text):
            embedder.embed_query(view)

    def in_turn(q: str) -> None:
        views(use, q)
        views(e5, q)

    def threads(q: str) -> None:
        second = side.submit(views, use, q)
        views(e5, q)
        second.result()

    ways: dict[str, Callable[[str], None]] = {
        "e5": lambda q: views(e5, q), "use": lambda q: views(use, q),
        "both, in turn": in_turn, "both, threads": threads,
    }
    for label, queries in (("MADial dialogue", dialogues), ("short question", SHORT)):
        chars = statistics.mean(len(q) for q in queries)
        for name, way in ways.items():
            way(queries[0])  # warm
            times = []
            for i in range(args.queries):
                time.sleep(0.1)
                started = time.perf_counter()
                way(queries[i % len(queries)])
                times.append((time.perf_counter() - started) * 1000)
            times.sort()
            print(f"{label:16} ({chars:4.0f} chars) {name:14} p50 {statistics.median(times):6.1f} ms"
                  f"  p95 {times[int(0.95 * (len(times) - 1))]:6.1f} ms")
    side.shutdown()


if __name__ == "__main__":
    main()
