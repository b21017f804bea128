"""One API key revoked by its id: listed with its id, tenant, created and last-used times,
refused at once on REST and on MCP (/mcp) by a running server, over real HTTP."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from typer.testing import CliRunner

from pmemo import errors
from pmemo.cli.main import _register, app
from pmemo.server.keys import SQLiteKeyStore, hash_key
from pmemo.stores import api_keys

from .live import LiveServer

MCP_HEADERS = {"Accept": "application/json, text/event-stream"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


async def test_revoked_key_is_refused_at_once_on_rest_and_mcp(live: LiveServer) -> None:
    admin = bearer(live.admin_key)
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        made = (await http.post("/v1/admin/keys", json={"tenant": "t1", "label": "laptop"}, headers=admin)).json()
        assert made["id"].startswith("k_") and made["key"].startswith("pm_")
        key, key_id = made["key"], made["id"]
        assert (await http.get("/v1/stats", headers=bearer(key))).status_code == 200

        listed = (await http.get("/v1/admin/keys", headers=admin)).json()["keys"]
        mine = next(k for k in listed if k["id"] == key_id)
        assert mine["tenant"] == "t1" and mine["label"] == "laptop" and not mine["admin"]
        assert mine["created_at"] and mine["last_used_at"] and mine["revoked_at"] is None
        assert key not in str(listed) and hash_key(key) not in str(listed)
        only_t1 = (await http.get("/v1/admin/keys", params={"tenant": "t1"}, headers=admin)).json()
        assert {k["tenant"] for k in only_t1["keys"]} == {"t1"}

        async with (
            httpx.AsyncClient(headers=bearer(key), timeout=30) as mcp_http,
            Client(streamable_http_client(f"{live.url}/mcp", http_client=mcp_http)) as mcp,
        ):
            found = await mcp.call_tool("conversation_search", {"user_id": "demo"})
            assert not found.is_error
            raw = await mcp_http.post(f"{live.url}/mcp", json=LIST_TOOLS, headers=MCP_HEADERS)
            assert raw.status_code == 200

            gone = await http.delete(f"/v1/admin/keys/{key_id}", headers=admin)
            assert gone.status_code == 200 and gone.json()["revoked_at"]

            # the very next call, on an MCP session opened before the revocation
            with pytest.raises(MCPError):
                await mcp.call_tool("conversation_search", {"user_id": "demo"})
            raw = await mcp_http.post(f"{live.url}/mcp", json=LIST_TOOLS, headers=MCP_HEADERS)
            assert raw.status_code == 401 and raw.json()["detail"] == "unknown or revoked API key"

        r = await http.get("/v1/stats", headers=bearer(key))
        assert r.status_code == 401 and r.headers["content-type"].startswith("application/problem")
        assert (await http.get("/v1/stats", headers=bearer(live.key))).status_code == 200  # others stay

        again = await http.delete(f"/v1/admin/keys/{key_id}", headers=admin)  # idempotent
        assert again.status_code == 200 and again.json()["revoked_at"] == gone.json()["revoked_at"]
        unknown = await http.delete("/v1/admin/keys/k_000000000000", headers=admin)
        assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
        for method, path in (("GET", "/v1/admin/keys"), ("DELETE", f"/v1/admin/keys/{key_id}")):
            r = await http.request(method, path, headers=bearer(live.key))  # a tenant key
            assert r.status_code == 403, (method, path)
            assert (await http.request(method, path)).status_code == 401


def test_last_used_is_written_at_most_once_a_minute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = SQLiteKeyStore.in_dir(tmp_path)
    key = store.create_key("acme")
    assert store.keys()[0]["last_used_at"] is None
    writes: list[str] = []
    store._db.set_trace_callback(lambda sql: writes.append(sql) if sql.startswith("UPDATE") else None)
    for _ in range(50):
        store.verify(key)
    assert len(writes) == 1 and store.keys()[0]["last_used_at"]
    monkeypatch.setattr(api_keys, "TOUCH_EVERY_S", 0.0)
    store.verify(key)
    assert len(writes) == 2
    store.close()


def test_old_keys_table_is_migrated_in_place(tmp_path: Path) -> None:
    """A keys.sqlite3 from before key ids: its keys keep working and get ids."""
    db = sqlite3.connect(tmp_path / "keys.sqlite3")
    db.executescript("""
        CREATE TABLE tenants (id TEXT PRIMARY KEY, created_at TEXT NOT NULL);
        CREATE TABLE keys (hash TEXT PRIMARY KEY, tenant TEXT, admin INTEGER NOT NULL DEFAULT 0,
          label TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL, revoked_at TEXT);
        INSERT INTO tenants VALUES ('acme', '2026-01-01T00:00:00+00:00');
    """)
    old = ["pm_old_one", "pm_old_two"]
    for k in old:
        db.execute(
            "INSERT INTO keys(hash, tenant, created_at) VALUES (?, 'acme', ?)",
            (hash_key(k), "2026-01-01T00:00:00+00:00"),
        )
    db.commit()
    db.close()
    store = SQLiteKeyStore.in_dir(tmp_path)
    ids = [k["id"] for k in store.keys()]
    assert len(set(ids)) == 2 and all(i.startswith("k_") for i in ids)
    assert store.verify(old[0]).id in ids
    store.revoke(store.verify(old[0]).id)
    with pytest.raises(errors.AuthError):
        store.verify(old[0])
    assert store.verify(old[1]).tenant == "acme"
    store.close()
    store = SQLiteKeyStore.in_dir(tmp_path)
    assert [k["id"] for k in store.keys()] == ids  # a second open changes nothing
    store.close()


def key_id_of(data: Path, key: str) -> str:
    store = SQLiteKeyStore.in_dir(data)
    try:
        return store.verify(key).id
    finally:
        store.close()


def test_cli_keys_list_and_revoke(tmp_path: Path) -> None:
    _register()
    runner = CliRunner()

    def run(*args: str) -> Any:
        return runner.invoke(app, [*args, "--data", str(tmp_path)])

    assert "no API keys yet" in run("keys", "list").output
    made = run("keys", "create", "--tenant", "acme", "--label", "ci")
    assert made.exit_code == 0, made.output
    key = made.output.strip().splitlines()[-1]
    key_id = key_id_of(tmp_path, key)
    assert key_id in made.output
    run("keys", "create", "--admin")
    listed = run("keys", "list")
    header, *rows = listed.output.strip().splitlines()
    assert header.split() == ["ID", "TENANT", "ADMIN", "LABEL", "CREATED", "LAST", "USED", "REVOKED"]
    acme = next(r for r in rows if r.startswith(key_id)).split()
    assert acme[1:4] == ["acme", "no", "ci"] and acme[-1] == "-"  # not revoked
    assert key not in listed.output
    assert len(run("keys", "list", "--tenant", "acme").output.strip().splitlines()) == 2

    r = run("keys", "revoke", key_id)
    assert r.exit_code == 0 and key_id in r.output and "acme" in r.output
    with pytest.raises(errors.AuthError):
        key_id_of(tmp_path, key)
    assert next(r for r in run("keys", "list").output.splitlines() if r.startswith(key_id)).split()[-1] != "-"
    r = run("keys", "revoke", "k_nope")
    assert r.exit_code == 3 and "k_nope" in r.stderr and "Traceback" not in r.output
