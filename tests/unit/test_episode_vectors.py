"""An episode's vector: offline (extractive) the centroid of its turns' vectors, as an extractive
summary's, with no embedding call; an LLM's episode, whose words are its own, its text embedded."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from pmemo.config import Settings
from pmemo.embedders.cached import CachedEmbedder
from pmemo.embedders.hashing import HashingEmbedder
from pmemo.llms.fake import ScriptedLLM
from pmemo.models import Scope
from pmemo.stores.base import NewTurn
from pmemo.stores.sqlite.store import SQLiteStore
from pmemo.tiers.episodes import Episodes, episode_text
from pmemo.tiers.mid_term import centroid_of
from pmemo.tiers.services import Tiers

SCOPE = Scope.of(group_id="g", session_id="day1")
NOW = datetime(2024, 5, 1, 9, tzinfo=UTC)
SAID = ["we decided to meet at the library", "bring the mock exam", "I finished chapter three"]


def closed(path: Path, llm: ScriptedLLM | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
    """(episode vector, its turns' centroid, its text's vector, texts embedded while closing)."""
    store = SQLiteStore.open(path)
    try:
        embed = CachedEmbedder(HashingEmbedder(), store.embed_cache)
        embedded: list[int] = []
        embed.on_embed(lambda kind, texts, seconds: embedded.append(texts))
        episodes = Episodes(store, Tiers(store, embed, llm, Settings()), Settings())
        turns = store.turns.add_turns([NewTurn(SCOPE, "user", text, "Bo", NOW + timedelta(minutes=n), {}, text,
                                         actor_id="bo") for n, text in enumerate(SAID)])
        store.vectors.put_vectors("turn", [(t.id, SCOPE.key, v) for t, v in
                                   zip(turns, embed.passages([t.indexed for t in turns]), strict=True)], embed.model_id)
        embedded.clear()
        episode = episodes.close_session(SCOPE, "day1")
        assert episode is not None
        vec = store.vectors.get_vectors("episode", [episode.id])[episode.id]
        centroid = centroid_of(np.stack(embed.passages([t.indexed for t in turns])))
        return vec, centroid, HashingEmbedder().embed_passages([episode_text(episode)])[0], embedded
    finally:
        store.close()


def test_an_extractive_episode_is_the_centroid_of_its_turns_and_embeds_nothing(tmp_path: Path) -> None:
    vec, centroid, text, embedded = closed(tmp_path / "a", None)
    assert np.allclose(vec, centroid, atol=1e-6) and not np.allclose(vec, text, atol=1e-3)
    assert embedded == []  # the turns' vectors came from the cache


def test_an_llm_episode_is_its_text_embedded(tmp_path: Path) -> None:
    reply = json.dumps({"summary": "Bo and the group planned a library session before the mock exam.",
                        "topics": ["library", "mock exam"], "importance": 0.6})
    vec, centroid, text, embedded = closed(tmp_path / "b", ScriptedLLM([reply]))
    assert np.allclose(vec, text, atol=1e-6) and not np.allclose(vec, centroid, atol=1e-3)
    assert embedded == [1]
