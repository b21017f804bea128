"""Forgetting a person over REST (issue 44 §7), in-process against the real app:
``DELETE /v1/people/{person_id}`` everywhere or in one chat, a dry run, restore through
``/v1/restore``, a hard forget, and errors that name what to fix (an unknown person is 404 with
the id; another tenant's person is not found; bad parameters are 422 naming the field)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .test_people_routes import say
from .test_person_routes import other
from .test_rest import problem


async def seed(client: httpx.AsyncClient, memory: Any) -> None:
    """周霓 (ni) in the study and work groups; 许文涛 (wt) says things about her in study."""
    await say(client, "study", "ni", "周霓", "大家好，叫我霓霓就行。我家猫叫年糕", 0)
    await say(client, "study", "wt", "许文涛", "周霓对花生过敏，聚餐别点花生", 1)
    await say(client, "study", "ni", "周霓", "12月23日考研，最近压力好大", 2)
    await say(client, "work", "ni", "周霓", "我在腾讯工作", 3)
    await memory.drain()


async def names(client: httpx.AsyncClient, text: str, group: str = "study") -> list[list[str]]:
    r = await client.post("/v1/people/resolve", json={"group_id": group, "text": text})
    assert r.status_code == 200, r.text
    return [m["person_ids"] for m in r.json()["matches"] if m["source"] != "generated"]


async def test_forget_a_person_everywhere_and_restore(client: httpx.AsyncClient, memory: Any) -> None:
    await seed(client, memory)
    before = (await client.get("/v1/people/ni")).json()
    dry = (await client.delete("/v1/people/ni", params={"dry_run": "true"})).json()
    assert dry["dry_run"] and dry["mode"] == "dry_run" and dry["batch"] is None and len(dry["turns"]) == 3
    assert dry["record"] and "霓霓" in dry["aliases"] and dry["facts"]
    assert (await client.get("/v1/people/ni")).json() == before  # a dry run changes nothing

    r = await client.delete("/v1/people/ni")
    assert r.status_code == 200, r.text
    gone = r.json()
    assert gone["person_id"] == "ni" and gone["mode"] == "soft" and gone["batch"] and gone["record"]
    assert gone["turns"] == dry["turns"] and gone["memberships"] == ["g:study", "g:work"]
    assert problem(await client.get("/v1/people/ni"), 404, "not_found")
    assert await names(client, "你认识霓霓吗？周霓呢") == []
    hits = (await client.post("/v1/search", json={"group_id": "study", "query": "霓霓 年糕 考研"})).json()["hits"]
    assert not any("年糕" in h["text"] or "考研" in h["text"] for h in hits)
    text = (await client.post("/v1/context", json={"group_id": "study", "query": "霓霓对什么过敏",
                                                    "asker": "wt"})).json()["text"]
    assert "年糕" not in text and "周霓 (" not in text
    members = (await client.get("/v1/people", params={"group_id": "study"})).json()["members"]
    assert "ni" not in [m["person"]["id"] for m in members]
    problem(await client.get("/v1/people/ni/profile"), 404)
    detail = problem(await client.delete("/v1/people/ni"), 404, "not_found")["detail"]
    assert "'ni'" in detail  # forgotten already: the id is named

    r = await client.post("/v1/restore", json={"batch": gone["batch"]})
    assert r.status_code == 200, r.text
    assert r.json()["restored"]["people"] == ["ni"]
    assert (await client.get("/v1/people/ni")).json() == before
    assert await names(client, "你认识霓霓吗") == [["ni"]]


async def test_forget_a_person_in_one_chat(client: httpx.AsyncClient, memory: Any) -> None:
    await seed(client, memory)
    gone = (await client.delete("/v1/people/ni", params={"group_id": "study"})).json()
    assert not gone["record"] and gone["memberships"] == ["g:study"] and len(gone["turns"]) == 2
    assert (await client.get("/v1/people/ni")).status_code == 200
    study = (await client.get("/v1/people", params={"group_id": "study"})).json()["members"]
    work = (await client.get("/v1/people", params={"group_id": "work"})).json()["members"]
    assert "ni" not in [m["person"]["id"] for m in study] and "ni" in [m["person"]["id"] for m in work]
    facts = (await client.get("/v1/people/ni/profile", params={"group_id": "work"})).json()["facts"]
    assert [f["key"] for f in facts] == ["employer"]
    assert (await client.get("/v1/people/ni/profile", params={"group_id": "study"})).json()["facts"] == []


async def test_a_hard_forget_returns_no_batch(client: httpx.AsyncClient, memory: Any) -> None:
    await seed(client, memory)
    gone = (await client.delete("/v1/people/ni", params={"hard": "true", "reason": "asked to"})).json()
    assert gone["mode"] == "hard" and gone["batch"] is None and gone["record"]
    log = (await client.get("/v1/forget-log")).json()["entries"]
    assert log and all("ni" != e.get("ref") and "周霓" not in str(e) for e in log)


async def test_errors_name_what_to_fix(client: httpx.AsyncClient, anon: httpx.AsyncClient, app: Any,
                                       other_key: str, admin_key: str, memory: Any) -> None:
    await seed(client, memory)
    assert "'nobody'" in problem(await client.delete("/v1/people/nobody"), 404, "not_found")["detail"]
    problem(await anon.delete("/v1/people/ni"), 401, "unauthorized")
    async with other(app, admin_key) as adm:
        problem(await adm.delete("/v1/people/ni"), 403, "forbidden")
    async with other(app, other_key) as c2:  # another tenant's person is invisible, and stays
        problem(await c2.delete("/v1/people/ni"), 404, "not_found")
        problem(await c2.delete("/v1/people/ni", params={"group_id": "study"}), 404, "not_found")
    assert (await client.get("/v1/people/ni")).status_code == 200


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/v1/people/a%20b", "person_id"),
        ("/v1/people/" + "x" * 129, "person_id"),
        ("/v1/people/ni?user_id=a&group_id=g", "user_id"),
        ("/v1/people/ni?group_id=bad%20id", "group_id"),
        ("/v1/people/ni?hard=perhaps", "hard"),
        ("/v1/people/ni?dry_run=2", "dry_run"),
        ("/v1/people/ni?reason=" + "x" * 501, "reason"),
    ],
)
async def test_bad_input_names_the_field(client: httpx.AsyncClient, path: str, field: str) -> None:
    detail = problem(await client.delete(path), 422, "invalid_input")["detail"]
    assert field in detail, detail


async def test_the_route_is_documented(anon: httpx.AsyncClient) -> None:
    spec = (await anon.get("/openapi.json")).json()
    op = spec["paths"]["/v1/people/{person_id}"]["delete"]
    assert op["tags"] == ["people"] and "restore" in op["description"]
    assert {"401", "404", "422"} <= op["responses"].keys()
    assert {p["name"] for p in op["parameters"]} >= {"person_id", "group_id", "user_id", "hard", "dry_run"}
    assert {"batch", "turns", "facts", "aliases", "record"} <= spec["components"]["schemas"]["PersonForgetOut"][
        "properties"].keys()
