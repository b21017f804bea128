"""Prometheus metrics at ``/metrics``: the same numbers whoever reads them.

Every series is about the whole process, never a tenant: request times by method, route
template and status; background jobs by status and the age of the oldest one not done;
embedding calls by size and time; the bytes of the database files; the process itself. No
label holds a tenant, a key, an id or anything a user wrote, so reading them tells one
tenant nothing of another's memory.

Who may read them is ``PMEMO_METRICS_ACCESS``:

- ``admin`` (default): an admin key (``Authorization: Bearer <admin key>``); tenant keys 403
- ``loopback``: anyone connecting from 127.0.0.1 or ::1, an admin key from elsewhere
- ``open``: anyone who can reach the port (keep it on a private network)
- ``off``: no ``/metrics`` (404); request ids and logs stay

>>> metrics = Metrics("0.1.0")
>>> metrics.request("GET", "/v1/stats", 200, 0.004)
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request, Response
from fastapi.security import HTTPAuthorizationCredentials
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Gauge,
    GCCollector,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)

from ..api import MemoryAPI
from ..files import sqlite_bytes
from ..memory import Memory
from . import deps

ACCESS = ("admin", "loopback", "open", "off")
JOB_STATES = ("pending", "running", "failed")
SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
TEXTS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)


class Metrics:
    """The app's own registry (never the global one: each app, and each test, starts at zero)."""

    def __init__(self, version: str) -> None:
        self.registry = r = CollectorRegistry()
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)
        GCCollector(registry=r)
        Info("pmemo_build", "The pmemo version serving.", registry=r).info({"version": version})
        self._requests = Histogram(
            "pmemo_http_request_duration_seconds",
            "Time to answer an HTTP request, by method, route template and status.",
            ("method", "route", "status"), buckets=SECONDS, registry=r)
        self._embed_texts = Histogram(
            "pmemo_embed_batch_size", "Texts per call to the embedder (kind: passage or query).",
            ("kind",), buckets=TEXTS, registry=r)
        self._embed_seconds = Histogram(
            "pmemo_embed_batch_seconds", "Time of one call to the embedder (kind: passage or query).",
            ("kind",), buckets=SECONDS, registry=r)
        self._jobs = Gauge("pmemo_jobs", "Background jobs in the store, by status.", ("status",), registry=r)
        self._oldest = Gauge("pmemo_jobs_oldest_age_seconds",
                             "Age of the oldest background job not done yet (0 when none).", registry=r)
        self._bytes = Gauge("pmemo_store_bytes", "Bytes of a store's database files (with -wal and -shm).",
                            ("store",), registry=r)

    def request(self, method: str, route: str, status: int, seconds: float) -> None:
        self._requests.labels(method, route, str(status)).observe(seconds)

    def embedded(self, kind: str, texts: int, seconds: float) -> None:
        """The embedder's hook (``Memory.on_embed``); called from the thread that embedded."""
        self._embed_texts.labels(kind).observe(texts)
        self._embed_seconds.labels(kind).observe(seconds)

    async def render(self, memory: MemoryAPI, keys: Any) -> bytes:
        """The exposition text, with the job and size gauges read now."""
        if isinstance(memory, Memory):  # not a test's stand-in
            now = await memory.vitals()
            for state in JOB_STATES:
                self._jobs.labels(state).set(now[f"jobs_{state}"])
            self._oldest.set(now["oldest_job_age_s"])
            self._bytes.labels("memory").set(now["store_bytes"])
        path = getattr(keys, "path", None)
        if path is not None:
            self._bytes.labels("keys").set(await asyncio.to_thread(sqlite_bytes, path))
        return await asyncio.to_thread(generate_latest, self.registry)


def install(app: FastAPI, memory: MemoryAPI, access: str) -> Metrics | None:
    """Add ``GET /metrics`` (outside the OpenAPI document) unless ``access`` is "off", and
    hook the memory's embedder to it; the caller times requests with ``observe.Observe``."""
    if access not in ACCESS:
        raise ValueError(f"metrics access must be one of {', '.join(ACCESS)}, not {access!r}")
    if access == "off":
        return None
    metrics = Metrics(app.version)
    if isinstance(memory, Memory):  # not a test's stand-in
        memory.on_embed(metrics.embedded)

    @app.get("/metrics", include_in_schema=False)
    async def scrape(
        request: Request, creds: Annotated[HTTPAuthorizationCredentials | None, Depends(deps.bearer)]
    ) -> Response:
        if not (access == "open" or (access == "loopback" and _from_loopback(request))):
            deps.admin(deps.key_info(request, creds))  # 401 without a key, 403 for a tenant's
        body = await metrics.render(deps.memory_of(request), request.app.state.keys)
        return Response(body, media_type=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"})

    return metrics


def _from_loopback(request: Request) -> bool:
    host = request.client.host if request.client else ""
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = addr.ipv4_mapped if isinstance(addr, ipaddress.IPv6Address) else None
    return (mapped or addr).is_loopback
