"""The server's limits (issue 18 §2): requests per API key, the body cap of each route, the
turns in one batch. Quotas of what a tenant stores are the library's (``pmemo.quota``), so
REST, MCP and the CLI all keep them.

Every refusal is a ``LimitExceeded`` naming its ``PMEMO_*`` setting; ``problems`` turns it
into 429 or 413. Each key has its own moving window, so one tenant never uses another's. The
counters live in this process, or with ``PMEMO_REDIS_URL`` in Redis, where every server replica
counts against the same window; while Redis is unreachable each process counts alone again.

>>> RateLimiter("off").hit("key-id")  # no limit: nothing happens
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from typing import Any

from limits import RateLimitItem, parse_many
from limits.errors import StorageError
from limits.storage import MemoryStorage, RedisStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..api import MemoryAPI
from ..config import ENV_PREFIX, Settings
from ..errors import InvalidInput, RateLimited, TooLarge
from ..redis_link import RedisLink
from .keys import hash_key
from .problems import limit_problem

OFF = ("off", "none", "0", "")
TURNS_ROUTE = ("POST", "/v1/turns")


def setting(name: str) -> str:
    return ENV_PREFIX + name.upper()


def settings_of(memory: MemoryAPI) -> Settings:
    """The Settings the server's ``Memory`` was opened with (defaults for a stand-in)."""
    found = getattr(memory, "settings", None)
    return found if isinstance(found, Settings) else Settings()


# ---- requests per key ---------------------------------------------------------------------


def parse_rate(spec: str) -> list[RateLimitItem]:
    """``"600/minute"``, several joined by ``;`` (all must hold), or ``off``."""
    if spec.strip().lower() in OFF:
        return []
    try:
        return list(parse_many(spec))
    except ValueError as exc:
        raise InvalidInput(
            f"{setting('rate_limit')}={spec!r} is not a rate: give e.g. '600/minute' or "
            "'10/second;600/minute', or 'off'") from exc


class RateLimiter:
    """``hit(key_id)`` counts one request for a key, or raises ``RateLimited`` with the seconds
    until its window frees a place (nothing is counted for a refused request). With ``redis``,
    the windows are kept there, shared by every replica, while it answers."""

    def __init__(self, spec: str, redis: RedisLink | None = None) -> None:
        self.spec = spec.strip()
        self.items = parse_rate(spec)
        self._local = MovingWindowRateLimiter(MemoryStorage()) if self.items else None
        self._redis = redis if self.items else None
        self._shared = None if self._redis is None else MovingWindowRateLimiter(RedisStorage(
            self._redis.url, connection_pool=self._redis.client.connection_pool,
            key_prefix=self._redis.key("rate"), wrap_exceptions=True))
        self._lock = threading.Lock()  # test-then-hit of several windows as one step (in this process)

    def hit(self, key_id: str) -> None:
        if self._local is None:
            return
        with self._lock:
            reset = self._count(self._local, key_id)
        if reset is None:
            return
        wait = max(1, math.ceil(reset - time.time()))
        raise RateLimited(
            f"too many requests with this API key: its limit is {self.spec} "
            f"({setting('rate_limit')}); retry in {wait} s", setting=setting("rate_limit"),
            limit=self.spec, retry_after=wait)

    def _count(self, local: MovingWindowRateLimiter, key_id: str) -> float | None:
        if self._shared is not None and self._redis is not None and self._redis.usable():
            try:
                return _take(self._shared, self.items, key_id)
            except StorageError as exc:  # unreachable: this request and the next ones count here
                self._redis.failed(exc.storage_error)
        return _take(local, self.items, key_id)


def _take(limiter: MovingWindowRateLimiter, items: list[RateLimitItem], key_id: str) -> float | None:
    """Count one request in every window of ``key_id``, or none when one is full: then the
    epoch second the fullest frees a place. A window another replica filled between the test
    and the hit refuses too (what this request counted in the windows before it stays)."""
    full = [item for item in items if not limiter.test(item, key_id)]
    if not full:
        for item in items:
            if not limiter.hit(item, key_id):
                return limiter.get_window_stats(item, key_id).reset_time
        return None
    return max(limiter.get_window_stats(item, key_id).reset_time for item in full)


def rate_limiter(memory: MemoryAPI, settings: Settings) -> RateLimiter:
    """The server's rate limiter: in Redis when ``memory`` has a link to it (``PMEMO_REDIS_URL``)."""
    link = getattr(memory, "redis", None)
    return RateLimiter(settings.rate_limit, link if isinstance(link, RedisLink) else None)


def hit(app: Any, key: str) -> None:
    """Count one request with API key ``key`` (by its hash) against ``app``'s rate limit."""
    rate = getattr(app.state, "rate", None)
    if rate is not None:
        rate.hit(hash_key(key))


# ---- batches and bodies ---------------------------------------------------------------------


def check_batch(size: int, settings: Settings) -> None:
    if size > settings.max_batch:
        raise TooLarge(
            f"a batch holds at most {settings.max_batch} turns ({setting('max_batch')}); this one "
            f"has {size}: send it in several", setting=setting("max_batch"), limit=settings.max_batch)


def body_cap(method: str, path: str, settings: Settings) -> tuple[int, str]:
    """The body cap of a route and the setting that sets it: turns take more than the rest."""
    if (method, path.rstrip("/")) == TURNS_ROUTE:
        return settings.max_turns_body_bytes, "max_turns_body_bytes"
    return settings.max_body_bytes, "max_body_bytes"


