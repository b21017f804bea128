"""Issue 18 §1: no lost updates on key memory. A write that names the version it read is
refused (409 with the current version) once someone else has changed the line; MCP's
replace applies itself to the latest text."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from mcp import Client

from pmemo import errors
from pmemo.mcp import build_server

from .live import LiveServer

WRITERS = 8


async def _new_line(http: httpx.AsyncClient, user: str) -> int:
    made = await http.post("/v1/key", json={"user_id": user, "text": "notes:"})
    assert made.status_code == 201 and made.json()["version"] == 1
    return int(made.json()["id"])


async def _append(http: httpx.AsyncClient, key_id: int, word: str, *, retry: bool) -> list[int]:
    """Read, append ``word``, write back with If-Match; the statuses seen, last one 200 if ``retry``."""
    statuses = []
    while True:
        read = await http.get(f"/v1/key/{key_id}")
        assert read.status_code == 200 and read.headers["ETag"] == f'"{read.json()["version"]}"'
        wrote = await http.put(
            f"/v1/key/{key_id}",
            json={"text": read.json()["text"] + " " + word},
            headers={"If-Match": read.headers["ETag"]},
        )
        statuses.append(wrote.status_code)
        if wrote.status_code == 409:
            body = wrote.json()
            assert body["code"] == "conflict" and body["current_version"] >= 2
            assert wrote.headers["ETag"] == f'"{body["current_version"]}"'
        if wrote.status_code != 409 or not retry:
            return statuses


@pytest.fixture
async def http(live: LiveServer) -> Any:
    async with httpx.AsyncClient(
        base_url=live.url, headers={"Authorization": f"Bearer {live.key}"}, timeout=30
    ) as c:
        yield c


async def test_concurrent_appends_one_winner_per_version(http: httpx.AsyncClient) -> None:
    key_id = await _new_line(http, "versions-a")
    barrier = asyncio.Barrier(WRITERS)

    async def one(i: int) -> int:
        read = await http.get(f"/v1/key/{key_id}")
        await barrier.wait()  # every writer has read version 1 before anyone writes
        wrote = await http.put(
            f"/v1/key/{key_id}",
            json={"text": read.json()["text"] + f" w{i}", "version": read.json()["version"]},
        )
        return wrote.status_code

    statuses = await asyncio.gather(*(one(i) for i in range(WRITERS)))
    assert sorted(statuses) == [200] + [409] * (WRITERS - 1)
    line = (await http.get(f"/v1/key/{key_id}")).json()
    assert line["version"] == 2 and line["text"].count(" w") == 1


async def test_concurrent_appends_with_retry_keep_every_one(http: httpx.AsyncClient) -> None:
    key_id = await _new_line(http, "versions-b")
    runs = await asyncio.gather(*(_append(http, key_id, f"w{i}", retry=True) for i in range(WRITERS)))
    assert all(r[-1] == 200 for r in runs)
    line = (await http.get(f"/v1/key/{key_id}")).json()
    assert sorted(line["text"].split()[1:]) == sorted(f"w{i}" for i in range(WRITERS))
    assert line["version"] == WRITERS + 1


async def test_if_match_and_version_checks(http: httpx.AsyncClient) -> None:
    key_id = await _new_line(http, "versions-c")
    stale = await http.put(f"/v1/key/{key_id}", json={"text": "x"}, headers={"If-Match": '"7"'})
    assert stale.status_code == 409 and stale.json()["current_version"] == 1
    assert (await http.get(f"/v1/key/{key_id}")).json()["text"] == "notes:"  # left alone
    bad = await http.put(f"/v1/key/{key_id}", json={"text": "x"}, headers={"If-Match": "banana"})
    assert bad.status_code == 422 and "If-Match" in bad.json()["detail"]
    weak = await http.put(f"/v1/key/{key_id}", json={"text": "y"}, headers={"If-Match": 'W/"1"'})
    assert weak.status_code == 200 and weak.headers["ETag"] == '"2"'
    anyone = await http.put(f"/v1/key/{key_id}", json={"text": "z"}, headers={"If-Match": "*"})
    assert anyone.status_code == 200 and anyone.json()["version"] == 3
    unversioned = await http.put(f"/v1/key/{key_id}", json={"text": "w"})  # last writer wins
    assert unversioned.status_code == 200 and unversioned.json()["version"] == 4
    missing = await http.put("/v1/key/999999", json={"text": "x", "version": 1})
    assert missing.status_code == 404


async def test_library_conflict_leaves_line(memory: Any) -> None:
    line = await memory.add_key("diet: vegetarian", tenant_id="t1", user_id="u")
    await memory.update_key(line.id, "diet: vegan", version=1, tenant_id="t1")
    with pytest.raises(errors.Conflict) as info:
        await memory.update_key(line.id, "diet: omnivore", version=1, tenant_id="t1")
    assert info.value.current_version == 2
    assert (await memory.key_line(line.id, tenant_id="t1")).text == "diet: vegan"
    with pytest.raises(errors.InvalidInput, match="version"):
        await memory.update_key(line.id, "x", version=0, tenant_id="t1")


async def test_mcp_replace_under_concurrent_writers_loses_nothing(memory: Any) -> None:
    words = [f"a{i}" for i in range(WRITERS)]
    line = await memory.add_key(" ".join(words), tenant_id="t1", user_id="u")
    server = build_server(memory, tenant="t1")
    async with Client(server) as client:
        results = await asyncio.gather(
            *(
                client.call_tool("core_memory_replace", {"user_id": "u", "old_text": w, "new_text": "b" + w[1:]})
                for w in words
            )
        )
        assert not any(r.is_error for r in results), [r.content for r in results if r.is_error]
        final = await memory.key_line(line.id, tenant_id="t1")
        assert final.text.split() == [f"b{i}" for i in range(WRITERS)] and final.version == WRITERS + 1
        stale = await client.call_tool(
            "core_memory_replace", {"user_id": "u", "old_text": "b0", "new_text": "c0", "version": 1}
        )
        assert stale.is_error and "conflict" in stale.content[0].text
        huge = await client.call_tool(
            "core_memory_replace", {"user_id": "u", "old_text": "b0", "new_text": "c0", "version": 10**30}
        )
        assert huge.is_error
    assert json.dumps((await memory.key_line(line.id, tenant_id="t1")).text).count("c0") == 0
