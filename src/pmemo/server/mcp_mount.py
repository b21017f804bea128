"""MCP's streamable HTTP transport at /mcp on the same server, behind the same API keys.

The server is stateless (a JSON answer to each POST), so there is no stream to GET and no
session to DELETE: both get 405 with ``Allow: POST``, as the MCP spec allows, instead of an
SSE stream that nothing ever writes to and that stays open. Each key may have at most
``max_concurrent`` requests in flight (setting ``mcp_max_concurrent``); past it, 429.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import FastAPI
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from ..errors import AuthError, Forbidden, RateLimited, Unavailable
from . import limits
from .keys import KeyStore, hash_key
from .problems import PROBLEM_TYPE, TITLES, limit_problem

LOOPBACK = ("127.0.0.1", "localhost", "::1")


class KeyGuard:
    """Rejects a request without a valid tenant key before it reaches the MCP session, any
    method but POST (405), and a key's request past its ``max_concurrent`` in flight (429)."""

    def __init__(self, app: Any, keys: KeyStore, max_concurrent: int = 0) -> None:
        self.app, self.keys, self.max_concurrent = app, keys, max_concurrent
        self.in_flight: dict[str, int] = {}  # per key hash; only touched on the event loop

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] != "POST":
            detail = "this MCP server is stateless: send each JSON-RPC message with POST /mcp"
            await _problem(send, 405, "method_not_allowed", detail, [(b"allow", b"POST")])
            return
        auth = dict(scope.get("headers") or []).get(b"authorization", b"").decode("latin-1")
        kind, _, key = auth.partition(" ")
        key = key.strip() if kind.lower() == "bearer" else ""
        try:
            # off the event loop: on PostgreSQL a key is verified by a query
            info = await asyncio.to_thread(self.keys.verify, key or None)
            if info.tenant is None:
                raise Forbidden("admin keys cannot read memory; use a tenant key")
        except (AuthError, Forbidden) as exc:
            status = 401 if isinstance(exc, AuthError) else 403
            await _problem(send, status, exc.code, str(exc), [(b"www-authenticate", b"Bearer")])
            return
        except Unavailable as exc:  # the key store's database restarts: as on REST, 503 and when to retry
            await _problem(send, 503, exc.code, "the database cannot be reached just now; try again shortly",
                           [(b"retry-after", str(exc.retry_after).encode())])
            return
        try:
            limits.hit(scope["app"], key)  # one budget per key, shared with REST
        except RateLimited as exc:
            await limit_problem(exc)(scope, receive, send)
            return
        who = hash_key(key)
        if self.max_concurrent and self.in_flight.get(who, 0) >= self.max_concurrent:
            busy = RateLimited(
                f"this key already has {self.max_concurrent} MCP requests in flight; retry when one has "
                "finished (PMEMO_MCP_MAX_CONCURRENT)",
                setting="PMEMO_MCP_MAX_CONCURRENT", limit=self.max_concurrent, retry_after=1)
            await limit_problem(busy)(scope, receive, send)
            return
        self.in_flight[who] = self.in_flight.get(who, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.in_flight.pop(who) - 1
            if left:
                self.in_flight[who] = left


async def _problem(send: Send, status: int, code: str, detail: str,
                   headers: list[tuple[bytes, bytes]]) -> None:
    title = TITLES.get(status, "Error")
    body = json.dumps(
        {"type": "about:blank", "title": title, "status": status, "code": code, "detail": detail}
    ).encode()
    headers = [(b"content-type", PROBLEM_TYPE.encode()), *headers]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def mount(
    app: FastAPI, server: Any, keys: KeyStore, *, host: str = "127.0.0.1", max_concurrent: int = 0
) -> None:
    """Add /mcp (POST only); the app's lifespan must run ``server.session_manager``.
    ``max_concurrent``: requests one key may have in flight (0 = no cap)."""
    security = None
    if host not in LOOPBACK:
        # Bound beyond loopback: the bearer key is the protection, not the Host header.
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    server.streamable_http_app(
        stateless_http=True, json_response=True, host=host, transport_security=security
    )
    endpoint = KeyGuard(StreamableHTTPASGIApp(server.session_manager), keys, max_concurrent)
    # every method reaches the guard, which answers 405 itself, saying why there is no GET
    app.router.routes.append(Route("/mcp", endpoint=endpoint, methods=None))
