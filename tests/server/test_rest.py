"""Every REST route in-process, with the happy path, auth and error cases."""

from __future__ import annotations

from typing import Any, get_args

import httpx
import pytest

from pmemo import errors  # noqa
from pmemo.models import Tier
from pmemo.server import create_app
from pmemo.server.problems import STATUS

from .conftest import BASE

ALICE = {"user_id": "alice", "session_id": "s1"}


async def add(client: httpx.AsyncClient, content: str, **kw: Any) -> dict[str, Any]:
    r = await client.post("/v1/turns", json={**ALICE, "content": content, **kw})
    assert r.status_code == 201, r.text
    return r.json()


def problem(r: httpx.Response, status: int, code: str | None = None) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert body["status"] == status and body["detail"]
    assert "Traceback" not in r.text
    if code:
        assert body["code"] == code
    return body


async def test_add_one_and_batch(client: httpx.AsyncClient) -> None:
    one = await add(
        client,
        "I moved to Lisbon last spring.",
        role="user",
        actor="Alice",
        metadata={"src": "test"},
    )
    assert one["content"].startswith("I moved") and one["step"] == 1
    assert one["user_id"] == "alice" and one["metadata"] == {"src": "test"}
    r = await client.post(
        "/v1/turns",
        json={
            "turns": [
                {**ALICE, "content": "Nice, how is Lisbon?", "role": "assistant"},
                {
                    **ALICE,
                    "content": "Sunny, and I adopted a cat named Miso.",
                    "timestamp": "2024-05-01T10:00:00+00:00",
                },
            ]
        },
    )
    assert r.status_code == 201, r.text
    turns = r.json()["turns"]
    assert [t["step"] for t in turns] == [2, 3]
    assert turns[1]["timestamp"].startswith("2024-05-01T10:00:00")


async def test_search_and_context(client: httpx.AsyncClient, memory: Any) -> None:
    await add(client, "My cat is called Miso.")
    await add(client, "I work as a nurse in Porto.")
    await memory.drain()
    r = await client.post("/v1/search", json={"user_id": "alice", "query": "cat Miso", "limit": 5})
    assert r.status_code == 200, r.text
    hits = r.json()["hits"]
    assert hits and "Miso" in hits[0]["text"]
    assert {"tier", "score", "why", "sources", "source_ids"} <= hits[0].keys()
    r = await client.post(
        "/v1/context",
        json={
            "user_id": "alice",
            "session_id": "s1",
            "query": "what is my cat's name?",
            "budget_tokens": 500,
        },
    )
    assert r.status_code == 200, r.text
    pack = r.json()
    assert "Miso" in pack["text"] and pack["budget"] == 500 and pack["tokens"] <= 500
    assert all(i["tier"] in get_args(Tier) for i in pack["items"])
    assert pack["text"].endswith("## Current input\nwhat is my cat's name?")
    # an agent that sends the message itself: the pack is memory only
    r = await client.post("/v1/context", json={"user_id": "alice", "session_id": "s1", "with_input": False,
                                               "query": "what is my cat's name?", "budget_tokens": 500})
    assert r.status_code == 200, r.text
    assert "Miso" in r.json()["text"] and "Current input" not in r.json()["text"]
    assert all(i["tier"] != "input" for i in r.json()["items"])
    r = await client.post("/v1/context", json={"user_id": "alice", "query": "cat", "with_input": "nope"})
    assert r.status_code == 422 and "with_input" in r.text


async def test_search_and_context_read_relative_dates_from_when_asked(
    client: httpx.AsyncClient, memory: Any
) -> None:
    for day, dish in [(1, "a mushroom risotto"), (20, "a vegetable curry")]:
        await add(client, f"I cooked {dish} for dinner.", session_id=f"d{day}",
                  timestamp=f"2024-03-{day:02d}T19:00:00+00:00")
    await memory.drain()
    for at, dish in [("2024-03-02T09:00:00+00:00", "risotto"), ("2024-03-21T09:00:00+00:00", "curry")]:
        question = {"user_id": "alice", "query": "What did I cook yesterday?", "at": at}
        r = await client.post("/v1/search", json={**question, "limit": 1})
        assert r.status_code == 200, r.text
        assert dish in r.json()["hits"][0]["text"]
        r = await client.post("/v1/context", json={**question, "budget_tokens": 200})
        assert r.status_code == 200, r.text
        assert dish in r.json()["items"][0]["text"]


