"""The one Redis connection of a process (``PMEMO_REDIS_URL``), and what it knows of outages.

Redis is optional and never the truth: the rate limits, the tenants' quota locks and the
short-term cache each have an in-process or database path to fall back on. What they share
is here: one client (its connection pool is thread-safe: store calls run in worker threads),
and one view of whether Redis is up, so an outage is logged once, not once per request and
per use, and is probed at most every ``retry_s`` seconds until Redis answers again.

>>> link = open_link(Settings())  # no PMEMO_REDIS_URL: no Redis, every use takes its own path
>>> link is None
True
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from urllib.parse import urlsplit, urlunsplit

from .config import ENV_PREFIX, Settings
from .errors import InvalidInput

log = logging.getLogger("pmemo.redis")

RETRY_S = 5.0  # while Redis is down, one probe (PING) at most this often
# A call to a Redis that hangs costs a request this long at most, and a refused connection
# costs nothing: every use has a path without Redis, so waiting longer buys nothing.
TIMEOUT_S = 0.5


class RedisLink:
    """A Redis client with an outage switch. ``usable()`` before a use, ``failed(exc)`` when it
    raised; ``on_back(fn)`` runs ``fn`` each time Redis answers again after an outage."""

    def __init__(self, url: str, prefix: str, *, retry_s: float = RETRY_S, timeout_s: float = TIMEOUT_S) -> None:
        """``retry_s``: while Redis is down, how often a use may probe it; ``timeout_s``: the
        longest one call waits for it."""
        from redis import Redis, RedisError
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self.url, self.prefix, self.retry_s = url, prefix, retry_s
        try:
            # no retries inside the client: a failed call falls back at once, and the probe retries
            self.client: Redis = Redis.from_url(
                url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s, retry=Retry(NoBackoff(), 0))
        except ValueError as exc:
            raise InvalidInput(f"{ENV_PREFIX}REDIS_URL={shown(url)!r} is not a Redis URL: give e.g. "
                               "redis://127.0.0.1:6379/0, or leave it empty for no Redis") from exc
        self.errors: tuple[type[Exception], ...] = (RedisError, OSError)
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._next_probe = 0.0
        self._on_back: list[Callable[[], None]] = []

    def key(self, *parts: str) -> str:
        """A key of ours: the prefix, then the parts joined by ``:``."""
        return self.prefix + ":".join(parts)

    @property
    def down(self) -> bool:
        return self._down_since is not None

    def usable(self) -> bool:
        """Whether to use Redis now: yes while it is up; while it is down, yes only when a probe
        (one PING, at most every ``retry_s``) finds it back."""
        with self._lock:
            if self._down_since is None:
                return True
            now = time.monotonic()
            if now < self._next_probe:
                return False
            self._next_probe = now + self.retry_s
        try:
            self.client.ping()
        except self.errors:
            return False
        self._back()
        return True

    def failed(self, exc: BaseException) -> None:
        """Redis raised ``exc``: the first failure of an outage logs one warning; until a probe
        finds Redis back, every use takes its path without it."""
        with self._lock:
            if self._down_since is not None:
                return
            self._down_since = time.monotonic()
            self._next_probe = self._down_since + self.retry_s
        log.warning("Redis at %s is unreachable (%s: %s): rate limits, quota locks and recent turns use this "
                    "process and the database until it answers again (tried every %g s)",
                    shown(self.url), type(exc).__name__, exc, self.retry_s)

    def check(self) -> None:
        """One PING now (at start): an unreachable Redis is reported at once, not at first use."""
        try:
            self.client.ping()
        except self.errors as exc:
            self.failed(exc)

    def on_back(self, callback: Callable[[], None]) -> None:
        self._on_back.append(callback)

    def _back(self) -> None:
        with self._lock:
            since, self._down_since = self._down_since, None
        if since is None:
            return  # another thread's probe got there first
        log.info("Redis at %s answers again after %.0f s: using it again", shown(self.url),
                    time.monotonic() - since)
        for callback in self._on_back:
            callback()

    def close(self) -> None:
        self.client.close()


def open_link(settings: Settings) -> RedisLink | None:
    """The process's link to Redis from ``redis_url`` (None when it is empty), checked once."""
    if not settings.redis_url.strip():
        return None
    try:
        import redis  # noqa: F401  (an optional dependency: a clear message when it is missing)
    except ImportError as exc:
        raise InvalidInput(f"{ENV_PREFIX}REDIS_URL is set but the redis package is not installed: "
                           "pip install 'pmemo[redis]' (or leave the setting empty)") from exc
    link = RedisLink(settings.redis_url.strip(), settings.redis_prefix, retry_s=RETRY_S)
    link.check()
    return link


def shown(url: str) -> str:
    """A Redis URL fit for a log line: its password replaced by ``***``.

    >>> shown("redis://:s3cret@cache:6379/0")
    'redis://:***@cache:6379/0'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))

