"""Issue 18 §5 and §12 (the API part), on the real app and store over an HTTP client: lone
surrogates anywhere in metadata, strict types, unparsable bodies, 422s that name the field in
plain words, and an OpenAPI document that declares every problem response the routes send."""

from __future__ import annotations

import unicodedata
from typing import Any

import httpx
import pytest

from pmemo.schemas.people import CONTROL_RANGES
from pmemo.server.input_errors import detail, plain_all

from .test_rest import problem

ALICE = {"user_id": "alice", "session_id": "s1"}
PROBLEM_JSON = "application/problem+json"


def raw(body: str) -> dict[str, Any]:
    """A request whose JSON text is sent as written (json= would re-encode it)."""
    return {"content": body.encode("utf-8"), "headers": {"Content-Type": "application/json"}}


async def stored(client: httpx.AsyncClient) -> list[dict[str, Any]]:
    return (await client.get("/v1/turns", params={"user_id": "alice"})).json()["turns"]  # type: ignore[no-any-return]


# §5: a lone surrogate in metadata, at any depth, in a key or a value ----------------------
@pytest.mark.parametrize(
    ("metadata", "where"),
    [
        (r'{"\ud800": "v"}', "metadata: the key '\\ud800' contains a lone surrogate (U+D800)"),
        (r'{"a": {"\udc00b": 1}}', "metadata.a: the key '\\udc00b' contains a lone surrogate (U+DC00)"),
        (r'{"k": "\ud800"}', "metadata.k: contains a lone surrogate (U+D800)"),
        (r'{"a": {"b": [1, 2, "x\udfff"]}}', "metadata.a.b[2]: contains a lone surrogate (U+DFFF)"),
        (r'{"a b": [{"c": ["\ud83d"]}]}', "metadata['a b'][0].c[0]: contains a lone surrogate (U+D83D)"),
    ],
)
async def test_a_lone_surrogate_in_metadata_is_422_naming_the_path(
    client: httpx.AsyncClient, metadata: str, where: str
) -> None:
    one = f'{{"user_id": "alice", "session_id": "s1", "content": "hi", "metadata": {metadata}}}'
    body = problem(await client.post("/v1/turns", **raw(one)), 422, "invalid_input")
    assert body["detail"].startswith(where), body["detail"]
    assert "not valid Unicode" in body["detail"]
    batch = f'{{"turns": [{{"user_id": "alice", "session_id": "s1", "content": "ok"}}, {one}]}}'
    body = problem(await client.post("/v1/turns", **raw(batch)), 422, "invalid_input")
    assert body["detail"].startswith("turns[1]." + where), body["detail"]
    assert await stored(client) == []  # nothing of either was kept


async def test_a_proper_pair_and_plain_metadata_are_kept(client: httpx.AsyncClient) -> None:
    smile = r"\ud83d\ude00"  # one character, written as its UTF-16 pair
    one = f'{{"user_id": "alice", "session_id": "s1", "content": "hi {smile}", "metadata": {{"{smile}": ["{smile}"]}}}}'
    r = await client.post("/v1/turns", **raw(one))
    assert r.status_code == 201, r.text
    assert r.json()["metadata"] == {"😀": ["😀"]} and r.json()["content"] == "hi 😀"