async def test_turns_sessions_owners(client: httpx.AsyncClient) -> None:
    a = await add(client, "first")
    await add(client, "second", session_id="s2")
    r = await client.get("/v1/turns", params={"user_id": "alice"})
    assert [t["content"] for t in r.json()["turns"]] == ["first", "second"]
    r = await client.get("/v1/turns", params={"user_id": "alice", "session_id": "s2"})
    assert [t["content"] for t in r.json()["turns"]] == ["second"]
    r = await client.get(f"/v1/turns/{a['id']}")
    assert r.json()["content"] == "first"
    r = await client.get("/v1/sessions", params={"user_id": "alice"})
    assert sorted(s["session_id"] for s in r.json()["sessions"]) == ["s1", "s2"]
    r = await client.get("/v1/owners")
    assert r.json()["owners"] == ["u:alice"]


async def test_delete_turn_session_owner(client: httpx.AsyncClient) -> None:
    a = await add(client, "forget me")
    await add(client, "keep me")
    await add(client, "other session", session_id="s2")
    r = await client.delete(f"/v1/turns/{a['id']}")
    assert r.status_code == 200 and isinstance(r.json()["removed"], dict)
    problem(await client.get(f"/v1/turns/{a['id']}"), 404, "not_found")
    r = await client.delete("/v1/sessions/s2", params={"user_id": "alice"})
    assert r.status_code == 200
    r = await client.get("/v1/sessions", params={"user_id": "alice"})
    assert [s["session_id"] for s in r.json()["sessions"]] == ["s1"]
    r = await client.delete("/v1/owners", params={"user_id": "alice"})
    assert r.status_code == 200
    r = await client.get("/v1/turns", params={"user_id": "alice"})
    assert r.json()["turns"] == []


async def test_key_memory_crud(client: httpx.AsyncClient) -> None:
    r = await client.post("/v1/key", json={"user_id": "alice", "text": "Prefers short answers."})
    assert r.status_code == 201, r.text
    line = r.json()
    assert line["origin"] == "user"
    r = await client.put(f"/v1/key/{line['id']}", json={"text": "Prefers answers in Portuguese."})
    assert r.json()["text"] == "Prefers answers in Portuguese."
    r = await client.get("/v1/key", params={"user_id": "alice"})
    assert [k["text"] for k in r.json()["lines"]] == ["Prefers answers in Portuguese."]
    r = await client.post("/v1/context", json={"user_id": "alice", "query": "hi"})
    assert r.json()["items"][0]["tier"] == "key"
    assert (await client.delete(f"/v1/key/{line['id']}")).status_code == 204
    problem(await client.delete(f"/v1/key/{line['id']}"), 404)
    problem(await client.put(f"/v1/key/{line['id']}", json={"text": "x"}), 404)


async def test_summaries_clusters_stats(client: httpx.AsyncClient, memory: Any) -> None:
    r = await client.post(
        "/v1/turns",
        json={
            "turns": [
                {**ALICE, "content": f"Message number {i} about gardening and tomatoes."}
                for i in range(30)
            ]
        },
    )
    assert r.status_code == 201
    await memory.drain()
    r = await client.get("/v1/summaries", params={"user_id": "alice", "session_id": "s1"})
    assert r.status_code == 200
    summaries = r.json()["summaries"]
    for s in summaries:
        assert s["step_from"] <= s["step_to"]
    r = await client.get("/v1/clusters", params={"user_id": "alice"})
    assert r.status_code == 200
    for c in r.json()["clusters"]:
        assert c["size"] >= 1 and c["hits"] >= 0
    if summaries:
        sid = summaries[0]["id"]
        assert (await client.delete(f"/v1/summaries/{sid}")).status_code == 204
    problem(await client.delete("/v1/summaries/999999"), 404)
    r = await client.get("/v1/stats")
    assert r.status_code == 200 and r.json()["tenant"] == "t1"


async def test_health(anon: httpx.AsyncClient) -> None:
    assert (await anon.get("/healthz")).json() == {"status": "ok"}
    assert (await anon.get("/readyz")).json() == {"status": "ready"}


# auth -------------------------------------------------------------------
ROUTES = [
    ("POST", "/v1/turns"),
    ("POST", "/v1/search"),
    ("POST", "/v1/context"),
    ("GET", "/v1/turns?user_id=a"),
    ("GET", "/v1/turns/1"),
    ("DELETE", "/v1/turns/1"),
    ("GET", "/v1/sessions?user_id=a"),
    ("DELETE", "/v1/sessions/s1?user_id=a"),
    ("GET", "/v1/owners"),
    ("DELETE", "/v1/owners?user_id=a"),
    ("GET", "/v1/key?user_id=a"),
    ("POST", "/v1/key"),
    ("PUT", "/v1/key/1"),
    ("DELETE", "/v1/key/1"),
    ("GET", "/v1/summaries?user_id=a"),
    ("DELETE", "/v1/summaries/1"),
    ("GET", "/v1/clusters?user_id=a"),
    ("GET", "/v1/stats"),
    ("GET", "/v1/admin/tenants"),
    ("POST", "/v1/admin/keys"),
    ("GET", "/v1/admin/keys"),
    ("DELETE", "/v1/admin/keys/k_0123456789ab"),
    ("DELETE", "/v1/admin/tenants/t1"),
]


