"""L2 windows in a memory (issue 20 §3): built as turns arrive, one embedding each, recalled
back to their turns, packed as one excerpt, rebuilt when a turn is forgotten, never mixing two
chats, and an open window's turns searchable before it is embedded."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pmemo import InvalidInput, Settings, SyncMemory
from pmemo.embedders.cached import cache_key
from pmemo.embedders.hashing import HashingEmbedder
from pmemo.tiers.windows import window_text
from pmemo.tokens import make_counter

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone(timedelta(hours=8)))
WINDOW = 60
OVERLAP = 12


class Recording(HashingEmbedder):
    """The hashing embedder, keeping every text it was asked to embed as a passage."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        self.texts += texts
        return super().embed_passages(texts)


def open_memory(path: Path, embedder: Any = "hashing", **changes: Any) -> SyncMemory:
    settings = Settings(data=str(path), embedder="hashing", window_tokens=WINDOW, window_overlap_tokens=OVERLAP,
                        window_idle_seconds=3600.0).replace(**changes)
    return SyncMemory.open(path, settings=settings, embedder=embedder)


@pytest.fixture
def wmem(tmp_path: Path) -> Iterator[SyncMemory]:
    m = open_memory(tmp_path / "w")
    yield m
    m.close()


def chat(group: str, texts: list[str], session: str = "day1", start: int = 0) -> list[dict[str, Any]]:
    return [dict(group_id=group, session_id=session, content=text, actor=f"m{(start + n) % 3}",
                 actor_id=f"p{(start + n) % 3}", timestamp=T0 + timedelta(minutes=start + n))
            for n, text in enumerate(texts)]


FILLER = [f"note {n}: {w} {v} item" for n, (w, v) in enumerate(
    zip(["red", "blue", "green", "amber", "violet", "cyan", "olive", "coral"] * 8,
        ["kettle", "lantern", "saddle", "pebble", "ribbon", "walnut", "tulip", "marble", "anchor"] * 8, strict=False))]
HIKE = ["where should we hike on saturday morning?", "fragrant hills", "ok, meeting at the east gate at eight"]


def test_windows_are_built_with_consecutive_turns_within_the_size_and_overlap(wmem: SyncMemory) -> None:
    turns = wmem.add_many(chat("g1", FILLER[:30]))
    wmem.drain()
    windows = wmem.windows(group_id="g1")
    count = make_counter("estimate")
    tokens = {t.id: count(t.content) for t in turns}
    ids = [t.id for t in turns]
    assert windows and not any(w.open for w in windows)
    assert windows[0].turn_from == ids[0] and windows[-1].turn_to == ids[-1]
    for w in windows:
        members = [i for i in ids if w.turn_from <= i <= w.turn_to]
        assert sum(tokens[i] for i in members) <= WINDOW or len(members) == 1
    for before, after in zip(windows, windows[1:], strict=False):
        shared = [i for i in ids if after.turn_from <= i <= before.turn_to]
        assert after.turn_from > before.turn_from and after.turn_to > before.turn_to
        assert sum(tokens[i] for i in shared) <= OVERLAP  # the overlap: the last turns that fit
        assert after.turn_from <= before.turn_to + 1  # no turn left out between two windows


def test_one_embedding_per_window_is_five_times_fewer_than_one_per_message(tmp_path: Path) -> None:
    texts = [f"{w} {n}" for n, w in enumerate(["ok", "lol", "same", "on my way", "nice one", "haha", "sure"] * 60)]
    spent, messages = {}, {}
    for size in (0, WINDOW):
        embedder = Recording()
        m = open_memory(tmp_path / f"s{size}", embedder, window_tokens=size)
        for start in range(0, len(texts), 50):  # arriving in batches, as a chat does
            m.add_many(chat("g1", texts[start : start + 50], start=start))
        m.drain()
        store = m._memory._store  # type: ignore[attr-defined]
        windows = [window_text(store.window_turns(w)) for w in m.windows(group_id="g1")]
        spent[size] = len(embedder.texts)  # everything: summaries and the like too
        messages[size] = sum(t in set(texts) | set(windows) for t in embedder.texts)
        assert sorted(t for t in embedder.texts if t in windows) == sorted(windows)  # each window once
        m.close()
    assert messages[0] == len(texts)
    assert messages[WINDOW] * 5 <= messages[0] and spent[WINDOW] * 5 <= spent[0]


