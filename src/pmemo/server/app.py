"""The FastAPI app: routes, error table, docs, MCP at /mcp and the inspector at /.

>>> app = create_app(memory, KeyStore.in_dir("./pmemo_data"))  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse

from .. import errors
from ..api import MemoryAPI
from . import (
    docs,
    limits,
    metrics,
    problems,
    routes_admin,
    routes_blocks,
    routes_diary,
    routes_graph,
    routes_inspect,
    routes_jobs,
    routes_memory,
    routes_people,
    routes_person,
)
from .deps import known_query, memory_of
from .headers import SecurityHeaders
from .keys import KeyStore
from .observe import Observe

log = logging.getLogger("pmemo.server")

# How long a thread keeps the interpreter lock while another asks for it (Python's default is
# 5 ms). The event loop takes the lock back after every select and every socket write, and a
# read's or the worker's Python holds it meanwhile: bench/neighbours.py --quick --phases import,
# SQLite, three interleaved pairs on a loaded 2-core box, /healthz p95 / max at 5 ms 30/434,
# 39/359, 27/291 ms against 21/184, 29/119, 14/123 at 1 ms, B's context p50 alike.
SWITCH_S = 0.001

DESCRIPTION = """Memory for LLM agents over HTTP.

Every `/v1` route needs `Authorization: Bearer <key>` (make one with
`pmemo keys create --tenant T`) and only ever sees that key's tenant.
Errors are JSON problem bodies: `{"status", "code", "detail"}`.
"""


def create_app(
    memory: MemoryAPI,
    keys: KeyStore,
    *,
    cors_origins: Sequence[str] = (),
    mcp: bool = True,
    web: bool = True,
    host: str = "127.0.0.1",
    sweep_every: float = 0,
) -> FastAPI:
    """Build the server over an open ``Memory``; the caller opens and closes both stores.

    CORS is off unless ``cors_origins`` names the origins to allow. With ``sweep_every``
    (seconds, 0 = off) the app runs ``memory.sweep(dry_run=False)`` that often while it is up.
    """
    settings = limits.settings_of(memory)
    rate = limits.rate_limiter(memory, settings)  # a bad value fails here, at start; Redis if memory has it
    mcp_server = _mcp_server(memory, keys) if mcp else None
    app = FastAPI(title="pmemo", version=_version(), description=DESCRIPTION, docs_url=None, redoc_url=None,
                  lifespan=_lifespan(memory, mcp_server, sweep_every, keywords=settings.run_jobs
                                     and settings.diary_enabled))
    app.add_middleware(limits.BodyLimit, settings=settings)
    app.state.rate = rate
    app.state.memory = memory
    app.state.keys = keys
    problems.install(app)
    app.state.docs = docs.install(app)
    _routes(app)
    _health(app)
    measured = metrics.install(app, memory, settings.metrics_access)
    _document_errors(app)
    if mcp_server is not None:
        from .mcp_mount import mount

        mount(app, mcp_server, keys, host=host, max_concurrent=settings.mcp_max_concurrent)
    if web:
        from ..web import install as install_web

        install_web(app)
    if cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=list(cors_origins), allow_methods=["*"],
                           allow_headers=["Authorization", "Content-Type"])
    app.add_middleware(SecurityHeaders)  # outside all but Observe, so every answer has them
    app.add_middleware(Observe, metrics=measured)  # the outermost: ids and times every answer
    return app


ROUTERS = (routes_memory, routes_inspect, routes_person, routes_people, routes_blocks, routes_graph,
           routes_diary, routes_jobs, routes_admin)


def _routes(app: FastAPI) -> None:
    """Every ``/v1`` router, each with the problem responses it can give."""
    responses: dict[int | str, dict[str, Any]] = {
        401: {"model": problems_model(), "description": "missing or wrong API key"},
        413: {"model": problems_model(), "description": "body, batch or stored bytes over a limit"},
        422: {"model": problems_model(), "description": "invalid input"},
        429: {"model": problems_model(), "description": "rate limit or quota reached"},
    }
    for module in ROUTERS:
        app.include_router(module.router, dependencies=[Depends(known_query)], responses=responses)


def _lifespan(memory: MemoryAPI, mcp_server: Any, sweep_every: float, keywords: bool = False) -> Any:
    """The app's lifespan: jieba loaded before the first request (``zh.warm``, off the event
    loop: the first Chinese read paid 1-3 s for it), then the interpreter's switch interval at
    ``SWITCH_S``, the MCP session manager and the sweeper while it is up."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        from ..text.lang import zh

        await asyncio.to_thread(zh.warm, keywords)
        async with AsyncExitStack() as stack:
            stack.callback(sys.setswitchinterval, sys.getswitchinterval())
            sys.setswitchinterval(SWITCH_S)
            if mcp_server is not None:
                await stack.enter_async_context(mcp_server.session_manager.run())
            if sweep_every > 0:
                task = asyncio.create_task(sweep_forever(memory, sweep_every))
                app.state.sweeper = task
                stack.push_async_callback(_cancel, task)
            yield

    return lifespan


async def sweep_forever(memory: MemoryAPI, every: float) -> None:
    """``memory.sweep(dry_run=False)`` every ``every`` seconds (first after one interval);
    a failed sweep is logged and the next one still runs."""
    while True:
        await asyncio.sleep(every)
        try:
            report = await memory.sweep(dry_run=False)
            if report.get("actions"):
                log.info(
                    "sweep: batch %s, %d action(s)", report.get("batch"), len(report["actions"])
                )
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - keep sweeping; the log says why this one failed
            log.exception("scheduled sweep failed")


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def problems_model() -> type:
    from ..schemas import Problem

    return Problem


def _document_errors(app: FastAPI) -> None:
    """The OpenAPI document with every operation's problem responses (``error_docs``)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            from . import error_docs

            problem = problems_model().model_json_schema(ref_template="#/components/schemas/{model}")  # type: ignore[attr-defined]
            app.openapi_schema = error_docs.document(build(), problem)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _mcp_server(memory: MemoryAPI, keys: KeyStore) -> Any:
    from ..mcp import build_server

    return build_server(memory, tenant=None, keys=keys)


def _health(app: FastAPI) -> None:
    @app.get("/healthz", tags=["health"])
    async def healthz() -> dict[str, str]:
        """The process is up."""
        return {"status": "ok"}

    @app.get("/readyz", tags=["health"], responses={503: {"description": "not ready"}})
    async def readyz(request: Request) -> JSONResponse:
        """The memory store and the key store answer."""
        try:
            await memory_of(request).stats(tenant_id="default")
            await asyncio.to_thread(request.app.state.keys.tenants)  # a query on PostgreSQL
        except (errors.PMemoError, OSError, RuntimeError) as exc:
            return problems.problem(503, "not_ready", f"not ready: {type(exc).__name__}")
        return JSONResponse({"status": "ready"})


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("pmemo")
    except Exception:  # noqa: BLE001 - a source checkout has no metadata
        return "0"
