"""The graph over REST (httpx against the real app) and over MCP (the SDK's own client):
an entity's neighbourhood, triples over time with the job-change case, insights, the errors a
caller can cause (each naming what to fix), and another tenant finding nothing."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
from mcp import Client

from pmemo.mcp import build_server

from .test_mcp import data
from .test_people_mcp import error
from .test_person_routes import other
from .test_rest import problem

T0 = datetime(2026, 9, 1, 20, 0, tzinfo=timezone(timedelta(hours=8)))
STUDY = {"group_id": "study"}


async def say(client: httpx.AsyncClient, group: str, who: str, name: str, text: str, days: int = 0) -> dict[str, Any]:
    turn = {"group_id": group, "session_id": f"{group}-chat", "actor_id": who, "actor": name, "content": text,
            "timestamp": (T0 + timedelta(days=days)).isoformat()}
    r = await client.post("/v1/turns", json=turn)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


async def seed(client: httpx.AsyncClient, memory: Any) -> dict[str, Any]:
    """周霓 (ni) and 许文涛 (wt) in the study group; ni changes jobs a month later."""
    first = await say(client, "study", "ni", "周霓", "大家好，叫我霓霓就行。我在腾讯上班，我家猫叫年糕", 0)
    await say(client, "study", "wt", "许文涛", "霓霓是我同学", 0)
    await memory.drain()
    change = await say(client, "study", "ni", "周霓", "我从腾讯跳槽到字节了", 30)
    await memory.drain()
    return {"first": first, "change": change}


async def test_graph_and_triples_over_rest(client: httpx.AsyncClient, memory: Any) -> None:
    said = await seed(client, memory)
    r = await client.get("/v1/graph", params={"entity": "年糕", "hops": 2, **STUDY})
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["entity"] == {"id": g["entity"]["id"], "kind": "thing", "name": "年糕", "key": "年糕", "person_id": None,
                           "aliases": []}
    assert g["nodes"][0]["name"] == "年糕" and {"周霓", "许文涛", "字节"} <= {n["name"] for n in g["nodes"]}
    sentences = {t["sentence"] for t in g["triples"]}
    assert {"周霓的猫叫年糕", "周霓在字节工作", "周霓和许文涛是同学"} <= sentences
    assert "周霓在腾讯工作" not in sentences  # no longer holds
    pet = next(t for t in g["triples"] if t["predicate"] == "has_pet")
    assert pet["sources"] == [said["first"]["id"]] and pet["learned_in"] == "g:study" and pet["current"]

    # the job-change case: now, then, and the history with the old one's end
    now = (await client.get("/v1/triples", params={"subject": "ni", "predicate": "works_at", **STUDY})).json()
    assert [t["object"] for t in now["triples"]] == ["字节"]
    history = (await client.get("/v1/triples", params={"subject": "霓霓", "predicate": "works_at", "history": True,
                                                       **STUDY})).json()["triples"]
    assert [(t["object"], t["current"]) for t in history] == [("腾讯", False), ("字节", True)]
    assert history[0]["valid_to"] == history[1]["valid_from"]
    assert datetime.fromisoformat(history[1]["valid_from"]) == T0 + timedelta(days=30)
    then = (await client.get("/v1/triples", params={"subject": "ni", "at": (T0 + timedelta(days=1)).isoformat(),
                                                    "predicate": "works_at", **STUDY})).json()["triples"]
    assert [t["object"] for t in then] == ["腾讯"]
    everything = (await client.get("/v1/triples", params=STUDY)).json()["triples"]
    assert {t["subject"] for t in everything} == {"ni"}  # wt's only link is ni's relation to him

    # the same group from a private chat, and another group: nothing
    assert (await client.get("/v1/triples", params={"user_id": "ni"})).json()["triples"] == []
    problem(await client.get("/v1/graph", params={"entity": "年糕", "group_id": "work"}), 404, "not_found")
    assert (await client.get("/v1/insights", params={"subject": "ni", **STUDY})).json() == {"insights": []}


async def test_graph_errors_name_what_to_fix(client: httpx.AsyncClient, memory: Any) -> None:
    await seed(client, memory)
    body = problem(await client.get("/v1/graph", params={"entity": "没有这个", **STUDY}), 404, "not_found")
    assert "没有这个" in body["detail"]
    problem(await client.get("/v1/triples", params={"subject": "nobody", **STUDY}), 404, "not_found")
    assert "hops" in problem(await client.get("/v1/graph", params={"entity": "ni", "hops": 3, **STUDY}), 422)["detail"]
    assert "predicate" in problem(await client.get("/v1/triples", params={"predicate": "Works At", **STUDY}),
                                  422)["detail"]
    assert "user_id or group_id" in problem(await client.get("/v1/graph", params={"entity": "ni"}), 422)["detail"]
    problem(await client.get("/v1/graph", params={"entity": "ni", "hop": 2, **STUDY}), 422)  # misspelt: refused
    # a number is not a time (pydantic would read it as seconds since 1970)
    assert "ISO 8601" in problem(await client.get("/v1/triples", params={"at": "1700000000", **STUDY}),
                                 422)["detail"]
    problem(await client.get("/v1/insights", params={"subject": "not valid!", **STUDY}), 422)


async def test_another_tenant_finds_nothing(client: httpx.AsyncClient, memory: Any, app: Any,
                                            other_key: str) -> None:
    await seed(client, memory)
    async with other(app, other_key) as c:
        problem(await c.get("/v1/graph", params={"entity": "年糕", **STUDY}), 404)
        problem(await c.get("/v1/graph", params={"entity": "霓霓", **STUDY}), 404)
        assert (await c.get("/v1/triples", params=STUDY)).json() == {"triples": []}


async def test_graph_tools_over_mcp(memory: Any) -> None:
    async with Client(build_server(memory, tenant="t1")) as client:
        said = [("ni", "周霓", "我在腾讯上班，我家猫叫年糕"), ("wt", "许文涛", "霓霓是我同学"),
                ("ni", "周霓", "我从腾讯跳槽到字节了")]
        for n, (who, name, text) in enumerate(said):
            data(await client.call_tool("remember", {"group_id": "study", "session_id": "s", "content": text,
                                                     "actor": name, "actor_id": who,
                                                     "timestamp": (T0 + timedelta(days=n)).isoformat()}))
            await memory.drain()
        g = data(await client.call_tool("graph", {"entity": "霓霓", "hops": 1, **STUDY}))
        assert g["entity"]["person_id"] == "ni" and g["entity"]["name"] == "周霓"
        assert {"周霓的猫叫年糕", "周霓在字节工作", "周霓和许文涛是同学"} <= {t["sentence"] for t in g["triples"]}
        history = data(await client.call_tool("triples", {"subject": "ni", "predicate": "works_at", "history": True,
                                                          **STUDY}))["triples"]
        assert [(t["object"], t["current"]) for t in history] == [("腾讯", False), ("字节", True)]
        error(await client.call_tool("graph", {"entity": "年糕", "group_id": "work"}), "not_found", "年糕")
        assert "hops" in error(await client.call_tool("graph", {"entity": "年糕", "hops": 5, **STUDY}), "")
        error(await client.call_tool("triples", {"at": "soon", **STUDY}), "invalid_input", "soon")
        error(await client.call_tool("triples", STUDY | {"user_id": "x"}), "invalid_input", "user_id or group_id")
    async with Client(build_server(memory, tenant="t2")) as client:
        assert data(await client.call_tool("triples", STUDY))["triples"] == []
        error(await client.call_tool("graph", {"entity": "霓霓", **STUDY}), "not_found")


async def test_graph_tools_are_described() -> None:
    async with Client(build_server(object(), tenant="t1")) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    for name in ("graph", "triples"):
        assert tools[name].description
        for prop in tools[name].input_schema["properties"].values():
            assert prop.get("description"), (name, prop)
