"""Memory blocks over REST (httpx against the real app) and MCP (the SDK's own client): listed,
edited with MemGPT's tools where a file allows it, versions and If-Match, every refusal with its
status, and one tenant's blocks out of another's sight and reach."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client

from pmemo import Memory
from pmemo.mcp import build_server

from .conftest import BASE
from .test_mcp import data

NOTES = ("---\nlabel: notes\ndescription: What to remember\nread_only: false\nlimit: 200\ntenant: t1\n"
         "group: study\n---\n")
FILES = {
    "notes.md": NOTES + "Ni likes tea.\n",
    "persona.md": "---\nlabel: persona\ntenant: t1\n---\nI am Momo.\n",
    "rules.md": "---\nlabel: rules\ntenant: '*'\n---\nBe kind.\n",
    "broken.md": "---\nlabel: oops\ntenant: t1\ngroup: study\nlimit: 5\n---\nmore than five\n",
    "garbled.md": "---\nlabel: [t1\n---\nhalf\n",  # no readable tenant: the default one's, not t1's
    "theirs.md": "---\nlabel: secret\ntenant: t2\nread_only: false\n---\nt2's zebrafish plan\n",
}
STUDY = {"group_id": "study"}


@pytest.fixture
def blocks_dir(tmp_path: Path) -> Path:
    root = tmp_path / "blocks"
    root.mkdir()
    for name, text in FILES.items():
        (root / name).write_text(text, "utf-8")
    return root


@pytest.fixture
async def memory(tmp_path: Path, blocks_dir: Path) -> AsyncIterator[Memory]:
    m = await Memory.open(tmp_path / "memory", embedder="hashing", blocks_dir=blocks_dir)
    yield m
    await m.close()


@pytest.fixture
async def other(app: Any, other_key: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE,
                                 headers={"Authorization": f"Bearer {other_key}"}) as c:
        yield c


async def test_list_blocks(client: httpx.AsyncClient) -> None:
    r = await client.get("/v1/blocks", params=STUDY)
    assert r.status_code == 200, r.text
    got = {b["label"]: b for b in r.json()["blocks"]}
    assert list(got) == ["notes", "oops", "persona", "rules"]  # t1's and everyone's; t2's is not there
    notes = got["notes"]
    assert (notes["value"], notes["chars"], notes["limit"], notes["read_only"], notes["editable"]) == (
        "Ni likes tea.", 13, 200, False, True)
    assert (notes["file"], notes["group"], notes["tenant"], notes["problem"]) == ("notes.md", "study", "t1", None)
    assert got["rules"]["tenant"] == "*" and not got["rules"]["editable"]
    assert "over its limit of 5" in got["oops"]["problem"] and not got["oops"]["editable"]
    everything = (await client.get("/v1/blocks")).json()["blocks"]
    assert {b["file"] for b in everything} == {"notes.md", "broken.md", "persona.md", "rules.md"}
    r = await client.get("/v1/blocks", params={**STUDY, "user_id": "ann"})
    assert r.status_code == 422 and "at most one" in r.json()["detail"]


async def test_append_and_replace_with_versions(client: httpx.AsyncClient, blocks_dir: Path) -> None:
    r = await client.post("/v1/blocks/notes/append", json={**STUDY, "text": "Wt works at Tencent."})
    assert r.status_code == 200, r.text
    block = r.json()
    assert block["value"] == "Ni likes tea.\nWt works at Tencent."
    assert r.headers["etag"] == f'"{block["version"]}"'
    assert (blocks_dir / "notes.md").read_text("utf-8") == NOTES + "Ni likes tea.\nWt works at Tencent.\n"
    # If-Match with the version read: applied; a stale one: 409 with the current version, file unchanged
    stale = block["version"]
    r = await client.post("/v1/blocks/notes/replace", json={**STUDY, "old": "Tencent", "new": "Alibaba"},
                          headers={"If-Match": f'"{stale}"'})
    assert r.status_code == 200, r.text
    current = r.json()["version"]
    on_disk = (blocks_dir / "notes.md").read_bytes()
    r = await client.post("/v1/blocks/notes/replace", json={**STUDY, "old": "Alibaba", "new": "Baidu",
                                                             "version": stale})
    assert r.status_code == 409 and r.json()["current_version"] == current
    assert r.headers["etag"] == f'"{current}"'
    assert (blocks_dir / "notes.md").read_bytes() == on_disk
    ctx = await client.post("/v1/context", json={**STUDY, "query": "where does wt work?", "format": "memgpt"})
    assert ctx.status_code == 200 and ctx.json()["text"].startswith("<memory_blocks>")
    assert "Wt works at Alibaba." in ctx.json()["text"] and ctx.json()["over_budget"] is False


@pytest.mark.parametrize(
    ("path", "body", "status", "says"),
    [
        ("/v1/blocks/persona/append", {"text": "x"}, 403, "read-only: set `read_only: false` in persona.md"),
        ("/v1/blocks/rules/append", {**STUDY, "text": "x"}, 403, "for every tenant"),
        ("/v1/blocks/notes/append", {**STUDY, "text": "x" * 200}, 422, "over its limit of 200"),
        ("/v1/blocks/notes/replace", {**STUDY, "old": "coffee", "new": "x"}, 422, "does not occur"),
        ("/v1/blocks/nothing/append", {**STUDY, "text": "x"}, 404, "no block labelled 'nothing'"),
        ("/v1/blocks/notes/append", {**STUDY, "text": "x", "extra": 1}, 422, "extra"),
        ("/v1/blocks/bad%20label/append", {"text": "x"}, 422, "label"),
        ("/v1/blocks/notes/replace", {**STUDY, "old": "tea", "new": "x", "version": 0}, 422, "version"),
    ],
)
async def test_refusals(client: httpx.AsyncClient, blocks_dir: Path, path: str, body: dict[str, Any], status: int,
                        says: str) -> None:
    before = {p.name: p.read_bytes() for p in blocks_dir.iterdir()}
    r = await client.post(path, json=body)
    assert r.status_code == status, r.text
    assert says in r.text
    assert {p.name: p.read_bytes() for p in blocks_dir.iterdir()} == before


async def test_another_tenant_neither_sees_nor_edits(client: httpx.AsyncClient, other: httpx.AsyncClient,
                                                    blocks_dir: Path) -> None:
    seen = (await other.get("/v1/blocks")).json()["blocks"]
    assert {b["label"] for b in seen} == {"secret", "rules"}  # its own and everyone's
    assert "Ni likes tea" not in str(seen) and "Momo" not in str(seen)
    for label, body in (("notes", {**STUDY, "text": "t2 was here"}), ("persona", {"text": "x"})):
        r = await other.post(f"/v1/blocks/{label}/append", json=body)
        assert r.status_code == 404, r.text
    r = await other.post("/v1/blocks/notes/replace", json={**STUDY, "old": "tea", "new": "x"})
    assert r.status_code == 404
    assert (blocks_dir / "notes.md").read_text("utf-8") == FILES["notes.md"]
    r = await client.post("/v1/blocks/secret/append", json={"text": "t1 was here"})
    assert r.status_code == 404 and "zebrafish" not in r.text


async def test_context_reports_blocks_over_the_budget(client: httpx.AsyncClient, blocks_dir: Path,
                                                       memory: Memory) -> None:
    (blocks_dir / "persona.md").write_text("---\nlabel: persona\ntenant: t1\n---\n" + "Momo " * 300 + "\n", "utf-8")
    while len((await memory.blocks(tenant_id="t1", group_id="study"))[2].value) < 1000:
        await asyncio.sleep(0.02)  # the watcher reloads it (test_folder.py times that)
    r = await client.post("/v1/context", json={**STUDY, "query": "hi", "budget_tokens": 64})
    body = r.json()
    assert r.status_code == 200 and body["over_budget"] is True and body["tokens"] > 64
    assert "over the budget of 64" in body["note"]
    assert [i["tier"] for i in body["items"]] == ["blocks", "blocks", "blocks"]


async def test_mcp_tools(memory: Memory, blocks_dir: Path) -> None:
    async with Client(build_server(memory, tenant="t1")) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert "label" in tools["core_memory_append"].input_schema["properties"]
        assert "format" in tools["get_context"].input_schema["properties"]
        listed = data(await client.call_tool("blocks", STUDY))["blocks"]
        assert [b["label"] for b in listed] == ["notes", "oops", "persona", "rules"]
        block = data(await client.call_tool("core_memory_append", {**STUDY, "label": "notes", "text": "Wt is tall."}))
        assert block["value"] == "Ni likes tea.\nWt is tall."
        replaced = data(await client.call_tool("core_memory_replace", {
            **STUDY, "label": "notes", "old_text": "tall", "new_text": "short", "version": block["version"]}))
        assert replaced["value"].endswith("Wt is short.")
        stale = await client.call_tool("core_memory_replace", {
            **STUDY, "label": "notes", "old_text": "short", "new_text": "x", "version": block["version"]})
        assert stale.is_error and "conflict: block 'notes' changed since version" in stale.content[0].text
        refused = await client.call_tool("core_memory_append", {**STUDY, "label": "persona", "text": "x"})
        assert refused.is_error and "forbidden: block 'persona' is read-only" in refused.content[0].text
        # without a label the tools act on key lines, as before
        line = data(await client.call_tool("core_memory_append", {**STUDY, "text": "Exams in December."}))
        assert line["text"] == "Exams in December." and "origin" in line
        ctx = data(await client.call_tool("get_context", {**STUDY, "query": "hi", "format": "memgpt"}))
        assert ctx["text"].startswith("<memory_blocks>") and "<notes>" in ctx["text"]
    async with Client(build_server(memory, tenant="t2")) as client:
        assert [b["label"] for b in data(await client.call_tool("blocks", STUDY))["blocks"]] == ["rules", "secret"]
        result = await client.call_tool("core_memory_append", {**STUDY, "label": "notes", "text": "x"})
        assert result.is_error and "not_found" in result.content[0].text
    assert (blocks_dir / "notes.md").read_text("utf-8").endswith("Ni likes tea.\nWt is short.\n")