@pytest.mark.parametrize(("method", "path"), ROUTES)
async def test_every_route_needs_a_key(anon: httpx.AsyncClient, method: str, path: str) -> None:
    body = problem(await anon.request(method, path, json={}), 401, "unauthorized")
    assert "Bearer" in body["detail"]
    r = await anon.request(method, path, json={}, headers={"Authorization": "Bearer pm_wrong"})
    problem(r, 401, "unauthorized")
    assert r.headers["www-authenticate"] == "Bearer"
    r = await anon.request(method, path, json={}, headers={"Authorization": "Basic abc"})
    problem(r, 401)


async def test_tenants_are_isolated(client: httpx.AsyncClient, app: Any, other_key: str) -> None:
    turn = await add(client, "secret of tenant one")
    r = await client.post("/v1/key", json={"user_id": "alice", "text": "t1 only"})
    key_id = r.json()["id"]
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url=BASE,
        headers={"Authorization": f"Bearer {other_key}"},
    ) as other:
        problem(await other.get(f"/v1/turns/{turn['id']}"), 404)
        problem(await other.delete(f"/v1/turns/{turn['id']}"), 404)
        problem(await other.put(f"/v1/key/{key_id}", json={"text": "x"}), 404)
        problem(await other.delete(f"/v1/key/{key_id}"), 404)
        assert (await other.get("/v1/owners")).json()["owners"] == []
        r = await other.get("/v1/turns", params={"user_id": "alice"})
        assert r.json()["turns"] == []
        r = await other.post("/v1/search", json={"user_id": "alice", "query": "secret"})
        assert r.json()["hits"] == []
        r = await other.get("/v1/key", params={"user_id": "alice"})
        assert r.json()["lines"] == []
    assert (await client.get(f"/v1/turns/{turn['id']}")).status_code == 200


async def test_admin_routes(app: Any, key: str, admin_key: str, client: httpx.AsyncClient) -> None:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url=BASE,
        headers={"Authorization": f"Bearer {admin_key}"},
    ) as admin:
        problem(await admin.get("/v1/stats"), 403, "forbidden")
        r = await admin.post("/v1/admin/keys", json={"tenant": "acme"})
        assert r.status_code == 201
        new_key = r.json()["key"]
        tenants = {t["tenant"]: t for t in (await admin.get("/v1/admin/tenants")).json()["tenants"]}
        assert tenants["acme"]["active_keys"] == 1 and "t1" in tenants
        r = await client.get("/v1/stats", headers={"Authorization": f"Bearer {new_key}"})
        assert r.json()["tenant"] == "acme"
        assert (await admin.delete("/v1/admin/tenants/acme")).json()["removed"]["revoked_keys"] == 1
        problem(await client.get("/v1/stats", headers={"Authorization": f"Bearer {new_key}"}), 401)
        problem(await admin.delete("/v1/admin/tenants/acme"), 404)
    problem(await client.get("/v1/admin/tenants"), 403, "forbidden")


# validation -------------------------------------------------------------
@pytest.mark.parametrize(
    "body",
    [
        {"session_id": "s1", "content": "no owner"},
        {"user_id": "a", "group_id": "g", "session_id": "s1", "content": "two owners"},
        {"user_id": "a b", "session_id": "s1", "content": "bad id"},
        {"user_id": "a", "session_id": "s1", "content": ""},
        {"user_id": "a", "session_id": "s1", "content": "x" * 100_001},
        {"user_id": "a", "session_id": "s1", "content": "x", "tenant_id": "t2"},
        {"turns": []},
    ],  # a batch over PMEMO_MAX_BATCH is 413: test_limits.py
)
async def test_bad_turns_are_422(client: httpx.AsyncClient, body: dict[str, Any]) -> None:
    problem(await client.post("/v1/turns", json=body), 422, "invalid_input")


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/context", {"user_id": "a", "query": "q", "budget_tokens": 0}),
        ("/v1/context", {"user_id": "a", "query": "q", "budget_tokens": 10**6}),
        ("/v1/search", {"user_id": "a", "query": "q", "limit": 0}),
        ("/v1/search", {"user_id": "a", "query": ""}),
        ("/v1/search", {"user_id": "a", "query": "q", "at": "last week"}),
        ("/v1/context", {"user_id": "a", "query": "q", "at": "2024-13-01"}),
        ("/v1/key", {"user_id": "a", "text": ""}),
    ],
)
async def test_limits_are_422(client: httpx.AsyncClient, path: str, body: dict[str, Any]) -> None:
    problem(await client.post(path, json=body), 422, "invalid_input")


