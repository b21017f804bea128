"""What every HTTP request leaves behind: an id, a log line and a time by route.

The caller's ``X-Request-ID`` is kept when it is a safe token, else a new id is made; the
response carries it back, every log line written for the request carries it
(``pmemo.logs.request_id``), and the request's time goes to ``/metrics`` under its route
template (``/v1/key/{key_id}``, never the path a caller typed: ids stay out of metrics and
the number of series stays bounded).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import logs

HEADER = b"x-request-id"
SCOPE_KEY = "pmemo.request_id"  # where the error handlers outside this middleware find the id
UNMATCHED = "unmatched"  # the route label of a path no route took (404)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

access = logging.getLogger("pmemo.access")


def route_label(scope: Scope) -> str:
    """The template of the route that took the request ("/v1/key/{key_id}", "/mcp", a mount's
    prefix such as "/static"), or ``UNMATCHED``."""
    path = getattr(scope.get("route"), "path", None)
    if not isinstance(path, str):
        return UNMATCHED
    return path or "/"


class Observe:
    """ASGI middleware, the outermost: request id, access log line (level INFO) and timing.
    ``metrics`` (a ``server.metrics.Metrics``, or None when /metrics is off) gets each time."""

    def __init__(self, app: ASGIApp, metrics: Any = None) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        sent = dict(scope.get("headers") or []).get(HEADER)
        rid = logs.accept_request_id(sent.decode("latin-1") if sent else None)
        scope[SCOPE_KEY] = rid
        status = 500  # unless a response starts: an exception escaped to the error handler

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [h for h in message.get("headers", []) if h[0].lower() != HEADER]
                message = {**message, "headers": [*headers, (HEADER, rid.encode())]}
            await send(message)

        start = time.perf_counter()
        with logs.bound(rid):
            try:
                await self.app(scope, receive, sending)
            finally:
                self._done(scope, status, time.perf_counter() - start)

    def _done(self, scope: Scope, status: int, seconds: float) -> None:
        method = scope["method"] if scope["method"] in METHODS else "other"
        route = route_label(scope)
        if self.metrics is not None:
            self.metrics.request(method, route, status, seconds)
        access.info("%s %s %d %.1f ms", method, route, status, seconds * 1000,
                    extra={"method": method, "route": route, "status": status,
                           "duration_ms": round(seconds * 1000, 2)})
