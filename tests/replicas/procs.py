"""Real processes for the replica tests: ``pmemo serve`` and ``pmemo worker`` on one store,
and an OpenAI-compatible embeddings endpoint in the test process whose answers can be held
back, so that a test knows a worker is in the middle of a job (and kills it there).

The endpoint answers with the hashing embedder's vectors: deterministic, like every test's.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

from pmemo.embedders.hashing import HashingEmbedder

PMEMO = Path(sys.executable).with_name("pmemo")
MODEL = "hashing-over-http"


@dataclass
class Embeddings:
    """``/v1/embeddings`` on a free loopback port. ``gate`` open: answers at once; closed:
    each request waits until it opens, and ``waiting`` is set while one does."""

    url: str = ""
    gate: threading.Event = field(default_factory=threading.Event)
    waiting: threading.Event = field(default_factory=threading.Event)
    _server: ThreadingHTTPServer | None = None

    def start(self) -> Embeddings:
        hashing, owner, lock = HashingEmbedder(), self, threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if not owner.gate.is_set():
                    owner.waiting.set()
                    owner.gate.wait()
                with lock:  # one embedder for every request thread
                    vectors = hashing.embed_passages(list(body["input"]))
                out = json.dumps({"object": "list", "model": MODEL, "data": [
                    {"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)]})
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(out)))
                    self.end_headers()
                    self.wfile.write(out.encode())
                except OSError:
                    pass  # the worker that asked was killed meanwhile

            def log_message(self, *args: Any) -> None:
                pass

        self.gate.set()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.gate.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def environment(store: str, data: Path, embeddings: str, **extra: str) -> dict[str, str]:
    """A process's environment: no PMEMO_* of the caller's, the store, the data directory (the
    server file; API keys are in the database), the embeddings endpoint, no diary schedule (its
    timing is the clock's, not the test's)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PMEMO_")}
    return {**env, "PMEMO_STORE": store, "PMEMO_DATA": str(data), "PMEMO_EMBEDDER": "openai",
            "PMEMO_EMBEDDER_BASE_URL": embeddings, "PMEMO_EMBEDDER_MODEL": MODEL,
            "PMEMO_CLUSTER_THRESHOLD": "0.25", "PMEMO_DIARY_ENABLED": "false", "PMEMO_WRITER_QUIET_MS": "0",
            **extra}


@dataclass
class Proc:
    """A ``pmemo`` process; its stderr is collected in ``err`` for the failure message."""

    name: str
    popen: subprocess.Popen[str]
    url: str = ""
    err: list[str] = field(default_factory=list)

    def read_stderr(self) -> None:
        assert self.popen.stderr is not None
        threading.Thread(target=lambda: self.err.extend(self.popen.stderr), daemon=True).start()  # type: ignore[arg-type]

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.popen.poll() is None:
            self.popen.send_signal(sig)
        return self.popen.wait(60)

    def log(self) -> str:
        return f"{self.name} (pid {self.popen.pid}) said:\n{''.join(self.err)}"


START_S = 180  # a process's start is mostly imports: slow on a busy box, slower with others starting


def serve(name: str, env: dict[str, str], port: int) -> Proc:
    """``pmemo serve`` on ``port``, once it answers /healthz."""
    return started({name: (env, port)}, {})[0]


def worker(name: str, env: dict[str, str]) -> Proc:
    """``pmemo worker``, once it says it runs the jobs."""
    return workers({name: env})[0]


def workers(envs: dict[str, dict[str, str]]) -> list[Proc]:
    """``pmemo worker`` processes (name: environment), started side by side."""
    return started({}, envs)


def started(servers: dict[str, tuple[dict[str, str], int]], workers: dict[str, dict[str, str]]) -> list[Proc]:
    """``pmemo serve`` processes (name: environment, port) and ``pmemo worker`` processes (name:
    environment) started side by side, each once it answers /healthz (a server) or says it runs
    the jobs (a worker); servers first in the list."""
    procs = [Proc(name, subprocess.Popen([str(PMEMO), "serve", "--port", str(port), "--sweep-every", "0"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env),
                  f"http://127.0.0.1:{port}") for name, (env, port) in servers.items()]
    procs += [Proc(name, subprocess.Popen([str(PMEMO), "worker"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                          text=True, env=env)) for name, env in workers.items()]
    for proc in procs:
        proc.read_stderr()
    deadline = time.monotonic() + START_S
    for proc in procs:
        while not (_answers(proc) if proc.url else any("running the background jobs" in line for line in proc.err)):
            if proc.popen.poll() is not None:
                raise AssertionError(f"{proc.name} exited early: {proc.log()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"{proc.name} did not start: {proc.log()}")
            time.sleep(0.1)
    return procs


def _answers(proc: Proc) -> bool:
    try:
        return httpx.get(f"{proc.url}/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


@contextmanager
def stopped_at_end(procs: list[Proc]) -> Iterator[list[Proc]]:
    """Stop every process still running (SIGTERM) when the block ends; each must exit 0 and
    none may have printed a traceback."""
    try:
        yield procs
    finally:
        running = [p for p in procs if p.popen.returncode is None or p.popen.returncode == 0]
        # all told first, then waited for, so that they stop side by side; each told once: a second
        # SIGTERM may come after the process put its handler down, and end it as the default does
        for p in running:
            if p.popen.poll() is None:
                p.popen.send_signal(signal.SIGTERM)
        codes = {p.name: p.popen.wait(60) for p in running}
        time.sleep(0.1)  # the stderr readers catch up
        for p in procs:
            if p.name in codes:
                assert codes[p.name] == 0, p.log()
                assert "Traceback" not in "".join(p.err), p.log()
