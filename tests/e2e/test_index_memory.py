"""PMEMO_INDEX_MEMORY_MB (issue 18, part 2): past the bound, the least recently searched scopes'
vector indexes are dropped and read back from the store when next searched. Search gives the
same hits as without a bound, and turns added to or deleted from a dropped scope are not lost."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pmemo import Settings, SyncMemory
from pmemo.models import Scope

USERS = 700  # one or two turns each: ~1.6 MiB of indexes (hashing vectors, 256-d), bound 1 MiB
TOPICS = ["my cat Miso", "the trip to Lisbon", "the dentist on Friday", "learning Portuguese",
          "the payment bug", "running shoes", "my sister Ana"]
QUERY = "what did I say about {}?"


def items() -> list[dict[str, Any]]:
    out = []
    for i in range(USERS):
        out.append({"user_id": f"u{i}", "session_id": "s",
                    "content": f"Today I thought about {TOPICS[i % len(TOPICS)]} again."})
        if i % 3 == 0:
            out.append({"user_id": f"u{i}", "session_id": "s",
                        "content": f"Also {TOPICS[(i + 2) % len(TOPICS)]}, note {i}."})
    return out


def hits(mem: SyncMemory, i: int) -> list[tuple[str, float]]:
    found = mem.search(QUERY.format(TOPICS[i % len(TOPICS)]), user_id=f"u{i}", limit=5)
    return [(h.id, round(h.score, 4)) for h in found]


def held(mem: SyncMemory, user: str) -> bool:
    memory = mem._memory  # noqa: SLF001
    return bool(memory._store.vector_cache.held("turn", Scope.of(user_id=user).key,  # noqa: SLF001
                                                 memory._embed.model_id))  # noqa: SLF001


def test_search_is_the_same_when_scope_indexes_are_dropped(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with SyncMemory.open(data, embedder="hashing", settings=Settings(index_memory_mb=0)) as mem:
        mem.add_many(items())
        mem.drain()
        unbounded = {i: hits(mem, i) for i in range(USERS)}
    with SyncMemory.open(data, embedder="hashing", settings=Settings(index_memory_mb=1)) as mem:
        cache = mem._memory._store.vector_cache.cache  # noqa: SLF001 - what is held, not how
        for order in (range(USERS), reversed(range(USERS))):
            for i in order:
                assert hits(mem, i) == unbounded[i], i
                assert cache.nbytes <= 1 << 20
        assert cache.evictions > USERS // 2
        assert all(h for h in unbounded.values())
        # u0 was searched first in the second pass; u699 has been dropped since
        assert not held(mem, "u699")
        mem.add(user_id="u699", session_id="s", content="I bought a blue kayak yesterday.")
        mem.drain()
        found = mem.search("the blue kayak", user_id="u699", limit=3)
        assert "kayak" in found[0].text
        (gone,) = [h for h in mem.search("kayak", user_id="u699", limit=3) if "kayak" in h.text]
        for i in range(USERS - 1):  # push u699 out again
            hits(mem, i)
        assert not held(mem, "u699")
        mem.delete_turn(int(gone.id.split(":")[1]))
        assert all("kayak" not in h.text for h in mem.search("the blue kayak", user_id="u699", limit=5))


@pytest.mark.parametrize("bound", [0, 512])
def test_a_new_scope_is_read_on_its_first_search(tmp_path: Path, bound: int) -> None:
    with SyncMemory.open(tmp_path / "data", embedder="hashing",
                         settings=Settings(index_memory_mb=bound)) as mem:
        mem.add(user_id="solo", session_id="s", content="My dog is called Pixel.")
        mem.drain()
        assert not held(mem, "solo")  # written, never searched: costs no memory
        assert "Pixel" in mem.search("what is my dog called?", user_id="solo", limit=1)[0].text
        mem.add(user_id="solo", session_id="s", content="Pixel is afraid of thunder.")
        mem.drain()  # held now: the new vector goes straight into its index
        assert "thunder" in mem.search("what scares Pixel, thunder?", user_id="solo", limit=1)[0].text
