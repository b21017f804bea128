"""The second dense channel (setting second_encoder): turns embedded by both encoders in
the background, stored as their own kind, fused at search when the query is a dialogue, forgotten with the turn, and
embedded again when the second encoder changes. The first encoder is the hashing fake, so
what only meaning finds comes from the second (the real USE)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pmemo import Memory
from pmemo.config import Settings
from pmemo.embedders.cached import cache_key
from pmemo.embedders.use import USEEmbedder

TEXTS = ["I adopted a kitten from the shelter", "the train to Berlin was late again",
         "我的生日是五月三日", "we painted the kitchen yellow"]


async def _open(path: Path, second: str) -> Memory:
    return await Memory.open(path, settings=Settings(data=str(path), second_encoder=second), embedder="hashing")


async def _filled(path: Path, second: str = "use") -> tuple[Memory, list[int]]:
    mem = await _open(path, second)
    turns = await mem.add_many([{"session_id": "s", "content": c, "user_id": "u"} for c in TEXTS])
    await mem.drain()
    return mem, [t.id for t in turns]


async def test_each_turn_gets_a_second_vector_and_search_finds_by_its_meaning(tmp_path):
    mem, ids = await _filled(tmp_path)
    try:
        store = mem._store
        second = store.vectors.get_vectors("turn2", ids)
        assert sorted(second) == ids
        assert np.allclose(second[ids[0]], USEEmbedder().embed_passages([TEXTS[0]])[0], atol=1e-5)
        # a chat as the query, no word in common with the kitten turn: hashing alone ranks it by chance
        hits = await mem.search("u: hello there\nbot: hi! what's up?\nu: a new pet cat", user_id="u", limit=1)
        assert [h.text for h in hits] == [TEXTS[0]]
    finally:
        await mem.close()


async def test_only_a_dialogue_shaped_query_is_read_by_the_second_encoder(tmp_path, monkeypatch):
    asked: list[str] = []
    real = USEEmbedder.embed_query
    monkeypatch.setattr(USEEmbedder, "embed_query", lambda self, text: asked.append(text) or real(self, text))
    mem, _ = await _filled(tmp_path)
    try:
        await mem.search("a new pet cat", user_id="u")  # a question: e5's alone (it cost LoCoMo R@5)
        assert asked == []
        await mem.search("u: hello there\nbot: hi!\nu: a new pet cat", user_id="u")
        assert asked  # the dialogue, by its views
    finally:
        await mem.close()


async def test_forget_takes_the_second_vector_and_its_cached_embedding(tmp_path):
    mem, ids = await _filled(tmp_path)
    try:
        store = mem._store
        key = cache_key("use-multilingual-v3", TEXTS[0])
        assert store.embed_cache.cache_get([key])
        await mem.forget([ids[0]], hard=True, tenant_id="default")
        assert store.vectors.get_vectors("turn2", ids).keys() == set(ids[1:])
        assert store.embed_cache.cache_get([key]) == {}
    finally:
        await mem.close()


async def test_turning_the_second_encoder_on_embeds_the_turns_already_stored(tmp_path):
    mem, ids = await _filled(tmp_path, second="")
    assert mem._store.vectors.get_vectors("turn2", ids) == {}
    await mem.close()
    mem = await _open(tmp_path, "use")
    try:
        await mem.drain()
        assert sorted(mem._store.vectors.get_vectors("turn2", ids)) == ids
        assert mem._store.meta.get_meta("second_model") == "use-multilingual-v3"
    finally:
        await mem.close()


async def test_a_restored_turn_gets_its_second_vector_again(tmp_path):
    mem, ids = await _filled(tmp_path)
    try:
        report = await mem.forget([ids[0]], tenant_id="default")  # soft: restorable
        assert ids[0] not in mem._store.vectors.get_vectors("turn2", ids)
        await mem.restore(report["batch"], tenant_id="default")
        await mem.drain()
        assert sorted(mem._store.vectors.get_vectors("turn2", ids)) == ids
    finally:
        await mem.close()
