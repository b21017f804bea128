"""Nobody waits for anybody (DESIGN §7): a read's query is embedded on its own lane while the
background embeds another tenant's long turn (embedders/lanes.py), and a long turn keeps a
vector per piece, found by its best one and forgotten with it (stores/parts.py)."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from pmemo import Memory
from pmemo.embedders.cached import cache_key
from pmemo.embedders.e5 import E5Embedder
from pmemo.stores import parts

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
LONG = "我们昨天去了北京的一家老餐馆，吃了烤鸭和炸酱面，味道非常好。" * 40 + "后来我们决定明年春天去杭州看西湖。"


class Gated(E5Embedder):
    """The real e5, whose passage lane waits at ``gate`` (open at first) inside a slice."""

    def __init__(self) -> None:
        super().__init__()
        self.gate, self.entered = threading.Event(), threading.Event()
        self.gate.set()

    def _passages(self, pieces: list[str]) -> Any:
        self.entered.set()
        assert self.gate.wait(120), "the test never opened the gate"
        return super()._passages(pieces)


def part_refs(m: Memory, turn_id: int) -> list[int]:
    return sorted(m._store.vectors.get_vectors(parts.KIND, [parts.ref(turn_id, i) for i in range(64)]))


async def test_a_read_is_answered_while_another_tenants_long_turn_is_embedded(tmp_path) -> None:
    embedder = Gated()
    async with await Memory.open(tmp_path, embedder=embedder) as m:
        await m.add_many([{"user_id": "u", "session_id": "s", "tenant_id": "b", "timestamp": T0 + timedelta(minutes=i),
                           "content": f"the Hangzhou budget is {1000 + i} yuan"} for i in range(5)])
        await m.drain()
        embedder.gate.clear()
        embedder.entered.clear()
        try:
            turn = await m.add(user_id="u", session_id="s", tenant_id="a", content=LONG, timestamp=T0)
            assert await asyncio.to_thread(embedder.entered.wait, 60)  # the passage lane is held in e5
            hits = await asyncio.wait_for(m.search("what is the Hangzhou budget?", user_id="u", tenant_id="b"), 60)
            pack = await asyncio.wait_for(m.context("Hangzhou budget?", user_id="u", tenant_id="b"), 60)
            assert hits and pack.items and not embedder.gate.is_set()  # answered, the turn still held
        finally:
            embedder.gate.set()
        await m.drain()
        found = await m.search("明年春天去杭州看西湖", user_id="u", tenant_id="a")
        assert found and found[0].id == f"turn:{turn.id}"


async def test_a_long_turn_is_found_by_its_best_piece_and_forgotten_with_its_pieces(tmp_path) -> None:
    embedder = E5Embedder()
    pieces = embedder.pieces(LONG)
    assert len(pieces) > 1
    async with await Memory.open(tmp_path, embedder=embedder) as m:
        turn = await m.add(user_id="u", session_id="s", content=LONG, timestamp=T0)
        await m.add(user_id="u", session_id="s", content="周末我们去公园放风筝", timestamp=T0 + timedelta(minutes=1))
        await m.drain()
        assert part_refs(m, turn.id) == [parts.ref(turn.id, i) for i in range(len(pieces))]
        mean = m._store.vectors.get_vectors("turn", [turn.id])[turn.id]
        rows = embedder.embed_passages(pieces)
        assert np.allclose(mean, rows.sum(axis=0) / np.linalg.norm(rows.sum(axis=0)), atol=1e-5)
        qvec = embedder.embed_query("明年春天去杭州看西湖")
        hit = next(h for h in await m.search("明年春天去杭州看西湖", user_id="u") if h.id == f"turn:{turn.id}")
        assert f"cosine {float(np.max(rows @ qvec)):.3f}" in hit.why  # its best piece's, not the mean's

        report = await m.forget([turn.id], user_id="u", hard=True)
        assert report["turns"] == [turn.id]
        assert part_refs(m, turn.id) == []
        keys = [cache_key(embedder.model_id, p) for p in pieces]
        assert m._store.embed_cache.cache_get(keys) == {}  # nor their cached vectors: no trace of the text


async def test_a_restored_long_turn_gets_its_pieces_back(tmp_path) -> None:
    async with await Memory.open(tmp_path, embedder=E5Embedder()) as m:
        turn = await m.add(user_id="u", session_id="s", content=LONG, timestamp=T0)
        await m.drain()
        held = part_refs(m, turn.id)
        report = await m.forget([turn.id], user_id="u")
        assert part_refs(m, turn.id) == []
        await m.restore(report["batch"])
        await m.drain()
        assert part_refs(m, turn.id) == held
