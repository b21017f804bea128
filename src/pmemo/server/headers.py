"""Headers every response carries: no MIME sniffing (a JSON body is never run as a script
or shown as a page) and no Referer (the inspector's URL may carry a key in its fragment;
a Referer never has the fragment, but its path and query are nobody else's business)."""

from __future__ import annotations

from typing import Any

from starlette.types import Message, Receive, Scope, Send

EVERY_RESPONSE = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """ASGI middleware: adds ``EVERY_RESPONSE`` to each HTTP response that lacks them
    (pure ASGI, so streamed bodies pass through untouched)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {name.lower() for name, _ in headers}
                headers += [h for h in EVERY_RESPONSE if h[0] not in have]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)