# What a refusal still reads of a body in flight, and for how long, before it closes the
# connection. A client that sends its whole body before it reads an answer (urllib, requests,
# any HTTP/1.0 client) gets "connection reset" instead of the 413 when the server closes on
# unread bytes: the kernel answers them with a reset. Draining costs bandwidth, never memory
# (each piece is dropped as it comes); past these bounds the connection is closed anyway.
DRAIN_FLOOR = 64 * 1024 * 1024
DRAIN_SECONDS = 30.0


def drain_limit(cap: int) -> int:
    """Bytes of a refused body read and dropped before the connection is closed.

    >>> drain_limit(1024) == DRAIN_FLOOR
    True
    """
    return max(DRAIN_FLOOR, 4 * cap)


def declared_length(scope: Scope) -> int | None:
    """The body's Content-Length, or None when it has none (chunked) or a bad one."""
    for name, value in scope.get("headers") or []:
        if name == b"content-length":
            return int(value) if value.isdigit() else None
    return None


def expects_continue(scope: Scope) -> bool:
    """The client waits for ``100 Continue`` before it sends the body."""
    return any(name == b"expect" and value.strip().lower() == b"100-continue"
               for name, value in scope.get("headers") or [])


async def drain(receive: Receive, most: int, seconds: float) -> bool:
    """Read and drop what is left of a request body: True once it has all come (or the client
    has gone), False when ``most`` bytes or ``seconds`` pass first."""
    read = 0
    try:
        async with asyncio.timeout(seconds):
            while read <= most:
                message = await receive()
                if message["type"] != "http.request":
                    return True
                read += len(message.get("body", b""))
                if not message.get("more_body", False):
                    return True
    except TimeoutError:
        return False
    return False


async def refuse(refusal: TooLarge, scope: Scope, send: Send, receive: Receive | None, most: int) -> None:
    """The 413 for a body over its cap, told before the rest of the body is read, then the rest
    drained (``receive``; None: nothing is in flight) so that the client's send completes and
    it reads the answer. ``Connection: close`` (HTTP/1, where the header exists): the connection
    is not reused after a refusal, so what was not drained is never taken for a next request."""
    response = limit_problem(refusal)
    headers = list(response.raw_headers)
    if str(scope.get("http_version", "1.1")).startswith("1."):
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    if receive is None:
        await send({"type": "http.response.body", "body": response.body})
        return
    # the whole answer now (its Content-Length says so), the end of it once the body is drained:
    # the server closes the connection when the response ends, and reads nothing after that
    await send({"type": "http.response.body", "body": response.body, "more_body": True})
    await drain(receive, most, DRAIN_SECONDS)
    await send({"type": "http.response.body", "body": b""})


class _Overflow(Exception):
    """Raised into the app when a body without a length passes its cap."""


class BodyAhead:
    """The ``receive`` an app gets for a body of unknown length (chunked): its first call reads
    the whole body before it gives the first piece. Past ``cap`` it raises ``_Overflow``, the
    app having been given none of the body and none of it being kept; ``ended`` then tells
    whether the body had come to its end."""

    def __init__(self, receive: Receive, cap: int) -> None:
        self.receive, self.cap = receive, cap
        self.pending: list[Message] | None = None  # newest first; None until the body is read
        self.over = self.ended = False

    async def __call__(self) -> Message:
        if self.pending is None and not self.over:
            self.pending = await self._read()
        if self.pending is None:
            raise _Overflow
        return self.pending.pop() if self.pending else await self.receive()

    async def _read(self) -> list[Message] | None:
        messages: list[Message] = []
        seen = 0
        while True:
            message = await self.receive()
            messages.append(message)
            if message["type"] != "http.request":  # the client went: the app is told so
                break
            seen += len(message.get("body", b""))
            self.ended = not message.get("more_body", False)
            if seen > self.cap:
                self.over = True
                return None
            if self.ended:
                break
        messages.reverse()
        return messages


class BodyLimit:
    """413 for a body over its route's cap, naming the setting: at once when Content-Length says
    so, else (chunked) once the bytes read pass it, before the app is given any (``BodyAhead``).
    Nothing of a refused body is kept: the rest is read and dropped (up to ``drain_limit``) so
    that the client reads its 413, and a client that sent ``Expect: 100-continue`` is refused
    before it sends a byte. Whatever the app does with a body it was refused (an error of its
    own, an exception), the client gets the 413 that names the setting."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app, self.settings = app, settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap, name = body_cap(scope["method"], scope["path"], self.settings)
        length = declared_length(scope)
        if length is not None and length <= cap:  # the HTTP server holds the body to its length
            await self.app(scope, receive, send)
            return
        refusal = TooLarge(
            f"the request body is over {cap} bytes, the cap of this route ({setting(name)}); "
            "send less (batches of fewer turns)", setting=setting(name), limit=cap)
        most = drain_limit(cap)
        if length is not None:
            # reading a waiting client's body would first tell it to send it (100 Continue); a
            # body past the drain limit would be cut off anyway: refuse at once
            reader = None if expects_continue(scope) or length > most else receive
            await refuse(refusal, scope, send, reader, most)
            return
        body = BodyAhead(receive, cap)
        started = replaced = False

        async def guarded(message: Message) -> None:
            nonlocal started, replaced
            if body.over and not started:  # the app's own reply to the refused body: ours instead
                started = replaced = True
                await refuse(refusal, scope, send, None if body.ended else receive, most)
            if replaced:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, body, guarded)
        except Exception:
            if not body.over:
                raise
        if body.over and not started:
            await refuse(refusal, scope, send, None if body.ended else receive, most)
