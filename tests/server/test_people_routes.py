"""People over REST (issue 17), in-process: the registry and aliases, members, resolving names,
profiles per group, the agenda, the people sections of a context, auth, tenant isolation and
bad input that names its field."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import pytest

from .test_person_routes import other
from .test_rest import problem

T0 = datetime(2026, 9, 1, 20, 0, tzinfo=timezone(timedelta(hours=8)))
EXAM = datetime(2026, 12, 23, 9, 0, tzinfo=T0.tzinfo)


async def say(
    client: httpx.AsyncClient, group: str, who: str, name: str, text: str, minutes: int = 0
) -> dict[str, Any]:
    turn = {
        "group_id": group,
        "session_id": f"{group}-chat",
        "actor_id": who,
        "actor": name,
        "content": text,
        "timestamp": (T0 + timedelta(minutes=minutes)).isoformat(),
    }
    r = await client.post("/v1/turns", json=turn)
    assert r.status_code == 201, r.text
    return r.json()


async def seed(client: httpx.AsyncClient, memory: Any) -> None:
    """周霓 (ni) and 许文涛 (wt) in the study group; ni also in the work group."""
    await say(client, "study", "ni", "周霓", "大家好，叫我霓霓就行。我对花生过敏。", 0)
    await say(client, "work", "ni", "周霓", "我在腾讯工作", 1)
    await say(client, "study", "wt", "许文涛", "我不吃香菜", 2)
    await say(client, "study", "ni", "周霓", "12月23日考研，最近压力好大", 3)
    await memory.drain()


def aliases(person: dict[str, Any]) -> dict[str, str]:
    return {a["alias"]: a["source"] for a in person["aliases"]}


async def test_register_upsert_merge_and_remove_alias(client: httpx.AsyncClient) -> None:
    r = await client.put("/v1/people/ni", json={"name": "周霓", "aliases": ["霓霓"]})
    assert r.status_code == 200, r.text
    ni = r.json()
    assert ni["id"] == "ni" and ni["name"] == "周霓" and ni["messages"] == 0
    assert aliases(ni)["霓霓"] == "registered" and "周霓" in aliases(ni)
    # idempotent, and aliases are merged, not replaced
    ni = (await client.put("/v1/people/ni", json={"aliases": ["Neko", "AC/DC"]})).json()
    assert {"霓霓", "Neko", "AC/DC", "周霓"} <= aliases(ni).keys() and ni["name"] == "周霓"
    assert (await client.get("/v1/people/ni")).json() == ni
    r = await client.delete("/v1/people/ni/aliases/霓霓")
    assert r.status_code == 200, r.text
    assert "霓霓" not in aliases(r.json())
    r = await client.delete("/v1/people/ni/aliases/AC%2FDC")  # a "/" in an alias
    assert r.status_code == 200 and "AC/DC" not in aliases(r.json())
    assert "霓霓" not in aliases((await client.get("/v1/people/ni")).json())
    body = problem(await client.delete("/v1/people/ni/aliases/霓霓"), 404, "not_found")
    assert "no alias" in body["detail"]
    problem(await client.get("/v1/people/nobody"), 404, "not_found")
    problem(await client.delete("/v1/people/nobody/aliases/x"), 404, "not_found")


async def test_members_of_a_group(client: httpx.AsyncClient, memory: Any) -> None:
    await seed(client, memory)
    r = await client.put("/v1/people/quiet", json={"name": "Quinn", "group_id": "study"})
    assert r.status_code == 200, r.text
    members = (await client.get("/v1/people", params={"group_id": "study"})).json()["members"]
    by_id = {m["person"]["id"]: m for m in members}
    assert set(by_id) == {"ni", "wt", "quiet"}
    # latest speaker first (a silent member's "last seen" is when they were registered)
    assert [m["person"]["id"] for m in members if m["messages"]] == ["ni", "wt"]
    assert by_id["ni"]["messages"] == 2 and by_id["ni"]["owner"] == "g:study"
    assert by_id["ni"]["first_seen"] < by_id["ni"]["last_seen"]
    assert by_id["ni"]["person"]["messages"] == 3  # everywhere, the work group too
    assert aliases(by_id["ni"]["person"])["霓霓"] == "learned"
    assert by_id["quiet"]["messages"] == 0 and by_id["quiet"]["person"]["name"] == "Quinn"
    work = (await client.get("/v1/people", params={"group_id": "work"})).json()["members"]
    assert [m["person"]["id"] for m in work] == ["ni"]
    r = await client.get("/v1/people", params={"group_id": "nobody-here"})
    assert r.status_code == 200 and r.json()["members"] == []


async def test_turns_carry_actor_id(client: httpx.AsyncClient) -> None:
    one = await say(client, "g", "ni", "周霓", "hi")
    assert one["actor_id"] == "ni" and one["actor"] == "周霓"
    batch = {"turns": [{"group_id": "g", "session_id": "s", "content": "yo", "actor_id": "wt"}]}
    r = await client.post("/v1/turns", json=batch)
    assert r.status_code == 201 and r.json()["turns"][0]["actor_id"] == "wt"
    turns = (await client.get("/v1/turns", params={"group_id": "g"})).json()["turns"]
    assert [t["actor_id"] for t in turns] == ["ni", "wt"]


async def test_resolve_by_learned_nickname(client: httpx.AsyncClient, memory: Any) -> None:
    await seed(client, memory)
    r = await client.post("/v1/people/resolve", json={"group_id": "study", "text": "你认识霓霓吗？"})
    assert r.status_code == 200, r.text
    (match,) = r.json()["matches"]
    assert match == {
        "alias": "霓霓",
        "start": 3,
        "end": 5,
        "person_ids": ["ni"],
        "source": "learned",
        "ambiguous": False,
    }
    for pid in ("w1", "w2"):
        await client.put(f"/v1/people/{pid}", json={"aliases": ["老王"], "group_id": "study"})
    r = await client.post("/v1/people/resolve", json={"group_id": "study", "text": "老王来了"})
    (match,) = r.json()["matches"]
    assert match["ambiguous"] and sorted(match["person_ids"]) == ["w1", "w2"]


async def test_profile_per_group(client: httpx.AsyncClient, memory: Any) -> None:
    await seed(client, memory)

    async def facts(**params: Any) -> list[dict[str, Any]]:
        r = await client.get("/v1/people/ni/profile", params=params)
        assert r.status_code == 200, r.text
        return r.json()["facts"]  # type: ignore[no-any-return]

    study, work, everywhere = await facts(group_id="study"), await facts(group_id="work"), await facts()
    # said in the work group: absent from the study group's view, and the other way round
    # the plan is a fact too (event:考研 = its day), said last, so listed first; 叫我霓霓 is one too
    assert [re.sub(r"\d{4}年", "", f["sentence"]) for f in study] == [
        "周霓 12月23日有考研", "周霓对花生过敏", "周霓希望被叫作霓霓"]
    assert [f["sentence"] for f in work] == ["周霓在腾讯工作"]
    assert {re.sub(r"\d{4}年", "", f["sentence"]) for f in everywhere} == {
        "周霓对花生过敏", "周霓在腾讯工作", "周霓 12月23日有考研", "周霓希望被叫作霓霓"}
    f = study[1]
    assert f["subject_id"] == "ni" and f["learned_in"] == "g:study" and f["mentioned"] == []
    assert (f["key"], f["value"]) == ("allergy:花生", "allergic")
    assert await facts(group_id="study", history="true")
    # wt's facts are his; a fact about ni is not in his profile
    r = await client.get("/v1/people/wt/profile", params={"group_id": "study"})
    assert [x["sentence"] for x in r.json()["facts"]] == ["许文涛不吃香菜"]
    # the owner's profile route is unchanged, and says who each fact is about
    r = await client.get("/v1/profile", params={"group_id": "study"})
    assert {x["subject_id"] for x in r.json()["facts"]} == {"ni", "wt"}
    said = {x["sentence"] for x in r.json()["facts"] if not x["key"].startswith("event:")}  # the plan: above
    assert said == {"周霓对花生过敏", "周霓希望被叫作霓霓", "许文涛不吃香菜"}  # by their display names
    problem(await client.get("/v1/people/nobody/profile"), 404, "not_found")


async def test_agenda(client: httpx.AsyncClient, memory: Any) -> None:
    await seed(client, memory)
    r = await client.get("/v1/agenda", params={"group_id": "study", "person_id": "ni"})
    assert r.status_code == 200, r.text
    (item,) = r.json()["items"]
    assert (item["day"], item["what"], item["status"], item["person_id"]) == ("2026-12-23", "考研", "open", "ni")
    assert item["group_id"] == "study" and item["text"].startswith("12月23日考研")
    near = {"group_id": "study", "at": (EXAM - timedelta(days=2)).isoformat()}
    assert len((await client.get("/v1/agenda", params=near)).json()["items"]) == 1
    far = {"group_id": "study", "at": (EXAM + timedelta(days=60)).isoformat()}
    assert (await client.get("/v1/agenda", params=far)).json()["items"] == []
    r = await client.get("/v1/agenda", params={"group_id": "study", "person_id": "wt"})
    assert r.json()["items"] == []
    assert (await client.get("/v1/agenda", params={"group_id": "work"})).json()["items"] == []
    # every chat's plans at once, each with the chat it was said in: an agent's evening round
    await say(client, "work", "wt", "许文涛", "12月30日面试，有点紧张", 4)
    await memory.drain()
    every = (await client.get("/v1/agenda")).json()["items"]
    assert [(i["group_id"], i["person_id"], i["what"]) for i in every] == [("study", "ni", "考研"),
                                                                          ("work", "wt", "面试")]
    eve = {"at": (EXAM - timedelta(hours=13)).isoformat()}  # the evening before the exam
    due = [i for i in (await client.get("/v1/agenda", params=eve)).json()["items"] if i["day"] == "2026-12-23"]
    assert [(i["group_id"], i["what"]) for i in due] == [("study", "考研")]
    problem(await client.get("/v1/agenda", params={"group_id": "study", "user_id": "u"}), 422)


async def test_context_with_asker_and_recent(client: httpx.AsyncClient, memory: Any) -> None:
    await seed(client, memory)
    body = {
        "group_id": "study",
        "query": "还不睡？",
        "asker": "ni",
        "at": (EXAM - timedelta(days=3)).isoformat(),
    }
    r = await client.post("/v1/context", json=body)
    assert r.status_code == 200, r.text
    items = r.json()["items"]
    people = [i for i in items if i["tier"] == "people"]
    assert people and people[0]["kind"] == "person" and people[0]["text"].startswith("周霓")
    assert "周霓对花生过敏" in [i["text"] for i in people if i["kind"] == "fact"]
    assert any(i["tier"] == "agenda" and i["kind"] == "agenda" and "考研" in i["text"] for i in items)
    assert "腾讯" not in r.json()["text"]  # the work group's fact stays there
    # a person named only in the recent messages comes in too
    body = {"group_id": "study", "query": "好的", "asker": "ni", "recent": ["许文涛今天来吗"]}
    items = (await client.post("/v1/context", json=body)).json()["items"]
    assert any(i["kind"] == "person" and i["text"].startswith("许文涛") for i in items)


async def test_auth_and_tenant_isolation(
    client: httpx.AsyncClient,
    anon: httpx.AsyncClient,
    app: Any,
    other_key: str,
    admin_key: str,
    memory: Any,
) -> None:
    await seed(client, memory)
    routes: list[tuple[str, str, Any]] = [
        ("PUT", "/v1/people/ni", {"aliases": ["x"]}),
        ("GET", "/v1/people/ni", None),
        ("GET", "/v1/people?group_id=study", None),
        ("DELETE", "/v1/people/ni/aliases/霓霓", None),
        ("POST", "/v1/people/resolve", {"group_id": "study", "text": "霓霓"}),
        ("GET", "/v1/people/ni/profile", None),
        ("GET", "/v1/agenda?group_id=study", None),
    ]
    async with other(app, admin_key) as adm:
        for method, path, body in routes:
            problem(await anon.request(method, path, json=body), 401, "unauthorized")
            problem(await adm.request(method, path, json=body), 403, "forbidden")
    async with other(app, other_key) as c2:
        problem(await c2.get("/v1/people/ni"), 404, "not_found")
        problem(await c2.delete("/v1/people/ni/aliases/霓霓"), 404, "not_found")
        problem(await c2.get("/v1/people/ni/profile"), 404, "not_found")
        problem(await c2.get("/v1/people/ni/profile", params={"group_id": "study"}), 404)
        assert (await c2.get("/v1/people", params={"group_id": "study"})).json()["members"] == []
        r = await c2.post("/v1/people/resolve", json={"group_id": "study", "text": "你认识霓霓吗？"})
        assert r.json()["matches"] == []
        assert (await c2.get("/v1/agenda", params={"group_id": "study"})).json()["items"] == []
        assert (await c2.get("/v1/agenda")).json()["items"] == []  # every chat of its own tenant: none
        r = await c2.post("/v1/context", json={"group_id": "study", "query": "霓霓", "asker": "ni"})
        assert "花生" not in r.json()["text"]
        # the same id in another tenant is another person
        r = await c2.put("/v1/people/ni", json={"name": "Other Ni"})
        assert r.status_code == 200 and r.json()["messages"] == 0
    ni = (await client.get("/v1/people/ni")).json()
    assert ni["name"] == "周霓" and "霓霓" in aliases(ni)


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        ("POST", "/v1/turns", {"group_id": "g", "session_id": "s", "content": "x", "actor_id": "a b"}, "actor_id"),
        ("POST", "/v1/turns", {"group_id": "g", "session_id": "s", "content": "x", "actor_id": ""}, "actor_id"),
        ("POST", "/v1/turns", {"group_id": "g", "session_id": "s", "content": "x", "actor_id": "名字"}, "actor_id"),
        ("POST", "/v1/turns", {"group_id": "g", "session_id": "s", "content": "x", "actor_id": 7}, "actor_id"),
        ("PUT", "/v1/people/a%20b", {}, "person_id"),
        ("PUT", "/v1/people/" + "x" * 129, {}, "person_id"),
        ("PUT", "/v1/people/ni", {"aliases": [""]}, "aliases"),
        ("PUT", "/v1/people/ni", {"aliases": ["x" * 65]}, "aliases"),
        ("PUT", "/v1/people/ni", {"aliases": ["   "]}, "alias"),
        ("PUT", "/v1/people/ni", {"aliases": ["bad\u0000"]}, "alias"),
        ("PUT", "/v1/people/ni", {"aliases": "霓霓"}, "aliases"),
        ("PUT", "/v1/people/ni", {"aliases": ["a"] * 101}, "aliases"),
        ("PUT", "/v1/people/ni", {"name": ""}, "name"),
        ("PUT", "/v1/people/ni", {"name": "\u200b"}, "name"),
        ("PUT", "/v1/people/ni", {"user_id": "a", "group_id": "g"}, "user_id"),
        ("PUT", "/v1/people/ni", {"group_id": "bad id"}, "group_id"),
        ("PUT", "/v1/people/ni", {"tenant_id": "t2"}, "tenant_id"),
        ("DELETE", "/v1/people/ni/aliases/" + "x" * 65, None, "alias"),
        ("DELETE", "/v1/people/bad%20id/aliases/x", None, "person_id"),
        ("GET", "/v1/people", None, "user_id"),
        ("GET", "/v1/people?user_id=a&group_id=g", None, "user_id"),
        ("GET", "/v1/people/ni/profile?user_id=a&group_id=g", None, "user_id"),
        ("GET", "/v1/people/ni/profile?history=perhaps", None, "history"),
        ("POST", "/v1/people/resolve", {"group_id": "g", "text": ""}, "text"),
        ("POST", "/v1/people/resolve", {"group_id": "g", "text": "  "}, "text"),
        ("POST", "/v1/people/resolve", {"text": "霓霓"}, "user_id"),
        ("GET", "/v1/agenda?user_id=a&group_id=g", None, "user_id"),
        ("GET", "/v1/agenda?group_id=g&at=soon", None, "at"),
        ("GET", "/v1/agenda?at=0.5", None, "at"),  # not seconds since 1970
        ("GET", "/v1/agenda?at=1700000000", None, "at"),
        ("GET", "/v1/turns?user_id=a&since=-138757", None, "since"),  # found by the schema fuzzer
        ("GET", "/v1/turns?user_id=a&until=0.5", None, "until"),
        ("GET", "/v1/agenda?group_id=g&person_id=a%20b", None, "person_id"),
        ("POST", "/v1/context", {"group_id": "g", "query": "q", "asker": "not valid!"}, "asker"),
        ("POST", "/v1/context", {"group_id": "g", "query": "q", "recent": "just a string"}, "recent"),
        ("POST", "/v1/context", {"group_id": "g", "query": "q", "recent": [1]}, "recent"),
        ("POST", "/v1/context", {"group_id": "g", "query": "q", "recent": ["x"] * 51}, "recent"),
        ("POST", "/v1/context", {"group_id": "g", "query": "q", "recent": ["x" * 20_000] * 3}, "recent"),
    ],
)
async def test_bad_input_names_the_field(
    client: httpx.AsyncClient, method: str, path: str, body: Any, field: str
) -> None:
    detail = problem(await client.request(method, path, json=body), 422, "invalid_input")["detail"]
    assert field in detail, detail


async def test_a_bad_actor_id_in_a_batch_is_named(client: httpx.AsyncClient) -> None:
    bad = {"group_id": "g", "session_id": "s", "content": "x", "actor_id": "a b"}
    body = problem(await client.post("/v1/turns", json={"turns": [bad]}), 422, "invalid_input")
    assert [e["loc"] for e in body["errors"]] == [["body", "turns", 0, "actor_id"]]
    assert body["detail"].startswith("turns[0].actor_id: ")
    assert (await client.get("/v1/turns", params={"group_id": "g"})).json()["turns"] == []


async def test_people_routes_are_documented(anon: httpx.AsyncClient) -> None:
    spec = (await anon.get("/openapi.json")).json()
    ops = {
        ("put", "/v1/people/{person_id}"),
        ("get", "/v1/people/{person_id}"),
        ("get", "/v1/people"),
        ("delete", "/v1/people/{person_id}/aliases/{alias}"),
        ("post", "/v1/people/resolve"),
        ("get", "/v1/people/{person_id}/profile"),
        ("get", "/v1/agenda"),
    }
    for method, path in ops:
        op = spec["paths"][path][method]
        assert op["tags"] == ["people"] and op["description"], (method, path)
        assert "401" in op["responses"] and "422" in op["responses"]
    schemas = spec["components"]["schemas"]
    for name in ("PersonIn", "ResolveIn", "ContextIn"):
        assert schemas[name].get("examples"), name
    assert schemas["ContextIn"]["properties"]["recent"]["anyOf"][0]["maxItems"] == 50
    assert {"asker", "recent"} <= schemas["ContextIn"]["properties"].keys()
    assert "actor_id" in schemas["TurnIn"]["properties"] and "actor_id" in schemas["TurnOut"]["properties"]
    assert {"subject_id", "mentioned", "learned_in", "sentence"} <= schemas["FactOut"]["properties"].keys()
    assert {"people", "agenda"} <= set(schemas["HitOut"]["properties"]["tier"]["enum"])
