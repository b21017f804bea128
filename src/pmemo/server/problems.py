"""The one table from pmemo's exception tree to HTTP status, and the JSON problem body.

Nothing else in the server decides a status code for a pmemo error. Unknown
exceptions become a bare 500 with no detail: a stack trace never leaves the process.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from .. import errors, logs
from . import input_errors, observe

log = logging.getLogger("pmemo.server")

# Most specific first: the first matching class wins.
STATUS: tuple[tuple[type[errors.PMemoError], int], ...] = (
    (errors.InvalidInput, 422),
    (errors.NotFound, 404),
    (errors.Conflict, 409),
    (errors.AuthError, 401),
    (errors.Forbidden, 403),
    (errors.SizeQuotaExceeded, 413),
    (errors.TooLarge, 413),
    (errors.LimitExceeded, 429),  # quotas of turns and scopes, rate limits
    (errors.StoreLocked, 503),
    (errors.Unavailable, 503),  # with Retry-After
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
    429: "Too Many Requests",
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
    if isinstance(exc, errors.Unavailable):  # the database restarts: the same request may work soon
        log.warning("%s %s: %s", request.method, request.url.path, exc)
        response = problem(status, exc.code, "the database cannot be reached just now; try again shortly")
        response.headers["Retry-After"] = str(exc.retry_after)
        return response
    if status >= 500:
        log.error("%s %s failed: %s: %s", request.method, request.url.path, type(exc).__name__, exc)
        return problem(status, exc.code, "the server could not complete this request; see its log")
    if isinstance(exc, errors.LimitExceeded):
        return limit_problem(exc)
    version = getattr(exc, "current_version", None)
    if version is None:
        return problem(status, exc.code, str(exc))
    response = problem(status, exc.code, str(exc), current_version=version)
    response.headers["ETag"] = f'"{version}"'
    return response


def limit_problem(exc: errors.LimitExceeded) -> JSONResponse:
    """A limit's problem body names its setting and value; a rate limit says when to retry."""
    response = problem(status_of(exc), exc.code, str(exc), setting=exc.setting, limit=exc.limit)
    if isinstance(exc, errors.RateLimited):
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    details = input_errors.plain_all(exc.errors())
    return problem(422, "invalid_input", input_errors.detail(details), errors=details)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400 and isinstance(exc.__cause__, ValueError):
        # FastAPI's 400 for a body it could not decode (not UTF-8): an input error like any other
        return problem(422, "invalid_input", "the body is not valid JSON: it is not UTF-8 text")
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    response = problem(exc.status_code, code, str(exc.detail))
    response.headers.update(exc.headers or {})
    if exc.status_code == 405:
        response.headers["Allow"] = ", ".join(allowed_methods(request))
    return response


def allowed_methods(request: Request) -> list[str]:
    """Every method this path takes: Starlette's 405 names only those of the first route it
    matched (GET /v1/key/{id}, when PUT and DELETE are routes of their own). As OpenAPI reads
    paths, a path without parameters (/v1/people/resolve) goes before a template that also
    matches it (/v1/people/{person_id}); a path the document does not have asks the routes."""
    documented = {}
    for template, item in request.app.openapi().get("paths", {}).items():
        pattern = "".join("[^/]+" if part.startswith("{") else re.escape(part)
                          for part in re.split(r"(\{[^}]+\})", template))
        if re.fullmatch(pattern, request.url.path):
            documented[template] = [m.upper() for m in item if m.upper() in _METHODS]
    concrete = [methods for template, methods in documented.items() if "{" not in template]
    if documented:
        chosen = concrete or list(documented.values())
        return [m for m in _METHODS if any(m in methods for methods in chosen)]
    return [m for m in _METHODS if any(
        route.matches({**request.scope, "method": m})[0] == Match.FULL for route in request.app.router.routes)]


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    # Starlette answers an escaped exception outside every middleware, so the request id
    # that observe.Observe gave the request is bound (and sent back) here again
    rid = request.scope.get(observe.SCOPE_KEY)
    with logs.bound(rid):
        log.exception("%s %s: unexpected error", request.method, request.url.path)
    response = problem(500, "internal_error", "the server could not complete this request; see its log")
    if rid:
        response.headers["X-Request-ID"] = rid
    return response


def install(app: FastAPI) -> None:
    """Register the handlers: pmemo errors, validation, HTTP errors, anything else."""
    app.add_exception_handler(errors.PMemoError, _pmemo_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
