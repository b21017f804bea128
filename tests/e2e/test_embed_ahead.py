"""A batch embedded ahead (issue 43 §2, ``CachedEmbedder.ahead``): with an embedder that runs
apart, the worker reads a batch for people and facts while its turns are embedded on another
thread; what it derives is what the worker derives embedding first, every turn has its vector,
and each text is embedded once."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from pmemo import Memory
from pmemo.embedders.hashing import HashingEmbedder

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
LINES = ["我对花生过敏", "My name is Bob. I love steak.", "下周三我要去北京面试", "哈哈哈",
         "I moved to Hangzhou last month", "我在腾讯上班", "周末一起打羽毛球吗", "I'm a vegetarian"]


class Apart(HashingEmbedder):
    """A hashing embedder that says it runs apart, and counts the texts and threads it embeds on."""

    runs_apart = True

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.threads: set[str] = set()

    def embed_passages(self, texts):
        self.texts += texts
        self.threads.add(threading.current_thread().name.split("_")[0])
        return super().embed_passages(texts)


async def derived(tmp_path, embedder) -> tuple[set, set, int, int]:
    async with await Memory.open(tmp_path, embedder=embedder) as m:
        items = [{"group_id": "g", "session_id": "s", "actor_id": f"p{i % 3}", "actor": f"P{i % 3}",
                  "timestamp": T0 + timedelta(minutes=i), "content": f"{LINES[i % len(LINES)]} {i // len(LINES)}"}
                 for i in range(60)]
        added = await m.add_many(items)
        await m.drain()
        facts = {(f.subject_id, f.key, f.value, f.said) for f in await m.profile(group_id="g")}
        vectors = m._store.get_vectors("turn", [t.id for t in added])
        people = {repr(await m.person(f"p{i}")) for i in range(3)}
        return facts, people, len(vectors), len(added)


async def test_a_batch_embedded_ahead_derives_what_embedding_first_does(tmp_path) -> None:
    apart = Apart()
    ahead = await derived(tmp_path / "ahead", apart)
    first = await derived(tmp_path / "first", HashingEmbedder())
    assert ahead == first and ahead[0]  # the same facts (some), people and vectors
    assert ahead[2] == ahead[3]  # every turn has its vector
    assert "pmemo-ahead" in apart.threads
    assert len(apart.texts) == len(set(apart.texts))  # no text embedded twice