# §12: strict types -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "body", "field", "says"),
    [
        ("/v1/search", {"user_id": "a", "query": "q", "limit": True}, "limit", "must be an integer, not true"),
        ("/v1/search", {"user_id": "a", "query": "q", "limit": "5"}, "limit", "must be an integer, not the string '5'"),
        ("/v1/search", {"user_id": "a", "query": "q", "limit": 5.5}, "limit", "must be an integer, not 5.5"),
        ("/v1/context", {"user_id": "a", "query": "q", "budget_tokens": "100"}, "budget_tokens", "integer"),
        ("/v1/turns", {**ALICE, "content": 5}, "content", "must be a string, not 5"),
        ("/v1/turns", {**ALICE, "content": "x", "user_id": 7}, "user_id", "must be a string, not 7"),
        ("/v1/turns", {**ALICE, "content": "x", "timestamp": 1700000000}, "timestamp", "ISO 8601"),
        ("/v1/turns", {**ALICE, "content": "x", "timestamp": "soon"}, "timestamp", "ISO 8601"),
        ("/v1/turns", {**ALICE, "content": "x", "role": "robot"}, "role", "must be one of user, assistant"),
        ("/v1/forget", {"turn_ids": [1], "hard": "yes"}, "hard", "must be true or false"),
        ("/v1/forget", {"turn_ids": ["1"]}, "turn_ids[0]", "must be an integer"),
        ("/v1/restore", {"batch": True}, "batch", "must be an integer, not true"),
        ("/v1/sweep", {"dry_run": 0}, "dry_run", "must be true or false, not 0"),
        ("/v1/key", {"user_id": "a", "text": 5}, "text", "must be a string"),
    ],
)
async def test_no_type_is_coerced(
    client: httpx.AsyncClient, path: str, body: dict[str, Any], field: str, says: str
) -> None:
    detail = problem(await client.post(path, json=body), 422, "invalid_input")["detail"]
    assert detail.startswith(f"{field}: "), detail
    assert says in detail, detail


async def test_what_json_means_is_still_taken(client: httpx.AsyncClient) -> None:
    turn = (await client.post("/v1/turns", json={**ALICE, "content": "x", "timestamp": "2024-05-01T10:00:00+08:00"}))
    assert turn.status_code == 201, turn.text
    assert turn.json()["timestamp"].startswith("2024-05-01T10:00:00")
    # JSON has one number type: 5.0 is the integer 5
    r = await client.post("/v1/search", json={"user_id": "alice", "query": "x", "limit": 5.0, "at": "2024-05-02"})
    assert r.status_code == 200, r.text


# §12: bodies that are not JSON are 422 like any other input error --------------------------
@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b'{"user_id": "a",', "the body is not valid JSON: Expecting property name"),
        (b"{not json", "the body is not valid JSON"),
        (b'{"user_id": "\xff"}', "the body is not valid JSON: it is not UTF-8 text"),
        (b"", "the body: is required"),
        (b"[1, 2]", "the body: must be a JSON object"),
    ],
)
async def test_a_body_that_is_not_json_is_422(client: httpx.AsyncClient, content: bytes, says: str) -> None:
    r = await client.post("/v1/search", content=content, headers={"Content-Type": "application/json"})
    assert problem(r, 422, "invalid_input")["detail"].startswith(says)


# §12: 422s name the field in plain words, and only the alternative that was meant ----------
async def test_a_bad_field_of_one_turn_is_named_plainly(client: httpx.AsyncClient) -> None:
    r = await client.post("/v1/turns", json={**ALICE, "content": "x", "actor_id": "a b"})
    body = problem(r, 422, "invalid_input")
    assert body["detail"] == "actor_id: must be 1-128 letters, digits or . _ : @ - (no spaces)"
    assert [(e["field"], e["loc"]) for e in body["errors"]] == [("actor_id", ["body", "actor_id"])]
    for internal in ("function-after", "TurnIn", "TurnBatch", "_one_owner", "turns"):
        assert internal not in r.text, internal


async def test_a_batch_error_lists_only_the_batch(client: httpx.AsyncClient) -> None:
    bad = {**ALICE, "content": "", "actor_id": "a b"}
    r = await client.post("/v1/turns", json={"turns": [{**ALICE, "content": "ok"}, bad]})
    body = problem(r, 422, "invalid_input")
    assert {e["field"] for e in body["errors"]} == {"turns[1].content", "turns[1].actor_id"}
    assert body["detail"].startswith("turns[1].") and "(and 1 more problem in errors)" in body["detail"]
    for internal in ("function-after", "TurnIn", "TurnBatch", "session_id"):
        assert internal not in r.text, internal