async def test_malformed_json_is_422(client: httpx.AsyncClient) -> None:
    r = await client.post(
        "/v1/turns", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    problem(r, 422)


async def test_unknown_route_is_problem(client: httpx.AsyncClient) -> None:
    problem(await client.get("/v1/nope"), 404)


# the error table and no stack traces --------------------------------------
class Raising:
    """A memory whose every call raises the given exception."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def __getattr__(self, name: str) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:
            raise self.exc

        return call


@pytest.mark.parametrize(("exc", "status"), [(cls("boom"), s) for cls, s in STATUS])
async def test_error_table(keys: Any, key: str, exc: Exception, status: int) -> None:
    app = create_app(Raising(exc), keys, mcp=False, web=False)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url=BASE,
        headers={"Authorization": f"Bearer {key}"},
    ) as c:
        body = problem(await c.get("/v1/stats"), status, exc.code)  # type: ignore[attr-defined]
        if status >= 500:
            assert "boom" not in body["detail"]


async def test_unexpected_error_leaks_nothing(keys: Any, key: str) -> None:
    app = create_app(Raising(RuntimeError("secret internals")), keys, mcp=False, web=False)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(
        transport=transport, base_url=BASE, headers={"Authorization": f"Bearer {key}"}
    ) as c:
        r = await c.get("/v1/stats")
    assert r.status_code == 500
    assert "secret" not in r.text and "Traceback" not in r.text
    assert r.json()["code"] == "internal_error"


async def test_readyz_when_store_fails(keys: Any) -> None:
    app = create_app(Raising(errors.StoreLocked("locked")), keys, mcp=False, web=False)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as c:
        r = await c.get("/readyz")
    assert r.status_code == 503


# CORS and docs ------------------------------------------------------------
async def test_cors_off_by_default(anon: httpx.AsyncClient) -> None:
    r = await anon.options(
        "/v1/search",
        headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
    )
    assert "access-control-allow-origin" not in r.headers


async def test_cors_when_asked(memory: Any, keys: Any) -> None:
    app = create_app(memory, keys, cors_origins=["http://localhost:3000"], mcp=False)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as c:
        r = await c.options(
            "/v1/search",
            headers={"Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST"},
        )
    assert r.headers["access-control-allow-origin"] == "http://localhost:3000"


async def test_docs_are_local(anon: httpx.AsyncClient, app: Any) -> None:
    r = await anon.get("/docs")
    assert r.status_code == 200
    assert "cdn" not in r.text.lower() and "https://" not in r.text
    if app.state.docs == "swagger-ui":
        assert (await anon.get("/docs-assets/swagger-ui-bundle.js")).status_code == 200
        assert (await anon.get("/docs-assets/swagger-ui.css")).status_code == 200
    spec = (await anon.get("/openapi.json")).json()
    for path in ("/v1/turns", "/v1/search", "/v1/context"):
        assert "post" in spec["paths"][path]
    schemas = spec["components"]["schemas"]
    assert schemas["TurnIn"].get("examples") and schemas["ContextIn"].get("examples")
    assert schemas["TurnIn"]["properties"]["content"]["maxLength"] == 100_000


async def test_inspector_page_is_served(anon: httpx.AsyncClient) -> None:
    r = await anon.get("/")
    assert r.status_code == 200 and "pmemo" in r.text
    for asset in ("/static/app.js", "/static/style.css"):
        a = await anon.get(asset)
        assert a.status_code == 200 and "http://" not in a.text and "https://" not in a.text


async def test_every_operation_is_documented(anon: httpx.AsyncClient) -> None:
    spec = (await anon.get("/openapi.json")).json()
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            assert op.get("description"), f"{method.upper()} {path} has no description"


async def test_oversized_body_is_413(client: httpx.AsyncClient) -> None:
    r = await client.post(
        "/v1/turns", content=b"x" * (65 * 1024 * 1024), headers={"Content-Type": "application/json"}
    )
    problem(r, 413)


async def test_unknown_query_parameter_is_422(client: httpx.AsyncClient) -> None:
    body = problem(await client.get("/v1/turns", params={"user_id": "a", "usre_id": "b"}), 422)
    assert "usre_id" in body["detail"] and "user_id" in body["detail"]
    body = problem(await client.get("/v1/turns", params=[("user_id", "a"), ("text", "x"), ("text", "y")]), 422)
    assert "'text'" in body["detail"] and "more than once" in body["detail"]

