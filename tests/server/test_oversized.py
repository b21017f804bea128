"""Oversized bodies against a real ``pmemo serve``: the client reads its 413.

A body over its route's cap (a 20 MB turn, a 20 MB search query, a 50 MB batch) is answered
413 with the problem body naming the setting, whatever the client: one that streams and reads
at once (httpx), one that sends its whole body before it reads (urllib, an HTTP/1.0 client: they
were reset before the server drained what it refused), a chunked body, and one that waits for
``100 Continue`` (it is refused before it sends a byte). The next request, on a new connection,
works; the server's memory does not grow with what it refuses.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from pmemo.server.limits import drain, drain_limit

from .live import free_port
from .test_serve import printed_key, start, stop

MB = 1_000_000
MiB = 1024 * 1024
TURNS_CAP, BODY_CAP = 8 * MiB, MiB  # the defaults of PMEMO_MAX_TURNS_BODY_BYTES, PMEMO_MAX_BODY_BYTES
OWNER = {"user_id": "u1", "session_id": "s1"}


@dataclass(frozen=True)
class Served:
    url: str
    port: int
    key: str
    pid: int


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    port = free_port()
    proc, lines = start(tmp_path_factory.mktemp("oversized"), port, "--sweep-every", "0")
    key = printed_key(lines)
    assert key is not None
    try:
        yield Served(f"http://127.0.0.1:{port}", port, key, proc.pid)
    finally:
        assert stop(proc) == 0


BODIES = {  # route, what the body is, its setting
    "turn": ("/v1/turns", lambda: {**OWNER, "content": "x" * (20 * MB)}, "PMEMO_MAX_TURNS_BODY_BYTES"),
    "search": ("/v1/search", lambda: {"user_id": "u1", "query": "y" * (20 * MB)}, "PMEMO_MAX_BODY_BYTES"),
    "batch": ("/v1/turns", lambda: {"turns": [{**OWNER, "content": "z" * MB}] * 50}, "PMEMO_MAX_TURNS_BODY_BYTES"),
}


@pytest.fixture(scope="module")
def payloads() -> dict[str, bytes]:
    return {name: json.dumps(make()).encode() for name, (_, make, _) in BODIES.items()}


def headers(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}


def pieces(raw: bytes, size: int = 64 * 1024) -> Iterator[bytes]:
    for start_at in range(0, len(raw), size):
        yield raw[start_at : start_at + size]


# ---- the clients ------------------------------------------------------------------------------


def httpx_length(s: Served, path: str, raw: bytes) -> Answer:
    with httpx.Client(timeout=60) as h:
        r = h.post(s.url + path, content=raw, headers=headers(s.key))
    return Answer(r.status_code, dict(r.headers), r.content)


def httpx_chunked(s: Served, path: str, raw: bytes) -> Answer:
    with httpx.Client(timeout=60) as h:
        r = h.post(s.url + path, content=pieces(raw), headers=headers(s.key))
    return Answer(r.status_code, dict(r.headers), r.content)


def urllib_post(s: Served, path: str, raw: bytes) -> Answer:
    """Sends all of the body, then reads (with ``Connection: close``)."""
    request = urllib.request.Request(s.url + path, data=raw, headers=headers(s.key))
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return Answer(r.status, dict(r.headers), r.read())
    except urllib.error.HTTPError as e:
        return Answer(e.code, dict(e.headers), e.read())


def http10(s: Served, path: str, raw: bytes) -> Answer:
    """An HTTP/1.0 client: the whole body, then the answer up to the end of the connection."""
    head = request_head(s, path, len(raw), version="1.0")
    return exchange(s, head + raw)


def expect_continue(s: Served, path: str, raw: bytes) -> Answer:
    """Waits for ``100 Continue`` before the body: the answer must come without it, and the
    connection end after it (the body never sent)."""
    answer = exchange(s, request_head(s, path, len(raw), extra="Expect: 100-continue\r\n"))
    assert answer.status != 100, "the server asked for the body it then refuses"
    return answer


def request_head(s: Served, path: str, length: int, version: str = "1.1", extra: str = "") -> bytes:
    return (f"POST {path} HTTP/{version}\r\nHost: 127.0.0.1:{s.port}\r\nAuthorization: Bearer {s.key}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {length}\r\n{extra}\r\n").encode()


def exchange(s: Served, sent: bytes) -> Answer:
    """Send all of ``sent``, then read until the server closes the connection."""
    with socket.create_connection(("127.0.0.1", s.port), timeout=60) as sock:
        sock.sendall(sent)
        got = bytearray()
        while chunk := sock.recv(65536):
            got += chunk
    head, _, body = bytes(got).partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    fields = dict(line.split(": ", 1) for line in lines)
    return Answer(int(status_line.split()[1]), {k.lower(): v for k, v in fields.items()}, body)


CLIENTS = {"httpx": httpx_length, "httpx-chunked": httpx_chunked, "urllib": urllib_post,
           "http1.0": http10, "expect-100": expect_continue}


def is_413(answer: Answer, setting: str) -> None:
    assert answer.status == 413, answer
    content_type = {k.lower(): v for k, v in answer.headers.items()}["content-type"]
    assert content_type.startswith("application/problem+json"), answer.headers
    problem = json.loads(answer.body)
    assert problem["status"] == 413 and problem["code"] == "too_large", problem
    assert problem["setting"] == setting and setting in problem["detail"], problem


def next_request_works(s: Served) -> None:
    with httpx.Client(timeout=60) as h:  # a new connection
        assert h.get(s.url + "/v1/stats", headers=headers(s.key)).status_code == 200


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize("body", BODIES)
def test_the_client_reads_its_413(served: Served, payloads: dict[str, bytes], body: str, client: str) -> None:
    path, _, setting = BODIES[body]
    is_413(CLIENTS[client](served, path, payloads[body]), setting)
    next_request_works(served)


def test_memory_stays_flat_while_refusing(served: Served, payloads: dict[str, bytes]) -> None:
    """Nothing of a refused body is kept: a few rounds of every body, with and without a length,
    leave the server's resident memory within twice the largest cap of where it was."""
    if not Path(f"/proc/{served.pid}/status").exists():
        pytest.skip("resident memory is read from /proc")
    rounds = [(path, payloads[body], send) for body, (path, _, _) in BODIES.items()
              for send in (httpx_length, httpx_chunked)]
    with httpx.Client(timeout=60) as h:  # the lazy parts of the server (segmenter, indexes)
        assert h.post(served.url + "/v1/turns", json={**OWNER, "content": "猫 warm"},
                      headers=headers(served.key)).status_code == 201
        assert h.post(served.url + "/v1/search", json={"user_id": "u1", "query": "猫"},
                      headers=headers(served.key)).status_code == 200
    before = settled_rss(served.pid)
    for _ in range(3):
        for path, raw, send in rounds:
            assert send(served, path, raw).status == 413
    grown = settled_rss(served.pid) - before
    assert grown <= 2 * TURNS_CAP, f"the server grew by {grown / MiB:.1f} MiB refusing 18 bodies"


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def settled_rss(pid: int) -> int:
    """The resident size once it stops moving (background jobs of earlier requests done)."""
    last, same = rss(pid), 0
    for _ in range(60):
        time.sleep(0.25)
        now = rss(pid)
        same = same + 1 if now == last else 0
        if same == 4:
            break
        last = now
    return last


