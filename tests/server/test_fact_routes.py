"""Issue 19, the inspector's REST calls: a fact read, corrected and deleted by hand
(GET/PUT/DELETE /v1/facts/{id}), a forget made permanent (POST /v1/purge), the forget log's
batch status, the timeline by speaker (GET /v1/turns?actor_id=&actor=) and /v1/profile's
sentences by display name."""

from __future__ import annotations

from typing import Any

import httpx

from .conftest import BASE


async def _fact(client: httpx.AsyncClient, memory: Any, text: str = "我在腾讯工作") -> dict[str, Any]:
    r = await client.post("/v1/turns", json={"user_id": "u1", "session_id": "s1", "content": text})
    assert r.status_code == 201, r.text
    await memory.drain()
    facts = (await client.get("/v1/profile", params={"user_id": "u1"})).json()["facts"]
    assert len(facts) == 1, facts
    return facts[0]  # type: ignore[no-any-return]


async def test_a_fact_is_corrected_with_its_version(client: httpx.AsyncClient, memory: Any) -> None:
    fact = await _fact(client, memory)
    read = await client.get(f"/v1/facts/{fact['id']}")
    assert read.status_code == 200 and read.headers["ETag"] == f'"{fact["version"]}"'
    etag = {"If-Match": read.headers["ETag"]}
    r = await client.put(f"/v1/facts/{fact['id']}", json={"value": "字节跳动"}, headers=etag)
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["id"], body["value"], body["source"], body["version"]) == (fact["id"], "字节跳动", "edited",
                                                                          fact["version"] + 1)
    assert body["sentence"] == "u1在字节跳动工作" and r.headers["ETag"] == f'"{body["version"]}"'
    # the version read before is stale now: 409 with the current one, in the body and the ETag
    stale = await client.put(f"/v1/facts/{fact['id']}", json={"value": "阿里", "version": fact["version"]})
    assert stale.status_code == 409 and stale.json()["current_version"] == body["version"]
    assert stale.headers["ETag"] == f'"{body["version"]}"'
    stale = await client.put(f"/v1/facts/{fact['id']}", json={"value": "阿里"}, headers=etag)
    assert stale.status_code == 409
    # the old value is history, and history is not edited
    history = (await client.get("/v1/profile", params={"user_id": "u1", "history": True})).json()["facts"]
    old = next(f for f in history if f["id"] != fact["id"])
    assert (old["value"], old["status"]) == ("腾讯", "superseded")
    r = await client.put(f"/v1/facts/{old['id']}", json={"value": "阿里"})
    assert r.status_code == 422 and "history" in r.json()["detail"]
    bad = await client.put(f"/v1/facts/{fact['id']}", json={"value": "x"}, headers={"If-Match": "v1"})
    assert bad.status_code == 422
    assert (await client.put("/v1/facts/999999", json={"value": "x"})).status_code == 404


async def test_a_fact_deleted_is_restored_or_purged(client: httpx.AsyncClient, memory: Any) -> None:
    fact = await _fact(client, memory)
    out = (await client.delete(f"/v1/facts/{fact['id']}")).json()
    assert out["mode"] == "soft" and out["batch"] and out["turns"] == []
    assert (await client.get(f"/v1/facts/{fact['id']}")).status_code == 404
    assert (await client.get("/v1/profile", params={"user_id": "u1"})).json()["facts"] == []
    log = (await client.get("/v1/forget-log", params={"batch": out["batch"]})).json()["entries"]
    assert [(e["kind"], e["ref"], e["batch_mode"], e["batch_status"]) for e in log] == [
        ("fact", fact["id"], "soft", "active")]
    r = await client.post("/v1/restore", json={"batch": out["batch"]})
    assert r.status_code == 200 and r.json()["restored"]["facts"] == [fact["id"]]
    assert (await client.get(f"/v1/facts/{fact['id']}")).json()["value"] == "腾讯"

    # deleted again, then made permanent: no restore after that
    batch = (await client.delete(f"/v1/facts/{fact['id']}")).json()["batch"]
    r = await client.post("/v1/purge", json={"batch": batch})
    assert r.status_code == 200 and r.json()["batch"] == batch and r.json()["purged_rows"] >= 1
    assert (await client.post("/v1/purge", json={"batch": batch})).status_code == 409
    assert (await client.post("/v1/restore", json={"batch": batch})).status_code == 409
    log = (await client.get("/v1/forget-log", params={"batch": batch})).json()["entries"]
    assert {e["batch_status"] for e in log} == {"purged"}


async def test_a_fact_deleted_hard_has_no_batch(client: httpx.AsyncClient, memory: Any) -> None:
    fact = await _fact(client, memory)
    out = (await client.delete(f"/v1/facts/{fact['id']}", params={"hard": True})).json()
    assert out["mode"] == "hard" and out["batch"] is None
    assert (await client.get(f"/v1/facts/{fact['id']}")).status_code == 404


async def test_facts_and_purge_of_another_tenant_are_not_found(
    app: Any, client: httpx.AsyncClient, memory: Any, other_key: str
) -> None:
    fact = await _fact(client, memory)
    forgot = (await client.post("/v1/forget", json={"turn_ids": fact["source_ids"]})).json()
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url=BASE, headers={"Authorization": f"Bearer {other_key}"}
    ) as other:
        assert (await other.post("/v1/purge", json={"batch": forgot["batch"]})).status_code == 404
    assert (await client.post("/v1/restore", json={"batch": forgot["batch"]})).status_code == 200
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url=BASE, headers={"Authorization": f"Bearer {other_key}"}
    ) as other:
        assert (await other.get(f"/v1/facts/{fact['id']}")).status_code == 404
        assert (await other.put(f"/v1/facts/{fact['id']}", json={"value": "x"})).status_code == 404
        assert (await other.delete(f"/v1/facts/{fact['id']}")).status_code == 404
    assert (await client.get(f"/v1/facts/{fact['id']}")).json()["value"] == "腾讯"


async def test_turns_by_speaker(client: httpx.AsyncClient) -> None:
    said = [("ni", "周霓", "早"), ("wt", "许文涛", "早上好"), ("ni", "霓霓", "吃了吗")]
    for pid, name, text in said:
        turn = {"group_id": "g", "session_id": "s", "actor_id": pid, "actor": name, "content": text}
        assert (await client.post("/v1/turns", json=turn)).status_code == 201

    async def contents(**params: Any) -> list[str]:
        r = await client.get("/v1/turns", params={"group_id": "g", **params})
        assert r.status_code == 200, r.text
        return [t["content"] for t in r.json()["turns"]]

    assert await contents(actor_id="ni") == ["早", "吃了吗"]
    assert await contents(actor="许文涛") == ["早上好"]
    assert await contents(actor_id="ni", actor="霓霓") == ["吃了吗"]
    assert await contents(actor_id="ni", limit=1, offset=1) == ["吃了吗"]
    assert (await client.get("/v1/turns", params={"group_id": "g", "actor_id": "a b"})).status_code == 422


async def test_profile_sentences_name_known_people(client: httpx.AsyncClient, memory: Any) -> None:
    turn = {"group_id": "g", "session_id": "s", "actor_id": "ni", "actor": "周霓", "content": "我对花生过敏"}
    assert (await client.post("/v1/turns", json=turn)).status_code == 201
    await memory.drain()
    facts = (await client.get("/v1/profile", params={"group_id": "g"})).json()["facts"]
    assert [f["sentence"] for f in facts] == ["周霓对花生过敏"]