def test_a_message_inside_a_window_is_found_by_what_its_window_says(wmem: SyncMemory) -> None:
    turns = wmem.add_many(chat("g1", [*FILLER[:12], *HIKE, *FILLER[12:24]]))
    wmem.drain()
    answer = turns[13]
    assert answer.content == "fragrant hills"
    hits = wmem.search("hike on saturday", group_id="g1", limit=5)
    found = [h for h in hits if h.sources[0].id == answer.id]
    assert found, [h.text for h in hits]  # none of the query's words is in the answer itself
    assert "window of turns" in found[0].why and "meaning" in found[0].why
    # the context shows the recalled window as one excerpt, its turns in order under one line
    pack = wmem.context("hike on saturday", group_id="g1", budget_tokens=600)
    excerpt = next(h for h in pack.items if h.kind == "window" and answer.id in [t.id for t in h.sources])
    assert [t.id for t in excerpt.sources] == sorted(t.id for t in excerpt.sources)
    first, *rest = (f"{t.actor}: {t.content}" for t in excerpt.sources)  # one item, its turns in order
    assert "\n".join([first, *(f"  {line}" for line in rest)]) in pack.text


def test_forgetting_a_turn_embeds_its_window_again_without_it(wmem: SyncMemory) -> None:
    turns = wmem.add_many(chat("g1", [*FILLER[:8], "the spare key hides under the zanzibar flowerpot",
                                      *FILLER[8:16]]))
    wmem.drain()
    secret = turns[8]
    store, embed = wmem._memory._store, wmem._memory._embed  # type: ignore[attr-defined]
    held = store.windows_with([secret.id])
    old_keys = [cache_key(embed.model_id, window_text(store.window_turns(w))) for w in held]
    qvec = embed.query("zanzibar flowerpot")
    said = max(float(store.vectors.get_vectors("window", [w.id])[w.id] @ qvec) for w in held)
    assert said > 0.1
    report = wmem.forget([secret.id], hard=True)
    assert set(report["windows"].values()) == {"rebuilt"}
    after = store.get_windows([w.id for w in held])
    others = [t.id for t in turns if t.id != secret.id]
    vectors = {**store.vectors.get_vectors("window", list(after)), **store.vectors.get_vectors("turn", others)}
    assert vectors and max(float(v @ qvec) for v in vectors.values()) < said / 4  # nothing says it any more
    assert not store.embed_cache.cache_get(old_keys)  # nor does the embedding cache
    assert all(secret.id not in [t.id for t in h.sources] for h in wmem.search("zanzibar flowerpot", group_id="g1"))
    # a window whose every turn is forgotten goes
    last = wmem.windows(group_id="g1")[-1]
    gone = [t.id for t in turns if last.turn_from <= t.id <= last.turn_to]
    report = wmem.forget(gone)
    assert report["windows"][last.id] == "deleted" and last.id not in {w.id for w in wmem.windows(group_id="g1")}


def test_a_restored_turn_is_back_in_its_window(wmem: SyncMemory) -> None:
    turns = wmem.add_many(chat("g1", FILLER[:16]))
    wmem.drain()
    store = wmem._memory._store  # type: ignore[attr-defined]
    target = turns[5]
    window = store.windows_with([target.id])[0]
    before = store.vectors.get_vectors("window", [window.id])[window.id].copy()
    report = wmem.forget([target.id])
    assert not np.allclose(store.vectors.get_vectors("window", [window.id])[window.id], before)
    wmem.restore(report["batch"])
    wmem.drain()
    assert np.allclose(store.vectors.get_vectors("window", [window.id])[window.id], before)
    assert store.windows_with([target.id])[0].id == window.id


