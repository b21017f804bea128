"""What the first message and read after a start cost: ``pmemo serve`` started afresh, then tenant
B's first POST /v1/turns (one Chinese message) and first and second POST /v1/context with a
Chinese query, timed once /readyz answers, on a data folder that an earlier start made (a first
start stores the demo chat, whose words jieba cuts before the server is ready).

jieba's tables (its dictionary, part-of-speech tags) load on first use, 1-3 s on a loaded 2-core
box: a server that loads them as it starts (``text.lang.zh.warm``) answers its first read as fast
as its second; one that does not makes the first reader pay for them.

    .venv/bin/python bench/first_read.py [--starts 3] [--src DIR] [--embedder hashing]

``--src DIR`` runs the server on another checkout's code, as bench/neighbours.py does (a baseline:
``git worktree add /tmp/base <commit> && bench/first_read.py --src /tmp/base``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from neighbours import code_under_test, server_env, start_server  # noqa: E402

MESSAGE = "周末我们去西湖边那家面馆吃虾爆鳝面吧"
QUERIES = ("周末我们去哪里吃饭？", "上次说的那家面馆叫什么名字")


def one_start(args: argparse.Namespace, data: Path) -> tuple[float, float, float, float]:
    """Seconds from launch to ready, of the first write (one message) and of the first and
    second read after it."""
    env = {**server_env(args.src, data, "", args.embedder), "PMEMO_RUN_JOBS": "true" if args.jobs else "false"}
    launched = time.perf_counter()
    server = start_server(args.python, env, data)
    ready = time.perf_counter() - launched
    try:
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {server.key('b')}"},
                          timeout=60) as b:
            began = time.perf_counter()
            b.post("/v1/turns", json={"group_id": "g1", "actor_id": "p1", "actor": "周霓",
                                      "content": MESSAGE}).raise_for_status()
            reads = [time.perf_counter() - began]
            for query in QUERIES:
                began = time.perf_counter()
                b.post("/v1/context", json={"query": query, "group_id": "g1"}).raise_for_status()
                reads.append(time.perf_counter() - began)
    finally:
        server.stop()
    return ready, reads[0], reads[1], reads[2]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--starts", type=int, default=3, help="fresh starts to time (median reported)")
    ap.add_argument("--embedder", default="hashing", help="the server's")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--src", type=Path, default=None, help="a checkout whose src/ the server runs")
    ap.add_argument("--jobs", action="store_true",
                    help="the server runs its own jobs (its first start's demo chat then loads jieba before the"
                         " first read, whoever else would); default: it only queues them, as beside workers")
    args = ap.parse_args(argv)
    code = code_under_test(args.python, server_env(args.src, Path(tempfile.gettempdir()), "", args.embedder))
    with tempfile.TemporaryDirectory(prefix="pmemo-first-read-") as tmp:
        one_start(args, Path(tmp) / "data")  # a first start stores the demo chat (its words cut by jieba): untimed
        runs = [one_start(args, Path(tmp) / "data") for _ in range(args.starts)]
    ready, write, first, second = (statistics.median(r[i] for r in runs) for i in range(4))
    print(f"code {code['commit']} ({code['src_files_changed']} src files changed), {args.embedder},"
          f" {'runs' if args.jobs else 'queues'} jobs,"
          f" median of {args.starts} starts: ready after {ready:.2f} s; first write {1000 * write:.0f} ms,"
          f" first read {1000 * first:.0f} ms, second {1000 * second:.0f} ms (each start, write/read/read: "
          + ", ".join(f"{1000 * w:.0f}/{1000 * f:.0f}/{1000 * s:.0f}" for _, w, f, s in runs) + ")")


if __name__ == "__main__":
    main()