# ---- the drain's bounds ---------------------------------------------------------------------


def body_of(parts: list[bytes], *, end: bool = True) -> Any:
    """A ``receive`` over these parts of a body (then nothing more arrives when not ``end``)."""
    messages = [{"type": "http.request", "body": p, "more_body": not (end and i == len(parts) - 1)}
                for i, p in enumerate(parts)]
    given = 0

    async def receive() -> dict[str, Any]:
        nonlocal given
        if given < len(messages):
            given += 1
            return messages[given - 1]
        await asyncio.Event().wait()  # the client sends nothing more
        raise AssertionError("unreachable")

    receive.given = lambda: given  # type: ignore[attr-defined]
    return receive


async def test_drain_reads_a_body_to_its_end() -> None:
    receive = body_of([b"x" * 1000] * 5)
    assert await drain(receive, most=10_000, seconds=30) is True
    assert receive.given() == 5


async def test_drain_stops_past_its_bytes() -> None:
    receive = body_of([b"x" * 1000] * 50)
    assert await drain(receive, most=10_000, seconds=30) is False
    assert receive.given() == 11  # the first read past 10,000 bytes


async def test_drain_stops_when_the_client_goes_quiet() -> None:
    receive = body_of([b"x" * 1000] * 3, end=False)
    assert await drain(receive, most=10_000, seconds=0.05) is False
    assert receive.given() == 3


async def test_drain_stops_at_a_disconnect() -> None:
    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    assert await drain(receive, most=10_000, seconds=30) is True


def test_the_drain_limit_covers_a_few_caps_and_the_issue_sizes() -> None:
    assert drain_limit(BODY_CAP) >= 50 * MB and drain_limit(TURNS_CAP) >= 50 * MB
    assert drain_limit(100 * MiB) == 400 * MiB
