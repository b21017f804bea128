"""Redis for the issue 21 §3 tests: the server on 127.0.0.1:6379 these machines run.

Without it the tests skip, except under CI (``CI=true``), where they fail: CI must run them.
Each test writes under its own random key prefix, whose keys are deleted after it. An outage
is made with ``Relay``, a TCP relay to that Redis which a test cuts and restores, so the
machine's Redis itself is never stopped.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pmemo import Settings

URL = "redis://127.0.0.1:6379/0"
CLOSED = "redis://127.0.0.1:1/0"  # nothing listens there: every connection is refused at once


@pytest.fixture(scope="session")
def redis_url() -> str:
    import redis

    client = redis.Redis.from_url(URL, socket_connect_timeout=1)
    try:
        client.ping()
    except redis.RedisError as exc:
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(f"Redis is needed under CI on {URL}: {exc}")
        pytest.skip(f"no Redis on {URL}: {exc}")
    finally:
        client.close()
    return URL


@pytest.fixture
def raw(redis_url: str) -> Iterator[Any]:
    """A plain client, to look at what pmemo wrote."""
    import redis

    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
def prefix(raw: Any) -> Iterator[str]:
    name = f"pmemo-test-{secrets.token_hex(6)}:"
    yield name
    keys = list(raw.scan_iter(match=name + "*"))
    if keys:
        raw.delete(*keys)


@pytest.fixture
def settings(redis_url: str, prefix: str) -> Settings:
    return Settings(redis_url=redis_url, redis_prefix=prefix, rate_limit="off", embedder="hashing")


@pytest.fixture
def quick_probe(monkeypatch: pytest.MonkeyPatch) -> float:
    """Links opened by Memory probe a Redis that went away every 0.2 s, not every 5 s."""
    import pmemo.redis_link

    monkeypatch.setattr(pmemo.redis_link, "RETRY_S", 0.2)
    return 0.2


@pytest.fixture
def redis_warnings(caplog: pytest.LogCaptureFixture) -> Callable[[], list[str]]:
    """The warnings about Redis logged so far in the test."""
    caplog.set_level(logging.INFO, logger="pmemo.redis")
    return lambda: [r.getMessage() for r in caplog.records if r.name == "pmemo.redis" and r.levelname == "WARNING"]


class Relay:
    """A TCP relay from a free loopback port to Redis: ``cut()`` closes the port and every
    connection through it (an outage), ``restore()`` opens the port again."""

    def __init__(self, target: tuple[str, int] = ("127.0.0.1", 6379)) -> None:
        self.target = target
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._open = threading.Event()
        self._sockets: list[socket.socket] = []
        self._thread: threading.Thread | None = None

    def restore(self) -> None:
        server = socket.create_server(("127.0.0.1", self.port))
        server.settimeout(0.05)
        self._open.set()
        self._thread = threading.Thread(target=self._accept, args=(server,), daemon=True)
        self._thread.start()

    def cut(self) -> None:
        self._open.clear()
        if self._thread is not None:
            self._thread.join()
        for sock in self._sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()
        self._sockets.clear()

    def _accept(self, server: socket.socket) -> None:
        with server:
            while self._open.is_set():
                try:
                    client, _ = server.accept()
                except TimeoutError:
                    continue
                upstream = socket.create_connection(self.target)
                self._sockets += [client, upstream]
                for a, b in ((client, upstream), (upstream, client)):
                    threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        try:
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass


@pytest.fixture
def relay(redis_url: str) -> Iterator[Relay]:
    r = Relay()
    r.restore()
    yield r
    r.cut()