def test_windows_of_two_groups_never_mix(wmem: SyncMemory) -> None:
    a = [f"alpha club {w} plan" for w in ["harbour", "museum", "garden", "bakery"] * 4]
    b = [f"beta club {w} secret" for w in ["quarry", "bunker", "tunnel", "vault"] * 4]
    items = [item for pair in zip(chat("ga", a, session="same"), chat("gb", b, session="same"), strict=True)
             for item in pair]  # interleaved, one batch, the same session id
    turns = wmem.add_many(items)
    wmem.drain()
    by_group = {g: {t.id for t in turns if t.scope.group_id == g} for g in ("ga", "gb")}
    store = wmem._memory._store  # type: ignore[attr-defined]
    for group, own in by_group.items():
        windows = wmem.windows(group_id=group)
        members = store.window_members(w.id for w in windows)
        assert windows and set().union(*members.values()) == own
    hits = wmem.search("quarry bunker tunnel vault secret", group_id="ga", limit=20)
    assert hits and not {h.sources[0].id for h in hits if h.kind == "turn"} & by_group["gb"]
    pack = wmem.context("quarry bunker tunnel vault secret", group_id="ga")
    assert "beta club" not in pack.text


def test_the_open_window_is_searchable_by_its_words_then_by_meaning(tmp_path: Path) -> None:
    m = open_memory(tmp_path / "tail", window_tokens=400, window_idle_seconds=3600.0)
    turns = m.add_many(chat("g1", ["the plumber comes thursday", "bring the blue toolbox", "and some tea"]))
    deadline = time.monotonic() + 30
    while m.pending() and time.monotonic() < deadline:  # the worker folds them; the window stays open
        time.sleep(0.05)
    assert [w.open for w in m.windows(group_id="g1")] == [True]
    hits = m.search("plumber", group_id="g1")
    assert hits[0].sources[0].id == turns[0].id and "window" not in hits[0].why  # by its words
    m.drain()  # embeds the open window
    assert [w.open for w in m.windows(group_id="g1")] == [False]
    hits = m.search("toolbox", group_id="g1")
    assert "window of turns" in next(h for h in hits if h.sources[0].id == turns[1].id).why
    m.close()


def test_a_quiet_chat_s_open_window_is_embedded_without_a_drain(tmp_path: Path) -> None:
    m = open_memory(tmp_path / "idle", window_tokens=400, window_idle_seconds=0.2)
    m.add_many(chat("g1", ["the plumber comes thursday", "bring the blue toolbox"]))
    deadline = time.monotonic() + 30
    while (not m.windows(group_id="g1") or m.windows(group_id="g1")[0].open) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [w.open for w in m.windows(group_id="g1")] == [False]
    m.close()


def test_clusters_and_summaries_work_on_window_vectors(tmp_path: Path) -> None:
    embedder = Recording()
    m = open_memory(tmp_path / "tiers", embedder, short_term_turns=6, summary_every=5)
    m.add_many(chat("g1", FILLER[:20]))
    m.add_many(chat("g1", FILLER[20:40], start=20))
    m.drain()
    clusters = m.clusters(group_id="g1")
    summaries = m.summaries(group_id="g1")
    assert sum(len(c.member_ids) for c in clusters) == 40 - 6  # every turn past short-term is clustered
    assert len(summaries) == 8 and all(s.method == "extractive" for s in summaries)
    assert not set(embedder.texts) & set(FILLER)  # no turn was embedded alone, for them or anything
    m.close()


def test_the_overlap_must_be_smaller_than_the_window() -> None:
    with pytest.raises(InvalidInput, match="window_overlap_tokens"):
        Settings(window_tokens=32, window_overlap_tokens=32)
