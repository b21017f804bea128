"""MCP's streamable HTTP transport at /mcp on the same server, behind the same API keys."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from ..errors import AuthError, Forbidden
from .keys import KeyStore
from .problems import PROBLEM_TYPE

LOOPBACK = ("127.0.0.1", "localhost", "::1")


class KeyGuard:
    """Rejects a request without a valid tenant key before it reaches the MCP session."""

    def __init__(self, app: Any, keys: KeyStore) -> None:
        self.app, self.keys = app, keys

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            auth = dict(scope.get("headers") or []).get(b"authorization", b"").decode("latin-1")
            kind, _, key = auth.partition(" ")
            try:
                info = self.keys.verify(key.strip() if kind.lower() == "bearer" else None)
                if info.tenant is None:
                    raise Forbidden("admin keys cannot read memory; use a tenant key")
            except (AuthError, Forbidden) as exc:
                status = 401 if isinstance(exc, AuthError) else 403
                body = json.dumps(
                    {
                        "type": "about:blank",
                        "title": "Unauthorized" if status == 401 else "Forbidden",
                        "status": status,
                        "code": exc.code,
                        "detail": str(exc),
                    }
                ).encode()
                headers = [
                    (b"content-type", PROBLEM_TYPE.encode()),
                    (b"www-authenticate", b"Bearer"),
                ]
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def mount(app: FastAPI, server: Any, keys: KeyStore, *, host: str = "127.0.0.1") -> None:
    """Add POST/GET/DELETE /mcp; the app's lifespan must run ``server.session_manager``."""
    security = None
    if host not in LOOPBACK:
        # Bound beyond loopback: the bearer key is the protection, not the Host header.
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    server.streamable_http_app(
        stateless_http=True, json_response=True, host=host, transport_security=security
    )
    endpoint = KeyGuard(StreamableHTTPASGIApp(server.session_manager), keys)
    app.router.routes.append(Route("/mcp", endpoint=endpoint, methods=["GET", "POST", "DELETE"]))
