"""The one table from pmemo's exception tree to HTTP status, and the JSON problem body.

Nothing else in the server decides a status code for a pmemo error. Unknown
exceptions become a bare 500 with no detail: a stack trace never leaves the process.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import errors

log = logging.getLogger("pmemo.server")

# Most specific first: the first matching class wins.
STATUS: tuple[tuple[type[errors.PMemoError], int], ...] = (
    (errors.InvalidInput, 422),
    (errors.NotFound, 404),
    (errors.Conflict, 409),
    (errors.AuthError, 401),
    (errors.Forbidden, 403),
    (errors.StoreLocked, 503),
    (errors.StoreCorrupt, 500),
    (errors.StoreError, 503),
    (errors.EmbedderError, 503),
    (errors.LLMError, 502),
    (errors.PMemoError, 500),
)

TITLES = {
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    413: "Content Too Large",
    422: "Unprocessable Content",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
}

PROBLEM_TYPE = "application/problem+json"


def status_of(exc: errors.PMemoError) -> int:
    for cls, status in STATUS:
        if isinstance(exc, cls):
            return status
    return 500


def problem(status: int, code: str, detail: str, **extra: Any) -> JSONResponse:
    body = {
        "type": "about:blank",
        "title": TITLES.get(status, "Error"),
        "status": status,
        "code": code,
        "detail": detail,
        **extra,
    }
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse(
        jsonable_encoder(body), status_code=status, headers=headers, media_type=PROBLEM_TYPE
    )


async def _pmemo_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, errors.PMemoError)
    status = status_of(exc)
    if status >= 500:
        log.error("%s %s failed: %s: %s", request.method, request.url.path, type(exc).__name__, exc)
        return problem(status, exc.code, "the server could not complete this request; see its log")
    return problem(status, exc.code, str(exc))


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    details = [
        {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
        for e in exc.errors()
    ]
    first = details[0] if details else {"loc": [], "msg": "invalid request"}
    where = ".".join(str(p) for p in first["loc"])
    return problem(422, "invalid_input", f"{where}: {first['msg']}", errors=details)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return problem(exc.status_code, code, str(exc.detail))


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("%s %s: unexpected error", request.method, request.url.path)
    return problem(500, "internal_error", "the server could not complete this request; see its log")


class BodyLimit:
    """413 as a problem body when Content-Length is over the cap (FastAPI's own limit,
    where it has one, still stops chunked bodies, with a plain-text 413)."""

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            length = dict(scope.get("headers") or []).get(b"content-length", b"0")
            if length.isdigit() and int(length) > self.max_bytes:
                response = problem(413, "too_large", f"request body is over {self.max_bytes} bytes")
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def install(app: FastAPI) -> None:
    """Register the handlers: pmemo errors, validation, HTTP errors, anything else."""
    app.add_exception_handler(errors.PMemoError, _pmemo_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
