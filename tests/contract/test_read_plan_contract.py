"""The read plan's calls (issue 45 §4) give what the single calls they stand for give, on every
backend: the chat state, the nearest of several kinds, the turn pool, the long-term records,
the facts of several people, what a chat knows of some people, the episodic tier."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest

from pmemo import Settings, SyncMemory
from pmemo.models import Scope
from pmemo.stores.base import CLUSTERS, FullStore

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=timezone(timedelta(hours=8)))
LINES = [("ni", "周霓", "大家好，叫我霓霓就行。我在腾讯上班，对花生过敏"),
         ("wt", "许文涛", "我在字节工作，养了一只猫叫豆豆"),
         ("gf", "高峰", "我12月23日考研"),
         ("ni", "周霓", "周末一起去图书馆吧"),
         ("wt", "许文涛", "好的"),
         ("gf", "高峰", "哈哈哈")]
CHAT = Scope.of(group_id="study")


@pytest.fixture(params=["sqlite", "postgres"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SyncMemory]:
    place = str(request.getfixturevalue("postgres_url")) if request.param == "postgres" else str(tmp_path / "db")
    settings = Settings(data=str(tmp_path / "data"), summary_every=4, **({"store": place}))
    with SyncMemory.open(place, settings=settings, embedder="hashing") as m:
        for i, (who, name, text) in enumerate(LINES * 2):
            m.add(group_id="study", session_id="s1", actor_id=who, actor=name, content=text,
                  timestamp=T0 + timedelta(minutes=i))
        m.add_key("群规：每周五打卡", group_id="study")
        m.drain()
        yield m


def _store(m: SyncMemory) -> FullStore:
    return m._memory._store  # noqa: SLF001 - the contract reads the store the memory wrote


def test_chat_state_is_the_single_reads(memory: SyncMemory) -> None:
    store = _store(memory)
    state = store.chat_state(CHAT, "s1", 2, key_sources=True)
    assert (state.aliases, state.signs, state.entities) == (
        store.alias_version("default"), store.sign_version("default"), store.graph.entity_version("default"))
    assert state.aliases > 0 and state.members == store.member_ids(CHAT) == {"ni", "wt", "gf"}
    assert list(state.actors) == store.turns.actors(CHAT) and state.now == store.owners.conversation_now(CHAT)
    assert list(state.latest) == [s.id for s in store.summaries.of_scope(CHAT, "s1", 2)] and state.latest
    assert list(state.keys) == store.key_lines.keys(CHAT, sources=True)
    assert [k.source_ids for k in store.chat_state(CHAT).keys] == [()]
    assert store.chat_state(CHAT).latest == () and store.chat_state(CHAT).owners == ()
    assert list(store.chat_state(CHAT, None, 3).latest) == [s.id for s in store.summaries.of_scope(CHAT, None, 3)]
    private = Scope.of(user_id="ni")
    assert store.chat_state(private).owners == tuple(store.person_owners("default", "ni"))


def test_nearest_kinds_and_the_turn_pool(memory: SyncMemory) -> None:
    store, model = _store(memory), memory._memory._embed.model_id  # noqa: SLF001
    qvec = memory._memory._embed.query("谁在腾讯上班")  # noqa: SLF001
    wanted = [("turn", 5), ("summary", 2), ("diary", 1), (CLUSTERS, 3)]
    found = store.nearest_kinds(CHAT, qvec, wanted, model)
    assert list(found) == ["turn", "summary", "diary", CLUSTERS]
    for kind, k in wanted[:3]:
        assert found[kind] == store.vectors.nearest(kind, CHAT.key, qvec, k, model)
    assert found[CLUSTERS] == store.clusters.nearest_clusters(CHAT, qvec, 3)
    ids = [i for i, _ in found["turn"]]
    pool = store.turn_pool(ids[:3], radius=2, around=ids[:1], tied=True, vectors="turn", known=ids[:1])
    assert pool.refs == store.turns.turn_refs(ids[:3], 2, ids[:1])
    assert pool.links == store.turns.reply_links(list(pool.refs))
    want = store.vectors.get_vectors("turn", [i for i in sorted(pool.refs) if i != ids[0]])
    assert pool.vectors.keys() == want.keys() and all(np.array_equal(pool.vectors[i], want[i]) for i in want)
    sessions = {r.session for r in pool.refs.values()}
    assert pool.last_steps == store.turns.max_steps(CHAT, sessions) and pool.last_steps["s1"] == 12
    assert store.turn_pool([]) == (({}, {}, {}, {}))


def test_long_term_and_facts_of_many(memory: SyncMemory) -> None:
    store = _store(memory)
    summaries = [s.id for s in store.summaries.of_scope(CHAT)]
    days = [d.id for d in store.diary.diaries(CHAT)]
    got = store.long_term([*summaries, 999_999], [*days, 999_999])
    assert got == (store.summaries.get_summaries(summaries), store.diary.get_diaries(days)) and got[0] and got[1]
    owners = {"ni": [CHAT.owner], "wt": None, "gf": ["g:elsewhere"], "nobody": None}
    many = store.facts_about_many("default", "default", owners, history=True)
    for person, where in owners.items():
        assert many[person] == store.profile.facts_about("default", "default", person, where, True)
    assert many["ni"] and many["wt"] and many["gf"] == [] and many["nobody"] == []


def test_people_known_and_episodic(memory: SyncMemory) -> None:
    store = _store(memory)
    ids = ["wt", "gf", "ni", "ghost"]
    start, end = date(2026, 11, 1), date(2027, 1, 31)
    known = store.people_known(CHAT, ids, {p: [CHAT.owner] for p in ids}, ([CHAT.owner], start, end))
    assert list(known.members) == [m.person.id for m in store.members(CHAT, ids)]
    assert known.members == {m.person.id: m for m in store.members(CHAT, ids)}
    assert known.people == store.get_people("default", ids) and set(known.people) == {"wt", "gf", "ni"}
    assert store.people_known(Scope.of(group_id="other"), ids, {}).members == {}
    assert known.facts == store.facts_about_many("default", "default", {p: [CHAT.owner] for p in ids}, True)
    plans = store.plans.agenda("default", "default", [CHAT.owner], ["wt", "gf", "ni"], start, end, "open")
    assert known.agenda == plans
    assert {i.what for i in known.agenda} == {"考研"}
    qvec = memory._memory._embed.query("考研")  # noqa: SLF001
    signals, tasks = store.episodic(CHAT, qvec)
    assert signals == store.episodes.episode_signals(CHAT, qvec) and tasks == store.tasks.tasks(CHAT, "running")
