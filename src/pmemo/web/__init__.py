"""The web inspector: static HTML, JS and CSS served at / (no build step, no CDN).

The page holds an API key, so it runs under a strict Content-Security-Policy: only its own
script and stylesheet (no inline script, style or event handler anywhere in it), requests
only to this server, and no framing by another site.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response

STATIC = Path(__file__).parent / "static"

CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",  # data: for the empty favicon
        "connect-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ]
)
PAGE_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class InspectorFiles(StaticFiles):
    """The page's files, each with the page's headers (/static/index.html is the page too)."""

    def file_response(
        self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Any, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers.update(PAGE_HEADERS)
        return response


def install(app: FastAPI) -> None:
    """Serve the page at / and its assets under /static."""
    app.mount("/static", InspectorFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache", **PAGE_HEADERS})
