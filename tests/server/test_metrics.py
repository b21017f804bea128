"""/metrics (issue 19, operations): a real server on loopback is scraped as Prometheus would.

Requests are timed under their route template, the job queue shows a job the worker holds
(depth and age), the worker's embedding calls are counted and timed, and the database
files are measured. Nothing in the output names a tenant, a key, an id or a word a user
wrote. Who may read it follows ``PMEMO_METRICS_ACCESS``."""

from __future__ import annotations

import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from prometheus_client.parser import text_string_to_metric_families

from pmemo import Settings
from pmemo.embedders.hashing import HashingEmbedder
from pmemo.errors import InvalidInput
from pmemo.server import KeyStore, create_app
from pmemo.stores.sqlite.store import SQLiteStore

from .conftest import BASE
from .live import LiveServer, open_memory

MARK = "zebrafish"  # in every word a user sends: it must never reach /metrics
ROUTE_HIST = "pmemo_http_request_duration_seconds"


class GatedEmbedder(HashingEmbedder):
    """The hashing embedder, whose passage batches wait until the gate opens: while it is
    shut, the worker holds its job, as a busy worker would."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        self.gate.wait(30)
        return super().embed_passages(texts)


def samples(text: str) -> list[tuple[str, dict[str, str], float]]:
    return [(s.name, s.labels, s.value) for fam in text_string_to_metric_families(text) for s in fam.samples]


def value(text: str, name: str, **labels: str) -> float:
    found = [v for n, ls, v in samples(text) if n == name and all(ls.get(k) == w for k, w in labels.items())]
    assert found, f"no sample {name} {labels}"
    return sum(found)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, GatedEmbedder]]:
    gated = GatedEmbedder()
    live = LiveServer(tmp_path_factory.mktemp("metrics"), embedder=gated,  # type: ignore[arg-type]
                      settings=Settings.from_env(rate_limit="off")).start()
    try:
        yield live, gated
    finally:
        gated.gate.set()
        live.stop()


def scrape(live: LiveServer) -> str:
    r = httpx.get(f"{live.url}/metrics", headers={"Authorization": f"Bearer {live.admin_key}"}, timeout=10)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=")
    return r.text


def test_metrics_after_requests_and_a_worker_job(server: tuple[LiveServer, GatedEmbedder]) -> None:
    live, gated = server
    user = {"Authorization": f"Bearer {live.key}"}
    with httpx.Client(base_url=live.url, headers=user, timeout=10) as c:
        added = c.post("/v1/turns", json={"user_id": f"{MARK}_user", "session_id": f"{MARK}_s",
                                          "content": f"my {MARK} lives in a tank called {MARK}tank"})
        assert added.status_code == 201, added.text

        # the worker holds the job (its embedding waits): the queue shows it, and its age grows
        held = scrape(live)
        deadline = time.monotonic() + 10
        while value(held, "pmemo_jobs", status="running") < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
            held = scrape(live)
        assert value(held, "pmemo_jobs", status="pending") + value(held, "pmemo_jobs", status="running") >= 1
        time.sleep(0.05)
        assert value(scrape(live), "pmemo_jobs_oldest_age_seconds") > 0

        gated.gate.set()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            text = scrape(live)
            if (value(text, "pmemo_jobs", status="pending") + value(text, "pmemo_jobs", status="running") == 0
                    and value(text, "pmemo_embed_batch_size_count", kind="passage") >= 1):
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the worker did not finish its job in 30 s")

        assert c.post("/v1/search", json={"user_id": f"{MARK}_user", "query": f"where is {MARK}?"}).status_code == 200
        for _ in range(3):
            assert c.get("/v1/key/987654").status_code == 404  # an id in the path, one series
        assert c.get(f"/{MARK}/nowhere").status_code == 404
        assert c.get("/healthz").status_code == 200
    text = scrape(live)

    # latency histograms, per route template
    buckets = [(ls, v) for n, ls, v in samples(text) if n == f"{ROUTE_HIST}_bucket"]
    key_route = [(ls, v) for ls, v in buckets if ls["route"] == "/v1/key/{key_id}"]
    assert key_route and {ls["method"] for ls, _ in key_route} == {"GET"}
    assert {ls["status"] for ls, _ in key_route} == {"404"}
    assert max(v for ls, v in key_route if ls["le"] == "+Inf") == 3
    assert value(text, f"{ROUTE_HIST}_count", route="/v1/turns", method="POST", status="201") == 1
    assert value(text, f"{ROUTE_HIST}_count", route="/v1/search", method="POST", status="200") == 1
    assert value(text, f"{ROUTE_HIST}_count", route="/healthz") == 1
    assert value(text, f"{ROUTE_HIST}_count", route="unmatched", status="404") == 1
    assert value(text, f"{ROUTE_HIST}_count", route="/metrics") >= 3
    routes = {ls["route"] for ls, _ in buckets}
    assert all(r == "unmatched" or r.startswith("/") for r in routes), routes

    # the queue is empty again; the worker's embedding was counted and timed, the query's too
    assert value(text, "pmemo_jobs", status="pending") == 0
    assert value(text, "pmemo_jobs_oldest_age_seconds") == 0
    assert value(text, "pmemo_embed_batch_size_count", kind="passage") >= 1
    assert value(text, "pmemo_embed_batch_size_sum", kind="passage") >= 1
    assert value(text, "pmemo_embed_batch_seconds_sum", kind="passage") > 0
    assert value(text, "pmemo_embed_batch_size_count", kind="query") >= 1

    # the database files are measured; the process is described
    assert value(text, "pmemo_store_bytes", store="memory") > 0
    assert value(text, "pmemo_store_bytes", store="keys") > 0
    assert value(text, "process_resident_memory_bytes") > 0

    # no tenant, key, id or user word anywhere
    for secret in (MARK, live.key, live.admin_key, "987654"):
        assert secret not in text
    labels = {k: w for _, ls, _ in samples(text) for k, w in ls.items()}
    assert "t1" not in labels.values() and not {"tenant", "tenant_id", "user_id", "key"} & set(labels)


def test_who_may_read_metrics_by_default(server: tuple[LiveServer, GatedEmbedder]) -> None:
    live, _ = server
    anon = httpx.get(f"{live.url}/metrics", timeout=10)
    assert anon.status_code == 401 and anon.headers["content-type"].startswith("application/problem+json")
    tenant = httpx.get(f"{live.url}/metrics", headers={"Authorization": f"Bearer {live.key}"}, timeout=10)
    assert tenant.status_code == 403  # a tenant's key never sees the others' traffic
    assert "pmemo_jobs" not in anon.text + tenant.text
    scrape(live)


@asynccontextmanager
async def in_process(tmp_path: Path, keys: KeyStore, access: str,
                     client: tuple[str, int]) -> AsyncIterator[httpx.AsyncClient]:
    """The app in this process, ``PMEMO_METRICS_ACCESS=access``, called from ``client``."""
    memory = await open_memory(tmp_path / access, settings=Settings(metrics_access=access))
    try:
        app = create_app(memory, keys, mcp=False, web=False)
        transport = httpx.ASGITransport(app=app, client=client)
        async with httpx.AsyncClient(transport=transport, base_url=BASE) as c:
            yield c
    finally:
        await memory.close()


FAR = ("203.0.113.7", 40000)  # a documentation address: only a label in the ASGI scope, no traffic


async def test_loopback_access(tmp_path: Path, keys: KeyStore, admin_key: str) -> None:
    async with in_process(tmp_path, keys, "loopback", ("127.0.0.1", 40000)) as near:
        assert (await near.get("/metrics")).status_code == 200
    async with in_process(tmp_path, keys, "loopback", ("::1", 40000)) as near6:
        assert (await near6.get("/metrics")).status_code == 200
    async with in_process(tmp_path, keys, "loopback", FAR) as far:
        assert (await far.get("/metrics")).status_code == 401
        assert (await far.get("/metrics", headers={"Authorization": f"Bearer {admin_key}"})).status_code == 200


async def test_open_and_off(tmp_path: Path, keys: KeyStore) -> None:
    async with in_process(tmp_path, keys, "open", FAR) as c:
        assert (await c.get("/metrics")).status_code == 200
    async with in_process(tmp_path, keys, "off", ("127.0.0.1", 40000)) as c:
        off = await c.get("/metrics")
        assert off.status_code == 404 and off.headers["x-request-id"]  # ids stay without metrics


def test_metrics_stay_out_of_the_openapi_document(app: Any) -> None:
    assert "/metrics" not in app.openapi()["paths"]


def test_a_bad_access_setting_fails_at_start() -> None:
    with pytest.raises(InvalidInput, match="metrics_access"):
        Settings(metrics_access="public")


def test_the_store_reports_its_queue_and_size(tmp_path: Path) -> None:
    store = SQLiteStore.open(tmp_path / "data")
    try:
        assert store.jobs.job_queue() == {}
        before = time.time()
        first = store.jobs.enqueue("turns", [1])
        store.jobs.enqueue("turns", [2])
        queue = store.jobs.job_queue()
        assert queue["pending"][0] == 2 and before - 1 <= queue["pending"][1] <= time.time()
        claimed = store.jobs.claim(1)
        store.jobs.fail(claimed[0].id, "boom", retry=False)
        assert claimed[0].id == first
        assert {k: n for k, (n, _) in store.jobs.job_queue().items()} == {"pending": 1, "failed": 1}
        assert store.size_bytes() >= (tmp_path / "data" / "pmemo.db").stat().st_size > 0
    finally:
        store.close()
