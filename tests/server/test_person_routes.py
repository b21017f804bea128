"""Profile, episodes, tasks, forget/restore, the forgetting log and the sweeper over REST,
in-process: happy paths, auth, tenant isolation and bad input."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import BASE
from .test_rest import problem

ALICE = {"user_id": "alice", "session_id": "s1"}


async def add(client: httpx.AsyncClient, content: str, **kw: Any) -> dict[str, Any]:
    r = await client.post("/v1/turns", json={**ALICE, "content": content, **kw})
    assert r.status_code == 201, r.text
    return r.json()


def other(app: Any, key: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url=BASE,
        headers={"Authorization": f"Bearer {key}"},
    )


async def test_profile_current_and_history(client: httpx.AsyncClient, memory: Any) -> None:
    await add(client, "我不吃辣")
    await memory.drain()
    facts = (await client.get("/v1/profile", params={"user_id": "alice"})).json()["facts"]
    assert any(f["value"] and "辣" in f["key"] for f in facts), facts
    f = facts[0]
    assert {"category", "key", "value", "confidence", "status", "source_ids"} <= f.keys()
    await memory.add_fact("preference", "drink", "tea", tenant_id="t1", user_id="alice")
    await memory.add_fact("preference", "drink", "coffee", tenant_id="t1", user_id="alice")
    cur = (await client.get("/v1/profile", params={"user_id": "alice"})).json()["facts"]
    drinks = [x["value"] for x in cur if x["key"] == "drink"]
    assert len(drinks) == 1 and all(x["status"] == "current" for x in cur), cur
    hist = (await client.get("/v1/profile", params={"user_id": "alice", "history": "true"})).json()[
        "facts"
    ]
    assert {x["value"] for x in hist if x["key"] == "drink"} == {"tea", "coffee"}


async def test_forget_restore_and_log(client: httpx.AsyncClient, memory: Any) -> None:
    keep = await add(client, "I work as a nurse in Porto.")
    gone = await add(client, "My sister Ana plays the cello.")
    await memory.drain()
    r = await client.post("/v1/forget", json={"user_id": "alice", "query": "sister Ana"})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["mode"] == "soft" and out["turns"] == [gone["id"]] and out["batch"]
    assert (await client.get(f"/v1/turns/{gone['id']}")).status_code == 404
    log = (await client.get("/v1/forget-log")).json()["entries"]
    assert any(e["kind"] == "turn" and e["ref"] == gone["id"] for e in log)
    r = await client.post("/v1/restore", json={"batch": out["batch"]})
    assert r.status_code == 200, r.text
    assert r.json()["batches"] == [out["batch"]] and gone["id"] in r.json()["restored"]["turns"]
    assert (await client.get(f"/v1/turns/{gone['id']}")).status_code == 200
    # again: the batch is restored already
    problem(await client.post("/v1/restore", json={"batch": out["batch"]}), 409)
    # by turn ids, then restore by turn ids
    out = (await client.post("/v1/forget", json={"turn_ids": [keep["id"]]})).json()
    assert out["turns"] == [keep["id"]]
    r = await client.post("/v1/restore", json={"turn_ids": [keep["id"]]})
    assert r.status_code == 200, r.text
    # hard: gone for good, nothing to restore
    out = (await client.post("/v1/forget", json={"turn_ids": [keep["id"]], "hard": True})).json()
    assert out["mode"] == "hard" and out["batch"] is None
    problem(await client.post("/v1/restore", json={"turn_ids": [keep["id"]]}), 404)
    # a query that matches nothing forgets nothing
    out = (await client.post("/v1/forget", json={"user_id": "alice", "query": "zebra"})).json()
    assert out["turns"] == [] and out["batch"] is None


async def test_sweep_episodes_tasks(client: httpx.AsyncClient, memory: Any) -> None:
    await add(client, "Let's plan the Lisbon trip.")
    await memory.drain()
    await memory.end_session("s1", tenant_id="t1", user_id="alice")
    task = await memory.task_start(
        "book flights", steps=["compare", "book"], session_id="s1", tenant_id="t1", user_id="alice"
    )
    eps = (await client.get("/v1/episodes", params={"user_id": "alice"})).json()["episodes"]
    assert eps and eps[0]["kind"] == "session" and eps[0]["summary"]
    r = await client.get("/v1/episodes", params={"user_id": "alice", "query": "Lisbon trip"})
    assert r.status_code == 200 and r.json()["episodes"]
    tasks = (await client.get("/v1/tasks", params={"user_id": "alice"})).json()["tasks"]
    assert [t["id"] for t in tasks] == [task.id]
    assert tasks[0]["goal"] == "book flights" and len(tasks[0]["steps"]) == 2
    r = await client.get("/v1/tasks", params={"user_id": "alice", "status": "done"})
    assert r.json()["tasks"] == []
    plan = (await client.post("/v1/sweep")).json()
    assert plan["dry_run"] is True and plan["batch"] is None
    done = (await client.post("/v1/sweep", json={"dry_run": False})).json()
    assert done["dry_run"] is False and isinstance(done["actions"], list)


async def test_auth_and_tenant_isolation(
    client: httpx.AsyncClient,
    anon: httpx.AsyncClient,
    app: Any,
    other_key: str,
    admin_key: str,
    memory: Any,
) -> None:
    t = await add(client, "我不吃辣")
    await memory.drain()
    for method, path, body in [
        ("GET", "/v1/profile?user_id=alice", None),
        ("GET", "/v1/episodes?user_id=alice", None),
        ("GET", "/v1/tasks?user_id=alice", None),
        ("GET", "/v1/forget-log", None),
        ("POST", "/v1/forget", {"turn_ids": [t["id"]]}),
        ("POST", "/v1/restore", {"batch": 1}),
        ("POST", "/v1/sweep", {"dry_run": True}),
    ]:
        problem(await anon.request(method, path, json=body), 401)
        async with other(app, admin_key) as adm:
            problem(await adm.request(method, path, json=body), 403)
    batch = (await client.post("/v1/forget", json={"turn_ids": [t["id"]]})).json()["batch"]
    async with other(app, other_key) as c2:
        assert (await c2.get("/v1/profile", params={"user_id": "alice"})).json()["facts"] == []
        assert (await c2.get("/v1/forget-log")).json()["entries"] == []
        problem(await c2.post("/v1/restore", json={"batch": batch}), 404, "not_found")
        problem(await c2.post("/v1/restore", json={"turn_ids": [t["id"]]}), 404)
        problem(await c2.post("/v1/forget", json={"turn_ids": [t["id"]]}), 404)
        out = (await c2.post("/v1/forget", json={"user_id": "alice", "query": "辣"})).json()
        assert out["turns"] == []
        log = (await c2.get("/v1/forget-log", params={"batch": batch})).json()["entries"]
        assert log == []
    assert (await client.get("/v1/forget-log")).json()["entries"]
    assert (await client.post("/v1/restore", json={"batch": batch})).status_code == 200


@pytest.mark.parametrize(
    "method,path,body",
    [
        ("GET", "/v1/profile", None),  # no owner
        ("GET", "/v1/profile?user_id=a&group_id=g", None),
        ("GET", "/v1/profile?user_id=bad%20id", None),
        ("GET", "/v1/episodes?user_id=a&limit=0", None),
        ("GET", "/v1/tasks?user_id=a&status=maybe", None),
        ("GET", "/v1/forget-log?limit=5000", None),
        ("POST", "/v1/forget", {}),
        ("POST", "/v1/forget", {"turn_ids": [1], "query": "x", "user_id": "a"}),
        ("POST", "/v1/forget", {"query": "x"}),  # a query needs an owner
        ("POST", "/v1/forget", {"turn_ids": []}),
        ("POST", "/v1/forget", {"turn_ids": [0]}),
        ("POST", "/v1/forget", {"turn_ids": ["x"]}),
        ("POST", "/v1/forget", {"turn_ids": [1], "extra": 1}),
        ("POST", "/v1/forget", {"turn_ids": list(range(1, 1002))}),
        ("POST", "/v1/restore", {}),
        ("POST", "/v1/restore", {"batch": 1, "turn_ids": [1]}),
        ("POST", "/v1/restore", {"batch": -1}),
        ("POST", "/v1/sweep", {"dry_run": "perhaps"}),
        ("POST", "/v1/sweep", {"tenant_id": "t2"}),
    ],
)
async def test_bad_input(client: httpx.AsyncClient, method: str, path: str, body: Any) -> None:
    problem(await client.request(method, path, json=body), 422, "invalid_input")


async def test_unknown_batch_and_turns(client: httpx.AsyncClient) -> None:
    problem(await client.post("/v1/restore", json={"batch": 999}), 404, "not_found")
    problem(await client.post("/v1/forget", json={"turn_ids": [999]}), 404, "not_found")


async def test_scheduled_sweeper(memory: Any, keys: Any) -> None:
    import asyncio

    from pmemo.server import create_app

    calls: list[bool] = []
    real = memory.sweep

    async def spy(**kw: Any) -> dict[str, Any]:
        calls.append(kw.get("dry_run", True))
        return await real(**kw)

    memory.sweep = spy
    try:
        app = create_app(memory, keys, mcp=False, web=False, sweep_every=0.05)
        async with app.router.lifespan_context(app):
            task = app.state.sweeper
            await asyncio.sleep(0.3)
            assert calls and not any(calls)  # dry_run=False each time
        assert task.cancelled() or task.done()
        app = create_app(memory, keys, mcp=False, web=False, sweep_every=0)
        async with app.router.lifespan_context(app):
            assert not hasattr(app.state, "sweeper")
    finally:
        del memory.sweep
