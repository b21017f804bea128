"""API keys beside a PostgreSQL store live in the database (issue 21): two servers on one
database know the same keys, whichever made or revoked them, over REST and MCP alike; the
CLI's ``pmemo keys`` reaches them too; a ``keys.sqlite3`` from before is copied in once.
Two ``create_app`` instances in this process stand for two replicas (tests/replicas runs
real processes)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from pmemo import Memory, Settings, errors
from pmemo.cli.main import _register, app
from pmemo.server import SQLiteKeyStore, create_app, open_key_store

BASE = "http://127.0.0.1:8765"  # MCP's DNS-rebinding guard wants a loopback Host
MCP = {"Accept": "application/json, text/event-stream"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@asynccontextmanager
async def replica(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    """A server as ``pmemo serve`` builds it over ``settings``, running (MCP's lifespan too)."""
    memory = await Memory.open(settings=settings)
    keys = open_key_store(settings)
    server = create_app(memory, keys)
    try:
        async with server.router.lifespan_context(server), httpx.AsyncClient(
                transport=httpx.ASGITransport(app=server), base_url=BASE) as client:
            yield client
    finally:
        await memory.close()
        keys.close()


def cli(store: str, data: Path, *args: str) -> str:
    _register()
    r = CliRunner().invoke(app, [*args, "--data", str(data)], env={"PMEMO_STORE": store})
    assert r.exit_code == 0, r.output
    return r.output


async def test_a_key_made_through_one_server_works_on_the_other(postgres_url: str, tmp_path: Path) -> None:
    admin = cli(postgres_url, tmp_path / "ops", "keys", "create", "--admin").strip().splitlines()[-1]
    settings = [Settings(store=postgres_url, data=str(tmp_path / name), embedder="hashing", rate_limit="off")
                for name in ("a", "b")]  # each replica its own folder: nothing shared but the database
    async with AsyncExitStack() as stack:
        a, b = [await stack.enter_async_context(replica(s)) for s in settings]
        made = (await a.post("/v1/admin/keys", json={"tenant": "acme", "label": "agent"}, headers=bearer(admin)))
        assert made.status_code == 201, made.text
        key, key_id = made.json()["key"], made.json()["id"]

        turn = {"user_id": "u1", "session_id": "s1", "content": "Lucky cannot eat grapes."}
        written = await b.post("/v1/turns", json=turn, headers=bearer(key))
        assert written.status_code == 201, written.text
        assert (await a.get("/v1/turns", params={"user_id": "u1"}, headers=bearer(key))).json()["turns"]
        assert (await b.post("/mcp", json=INITIALIZE, headers={**MCP, **bearer(key)})).status_code == 200
        listed = (await b.get("/v1/admin/keys", params={"tenant": "acme"}, headers=bearer(admin))).json()["keys"]
        assert [(k["id"], k["label"], bool(k["last_used_at"])) for k in listed] == [(key_id, "agent", True)]
        tenants = (await b.get("/v1/admin/tenants", headers=bearer(admin))).json()["tenants"]
        assert [(t["tenant"], t["active_keys"]) for t in tenants] == [("acme", 1)]
        assert key_id in cli(postgres_url, tmp_path / "ops", "keys", "list")

        # revoked through b: a refuses it from its next request on, on REST and on MCP
        assert (await b.delete(f"/v1/admin/keys/{key_id}", headers=bearer(admin))).status_code == 200
        refused = await a.get("/v1/stats", headers=bearer(key))
        assert refused.status_code == 401 and refused.json()["detail"] == "unknown or revoked API key"
        assert (await a.post("/mcp", json=INITIALIZE, headers={**MCP, **bearer(key)})).status_code == 401
        assert (await a.get("/readyz")).status_code == 200
    assert not list(tmp_path.rglob("keys.sqlite3"))  # no key file anywhere: they are in the database


class Unreachable(SQLiteKeyStore):
    """A key store whose database has gone away (a restart): every verify says so."""

    def verify(self, key: str | None) -> Any:
        raise errors.Unavailable("cannot use PostgreSQL at db:5432/pmemo: connection refused")


async def test_an_unreachable_key_store_gives_503_with_retry_after(tmp_path: Path) -> None:
    memory = await Memory.open(str(tmp_path / "memory"), embedder="hashing")
    keys = Unreachable(":memory:")
    server = create_app(memory, keys)
    try:
        async with server.router.lifespan_context(server), httpx.AsyncClient(
                transport=httpx.ASGITransport(app=server), base_url=BASE, headers=bearer("pm_any")) as c:
            for r in (await c.get("/v1/stats"), await c.post("/mcp", json=INITIALIZE, headers=MCP)):
                assert r.status_code == 503 and r.headers["retry-after"] == "1", r.text
                assert r.json()["code"] == "unavailable"
    finally:
        await memory.close()
        keys.close()


def test_a_keys_file_from_before_is_copied_into_postgres_once(postgres_url: str, tmp_path: Path,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    old = SQLiteKeyStore.in_dir(tmp_path)
    kept, gone = old.issue_key("acme", label="laptop"), old.issue_key("acme")
    admin = old.create_key(admin=True)
    old.revoke(gone.id)
    old.verify(kept.key)
    before = old.keys()
    old.close()
    settings = Settings(store=postgres_url, data=str(tmp_path))

    with caplog.at_level(logging.WARNING, logger="pmemo.keys"):
        keys = open_key_store(settings)
    try:
        assert "copied 3 API key(s)" in caplog.text
        assert keys.keys() == before  # ids, labels, times, revocations: as they were
        assert keys.verify(kept.key).id == kept.id and keys.verify(admin).admin
        with pytest.raises(errors.AuthError):
            keys.verify(gone.key)
        assert [(t["tenant"], t["active_keys"]) for t in keys.tenants()] == [("acme", 1)]
        keys.revoke_tenant("acme")
    finally:
        keys.close()

    later = SQLiteKeyStore.in_dir(tmp_path)  # the file changes after the copy: it is not read again
    late = later.create_key("beta")
    later.close()
    keys = open_key_store(settings)
    try:
        with pytest.raises(errors.AuthError):
            keys.verify(late)
        assert keys.tenants() == []  # the revoked tenant is not brought back
    finally:
        keys.close()