async def test_owner_and_query_errors_read_plainly(client: httpx.AsyncClient) -> None:
    body = problem(await client.post("/v1/turns", json={"session_id": "s1", "content": "x"}), 422)
    assert body["detail"] == "give exactly one of user_id or group_id"
    body = problem(await client.post("/v1/turns", json={**ALICE, "content": "x", "colour": "red"}), 422)
    assert body["detail"] == "colour: is not a field of this request (check the spelling)"
    body = problem(await client.get("/v1/turns", params={"user_id": "a b"}), 422)
    assert body["detail"] == "user_id (query parameter): must be 1-128 letters, digits or . _ : @ - (no spaces)"
    body = problem(await client.get("/v1/turns/0"), 422)
    assert body["detail"] == "turn_id (path parameter): must be at least 1, not 0"


# §12: the OpenAPI document declares what the routes send -----------------------------------
async def test_every_problem_response_is_declared_as_problem_json(anon: httpx.AsyncClient) -> None:
    spec = (await anon.get("/openapi.json")).json()
    assert "Problem" in spec["components"]["schemas"]
    for path, item in spec["paths"].items():
        for method, op in item.items():
            codes = {int(c) for c in op["responses"] if c.isdigit()}
            for code in codes:
                if code >= 400:
                    assert list(op["responses"][str(code)]["content"]) == [PROBLEM_JSON], (method, path, code)
            if path.startswith("/v1"):
                assert {401, 403, 429} <= codes, (method, path, codes)
            if op.get("parameters") or op.get("requestBody"):
                assert 422 in codes, (method, path)
            if any(p["in"] == "path" for p in op.get("parameters", [])):
                assert 404 in codes, (method, path)
            if op.get("requestBody"):
                assert 413 in codes, (method, path)
    assert "409" in spec["paths"]["/v1/key/{key_id}"]["put"]["responses"]
    assert {"404", "409"} <= spec["paths"]["/v1/restore"]["post"]["responses"].keys()


async def test_a_405_lists_every_method_of_the_path(client: httpx.AsyncClient) -> None:
    for method, path, allow in [
        ("PATCH", "/v1/key/1", "GET, PUT, DELETE"),  # three routes of their own
        ("DELETE", "/v1/turns", "GET, POST"),
        ("OPTIONS", "/v1/people/resolve", "POST"),  # as OpenAPI reads it, not /v1/people/{person_id}
        ("TRACE", "/healthz", "GET"),
    ]:
        r = await client.request(method, path)
        assert r.status_code == 405 and r.headers["allow"] == allow, (method, path, r.headers.get("allow"))
        assert r.headers["content-type"].startswith(PROBLEM_JSON)


def test_the_name_pattern_holds_every_control_and_format_character() -> None:
    """The schema's rule for names is the library's (check_alias refuses Cc and Cf): on a
    Python with a newer Unicode, this says which ranges to update."""
    listed = {c for a, b in CONTROL_RANGES for c in range(a, b + 1)}
    actual = {c for c in range(0x110000) if unicodedata.category(chr(c)) in ("Cc", "Cf")}
    assert listed == actual, (sorted(map(hex, actual - listed))[:10], sorted(map(hex, listed - actual))[:10])


def test_a_union_member_and_its_null_alternative_stay_out_of_the_message() -> None:
    """``str | None`` fails as both members: the field is named once, as HTTP writes a header."""
    errors = plain_all([
        {"loc": ("header", "if-match", "constrained-str"), "type": "string_pattern_mismatch",
         "msg": "String should match pattern 'x'", "ctx": {"pattern": "x"}, "input": "abc"},
        {"loc": ("header", "if-match", "none"), "type": "none_required", "msg": "Input should be None"},
    ])
    assert [(e["field"], e["in"], e["msg"]) for e in errors] == [("If-Match", "header", "must match the pattern x")]
    assert detail(errors) == "If-Match (header): must match the pattern x"
