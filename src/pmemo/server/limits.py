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

import math
import threading
import time
from typing import Any

from limits import RateLimitItem, parse_many
from limits.errors import StorageError
from limits.storage import MemoryStorage, RedisStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..config import ENV_PREFIX, Settings
from ..errors import InvalidInput, RateLimited, TooLarge
from ..redis_link import RedisLink
from .keys import hash_key
from .problems import limit_problem

OFF = ("off", "none", "0", "")
TURNS_ROUTE = ("POST", "/v1/turns")


def setting(name: str) -> str:
    return ENV_PREFIX + name.upper()


def settings_of(memory: Any) -> Settings:
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


def rate_limiter(memory: Any, settings: Settings) -> RateLimiter:
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


class _Overflow(Exception):
    """Raised into the app when a body without a (true) length passes its cap."""


class BodyLimit:
    """413 for a body over its route's cap: at once when Content-Length says so, else when the
    bytes read pass it. Whatever the app then does with the stopped body (an error of its
    own, an exception), the client gets the 413 that names the setting."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app, self.settings = app, settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap, name = body_cap(scope["method"], scope["path"], self.settings)
        refusal = TooLarge(
            f"the request body is over {cap} bytes, the cap of this route ({setting(name)}); "
            "send less (batches of fewer turns)", setting=setting(name), limit=cap)
        length = dict(scope.get("headers") or []).get(b"content-length", b"")
        if length.isdigit() and int(length) > cap:
            await limit_problem(refusal)(scope, receive, send)
            return
        seen, over, started, replaced = 0, False, False, False

        async def counted() -> Message:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > cap:
                    over = True
                    raise _Overflow
            return message

        async def guarded(message: Message) -> None:
            nonlocal started, replaced
            if over and not started:  # the app's own reply to the stopped body: ours instead
                started = replaced = True
                await limit_problem(refusal)(scope, receive, send)
            if replaced:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, guarded)
        except Exception:
            if not over:
                raise
        if over and not started:
            await limit_problem(refusal)(scope, receive, send)
